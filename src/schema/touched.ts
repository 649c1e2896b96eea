// Which fields an update body touches (the fields a preview shows), and the `fields=`
// lists to read before sending: everything a prediction and an undo use, and the part a
// preview cannot do without. Each member's part is its entry of the member table
// (./members.ts). No vscode import, no I/O.
import type { UpdateWorkItemsBody } from './api';
import { extraReadsOf, meaningOf, membersInEffect } from './members';

/** Whether the body reaches an item's sub-items too (so whether it has any matters). */
export function reachesSubItems(body: UpdateWorkItemsBody): boolean {
  return extraReadsOf(body).has('sub-items');
}

/** Fields shown (changed by the body). Order: the order the service processes members. */
export function touchedFields(body: UpdateWorkItemsBody): string[] {
  return union(membersInEffect(body).map((name) => meaningOf(name).touches(body[name]!)));
}

/** The `fields=` list to read before sending: the touched fields plus what the prediction and undo need. */
export function fieldsToRead(body: UpdateWorkItemsBody): string[] {
  const reads = membersInEffect(body).map((name) => meaningOf(name).reads?.(body[name]!) ?? []);
  // Whether an item has sub-items is computed from its parent's sub-items (readValues), not read, and a
  // move reads the children of the item's parent: the parent is needed.
  const parent = extraReadsOf(body).size > 0 ? ['ParentId'] : [];
  // Each name once (a body that sets Name touches a field read anyway).
  return union([['Id', 'Name'], touchedFields(body), ...reads, parent]);
}

/**
 * The fields of `fieldsToRead(body)` a preview cannot do without: Id, Name, the fields the
 * body changes, and ProjectId and ParentId (names the official help shows, G1). The others
 * (TracksProgress, PlannedTime, FieldCalcTypes when the body does not change them) only sharpen
 * the prediction and are not in the help: a service that refuses them is read without them
 * (src/bulk/readValues.ts), and what depends on them is predicted as if unknown.
 */
export function neededFields(body: UpdateWorkItemsBody): string[] {
  const touched = new Set(touchedFields(body));
  return fieldsToRead(body).filter((f) => f === 'Id' || f === 'Name' || f === 'ProjectId' || f === 'ParentId' || touched.has(f));
}

/** The names of `lists`, each once, in first-seen order. */
function union(lists: readonly (readonly string[])[]): string[] {
  return [...new Set(lists.flat())];
}

/** The touched fields of any of `bodies` (the requests of a change). */
export function touchedFieldsOfAll(bodies: readonly UpdateWorkItemsBody[]): string[] {
  return union(bodies.map(touchedFields));
}

/** The `fields=` list that serves every body of a change: one read of all its items. */
export function fieldsToReadForAll(bodies: readonly UpdateWorkItemsBody[]): string[] {
  return union(bodies.map(fieldsToRead));
}

/** The fields no body of a change can do without (see neededFields). */
export function neededFieldsForAll(bodies: readonly UpdateWorkItemsBody[]): string[] {
  return union(bodies.map(neededFields));
}
