// Property test against the sandbox over real HTTP: random changes mixing adds (trees of
// new items below random folders) and invertible updates are sent as one job, their one
// undo document is made (as Create Undo Document writes it, read back by the document's
// checks) and sent as one job, and the live data set is as before: the same items, with
// the same fields. Deleted items stay in the sandbox, marked deleted, so live items are
// compared.
import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { ServiceClient } from '../../src/api/client';
import { readWorkItems } from '../../src/api/reads';
import { JobJournal, planChange, runJob, type ChangeRequest } from '../../src/bulk';
import { planUndoForJob } from '../../src/bulk/jobValues';
import { readValues } from '../../src/bulk/readValues';
import { writeSnapshot } from '../../src/bulk/snapshot';
import { createSandbox, type Sandbox } from '../../src/sandbox';
import type { AddWorkItemRequest } from '../../src/schema/additions';
import { createChangeDocument, validateRequestDocument } from '../../src/schema/document';
import { bodyArb, dataset, FOLDERS, TASKS, virtualClock } from './undo-fixtures';

/** A tree of new items: a task, or a folder with up to three items below it. */
const itemArb: fc.Arbitrary<AddWorkItemRequest> = fc.letrec<{ item: AddWorkItemRequest }>((tie) => ({
  item: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ name: fc.string({ minLength: 1, maxLength: 12 }), start: fc.option(fc.integer({ min: 1, max: 28 }), { nil: undefined }) }).map(({ name, start }) => ({
      fields: { ItemTypeId: 'task', Name: `new ${name}`, ...(start !== undefined ? { PlannedStartDate: `2026-03-${String(start).padStart(2, '0')}`, PlannedFinishDate: '2026-03-28' } : {}) },
    })),
    fc.record({ name: fc.string({ minLength: 1, maxLength: 12 }), subItems: fc.array(tie('item'), { maxLength: 3 }) }).map(({ name, subItems }) => ({
      fields: { ItemTypeId: 'folder', Name: `new folder ${name}` },
      ...(subItems.length > 0 ? { subItems } : {}),
    })),
  ),
})).item;

const addArb: fc.Arbitrary<ChangeRequest> = fc
  .record({ parent: fc.constantFrom(...FOLDERS), item: itemArb, order: fc.constantFrom(undefined, 'orderFirst', 'orderLast') })
  .map(({ parent, item, order }) => ({ workItemIds: [], update: {}, kind: 'add' as const, add: { parentId: parent, item: order ? { ...item, [order]: true } : item } }));

/** One to three updates over distinct tasks and one or two adds, in a random order. */
const changeArb: fc.Arbitrary<ChangeRequest[]> = fc
  .tuple(fc.shuffledSubarray(TASKS, { minLength: 1, maxLength: 6 }), fc.array(bodyArb, { minLength: 0, maxLength: 3 }), fc.array(addArb, { minLength: 1, maxLength: 2 }), fc.integer())
  .map(([items, bodies, adds, seed]) => {
    const n = Math.min(bodies.length, items.length);
    const size = Math.ceil(items.length / Math.max(n, 1));
    const updates: ChangeRequest[] = bodies.slice(0, n).map((update, k) => ({ workItemIds: items.slice(k * size, (k + 1) * size), update })).filter((r) => r.workItemIds.length > 0);
    const all = [...updates, ...adds];
    // A random order of the requests (the undo puts back the last first, whatever it is).
    return all.map((r, i) => ({ r, k: (seed * (i + 7)) % 101 })).sort((a, b) => a.k - b.k).map((x) => x.r);
  });

/** Every live item of the data set with the fields compared. */
function liveItems(sandbox: Sandbox): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const w of sandbox.data.workItems) {
    if (w.isDeleted) continue;
    out.set(w.id, {
      name: w.name,
      parentId: w.parentId,
      itemTypeId: w.itemTypeId,
      plannedStartDate: w.plannedStartDate,
      plannedFinishDate: w.plannedFinishDate,
      plannedTime: w.plannedTime,
      actualProgress: w.actualProgress,
      leaderId: w.leaderId,
      statusTypeId: w.statusTypeId,
      assignments: w.assignments.map((a) => `${a.partyId}:${a.plannedTime}`).sort(),
    });
  }
  return out;
}

