// Lookup indexes of a data set, kept from one update request to the next, so that
// the cost of an update follows the items it touches, not the size of the data set.
// No vscode import.
//
// Each index is built on first use and rebuilt when the list it indexes is replaced
// or changes length (a reset, a reloaded state, links removed). Updates keep the
// work-item indexes current through `WorkingSet.commit()`, which is the only place
// the sandbox changes stored work items.
import type { Classification, Dataset, ItemType, Project, SandboxUser, UserGroup, WorkItem } from '../model';

const ROOT = '\u0000root:';

/** Children-index key of a parent: the parent's ID, or the project's root for top-level items. */
export function parentKey(parentId: string | null, projectId: string): string {
  return parentId ?? ROOT + projectId;
}

/** A value computed from one list of the data set, recomputed when the list is replaced or its length changes. */
class ListIndex<L extends readonly unknown[], T> {
  private list: L | undefined;
  private length = -1;
  private value: T | undefined;

  constructor(private readonly build: (list: L) => T) {}

  of(list: L): T {
    if (this.list !== list || this.length !== list.length || this.value === undefined) {
      this.value = this.build(list);
      this.list = list;
      this.length = list.length;
    }
    return this.value;
  }

  /** The list changed length and the value was kept current by the caller: it is not built again. */
  accept(list: L): void {
    if (this.list === list && this.value !== undefined) this.length = list.length;
  }
}

export interface WorkItemIndex {
  byId: Map<string, WorkItem>;
  /** Children IDs per parent key (deleted ones too), in data-set order. */
  children: Map<string, string[]>;
}

function byIdOf<T extends { id: string }>(list: readonly T[]): Map<string, T> {
  const m = new Map<string, T>();
  for (const x of list) m.set(x.id, x);
  return m;
}

export class DatasetIndexes {
  private readonly items = new ListIndex((list: WorkItem[]): WorkItemIndex => {
    const byId = new Map<string, WorkItem>();
    const children = new Map<string, string[]>();
    for (const item of list) {
      byId.set(item.id, item);
      const key = parentKey(item.parentId, item.projectId);
      const siblings = children.get(key);
      if (siblings) siblings.push(item.id);
      else children.set(key, [item.id]);
    }
    return { byId, children };
  });
  private readonly users = new ListIndex((list: SandboxUser[]) => byIdOf(list));
  private readonly userNames = new ListIndex((list: SandboxUser[]) => {
    const keys: (keyof SandboxUser)[] = ['loginName', 'ldapLoginName', 'email', 'name'];
    return keys.map((k) => {
      const map = new Map<string, SandboxUser[]>();
      for (const u of list) {
        const v = u[k];
        if (u.isDeleted || typeof v !== 'string' || v === '') continue;
        const found = map.get(v);
        if (found) found.push(u);
        else map.set(v, [u]);
      }
      return map;
    });
  });
  private readonly groups = new ListIndex((list: UserGroup[]) => byIdOf(list));
  private readonly projects = new ListIndex((list: Project[]) => byIdOf(list));
  private readonly itemTypes = new ListIndex((list: ItemType[]) => byIdOf(list));
  private readonly statusTypes = new ListIndex((list: Classification[]) => byIdOf(list));
  private readonly processClassifications = new ListIndex((list: Classification[]) => byIdOf(list));
  private readonly workClassifications = new ListIndex((list: Classification[]) => byIdOf(list));
  private readonly liveCategories = new ListIndex((list: Dataset['processCategories']) => new Set(list.filter((c) => !c.isDeleted).map((c) => c.id)));
  private readonly links = new ListIndex((list: Dataset['scheduleLinks']) => {
    const m = new Map<string, string[]>();
    for (const l of list) {
      for (const end of [l.fromId, l.toId]) {
        const found = m.get(end);
        if (found) found.push(l.id);
        else m.set(end, [l.id]);
      }
    }
    return m;
  });

  /** The highest work item ID given or found so far (newWorkItemId). */
  private lastId: number | undefined;

  constructor(private readonly data: Dataset) {}

  workItems(): WorkItemIndex {
    return this.items.of(this.data.workItems);
  }
  /**
   * Items were added to (or taken from) the end of `workItems` and the work-item index
   * was kept current (WorkingSet.commit and its undo): the index is not built again.
   */
  acceptWorkItems(): void {
    this.items.accept(this.data.workItems);
  }
  /**
   * A new work item ID: decimal digits (official help section 3), one above the
   * highest decimal ID of the data set's work items (deleted ones included, so an
   * ID is never given twice), never "0". Counted once per data set, then kept.
   */
  newWorkItemId(): string {
    const byId = this.workItems().byId;
    if (this.lastId === undefined) {
      let max = 0;
      for (const id of byId.keys()) {
        if (/^\d{1,15}$/.test(id)) max = Math.max(max, Number(id));
      }
      this.lastId = max;
    }
    let next = this.lastId + 1;
    while (byId.has(String(next))) next++;
    this.lastId = next;
    return String(next);
  }
  usersById(): Map<string, SandboxUser> {
    return this.users.of(this.data.users);
  }
  usersByName(): Map<string, SandboxUser[]>[] {
    return this.userNames.of(this.data.users);
  }
  groupsById(): Map<string, UserGroup> {
    return this.groups.of(this.data.userGroups);
  }
  projectsById(): Map<string, Project> {
    return this.projects.of(this.data.projects);
  }
  itemTypesById(): Map<string, ItemType> {
    return this.itemTypes.of(this.data.itemTypes);
  }
  statusTypesById(): Map<string, Classification> {
    return this.statusTypes.of(this.data.statusTypes);
  }
  processClassificationsById(): Map<string, Classification> {
    return this.processClassifications.of(this.data.processClassifications);
  }
  workClassificationsById(): Map<string, Classification> {
    return this.workClassifications.of(this.data.workClassifications);
  }
  liveProcessCategories(): Set<string> {
    return this.liveCategories.of(this.data.processCategories);
  }
  /** Schedule-link IDs per work item (either end). */
  linksByItem(): Map<string, string[]> {
    return this.links.of(this.data.scheduleLinks);
  }
}

const cache = new WeakMap<Dataset, DatasetIndexes>();

/** The indexes of a data set (made once per data set object). */
export function indexesOf(data: Dataset): DatasetIndexes {
  let ix = cache.get(data);
  if (!ix) {
    ix = new DatasetIndexes(data);
    cache.set(data, ix);
  }
  return ix;
}
