// The answer of an update that is kept (help U2): the items asked for, each with the
// fields that changed and were not stored as sent, and the affected items (changed
// by a move, a propagation or a cascade), each stamped with the update time and the
// caller. Built before commit, from the working copies. No vscode import.
import type { UpdateWorkItemsResponse, WorkItemResult } from '../../schema/api';
import { customFieldReadValue } from '../catalogue';
import type { WorkItem } from '../model';
import { answerItem, answerValue, updateStamp } from './answer';
import { changedCustomFields, sameCustomValue } from './custom-fields';
import { answerMemberName } from './official-fields';
import { ownValue, sameValue, type UpdateRun } from './run';

/** Work item properties reported in responses when they change (camelCase, as the wire has them). */
const REPORTED_PROPERTIES = [
  'name',
  'code',
  'description',
  'parentId',
  'itemTypeId',
  'statusTypeId',
  'processCategoryId',
  'timeEntryCategoryId',
  'plannedStartDate',
  'plannedFinishDate',
  'actualProgress',
  'plannedTime',
  'managedPlannedTime',
  'plannedCost',
  'assignments',
  'leaderId',
  'timeEntryLocked',
  'isDeleted',
  'fieldCalcTypes',
] as const satisfies readonly (keyof WorkItem)[];

/** Answer member of each reported property whose name is not the property's own (camelCase of the read field IsTimeEntryLocked). */
const ANSWER_MEMBER: Partial<Record<keyof WorkItem, string>> = { timeEntryLocked: 'isTimeEntryLocked' };

/** The read field (system name) of each reported property: the answer member is its camelCase. */
const answerMember = (prop: keyof WorkItem): string => ANSWER_MEMBER[prop] ?? answerMemberName(String(prop));

/**
 * `{id, ...}` with the answered fields of a changed item (undefined: the item did not change): each
 * changed property, except, for a requested item, one sent in `fields` and stored
 * as sent (help U2: only values that differ from the values sent).
 */
function itemDiff(run: UpdateRun, id: string, canCost: boolean, requested: boolean): (Record<string, unknown> & { id: string }) | undefined {
  const before = run.ws.original(id)!;
  const after = run.ws.get(id)!;
  const out: Record<string, unknown> & { id: string } = { id };
  let changed = false;
  for (const prop of REPORTED_PROPERTIES) {
    if (sameValue(before[prop], after[prop])) continue;
    changed = true;
    if (prop === 'plannedCost' && !canCost) continue; // cost values are not shown without cost permission
    if (requested && run.sent.storedAsSent(id, prop, after[prop], sameValue)) continue;
    out[answerMember(prop)] = answeredValue(after, prop);
  }
  for (const name of changedCustomFields(before.customFields ?? {}, after.customFields ?? {})) {
    changed = true;
    const value = ownValue(after.customFields, name) ?? null;
    if (requested && run.sent.storedAsSent(id, `custom:${name}`, value, sameCustomValue)) continue;
    const def = run.customField(name);
    out[answerMemberName(name)] = def ? customFieldReadValue(def, value) : value;
  }
  return changed ? out : undefined;
}

/**
 * Every answered field of an item this run added (an add or a duplicate), in the members of an
 * update's answer: `id`, `projectId`, each reported property, the live custom fields with a
 * value, `metadata` when it has some, `itemWarnings` and the stamp (`createdAt` too).
 */
export function addedItemAnswer(run: UpdateRun, id: string): WorkItemResult {
  const item = run.ws.get(id)!;
  const canCost = canCostFor(run, item);
  const out: Record<string, unknown> & { id: string } = { id, projectId: item.projectId };
  for (const prop of REPORTED_PROPERTIES) {
    if (prop === 'plannedCost' && !canCost) continue;
    out[answerMember(prop)] = answeredValue(item, prop);
  }
  for (const name of Object.keys(item.customFields)) {
    const def = run.customField(name);
    if (def) out[answerMemberName(name)] = customFieldReadValue(def, ownValue(item.customFields, name) ?? null);
  }
  if (item.metadata !== undefined) out['metadata'] = { ...item.metadata };
  const answered = answerItem(out, { at: item.updatedAt, by: item.updatedBy });
  (answered as Record<string, unknown>)['createdAt'] = item.createdAt;
  return answered;
}

/** A reported property's value as an answer has it. */
function answeredValue(item: WorkItem, prop: (typeof REPORTED_PROPERTIES)[number]): unknown {
  if (prop === 'assignments') return item.assignments.map((a) => ({ partyId: a.partyId, plannedTime: a.plannedTime, partyType: a.partyType }));
  if (prop === 'fieldCalcTypes') return { ...item.fieldCalcTypes };
  return answerValue(prop, item[prop]);
}

/** Whether the caller has cost permission in the item's project (kept per project for the run). */
function canCostFor(run: UpdateRun, item: WorkItem): boolean {
  let can = run.costByProject.get(item.projectId);
  if (can === undefined) {
    const member = run.projects.get(item.projectId)?.members.find((m) => m.userId === run.ctx.callerId);
    can = member?.costPermission === true;
    run.costByProject.set(item.projectId, can);
  }
  return can;
}

/** Stamps changed items and builds the response (before commit; reads the working copies). */
export function buildResponse(run: UpdateRun, requested: string[]): UpdateWorkItemsResponse {
  const stamp = updateStamp(run.ctx.now);
  const caller = run.ctx.callerId;
  const requestedSet = new Set(requested);
  const items: WorkItemResult[] = [];
  for (const id of requested) {
    const item = run.ws.get(id)!;
    const diff = itemDiff(run, id, canCostFor(run, item), true);
    if (!diff && !run.silentlyChanged.has(id)) {
      items.push(answerItem({ id }));
      continue;
    }
    const w = run.ws.mut(id);
    w.updatedAt = stamp;
    w.updatedBy = caller;
    w.userUpdatedAt = stamp;
    w.userUpdatedBy = caller;
    items.push(answerItem(diff ?? { id }, { at: stamp, by: caller }));
  }
  const affectedItems: WorkItemResult[] = [];
  for (const id of run.ws.changedIds()) {
    if (requestedSet.has(id)) continue;
    const diff = itemDiff(run, id, canCostFor(run, run.ws.get(id)!), false);
    if (!diff) continue; // only its position among siblings changed
    const w = run.ws.mut(id);
    w.updatedAt = stamp;
    w.updatedBy = caller;
    // The diff is this item's own new object: the answer's members are added to it (no copy).
    affectedItems.push(answerItem(diff, { at: stamp, by: caller }));
  }
  return { items, affectedItems, addedTimeEntryIds: [], addedScheduleDependencyIds: [] };
}
