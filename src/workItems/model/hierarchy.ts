// Loading a project's hierarchy one level at a time, and the index of the levels
// loaded so far (who is where, for getParent, reveal and refresh). No vscode import.
//
// The depth rule (known-facts.md): `subItems`'s `depth` counts from the project's
// root folder (level 0), not from the item asked. The children of an item on level
// L are level L + 1, so they are asked for with `depth = L + 1`: exactly one level
// comes back, whatever the size of the tree below.
import type { CallOptions } from '../../api/client';
import type { ProjectProfile } from '../../schema/catalogue';
import type { Project, ProjectListResponse, ProjectsQuery, SubItemNode, WorkItemRecord } from '../../schema/reads';
import { childRows, toRow, type WorkItemRow } from './rows';
import type { ProjectTypes } from './types';
import { core } from '../../core/load';

/** The read operations the Work Items view uses (ServiceClient has them). */
export interface WorkItemReads {
  listProjects(q?: ProjectsQuery, o?: CallOptions): Promise<ProjectListResponse>;
  getProjects(ids: readonly string[], o?: CallOptions): Promise<Project[]>;
  getWorkItems(ids: readonly string[], fields?: readonly string[], o?: CallOptions): Promise<WorkItemRecord[]>;
  getSubItems(id: string, q?: { fields?: readonly string[]; depth?: number; includeDeleted?: boolean }, o?: CallOptions): Promise<SubItemNode>;
  /** The project's profile (official help P2); a client without it leaves the tree to the answers' shape. */
  getProjectProfile?(projectId: string, includes?: readonly string[], o?: CallOptions): Promise<ProjectProfile>;
}

/** The query that loads the children of an item on `level` (and nothing deeper). */
export function levelQuery(level: number, fields: readonly string[] = core().TREE_FIELDS): { depth: number; fields: readonly string[] } {
  if (!Number.isInteger(level) || level < 0) throw new RangeError(`level must be a non-negative integer, not ${level}`);
  return { depth: level + 1, fields };
}

/** One level's answer: the item asked (its fields as they came back, without its children) and its children as rows. */
export interface LevelAnswer {
  parent: { id: string; fields: Readonly<Record<string, unknown>> };
  rows: WorkItemRow[];
}

export interface LoadLevelOptions {
  /** The `fields=` to ask (TREE_FIELDS by default). */
  fields?: readonly string[];
  /** Runs the read with the fields, e.g. falling back to fewer names when the service refuses them (TreeFieldPolicy.read). */
  read?: <T>(fields: readonly string[], read: (fields: readonly string[]) => Promise<T>) => Promise<T>;
}

/** The children of `parent` (one GET; two when the service refuses the fields and `o.read` falls back), in the answer's order, as rows of `parent.level + 1`. */
export async function loadLevelAnswer(
  client: Pick<WorkItemReads, 'getSubItems'>,
  parent: { id: string; level: number },
  signal?: AbortSignal,
  o: LoadLevelOptions = {},
): Promise<LevelAnswer> {
  const ask = (fields: readonly string[]) => client.getSubItems(parent.id, levelQuery(parent.level, fields), { signal });
  const node = o.read ? await o.read(o.fields ?? core().TREE_FIELDS, ask) : await ask(o.fields ?? core().TREE_FIELDS);
  const { SubItems: _children, ...fields } = node.fields;
  return { parent: { id: core().workItemIdOf(node) ?? parent.id, fields }, rows: childRows(node, parent.level).rows };
}

/** The children of `parent` (one GET), in the answer's order, as rows of `parent.level + 1`. */
export async function loadLevel(client: Pick<WorkItemReads, 'getSubItems'>, parent: { id: string; level: number }, signal?: AbortSignal, o: LoadLevelOptions = {}): Promise<WorkItemRow[]> {
  return (await loadLevelAnswer(client, parent, signal, o)).rows;
}

export interface Location {
  parentId: string;
  index: number;
}

/** Levels stored and not yet indexed, at most (beyond, they are indexed at once). */
const MAX_PENDING_LEVELS = 64;

/**
 * The levels loaded so far, by parent ID (the project's root folder for level 1).
 * Each level is one array, never copied; `locate` answers where an item sits.
 *
 * The index of where each item sits is brought up to date when it is first asked
 * (`locate`, `row`, `size`, `apply`, `forget`), not when a level is stored: a level's
 * first rows (a view's getChildren, the ranges of a large level) need only the level
 * itself, so they do not wait for thousands of index entries.
 */
export class Hierarchy {
  private readonly levels = new Map<string, WorkItemRow[]>();
  private readonly whereIndex = new Map<string, Location>();
  /** Levels stored since the index was last brought up to date, in the order stored (each with the rows it replaced). */
  private pending: { parentId: string; rows: WorkItemRow[]; old: WorkItemRow[] | undefined }[] = [];

