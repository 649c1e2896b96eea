// Finding an add again: the key each new item carries in its `metadata`, and the decision,
// from what is below the parent now, whether an add of unknown outcome happened. Pure: no
// I/O, no vscode import. The engine's reads and sends around it are in ./addSteps.ts.
//
// Each item of an add carries `metadata["workItemStudio.key"]` = `<job id>/<part>/<path>`
// (`0` the top item, `0.1` its second sub-item, ...), merged with the metadata the document
// gives it. A service that keeps metadata shows the key again in its reads, and the item
// is found by it. A service that drops it leaves only the parent, the name and what is new
// since the add was sent (the IDs of the parent's sub-items read just before it left).
import { METADATA_LIMITS, type AddWorkItemRequest } from '../schema/additions';
import type { SubItemNode } from '../schema/reads';
import { workItemIdOf } from '../schema/reads';

/** The name of the key in `metadata`. */
export const ADD_KEY = 'workItemStudio.key';

/** The start of the keys of one add of a job: every item's key is this, `/`, its path. */
export function addKeyPrefix(jobId: string, part: number): string {
  return `${jobId}/${part}`;
}

/** The key of the item at `path` (`0`, `0.2`, ...) of the add whose keys start with `prefix`. */
export function addKeyOf(prefix: string, path: string): string {
  return `${prefix}/${path}`;
}

/**
 * Whether an item with `metadata` can carry the key: it has room for one more entry (or
 * names the key already: the key takes its place), and the key's value fits.
 */
function fits(metadata: Record<string, string> | undefined, key: string): boolean {
  if (key.length > METADATA_LIMITS.valueLength) return false;
  if (!metadata || Object.prototype.hasOwnProperty.call(metadata, ADD_KEY)) return true;
  return Object.keys(metadata).length < METADATA_LIMITS.entries;
}

/**
 * The body of an add as it is sent: each item (the top one and its nested sub-items) with its
 * key merged into its metadata; the document's other metadata entries are kept as they are. An
 * item whose metadata has no room left (the service keeps at most 32 entries) is sent without
 * a key: it is found again by its name only. The body given is not changed.
 */
export function keyedAddItem(item: AddWorkItemRequest, prefix: string, path = '0'): AddWorkItemRequest {
  const key = addKeyOf(prefix, path);
  const out: AddWorkItemRequest = { ...item };
  if (fits(item.metadata, key)) out.metadata = { ...(item.metadata ?? {}), [ADD_KEY]: key };
  if (item.subItems) out.subItems = item.subItems.map((s, i) => keyedAddItem(s, prefix, `${path}.${i}`));
  return out;
}

/** The key the top item of an add carries when sent with `prefix` (undefined: its metadata has no room). */
export function topKeyOf(item: AddWorkItemRequest, prefix: string | undefined): string | undefined {
  if (prefix === undefined) return undefined;
  const key = addKeyOf(prefix, '0');
  return fits(item.metadata, key) ? key : undefined;
}

/** Levels of an add body (1 for an item without sub-items). */
export function addHeight(item: AddWorkItemRequest): number {
  let h = 0;
  for (const s of item.subItems ?? []) h = Math.max(h, addHeight(s));
  return h + 1;
}

/** An item below the parent that may be what an add of unknown outcome created. */
export interface AddCandidate {
  id: string;
  name: string;
  /** The item and the items below it as read (depth first, the item first). */
  ids: string[];
}

/** An item an add is found to have created, as a read gave it. */
export interface FoundItem {
  id: string;
  parentId: string;
  fields: Record<string, unknown>;
}

/**
 * What the items below the parent say about an add of unknown outcome:
 * - `found`: an item carries the add's key: the add happened; `items` are it and the items
 *   below it (depth first), `others` further items with the same key (made by an earlier send);
 * - `absent`: it did not happen (`metadata-kept`: the service keeps metadata and no item
 *   carries the key; `no-new-item-named`: no item new since the add was sent has its name);
 * - `undecided`: the service keeps no metadata (or the item could carry no key) and items new
 *   since it was sent have its name: they are the candidates.
 */
export type AddDecision =
  | { kind: 'found'; items: FoundItem[]; others: string[] }
  | { kind: 'absent'; reason: 'metadata-kept' | 'no-new-item-named' }
  | { kind: 'undecided'; candidates: AddCandidate[] };

