// What an update body will do to each work item: the fields it touches (the
// `fields=` list to read before sending), and per item and field the expected
// value where the service's outcome is predictable, "computed by the service"
// where it is not, and the rule violations that can be seen before sending.
// No vscode import, no I/O. Field names are the PascalCase names of the read
// operations (src/schema/reads.ts), which are the `fields` names of an update.
//
// The rules follow service-api.md and the sandbox (src/sandbox/update.ts); the
// docs/preview-send-undo.md, "Before/after preview and undo", lists what is and is not predicted.
import type { AssignmentChange, UpdateWorkItemsBody } from '../schema/api';
import { CODE_MAX_LENGTH, NAME_MAX_LENGTH, fieldInfo, splitCommaList } from '../schema/fields';
import { touchedFields } from './touched';

// Which fields a body touches, and what to read: src/bulk/touched.ts (here too, for the callers of this module).
export { fieldsToRead, fieldsToReadForAll, neededFields, neededFieldsForAll, reachesSubItems, touchedFields, touchedFieldsOfAll } from './touched';

/** A work item's current values as read (`fields` of a WorkItemRecord). */
export type ItemValues = Readonly<Record<string, unknown>>;

/**
 * Not a field of the service (the help shows no HasChildren): whether the item has
 * sub-items, as readValues found from the hierarchy it read (true or false); absent
 * when not known, which counts as "may have" (the safe side).
 */
export const HAS_SUB_ITEMS = '(hasSubItems)';

/** The notes that depend on whether an item has sub-items (HAS_SUB_ITEMS, known only after the sub-item reads). */
export const SUB_ITEM_NOTES: ReadonlySet<EffectNote> = new Set<EffectNote>(['children-progress', 'descendants-lock']);

/** Why a value cannot be predicted (the UI words each). */
export type ComputedReason =
  | 'display-order' // the position among siblings is the service's
  | 'assignment-user' // an assignment named by user name: the service resolves the user
  | 'copied-assignments' // copyAssignmentsFrom: another item's assignments
  | 'calc-type' // a calculation type was set: the service recalculates the value
  | 'unknown-before'; // the current value was not read

/** A rule violation visible before sending (the service would refuse the request). */
export type EffectProblemCode =
  | 'name-empty'
  | 'name-too-long'
  | 'code-too-long'
  | 'progress-not-tracked'
  | 'progress-out-of-range'
  | 'end-before-start'
  | 'shift-out-of-range'
  | 'missing';

export interface EffectProblem {
  code: EffectProblemCode;
  field?: string;
  /** Values for the sentence: length, date, min, max, ... */
  params?: Record<string, string | number>;
}

/** Side effects the preview names without predicting them. */
export type EffectNote =
  | 'children-progress' // setCompleted also sets the children's progress
  | 'descendants-lock' // setTimeEntryLocked also (un)locks the descendants
  | 'propagated-to-children' // propagateToChildren copies to the lowest-level sub-items
  | 'links-deleted' // clearSchedule deletes the item's schedule links
  | 'cost-permission' // cost fields are ignored without cost permission
  | 'roll-up'; // parents' roll-up values (dates, times, progress) are recalculated

export type Expected = { kind: 'value'; value: unknown } | { kind: 'computed'; reason: ComputedReason };

export interface FieldEffect {
  field: string;
  before: unknown;
  expected: Expected;
  /** True when the expected value is known and differs from the current one. */
  changes: boolean;
}

export interface ItemEffect {
  id: string;
  /** The item's name when read (for display). */
  name?: string;
  fields: FieldEffect[];
  problems: EffectProblem[];
  notes: EffectNote[];
}

export interface FieldSummary {
  field: string;
  /** Items whose value changes as predicted. */
  changes: number;
  /** Items whose value stays as it is. */
  unchanged: number;
  /** Items whose value the service computes. */
  computed: number;
}

export interface EffectsSummary {
  items: number;
  /** Items that were asked for but did not come back from the read. */
  missing: number;
  /** Items with at least one problem. */
  withProblems: number;
  fields: FieldSummary[];
  /** Notes that apply to at least one item, with how many. */
  notes: { note: EffectNote; items: number }[];
  problems: { code: EffectProblemCode; items: number }[];
}

export interface EffectsOptions {
  /** The allowed date range of an item's project (yyyy-MM-dd), when known (errors 6 and 7). */
  allowedRange?(projectId: string): { min: string; max: string } | undefined;
}

// ---------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------

export interface Assignment {
  partyId: string;
  partyType?: string;
  plannedTime: number;
}

