// Reading the rows of the work item table, without vscode: a project's (or a folder's)
// items by levels through `subItems` (the first level first, so rows show at once, then
// the whole subtree in one answer), or items by ID in batches through readWorkItems
// (paced by its pacer, progress after each slice). Cancellable with an AbortSignal.
//
// Each row's fields are the item's fields as read, without `SubItems`, plus the table's
// derived fields: `ParentName` (the path of the parent's names from the level below the
// project's root folder, joined with " / "), and the row's `level` and whether it has
// sub-items (for the tree column and "lowest level only").
import type { CallOptions } from '../../api/client';
import type { ReadWorkItemsOptions, ReadWorkItemsResult } from '../../api/reads';
import type { SubItemNode, WorkItemRecord } from '../../schema/reads';
import { MAX_HIERARCHY_DEPTH } from '../../schema/fields';
import { idValue, workItemIdOf } from '../../schema/reads';
import type { TableRow } from './columns';

/** A table row with where it sits in the tree (level 1: below the root folder). */
export interface LoadedRow extends TableRow {
  readonly level: number;
  /** Some sub-items came back for it (a container); false for a leaf; undefined when not known (read by ID). */
  readonly hasChildren?: boolean;
}

/** The reads the table uses (ServiceClient has them). */
export interface TableReads {
  getSubItems(id: string, q?: { fields?: readonly string[]; depth?: number }, o?: CallOptions): Promise<SubItemNode>;
}

export type ReadByIds = (ids: readonly string[], o: ReadWorkItemsOptions) => Promise<ReadWorkItemsResult>;

export interface LoadHandlers {
  signal?: AbortSignal;
  /** Rows of a phase: `replace` true when they replace every row sent before (the whole tree after its first level). */
  onRows(rows: LoadedRow[], replace: boolean): void;
  /** Progress: items read so far and the total when known. */
  onProgress?(done: number, total: number | undefined, phase: 'firstLevel' | 'allLevels' | 'byId'): void;
}

/** The field `ParentName` holds: the path of the parent's names. */
export const PARENT_PATH_SEPARATOR = ' / ';

/**
 * Flattens a `subItems` answer into rows in tree order (pre-order), the element asked
 * itself left out. `level` is the element's level (0 for the root folder). `basePath`
 * is the path of the element (empty for the root folder). Iterative.
 */
export function flattenToRows(node: SubItemNode, level: number, basePath = ''): LoadedRow[] {
  const out: LoadedRow[] = [];
  const stack: { node: SubItemNode; level: number; path: string; parentId: string | undefined }[] = [];
  const push = (n: SubItemNode, l: number, path: string, parentId: string | undefined): void => {
    const kids = n.fields.SubItems;
    if (!Array.isArray(kids)) return;
    for (let i = kids.length - 1; i >= 0; i--) {
      const k = kids[i];
      if (k && typeof k === 'object' && k.fields && typeof k.fields === 'object') stack.push({ node: k, level: l + 1, path, parentId });
    }
  };
  push(node, level, basePath, workItemIdOf(node));
  while (stack.length > 0) {
    const e = stack.pop()!;
    const id = workItemIdOf(e.node);
    if (id === undefined) continue;
    const { SubItems: kids, ...rest } = e.node.fields;
    const fields: Record<string, unknown> = rest;
    if (idValue(fields['ParentId']) === undefined && e.parentId !== undefined) fields['ParentId'] = e.parentId;
    fields['ParentName'] = e.path === '' ? null : e.path;
    const hasChildren = Array.isArray(kids) && kids.length > 0;
    out.push({ id, fields, level: e.level, hasChildren });
    if (hasChildren) {
      const name = typeof fields['Name'] === 'string' && fields['Name'] !== '' ? fields['Name'] : id;
      push(e.node, e.level, e.path === '' ? name : `${e.path}${PARENT_PATH_SEPARATOR}${name}`, id);
    }
  }
  return out;
}

/** The read of items by ID (ServiceClient has it). */
export interface ItemReads {
  getWorkItems(ids: readonly string[], fields?: readonly string[], o?: CallOptions): Promise<WorkItemRecord[]>;
}

