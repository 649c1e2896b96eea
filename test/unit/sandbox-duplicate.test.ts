// The sandbox's duplicate (POST /workitem/workItems/{workItemId}/subItems/duplicate) as the
// official help describes it (official-reference.md section 7, A3), with an add's rules for
// each copy and the sandbox's choices where the help is silent (docs/compatibility.md), over
// real HTTP. Each test is named after the rule it checks; every refusal is checked to leave
// the data set as it was.
import * as assert from 'node:assert/strict';
import type { DatasetInput, WorkItem } from '../../src/sandbox/model';
import { MAX_ITEMS_PER_ADD } from '../../src/sandbox/additions/choices';
import { Harness, childOrder } from './sandbox-update-harness';
import { baseFixture, chain, folder, task } from './sandbox-update-fixtures';

interface Answer {
  items: Record<string, unknown>[];
  affectedItems: Record<string, unknown>[];
}

describe('sandbox duplicate: POST /workitem/workItems/{id}/subItems/duplicate (official help A3)', function () {
  const h = new Harness('professional');
  before(() => h.start());
  after(() => h.stop());
  beforeEach(() => h.reset());

  const dup = (parentId: string, body: unknown, login = 'admin') =>
    h.api('POST', `/workitem/workItems/${encodeURIComponent(parentId)}/subItems/duplicate`, body, login);
  const duplicates = async (parentId: string, body: unknown, login = 'admin'): Promise<Answer> => {
    const r = await dup(parentId, body, login);
    assert.equal(r.status, 200, r.raw);
    return r.json as Answer;
  };
  const refuses = (parentId: string, body: unknown, status: number, expected: Parameters<Harness['refused']>[2], login = 'admin') =>
    h.refused(() => dup(parentId, body, login), status, expected);
  const stored = async (id: unknown): Promise<WorkItem> => (await h.dump()).workItems.find((w) => w.id === id)!;

  it("copies the items of fromItemIds below the item; the answer's items are the copies, affectedItems the others changed (A3)", async () => {
    const answer = await duplicates('F2', { fromItemIds: 'T1' });
    assert.deepEqual(answer.affectedItems, []);
    assert.equal(answer.items.length, 1);
    const copy = answer.items[0]!;
    assert.notEqual(copy['id'], 'T1');
    assert.equal(copy['parentId'], 'F2');
    const t1 = await stored('T1');
    const c = await stored(copy['id']);
    assert.deepEqual(
      [c.name, c.itemTypeId, c.plannedStartDate, c.plannedFinishDate, c.plannedTime, c.plannedCost, c.leaderId, c.assignments],
      [t1.name, t1.itemTypeId, t1.plannedStartDate, t1.plannedFinishDate, t1.plannedTime, t1.plannedCost, t1.leaderId, t1.assignments],
    );
    assert.deepEqual(childOrder(await h.dump(), 'F2'), [copy['id']], 'at the end below the destination');
    assert.ok(!(await h.dump()).scheduleLinks.some((l) => l.fromId === copy['id'] || l.toId === copy['id']), 'schedule links are not copied');
  });

  it('duplicateAllChildren copies each item with everything below it, in order; without it only the item', async () => {
    const alone = await duplicates('F2', { fromItemIds: 'F1a' });
    assert.deepEqual(
      alone.items.map((i) => i['name']),
      ['Item F1a'],
    );
    await h.reset();
    const all = await duplicates('F2', { fromItemIds: 'F1a', duplicateAllChildren: true });
    assert.deepEqual(
      all.items.map((i) => i['name']),
      ['Item F1a', 'Item T1', 'Item T2', 'Item T3'],
    );
    const [f, t1, t2, t3] = all.items.map((i) => String(i['id']));
    assert.deepEqual(childOrder(await h.dump(), f!), [t1, t2, t3]);
    // Deleted items below are not copied.
    await h.reset();
    const f1 = await duplicates('F2', { fromItemIds: 'F1', duplicateAllChildren: true });
    assert.ok(!f1.items.some((i) => /D2/.test(String(i['name']))), JSON.stringify(f1.items.map((i) => i['name'])));
    assert.equal(f1.items.length, 7, 'F1, F1a, T1, T2, T3, T4, T4a');
  });

  it('more than 16 levels after copying is an error (A3)', async () => {
    await h.reset(baseFixture(chain(16)));
    // C10 holds C11..C16: 7 levels; below C10 (level 10) they would reach level 17.
    await refuses('C10', { fromItemIds: 'C10', duplicateAllChildren: true }, 400, { code: 'HIERARCHY_TOO_DEEP' });
    await refuses('C16', { fromItemIds: 'T1' }, 400, { code: 'PARENT_AT_MAX_DEPTH', rule: 19 });
    // Below C9 (level 9) they end on level 16.
    assert.equal((await duplicates('C9', { fromItemIds: 'C10', duplicateAllChildren: true })).items.length, 7);
  });

  it(`too many items is an error (A3): at most ${MAX_ITEMS_PER_ADD} copies in one request, descendants counted (sandbox choice)`, async () => {
    const many = Array.from({ length: MAX_ITEMS_PER_ADD }, (_, i) => task(`M${i}`, 'BIG'));
    await h.reset(baseFixture([folder('BIG', null), ...many]));
    await refuses('F2', { fromItemIds: 'BIG', duplicateAllChildren: true }, 400, { code: 'TOO_MANY_ITEMS_TO_ADD' });
    assert.equal((await duplicates('F2', { fromItemIds: 'BIG' })).items.length, 1, 'the folder alone is one item');
  });

  it('fieldsToCopy names the fields copied besides Name and ItemTypeId; a field that cannot be copied or does not exist is an error', async () => {
    const answer = await duplicates('F2', { fromItemIds: 'T1', fieldsToCopy: 'Code,PlannedTime' });
    const c = await stored(answer.items[0]!['id']);
    assert.equal(c.name, 'Item T1');
    assert.equal(c.plannedTime, 480);
    assert.deepEqual([c.plannedStartDate, c.leaderId, c.assignments], [null, null, []], 'what is not named is not copied');
    await refuses('F2', { fromItemIds: 'T1', fieldsToCopy: 'ActualTime' }, 400, { code: 'FIELD_NOT_COPYABLE', field: 'fieldsToCopy' });
    await refuses('F2', { fromItemIds: 'T1', fieldsToCopy: 'Colour' }, 400, { code: 'FIELD_UNKNOWN_NAME', rule: 29 });
  });

  it('a copy starts as new work: progress 0 and the first status unless fieldsToCopy names them (sandbox choice)', async () => {
    await h.accepts('T3', { fields: { ActualProgress: 50, StatusTypeId: '53' } });
    const plain = await stored((await duplicates('F2', { fromItemIds: 'T3' })).items[0]!['id']);
    assert.deepEqual([plain.actualProgress, plain.statusTypeId], [0, '51']);
    const asIs = await stored((await duplicates('F2', { fromItemIds: 'T3', fieldsToCopy: 'ActualProgress,StatusTypeId' })).items[0]!['id']);
    assert.deepEqual([asIs.actualProgress, asIs.statusTypeId], [50, '53']);
  });

  it("fromProjectId: items of another project can be copied, and each copy follows the destination's rules (members only, errors 14 and 15)", async () => {
    const answer = await duplicates('F2', { fromProjectId: 'p2', fromItemIds: 'Q1', duplicateAllChildren: true });
    assert.deepEqual(
      answer.items.map((i) => [i['name'], i['projectId']]),
      [
        ['Q1', 'p1'],
        ['Q2', 'p1'],
      ],
    );
    // Q2 led by bob, who is not a member of p1: the copy is refused.
    await h.accepts('Q2', { fields: { LeaderId: 'u-bob' } });
    const errors = await refuses('F2', { fromProjectId: 'p2', fromItemIds: 'Q2' }, 400, { code: 'LEADER_NOT_MEMBER', rule: 14 });
    assert.match(errors[0]!.message, /^Copy of work item Q2: /);
    await h.reset();
    await h.accepts('Q2', { assignmentChange: { adds: [{ partyId: 'u-bob', partyType: 'User', plannedTime: 60 }] } });
    await refuses('F2', { fromProjectId: 'p2', fromItemIds: 'Q2' }, 400, { code: 'ASSIGNEE_NOT_MEMBER', rule: 15 });
    await refuses('F2', { fromProjectId: 'p2', fromItemIds: 'T1' }, 400, { code: 'OTHER_PROJECT', rule: 22 });
    await refuses('F2', { fromItemIds: 'Q2' }, 400, { code: 'OTHER_PROJECT', rule: 22 }, 'admin');
    await refuses('F2', { fromProjectId: 'p9', fromItemIds: 'Q2' }, 400, { code: 'SOURCE_PROJECT_NOT_FOUND', field: 'fromProjectId' });
  });

  it('order members place the copies together, in the order of fromItemIds; one at most (error 20)', async () => {
    const answer = await duplicates('F1a', { fromItemIds: 'T3,T1', orderAfter: 'T1' });
    const [c3, c1] = answer.items.map((i) => String(i['id']));
    assert.deepEqual(childOrder(await h.dump(), 'F1a'), ['T1', c3, c1, 'T2', 'T3']);
    await h.reset();
    const first = await duplicates('F1a', { fromItemIds: 'T2,T3', orderFirst: true });
    assert.deepEqual(childOrder(await h.dump(), 'F1a'), [...first.items.map((i) => String(i['id'])), 'T1', 'T2', 'T3']);
    await refuses('F1a', { fromItemIds: 'T1', orderFirst: true, orderLast: true }, 400, { code: 'ORDER_MULTIPLE', rule: 20 });
    await refuses('F1a', { fromItemIds: 'T1', orderBefore: 'T4' }, 400, { code: 'ORDER_REFERENCE_NOT_SIBLING' });
  });

  it('each item of fromItemIds must exist and be live; fromItemIds is required and names at least one', async () => {
    await refuses('F2', { fromItemIds: 'T1,nope' }, 400, { code: 'REFERENCED_ITEM_NOT_FOUND', rule: 23 });
    await refuses('F2', { fromItemIds: 'D1' }, 400, { code: 'REFERENCED_ITEM_NOT_FOUND', rule: 23 });
    await refuses('F2', { fromItemIds: ' , ' }, 400, { code: 'DUPLICATE_NO_SOURCE' });
    await refuses('F2', {}, 400, { code: 'MEMBER_REQUIRED', field: 'fromItemIds' });
    await refuses('F2', { fromItemIds: 'p1-root' }, 400, { code: 'ROOT_FOLDER_FIXED' });
    await refuses('nope', { fromItemIds: 'T1' }, 404, { code: 'WORK_ITEM_NOT_FOUND' });
  });

  it('folder placement, actuals, lock and permission: as for an add (errors 17, 18; 403)', async () => {
    await refuses('T3', { fromItemIds: 'F1a' }, 400, { code: 'FOLDER_UNDER_NON_FOLDER', rule: 18 });
    await refuses('T4', { fromItemIds: 'T1' }, 400, { code: 'PARENT_HAS_ACTUALS', rule: 17 });
    await refuses('F2', { fromItemIds: 'T1' }, 403, { code: 'ADD_FORBIDDEN' }, 'viewer');
    const data: DatasetInput = baseFixture();
    data.projects!.find((p) => p.id === 'p1')!.isLocked = true;
    await h.reset(data);
    await refuses('F2', { fromItemIds: 'T1' }, 400, { code: 'PROJECT_LOCKED' });
  });

  it("a copy does not take the original's metadata; clearCheckItemStatus is accepted (the sandbox has no check items)", async () => {
    const added = (await h.api('POST', '/workitem/workItems/F2/subItems', { fields: { ItemTypeId: 'task', Name: 'keyed' }, metadata: { key: 'k' } }))
      .json as Answer;
    const id = String(added.items[0]!['id']);
    const copy = await duplicates('F2', { fromItemIds: id, clearCheckItemStatus: true });
    assert.equal('metadata' in copy.items[0]!, false);
    assert.equal((await stored(copy.items[0]!['id'])).metadata, undefined);
  });

  it('a folder copied into its own subtree copies it as it was before the request', async () => {
    const answer = await duplicates('F1a', { fromItemIds: 'F1', duplicateAllChildren: true });
    assert.equal(answer.items.length, 7);
    assert.equal(answer.items[0]!['parentId'], 'F1a');
  });
});
