// What an update body will do to each work item: the fields it touches (the
// `fields=` list to read before sending), and per item and field the expected
// value where the service's outcome is predictable, "computed by the service"
// where it is not, and the rule violations that can be seen before sending.
// No vscode import, no I/O. Field names are the PascalCase names of the read
// operations (src/schema/reads.ts), which are the `fields` names of an update.
//
// Each member's part of the prediction is its entry of the member table (./members/);
// the rules follow service-api.md and the sandbox (src/sandbox/update/); the
// docs/preview-send-undo.md, "Before/after preview and undo", lists what is and is not predicted.
import type { UpdateWorkItemsBody } from '../schema/api';
import { predictionOf, type PredictStep } from './members';
import { has, NO_NOTES, NO_PROBLEMS, note, now, problem, UNKNOWN_BEFORE, type EffectNote, type EffectProblem, type EffectProblemCode, type EffectsOptions, type Expected, type FieldEffect, type ItemEffect, type ItemState } from './members/predict';
import { touchedFields } from './touched';
import { normalizeValue, sameNormalized, type ItemValues } from './values';

// Which fields a body touches, and what to read: src/bulk/touched.ts (here too, for the callers of this module).
export { fieldsToRead, fieldsToReadForAll, neededFields, neededFieldsForAll, reachesSubItems, touchedFields, touchedFieldsOfAll } from './touched';
// Values as compared, and what a prediction says (here too, for the callers of this module).
export { dateOnly, normalizeAssignments, normalizeValue, sameFieldValue, sameValue, shiftDate, type Assignment, type ItemValues } from './values';
export { HAS_SUB_ITEMS, SUB_ITEM_NOTES } from './members/predict';
export type { ComputedReason, EffectNote, EffectProblem, EffectProblemCode, EffectsOptions, Expected, FieldEffect, ItemEffect } from './members/predict';

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

/** What does not depend on the item: worked out once per body. */
interface CompiledBody {
  touched: string[];
  steps: PredictStep[];
  rollUp: boolean;
}
const compiled = new WeakMap<UpdateWorkItemsBody, CompiledBody>();

function compile(body: UpdateWorkItemsBody): CompiledBody {
  let c = compiled.get(body);
  if (!c) {
    c = { touched: touchedFields(body), ...predictionOf(body) };
    compiled.set(body, c);
  }
  return c;
}

const SCRATCH: { kind: 'value'; value: unknown } = { kind: 'value', value: undefined };
/** `ItemEffect.fields` of an item whose fields went to a FieldVisitor (frozen: nothing is added to it). */
const VISITED_FIELDS = Object.freeze([]) as unknown as FieldEffect[];

/** Receives each touched field of an item instead of `ItemEffect.fields` (large tables: no object per field). */
export type FieldVisitor = (field: string, before: unknown, expected: Expected, changes: boolean) => void;

/**
 * The effect of `body` on one item whose current values are `current`
 * (undefined: the item did not come back from the read).
 */
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
  const st: ItemState = { current, values: {}, effect, assignmentsBefore: undefined, datesTouched: false };

  // Each member in the service's order, on the values the members before it left.
  for (const step of c.steps) step.predict(st, step.value, options);
  if (st.datesTouched) {
    const sd = now(st, 'PlannedStartDate');
    const ed = now(st, 'PlannedFinishDate');
    if (sd.kind === 'value' && ed.kind === 'value' && typeof sd.value === 'string' && typeof ed.value === 'string' && ed.value < sd.value) {
      problem(effect, { code: 'end-before-start', field: 'PlannedFinishDate', params: { start: sd.value, end: ed.value } });
    }
  }
  if (c.rollUp) note(st, 'roll-up');

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
