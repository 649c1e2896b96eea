// The members that change the assignments: copyAssignmentsFrom and assignmentChange
// (removes, updates, adds, then the planned time recalculated or redistributed), with the
// shared inverse of the assignments (which `fields` may set too). No vscode import, no I/O.
import type { AssignmentAdd, AssignmentChange, AssignmentUpdate, UpdateWorkItemsBody } from '../../schema/api';
import { splitCommaList } from '../../schema/fields';
import { normalizeAssignments, type Assignment } from '../values';
import type { Behaviours, SharedInverse } from './entry';
import { UndoItem } from './inverse';
import { compute, has, now, setValue, UNKNOWN_BEFORE, type ComputedReason, type Expected, type ItemState } from './predict';

/** The party IDs an assignment change removes (split once per change, not per item). */
const removedIds = new WeakMap<AssignmentChange, string[]>();

/** `before`: a list of its own (normalizeAssignments made it), changed in place. */
function predictAssignments(before: Assignment[], change: AssignmentChange, plannedTime: unknown): { list?: Assignment[]; plannedTime?: number } {
  let list = before;
  let removes = removedIds.get(change);
  if (!removes) removedIds.set(change, (removes = splitCommaList(change.removes ?? '')));
  for (const id of removes) list = list.filter((a) => a.partyId !== id);
  if ((change.removeUsers ?? []).length > 0) return {}; // users named: the service resolves them
  for (const u of change.updates ?? []) {
    // Named by "#<party ID>" or, as in the help's example, by partyId alone (no user).
    if (u.user !== undefined && u.user !== '' && !u.user.startsWith('#')) return {};
    const partyId = u.user !== undefined && u.user !== '' ? u.user.slice(1) : u.partyId;
    if (partyId === undefined) return {};
    const entry = list.find((a) => a.partyId === partyId);
    if (!entry) return {}; // the service refuses it (assignment not found)
    if (u.partyId !== undefined && u.partyId !== partyId) {
      list = list.filter((a) => a === entry || a.partyId !== u.partyId);
      entry.partyId = u.partyId;
      delete entry.partyType;
    }
    if (u.plannedTime !== undefined) entry.plannedTime = u.plannedTime;
  }
  for (const a of change.adds ?? []) {
    let partyId = a.partyId;
    if (a.user !== undefined) {
      if (!a.user.startsWith('#')) return {};
      partyId = a.user.slice(1);
    }
    if (partyId === undefined) return {};
    const existing = list.find((x) => x.partyId === partyId);
    if (existing) {
      if (a.plannedTime !== undefined) existing.plannedTime = a.plannedTime;
    } else {
      const added: Assignment = { partyId, plannedTime: a.plannedTime ?? 0 };
      if (a.partyType !== undefined) added.partyType = a.partyType;
      list.push(added);
    }
  }
  const out: { list?: Assignment[]; plannedTime?: number } = { list };
  if (change.recalculatePlannedTimeByAssignment === true) out.plannedTime = list.reduce((s, a) => s + a.plannedTime, 0);
  else if (change.recalculatePlannedTimeByAssignment === false && list.length > 0) {
    if (typeof plannedTime !== 'number') return {};
    const each = Math.floor(plannedTime / list.length);
    const remainder = plannedTime - each * list.length;
    list.forEach((a, i) => (a.plannedTime = each + (i === 0 ? remainder : 0)));
  }
  return out;
}

function changeAssignments(st: ItemState, change: AssignmentChange): void {
  // The list so far as a copy of its own (predictAssignments changes it in place): one copy of what was read
  // (normalizeAssignments gives the same list of its normal form), or of what the body set.
  const set = st.values.Assignments;
  const cur: Expected = set ?? (has(st, 'Assignments') ? { kind: 'value', value: st.current.Assignments } : UNKNOWN_BEFORE);
  const list = cur.kind === 'value' ? normalizeAssignments(cur.value) : undefined;
  // A change that only removes leaves the entries as they are (its filters make new lists): the list read is the value before too.
  if (list && set === undefined && !change.updates?.length && !change.adds?.length && change.recalculatePlannedTimeByAssignment !== false)
    st.assignmentsBefore = list;
  // PlannedTime so far (as now() gives it), only when the change divides it.
  const planned = change.recalculatePlannedTimeByAssignment === false ? now(st, 'PlannedTime') : undefined;
  const predicted = list ? predictAssignments(list, change, planned?.kind === 'value' ? planned.value : undefined) : {};
  if (predicted.list) {
    st.values.Assignments = { kind: 'value', value: predicted.list };
    setValue(
      st,
      'ManagedPlannedTime',
      predicted.list.reduce((sum, a) => sum + a.plannedTime, 0),
    );
  } else {
    const reason: ComputedReason = cur.kind === 'computed' ? cur.reason : 'assignment-user';
    compute(st, 'Assignments', reason);
    compute(st, 'ManagedPlannedTime', reason);
  }
  if (change.recalculatePlannedTimeByAssignment === true) {
    if (predicted.plannedTime !== undefined) setValue(st, 'PlannedTime', predicted.plannedTime);
    else compute(st, 'PlannedTime', 'assignment-user');
  }
}

