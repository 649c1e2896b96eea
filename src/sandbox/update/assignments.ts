// The assignment steps of an update: the `Assignments` field's list,
// copyAssignmentsFrom and assignmentChange (removes, removeUsers, updates, adds, then
// recalculatePlannedTimeByAssignment), with the parties checked (errors 4, 15). No
// vscode import.
import { splitCommaList } from '../../schema/fields';
import type { AssignmentAdd } from '../../schema/api';
import type { StoredAssignment } from '../model';
import { sameValue, sumPlanned, type ItemScope, type UpdateRun } from './run';

/** Checks that a party may be assigned in the item's project (errors 4 and 15). */
function checkParty(run: UpdateRun, scope: ItemScope, partyId: string, partyType: 'User' | 'UserGroup', field: string): boolean {
  const where = { itemId: scope.id, field };
  if (partyType === 'User') {
    if (!run.users.user(partyId)) {
      run.fail('USER_NOT_FOUND', { user: partyId }, { ...where, rule: 4 });
      return false;
    }
    if (!run.isMember(scope.project, partyId)) {
      run.fail('ASSIGNEE_NOT_MEMBER', { partyType, partyId, projectId: scope.project.id }, { ...where, rule: 15 });
      return false;
    }
    return true;
  }
  if (!run.users.groups.has(partyId)) {
    run.fail('USER_GROUP_NOT_FOUND', { group: partyId }, { ...where, rule: 4 });
    return false;
  }
  if (!scope.project.userGroupIds.includes(partyId)) {
    run.fail('ASSIGNEE_NOT_MEMBER', { partyType, partyId, projectId: scope.project.id }, { ...where, rule: 15 });
    return false;
  }
  return true;
}

/** A group when the ID names a live group and no live user, else a user. */
function inferPartyType(run: UpdateRun, partyId: string): 'User' | 'UserGroup' {
  return !run.users.user(partyId) && run.users.groups.has(partyId) ? 'UserGroup' : 'User';
}

/** A user named by login name, LDAP login name, e-mail or name (error 4 when none or several). */
function userByName(run: UpdateRun, scope: ItemScope, text: string, field: string): string | undefined {
  const found = run.users.match(text);
  if (found.length === 1) return found[0]!.id;
  if (found.length === 0) run.fail('USER_NOT_FOUND', { user: text }, { itemId: scope.id, field, rule: 4 });
  else run.fail('USER_AMBIGUOUS', { user: text, matches: found.map((u) => u.id).join(', ') }, { itemId: scope.id, field, rule: 4 });
  return undefined;
}

/** `user` of an added or updated assignment: `#<party ID>`, or a user's name. */
function partyOfUserText(run: UpdateRun, scope: ItemScope, text: string, field: string): string | undefined {
  if (text.startsWith('#')) return text.slice(1);
  return userByName(run, scope, text, field);
}

/** The `Assignments` field: a list of `{partyId, partyType?, plannedTime?}` (member names in any casing). */
export function parseAssignmentList(run: UpdateRun, scope: ItemScope, value: unknown): StoredAssignment[] | undefined {
  const field = 'Assignments';
  const expected = 'a list of {"partyId", "partyType"?, "plannedTime"?}';
  if (!Array.isArray(value)) return run.badValue(scope, field, expected, value), undefined;
  const out: StoredAssignment[] = [];
  let ok = true;
  value.forEach((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      ok = false;
      return run.badValue(scope, field, expected, entry);
    }
    const norm: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(entry)) norm[k.toLowerCase()] = v;
    const extra = Object.keys(norm).filter((k) => !['partyid', 'partytype', 'plannedtime'].includes(k));
    const { partyid, partytype, plannedtime } = norm;
    if (
      extra.length > 0 ||
      typeof partyid !== 'string' ||
      partyid === '' ||
      (partytype !== undefined && partytype !== 'User' && partytype !== 'UserGroup') ||
      (plannedtime !== undefined && (typeof plannedtime !== 'number' || !Number.isInteger(plannedtime) || plannedtime < 0))
    ) {
      ok = false;
      return run.badValue(scope, field, expected, entry);
    }
    const type = (partytype as 'User' | 'UserGroup' | undefined) ?? inferPartyType(run, partyid);
    if (!checkParty(run, scope, partyid, type, field)) {
      ok = false;
      return;
    }
    const existing = out.find((a) => a.partyId === partyid);
    if (existing) existing.plannedTime = (plannedtime as number | undefined) ?? existing.plannedTime;
    else out.push({ partyId: partyid, partyType: type, plannedTime: (plannedtime as number | undefined) ?? 0 });
  });
  return ok ? out : undefined;
}

/** copyAssignmentsFrom: the assignments of another item of the project. */
export function copyAssignments(run: UpdateRun, scope: ItemScope): void {
  const fromId = run.body.copyAssignmentsFrom;
  if (fromId === undefined) return;
  const source = run.referencedItem(scope, fromId, 'copyAssignmentsFrom', { missing: 23, otherProject: 22 });
  if (!source || source.id === scope.id) return;
  const list = source.assignments.map((a) => ({ ...a }));
  const item = run.ws.get(scope.id)!;
  if (!sameValue(item.assignments, list)) {
    const w = run.ws.mut(scope.id);
    w.assignments = list;
    w.managedPlannedTime = sumPlanned(list);
  }
}

