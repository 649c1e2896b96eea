// What the sandbox chose where the official help (official-reference.md section 7) is
// silent about adding, duplicating and deleting work items, in one place. Each choice is
// written out for users in docs/compatibility.md ("Adding, duplicating and deleting work
// items"); the client (src/api/workItemChanges.ts) reads the other answers a service may
// give as well. No vscode import.
import { FIELD_CATALOGUE, MAX_ITEMS_PER_UPDATE } from '../../schema/fields';
import { METADATA_LIMITS } from '../../schema/additions';
import type { Dataset } from '../model';

/**
 * Items one add or duplicate request creates at most, nested items and copied
 * descendants counted (the help names "too many items" without a number): the same
 * 1000 as an update.
 */
export const MAX_ITEMS_PER_ADD = MAX_ITEMS_PER_UPDATE;

/** Work item IDs one DELETE names at most (as for an update). */
export const MAX_IDS_PER_DELETE = MAX_ITEMS_PER_UPDATE;

/**
 * `metadata` of an add is kept with the item and shown by the reads (a `metadata` member
 * beside `fields` in `GET /workitem/workItems/{ids}` and in each `subItems` node, only for
 * an item that has some); a copy does not take the original's. These bound it (the
 * client keeps within them too). A sandbox started with `keepMetadata: false`
 * (`--drop-metadata`) acts as a service whose help lacks the member: it accepts it,
 * checks nothing, keeps nothing and shows none.
 */
export { METADATA_LIMITS };

/**
 * The answer of a DELETE: 200 with the update's shape, `items` (each named item: `id`,
 * `isDeleted: true`, the stamp) and `affectedItems` (the items of the deleted subtrees).
 */
export const DELETE_ANSWER_STATUS = 200;

/**
 * Fields a copy takes when `fieldsToCopy` is not given, besides Name and ItemTypeId (always
 * copied): every field an update can set except ActualProgress and StatusTypeId (a copy
 * starts as new work: progress 0, the first available status), with the data set's live
 * custom fields. Calculation types go with their fields. Never copied: actuals, metadata,
 * schedule links.
 */
export const DEFAULT_COPIED_FIELDS: readonly string[] = FIELD_CATALOGUE.filter(
  (f) => f.editable && f.name !== 'Name' && f.name !== 'ActualProgress' && f.name !== 'StatusTypeId',
).map((f) => f.name);

/** Fields `fieldsToCopy` may name (custom fields besides). */
export const COPYABLE_FIELDS: readonly string[] = FIELD_CATALOGUE.filter((f) => f.editable && f.name !== 'Name').map((f) => f.name);

/**
 * The status of a new item that names none (the help: the profile's initial status; the
 * sandbox's profile has none): the first available status type of the data set, or none.
 */
export function initialStatusTypeId(data: Dataset): string | null {
  return data.statusTypes.find((s) => s.available)?.id ?? null;
}
