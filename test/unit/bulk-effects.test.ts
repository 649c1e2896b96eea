// The expected value of every predictable member of an update body, the fields
// each body touches (the `fields=` list of the preview's reads), and the rule
// violations the preview flags before anything is sent.
import * as assert from 'node:assert/strict';
import { computeEffects, fieldsToRead, HAS_SUB_ITEMS, itemEffect, sameFieldValue, touchedFields, type Expected, type ItemEffect } from '../../src/bulk/effects';

const T1 = {
  Id: 'T1',
  Name: 'Design',
  Code: 'D-1',
  PlannedStartDate: '2026-03-01T00:00:00',
  PlannedFinishDate: '2026-03-10T00:00:00',
  ActualProgress: 40,
  TracksProgress: true,
  IsTimeEntryLocked: false,
  PlannedTime: 480,
  ManagedPlannedTime: 480,
  Assignments: [{ PartyId: 'u-alice', PartyType: 'User', PlannedTime: 480 }],
  ParentId: 'F1a',
  ItemTypeId: 'task',
  ProjectId: 'p1',
  FieldCalcTypes: { PlannedTime: 'Assignments' },
  LeaderId: 'u-alice',
};

function expected(e: ItemEffect, field: string): Expected {
  const f = e.fields.find((x) => x.field === field);
  assert.ok(f, `${field} is among the touched fields (${e.fields.map((x) => x.field).join(', ')})`);
  return f.expected;
}
const value = (v: unknown): Expected => ({ kind: 'value', value: v });

