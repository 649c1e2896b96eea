// The data set and the random invertible update bodies of the undo property tests
// (one body, and a change of several requests).
import fc from 'fast-check';
import type { DatasetInput } from '../../src/sandbox/model';
import type { Clock } from '../../src/bulk/types';
import type { UpdateWorkItemsBody } from '../../src/schema/api';

export const TASKS = ['T1', 'T2', 'T3', 'T4', 'T5', 'T6', 'T7', 'T8'];
export const FOLDERS = ['F1', 'F2', 'F3'];
export const MEMBERS = ['u-alice', 'u-carol', 'u-bob'];

export function dataset(): DatasetInput {
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
export function virtualClock(): Clock {
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
export const bodyArb: fc.Arbitrary<UpdateWorkItemsBody> = fc
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