/** An assignment list as read or as answered (member names in any casing); undefined when not a list. */
export function normalizeAssignments(value: unknown): Assignment[] | undefined {
  if (value === null) return [];
  if (!Array.isArray(value)) return undefined;
  const out: Assignment[] = [];
  for (const entry of value) {
    if (typeof entry !== 'object' || entry === null) return undefined;
    const e = entry as Record<string, unknown>;
    // The usual spellings first; any other casing through a lower-cased copy.
    let rawId = e.partyId ?? e.PartyId;
    let rawTime = e.plannedTime ?? e.PlannedTime;
    let rawType = e.partyType ?? e.PartyType;
    if (rawId === undefined) {
      const norm: Record<string, unknown> = {};
      for (const k of Object.keys(e)) norm[k.toLowerCase()] = e[k];
      rawId = norm.partyid;
      rawTime = norm.plannedtime;
      rawType = norm.partytype;
    }
    const partyId = typeof rawId === 'number' ? String(rawId) : rawId;
    if (typeof partyId !== 'string' || partyId === '') return undefined;
    const a: Assignment = { partyId, plannedTime: typeof rawTime === 'number' ? rawTime : 0 };
    if (typeof rawType === 'string') a.partyType = rawType;
    out.push(a);
  }
  return out;
}

/** `yyyy-MM-dd` of a date value as read (a time part is dropped); null stays null. */
export function dateOnly(value: unknown): string | null | undefined {
  if (value === null || value === '') return null;
  if (typeof value !== 'string' || !hasDatePrefix(value)) return undefined;
  return value.length === 10 ? value : value.slice(0, 10);
}

