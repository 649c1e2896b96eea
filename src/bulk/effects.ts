// What an update body will do to each work item: the fields it touches (the
// `fields=` list to read before sending), and per item and field the expected
// value where the service's outcome is predictable, "computed by the service"
// where it is not, and the rule violations that can be seen before sending.
// No vscode import, no I/O. Field names are the PascalCase names of the read
// operations (src/schema/reads.ts), which are the `fields` names of an update.
//
// The rules follow service-api.md and the sandbox (src/sandbox/update.ts); the
// README section "Before/after preview" lists what is and is not predicted.
import type { AssignmentChange, UpdateWorkItemsBody } from '../schema/api';
import { CODE_MAX_LENGTH, NAME_MAX_LENGTH, fieldInfo, splitCommaList } from '../schema/fields';

/** A work item's current values as read (`fields` of a WorkItemRecord). */
export type ItemValues = Readonly<Record<string, unknown>>;

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
// Which fields a body touches
// ---------------------------------------------------------------------------

/** Fields shown (changed by the body). Order: the order the service processes members. */
export function touchedFields(body: UpdateWorkItemsBody): string[] {
  const out: string[] = [];
  const add = (...names: string[]): void => {
    for (const n of names) if (!out.includes(n)) out.push(n);
  };
  if (body.restore === true) {
    add('IsDeleted');
    if (body.restoreToParent !== undefined) add('ParentId');
    return out;
  }
  if (body.moveParentTo !== undefined) add('ParentId', 'DisplayOrder');
  if (body.changeItemTypeTo !== undefined) add('ItemTypeId');
  if (body.clearSchedule === true) add('StartDate', 'EndDate');
  for (const name of Object.keys(body.fields ?? {})) {
    if (name === 'StartDate' || name === 'EndDate') add('StartDate', 'EndDate');
    else add(name);
    if (name === 'Assignments') add('ManagedPlannedTime');
  }
  if (body.moveScheduleDays !== undefined && body.moveScheduleDays !== 0) add('StartDate', 'EndDate');
  if (body.copyAssignmentsFrom !== undefined || body.assignmentChange !== undefined) {
    add('Assignments', 'ManagedPlannedTime');
    if (body.assignmentChange?.recalculatePlannedTimeByAssignment === true) add('PlannedTime');
  }
  if (body.fieldCalcTypes !== undefined || body.clearFieldCalcTypes !== undefined || body.clearAllFieldCalcTypes === true) add('FieldCalcTypes');
  if (body.setCompleted !== undefined) add('ActualProgress');
  if (body.setTimeEntryLocked !== undefined) add('IsTimeEntryLocked');
  return out;
}

/** The `fields=` list to read before sending: the touched fields plus what the prediction and undo need. */
export function fieldsToRead(body: UpdateWorkItemsBody): string[] {
  const out = ['Id', 'Name', ...touchedFields(body)];
  const add = (...names: string[]): void => {
    for (const n of names) if (!out.includes(n)) out.push(n);
  };
  if (body.moveScheduleDays !== undefined) add('ProjectId');
  if (body.moveParentTo !== undefined) add('Level', 'ProjectId');
  if (body.setCompleted !== undefined || Object.prototype.hasOwnProperty.call(body.fields ?? {}, 'ActualProgress')) add('TracksProgress');
  if (body.setCompleted !== undefined || body.setTimeEntryLocked !== undefined || body.propagateToChildren !== undefined) add('HasChildren');
  if (body.assignmentChange?.recalculatePlannedTimeByAssignment === false) add('PlannedTime');
  for (const name of Object.keys(body.fields ?? {})) if (fieldInfo(name)?.calcTypes) add('FieldCalcTypes');
  return out;
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
    const norm: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(entry as Record<string, unknown>)) norm[k.toLowerCase()] = v;
    const partyId = typeof norm.partyid === 'number' ? String(norm.partyid) : norm.partyid;
    if (typeof partyId !== 'string' || partyId === '') return undefined;
    const a: Assignment = { partyId, plannedTime: typeof norm.plannedtime === 'number' ? norm.plannedtime : 0 };
    if (typeof norm.partytype === 'string') a.partyType = norm.partytype;
    out.push(a);
  }
  return out;
}