/**
 * The parent path of the rows of a table opened on a folder (its `basePath`): the names
 * from the level below the project's root folder down to the folder itself, as the
 * project's table shows them ("Design / Screens" for a folder "Screens" on level 2). The
 * folder and its ancestors down to level 2 are read (Name, ParentId, ParentName), one
 * item per level: each answer names the parent, the last the item on level 1. A folder on
 * level 1 needs no read. Stops early (the path read so far) when an item has no parent.
 */
export async function folderPath(reads: ItemReads, folder: { id: string; name: string; level: number }, o: CallOptions = {}): Promise<string> {
  const names = [folder.name];
  let id = folder.id;
  for (let level = Math.min(folder.level, MAX_HIERARCHY_DEPTH + 1); level > 1; level--) {
    const [rec] = await reads.getWorkItems([id], ['Name', 'ParentId', 'ParentName'], o);
    const parent = idValue(rec?.fields['ParentId']);
    if (parent === undefined) break;
    const name = rec?.fields['ParentName'];
    names.unshift(typeof name === 'string' && name !== '' ? name : parent);
    id = parent;
  }
  return names.join(PARENT_PATH_SEPARATOR);
}

const cancelled = (signal?: AbortSignal): boolean => signal?.aborted === true;

/**
 * A project's or folder's items: first the level below `rootId` (one answer, rows shown
 * at once), then the whole subtree (one answer replacing them). `level` is the level of
 * `rootId` (0 for a project's root folder); `basePath` its path (empty for the root).
 * `fields`: the names to ask (all fields when absent).
 */
export async function loadSubtree(reads: TableReads, rootId: string, level: number, h: LoadHandlers, o: { fields?: readonly string[]; basePath?: string } = {}): Promise<LoadedRow[]> {
  const call: CallOptions = { signal: h.signal };
  const first = await reads.getSubItems(rootId, { fields: o.fields, depth: level + 1 }, call);
  const firstRows = flattenToRows(first, level, o.basePath);
  h.onProgress?.(firstRows.length, undefined, 'firstLevel');
  // A leaf-only level (no container among the first rows) is the whole subtree already.
  const containers = (first.fields.SubItems ?? []).length > 0;
  h.onRows(firstRows, true);
  if (!containers || cancelled(h.signal)) return firstRows;
  const all = await reads.getSubItems(rootId, { fields: o.fields }, call);
  const rows = flattenToRows(all, level, o.basePath);
  h.onProgress?.(rows.length, rows.length, 'allLevels');
  h.onRows(rows, true);
  return rows;
}

/** Items by ID, read in slices of `slice` IDs (rows sent after each slice); returns the rows and the IDs that did not come back. */
export async function loadByIds(read: ReadByIds, ids: readonly string[], h: LoadHandlers, o: { fields?: readonly string[]; slice?: number } = {}): Promise<{ rows: LoadedRow[]; missing: string[] }> {
  const distinct = [...new Set(ids)];
  const slice = Math.max(1, o.slice ?? 5000);
  const rows: LoadedRow[] = [];
  const missing: string[] = [];
  for (let start = 0; start < distinct.length; start += slice) {
    const part = distinct.slice(start, start + slice);
    const r = await read(part, { fields: o.fields, signal: h.signal, onProgress: (done) => h.onProgress?.(start + done, distinct.length, 'byId') });
    const got: LoadedRow[] = [];
    for (const id of part) {
      const rec: WorkItemRecord | undefined = r.items.get(id);
      if (rec) got.push({ id, fields: rec.fields, level: 1 });
    }
    missing.push(...r.missing);
    rows.push(...got);
    h.onRows(got, false);
    if (cancelled(h.signal)) break;
  }
  return { rows, missing };
}

/** "Lowest level only": rows without sub-items that are not folders (`isFolder` by item type). */
export function lowestLevelRows<R extends LoadedRow>(rows: readonly R[], isFolder: (row: R) => boolean): R[] {
  return rows.filter((r) => r.hasChildren !== true && !isFolder(r));
}
