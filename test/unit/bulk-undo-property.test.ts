// Property test against the sandbox over real HTTP: for random invertible updates
// on random items, apply the update, then apply the generated undo documents in
// order, and every touched field is back to its original value (and moved items
// back in their old place among their siblings). Non-invertible members are
// reported for every item they reach.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { ServiceClient } from '../../src/api/client';
import { sameFieldValue, touchedFields } from '../../src/bulk/effects';
import { planUndo } from '../../src/bulk/undo';
import { createSandbox, type Sandbox } from '../../src/sandbox';
import type { DatasetInput } from '../../src/sandbox/model';
import { readWorkItems } from '../../src/api/reads';
import { readValues, type ReadValues } from '../../src/bulk/readValues';
import type { Clock } from '../../src/bulk/types';
import type { UpdateWorkItemsBody } from '../../src/schema/api';

const TASKS = ['T1', 'T2', 'T3', 'T4', 'T5', 'T6', 'T7', 'T8'];
const FOLDERS = ['F1', 'F2', 'F3'];
const MEMBERS = ['u-alice', 'u-carol', 'u-bob'];

function dataset(): DatasetInput {
  const tasks = TASKS.map((id, i) => ({
    id,
    projectId: 'p1',
    parentId: FOLDERS[i % 3]!,
    order: i + 1,
    itemTypeId: 'task',
    name: `Task ${id}`,
    code: i % 2 ? `C-${i}` : '',
    plannedStartDate: i % 4 === 3 ? null : `2026-0${(i % 8) + 1}-0${(i % 5) + 1}`,
    plannedFinishDate: i % 4 === 3 ? null : `2026-0${(i % 8) + 1}-2${i % 9}`,
    actualProgress: (i * 13) % 101,
    plannedTime: 60 * i,
    managedPlannedTime: i % 3 === 0 ? 60 : 0,
    assignments: i % 3 === 0 ? [{ partyId: 'u-alice', partyType: 'User' as const, plannedTime: 60 }] : [],
    leaderId: i % 2 ? 'u-carol' : null,
    statusTypeId: i % 2 ? '51' : null,
    timeEntryLocked: i % 5 === 0,
    fieldCalcTypes: (i % 2 ? { PlannedTime: 'Manual' } : {}) as Record<string, string>,
  }));
  return {
    version: 2,
    organizations: [{ id: 'o1', name: 'Head office', parentId: null }],
    users: [
      { id: '2001', name: 'Admin', loginName: 'admin', organizationId: 'o1' },
      { id: 'u-alice', name: 'Alice', loginName: 'alice', organizationId: 'o1' },
      { id: 'u-carol', name: 'Carol', loginName: 'carol', organizationId: 'o1' },
      { id: 'u-bob', name: 'Bob', loginName: 'bob', organizationId: 'o1' },
    ],
    userGroups: [{ id: 'g-dev', name: 'Developers', memberIds: ['u-alice'] }],
    itemTypes: [
      { id: 'folder', name: 'Folder', isFolder: true },
      { id: 'task', name: 'Task', isFolder: false },
      { id: 'milestone', name: 'Milestone', isFolder: false },
    ],
    statusTypes: [
      { id: '51', name: 'Open' },
      { id: '53', name: 'Done' },
    ],
    projects: [
      {
        id: 'p1',
        name: 'P',
        allowedDateRange: { min: '2000-01-01', max: '2099-12-31' },
        userGroupIds: ['g-dev'],
        members: ['2001', ...MEMBERS].map((userId) => ({ userId, permission: 'edit' as const, costPermission: true })),
      },
    ],
    workItems: [...FOLDERS.map((id, i) => ({ id, projectId: 'p1', parentId: null, order: i + 1, itemTypeId: 'folder', name: id })), ...tasks],
  };
}

/** Pacing off (a virtual clock), so the reads take no waits. */
function virtualClock(): Clock {
  let t = 0;
  return { now: () => t, sleep: async (ms) => void (t += Math.max(0, ms)) };
}

