// What each member of the update body means, one entry per member: the fields it
// changes, what else must be read before sending (fields, and reads beyond the items'
// own fields), whether what it does can be undone, how a generated description names it,
// where its value names fields, and what produces it besides a written document. The
// prediction and the inverse of each member are the engine's part of the same table
// (src/bulk/members/). No vscode import, no I/O.
//
// The entries are in the order the service processes the members of one item (the
// sandbox, src/sandbox/update/index.ts): the touched fields of a body come out in that order.
import type { UpdateWorkItemsBody } from './api';
import { fieldInfo } from './fields';

/** A member of the update body. */
export type MemberName = keyof UpdateWorkItemsBody;

/** The value of a member that is present. */
export type MemberValue<K extends MemberName> = NonNullable<UpdateWorkItemsBody[K]>;

/**
 * Reads beyond the items' own fields: `siblings`, each current parent's children in order
 * (where a moved item goes back); `sub-items`, whether each item has sub-items (the change
 * reaches them too). Both read the items' parents, so they need each item's ParentId.
 */
export type ExtraRead = 'siblings' | 'sub-items';

/** What an update does that no undo can put back (Send asks first). */
export type IrreversibleChange = 'links-deleted';

/** How a generated description names what a member does, in the reader's language. */
export interface DescriptionWords {
  /** One field set to a value ("Progress = 30%"). */
  field(name: string, value: unknown): string;
  /** Both planned dates moved by a number of days. */
  shiftDays(days: number): string;
  /** Any other member with its value. */
  member(name: MemberName, value: unknown): string;
}

export interface MemberMeaning<K extends MemberName> {
  /** Whether this value does something; a value that does not counts as absent (`clearSchedule: false`). Default: any value does. */
  acts?(value: MemberValue<K>): boolean;
  /**
   * Taken only together with `restore: true` (restore, restoreToParent): a restore ignores
   * every other member, and these mean nothing without one.
   */
  restoring?: true;
  /** The fields it changes on the item, in the order it changes them (what a preview shows, what a drift check compares). */
  touches(value: MemberValue<K>): readonly string[];
  /** Fields to read besides the touched ones: what its prediction and its undo use. */
  reads?(value: MemberValue<K>): readonly string[];
  /** Reads beyond the items' own fields that it needs. */
  extraReads?: readonly ExtraRead[];
  /** What it does that an undo cannot put back. */
  irreversible?: readonly IrreversibleChange[];
  /** The parts of a generated description for it (default: `words.member`). */
  describe?(value: MemberValue<K>, words: DescriptionWords): string[];
  /** Where its value names fields: its keys, or a comma-separated list (at `list`, a path inside the value; [] for the value itself). */
  fieldNames?: 'keys' | { list: readonly string[] };
  /** What makes it besides a document written by hand: the forms that do (by id) and the work item table's edits. */
  madeBy?: { forms?: readonly string[]; table?: true };
}

const DATES = ['PlannedStartDate', 'PlannedFinishDate'] as const;
const ASSIGNMENTS = ['Assignments', 'ManagedPlannedTime'] as const;
const CALC_TYPES = ['FieldCalcTypes'] as const;
const NONE: readonly string[] = [];

