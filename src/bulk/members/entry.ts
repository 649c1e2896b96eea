// The engine's part of a member's entry in the member table (./index.ts): its part of
// the predicted effect on one item and its inverse, or why it has none. The meaning of
// the member (the fields it touches, its reads, ...) is its entry of
// src/schema/members.ts. No vscode import, no I/O.
import type { MemberName, MemberValue } from '../../schema/members';
import type { NonInvertibleReason, SharedKind, UndoItem } from './inverse';
import type { EffectsOptions, ItemState } from './predict';

/** How a member's change is put back. */
export type Inverse<K extends MemberName> =
  /** Its inverse on one item: documents (put, putBack), moves, and what it cannot put back (lost). */
  | { undo(item: UndoItem, value: MemberValue<K>): void }
  /** It has none, for this reason (reported for every item; `wholeItem`: nothing else of the item is put back either). */
  | { none: NonInvertibleReason; wholeItem?: true }
  /** Put back (or not) by the inverse of that member, which takes this one into account. */
  | { with: MemberName };

export interface MemberBehaviour<K extends MemberName> {
  /** Its part of the predicted effect on one item, after the members before it (the service's order). */
  predict?(st: ItemState, value: MemberValue<K>, options: EffectsOptions): void;
  /** The parents' roll-up values (dates, times, progress) are recalculated after it. */
  rollsUp?: true;
  inverse: Inverse<K>;
}

/** The entries of the members `K`. */
export type Behaviours<K extends MemberName> = { readonly [M in K]-?: MemberBehaviour<M> };

/** The inverse of values several members may change: run once per item, after every member's own. */
export interface SharedInverse {
  kind: SharedKind;
  putBack(item: UndoItem): void;
}
