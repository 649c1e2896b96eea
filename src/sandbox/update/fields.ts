// The `fields` member of an update (system fields of the catalogue and custom fields,
// each value checked; read-only and unknown names are error 29) and the
// calculation-type members (fieldCalcTypes, clearFieldCalcTypes,
// clearAllFieldCalcTypes; error 16). No vscode import.
import {
  FIELD_CATALOGUE,
  FORMULA_CALC_TYPE,
  NAME_MAX_LENGTH,
  CODE_MAX_LENGTH,
  STANDARD_EDITION_CALC_TYPE_FIELDS,
  fieldInfo,
  splitCommaList,
  type FieldInfo,
} from '../../schema/fields';
import type { CustomFieldDefinition, WorkItem } from '../model';
import { parseAssignmentList } from './assignments';
import { checkCustomValue, sameCustomValue, withCustomValue } from './custom-fields';
import { readOnlyReason, readOnlySystemField, unknownFieldHint } from './official-fields';
import { NONE_ID, ownValue, sameValue, sumPlanned, type ItemScope, type UpdateRun } from './run';
import { parseDate } from './schedule';

/** Stored work item property of each catalogue field that can be set or copied. */
export const FIELD_PROPERTY: Record<string, keyof WorkItem> = {
  Name: 'name',
  Code: 'code',
  Description: 'description',
  ActualProgress: 'actualProgress',
  PlannedTime: 'plannedTime',
  PlannedCost: 'plannedCost',
  Assignments: 'assignments',
  LeaderId: 'leaderId',
  PlannedStartDate: 'plannedStartDate',
  PlannedFinishDate: 'plannedFinishDate',
  StatusTypeId: 'statusTypeId',
  ProcessCategoryId: 'processCategoryId',
  TimeEntryCategoryId: 'timeEntryCategoryId',
};

/** Whether every entry of an `Assignments` value names partyId, partyType and plannedTime (member names in any casing). */
function assignmentsComplete(value: unknown): boolean {
  return (
    Array.isArray(value) &&
    value.every((e: unknown) => {
      if (typeof e !== 'object' || e === null) return false;
      const keys = new Set(Object.keys(e).map((k) => k.toLowerCase()));
      return keys.has('partyid') && keys.has('partytype') && keys.has('plannedtime');
    })
  );
}

/** `fields`: catalogue fields in catalogue order, then custom fields. */
export function fields(run: UpdateRun, scope: ItemScope): void {
  const fields = run.body.fields;
  if (!fields) return;
  const names = Object.keys(fields);
  const known = FIELD_CATALOGUE.filter((f) => Object.prototype.hasOwnProperty.call(fields, f.name));
  const custom: CustomFieldDefinition[] = [];
  for (const name of names) {
    if (fieldInfo(name)) continue;
    const def = run.customField(name);
    if (def) custom.push(def);
    else notAField(run, scope.id, name);
  }
  for (const info of known) {
    if (readOnlySystemField(info.name)?.member !== undefined) {
      readOnlyField(run, scope.id, info.name);
      continue;
    }
    if (!info.editable) {
      run.fail('FIELD_NOT_EDITABLE', { field: info.name }, { itemId: scope.id, field: info.name, rule: 29 });
      continue;
    }
    if (info.cost && !scope.canCost) continue; // rule 2: ignored
    setField(run, scope, info, fields[info.name]);
  }
  for (const def of custom) setCustomField(run, scope, def, fields[def.systemName]);
}

/** A custom field's value, checked by the field's type; a bad value is refused naming the field, the value and what was expected. */
function setCustomField(run: UpdateRun, scope: ItemScope, def: CustomFieldDefinition, value: unknown): void {
  const name = def.systemName;
  const check = checkCustomValue(def, value);
  if (!check.ok) return run.badValue(scope, name, check.expected, value);
  const item = run.ws.get(scope.id)!;
  if (check.asSent) run.sent.record(scope.id, `custom:${name}`, check.stored ?? null);
  if (!sameCustomValue(ownValue(item.customFields, name), check.stored)) run.ws.mut(scope.id).customFields = withCustomValue(item, name, check.stored);
}

/**
 * Error 29 for a name the service does not know (field names are case-sensitive:
 * rule 3); for an old name (StartDate, EndDate, WorkCategoryId) it names the official one.
 */
