// Which fields of a read item its copy gets, and how: the fields an add can set, as read.
// - The official system fields that an update may set (the built-in field table) except
//   the ones a copy must not carry over: status and progress (a copy starts as new work)
//   and assignments (copied as the add's own `assignments` member).
// - The service's custom fields (its field catalogue says which are custom), unless read
//   only or deleted.
// - Nothing else: IDs, project, parent and folder, actual time and cost, timestamps and
//   any field the extension does not know as settable stay with the original.
// Values the read gives for "none" (null, "", the ID "0") are left out, so an item without
// dates stays without. The planned dates move by the template's shift; other dates are
// written as calendar days. No vscode import.
import type { AssignmentAdd } from '../../schema/api';
import type { FieldType } from '../../schema/catalogue';
import { core } from '../../core/load';
import { calendarDay, moveDate } from './dates';

/** The users and groups that can lead or be assigned in the destination project. */
export interface Parties {
  users: ReadonlySet<string>;
  groups: ReadonlySet<string>;
}

/** What was left out of the copy because the destination project does not have the party. */
export interface LeftOut {
  leaders: number;
  assignments: number;
}

/** Settable fields a copy does not carry over: it starts as new work (the service sets the initial status). */
const NEW_WORK = new Set(['StatusTypeId', 'ActualProgress', 'Assignments']);
/** The dates the template's shift moves. */
const PLANNED_DATES = new Set(['PlannedStartDate', 'PlannedFinishDate']);

export interface CopyContext {
  shiftDays: number;
  fieldTypes?: ReadonlyMap<string, FieldType>;
  parties?: Parties;
}

/** Whether a read field is copied: a settable official field, or a live custom field of the service. */
export function isCopiedField(name: string, fieldTypes?: ReadonlyMap<string, FieldType>): boolean {
  if (name === 'ItemTypeId' || name === 'Name') return true;
  const official = core().fieldInfo(name);
  if (official) return official.editable && !core().readOnlyField(name) && !NEW_WORK.has(name);
  const custom = fieldTypes?.get(name);
  return custom !== undefined && custom.isSystemField === false && custom.isReadOnly !== true && custom.isDeleted !== true;
}

/** A copied value, or undefined when the read gives none. */
function copiedValue(name: string, value: unknown, ctx: CopyContext, leftOut: LeftOut): unknown {
  if (value === null || value === undefined || value === '') return undefined;
  const kind = core().fieldInfo(name)?.kind;
  if (kind === 'id' || kind === 'userId') {
    const id = core().idValue(value);
    if (id !== undefined && name === 'LeaderId' && ctx.parties && !ctx.parties.users.has(id)) {
      leftOut.leaders++;
      return undefined;
    }
    return id;
  }
  if (kind === 'date') {
    const day = calendarDay(value);
    return day !== undefined && PLANNED_DATES.has(name) && ctx.shiftDays !== 0 ? moveDate(day, ctx.shiftDays) : day;
  }
  if (ctx.fieldTypes?.get(name)?.dataType === 'Date') return calendarDay(value) ?? value;
  return value;
}

/** The `fields` of the copy of an item read with `fields` (ItemTypeId and Name first). */
export function copiedFields(fields: Readonly<Record<string, unknown>>, ctx: CopyContext, leftOut: LeftOut): Record<string, unknown> {
  const out: Record<string, unknown> = { ItemTypeId: core().idValue(fields.ItemTypeId), Name: fields.Name };
  for (const [name, value] of Object.entries(fields)) {
    if (name === 'ItemTypeId' || name === 'Name' || !isCopiedField(name, ctx.fieldTypes)) continue;
    const v = copiedValue(name, value, ctx, leftOut);
    if (v !== undefined) out[name] = v;
  }
  return out;
}

/** The read assignments of an item as the add's `assignments` (party, type, planned time), without parties the destination lacks. */
export function copiedAssignments(read: unknown, parties: Parties | undefined, leftOut: LeftOut): AssignmentAdd[] {
  if (!Array.isArray(read)) return [];
  const out: AssignmentAdd[] = [];
  for (const a of read) {
    if (a === null || typeof a !== 'object') continue;
    const r = a as Record<string, unknown>;
    const partyId = core().idValue(r.partyId ?? r.PartyId);
    const type = r.partyType ?? r.PartyType;
    if (!partyId || (type !== 'User' && type !== 'UserGroup')) continue;
    if (parties && !(type === 'User' ? parties.users : parties.groups).has(partyId)) {
      leftOut.assignments++;
      continue;
    }
    const add: AssignmentAdd = { partyType: type, partyId };
    const time = r.plannedTime ?? r.PlannedTime;
    if (typeof time === 'number' && Number.isInteger(time) && time >= 0) add.plannedTime = time;
    out.push(add);
  }
  return out;
}