  /** The index, with every level stored so far in it (in the order they were stored, as if indexed at once). */
  private get where(): Map<string, Location> {
    this.flush();
    return this.whereIndex;
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    const pending = this.pending;
    this.pending = [];
    for (const p of pending) this.index(p.parentId, p.rows, p.old);
  }

  private index(parentId: string, rows: readonly WorkItemRow[], old: readonly WorkItemRow[] | undefined): void {
    const where = this.whereIndex;
    for (let index = 0; index < rows.length; index++) where.set(rows[index]!.id, { parentId, index });
    if (!old) return;
    // A level read again holds mostly the same items: their places were just overwritten (no
    // delete and add again); only the items that left the level are dropped.
    for (const r of old) {
      const at = where.get(r.id);
      if (at && at.parentId === parentId && rows[at.index]?.id !== r.id) where.delete(r.id);
    }
  }

  /** Stores (or replaces) the children of `parentId`. */
  setLevel(parentId: string, rows: WorkItemRow[]): void {
    const old = this.levels.get(parentId);
    this.levels.set(parentId, rows);
    const last = this.pending[this.pending.length - 1];
    // Stored again before it was indexed: the rows it replaces in the index are still those indexed before.
    if (last && last.parentId === parentId) last.rows = rows;
    else this.pending.push({ parentId, rows, old });
    if (this.pending.length > MAX_PENDING_LEVELS) this.flush();
  }

  /** Forgets the children of `parentId` (and, below them, every level loaded). */
  forget(parentId: string): void {
    const rows = this.levels.get(parentId);
    if (!rows) return;
    const where = this.where;
    this.levels.delete(parentId);
    for (const r of rows) {
      const at = where.get(r.id);
      if (at && at.parentId === parentId) where.delete(r.id);
      this.forget(r.id);
    }
  }

  children(parentId: string): WorkItemRow[] | undefined {
    return this.levels.get(parentId);
  }

  locate(id: string): Location | undefined {
    return this.where.get(id);
  }

  row(id: string): WorkItemRow | undefined {
    const at = this.where.get(id);
    return at ? this.levels.get(at.parentId)?.[at.index] : undefined;
  }

  clear(): void {
    this.levels.clear();
    this.whereIndex.clear();
    this.pending = [];
  }

  /** Whether the level of `parentId` holds exactly `ids`, in this order (the answer's order is the siblings' order). */
  sameOrder(parentId: string, ids: readonly string[]): boolean {
    const rows = this.levels.get(parentId);
    return !!rows && rows.length === ids.length && rows.every((r, i) => r.id === ids[i]);
  }

  /** How many rows are loaded, over all levels. */
  get size(): number {
    return this.where.size;
  }

  /**
   * Applies fresh field maps (e.g. after an update) to the rows loaded. Rows are
   * replaced in place; an item whose parent changed (or that no longer came back)
   * cannot be patched: its parent's level is named in `reload`. (An order changed
   * among the same siblings shows in the answer's order only: see `sameOrder`.)
   */
  apply(fresh: ReadonlyMap<string, WorkItemRecord>, missing: readonly string[] = []): { updated: string[]; reload: string[] } {
    const updated: string[] = [];
    const reload = new Set<string>();
    for (const [id, record] of fresh) {
      const at = this.where.get(id);
      if (!at) continue;
      const rows = this.levels.get(at.parentId)!;
      const old = rows[at.index]!;
      const next = toRow({ ...old.fields, ...record.fields }, old.level, old.parentId);
      if (!next) continue;
      if (next.parentId !== old.parentId) {
        reload.add(at.parentId);
        if (next.parentId && this.levels.has(next.parentId)) reload.add(next.parentId);
        continue;
      }
      rows[at.index] = next;
      updated.push(id);
    }
    for (const id of missing) {
      const at = this.where.get(id);
      if (at) reload.add(at.parentId);
    }
    return { updated, reload: [...reload] };
  }
}

// ---------------------------------------------------------------------------
// Subtrees (Select Subtree): one GET of the item's whole subtree, flattened
// ---------------------------------------------------------------------------

export interface SubtreeEntry {
  row: WorkItemRow;
  /** No sub-items came back for it. */
  isLeaf: boolean;
}

/**
 * Every descendant of a `subItems` answer's element (not the element itself), in
 * tree order (pre-order, children in the answer's order). Iterative: deep trees do
 * not grow the stack.
 */
