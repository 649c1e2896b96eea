// Which fields an update body touches (the fields a preview shows), and the `fields=`
// lists to read before sending: everything a prediction and an undo use, and the part a
// preview cannot do without. No vscode import, no I/O.
import type { UpdateWorkItemsBody } from './api';
import { fieldInfo } from './fields';

/** Whether the body reaches an item's sub-items too (so whether it has any matters). */
export function reachesSubItems(body: UpdateWorkItemsBody): boolean {
  return body.restore !== true && (body.setCompleted !== undefined || body.setTimeEntryLocked !== undefined || body.propagateToChildren !== undefined);
}

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
  // The position among the siblings is the service's; the help shows no order field to read or show.
  if (body.moveParentTo !== undefined) add('ParentId');
  if (body.changeItemTypeTo !== undefined) add('ItemTypeId');
  if (body.clearSchedule === true) add('PlannedStartDate', 'PlannedFinishDate');
  for (const name of Object.keys(body.fields ?? {})) {
    if (name === 'PlannedStartDate' || name === 'PlannedFinishDate') add('PlannedStartDate', 'PlannedFinishDate');
    else add(name);
    if (name === 'Assignments') add('ManagedPlannedTime');
  }
  if (body.moveScheduleDays !== undefined && body.moveScheduleDays !== 0) add('PlannedStartDate', 'PlannedFinishDate');
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
  if (body.moveParentTo !== undefined) add('ProjectId');
  if (body.setCompleted !== undefined || Object.prototype.hasOwnProperty.call(body.fields ?? {}, 'ActualProgress')) add('TracksProgress');
  // Whether an item has sub-items is computed from its parent's sub-items (readValues), not read: the parent is needed.
  if (reachesSubItems(body)) add('ParentId');
  if (body.assignmentChange?.recalculatePlannedTimeByAssignment === false) add('PlannedTime');
  for (const name of Object.keys(body.fields ?? {})) if (fieldInfo(name)?.calcTypes) add('FieldCalcTypes');
  return out;
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