const dateArb = fc.integer({ min: 0, max: 400 }).map((d) => new Date(Date.UTC(2026, 0, 1) + d * 86_400_000).toISOString().slice(0, 10));

const fieldsArb = fc.record(
  {
    Name: fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim().length > 0),
    Code: fc.string({ maxLength: 8 }),
    Description: fc.string({ maxLength: 8 }),
    PlannedTime: fc.integer({ min: 0, max: 2000 }),
    ActualProgress: fc.integer({ min: 0, max: 100 }),
    LeaderId: fc.constantFrom(null, ...MEMBERS),
    StatusTypeId: fc.constantFrom(null, '51', '53'),
    PlannedStartDate: dateArb,
  },
  { requiredKeys: [] },
);

/** Invertible bodies: every member the undo puts back completely on leaf items. */
const bodyArb: fc.Arbitrary<UpdateWorkItemsBody> = fc
  .record(
    {
      fields: fieldsArb,
      moveScheduleDays: fc.integer({ min: -40, max: 40 }).filter((d) => d !== 0),
      setCompleted: fc.boolean(),
      setTimeEntryLocked: fc.boolean(),
      changeItemTypeTo: fc.constantFrom('task', 'milestone'),
      move: fc.record({ to: fc.constantFrom(...FOLDERS), order: fc.constantFrom(undefined, 'orderFirst', 'orderLast') }),
      assignmentChange: fc.record(
        {
          adds: fc.array(fc.record({ partyId: fc.constantFrom(...MEMBERS, 'g-dev'), plannedTime: fc.integer({ min: 0, max: 600 }) }), { maxLength: 2 }),
          removes: fc.subarray(['u-alice', 'u-carol']).map((l) => l.join(',')),
          recalculatePlannedTimeByAssignment: fc.constantFrom(undefined, true, false),
        },
        { requiredKeys: [] },
      ),
      fieldCalcTypes: fc.record({ PlannedTime: fc.constantFrom('Manual', 'Assignments') }),
      clearAllFieldCalcTypes: fc.constant(true),
    },
    { requiredKeys: [] },
  )
  .map((r) => {
    const body: UpdateWorkItemsBody = {};
    if (r.fields && Object.keys(r.fields).length > 0) {
      body.fields = { ...r.fields };
      if (r.fields.PlannedStartDate !== undefined) body.fields.PlannedFinishDate = r.fields.PlannedStartDate; // a valid period
    }
    if (r.moveScheduleDays !== undefined) body.moveScheduleDays = r.moveScheduleDays;
    if (r.setCompleted !== undefined) body.setCompleted = r.setCompleted;
    if (r.setTimeEntryLocked !== undefined) body.setTimeEntryLocked = r.setTimeEntryLocked;
    if (r.changeItemTypeTo !== undefined) body.changeItemTypeTo = r.changeItemTypeTo;
    if (r.move) {
      body.moveParentTo = r.move.to;
      if (r.move.order) body[r.move.order as 'orderFirst' | 'orderLast'] = true;
    }
    if (r.assignmentChange) {
      const a = r.assignmentChange;
      const change: NonNullable<UpdateWorkItemsBody['assignmentChange']> = {};
      if (a.adds && a.adds.length > 0) change.adds = a.adds;
      if (a.removes) change.removes = a.removes;
      if (a.recalculatePlannedTimeByAssignment !== undefined) change.recalculatePlannedTimeByAssignment = a.recalculatePlannedTimeByAssignment;
      if (Object.keys(change).length > 0) body.assignmentChange = change;
    }
    if (r.fieldCalcTypes) body.fieldCalcTypes = r.fieldCalcTypes;
    else if (r.clearAllFieldCalcTypes) body.clearAllFieldCalcTypes = true;
    return body;
  })
  .filter((b) => Object.keys(b).length > 0);