describe('bulk adds: property test of send then undo against the sandbox', function () {
  this.timeout(180_000);
  let sandbox: Sandbox;
  let client: ServiceClient;
  let dir: string;
  const initial = dataset();
  before(async () => {
    sandbox = await createSandbox({ data: initial });
    client = new ServiceClient({ baseUrl: sandbox.url, credentials: () => ({ kind: 'basic', loginName: 'admin', password: 'password' }) });
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'wis-add-property-'));
  });
  after(async () => {
    await client?.close();
    await sandbox?.close();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  const reader = (i: readonly string[], fields: readonly string[], o: { signal?: AbortSignal }) => readWorkItems(client, i, { fields, clock: virtualClock(), signal: o.signal });
  const subItems = (id: string, q: { fields?: readonly string[]; depth?: number }, o: { signal?: AbortSignal }) => client.getSubItems(id, { fields: q.fields, depth: q.depth }, o);
  const fast = { requestsPerMinute: Infinity, allowAboveServiceLimit: true } as const;

  it('send a change of adds and updates, then its undo document: the live items and their fields are as before (60 runs)', async () => {
    let added = 0;
    await fc.assert(
      fc.asyncProperty(changeArb, async (requests) => {
        const res = await fetch(`${sandbox.origin}/_sandbox/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(initial) });
        assert.equal(res.status, 200);
        const before = liveItems(sandbox);
        const plan = planChange({ requests, baseUrl: sandbox.url });
        const bodies = plan.parts.map((p) => p.update);
        const taken = plan.ids.length > 0 ? await readValues(reader, plan.ids, bodies, { subItems }) : { fields: [], items: new Map(), missing: [] };
        const journal = await JobJournal.create(dir, { source: { uri: 'untitled:p.workitems.json', text: '{}' }, plan });
        await writeSnapshot(journal.file, { kind: 'before', jobId: journal.id, fields: taken.fields, items: taken.items, ...('siblings' in taken ? { siblings: taken.siblings } : {}) });
        const result = await runJob(plan, { client, journal, ...fast });
        added += result.requests.filter((r, i) => r.state === 'succeeded' && plan.parts[plan.requests[i]!.part ?? 0]!.kind === 'add').length;
        const { plan: undo } = await planUndoForJob(journal);
        assert.deepEqual(undo.nonInvertible, [], JSON.stringify(requests));
        if (undo.documents.length === 0) {
          assert.deepEqual(liveItems(sandbox), before, 'nothing applied, nothing changed');
          return;
        }
        // The undo's requests as Create Undo Document writes them (a delete as a delete request), sent as one job.
        const undoRequests: ChangeRequest[] = undo.documents.map((d) => ({ workItemIds: d.workItemIds, update: d.update, ...(d.kind === 'delete' ? { kind: 'delete' as const } : {}) }));
        // The deletes read back from the document as they were written.
        const deletes = undoRequests.filter((r) => r.kind === 'delete');
        if (deletes.length > 0) {
          const written = validateRequestDocument(JSON.parse(JSON.stringify(createChangeDocument(deletes))));
          assert.deepEqual(written.document?.requests.map((r) => [r.kind, r.workItemIds]), deletes.map((r) => [r.kind, r.workItemIds]));
        }
        const back = await runJob(planChange({ requests: undoRequests, baseUrl: sandbox.url }), { client, ...fast });
        assert.equal(back.outcome, 'succeeded', JSON.stringify(back.requests.map((r) => [r.path, r.state, r.error?.message])));
        assert.deepEqual(liveItems(sandbox), before, `change ${JSON.stringify(requests)}`);
      }),
      { numRuns: Number(process.env.WIS_ADD_RUNS ?? 60) },
    );
    assert.ok(added > 20, `adds were applied in the runs (${added})`);
  });
});
