// A copy-on-write view of a data set's work items for one update request, with
// the hierarchy indexes built once per request (id -> item, parent -> children).
// Reads see the request's own changes; `commit()` writes them back. Nothing in
// the data set changes before `commit()`, which makes an update atomic without
// copying the whole data set. No vscode import.
import type { Dataset, WorkItem } from '../model';

const ROOT = '\u0000root:';

/** Children-index key of a parent: the parent's ID, or the project's root for top-level items. */
function parentKey(parentId: string | null, projectId: string): string {
  return parentId ?? ROOT + projectId;
}

function cloneItem(item: WorkItem): WorkItem {
  return {
    ...item,
    assignments: item.assignments.map((a) => ({ ...a })),
    fieldCalcTypes: { ...item.fieldCalcTypes },
  };
}

export class WorkingSet {
  private readonly originals = new Map<string, WorkItem>();
  private readonly copies = new Map<string, WorkItem>();
  private readonly children = new Map<string, string[]>();
  private readonly positions = new Map<string, number>();

  constructor(private readonly data: Dataset) {
    data.workItems.forEach((item, i) => {
      this.originals.set(item.id, item);
      this.positions.set(item.id, i);
    });
    for (const item of data.workItems) {
      const key = parentKey(item.parentId, item.projectId);
      const list = this.children.get(key);
      if (list) list.push(item.id);
      else this.children.set(key, [item.id]);
    }
  }

  /** The item as this request sees it (do not mutate: use `mut`). */
  get(id: string): WorkItem | undefined {
    return this.copies.get(id) ?? this.originals.get(id);
  }

  /** The item as stored before this request. */
  original(id: string): WorkItem | undefined {
    return this.originals.get(id);
  }

  /** A writable copy of the item (made on first write). */
  mut(id: string): WorkItem {
    let copy = this.copies.get(id);
    if (!copy) {
      const original = this.originals.get(id);
      if (!original) throw new Error(`no work item ${id}`);
      copy = cloneItem(original);
      this.copies.set(id, copy);
    }
    return copy;
  }

  /** IDs of the items written by this request, in the order of their first write. */
  changedIds(): string[] {
    return [...this.copies.keys()];
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
    const ids = this.children.get(key) ?? [];
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
    for (const cid of this.children.get(parentKey(id, item.projectId)) ?? []) {
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
    while (current && level <= this.originals.size) {
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
    while (current && steps <= this.originals.size) {
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
    const oldKey = parentKey(item.parentId, item.projectId);
    const oldList = this.children.get(oldKey);
    if (oldList) {
      const at = oldList.indexOf(id);
      if (at >= 0) oldList.splice(at, 1);
    }
    const newKey = parentKey(parentId, item.projectId);
    const newList = this.children.get(newKey);
    if (newList) newList.push(id);
    else this.children.set(newKey, [id]);
    item.parentId = parentId;
  }

  /** Writes every changed item back into the data set (each changed item is replaced by its copy). */
  commit(): void {
    const list = this.data.workItems;
    for (const [id, copy] of this.copies) list[this.positions.get(id)!] = copy;
  }
}