/** Whether `s` starts with `dddd-dd-dd` (ASCII digits; as /^\d{4}-\d{2}-\d{2}/, without a regular expression per value). */
function hasDatePrefix(s: string): boolean {
  if (s.length < 10 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return false;
  for (let i = 0; i < 10; i++) {
    if (i === 4 || i === 7) continue;
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** Shifted dates, cached by shift and date (many items of a job share dates; no key string per call). */
const shifted = new Map<number, Map<string, string>>();
let shiftedCount = 0;

export function shiftDate(date: string, days: number): string {
  let byDate = shifted.get(days);
  const hit = byDate?.get(date);
  if (hit !== undefined) return hit;
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  const out = d.toISOString().slice(0, 10);
  if (shiftedCount > 100_000) {
    shifted.clear();
    shiftedCount = 0;
    byDate = undefined;
  }
  if (!byDate) shifted.set(days, (byDate = new Map()));
  byDate.set(date, out);
  shiftedCount++;
  return out;
}

const DATE_FIELDS = new Set(['PlannedStartDate', 'PlannedFinishDate']);

/** Values compared as the service stores them: dates without time, assignments in a normal form, IDs as strings. */
export function normalizeValue(field: string, value: unknown): unknown {
  if (field === 'PlannedStartDate' || field === 'PlannedFinishDate') return dateOnly(value) ?? value;
  if (field === 'Assignments') return normalizeAssignments(value) ?? value;
  // "0" is the service's "no value" for an ID (official help section 3): the same as null.
  if ((value === '0' || value === 0) && field !== 'Id' && field.endsWith('Id')) return null;
  if (typeof value === 'number' && field.endsWith('Id')) return String(value);
  if (value === undefined) return undefined;
  if ((field === 'Code' || field === 'Description') && value === null) return '';
  return value;
}

export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** Same value of a field as the service compares it (dates by day, assignments ignoring missing party types). */
export function sameFieldValue(field: string, a: unknown, b: unknown): boolean {
  return sameNormalized(field, normalizeValue(field, a), normalizeValue(field, b));
}

function sameNormalized(field: string, na: unknown, nb: unknown): boolean {
  if (na === nb) return true;
  if (field === 'Assignments' && Array.isArray(na) && Array.isArray(nb)) {
    if (na.length !== nb.length) return false;
    return (na as Assignment[]).every((x, i) => {
      const y = (nb as Assignment[])[i]!;
      return x.partyId === y.partyId && x.plannedTime === y.plannedTime && (x.partyType === undefined || y.partyType === undefined || x.partyType === y.partyType);
    });
  }
  return sameValue(na, nb);
}

// ---------------------------------------------------------------------------
// Expected values
// ---------------------------------------------------------------------------

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

/** What does not depend on the item: worked out once per body. */
interface CompiledBody {
  touched: string[];
  fields: { name: string; value: unknown; info: ReturnType<typeof fieldInfo> }[];
  rollUp: boolean;
}
const compiled = new WeakMap<UpdateWorkItemsBody, CompiledBody>();

function compile(body: UpdateWorkItemsBody): CompiledBody {
  let c = compiled.get(body);
  if (!c) {
    c = {
      touched: touchedFields(body),
      fields: Object.entries(body.fields ?? {}).map(([name, value]) => ({ name, value, info: fieldInfo(name) })),
      rollUp: !!(body.moveScheduleDays || body.clearSchedule || body.setCompleted !== undefined || body.moveParentTo !== undefined || body.fields),
    };
    compiled.set(body, c);
  }
  return c;
}

/** Per-item working state (plain data; the helpers below take it, so no closure is made per item). */
interface ItemState {
  current: ItemValues;
  values: Record<string, Expected>;
  effect: ItemEffect;
  /** The assignments as read, in their normal form, when the prediction did not change that list in place (the value before, made once). */
  assignmentsBefore?: Assignment[];
}

function has(st: ItemState, f: string): boolean {
  return Object.prototype.hasOwnProperty.call(st.current, f);
}
/** The value so far (after the members processed until now). */
function now(st: ItemState, f: string): Expected {
  return st.values[f] ?? (has(st, f) ? { kind: 'value', value: normalizeValue(f, st.current[f]) } : { kind: 'computed', reason: 'unknown-before' });
}
function setValue(st: ItemState, f: string, value: unknown): void {
  st.values[f] = { kind: 'value', value: normalizeValue(f, value) };
}
function compute(st: ItemState, f: string, reason: ComputedReason): void {
  st.values[f] = { kind: 'computed', reason };
}
function note(st: ItemState, n: EffectNote): void {
  const e = st.effect;
  if (e.notes === NO_NOTES) e.notes = [n];
  else if (!e.notes.includes(n)) e.notes.push(n);
}
function problem(e: ItemEffect, p: EffectProblem): void {
  if (e.problems === NO_PROBLEMS) e.problems = [p];
  else e.problems.push(p);
}

function applyFields(st: ItemState, c: CompiledBody): boolean {
  let datesTouched = false;
  const current = st.current;
  for (const { name, value, info } of c.fields) {
    if (info?.cost) note(st, 'cost-permission');
    if (name === 'Name') {
      const text = typeof value === 'string' ? value : '';
      if (text.trim().length === 0) problem(st.effect, { code: 'name-empty', field: name });
      else if (text.length > NAME_MAX_LENGTH) problem(st.effect, { code: 'name-too-long', field: name, params: { length: text.length, max: NAME_MAX_LENGTH } });
    } else if (name === 'Code' && typeof value === 'string' && value.length > CODE_MAX_LENGTH) {
      problem(st.effect, { code: 'code-too-long', field: name, params: { length: value.length, max: CODE_MAX_LENGTH } });
    } else if (name === 'ActualProgress') {
      if (current.TracksProgress === false) problem(st.effect, { code: 'progress-not-tracked', field: name });
      if (typeof value !== 'number' || value < 0 || value > 100) problem(st.effect, { code: 'progress-out-of-range', field: name });
    } else if (name === 'Assignments') {
      const list = normalizeAssignments(value);
      if (list) {
        st.values.Assignments = { kind: 'value', value: list };
        setValue(st, 'ManagedPlannedTime', list.reduce((sum, a) => sum + a.plannedTime, 0));
      } else compute(st, 'Assignments', 'unknown-before');
      continue;
    }
    if (name === 'PlannedStartDate' || name === 'PlannedFinishDate') datesTouched = true;
    setValue(st, name, (name === 'Code' || name === 'Description') && value === null ? '' : value);
  }
  return datesTouched;
}

function applyShift(st: ItemState, days: number, options: EffectsOptions): void {
  const p = st.current.ProjectId;
  const range = options.allowedRange && (typeof p === 'string' || typeof p === 'number') ? options.allowedRange(String(p)) : undefined;
  for (const f of DATE_FIELD_LIST) {
    // The value so far, as now() gives it (without making an Expected per item).
    const set = st.values[f];
    if (set !== undefined ? set.kind !== 'value' : !has(st, f)) continue;
    // dateOnly of the normalized value is dateOnly of the value as read (normalizeValue of a date is dateOnly ?? value).
    const d = dateOnly(set !== undefined ? (set as { value: unknown }).value : st.current[f]);
    if (!d) continue;
    const moved = shiftDate(d, days);
    if (range && (moved < range.min || moved > range.max)) {
      problem(st.effect, { code: 'shift-out-of-range', field: f, params: { date: moved, min: range.min, max: range.max, days } });
    }
    st.values[f] = { kind: 'value', value: moved };
  }
}

function applyAssignmentChange(st: ItemState, change: AssignmentChange): void {
  // The list so far as a copy of its own (predictAssignments changes it in place): one copy of what was read
  // (normalizeAssignments gives the same list of its normal form), or of what the body set.
  const set = st.values.Assignments;
  const cur: Expected = set ?? (has(st, 'Assignments') ? { kind: 'value', value: st.current.Assignments } : UNKNOWN_BEFORE);
  const list = cur.kind === 'value' ? normalizeAssignments(cur.value) : undefined;
  // A change that only removes leaves the entries as they are (its filters make new lists): the list read is the value before too.
  if (list && set === undefined && !change.updates?.length && !change.adds?.length && change.recalculatePlannedTimeByAssignment !== false) st.assignmentsBefore = list;
  // PlannedTime so far (as now() gives it), only when the change divides it.
  const planned = change.recalculatePlannedTimeByAssignment === false ? now(st, 'PlannedTime') : undefined;
  const predicted = list ? predictAssignments(list, change, planned?.kind === 'value' ? planned.value : undefined) : {};
  if (predicted.list) {
    st.values.Assignments = { kind: 'value', value: predicted.list };
    setValue(st, 'ManagedPlannedTime', predicted.list.reduce((sum, a) => sum + a.plannedTime, 0));
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

function applyCalcTypes(st: ItemState, body: UpdateWorkItemsBody): void {
  const cur = now(st, 'FieldCalcTypes');
  if (cur.kind === 'value') {
    const next: Record<string, unknown> = body.clearAllFieldCalcTypes === true ? {} : { ...((cur.value as Record<string, unknown> | null) ?? {}) };
    for (const n of splitCommaList(body.clearFieldCalcTypes ?? '')) delete next[n];
    Object.assign(next, body.fieldCalcTypes ?? {});
    setValue(st, 'FieldCalcTypes', next);
  } else compute(st, 'FieldCalcTypes', cur.reason);
  for (const n of Object.keys(body.fieldCalcTypes ?? {})) if (st.values[n] !== undefined || has(st, n)) compute(st, n, 'calc-type');
  note(st, 'roll-up');
}

const DATE_FIELD_LIST = ['PlannedStartDate', 'PlannedFinishDate'] as const;
/** Handed to a FieldVisitor only (read at once, never kept). */
const UNKNOWN_BEFORE: Expected = Object.freeze({ kind: 'computed', reason: 'unknown-before' }) as Expected;
const SCRATCH: { kind: 'value'; value: unknown } = { kind: 'value', value: undefined };
/** `ItemEffect.fields` of an item whose fields went to a FieldVisitor (frozen: nothing is added to it). */
const VISITED_FIELDS = Object.freeze([]) as unknown as FieldEffect[];
/** `ItemEffect.problems` and `.notes` of an item with none (frozen: replaced, never added to). */
const NO_PROBLEMS = Object.freeze([]) as unknown as EffectProblem[];
const NO_NOTES = Object.freeze([]) as unknown as EffectNote[];

/**
 * The effect of `body` on one item whose current values are `current`
 * (undefined: the item did not come back from the read).
 */
/** Receives each touched field of an item instead of `ItemEffect.fields` (large tables: no object per field). */
export type FieldVisitor = (field: string, before: unknown, expected: Expected, changes: boolean) => void;

export function itemEffect(id: string, body: UpdateWorkItemsBody, current: ItemValues | undefined, options: EffectsOptions = {}, visit?: FieldVisitor): ItemEffect {
  // With a visitor the fields go to it, never into the effect: one empty list shared by every item.
  // No problem and no note (most items): the shared empty lists, replaced by a list of the item's own at the first.
  const effect: ItemEffect = { id, fields: visit ? VISITED_FIELDS : [], problems: NO_PROBLEMS, notes: NO_NOTES };
  if (!current) {
    problem(effect, { code: 'missing' });
    return effect;
  }
  if (typeof current.Name === 'string') effect.name = current.Name;
  const c = compile(body);
  const st: ItemState = { current, values: {}, effect };

  if (body.restore === true) {
    setValue(st, 'IsDeleted', false);
    if (body.restoreToParent !== undefined) setValue(st, 'ParentId', body.restoreToParent);
  } else {
    if (body.moveParentTo !== undefined) {
      setValue(st, 'ParentId', body.moveParentTo);
    }
    if (body.changeItemTypeTo !== undefined) setValue(st, 'ItemTypeId', body.changeItemTypeTo);
    if (body.clearSchedule === true) {
      st.values.PlannedStartDate = { kind: 'value', value: null };
      st.values.PlannedFinishDate = { kind: 'value', value: null };
      note(st, 'links-deleted');
    }
    let datesTouched = c.fields.length > 0 ? applyFields(st, c) : false;
    const days = body.moveScheduleDays;
    if (days !== undefined && days !== 0) {
      applyShift(st, days, options);
      datesTouched = true;
    }
    if (datesTouched) {
      const sd = now(st, 'PlannedStartDate');
      const ed = now(st, 'PlannedFinishDate');
      if (sd.kind === 'value' && ed.kind === 'value' && typeof sd.value === 'string' && typeof ed.value === 'string' && ed.value < sd.value) {
        problem(effect, { code: 'end-before-start', field: 'PlannedFinishDate', params: { start: sd.value, end: ed.value } });
      }
    }
    if (body.copyAssignmentsFrom !== undefined) {
      compute(st, 'Assignments', 'copied-assignments');
      compute(st, 'ManagedPlannedTime', 'copied-assignments');
    }
    if (body.assignmentChange !== undefined) applyAssignmentChange(st, body.assignmentChange);
    if (body.fieldCalcTypes !== undefined || body.clearFieldCalcTypes !== undefined || body.clearAllFieldCalcTypes === true) applyCalcTypes(st, body);
    if (body.setCompleted !== undefined) {
      if (current.TracksProgress !== false) st.values.ActualProgress = { kind: 'value', value: body.setCompleted ? 100 : 0 };
      // Whether the item has children is computed by readValues (the help shows no HasChildren); unknown: named.
      if (current[HAS_SUB_ITEMS] !== false) note(st, 'children-progress');
    }
    if (body.setTimeEntryLocked !== undefined) {
      st.values.IsTimeEntryLocked = { kind: 'value', value: body.setTimeEntryLocked };
      if (current[HAS_SUB_ITEMS] !== false) note(st, 'descendants-lock');
    }
    if (body.propagateToChildren !== undefined) note(st, 'propagated-to-children');
    if (c.rollUp) note(st, 'roll-up');
  }

  for (const field of c.touched) {
    const known = has(st, field);
    const before = !known ? undefined : field === 'Assignments' && st.assignmentsBefore ? st.assignmentsBefore : normalizeValue(field, current[field]);
    const set = st.values[field];
    if (set === undefined) {
      // Not changed by the body: the value stays (or, when not read, is not known).
      if (!known) {
        if (visit) visit(field, undefined, UNKNOWN_BEFORE, false);
        else effect.fields.push({ field, before, expected: { kind: 'computed', reason: 'unknown-before' }, changes: false });
      } else if (visit) {
        SCRATCH.value = before;
        visit(field, before, SCRATCH, false);
      } else effect.fields.push({ field, before, expected: { kind: 'value', value: before }, changes: false });
      continue;
    }
    const changes = set.kind === 'value' && known && !sameNormalized(field, before, set.value);
    if (visit) visit(field, before, set, changes);
    else effect.fields.push({ field, before, expected: set, changes });
  }
  return effect;
}

/** The effects of `body` on every item of `ids` (in that order), read values in `current`. */
export function computeEffects(
  ids: readonly string[],
  body: UpdateWorkItemsBody,
  current: ReadonlyMap<string, ItemValues>,
  options: EffectsOptions = {},
): { items: ItemEffect[]; summary: EffectsSummary } {
  const items = ids.map((id) => itemEffect(id, body, current.get(id), options));
  return { items, summary: summarizeEffects(items, compile(body).touched) };
}

export function summarizeEffects(items: readonly ItemEffect[], fields: readonly string[]): EffectsSummary {
  const byField = new Map(fields.map((f) => [f, { field: f, changes: 0, unchanged: 0, computed: 0 }]));
  const notes = new Map<EffectNote, number>();
  const problems = new Map<EffectProblemCode, number>();
  let missing = 0;
  let withProblems = 0;
  for (const item of items) {
    if (item.problems.some((p) => p.code === 'missing')) missing++;
    if (item.problems.length > 0) withProblems++;
    for (const f of item.fields) {
      const s = byField.get(f.field);
      if (!s) continue;
      if (f.expected.kind === 'computed') s.computed++;
      else if (f.changes) s.changes++;
      else s.unchanged++;
    }
    for (const n of item.notes) notes.set(n, (notes.get(n) ?? 0) + 1);
    for (const code of new Set(item.problems.map((p) => p.code))) problems.set(code, (problems.get(code) ?? 0) + 1);
  }
  return {
    items: items.length,
    missing,
    withProblems,
    fields: [...byField.values()],
    notes: [...notes].map(([note, n]) => ({ note, items: n })),
    problems: [...problems].map(([code, n]) => ({ code, items: n })),
  };
}