function unknownField(run: UpdateRun, itemId: string, name: string): void {
  const custom = (run.data.fieldTypes ?? []).filter((f) => !f.isDeleted).map((f) => f.systemName);
  run.fail('FIELD_UNKNOWN_NAME', { field: name, hint: unknownFieldHint(name, custom) }, { itemId, field: name, rule: 29 });
}

/** Error 29 for a name that is not a catalogue field: read-only system field or unknown. */
export function notAField(run: UpdateRun, itemId: string, name: string): void {
  if (readOnlySystemField(name)) readOnlyField(run, itemId, name);
  else unknownField(run, itemId, name);
}

/** Error 29 for a read-only system field of the help, naming the member that changes it where the help names one. */
function readOnlyField(run: UpdateRun, itemId: string, name: string): void {
  if (readOnlySystemField(name)?.member === undefined && fieldInfo(name)) {
    run.fail('FIELD_NOT_EDITABLE', { field: name }, { itemId, field: name, rule: 29 });
    return;
  }
  run.fail('FIELD_NOT_EDITABLE_HERE', { field: name, reason: readOnlyReason(name) }, { itemId, field: name, rule: 29 });
}

/** One catalogue field's value, checked and stored (rules 1-5, 14, 29). */
function setField(run: UpdateRun, scope: ItemScope, info: FieldInfo, value: unknown): void {
  const id = scope.id;
  const item = run.ws.get(id)!;
  const name = info.name;
  const where = { itemId: id, field: name };
  // asSent: `v` is the stored form of the value sent (not answered when the item keeps it).
  const set = <K extends keyof WorkItem>(prop: K, v: WorkItem[K], asSent = true) => {
    if (asSent) run.sent.record(id, prop, v);
    if (!sameValue(run.ws.get(id)![prop], v)) run.ws.mut(id)[prop] = v;
  };
  switch (name) {
    case 'Name': {
      if (value !== null && typeof value !== 'string') return run.badValue(scope, name, 'a string', value);
      const text = value ?? '';
      if (text.trim().length === 0) return run.fail('NAME_EMPTY', {}, { ...where, rule: 1 });
      if (text.length > NAME_MAX_LENGTH) return run.fail('NAME_TOO_LONG', { length: text.length, max: NAME_MAX_LENGTH }, { ...where, rule: 2 });
      return set('name', text);
    }
    case 'Code': {
      if (value !== null && typeof value !== 'string') return run.badValue(scope, name, 'a string', value);
      const text = value ?? '';
      if (text.length > CODE_MAX_LENGTH) return run.fail('CODE_TOO_LONG', { length: text.length, max: CODE_MAX_LENGTH }, { ...where, rule: 3 });
      return set('code', text);
    }
    case 'Description': {
      if (value !== null && typeof value !== 'string') return run.badValue(scope, name, 'a string', value);
      return set('description', value ?? '');
    }
    case 'ActualProgress': {
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 100) {
        return run.badValue(scope, name, 'a number from 0 to 100', value);
      }
      if (!item.tracksProgress) {
        return run.fail('FIELD_NOT_EDITABLE_HERE', { field: name, reason: 'the work item does not track progress' }, { ...where, rule: 29 });
      }
      return set('actualProgress', value);
    }
    case 'PlannedTime': {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) return run.badValue(scope, name, 'a whole number of at least 0', value);
      return set('plannedTime', value);
    }
    case 'PlannedCost': {
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return run.badValue(scope, name, 'a number of at least 0', value);
      return set('plannedCost', value);
    }
    case 'Assignments': {
      const list = parseAssignmentList(run, scope, value);
      if (!list) return;
      // Stored as sent only when every entry gave partyId, partyType and plannedTime (else the server filled some in).
      set('assignments', list, assignmentsComplete(value));
      return set('managedPlannedTime', sumPlanned(list), false);
    }
    case 'LeaderId': {
      if (value === null || value === NONE_ID) return set('leaderId', null);
      if (typeof value !== 'string' || value === '') return run.badValue(scope, name, 'a user ID, or "0" or null for none', value);
      if (!run.users.user(value)) return run.fail('USER_NOT_FOUND', { user: value }, { ...where, rule: 4 });
      if (!run.isMember(scope.project, value)) return run.fail('LEADER_NOT_MEMBER', { user: value, projectId: scope.project.id }, { ...where, rule: 14 });
      return set('leaderId', value);
    }
    case 'PlannedStartDate':
    case 'PlannedFinishDate': {
      const prop = name === 'PlannedStartDate' ? 'plannedStartDate' : 'plannedFinishDate';
      scope.datesTouched = true;
      if (value === null) return set(prop, null);
      const date = typeof value === 'string' ? parseDate(value) : undefined;
      if (date === undefined) return run.badValue(scope, name, 'a date written yyyy-MM-dd, or null', value);
      return set(prop, date);
    }
    case 'StatusTypeId':
    case 'ProcessCategoryId':
    case 'TimeEntryCategoryId': {
      const prop = FIELD_PROPERTY[name] as 'statusTypeId' | 'processCategoryId' | 'timeEntryCategoryId';
      if (value === null) return set(prop, null);
      // "0" means none (help section 3: ProcessCategoryId/TimeEntryCategoryId default 0, unset); every item
      // has a status (its default is the profile's initial status), so StatusTypeId "0" is not an available status.
      if (value === NONE_ID && name !== 'StatusTypeId') return set(prop, null);
      if (typeof value !== 'string' || value === '') {
        return run.badValue(scope, name, name === 'StatusTypeId' ? 'an ID or null' : 'an ID, or "0" or null for none', value);
      }
      const available =
        name === 'StatusTypeId'
          ? run.statusTypes.get(value)?.available === true
          : name === 'TimeEntryCategoryId'
            ? run.workClassifications.get(value)?.available === true
            : run.processClassifications.has(value)
              ? run.processClassifications.get(value)!.available
              : run.liveProcessCategories.has(value);
      if (!available) {
        const code = name === 'StatusTypeId' ? 'STATUS_TYPE_NOT_AVAILABLE' : name === 'TimeEntryCategoryId' ? 'WORK_CATEGORY_NOT_AVAILABLE' : 'PROCESS_CATEGORY_NOT_AVAILABLE';
        return run.fail(code, { value }, where);
      }
      return set(prop, value);
    }
    default:
      return run.fail('FIELD_NOT_EDITABLE', { field: name }, { ...where, rule: 29 });
  }
}