/** Every member, in the order the service processes them. */
export const MEMBER_MEANINGS: { readonly [K in MemberName]-?: MemberMeaning<K> } = {
  restore: {
    acts: (v) => v === true,
    restoring: true,
    touches: () => ['IsDeleted'],
  },
  restoreToParent: {
    restoring: true,
    touches: () => ['ParentId'],
  },
  // The position among the siblings is the service's; the help shows no order field to read or show.
  moveParentTo: {
    touches: () => ['ParentId'],
    reads: () => ['ProjectId'],
    extraReads: ['siblings'],
  },
  orderBefore: { touches: () => NONE },
  orderAfter: { touches: () => NONE },
  orderFirst: { acts: (v) => v === true, touches: () => NONE },
  orderLast: { acts: (v) => v === true, touches: () => NONE },
  changeItemTypeTo: {
    touches: () => ['ItemTypeId'],
  },
  // The official help: "clear start and end dates and delete links"; an update cannot create links.
  clearSchedule: {
    acts: (v) => v === true,
    touches: () => DATES,
    irreversible: ['links-deleted'],
  },
  fields: {
    touches: (v) => {
      const out: string[] = [];
      for (const name of Object.keys(v)) {
        // The two dates go together: a preview shows the period, a drift check compares both.
        if (name === 'PlannedStartDate' || name === 'PlannedFinishDate') out.push(...DATES);
        else out.push(name);
        if (name === 'Assignments') out.push('ManagedPlannedTime');
      }
      return out;
    },
    reads: (v) => {
      const out: string[] = [];
      if (Object.prototype.hasOwnProperty.call(v, 'ActualProgress')) out.push('TracksProgress');
      // A field under a calculation type takes its value from it: the prediction needs to know.
      for (const name of Object.keys(v)) if (fieldInfo(name)?.calcTypes) out.push('FieldCalcTypes');
      return out;
    },
    describe: (v, words) => Object.entries(v).map(([name, value]) => words.field(name, value)),
    fieldNames: 'keys',
    madeBy: { forms: ['setStatus', 'setLeader'], table: true },
  },
  moveScheduleDays: {
    acts: (v) => v !== 0,
    touches: () => DATES,
    // The project's allowed date range (a shift outside it is refused).
    reads: () => ['ProjectId'],
    describe: (v, words) => [words.shiftDays(v)],
    madeBy: { forms: ['shiftSchedule'], table: true },
  },
  copyAssignmentsFrom: {
    touches: () => ASSIGNMENTS,
  },
  assignmentChange: {
    touches: (v) => (v.recalculatePlannedTimeByAssignment === true ? [...ASSIGNMENTS, 'PlannedTime'] : ASSIGNMENTS),
    // Redistributed over the assignments: the planned time to divide.
    reads: (v) => (v.recalculatePlannedTimeByAssignment === false ? ['PlannedTime'] : NONE),
    madeBy: { forms: ['addAssignees', 'removeAssignees'] },
  },
  // The three calculation-type members in the order the service applies them: clear all, clear some, set.
  clearAllFieldCalcTypes: {
    acts: (v) => v === true,
    touches: () => CALC_TYPES,
  },
  clearFieldCalcTypes: {
    touches: () => CALC_TYPES,
    fieldNames: { list: [] },
  },
  fieldCalcTypes: {
    touches: () => CALC_TYPES,
    fieldNames: 'keys',
  },
  setCompleted: {
    touches: () => ['ActualProgress'],
    // An item that does not track progress keeps it.
    reads: () => ['TracksProgress'],
    extraReads: ['sub-items'],
    madeBy: { forms: ['setCompleted'] },
  },
  setTimeEntryLocked: {
    touches: () => ['IsTimeEntryLocked'],
    extraReads: ['sub-items'],
    madeBy: { forms: ['setTimeEntryLocked'] },
  },
  // Copies the item's fields to its lowest-level sub-items: the item itself keeps its values.
  propagateToChildren: {
    touches: () => NONE,
    extraReads: ['sub-items'],
    fieldNames: { list: ['fields'] },
  },
};

/** The members in the order the service processes them. */
export const MEMBER_ORDER: readonly MemberName[] = Object.keys(MEMBER_MEANINGS) as MemberName[];

/** The entry of `name`, for a loop over members (the value's type is then the union of all). */
export function meaningOf(name: MemberName): MemberMeaning<MemberName> {
  return MEMBER_MEANINGS[name] as MemberMeaning<MemberName>;
}

/** Whether `name` is a member of the update body (an own entry of the table, not an inherited name). */
export function isMemberName(name: unknown): name is MemberName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(MEMBER_MEANINGS, name);
}

/** Whether `name` does something in `body` (present, a value that acts, and not ignored by a restore). */
export function inEffect(body: UpdateWorkItemsBody, name: MemberName): boolean {
  const value = body[name];
  if (value === undefined) return false;
  const m = meaningOf(name);
  if ((m.restoring === true) !== (body.restore === true)) return false;
  return !m.acts || m.acts(value);
}

/** The members that do something in `body`, in the order the service processes them. */
export function membersInEffect(body: UpdateWorkItemsBody): MemberName[] {
  return MEMBER_ORDER.filter((name) => inEffect(body, name));
}

/** The extra reads `body` needs. */
export function extraReadsOf(body: UpdateWorkItemsBody): Set<ExtraRead> {
  const out = new Set<ExtraRead>();
  for (const name of membersInEffect(body)) for (const r of meaningOf(name).extraReads ?? []) out.add(r);
  return out;
}

/** The irreversible changes of `update` (empty when every change can be undone). */
export function irreversibleChanges(update: UpdateWorkItemsBody): IrreversibleChange[] {
  const out: IrreversibleChange[] = [];
  for (const name of membersInEffect(update)) for (const c of meaningOf(name).irreversible ?? []) if (!out.includes(c)) out.push(c);
  return out;
}

/** The parts of a generated description of `update`, member by member in the service's order. */
export function describeBody(update: UpdateWorkItemsBody, words: DescriptionWords): string[] {
  return membersInEffect(update).flatMap((name) => {
    const m = meaningOf(name);
    return m.describe ? m.describe(update[name]!, words) : [words.member(name, update[name])];
  });
}

/**
 * Whether a path inside the body (after `update`) is where a field is named: `key`, a key
 * of a member whose keys are field names (`["fields", "Name"]`); `list`, a member (or a
 * part of one) holding a comma-separated list of field names (`["clearFieldCalcTypes"]`).
 */
export function fieldNameSlot(path: readonly (string | number)[]): 'key' | 'list' | undefined {
  const [member, ...rest] = path;
  if (!isMemberName(member)) return undefined;
  const names = meaningOf(member).fieldNames;
  if (names === undefined) return undefined;
  if (names === 'keys') return rest.length === 1 && typeof rest[0] === 'string' ? 'key' : undefined;
  return rest.length === names.list.length && names.list.every((p, i) => rest[i] === p) ? 'list' : undefined;
}