/** `yyyy-MM-dd` of a date value as read (a time part is dropped); null stays null. */
export function dateOnly(value: unknown): string | null | undefined {
  if (value === null || value === '') return null;
  if (typeof value !== 'string') return undefined;
  const m = /^(\d{4}-\d{2}-\d{2})/.exec(value);
  return m ? m[1] : undefined;
}

export function shiftDate(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

const DATE_FIELDS = new Set(['StartDate', 'EndDate']);

/** Values compared as the service stores them: dates without time, assignments in a normal form, IDs as strings. */
export function normalizeValue(field: string, value: unknown): unknown {
  if (DATE_FIELDS.has(field)) return dateOnly(value) ?? value;
  if (field === 'Assignments') return normalizeAssignments(value) ?? value;
  if (typeof value === 'number' && /Id$/.test(field)) return String(value);
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
  const na = normalizeValue(field, a);
  const nb = normalizeValue(field, b);
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

function predictAssignments(before: Assignment[], change: AssignmentChange, plannedTime: unknown): { list?: Assignment[]; plannedTime?: number } {
  let list = before.map((a) => ({ ...a }));
  for (const id of splitCommaList(change.removes ?? '')) list = list.filter((a) => a.partyId !== id);
  if ((change.removeUsers ?? []).length > 0) return {}; // users named: the service resolves them
  for (const u of change.updates ?? []) {
    if (!u.user.startsWith('#')) return {};
    const partyId = u.user.slice(1);
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

/**
 * The effect of `body` on one item whose current values are `current`
 * (undefined: the item did not come back from the read).
 */
export function itemEffect(id: string, body: UpdateWorkItemsBody, current: ItemValues | undefined, options: EffectsOptions = {}): ItemEffect {
  const effect: ItemEffect = { id, fields: [], problems: [], notes: [] };
  if (!current) {
    effect.problems.push({ code: 'missing' });
    return effect;
  }
  if (typeof current.Name === 'string') effect.name = current.Name;
  const values = new Map<string, Expected>();
  const has = (f: string): boolean => Object.prototype.hasOwnProperty.call(current, f);
  const beforeOf = (f: string): unknown => normalizeValue(f, current[f]);
  /** The value so far (after the members processed until now). */
  const now = (f: string): Expected => values.get(f) ?? (has(f) ? { kind: 'value', value: beforeOf(f) } : { kind: 'computed', reason: 'unknown-before' });
  const set = (f: string, value: unknown): void => void values.set(f, { kind: 'value', value: normalizeValue(f, value) });
  const compute = (f: string, reason: ComputedReason): void => void values.set(f, { kind: 'computed', reason });
  const note = (n: EffectNote): void => void (effect.notes.includes(n) || effect.notes.push(n));
  const problem = (p: EffectProblem): void => void effect.problems.push(p);

  if (body.restore === true) {
    set('IsDeleted', false);
    if (body.restoreToParent !== undefined) set('ParentId', body.restoreToParent);
  } else {
    if (body.moveParentTo !== undefined) {
      set('ParentId', body.moveParentTo);
      compute('DisplayOrder', 'display-order');
    }
    if (body.changeItemTypeTo !== undefined) set('ItemTypeId', body.changeItemTypeTo);
    if (body.clearSchedule === true) {
      set('StartDate', null);
      set('EndDate', null);
      note('links-deleted');
    }
    let datesTouched = false;
    for (const [name, value] of Object.entries(body.fields ?? {})) {
      const info = fieldInfo(name);
      if (info?.cost) note('cost-permission');
      if (name === 'Name') {
        const text = typeof value === 'string' ? value : '';
        if (text.trim().length === 0) problem({ code: 'name-empty', field: name });
        else if (text.length > NAME_MAX_LENGTH) problem({ code: 'name-too-long', field: name, params: { length: text.length, max: NAME_MAX_LENGTH } });
      }
      if (name === 'Code' && typeof value === 'string' && value.length > CODE_MAX_LENGTH) {
        problem({ code: 'code-too-long', field: name, params: { length: value.length, max: CODE_MAX_LENGTH } });
      }
      if (name === 'ActualProgress') {
        if (current.TracksProgress === false) problem({ code: 'progress-not-tracked', field: name });
        if (typeof value !== 'number' || value < 0 || value > 100) problem({ code: 'progress-out-of-range', field: name });
      }
      if (name === 'Assignments') {
        const list = normalizeAssignments(value);
        if (list) {
          set('Assignments', list);
          set('ManagedPlannedTime', list.reduce((s, a) => s + a.plannedTime, 0));
        } else compute('Assignments', 'unknown-before');
        continue;
      }
      if (DATE_FIELDS.has(name)) datesTouched = true;
      set(name, (name === 'Code' || name === 'Description') && value === null ? '' : value);
    }
    const days = body.moveScheduleDays;
    if (days !== undefined && days !== 0) {
      const range = typeof current.ProjectId === 'string' || typeof current.ProjectId === 'number' ? options.allowedRange?.(String(current.ProjectId)) : undefined;
      for (const f of ['StartDate', 'EndDate']) {
        const v = now(f);
        if (v.kind !== 'value') continue;
        const d = dateOnly(v.value);
        if (!d) continue;
        const shifted = shiftDate(d, days);
        if (range && (shifted < range.min || shifted > range.max)) {
          problem({ code: 'shift-out-of-range', field: f, params: { date: shifted, min: range.min, max: range.max, days } });
        }
        set(f, shifted);
      }
      datesTouched = true;
    }
    if (datesTouched) {
      const s = now('StartDate');
      const e = now('EndDate');
      if (s.kind === 'value' && e.kind === 'value' && typeof s.value === 'string' && typeof e.value === 'string' && e.value < s.value) {
        problem({ code: 'end-before-start', field: 'EndDate', params: { start: s.value, end: e.value } });
      }
    }
    if (body.copyAssignmentsFrom !== undefined) {
      compute('Assignments', 'copied-assignments');
      compute('ManagedPlannedTime', 'copied-assignments');
    }
    if (body.assignmentChange !== undefined) {
      const cur = now('Assignments');
      const list = cur.kind === 'value' ? normalizeAssignments(cur.value) : undefined;
      const planned = now('PlannedTime');
      const predicted = list ? predictAssignments(list, body.assignmentChange, planned.kind === 'value' ? planned.value : undefined) : {};
      if (predicted.list) {
        set('Assignments', predicted.list);
        set('ManagedPlannedTime', predicted.list.reduce((s, a) => s + a.plannedTime, 0));
      } else {
        const reason: ComputedReason = cur.kind === 'computed' ? cur.reason : 'assignment-user';
        compute('Assignments', reason);
        compute('ManagedPlannedTime', reason);
      }
      if (body.assignmentChange.recalculatePlannedTimeByAssignment === true) {
        if (predicted.plannedTime !== undefined) set('PlannedTime', predicted.plannedTime);
        else compute('PlannedTime', 'assignment-user');
      }
    }
    if (body.fieldCalcTypes !== undefined || body.clearFieldCalcTypes !== undefined || body.clearAllFieldCalcTypes === true) {
      const cur = now('FieldCalcTypes');
      if (cur.kind === 'value') {
        const next: Record<string, unknown> = body.clearAllFieldCalcTypes === true ? {} : { ...((cur.value as Record<string, unknown> | null) ?? {}) };
        for (const n of splitCommaList(body.clearFieldCalcTypes ?? '')) delete next[n];
        Object.assign(next, body.fieldCalcTypes ?? {});
        set('FieldCalcTypes', next);
      } else compute('FieldCalcTypes', cur.reason);
      for (const n of Object.keys(body.fieldCalcTypes ?? {})) if (values.has(n) || has(n)) compute(n, 'calc-type');
      note('roll-up');
    }
    if (body.setCompleted !== undefined) {
      if (current.TracksProgress !== false) set('ActualProgress', body.setCompleted ? 100 : 0);
      if (current.HasChildren !== false) note('children-progress');
    }
    if (body.setTimeEntryLocked !== undefined) {
      set('IsTimeEntryLocked', body.setTimeEntryLocked);
      if (current.HasChildren !== false) note('descendants-lock');
    }
    if (body.propagateToChildren !== undefined) note('propagated-to-children');
    if (body.moveScheduleDays || body.clearSchedule || body.setCompleted !== undefined || body.moveParentTo !== undefined || body.fields) note('roll-up');
  }

  for (const field of touchedFields(body)) {
    const expected = values.get(field) ?? now(field);
    const before = has(field) ? beforeOf(field) : undefined;
    const changes = expected.kind === 'value' && has(field) && !sameFieldValue(field, before, expected.value);
    effect.fields.push({ field, before, expected, changes });
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
  return { items, summary: summarizeEffects(items, touchedFields(body)) };
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