describe('bulk effects: expected values of each predictable member', () => {
  it('fields: every field set directly gets its value; dates are compared by day', () => {
    const e = itemEffect('T1', { fields: { Name: 'New', Code: 'X', PlannedTime: 60, LeaderId: null, PlannedStartDate: '2026-03-01', Description: null } }, T1);
    assert.deepEqual(expected(e, 'Name'), value('New'));
    assert.deepEqual(expected(e, 'Code'), value('X'));
    assert.deepEqual(expected(e, 'PlannedTime'), value(60));
    assert.deepEqual(expected(e, 'LeaderId'), value(null));
    assert.deepEqual(expected(e, 'Description'), value(''));
    const start = e.fields.find((f) => f.field === 'PlannedStartDate')!;
    assert.equal(start.changes, false, 'the same day with a time part is no change');
    assert.equal(e.fields.find((f) => f.field === 'Name')!.changes, true);
    assert.deepEqual(e.problems, []);
  });

  it('setCompleted: progress 100 / 0 for an item that tracks progress, unchanged for one that does not', () => {
    assert.deepEqual(expected(itemEffect('T1', { setCompleted: true }, T1), 'ActualProgress'), value(100));
    assert.deepEqual(expected(itemEffect('T1', { setCompleted: false }, T1), 'ActualProgress'), value(0));
    const nt = itemEffect('NT', { setCompleted: true }, { Id: 'NT', ActualProgress: 10, TracksProgress: false });
    assert.deepEqual(expected(nt, 'ActualProgress'), value(10));
    assert.equal(nt.fields[0]!.changes, false);
    const parent = itemEffect('F1', { setCompleted: true }, { Id: 'F1', ActualProgress: 0, TracksProgress: true });
    assert.ok(parent.notes.includes('children-progress'), 'the children are named as changed too');
    // The help shows no HasChildren: a field of that name says nothing; only what readValues computed from the hierarchy does.
    assert.ok(itemEffect('T1', { setCompleted: true }, { ...T1, HasChildren: false }).notes.includes('children-progress'), 'unknown: named (the safe side)');
    assert.ok(!itemEffect('T1', { setCompleted: true }, { ...T1, [HAS_SUB_ITEMS]: false }).notes.includes('children-progress'), 'a leaf found by readValues');
  });

  it('"0" in an ID field is no value, the same as null (official help P1, T1, F1)', () => {
    assert.equal(sameFieldValue('LeaderId', '0', null), true);
    assert.equal(sameFieldValue('ProcessCategoryId', 0, null), true);
    assert.equal(sameFieldValue('StatusTypeId', '0', '51'), false);
    const e = itemEffect('T1', { fields: { LeaderId: null } }, { ...T1, LeaderId: '0' });
    assert.equal(e.fields.find((f) => f.field === 'LeaderId')!.changes, false, 'no leader stays no leader');
  });

  it('setTimeEntryLocked: the lock flag; descendants are named', () => {
    const e = itemEffect('T1', { setTimeEntryLocked: true }, T1);
    assert.deepEqual(expected(e, 'IsTimeEntryLocked'), value(true));
    assert.ok(e.notes.includes('descendants-lock'));
    assert.ok(!itemEffect('T1', { setTimeEntryLocked: true }, { ...T1, [HAS_SUB_ITEMS]: false }).notes.includes('descendants-lock'));
  });

  it('moveScheduleDays: both dates shifted (across a month end), a missing date stays empty', () => {
    const e = itemEffect('T1', { moveScheduleDays: 25 }, T1);
    assert.deepEqual(expected(e, 'PlannedStartDate'), value('2026-03-26'));
    assert.deepEqual(expected(e, 'PlannedFinishDate'), value('2026-04-04'));
    const half = itemEffect('X', { moveScheduleDays: -1 }, { Id: 'X', PlannedStartDate: '2026-03-01', PlannedFinishDate: null });
    assert.deepEqual(expected(half, 'PlannedStartDate'), value('2026-02-28'));
    assert.deepEqual(expected(half, 'PlannedFinishDate'), value(null));
  });

  it('moveScheduleDays: a shift outside the project allowed range is flagged when the range is known (rules 6 and 7)', () => {
    const range = { allowedRange: (p: string) => (p === 'p1' ? { min: '2026-01-01', max: '2026-12-31' } : undefined) };
    const e = itemEffect('T1', { moveScheduleDays: 300 }, T1, range);
    assert.deepEqual(
      e.problems.map((p) => [p.code, p.field, p.params?.date]),
      [['shift-out-of-range', 'PlannedFinishDate', '2027-01-04']],
    );
    assert.deepEqual(itemEffect('T1', { moveScheduleDays: 300 }, T1).problems, [], 'no range known: nothing flagged');
  });

  it('clearSchedule: both dates emptied, links named as deleted; fields set after it win', () => {
    const e = itemEffect('T1', { clearSchedule: true }, T1);
    assert.deepEqual(expected(e, 'PlannedStartDate'), value(null));
    assert.deepEqual(expected(e, 'PlannedFinishDate'), value(null));
    assert.ok(e.notes.includes('links-deleted'));
    const again = itemEffect('T1', { clearSchedule: true, fields: { PlannedStartDate: '2026-05-01' } }, T1);
    assert.deepEqual(expected(again, 'PlannedStartDate'), value('2026-05-01'));
  });

  it('end before start after the change is flagged (rule 5)', () => {
    const e = itemEffect('T1', { fields: { PlannedFinishDate: '2026-02-01' } }, T1);
    assert.deepEqual(e.problems.map((p) => p.code), ['end-before-start']);
  });

  it('assignmentChange: removes by ID, adds by party ID or #ID with planned time, updates, recalculation', () => {
    const e = itemEffect(
      'T1',
      { assignmentChange: { adds: [{ user: '#u-carol', plannedTime: 120 }, { partyId: 'g-dev', partyType: 'UserGroup' }], recalculatePlannedTimeByAssignment: true } },
      T1,
    );
    assert.deepEqual(
      expected(e, 'Assignments'),
      value([
        { partyId: 'u-alice', partyType: 'User', plannedTime: 480 },
        { partyId: 'u-carol', plannedTime: 120 },
        { partyId: 'g-dev', partyType: 'UserGroup', plannedTime: 0 },
      ]),
    );
    assert.deepEqual(expected(e, 'PlannedTime'), value(600));
    assert.deepEqual(expected(e, 'ManagedPlannedTime'), value(600));
    const r = itemEffect('T1', { assignmentChange: { removes: 'u-alice' } }, T1);
    assert.deepEqual(expected(r, 'Assignments'), value([]));
    const u = itemEffect('T1', { assignmentChange: { updates: [{ user: '#u-alice', plannedTime: 30 }] } }, T1);
    assert.deepEqual(expected(u, 'Assignments'), value([{ partyId: 'u-alice', partyType: 'User', plannedTime: 30 }]));
    const spread = itemEffect('T1', { assignmentChange: { adds: [{ partyId: 'u-carol' }], recalculatePlannedTimeByAssignment: false } }, { ...T1, PlannedTime: 481 });
    assert.deepEqual(
      (expected(spread, 'Assignments') as { value: { plannedTime: number }[] }).value.map((a) => a.plannedTime),
      [241, 240],
      'planned time redistributed, the remainder on the first',
    );
  });

  it('assignmentChange naming users by name: computed by the service', () => {
    const e = itemEffect('T1', { assignmentChange: { adds: [{ user: 'carol' }] } }, T1);
    assert.deepEqual(expected(e, 'Assignments'), { kind: 'computed', reason: 'assignment-user' });
    const c = itemEffect('T1', { copyAssignmentsFrom: 'T2' }, T1);
    assert.deepEqual(expected(c, 'Assignments'), { kind: 'computed', reason: 'copied-assignments' });
  });

  it('moveParentTo / changeItemTypeTo: the new parent and type; the position is the service’s', () => {
    const e = itemEffect('T1', { moveParentTo: 'F2', orderFirst: true, changeItemTypeTo: 'milestone' }, T1);
    assert.deepEqual(expected(e, 'ParentId'), value('F2'));
    assert.ok(!e.fields.some((f) => f.field === 'DisplayOrder'), 'the help shows no order field: the position is not a row of the table');
    assert.deepEqual(expected(e, 'ItemTypeId'), value('milestone'));
  });

  it('calculation types: the merged map; values under a new calculation type are computed', () => {
    const e = itemEffect('T1', { fieldCalcTypes: { ActualProgress: 'ActualTime' }, clearFieldCalcTypes: 'PlannedTime' }, T1);
    assert.deepEqual(expected(e, 'FieldCalcTypes'), value({ ActualProgress: 'ActualTime' }));
    assert.deepEqual(expected(itemEffect('T1', { clearAllFieldCalcTypes: true }, T1), 'FieldCalcTypes'), value({}));
  });

  it('restore: not deleted any more', () => {
    assert.deepEqual(expected(itemEffect('D1', { restore: true }, { Id: 'D1', IsDeleted: true }), 'IsDeleted'), value(false));
  });

  it('flags an empty name, a name or code too long, progress on an item that does not track it (rules 1-3, 29)', () => {
    assert.deepEqual(itemEffect('T1', { fields: { Name: '  ' } }, T1).problems.map((p) => p.code), ['name-empty']);
    assert.deepEqual(itemEffect('T1', { fields: { Name: 'x'.repeat(257) } }, T1).problems.map((p) => p.code), ['name-too-long']);
    assert.deepEqual(itemEffect('T1', { fields: { Code: 'x'.repeat(257) } }, T1).problems.map((p) => p.code), ['code-too-long']);
    assert.deepEqual(itemEffect('NT', { fields: { ActualProgress: 50 } }, { Id: 'NT', TracksProgress: false }).problems.map((p) => p.code), ['progress-not-tracked']);
    assert.deepEqual(itemEffect('T9', { fields: { Name: 'A' } }, undefined).problems.map((p) => p.code), ['missing']);
  });

  it('touched fields and the fields= list to read', () => {
    assert.deepEqual(touchedFields({ moveScheduleDays: 3 }), ['PlannedStartDate', 'PlannedFinishDate']);
    assert.deepEqual(touchedFields({ moveScheduleDays: 0 }), []);
    assert.deepEqual(fieldsToRead({ moveScheduleDays: 3 }), ['Id', 'Name', 'PlannedStartDate', 'PlannedFinishDate', 'ProjectId']);
    assert.deepEqual(fieldsToRead({ setCompleted: true }), ['Id', 'Name', 'ActualProgress', 'TracksProgress', 'ParentId'], 'the parent, to find out whether the item has sub-items');
    assert.deepEqual(touchedFields({ moveParentTo: 'F2', changeItemTypeTo: 'x' }), ['ParentId', 'ItemTypeId']);
    assert.deepEqual(fieldsToRead({ moveParentTo: 'F2' }), ['Id', 'Name', 'ParentId', 'ProjectId'], 'no Level, no DisplayOrder (the help shows neither)');
    for (const body of [{ setCompleted: true }, { setTimeEntryLocked: true }, { propagateToChildren: { fields: 'Name' } }, { moveParentTo: 'F2', orderFirst: true }]) {
      for (const f of ['HasChildren', 'Level', 'DisplayOrder']) assert.ok(!fieldsToRead(body).includes(f), `${f} is not read for ${JSON.stringify(body)}`);
    }
    assert.deepEqual(touchedFields({ restore: true, moveScheduleDays: 3 }), ['IsDeleted'], 'restore ignores every other member');
    assert.deepEqual(touchedFields({ assignmentChange: { removes: 'u' } }), ['Assignments', 'ManagedPlannedTime']);
  });

  it('summary counts per field: changes, unchanged, computed', () => {
    const current = new Map([
      ['A', { Id: 'A', ActualProgress: 0, TracksProgress: true }],
      ['B', { Id: 'B', ActualProgress: 100, TracksProgress: true }],
    ]);
    const { summary } = computeEffects(['A', 'B', 'C'], { setCompleted: true }, current);
    assert.deepEqual(summary.fields, [{ field: 'ActualProgress', changes: 1, unchanged: 1, computed: 0 }]);
    assert.equal(summary.missing, 1);
    assert.equal(summary.withProblems, 1);
  });
});
