// Undo documents of each member, what cannot be inverted, the snapshot beside the
// journal across a simulated crash (resume still offers undo), and the drift check.
import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { JobJournal, planJob } from '../../src/bulk';
import { planUndoForJob, responseFields, valuesAfterAnswer } from '../../src/bulk/jobValues';
import { findDrift, readValues } from '../../src/bulk/readValues';
import { pruneSnapshots, readSnapshot, snapshotFile, writeSnapshot, SnapshotError } from '../../src/bulk/snapshot';
import { inverseAssignmentChange, planUndo } from '../../src/bulk/undo';
import { HAS_SUB_ITEMS } from '../../src/bulk/effects';

const A = { Id: 'A', Name: 'Alpha', PlannedStartDate: '2026-03-01T00:00:00', PlannedFinishDate: '2026-03-05T00:00:00', ParentId: 'F1', IsTimeEntryLocked: false, ActualProgress: 30, TracksProgress: true, ItemTypeId: 'task' };
const B = { ...A, Id: 'B', Name: 'Beta', IsTimeEntryLocked: true, ActualProgress: 100 };

describe('bulk undo: inverse documents', () => {
  it('an opposite shift when the dates moved by exactly the shift; the old dates for outcomes not known', () => {
    const plan = planUndo({ body: { moveScheduleDays: 7 }, applied: ['A'], uncertain: ['B'], before: new Map([['A', A], ['B', B]]) });
    assert.deepEqual(
      plan.documents.map((d) => [d.kind, d.workItemIds, d.update]),
      [
        ['schedule', ['A'], { moveScheduleDays: -7 }],
        ['schedule', ['B'], { fields: { PlannedStartDate: '2026-03-01', PlannedFinishDate: '2026-03-05' } }],
      ],
    );
  });

  it('old dates when the dates after are not the shifted ones (e.g. set by another member)', () => {
    const after = new Map([['A', { ...A, PlannedStartDate: '2026-04-01', PlannedFinishDate: '2026-04-02' }]]);
    const plan = planUndo({ body: { moveScheduleDays: 7 }, applied: ['A'], before: new Map([['A', A]]), after });
    assert.deepEqual(plan.documents[0]!.update, { fields: { PlannedStartDate: '2026-03-01', PlannedFinishDate: '2026-03-05' } });
  });

  it('lock and completion back per previous value; items already so need nothing', () => {
    const plan = planUndo({ body: { setTimeEntryLocked: true, setCompleted: true }, applied: ['A', 'B'], before: new Map([['A', A], ['B', B]]) });
    assert.deepEqual(
      plan.documents.map((d) => [d.kind, d.workItemIds, d.update]),
      [
        ['lock', ['A'], { setTimeEntryLocked: false }],
        ['fields', ['A'], { fields: { ActualProgress: 30 } }],
      ],
    );
    assert.deepEqual(plan.unchanged, ['B']);
  });

  it('field values grouped by identical previous values, one document per distinct inverse change', () => {
    const before = new Map([
      ['A', { Id: 'A', StatusTypeId: '51', Name: 'A' }],
      ['B', { Id: 'B', StatusTypeId: '51', Name: 'B' }],
      ['C', { Id: 'C', StatusTypeId: null, Name: 'C' }],
    ]);
    const plan = planUndo({ body: { fields: { StatusTypeId: '53' } }, applied: ['A', 'B', 'C'], before });
    assert.deepEqual(
      plan.documents.map((d) => [d.workItemIds, d.update]),
      [
        [['A', 'B'], { fields: { StatusTypeId: '51' } }],
        [['C'], { fields: { StatusTypeId: null } }],
      ],
    );
  });

  it('assignments: added ones removed, removed ones added back with their planned time, changed planned time updated', () => {
    const change = inverseAssignmentChange(
      [
        { partyId: 'u1', partyType: 'User', plannedTime: 60 },
        { partyId: 'g1', partyType: 'UserGroup', plannedTime: 30 },
      ],
      [
        { partyId: 'u1', plannedTime: 90 },
        { partyId: 'u2', plannedTime: 0 },
      ],
    );
    assert.deepEqual(change, {
      removes: 'u2',
      updates: [{ user: '#u1', plannedTime: 60 }],
      adds: [{ partyId: 'g1', partyType: 'UserGroup', plannedTime: 30 }],
    });
  });

  it('parent and order: back under the previous parent after the previous sibling that did not move', () => {
    const before = new Map(['X', 'Y', 'Z'].map((id) => [id, { Id: id, ParentId: 'P' }]));
    const plan = planUndo({
      body: { moveParentTo: 'Q' },
      applied: ['Z', 'X', 'Y'],
      before,
      siblingsBefore: new Map([['P', ['X', 'K', 'Y', 'Z', 'L']]]),
    });
    assert.deepEqual(
      plan.documents.map((d) => [d.workItemIds, d.update]),
      [
        [['X'], { moveParentTo: 'P', orderAfter: '0' }],
        [['Y', 'Z'], { moveParentTo: 'P', orderAfter: 'K' }],
      ],
    );
    const unknownOrder = planUndo({ body: { moveParentTo: 'Q' }, applied: ['X'], before });
    assert.deepEqual(unknownOrder.documents[0]!.update, { moveParentTo: 'P' });
    assert.deepEqual(unknownOrder.nonInvertible, [{ id: 'X', member: 'moveParentTo', reason: 'order-unknown', partly: true }]);
  });

  it('item type back to the previous one', () => {
    const plan = planUndo({ body: { changeItemTypeTo: 'milestone' }, applied: ['A'], before: new Map([['A', A]]) });
    assert.deepEqual(plan.documents.map((d) => d.update), [{ changeItemTypeTo: 'task' }]);
  });

  it('calculation types: previous ones set again, new ones cleared, a Formula reported', () => {
    const before = new Map([['A', { Id: 'A', FieldCalcTypes: { PlannedTime: 'Assignments', ActualProgress: 'Formula' } }]]);
    const plan = planUndo({ body: { clearAllFieldCalcTypes: true, fieldCalcTypes: { PlannedStartDate: 'Children' } }, applied: ['A'], before });
    assert.deepEqual(plan.documents.map((d) => d.update), [{ fieldCalcTypes: { PlannedTime: 'Assignments' }, clearFieldCalcTypes: 'PlannedStartDate' }]);
    assert.deepEqual(plan.nonInvertible, [{ id: 'A', member: 'fieldCalcTypes.ActualProgress', reason: 'formula' }]);
  });

  it('non-invertible changes listed by item and reason: links, sub-items, restore, values never read', () => {
    const r = planUndo({ body: { clearSchedule: true, propagateToChildren: { fields: 'StatusTypeId' } }, applied: ['A'], before: new Map([['A', A]]) });
    assert.deepEqual(
      r.nonInvertible.map((n) => [n.id, n.member, n.reason]),
      [
        ['A', 'clearSchedule', 'links-deleted'],
        ['A', 'propagateToChildren', 'descendants-not-in-snapshot'],
      ],
    );
    assert.deepEqual(r.documents[0]!.update, { fields: { PlannedStartDate: '2026-03-01', PlannedFinishDate: '2026-03-05' } }, 'the dates still come back');
    assert.deepEqual(planUndo({ body: { restore: true }, applied: ['A'], before: new Map([['A', A]]) }).nonInvertible, [{ id: 'A', member: 'restore', reason: 'restore' }]);
    assert.deepEqual(planUndo({ body: { fields: { Name: 'x' } }, applied: ['Q'], before: new Map() }).nonInvertible, [{ id: 'Q', member: '*', reason: 'not-in-snapshot' }]);
  });

  it('response members map to read fields', () => {
    assert.deepEqual(responseFields({ id: 'A', plannedStartDate: '2026-01-01', timeEntryLocked: true, updatedAt: 'x', actualProgress: 5 }), {
      PlannedStartDate: '2026-01-01',
      IsTimeEntryLocked: true,
      ActualProgress: 5,
    });
  });
});

