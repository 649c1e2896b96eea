// A working view of a data set's work items for one update request, over the
// hierarchy indexes the data set keeps between requests (id -> item,
// parent -> children: src/sandbox/update/indexes.ts). An update writes into the
// stored items themselves, and before its first write to an item keeps a shallow
// snapshot of it (the values as stored before the request: the update engine never
// changes a nested array or object in place, it assigns new ones). `commit()`
// keeps the changes and writes the changed children lists into the indexes;
// `rollback()` puts every snapshot's values back, so a rejected request changes
// nothing. The cost follows the items an update writes: no whole item is copied
// twice, no stored item is replaced. No vscode import.
import type { Dataset, WorkItem } from '../model';
import { indexesOf, parentKey, type WorkItemIndex } from './indexes';

export class WorkingSet {
  /** The data set's index (shared between requests: read-only until commit). */
  private readonly index: WorkItemIndex;
  private readonly items: Map<string, WorkItem>;
  /** Each written item's values before this request (shallow snapshots, in the order of first write). */
  private readonly before = new Map<string, WorkItem>();
  /** Set by commit() or rollback(): no write after either. */
  private finished = false;
  /** Children lists this request changed (copies; the shared ones stay as they are until commit). */
  private readonly changedChildren = new Map<string, string[]>();
  /** Items this request added (in the order added): in the index while it runs, in the data set from commit. */
  private readonly added: WorkItem[] = [];
  private readonly addedIds = new Set<string>();

  constructor(private readonly data: Dataset) {
    this.index = indexesOf(data).workItems();
    this.items = this.index.byId;
  }

  private childIds(key: string): readonly string[] {
    return (this.changedChildren.size > 0 ? this.changedChildren.get(key) : undefined) ?? this.index.children.get(key) ?? [];
  }

  private writableChildIds(key: string): string[] {
    let list = this.changedChildren.get(key);
    if (!list) {
      list = [...(this.index.children.get(key) ?? [])];
      this.changedChildren.set(key, list);
    }
    return list;
  }

  /** The item as this request sees it (do not mutate: use `mut`). */
  get(id: string): WorkItem | undefined {
    return this.items.get(id);
  }

  /** The item as stored before this request. */
  original(id: string): WorkItem | undefined {
    return this.before.get(id) ?? this.items.get(id);
  }

  /**
   * The item, to write to (its values before the request are kept on first write).
   * Assign new values only: never change a nested array or object in place.
   */
  mut(id: string): WorkItem {
    if (this.finished) throw new Error('the update was already committed or rolled back');
    const item = this.items.get(id);
    if (!item) throw new Error(`no work item ${id}`);
    if (!this.before.has(id) && !this.addedIds.has(id)) this.before.set(id, { ...item });
    return item;
  }

  /**
   * Adds a new item below its `parentId` (at the end of the children list; its `order`
   * places it). Seen by every read of this request; kept by commit, gone after rollback.
   */
  add(item: WorkItem): void {
    if (this.finished) throw new Error('the update was already committed or rolled back');
    if (this.items.has(item.id)) throw new Error(`work item ${item.id} exists already`);
    this.items.set(item.id, item);
    this.added.push(item);
    this.addedIds.add(item.id);
    this.writableChildIds(parentKey(item.parentId, item.projectId)).push(item.id);
  }

  /** Whether the item was added by this request. */
  isAdded(id: string): boolean {
    return this.addedIds.has(id);
  }

  /** IDs of the items written by this request, in the order of their first write. */
  changedIds(): string[] {
    return [...this.before.keys()];
  }

  /** Children of an item (deleted ones too when asked), unsorted. */
  childrenOf(id: string, includeDeleted = false): WorkItem[] {
    const item = this.get(id);
    if (!item) return [];
    return this.childrenAt(parentKey(id, item.projectId), includeDeleted);
  }

  /** Top-level items of a project. */
  topLevelOf(projectId: string, includeDeleted = false): WorkItem[] {
    return this.childrenAt(parentKey(null, projectId), includeDeleted);
  }

  private childrenAt(key: string, includeDeleted: boolean): WorkItem[] {
    const ids = this.childIds(key);
    const out: WorkItem[] = [];
    for (const cid of ids) {
      const c = this.get(cid);
      if (c && (includeDeleted || !c.isDeleted)) out.push(c);
    }
    return out;
  }

  /** Live (non-deleted) children sorted by position. */
  sortedChildren(parentId: string | null, projectId: string): WorkItem[] {
    return this.childrenAt(parentKey(parentId, projectId), false).sort((a, b) => a.order - b.order || (a.id < b.id ? -1 : 1));
  }

  hasLiveChildren(id: string): boolean {
    const item = this.get(id);
    if (!item) return false;
    for (const cid of this.childIds(parentKey(id, item.projectId))) {
      const c = this.get(cid);
      if (c && !c.isDeleted) return true;
    }
    return false;
  }

