// Adds and deletes in a change: planned as one POST per add (never split) and DELETEs in
// batches, sent in the change's order by the engine against the real sandbox over real
// HTTP (undici), the answer's IDs kept in the journal (version 6, with the key its items
// carry), an add of unknown outcome never sent again blindly (found by its key, one copy in
// the sandbox, whatever the faults), and undone by deleting what the add created.
import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ServiceClient } from '../../src/api/client';
import { readWorkItems } from '../../src/api/reads';
import { flattenToRows } from '../../src/table/model/load';
import { addedItems, JobJournal, PlanError, planChange, resumeJob, retryFailed, runJob, type ChangeRequest } from '../../src/bulk';
import { changeRows, jobValues, planUndoForJob } from '../../src/bulk/jobValues';
import { readValues } from '../../src/bulk/readValues';
import { writeSnapshot } from '../../src/bulk/snapshot';
import { checkUndoDrift, planUndoSkipping } from '../../src/bulk/undoDrift';
import type { Sandbox } from '../../src/sandbox';
import { clientFor, fault, scheduledTaskIds, startSandbox } from './bulk-helpers';
import { virtualClock } from './undo-fixtures';

const BASE = 'https://pm.example.com/api';
const TASK = '42';
const FOLDER = '41';

const addRequest = (parentId: string, name: string, subItems: string[] = []): ChangeRequest => ({
  workItemIds: [],
  update: {},
  kind: 'add',
  add: { parentId, item: { fields: { ItemTypeId: subItems.length > 0 ? FOLDER : TASK, Name: name }, ...(subItems.length > 0 ? { subItems: subItems.map((n) => ({ fields: { ItemTypeId: TASK, Name: n } })) } : {}) } },
});

describe('bulk adds: plan', () => {
  it('an add is one POST to its parent\'s subItems, never split, its batch naming the parent and its part', () => {
    const plan = planChange({ requests: [{ workItemIds: ['1', '2', '3'], update: { moveScheduleDays: 1 } }, addRequest('10', 'Release', ['a', 'b'])], baseUrl: BASE, maxIdsPerRequest: 2 });
    assert.deepEqual(
      plan.requests.map((r) => [r.index, r.part, r.ids, r.path]),
      [
        [0, 0, ['1', '2'], '/workitem/workItems/1,2'],
        [1, 0, ['3'], '/workitem/workItems/3'],
        [2, 1, ['10'], '/workitem/workItems/10/subItems'],
      ],
    );
    assert.equal(plan.parts[1]!.kind, 'add');
    assert.deepEqual(plan.parts[1]!.ids, [], 'an add changes no existing item');
    assert.deepEqual(plan.ids, ['1', '2', '3'], 'the parent is not read or changed');
  });

  it('an add over the service\'s limit of one request is refused with the count (too-many-items-to-add)', () => {
    const big = addRequest('10', 'big', Array.from({ length: 1000 }, (_, i) => `t${i}`));
    assert.throws(
      () => planChange({ requests: [big], baseUrl: BASE }),
      (e: unknown) => e instanceof PlanError && e.problems.some((p) => p.code === 'too-many-items-to-add' && p.count === 1001 && p.max === 1000),
    );
  });

  it('a change of adds only is planned on its own (the base URL still checked)', () => {
    const plan = planChange({ requests: [addRequest('10', 'a'), addRequest('11', 'b')], baseUrl: BASE });
    assert.equal(plan.baseUrl, planChange({ requests: [{ workItemIds: ['1'], update: { moveScheduleDays: 1 } }], baseUrl: BASE }).baseUrl);
    assert.deepEqual(plan.ids, []);
    assert.equal(plan.requests.length, 2);
    assert.throws(() => planChange({ requests: [addRequest('10', 'a')], baseUrl: 'not a url' }), PlanError);
  });

  it('a delete is planned in batches of its IDs; an item it deletes, or a parent below which the change adds, is in no other request', () => {
    const plan = planChange({ requests: [{ workItemIds: ['5', '6', '7'], update: {}, kind: 'delete' }], baseUrl: BASE, maxIdsPerRequest: 2 });
    assert.deepEqual(plan.requests.map((r) => r.path), ['/workitem/workItems/5,6', '/workitem/workItems/7']);
    assert.equal(plan.parts[0]!.kind, 'delete');
    assert.throws(
      () => planChange({ requests: [{ workItemIds: ['5'], update: { moveScheduleDays: 1 } }, { workItemIds: ['5'], update: {}, kind: 'delete' }], baseUrl: BASE }),
      (e: unknown) => e instanceof PlanError && e.problems.some((p) => p.code === 'id-in-two-requests' && /deleted by request 2/.test(p.message)),
    );
    assert.throws(
      () => planChange({ requests: [addRequest('5', 'x'), { workItemIds: ['5'], update: {}, kind: 'delete' }], baseUrl: BASE }),
      (e: unknown) => e instanceof PlanError && e.problems.some((p) => /the parent "5" is deleted by request 2/.test(p.message)),
    );
  });
});