describe('bulk undo: the snapshot beside the journal', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'wis-snapshot-'));
  });
  afterEach(async () => {
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it('survives a crash while a request was in flight: after reload the job still offers undo (old dates, no opposite shift)', async () => {
    const plan = planJob({ workItemIds: ['A', 'B', 'C'], update: { moveScheduleDays: 3 }, baseUrl: 'http://127.0.0.1:1/api', maxIdsPerRequest: 2 });
    const journal = await JobJournal.create(dir, { source: { uri: 'untitled:x.workitems.json' }, plan });
    const values = new Map([
      ['A', { Id: 'A', PlannedStartDate: '2026-01-01', PlannedFinishDate: '2026-01-02' }],
      ['B', { Id: 'B', PlannedStartDate: '2026-02-01', PlannedFinishDate: null }],
      ['C', { Id: 'C', PlannedStartDate: '2026-03-01', PlannedFinishDate: '2026-03-09' }],
    ]);
    await writeSnapshot(journal.file, { kind: 'before', jobId: journal.id, fields: ['Id', 'PlannedStartDate', 'PlannedFinishDate'], items: values });
    // The first request succeeded, the second was in flight when the process died.
    await journal.updateRequest(0, { state: 'succeeded', response: { items: [{ id: 'A', plannedStartDate: '2026-01-04', plannedFinishDate: '2026-01-05' }, { id: 'B', plannedStartDate: '2026-02-04' }], affectedItems: [], addedTimeEntryIds: [], addedScheduleDependencyIds: [] } });
    await journal.updateRequest(1, { state: 'sent', attempts: 1 });
    await journal.flush();

    const reloaded = await JobJournal.load(journal.file);
    assert.equal(reloaded.requests[1]!.state, 'unknown');
    const { plan: undo, values: v } = await planUndoForJob(reloaded);
    assert.ok(v.before, 'the snapshot is found beside the journal');
    assert.deepEqual(
      undo.documents.map((d) => [d.workItemIds, d.update]),
      [
        [['A', 'B'], { moveScheduleDays: -3 }],
        [['C'], { fields: { PlannedStartDate: '2026-03-01', PlannedFinishDate: '2026-03-09' } }],
      ],
    );
  });

  it('is written durably as one complete file; a damaged one is an error naming the file; orphans are pruned', async () => {
    const journalFile = path.join(dir, 'job-x.json');
    await fsp.writeFile(journalFile, '{}');
    const file = await writeSnapshot(journalFile, { kind: 'before', jobId: 'x', fields: ['Id'], items: new Map([['1', { Id: '1' }]]), siblings: new Map([['P', ['1']]]) });
    assert.equal(file, snapshotFile(journalFile, 'before'));
    assert.deepEqual((await fsp.readdir(dir)).sort(), ['job-x.json', 'job-x.json.before'], 'no temp file left');
    assert.deepEqual((await readSnapshot(journalFile, 'before'))!.siblings, { P: ['1'] });
    assert.equal(await readSnapshot(journalFile, 'after'), undefined);
    await fsp.writeFile(file, '{"format":');
    await assert.rejects(readSnapshot(journalFile, 'before'), (e: unknown) => e instanceof SnapshotError && e.message.includes(file));
    await fsp.rm(journalFile);
    assert.deepEqual(await pruneSnapshots(dir), [file]);
  });
});