export function flattenSubtree(node: SubItemNode, level: number): SubtreeEntry[] {
  const out: SubtreeEntry[] = [];
  const stack: { node: SubItemNode; row: WorkItemRow }[] = [];
  const pushChildren = (n: SubItemNode, l: number, parentId: string | undefined): void => {
    const kids: { node: SubItemNode; row: WorkItemRow }[] = [];
    for (const child of n.fields.SubItems ?? []) {
      const row = child?.fields ? toRow(child.fields, l + 1, parentId) : undefined;
      if (row) kids.push({ node: child, row });
    }
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  };
  pushChildren(node, level, core().workItemIdOf(node));
  while (stack.length > 0) {
    const k = stack.pop()!;
    out.push({ row: k.row, isLeaf: (k.node.fields.SubItems ?? []).length === 0 });
    pushChildren(k.node, k.row.level, k.row.id);
  }
  return out;
}

/**
 * Teaches `types` what a whole subtree's shape shows (ProjectTypes.learnLevel for
 * each item that came back with its children): the element itself on `level`,
 * then every descendant, deepest first, so that an item holding a folder is known
 * as one before its own parent is looked at.
 */
export function learnSubtree(types: ProjectTypes, node: SubItemNode, level: number, entries: readonly SubtreeEntry[]): void {
  const children = new Map<string, WorkItemRow[]>();
  for (const e of entries) {
    if (e.row.parentId === undefined) continue;
    const list = children.get(e.row.parentId);
    if (list) list.push(e.row);
    else children.set(e.row.parentId, [e.row]);
  }
  const top = core().workItemIdOf(node);
  const { SubItems: _kids, ...topFields } = node.fields;
  // The root folder first: its item type is a folder type, which decides items further down.
  if (top !== undefined && level === 0) types.learnLevel({ id: top, fields: topFields }, 0, children.get(top) ?? []);
  for (let i = entries.length - 1; i >= 0; i--) {
    const r = entries[i]!.row;
    const kids = children.get(r.id);
    if (kids) types.learnLevel(r, r.level, kids);
  }
  if (top !== undefined) types.learnLevel({ id: top, fields: topFields }, level, children.get(top) ?? []);
}

/** The lowest-level items of a subtree: items without sub-items that are not folders (`isFolder`: ProjectTypes.isFolder). */
export function lowestLevel(entries: readonly SubtreeEntry[], isFolder: (row: WorkItemRow) => boolean): WorkItemRow[] {
  return entries.filter((e) => e.isLeaf && !isFolder(e.row)).map((e) => e.row);
}

// ---------------------------------------------------------------------------
// Reveal: the path from a project's root folder down to each item
// ---------------------------------------------------------------------------

export interface Ancestry {
  parentId?: string;
  projectId?: string;
}

export interface PathResult {
  /** For each item found: its ancestors from the top (the root folder, or the highest item already loaded) down to the item itself. */
  paths: Map<string, string[]>;
  /** The project of each item, when the service said. */
  projects: Map<string, string>;
  /** IDs the service did not return. */
  missing: string[];
  /** GETs made. */
  reads: number;
}

/**
 * Walks up the ParentId chains of `ids`, one batched read per level for all of them
 * together, until each chain reaches an item `isLoaded` answers true for, or the top
 * (an item without a parent: the project's root folder). `read` answers the parent
 * and project of the IDs it was given (absent IDs are left out).
 */
export async function findPaths(
  ids: readonly string[],
  read: (ids: string[]) => Promise<Map<string, Ancestry>>,
  isLoaded: (id: string) => boolean,
  maxLevels = 64,
): Promise<PathResult> {
  const known = new Map<string, Ancestry>();
  const missing = new Set<string>();
  let reads = 0;
  let frontier = [...new Set(ids)];
  for (let round = 0; frontier.length > 0 && round <= maxLevels; round++) {
    const ask = frontier.filter((id) => !known.has(id) && !missing.has(id));
    if (ask.length > 0) {
      const got = await read(ask);
      reads++;
      for (const id of ask) {
        const a = got.get(id);
        if (a) known.set(id, a);
        else missing.add(id);
      }
    }
    const next = new Set<string>();
    for (const id of frontier) {
      const p = known.get(id)?.parentId;
      if (p && !isLoaded(p) && !known.has(p) && !missing.has(p)) next.add(p);
    }
    frontier = [...next];
  }
  const paths = new Map<string, string[]>();
  const projects = new Map<string, string>();
  for (const id of new Set(ids)) {
    if (!known.has(id)) continue;
    const chain: string[] = [id];
    const seen = new Set(chain);
    let cur = id;
    for (;;) {
      const p = known.get(cur)?.parentId;
      if (!p || seen.has(p)) break;
      chain.push(p);
      seen.add(p);
      if (isLoaded(p) || !known.has(p)) break;
      cur = p;
    }
    chain.reverse();
    paths.set(id, chain);
    const project = known.get(id)?.projectId;
    if (project) projects.set(id, project);
  }
  return { paths, projects, missing: [...missing].filter((id) => ids.includes(id)), reads };
}
