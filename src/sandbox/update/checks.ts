// Checks of an update request before its items change: the request-level order
// rules (errors 20, 21), what a caller with view permission only may send, and what
// a Standard-edition item that has children still accepts. No vscode import.
import { FIELD_CATALOGUE, fieldInfo } from '../../schema/fields';
import type { ItemScope, UpdateRun } from './run';

/** Fields a Standard-edition item that has children still accepts. */
const STANDARD_PARENT_FIELDS = new Set(['Name', 'Code', 'Description']);

/** Members a caller with view permission only may use (besides fields marked editableWithViewPermission). */
const VIEW_MEMBERS = new Set(['fields', 'setCompleted']);

/** Request-level rules 20 and 21 (rule 4 of the operation). */
export function checkRequest(run: UpdateRun): void {
  if (run.body.restore === true) return; // all other parameters are ignored
  const specs = run.orderSpecs();
  if (specs.length > 1) {
    run.fail('ORDER_MULTIPLE', { member: specs[0]!.member, other: specs[1]!.member }, { field: specs[1]!.member, rule: 20 });
  }
  if (specs.length > 0 && run.body.moveParentTo === undefined) {
    for (const s of specs) run.fail('ORDER_WITHOUT_PARENT', { member: s.member }, { field: s.member, rule: 21 });
  }
}

/** Body members that change something (values documented as "nothing happens" are left out). */
function effectiveMembers(run: UpdateRun, canCost: boolean): string[] {
  const b = run.body;
  const out: string[] = [];
  const add = (name: string, on: boolean) => on && out.push(name);
  add('moveScheduleDays', b.moveScheduleDays !== undefined);
  add('clearSchedule', b.clearSchedule === true);
  add('assignmentChange', b.assignmentChange !== undefined);
  add('moveParentTo', b.moveParentTo !== undefined);
  add('changeItemTypeTo', b.changeItemTypeTo !== undefined);
  add('setCompleted', b.setCompleted !== undefined);
  add('setTimeEntryLocked', b.setTimeEntryLocked !== undefined);
  add('fieldCalcTypes', b.fieldCalcTypes !== undefined && Object.keys(b.fieldCalcTypes).some((f) => canCost || !fieldInfo(f)?.cost));
  add('propagateToChildren', b.propagateToChildren !== undefined);
  add('clearFieldCalcTypes', b.clearFieldCalcTypes !== undefined);
  add('clearAllFieldCalcTypes', b.clearAllFieldCalcTypes === true);
  add('copyAssignmentsFrom', b.copyAssignmentsFrom !== undefined);
  for (const s of run.orderSpecs()) out.push(s.member);
  return out;
}

/** The members a caller with view permission only may use, as named in the error. */
export function viewAllowedText(): string {
  const fields = FIELD_CATALOGUE.filter((f) => f.editableWithViewPermission).map((f) => `fields.${f.name}`);
  return [...fields, 'setCompleted'].join(', ');
}

/** A caller with view permission only: fields marked editableWithViewPermission and setCompleted. */
export function checkViewPermission(run: UpdateRun, scope: ItemScope): boolean {
  const bad: string[] = effectiveMembers(run, scope.canCost).filter((m) => !VIEW_MEMBERS.has(m));
  for (const name of Object.keys(run.body.fields ?? {})) {
    const info = fieldInfo(name);
    if (info?.cost && !scope.canCost) continue; // ignored anyway (rule 2)
    if (!info?.editableWithViewPermission) bad.push(`fields.${name}`);
  }
  for (const m of bad) {
    run.fail(
      'VIEW_PERMISSION_NOT_EDITABLE',
      { projectId: scope.project.id, member: m, allowed: viewAllowedText() },
      { itemId: scope.id, field: m.startsWith('fields.') ? m.slice(7) : m },
    );
  }
  return bad.length === 0;
}

/** Standard edition: an item that has children accepts changes to name, code and description only. */
export function checkStandardParent(run: UpdateRun, scope: ItemScope): boolean {
  if (!run.ws.hasLiveChildren(scope.id)) return true;
  const b = run.body;
  const bad: string[] = [];
  for (const name of Object.keys(b.fields ?? {})) {
    const info = fieldInfo(name);
    if (info?.cost && !scope.canCost) continue;
    if (!STANDARD_PARENT_FIELDS.has(name)) bad.push(`fields.${name}`);
  }
  if (b.moveScheduleDays !== undefined && b.moveScheduleDays !== 0) bad.push('moveScheduleDays');
  if (b.clearSchedule === true) bad.push('clearSchedule');
  if (b.assignmentChange !== undefined) bad.push('assignmentChange');
  if (b.copyAssignmentsFrom !== undefined) bad.push('copyAssignmentsFrom');
  if (b.changeItemTypeTo !== undefined) bad.push('changeItemTypeTo');
  for (const m of bad) {
    run.fail('STANDARD_EDITION_PARENT_ITEM', { member: m }, { itemId: scope.id, field: m.startsWith('fields.') ? m.slice(7) : m });
  }
  return bad.length === 0;
}