/** assignmentChange: removes, removeUsers, updates, adds, then recalculatePlannedTimeByAssignment. */
export function assignmentChange(run: UpdateRun, scope: ItemScope): void {
  const change = run.body.assignmentChange;
  if (!change) return;
  const id = scope.id;
  const before = run.errors.length;
  let list = run.ws.get(id)!.assignments.map((a) => ({ ...a }));
  const base = 'assignmentChange';

  for (const partyId of splitCommaList(change.removes ?? '')) {
    if (!run.users.user(partyId) && !run.users.groups.has(partyId)) {
      run.fail('USER_NOT_FOUND', { user: partyId }, { itemId: id, field: `${base}.removes`, rule: 4 });
      continue;
    }
    list = list.filter((a) => a.partyId !== partyId);
  }
  (change.removeUsers ?? []).forEach((text, i) => {
    const userId = userByName(run, scope, text, `${base}.removeUsers[${i}]`);
    if (userId !== undefined) list = list.filter((a) => a.partyId !== userId);
  });
  (change.updates ?? []).forEach((u, i) => {
    const field = `${base}.updates[${i}]`;
    // Named by "user" (then "partyId" is the new party) or, as in the help's example, by "partyId" alone.
    const byUser = u.user !== undefined && u.user !== '';
    if (!byUser && (u.partyId === undefined || u.partyId === '')) {
      run.badValue(scope, field, 'an assignment named by "partyId" (e.g. {"partyId": "23", "plannedTime": 120}) or by "user"', u);
      return;
    }
    const partyId = byUser ? partyOfUserText(run, scope, u.user!, `${field}.user`) : u.partyId;
    if (partyId === undefined) return;
    const entry = list.find((a) => a.partyId === partyId);
    if (!entry) {
      if (!byUser && !run.users.user(partyId) && !run.users.groups.has(partyId)) {
        run.fail('USER_NOT_FOUND', { user: partyId }, { itemId: id, field: `${field}.partyId`, rule: 4 });
      } else {
        run.fail('ASSIGNMENT_NOT_FOUND', { partyId }, { itemId: id, field });
      }
      return;
    }
    if (u.plannedTime !== undefined && u.plannedTime < 0) {
      run.badValue(scope, `${field}.plannedTime`, 'a whole number of at least 0', u.plannedTime);
      return;
    }
    if (u.partyId !== undefined && u.partyId !== entry.partyId) {
      const type = inferPartyType(run, u.partyId);
      if (!checkParty(run, scope, u.partyId, type, `${field}.partyId`)) return;
      list = list.filter((a) => a === entry || a.partyId !== u.partyId);
      entry.partyId = u.partyId;
      entry.partyType = type;
    }
    if (u.plannedTime !== undefined) entry.plannedTime = u.plannedTime;
  });
  addAssignments(run, scope, list, change.adds ?? [], (i) => `${base}.adds[${i}]`);
  if (run.errors.length > before) return;

  const item = run.ws.get(id)!;
  let plannedTime = item.plannedTime;
  if (change.recalculatePlannedTimeByAssignment === true) {
    plannedTime = sumPlanned(list);
  } else if (change.recalculatePlannedTimeByAssignment === false && list.length > 0) {
    const each = Math.floor(item.plannedTime / list.length);
    const remainder = item.plannedTime - each * list.length;
    list.forEach((a, i) => (a.plannedTime = each + (i === 0 ? remainder : 0)));
  }
  if (!sameValue(item.assignments, list)) run.ws.mut(id).assignments = list;
  if (item.plannedTime !== plannedTime) run.ws.mut(id).plannedTime = plannedTime;
  const managed = sumPlanned(list);
  if (item.managedPlannedTime !== managed) run.ws.mut(id).managedPlannedTime = managed;
}

/**
 * Added assignments (assignmentChange.adds, and the `assignments` of an added item) put
 * into `list`, each party checked (errors 4, 15); an already assigned party gets the
 * new planned time. `fieldOf(i)` names entry i in errors.
 */
export function addAssignments(run: UpdateRun, scope: ItemScope, list: StoredAssignment[], adds: readonly AssignmentAdd[], fieldOf: (i: number) => string): void {
  const id = scope.id;
  adds.forEach((a, i) => {
    const field = fieldOf(i);
    let fromUser: string | undefined;
    if (a.user !== undefined) {
      fromUser = partyOfUserText(run, scope, a.user, `${field}.user`);
      if (fromUser === undefined) return;
    }
    if (fromUser !== undefined && a.partyId !== undefined && fromUser !== a.partyId) {
      run.fail('ASSIGNMENT_PARTY_CONFLICT', { index: i, user: a.user!, partyId: a.partyId }, { itemId: id, field });
      return;
    }
    const partyId = a.partyId ?? fromUser;
    if (partyId === undefined || partyId === '') {
      run.fail('ASSIGNMENT_PARTY_MISSING', { index: i }, { itemId: id, field });
      return;
    }
    if (a.plannedTime !== undefined && a.plannedTime < 0) {
      run.badValue(scope, `${field}.plannedTime`, 'a whole number of at least 0', a.plannedTime);
      return;
    }
    const namedUser = a.user !== undefined && !a.user.startsWith('#');
    const type = a.partyType ?? (namedUser ? 'User' : inferPartyType(run, partyId));
    if (!checkParty(run, scope, partyId, type, field)) return;
    const existing = list.find((x) => x.partyId === partyId);
    if (existing) {
      if (a.plannedTime !== undefined) existing.plannedTime = a.plannedTime;
    } else {
      list.push({ partyId, partyType: type, plannedTime: a.plannedTime ?? 0 });
    }
  });
}