describe('bulk adds: engine, journal and undo against the sandbox', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let client: ServiceClient;
  let dir: string;
  let folder: string;
  before(async () => {
    sandbox = await startSandbox(120);
    client = clientFor(sandbox, { headersMs: 3000 });
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'wis-add-'));
  });
  beforeEach(async () => {
    await fetch(`${sandbox.origin}/_sandbox/reset`, { method: 'POST' });
    await fetch(`${sandbox.origin}/_sandbox/faults`, { method: 'DELETE' });
    folder = sandbox.data.workItems.find((w) => w.itemTypeId === FOLDER && w.parentId !== null && !w.isDeleted)!.id;
  });
  after(async () => {
    await client.close();
    await sandbox.close();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  const live = () => sandbox.data.workItems.filter((w) => !w.isDeleted);
  const named = (name: string) => live().filter((w) => w.name === name);
  const reader = (i: readonly string[], fields: readonly string[], o: { signal?: AbortSignal }) => readWorkItems(client, i, { fields, clock: virtualClock(), signal: o.signal });
  const fast = { requestsPerMinute: Infinity, allowAboveServiceLimit: true, addSettleMs: 0 } as const;

  async function job(requests: ChangeRequest[]) {
    const plan = planChange({ requests, baseUrl: sandbox.url });
    const journal = await JobJournal.create(dir, { source: { uri: 'untitled:add.workitems.json', text: '{}' }, plan });
    const bodies = plan.parts.map((p) => p.update);
    const taken = plan.ids.length > 0 ? await readValues(reader, plan.ids, bodies) : { fields: [], items: new Map(), missing: [] };
    await writeSnapshot(journal.file, { kind: 'before', jobId: journal.id, fields: taken.fields, items: taken.items });
    return { plan, journal };
  }

  it('an update, an add and an update are sent in order; the added IDs are kept in the journal and read back from disk', async () => {
    const [a, b] = scheduledTaskIds(sandbox, 2);
    const { plan, journal } = await job([{ workItemIds: [a!], update: { fields: { Code: 'FIRST' } } }, addRequest(folder, 'Added release', ['Plan', 'Ship']), { workItemIds: [b!], update: { fields: { Code: 'LAST' } } }]);
    const result = await runJob(plan, { client, journal, concurrency: 2, ...fast });
    assert.equal(result.outcome, 'succeeded');
    const top = named('Added release');
    assert.equal(top.length, 1);
    assert.deepEqual(live().filter((w) => w.parentId === top[0]!.id).map((w) => w.name), ['Plan', 'Ship']);
    const again = await JobJournal.load(journal.file);
    assert.equal(again.data.version, 6);
    const [added] = addedItems(again.plan, again.requests);
    assert.equal(added!.state, 'succeeded');
    assert.deepEqual(added!.top, [top[0]!.id]);
    assert.equal(added!.ids.length, 3);
    assert.deepEqual(again.plan.parts[1]!.add, plan.parts[1]!.add, 'the part kind and body are in the journal');
  });

  it('the result view\'s rows: each added item with nothing before and its fields after, by the IDs the service gave', async () => {
    const { plan, journal } = await job([addRequest(folder, 'Shown release', ['Shown task'])]);
    assert.equal((await runJob(plan, { client, journal, ...fast })).outcome, 'succeeded');
    const values = await jobValues(journal);
    const rows = changeRows(journal, values);
    const top = named('Shown release')[0]!.id;
    const task = named('Shown task')[0]!.id;
    assert.deepEqual(
      rows.filter((r) => r.field === 'Name').map((r) => [r.id, r.before, r.after]),
      [
        [top, undefined, 'Shown release'],
        [task, undefined, 'Shown task'],
      ],
    );
    assert.ok(rows.some((r) => r.id === top && r.field === 'ItemTypeId' && r.after === FOLDER), JSON.stringify(rows));
    assert.deepEqual(values.applied, [], 'the parent is not an item the job changed');
  });

  it('a dropped answer after the sandbox applied the add: unknown in its run, found by its key on resumption (not sent again); the undo deletes exactly it', async () => {
    const { plan, journal } = await job([addRequest(folder, 'Dropped once', ['its task'])]);
    await fault(sandbox, { dropAfterApply: true, method: 'POST', pathContains: '/subItems' });
    const result = await runJob(plan, { client, journal, ...fast });
    assert.equal(result.requests[0]!.state, 'unknown', JSON.stringify(result.requests[0]));
    assert.equal(named('Dropped once').length, 1, 'the sandbox applied it');
    const { plan: unknownUndo } = await planUndoForJob(await JobJournal.load(journal.file));
    assert.deepEqual(unknownUndo.nonInvertible, [{ id: folder, member: 'add', reason: 'add-outcome-unknown' }], 'while unknown, what it created is not guessed');
    // The resumption reads below the parent and finds the items by their key: succeeded, never sent again.
    const resumed = await resumeJob(await JobJournal.load(journal.file), { client, ...fast, withoutUndo: true });
    assert.equal(resumed.requests[0]!.state, 'succeeded', JSON.stringify(resumed.requests[0]));
    assert.equal(resumed.requests[0]!.matched, 'key');
    assert.equal(resumed.requests[0]!.attempts, 1, 'not sent again');
    await retryFailed(await JobJournal.load(journal.file), { client, ...fast });
    assert.equal(named('Dropped once').length, 1, 'exactly one copy');
    const again = await JobJournal.load(journal.file);
    const [added] = addedItems(again.plan, again.requests);
    const top = named('Dropped once')[0]!.id;
    assert.deepEqual(added!.top, [top]);
    assert.deepEqual(added!.ids, [top, named('its task')[0]!.id], 'the item and its sub-item, as found');
    const { plan: undo } = await planUndoForJob(again);
    assert.deepEqual(undo.nonInvertible, []);
    assert.deepEqual(undo.documents, [{ kind: 'delete', workItemIds: [top], update: {} }]);
  });

  it('an add answered 503 (a gateway may have forwarded it) is unknown, not retried, unless the service is trusted to refuse only what it did not apply', async () => {
    const { plan, journal } = await job([addRequest(folder, 'Refused once')]);
    await fault(sandbox, { status: 503, retryAfterSeconds: 0, method: 'POST', pathContains: '/subItems' });
    const result = await runJob(plan, { client, journal, ...fast });
    assert.equal(result.requests[0]!.state, 'unknown');
    assert.equal(result.requests[0]!.error?.note, 'refused-update-not-retried');
    assert.equal(named('Refused once').length, 0);
    const trusted = await job([addRequest(folder, 'Trusted once')]);
    await fault(sandbox, { status: 503, retryAfterSeconds: 0, method: 'POST', pathContains: '/subItems' });
    const ok = await runJob(trusted.plan, { client, journal: trusted.journal, ...fast, retryRefusedUpdates: true });
    assert.equal(ok.requests[0]!.state, 'succeeded');
    assert.equal(ok.requests[0]!.attempts, 2);
    assert.equal(named('Trusted once').length, 1);
  });

  it('an add the sandbox refuses (an unknown item type) fails and adds nothing; the rest of the change goes on', async () => {
    const [a] = scheduledTaskIds(sandbox, 1);
    const bad: ChangeRequest = { workItemIds: [], update: {}, kind: 'add', add: { parentId: folder, item: { fields: { ItemTypeId: '999', Name: 'Bad type' } } } };
    const { plan, journal } = await job([bad, { workItemIds: [a!], update: { fields: { Code: 'AFTER' } } }]);
    const result = await runJob(plan, { client, journal, ...fast });
    assert.deepEqual(result.requests.map((r) => r.state), ['failed', 'succeeded']);
    assert.equal(named('Bad type').length, 0);
  });

  it('the undo of a change with adds and updates deletes what the adds created and puts the updates back, the last request first', async () => {
    const [a] = scheduledTaskIds(sandbox, 1);
    const codeBefore = live().find((w) => w.id === a)!.code;
    const count = live().length;
    const { plan, journal } = await job([addRequest(folder, 'First add', ['child']), { workItemIds: [a!], update: { fields: { Code: 'CHANGED' } } }, addRequest(folder, 'Second add')]);
    assert.equal((await runJob(plan, { client, journal, ...fast })).outcome, 'succeeded');
    assert.equal(live().length, count + 3);
    const { plan: undo } = await planUndoForJob(journal);
    assert.deepEqual(undo.nonInvertible, []);
    const second = named('Second add')[0]!.id;
    const first = named('First add')[0]!.id;
    // The deletes of both adds go in one request, before the update is put back (the last request first).
    assert.deepEqual(
      undo.documents.map((d) => [d.kind, d.workItemIds]),
      [
        ['delete', [second, first]],
        ['fields', [a]],
      ],
    );
    const back = planChange({ requests: undo.documents.map((d) => ({ workItemIds: d.workItemIds, update: d.update, ...(d.kind === 'delete' ? { kind: 'delete' as const } : {}) })), baseUrl: sandbox.url });
    assert.equal((await runJob(back, { client, ...fast })).outcome, 'succeeded');
    assert.equal(live().length, count, 'the added items and their sub-items are deleted');
    assert.equal(live().find((w) => w.id === a)!.code, codeBefore);
    assert.equal(sandbox.data.workItems.find((w) => w.id === first)!.isDeleted, true, 'a deleted item stays, marked deleted (restorable)');
  });

  it('drift: an added item changed since it was added is listed before it is deleted, by the fields the add set', async () => {
    const { plan, journal } = await job([addRequest(folder, 'Will be renamed', ['kept as added'])]);
    assert.equal((await runJob(plan, { client, journal, ...fast })).outcome, 'succeeded');
    assert.deepEqual((await checkUndoDrift(journal, reader)).drift, []);
    const id = named('Will be renamed')[0]!.id;
    await client.updateWorkItems([id], { fields: { Name: 'Renamed by someone else' } });
    const { drift } = await checkUndoDrift(journal, reader);
    assert.deepEqual(
      drift.map((d) => [d.id, d.fields.map((f) => [f.field, f.expected, f.now])]),
      [[id, [['Name', 'Will be renamed', 'Renamed by someone else']]]],
    );
    // Skipped (the user keeps it): the add is kept whole, since deleting its top item would delete it too.
    const child = named('kept as added')[0]!.id;
    assert.deepEqual(planUndoSkipping(journal, await jobValues(journal), new Set([child])).documents, []);
  });

  it('drift: an added item that got time entries, or items added below it by someone else, is listed (its delete would take them with it) and kept when skipped', async () => {
    const { plan, journal } = await job([addRequest(folder, 'Gets work', ['its first task'])]);
    assert.equal((await runJob(plan, { client, journal, ...fast })).outcome, 'succeeded');
    const subtrees = async (ids: readonly string[]) => new Map(await Promise.all(ids.map(async (id) => [id, flattenToRows(await client.getSubItems(id, { fields: ['Id'] }), 0).map((r) => r.id)] as const)));
    assert.deepEqual((await checkUndoDrift(journal, reader, {}, subtrees)).drift, [], 'nothing since the add');
    const top = named('Gets work')[0]!.id;
    const task = named('its first task')[0]!.id;
    // Someone adds an item below it, and time is entered on its task.
    const other = await client.addSubItems!(top, { fields: { ItemTypeId: TASK, Name: 'added by someone else' } });
    const otherId = String((other.items[0] as { id: unknown }).id);
    sandbox.data.workItems.find((w) => w.id === task)!.actualTime = 90;
    const { drift } = await checkUndoDrift(journal, reader, {}, subtrees);
    assert.deepEqual(
      drift.map((d) => [d.id, d.fields.map((f) => [f.field, f.now]), d.childrenSince ?? []]).sort(),
      [
        [task, [['ActualTime', 90]], []],
        [top, [], [otherId]],
      ].sort(),
    );
    // The user keeps them (Skip Changed Items): nothing of the add is deleted.
    assert.deepEqual(planUndoSkipping(journal, await jobValues(journal), new Set(drift.map((d) => d.id))).documents, []);
  });

  it('the undo of a delete restores the items (and their sub-items) with "restore"', async () => {
    const parent = live().find((w) => w.itemTypeId === FOLDER && w.parentId !== null && live().some((c) => c.parentId === w.id))!;
    const below = live().filter((w) => w.parentId === parent.id).length;
    const count = live().length;
    const { plan, journal } = await job([{ workItemIds: [parent.id], update: {}, kind: 'delete' }]);
    assert.equal((await runJob(plan, { client, journal, ...fast })).outcome, 'succeeded');
    assert.ok(live().length <= count - 1 - below);
    const { plan: undo } = await planUndoForJob(journal);
    assert.deepEqual(undo.documents, [{ kind: 'restore', workItemIds: [parent.id], update: { restore: true } }]);
    await client.updateWorkItems(undo.documents[0]!.workItemIds, undo.documents[0]!.update);
    assert.equal(live().length, count);
    // The drift check of that undo does not take the deleted items for "gone".
    assert.deepEqual((await checkUndoDrift(journal, reader)).drift, []);
  });

  it('a journal whose add was edited to go elsewhere is refused as damaged, nothing sent', async () => {
    const { journal } = await job([addRequest(folder, 'Tampered')]);
    const text = await fsp.readFile(journal.file, 'utf8');
    await fsp.writeFile(journal.file, text.replace(`/workitem/workItems/${folder}/subItems`, `/workitem/workItems/${folder}`));
    await assert.rejects(JobJournal.load(journal.file), (e: unknown) => (e as { code?: string }).code === 'corrupt');
    const other = text.replace(`"parentId":"${folder}"`, '"parentId":"1"');
    await fsp.writeFile(journal.file, other);
    await assert.rejects(JobJournal.load(journal.file), /an add names its parent only/);
  });
});