/** The calculation-type members: clearAllFieldCalcTypes, clearFieldCalcTypes, then fieldCalcTypes (error 16). */
export function calcTypes(run: UpdateRun, scope: ItemScope): void {
  const b = run.body;
  if (b.clearAllFieldCalcTypes !== true && b.clearFieldCalcTypes === undefined && b.fieldCalcTypes === undefined) return;
  const id = scope.id;
  const next = { ...run.ws.get(id)!.fieldCalcTypes };
  const before = run.errors.length;
  if (b.clearAllFieldCalcTypes === true) {
    for (const k of Object.keys(next)) {
      if (fieldInfo(k)?.cost && !scope.canCost) continue;
      delete next[k];
    }
  }
  for (const name of splitCommaList(b.clearFieldCalcTypes ?? '')) {
    const info = fieldInfo(name);
    if (!info && run.customField(name)) continue; // a custom field has no calculation type to clear
    if (!info) {
      notAField(run, id, name);
      continue;
    }
    if (info.cost && !scope.canCost) continue;
    delete next[name];
  }
  for (const [name, value] of Object.entries(b.fieldCalcTypes ?? {})) {
    const info = fieldInfo(name);
    const where = { itemId: id, field: name };
    if (!info && run.customField(name)) {
      run.fail('CALC_TYPE_NOT_ALLOWED', { field: name, value, allowed: 'none' }, { ...where, rule: 16 });
      continue;
    }
    if (!info) {
      notAField(run, id, name);
      continue;
    }
    if (info.cost && !scope.canCost) continue; // rule 2
    if (run.ctx.edition === 'standard' && !STANDARD_EDITION_CALC_TYPE_FIELDS.includes(name)) {
      run.fail('STANDARD_EDITION_CALC_TYPE', { field: name }, where);
      continue;
    }
    if (value === FORMULA_CALC_TYPE) {
      run.fail('CALC_TYPE_FORMULA', { field: name }, { ...where, rule: 16 });
      continue;
    }
    if (!info.calcTypes?.includes(value)) {
      run.fail('CALC_TYPE_NOT_ALLOWED', { field: name, value, allowed: info.calcTypes?.join(', ') ?? 'none' }, { ...where, rule: 16 });
      continue;
    }
    next[name] = value;
  }
  if (run.errors.length > before) return;
  if (!sameValue(run.ws.get(id)!.fieldCalcTypes, next)) run.ws.mut(id).fieldCalcTypes = next;
}