describe('bulk undo: reading values and drift', () => {
  it('reads the fields= list the body needs, and the previous parents’ children in the answer’s order for a move', async () => {
    const asked: { ids: readonly string[]; fields: readonly string[] }[] = [];
    // root (ParentId "0") ─ P ─ X, Y
    const parents: Record<string, string> = { X: 'P', Y: 'P', P: 'root', root: '0' };
    const read = async (ids: readonly string[], fields: readonly string[]) => {
      asked.push({ ids, fields });
      const found = ids.filter((i) => i in parents);
      return { items: new Map(found.map((id) => [id, { fields: { Id: id, ParentId: parents[id], Level: 99, HasChildren: false } }])), missing: ids.filter((i) => !(i in parents)), requests: 1 };
    };
    const depths: (number | undefined)[] = [];
    const r = await readValues(read, ['X', 'Y', 'Z'], { moveParentTo: 'Q' }, {
      subItems: async (_id, q) => {
        depths.push(q.depth);
        return { fields: { Id: 'P', SubItems: [{ fields: { Id: 'Y', DisplayOrder: 2 } }, { fields: { Id: 'X', DisplayOrder: 1 } }] } };
      },
    });
    assert.deepEqual(asked[0]!.fields, ['Id', 'Name', 'ParentId', 'ProjectId'], 'no Level, no DisplayOrder (the help shows neither)');
    assert.deepEqual(r.missing, ['Z']);
    assert.deepEqual([...r.siblings!], [['P', ['Y', 'X']]], 'the answer’s order, whatever a DisplayOrder says');
    assert.deepEqual(asked.slice(1).map((a) => [a.ids, a.fields]), [[['P'], ['Id', 'ParentId']], [['root'], ['Id', 'ParentId']]], 'the parent’s level from its ParentId chain');
    assert.deepEqual(depths, [2], 'depth counts from the root folder: the children of a level-1 parent are on level 2');
    assert.equal(r.requests, 4);
  });

  it('for a body that reaches sub-items, whether each item has any comes from its parent\'s answer one level deeper (no HasChildren read)', async () => {
    const parents: Record<string, string> = { X: 'P', Y: 'P', P: 'root', root: '0' };
    const asked: (readonly string[])[] = [];
    const read = async (ids: readonly string[], fields: readonly string[]) => {
      asked.push(fields);
      return { items: new Map(ids.map((id) => [id, { fields: { Id: id, ParentId: parents[id], HasChildren: true } }])), missing: [], requests: 1 };
    };
    const depths: (number | undefined)[] = [];
    const r = await readValues(read, ['X', 'Y'], { setTimeEntryLocked: true }, {
      subItems: async (_id, q) => {
        depths.push(q.depth);
        return { fields: { Id: 'P', SubItems: [{ fields: { Id: 'X', SubItems: [] } }, { fields: { Id: 'Y', SubItems: [{ fields: { Id: 'Y1' } }] } }] } };
      },
    });
    assert.ok(asked.every((f) => !f.includes('HasChildren')));
    assert.deepEqual(depths, [3], 'the parent is on level 1: its children on 2, theirs on 3');
    assert.equal(r.items.get('X')![HAS_SUB_ITEMS], false);
    assert.equal(r.items.get('Y')![HAS_SUB_ITEMS], true);
    const plan = planUndo({ body: { setTimeEntryLocked: true }, applied: ['X', 'Y'], before: new Map([...r.items].map(([id, v]) => [id, { ...v, IsTimeEntryLocked: false }])) });
    assert.deepEqual(
      plan.nonInvertible.map((n) => [n.id, n.reason]),
      [['Y', 'descendants-not-in-snapshot']],
      'only the item with sub-items has descendants that are not put back',
    );
  });

  it('a parent whose chain breaks is read without depth (its whole subtree)', async () => {
    const read = async (ids: readonly string[]) => ({ items: new Map(ids.filter((i) => i === 'X').map((id) => [id, { fields: { Id: id, ParentId: 'P' } }])), missing: ids.filter((i) => i !== 'X'), requests: 1 });
    const depths: (number | undefined)[] = [];
    const r = await readValues(read, ['X'], { moveParentTo: 'Q' }, {
      subItems: async (_id, q) => {
        depths.push(q.depth);
        return { fields: { Id: 'P', SubItems: [{ fields: { Id: 'X' } }] } };
      },
    });
    assert.deepEqual(depths, [undefined]);
    assert.deepEqual([...r.siblings!], [['P', ['X']]]);
  });

  it('finds items whose touched fields changed since the preview, and items gone', () => {
    const then = new Map([
      ['A', { Id: 'A', PlannedStartDate: '2026-01-01', PlannedFinishDate: '2026-01-02' }],
      ['B', { Id: 'B', PlannedStartDate: '2026-01-01', PlannedFinishDate: '2026-01-02' }],
      ['C', { Id: 'C', PlannedStartDate: null, PlannedFinishDate: null }],
    ]);
    const now = new Map([
      ['A', { Id: 'A', PlannedStartDate: '2026-01-01T00:00:00', PlannedFinishDate: '2026-01-02' }],
      ['B', { Id: 'B', PlannedStartDate: '2026-01-03', PlannedFinishDate: '2026-01-02' }],
    ]);
    assert.deepEqual(findDrift({ moveScheduleDays: 1 }, then, now), [
      { id: 'B', fields: [{ field: 'PlannedStartDate', then: '2026-01-01', now: '2026-01-03' }] },
      { id: 'C', fields: [], gone: true },
    ]);
  });
});

describe('bulk: values after an update without a re-read (official help U2: the answer holds only values that differ from the values sent)', () => {
  it('a field sent and kept as sent is not in the answer: its value after is the value sent', () => {
    const before = { Id: 'A', Name: 'old', PlannedTime: 60, PlannedStartDate: '2026-01-01' };
    const after = valuesAfterAnswer(before, { Name: 'new', PlannedTime: 120 }, { id: 'A', plannedTime: 90, updatedAt: '2022-10-14T05:18:49.6713434' });
    assert.deepEqual(after, { Id: 'A', Name: 'new', PlannedTime: 90, PlannedStartDate: '2026-01-01' });
  });
  it('without fields sent, only what the answer reports changes', () => {
    const after = valuesAfterAnswer({ Id: 'A', PlannedStartDate: '2026-01-01' }, undefined, { id: 'A', plannedStartDate: '2026-01-04T00:00:00' });
    assert.deepEqual(after, { Id: 'A', PlannedStartDate: '2026-01-04T00:00:00' });
  });
});