export const ASSIGNMENT_MEMBERS: Behaviours<'copyAssignmentsFrom' | 'assignmentChange'> = {
  copyAssignmentsFrom: {
    // Another item's assignments: the service's to copy.
    predict(st) {
      compute(st, 'Assignments', 'copied-assignments');
      compute(st, 'ManagedPlannedTime', 'copied-assignments');
    },
    inverse: { undo: (item) => item.putBack('assignments', ['Assignments'], { member: 'copyAssignmentsFrom' }) },
  },
  assignmentChange: {
    predict: (st, change) => changeAssignments(st, change),
    inverse: {
      undo(item, change) {
        item.putBack('assignments', ['Assignments'], { member: 'assignmentChange' });
        // The planned time became the assignments' sum: back with the assignments.
        if (change.recalculatePlannedTimeByAssignment === true)
          item.putBack('assignments', ['PlannedTime'], { member: 'assignmentChange.recalculatePlannedTimeByAssignment' });
      },
    },
  },
};

/**
 * The assignments back: the changes that turn the list after into the list before
 * (removes, updates, adds with their planned time) when the list after is known and the
 * outcome is; the whole list before otherwise. A planned time recalculated from them
 * comes back in the same document.
 */
export const ASSIGNMENTS_INVERSE: SharedInverse = {
  kind: 'assignments',
  putBack(item) {
    const byField = item.claimed('assignments');
    const claims = byField.get('Assignments');
    if (!claims) return;
    const old = item.has('Assignments') ? normalizeAssignments(item.before.Assignments) : undefined;
    if (!old) {
      for (const m of UndoItem.members(claims)) item.lost(m, 'not-in-snapshot');
      return;
    }
    const update: UpdateWorkItemsBody = {};
    if (item.changed('Assignments')) {
      const after = item.hasAfter('Assignments') ? normalizeAssignments(item.after.Assignments) : undefined;
      const inverse = after && !item.uncertain ? inverseAssignmentChange(old, after) : undefined;
      if (inverse) update.assignmentChange = inverse;
      else
        update.fields = {
          Assignments: old.map((a) =>
            a.partyType ? { partyId: a.partyId, partyType: a.partyType, plannedTime: a.plannedTime } : { partyId: a.partyId, plannedTime: a.plannedTime },
          ),
        };
    }
    for (const [f, fieldClaims] of byField) {
      if (f === 'Assignments') continue;
      if (!item.has(f)) for (const m of UndoItem.members(fieldClaims)) item.lost(m, 'not-in-snapshot');
      else if (item.changed(f)) update.fields = { ...(update.fields ?? {}), [f]: item.was(f) };
    }
    if (Object.keys(update).length > 0) item.put('assignments', update);
  },
};

/** Assignment changes that turn `after` back into `before` (removes, adds with planned time, updates). */
export function inverseAssignmentChange(before: Assignment[], after: Assignment[]): UpdateWorkItemsBody['assignmentChange'] | undefined {
  const removes = after.filter((a) => !before.some((b) => b.partyId === a.partyId)).map((a) => a.partyId);
  const adds: AssignmentAdd[] = before
    .filter((b) => !after.some((a) => a.partyId === b.partyId))
    .map((b) => {
      const add: AssignmentAdd = { partyId: b.partyId, plannedTime: b.plannedTime };
      if (b.partyType === 'User' || b.partyType === 'UserGroup') add.partyType = b.partyType;
      return add;
    });
  const updates: AssignmentUpdate[] = before
    .filter((b) => after.some((a) => a.partyId === b.partyId && a.plannedTime !== b.plannedTime))
    .map((b) => ({ user: `#${b.partyId}`, plannedTime: b.plannedTime }));
  if (removes.length === 0 && adds.length === 0 && updates.length === 0) return undefined;
  const change: NonNullable<UpdateWorkItemsBody['assignmentChange']> = {};
  if (removes.length > 0) change.removes = removes.join(',');
  if (updates.length > 0) change.updates = updates;
  if (adds.length > 0) change.adds = adds;
  return change;
}
