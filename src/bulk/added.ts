// What the adds of a job created, from its journal: each add's request state and the items
// its answer gave (their IDs and fields), the item added directly below the parent first.
// The undo deletes exactly these; the drift check reads them; an add whose outcome is
// unknown created nothing the job knows of (it is reported, never sent again silently).
// No vscode import, no I/O.
import { answeredItemId, type AddWorkItemRequest } from '../schema/additions';
import { addedItemsOf } from '../schema/add-rules';
import type { JobPlan, RequestResult, RequestState } from './types';

/** The outcome of one add of a job. */
export interface AddedItems {
  /** The add's part of the plan, and its request (one per add). */
  part: number;
  request: number;
  parentId: string;
  state: RequestState;
  /** Items the add asked for (its sub-items counted). */
  asked: number;
  /** The IDs of the items the answer gave, depth first as answered. */
  ids: string[];
  /** The items added directly below the parent (deleting them deletes the rest with them). */
  top: string[];
  /** The fields of each added item as the answer gave them. */
  answered: Map<string, Record<string, unknown>>;
  /** Succeeded, but the answer named no item (it was lost, unreadable, or the service gives none): what it created is not known. */
  idsUnknown: boolean;
}

/** A request of a plan whose part names existing items (an update or a delete), not an add. */
export function namesItems(plan: Pick<JobPlan, 'parts' | 'requests'>, r: Pick<RequestResult, 'index'>): boolean {
  const planned = plan.requests[r.index];
  return plan.parts[planned?.part ?? 0]?.kind !== 'add';
}

/** The parent ID an answered item names, when it does (`parentId`, or `ParentId` as reads name it). */
function parentOf(item: Record<string, unknown>): string | undefined {
  const v = item.parentId ?? item.ParentId;
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
}

/** Every add of a job with what it created, in plan order. */
export function addedItems(plan: Pick<JobPlan, 'parts' | 'requests'>, requests: readonly RequestResult[]): AddedItems[] {
  const out: AddedItems[] = [];
  plan.parts.forEach((p, part) => {
    if (p.kind !== 'add' || !p.add) return;
    const planned = plan.requests.find((r) => (r.part ?? 0) === part);
    if (!planned) return;
    const r = requests[planned.index];
    const answered = new Map<string, Record<string, unknown>>();
    const ids: string[] = [];
    for (const item of (r?.response?.items ?? []) as unknown as Record<string, unknown>[]) {
      const id = answeredItemId(item);
      if (id === undefined || answered.has(id)) continue;
      answered.set(id, item);
      ids.push(id);
    }
    const below = ids.filter((id) => parentOf(answered.get(id)!) === p.add!.parentId);
    // An answer that names no parent: the help's order, the item added below the parent first.
    const top = below.length > 0 ? below : ids.slice(0, 1);
    const state = r?.state ?? 'pending';
    out.push({ part, request: planned.index, parentId: p.add.parentId, state, asked: addedItemsOf(p.add.item).length, ids, top, answered, idsUnknown: state === 'succeeded' && ids.length === 0 });
  });
  return out;
}

/** The IDs every succeeded add of a job created. */
export function addedIds(plan: Pick<JobPlan, 'parts' | 'requests'>, requests: readonly RequestResult[]): string[] {
  return addedItems(plan, requests).flatMap((a) => (a.state === 'succeeded' ? a.ids : []));
}

/** The items the adds of a plan would create, as rows of a preview: each with its parent, depth and fields, depth first. */
export function newItemRows(plan: Pick<JobPlan, 'parts'>): { parentId: string; depth: number; fields: Record<string, unknown> }[] {
  const out: { parentId: string; depth: number; fields: Record<string, unknown> }[] = [];
  const walk = (parentId: string, item: AddWorkItemRequest, depth: number): void => {
    out.push({ parentId, depth, fields: item.fields });
    for (const s of item.subItems ?? []) walk(parentId, s, depth + 1);
  };
  for (const p of plan.parts) if (p.kind === 'add' && p.add) walk(p.add.parentId, p.add.item, 0);
  return out;
}

/** The items the deletes of a plan delete. */
export function deletedIds(plan: Pick<JobPlan, 'parts'>): Set<string> {
  return new Set(plan.parts.flatMap((p) => (p.kind === 'delete' ? p.ids : [])));
}
