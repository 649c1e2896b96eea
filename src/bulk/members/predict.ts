// The state of one item's prediction while the members of a body are applied to it in
// turn (each member's part is its entry of the member table, ./index.ts), and what a
// prediction says: expected values, values the service computes, problems, notes.
// No vscode import, no I/O.
import { normalizeValue, type Assignment, type ItemValues } from '../values';

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
  'name-empty' | 'name-too-long' | 'code-too-long' | 'progress-not-tracked' | 'progress-out-of-range' | 'end-before-start' | 'shift-out-of-range' | 'missing';

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

export interface EffectsOptions {
  /** The allowed date range of an item's project (yyyy-MM-dd), when known (errors 6 and 7). */
  allowedRange?(projectId: string): { min: string; max: string } | undefined;
}

/** Per-item working state (plain data; the helpers below take it, so no closure is made per item). */
export interface ItemState {
  current: ItemValues;
  values: Record<string, Expected>;
  effect: ItemEffect;
  /** The assignments as read, in their normal form, when the prediction did not change that list in place (the value before, made once). */
  assignmentsBefore: Assignment[] | undefined;
  /** A member set or moved a planned date (the period is checked after the last member). */
  datesTouched: boolean;
}

/** `ItemEffect.problems` and `.notes` of an item with none (frozen: replaced, never added to). */
export const NO_PROBLEMS = Object.freeze([]) as unknown as EffectProblem[];
export const NO_NOTES = Object.freeze([]) as unknown as EffectNote[];
/** Handed to a FieldVisitor only (read at once, never kept). */
export const UNKNOWN_BEFORE: Expected = Object.freeze({ kind: 'computed', reason: 'unknown-before' }) as Expected;

/** Whether the item's value of `f` was read. */
export function has(st: ItemState, f: string): boolean {
  return Object.prototype.hasOwnProperty.call(st.current, f);
}
/** The value so far (after the members processed until now). */
export function now(st: ItemState, f: string): Expected {
  return st.values[f] ?? (has(st, f) ? { kind: 'value', value: normalizeValue(f, st.current[f]) } : { kind: 'computed', reason: 'unknown-before' });
}
export function setValue(st: ItemState, f: string, value: unknown): void {
  st.values[f] = { kind: 'value', value: normalizeValue(f, value) };
}
export function compute(st: ItemState, f: string, reason: ComputedReason): void {
  st.values[f] = { kind: 'computed', reason };
}
export function note(st: ItemState, n: EffectNote): void {
  const e = st.effect;
  if (e.notes === NO_NOTES) e.notes = [n];
  else if (!e.notes.includes(n)) e.notes.push(n);
}
export function problem(e: ItemEffect, p: EffectProblem): void {
  if (e.problems === NO_PROBLEMS) e.problems = [p];
  else e.problems.push(p);
}