export interface AddMatchInput {
  /** The add's body as written in the document (without the keys). */
  item: AddWorkItemRequest;
  parentId: string;
  /** The start of the add's keys; undefined when it was sent without any (by an earlier version). */
  prefix?: string;
  /** The IDs of the parent's sub-items before the add was first sent; undefined when not known (all are new then). */
  before?: readonly string[];
  /** The parent's sub-items as read now, with the items below them. */
  children: readonly SubItemNode[];
  /** Known elsewhere that the service keeps metadata (an answer of the job showed a key). */
  metadataKept?: boolean;
}

/** The metadata of a node of a read, when it has any (an object of strings). */
function metadataOf(node: SubItemNode): Record<string, unknown> | undefined {
  const m = node['metadata'];
  return m !== null && typeof m === 'object' && !Array.isArray(m) ? (m as Record<string, unknown>) : undefined;
}

function keyOfNode(node: SubItemNode): string | undefined {
  const v = metadataOf(node)?.[ADD_KEY];
  return typeof v === 'string' ? v : undefined;
}

function childrenOf(node: SubItemNode): SubItemNode[] {
  const subs = node.fields.SubItems;
  return Array.isArray(subs) ? subs : [];
}

function nameOf(fields: Record<string, unknown>): string {
  const v = fields['Name'];
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
}

/** Whether a node or one below it shows metadata (a service that keeps it shows it). */
function showsMetadata(nodes: readonly SubItemNode[]): boolean {
  const stack = [...nodes];
  while (stack.length > 0) {
    const n = stack.pop()!;
    const m = metadataOf(n);
    if (m && Object.keys(m).length > 0) return true;
    stack.push(...childrenOf(n));
  }
  return false;
}

/**
 * The node and the nodes below it, depth first, each with its parent; below a node that
 * carries another add's key, nothing is taken (another job's items are not this add's).
 */
function subtree(node: SubItemNode, parentId: string, prefix: string | undefined): FoundItem[] {
  const out: FoundItem[] = [];
  const walk = (n: SubItemNode, parent: string, top: boolean): void => {
    const id = workItemIdOf(n);
    if (id === undefined) return;
    const key = keyOfNode(n);
    if (!top && key !== undefined && (prefix === undefined || !key.startsWith(`${prefix}/`))) return;
    const { SubItems: _below, Id: _id, ...fields } = n.fields;
    out.push({ id, parentId: parent, fields });
    for (const c of childrenOf(n)) walk(c, id, false);
  };
  walk(node, parentId, true);
  return out;
}

/** Decides what became of an add of unknown outcome from the parent's sub-items as read now. */
export function decideAdd(input: AddMatchInput): AddDecision {
  const key = topKeyOf(input.item, input.prefix);
  const children = input.children.filter((c) => workItemIdOf(c) !== undefined);
  if (key !== undefined) {
    const keyed = children.filter((c) => keyOfNode(c) === key);
    if (keyed.length > 0) {
      return { kind: 'found', items: subtree(keyed[0]!, input.parentId, input.prefix), others: keyed.slice(1).map((c) => workItemIdOf(c)!) };
    }
    // The item carried its key: a service that keeps metadata would show it.
    if (input.metadataKept || showsMetadata(input.children)) return { kind: 'absent', reason: 'metadata-kept' };
  }
  const before = input.before ? new Set(input.before) : undefined;
  const name = nameOf(input.item.fields).trim();
  const candidates = children
    .filter((c) => !before?.has(workItemIdOf(c)!) && nameOf(c.fields).trim() === name)
    .map((c): AddCandidate => ({ id: workItemIdOf(c)!, name: nameOf(c.fields), ids: subtree(c, input.parentId, input.prefix).map((f) => f.id) }));
  return candidates.length === 0 ? { kind: 'absent', reason: 'no-new-item-named' } : { kind: 'undecided', candidates };
}

/**
 * The answer an add would have given for the items found (the top item first, each with its
 * `id` and `parentId`, its fields as read), kept as the request's response so the undo and the
 * result view know what it created.
 */
export function foundAnswer(items: readonly FoundItem[]): { items: Record<string, unknown>[] } {
  return { items: items.map((f) => ({ ...f.fields, id: f.id, parentId: f.parentId })) };
}

/** The answer for a candidate the user named as what the add created: its IDs, the top one below the parent. */
export function candidateAnswer(candidate: AddCandidate, parentId: string): { items: Record<string, unknown>[] } {
  return { items: candidate.ids.map((id, i) => (i === 0 ? { id, parentId, Name: candidate.name } : { id })) };
}
