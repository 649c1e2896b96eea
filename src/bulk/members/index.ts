// The member table: every member of the update body with everything that is said of it
// anywhere. Its meaning (the fields it touches, the reads it needs, whether it can be
// undone, how a description names it, what produces it) is src/schema/members.ts; its
// part of the predicted effect and its inverse are the entries of this folder, one file
// per family of members. touchedFields, fieldsToRead, itemEffect, planUndo,
// irreversibleChanges and the extra reads loop over the members present in a body and
// ask this table; a new member of UpdateWorkItemsBody is a new entry here (the types
// require one) and a rule of the sandbox. No vscode import, no I/O.
import type { UpdateWorkItemsBody } from '../../schema/api';
import { MEMBER_MEANINGS, MEMBER_ORDER, membersInEffect, type MemberMeaning, type MemberName, type MemberValue } from '../../schema/members';
import { ASSIGNMENT_MEMBERS, ASSIGNMENTS_INVERSE } from './assignments';
import type { Behaviours, MemberBehaviour, SharedInverse } from './entry';
import { CALC_TYPES_INVERSE, FIELD_MEMBERS, FIELDS_INVERSE } from './fields';
import { UNDO_ORDER, type UndoItem } from './inverse';
import { PLACE_MEMBERS } from './place';
import type { EffectsOptions, ItemState } from './predict';
import { SCHEDULE_INVERSE, SCHEDULE_MEMBERS } from './schedule';
import { SUB_ITEM_MEMBERS } from './subItems';

export type { Behaviours, Inverse, MemberBehaviour, SharedInverse } from './entry';

/** Everything the table holds of one member. */
export type MemberEntry<K extends MemberName> = MemberMeaning<K> & MemberBehaviour<K> & { readonly name: K };

const BEHAVIOURS: Behaviours<MemberName> = { ...PLACE_MEMBERS, ...SCHEDULE_MEMBERS, ...FIELD_MEMBERS, ...ASSIGNMENT_MEMBERS, ...SUB_ITEM_MEMBERS };

/** Every member, in the order the service processes them. */
export const MEMBERS = Object.fromEntries(MEMBER_ORDER.map((name) => [name, { name, ...MEMBER_MEANINGS[name], ...BEHAVIOURS[name] }])) as unknown as {
  readonly [K in MemberName]-?: MemberEntry<K>;
};

/** The entry of `name`, for a loop over members (the value's type is then the union of all). */
export function memberEntry(name: MemberName): MemberEntry<MemberName> {
  return MEMBERS[name] as MemberEntry<MemberName>;
}

/** The shared inverses, in the order their documents are sent. */
export const SHARED_INVERSES: readonly SharedInverse[] = [CALC_TYPES_INVERSE, ASSIGNMENTS_INVERSE, SCHEDULE_INVERSE, FIELDS_INVERSE].sort(
  (a, b) => UNDO_ORDER.indexOf(a.kind) - UNDO_ORDER.indexOf(b.kind),
);

/** One member's part of a prediction, with its value in the body. */
export interface PredictStep {
  predict(st: ItemState, value: MemberValue<MemberName>, options: EffectsOptions): void;
  value: MemberValue<MemberName>;
}

/** What a prediction of `body` runs on each item (worked out once per body): the members' parts in order, and whether the parents' roll-up values follow. */
export function predictionOf(body: UpdateWorkItemsBody): { steps: PredictStep[]; rollUp: boolean } {
  const steps: PredictStep[] = [];
  let rollUp = false;
  for (const name of membersInEffect(body)) {
    const m = memberEntry(name);
    if (m.predict) steps.push({ predict: m.predict, value: body[name]! });
    if (m.rollsUp) rollUp = true;
  }
  return { steps, rollUp };
}

/**
 * The undo of one item: each member's inverse in the service's order, then the shared
 * inverses. False when the item as a whole cannot be put back (a restore): it counts
 * neither as put back nor as unchanged.
 */
export function invertItem(item: UndoItem, members: readonly MemberName[]): boolean {
  let whole = true;
  for (const name of members) {
    const inverse = memberEntry(name).inverse;
    if ('undo' in inverse) inverse.undo(item, item.body[name]!);
    else if ('none' in inverse) {
      item.lost(name, inverse.none);
      if (inverse.wholeItem) whole = false;
    }
  }
  if (whole) for (const shared of SHARED_INVERSES) shared.putBack(item);
  return whole;
}
