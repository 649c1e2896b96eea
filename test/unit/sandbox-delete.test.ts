// The sandbox's delete (DELETE /workitem/workItems/{workItemIds}) and the update's restore of
// what it deleted, over real HTTP. The help gives only the common rules (official-reference.md
// section 1: the IDs in the path, a nonexistent ID is an error); the rest is the sandbox's
// choice (docs/compatibility.md). Each test is named after the rule it checks; every refusal
// is checked to leave the data set as it was.
import * as assert from 'node:assert/strict';
import type { Dataset } from '../../src/sandbox/model';
import { MAX_IDS_PER_DELETE } from '../../src/sandbox/additions/choices';
import { Harness, STAMP, childOrder, entry } from './sandbox-update-harness';
import { baseFixture } from './sandbox-update-fixtures';

interface Answer {
  items: Record<string, unknown>[];
  affectedItems: Record<string, unknown>[];
}

const live = (data: Dataset, id: string): boolean => !data.workItems.find((w) => w.id === id)!.isDeleted;

describe('sandbox delete: DELETE /workitem/workItems/{ids}', function () {
  const h = new Harness('professional');
  before(() => h.start());
  after(() => h.stop());
  beforeEach(() => h.reset());

  const del = (ids: string, login = 'admin') => h.api('DELETE', `/workitem/workItems/${ids}`, undefined, login);
  const deletes = async (ids: string, login = 'admin'): Promise<Answer> => {
    const r = await del(ids, login);
    assert.equal(r.status, 200, r.raw);
    return r.json as Answer;
  };
  const restores = (id: string) => h.accepts(id, { restore: true });

  it("a deleted item is restorable with the update's restore, back where it was", async () => {
    await deletes('T2');
    assert.equal((await h.api('GET', '/workitem/workItems/T2?fields=Name')).status, 404, 'hidden from reads');
    const withDeleted = await h.api('GET', '/workitem/workItems/T2?fields=Name,IsDeleted&includeDeleted=true');
    assert.equal((withDeleted.json as { fields: { IsDeleted: boolean } }[])[0]!.fields.IsDeleted, true);
    assert.deepEqual(childOrder(await h.dump(), 'F1a'), ['T1', 'T3']);
    await restores('T2');
    const data = await h.dump();
    assert.deepEqual(childOrder(data, 'F1a'), ['T1', 'T2', 'T3'], 'the same parent and position');
    assert.equal(data.workItems.find((w) => w.id === 'T2')!.deletedWith, undefined, 'nothing of the deletion is left');
  });

  it('deleting a folder deletes its subtree, and restore brings it back as it was (an item deleted on its own before stays deleted)', async () => {
    await deletes('T2'); // on its own, before the folder
    const answer = await deletes('F1a');
    assert.deepEqual(
      answer.items.map((i) => i['id']),
      ['F1a'],
    );
    assert.deepEqual(answer.affectedItems.map((i) => i['id']).sort(), ['T1', 'T3'], 'the live items below went with it');
    let data = await h.dump();
    for (const id of ['F1a', 'T1', 'T2', 'T3']) assert.equal(live(data, id), false, id);
    assert.equal((await h.api('GET', '/workitem/workItems/F1/subItems?fields=Name')).raw.includes('"T1"'), false, 'the subtree is hidden from reads');

    const restored = await restores('F1a');
    assert.deepEqual(restored.affectedItems.map((i) => i['id']).sort(), ['T1', 'T3']);
    data = await h.dump();
    assert.deepEqual(childOrder(data, 'F1a'), ['T1', 'T3'], 'T2 was deleted before the folder: it stays deleted');
    assert.equal(live(data, 'T2'), false);
    await restores('T2');
    assert.deepEqual(childOrder(await h.dump(), 'F1a'), ['T1', 'T2', 'T3']);
  });

  it('a deletion in several levels: items named with their ancestor go with the ancestor and come back with it', async () => {
    const answer = await deletes('T1,F1a,T4a');
    assert.deepEqual(
      answer.items.map((i) => i['id']),
      ['T1', 'F1a', 'T4a'],
    );
    for (const i of answer.items) assert.equal(i['isDeleted'], true);
    await restores('F1a');
    const data = await h.dump();
    assert.deepEqual(childOrder(data, 'F1a'), ['T1', 'T2', 'T3']);
    assert.equal(live(data, 'T4a'), false, 'T4a is not below F1a');
  });

  it("the answer of a delete: 200 with the update's shape, items and affectedItems stamped (sandbox choice)", async () => {
    const answer = await deletes('F1a,T4');
    assert.deepEqual(entry(answer.items, 'F1a'), { id: 'F1a', isDeleted: true, itemWarnings: [], updatedAt: STAMP, updatedBy: '2001' });
    assert.deepEqual(entry(answer.affectedItems, 'T4a'), { id: 'T4a', isDeleted: true, itemWarnings: [], updatedAt: STAMP, updatedBy: '2001' });
    assert.deepEqual(answer.affectedItems.map((i) => i['id']).sort(), ['T1', 'T2', 'T3', 'T4a']);
  });

  it('a nonexistent ID is an error, naming each (official help C1); so is an item already deleted', async () => {
    const errors = await h.refused(() => del('T1,nope,nor-this'), 404, { code: 'WORK_ITEM_NOT_FOUND', itemId: 'nope' });
    assert.deepEqual(
      errors.map((e) => e.itemId),
      ['nope', 'nor-this'],
    );
    await h.refused(() => del('T1,D1'), 404, { code: 'ALREADY_DELETED', itemId: 'D1' });
    await h.refused(() => del('T1,,T2'), 400, { code: 'ID_EMPTY' });
  });

  it(`at most ${MAX_IDS_PER_DELETE} IDs in one delete (sandbox choice, as for updates)`, async () => {
    const ids = Array.from({ length: MAX_IDS_PER_DELETE + 1 }, (_, i) => String(i + 1)).join(',');
    await h.refused(() => del(ids), 400, { code: 'TOO_MANY_ITEMS_TO_DELETE' });
  });

  it("a project's root folder cannot be deleted", async () => {
    await h.refused(() => del('p1-root'), 400, { code: 'ROOT_FOLDER_NOT_DELETABLE' });
  });

  it('a locked project is an error; only a member with edit permission deletes (403)', async () => {
    await h.refused(() => del('T1', 'viewer'), 403, { code: 'DELETE_FORBIDDEN' });
    await h.refused(() => del('Q2', 'alice'), 403, { code: 'DELETE_FORBIDDEN' });
    const data = baseFixture();
    data.projects!.find((p) => p.id === 'p1')!.isLocked = true;
    await h.reset(data);
    await h.refused(() => del('T1'), 400, { code: 'PROJECT_LOCKED' });
  });

  it('a deleted item accepts only restore, as before (error 23)', async () => {
    await deletes('T3');
    await h.rejects('T3', { fields: { Name: 'x' } }, 400, { code: 'WORK_ITEM_DELETED', rule: 23 });
  });
});