describe('bulk undo: property test against the sandbox', function () {
  this.timeout(120_000);
  let sandbox: Sandbox;
  let client: ServiceClient;
  const initial = dataset();

  before(async () => {
    sandbox = await createSandbox({ data: initial });
    client = new ServiceClient({ baseUrl: sandbox.url, credentials: () => ({ kind: 'basic', loginName: 'admin', password: 'password' }) });
  });
  after(async () => {
    await client?.close();
    await sandbox?.close();
  });

  /** The values the preview and the snapshot read: GET /workitem/workItems/{ids}?fields=..., and the parents' sub-items for a move. */
  function read(ids: readonly string[], body: UpdateWorkItemsBody): Promise<ReadValues> {
    return readValues((i, fields, o) => readWorkItems(client, i, { fields, clock: virtualClock(), signal: o.signal }), ids, body, {
      subItems: (id, q, o) => client.getSubItems(id, { fields: q.fields, depth: q.depth }, o),
    });
  }

  async function reset(): Promise<void> {
    const res = await fetch(`${sandbox.origin}/_sandbox/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(initial) });
    assert.equal(res.status, 200);
  }

  it('apply, then apply the undo documents: every touched field is back (500 runs)', async () => {
    let applied = 0;
    await fc.assert(
      fc.asyncProperty(bodyArb, fc.subarray(TASKS, { minLength: 1 }), fc.boolean(), async (body, ids, reRead) => {
        await reset();
        const taken = await read(ids, body);
        const before = taken.items;
        const siblingsBefore = taken.siblings;
        let response;
        try {
          response = await client.updateWorkItems(ids, body);
        } catch {
          return; // refused by a rule (e.g. a shift past the end date); nothing to undo
        }
        applied++;
        assert.equal(response.items.length, ids.length);
        // Half the runs know the values after (re-read), half rely on the prediction.
        const after = reRead ? (await read(ids, body)).items : undefined;
        const plan = planUndo({ body, applied: ids, before, after, siblingsBefore });
        // (Leaf or not is computed from the hierarchy read, the help shows no HasChildren.)
        assert.deepEqual(plan.nonInvertible, [], 'an invertible body on leaf items has nothing that cannot be put back');
        for (const doc of plan.documents) {
          try {
            await client.updateWorkItems(doc.workItemIds, doc.update);
          } catch (e) {
            assert.fail(`undo document ${doc.kind} ${JSON.stringify(doc.update)} for ${doc.workItemIds.join(',')} was refused: ${e instanceof Error ? e.message : String(e)}`);
          }
        }
        const back = await read(ids, body);
        const now = back.items;
        for (const id of ids) {
          for (const f of touchedFields(body)) {
            const b = before.get(id)![f];
            const a = now.get(id)![f];
            assert.ok(sameFieldValue(f, b, a), `${id}.${f}: ${JSON.stringify(b)} before, ${JSON.stringify(a)} after the undo; body ${JSON.stringify(body)}`);
          }
        }
        if (body.moveParentTo !== undefined) {
          assert.ok(siblingsBefore && back.siblings);
          for (const [p, list] of siblingsBefore) assert.deepEqual(back.siblings.get(p), list, `children of ${p} in their old order`);
        }
      }),
      { numRuns: 500, seed: 20261123 },
    );
    assert.ok(applied > 250, `most generated updates are accepted (${applied} of 500)`);
  });

  it('non-invertible members are reported for every item they reach, never skipped silently', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<UpdateWorkItemsBody>({ clearSchedule: true }, { propagateToChildren: { fields: 'StatusTypeId' } }, { setCompleted: true }),
        fc.subarray(FOLDERS, { minLength: 1 }),
        async (body, ids) => {
          await reset();
          const before = (await read(ids, body)).items;
          await client.updateWorkItems(ids, body);
          const plan = planUndo({ body, applied: ids, before, after: (await read(ids, body)).items });
          const member = Object.keys(body)[0]!;
          const reported = new Set(plan.nonInvertible.filter((n) => n.member === member).map((n) => n.id));
          assert.deepEqual([...reported].sort(), [...ids].sort(), `${member} reported for every folder`);
        },
      ),
      { numRuns: 30, seed: 7 },
    );
  });
});