  /**
   * Level of an item in its hierarchy: the project's root folder (parentId null) is
   * on level 0, a top-level item on level 1 (the 16 levels of service-api.md are 1 to 16).
   */
  level(id: string): number {
    let level = -1;
    let current: WorkItem | undefined = this.get(id);
    while (current && level <= this.items.size) {
      level++;
      current = current.parentId === null ? undefined : this.get(current.parentId);
    }
    return Math.max(level, 0);
  }

  /** Number of levels of the subtree rooted at the item (1 for an item without children). */
  height(id: string, includeDeleted = false): number {
    let best = 0;
    const stack: [string, number][] = [[id, 1]];
    while (stack.length > 0) {
      const [cid, depth] = stack.pop()!;
      if (depth > best) best = depth;
      for (const child of this.childrenOf(cid, includeDeleted)) stack.push([child.id, depth + 1]);
    }
    return best;
  }

  /** True when `candidate` is `ancestor` itself or lies below it. */
  isSelfOrDescendant(candidate: string, ancestor: string): boolean {
    let current: WorkItem | undefined = this.get(candidate);
    let steps = 0;
    while (current && steps <= this.items.size) {
      if (current.id === ancestor) return true;
      current = current.parentId === null ? undefined : this.get(current.parentId);
      steps++;
    }
    return false;
  }

  /** All descendants (depth first, parents before children). */
  descendants(id: string, includeDeleted = false): WorkItem[] {
    const out: WorkItem[] = [];
    const stack = [id];
    while (stack.length > 0) {
      const cid = stack.pop()!;
      for (const child of this.childrenOf(cid, includeDeleted)) {
        out.push(child);
        stack.push(child.id);
      }
    }
    return out;
  }

  /** Live descendants that have no live children: the lowest-level sub-items. */
  leaves(id: string): WorkItem[] {
    const out: WorkItem[] = [];
    const stack = [id];
    while (stack.length > 0) {
      const cid = stack.pop()!;
      const children = this.childrenOf(cid);
      if (children.length === 0 && cid !== id) out.push(this.get(cid)!);
      for (const child of children) stack.push(child.id);
    }
    return out;
  }

  /** Moves an item under another parent (keeps the children index current). */
  setParent(id: string, parentId: string | null): void {
    const item = this.mut(id);
    if (item.parentId === parentId) return;
    const oldList = this.writableChildIds(parentKey(item.parentId, item.projectId));
    const at = oldList.indexOf(id);
    if (at >= 0) oldList.splice(at, 1);
    this.writableChildIds(parentKey(parentId, item.projectId)).push(id);
    item.parentId = parentId;
  }

  /**
   * Keeps this request's changes: the changed children lists go into the data set's indexes.
   * Returns a function that takes them back (the items' values and children lists from
   * before the request), for a change that could not be saved; call it before any later change.
   */
  commit(): () => void {
    this.finished = true;
    const { children } = this.index;
    const before = new Map(this.before);
    const listsBefore = new Map<string, string[] | undefined>();
    for (const [key, ids] of this.changedChildren) {
      listsBefore.set(key, children.get(key));
      if (ids.length > 0) children.set(key, ids);
      else children.delete(key);
    }
    // Added items go to the end of the data set's list; the index already holds them.
    const added = [...this.added];
    const items = this.data.workItems;
    for (const item of added) items.push(item);
    if (added.length > 0) indexesOf(this.data).acceptWorkItems();
    this.before.clear();
    this.changedChildren.clear();
    this.added.length = 0;
    this.addedIds.clear();
    return () => {
      for (const [id, was] of before) restore(this.items.get(id)!, was);
      for (const [key, ids] of listsBefore) {
        if (ids) children.set(key, ids);
        else children.delete(key);
      }
      if (added.length > 0) {
        // Taken back before any later change: the added items are still the list's last ones.
        items.splice(items.length - added.length, added.length);
        for (const item of added) this.items.delete(item.id);
        indexesOf(this.data).acceptWorkItems();
      }
    };
  }

  /** Undoes every write of this request: each written item gets its values from before the request back. */
  rollback(): void {
    if (this.finished) return;
    this.finished = true;
    for (const [id, was] of this.before) restore(this.items.get(id)!, was);
    for (const item of this.added) this.items.delete(item.id);
    this.before.clear();
    this.changedChildren.clear();
    this.added.length = 0;
    this.addedIds.clear();
  }
}

/** Gives a stored item its values of a snapshot back (members added since are removed). */
function restore(item: WorkItem, was: WorkItem): void {
  for (const key of Object.keys(item)) {
    if (!Object.prototype.hasOwnProperty.call(was, key)) delete (item as Record<string, unknown>)[key];
  }
  Object.assign(item, was);
}
