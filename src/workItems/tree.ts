// The Work Items view: projects (paged, filtered, finished ones hidden on request),
// then each project's hierarchy, one level per expansion (subItems with the depth
// rule), large levels grouped into index ranges. Failed loads are rows with Retry;
// a service without the read operations gets one row saying so.
// Beside it: its nodes (nodes.ts) and how their rows are drawn (treeItems.ts).
import * as vscode from 'vscode';
import type { ConnectionManager } from '../common/connection';
import { ContextKeys, setContext } from '../common/contextKeys';
import { Disposable } from '../common/disposable';
import type { Project } from '../schema/reads';
import { describeError } from '../common/messages';
import { failureRow, followConnection, Loadable, loadMoreItem, loadStateRows, MessageNode, rangeTreeItem, textFilterParts } from '../views/common';
import { PagedLoader } from '../views/model/paging';
import { rangeChildren, rangePath, type RangeChild } from '../views/model/ranges';
import { TreeFieldPolicy } from './model/fieldPolicy';
import { Hierarchy, type WorkItemReads } from './model/hierarchy';
import { reorderedLevels } from './model/orderCheck';
import { PROFILE_INCLUDES, ProjectTypesCache } from './model/profiles';
import { projectsQuery, type ProjectListState } from './model/projects';
import { loadTreeLevel } from './model/treeLevel';
import type { WorkItemRow } from './model/rows';
import type { ProjectTypes } from './model/types';
import { isMissingRoute, LoadMoreProjectsNode, ProjectNode, WorkItemNode, WorkItemRangeNode, type LevelOwner, type WorkItemTreeNode } from './nodes';
import { leaderIdOf, workItemTooltip, type UserNames } from './tooltip';
import { projectTreeItem, workItemTreeItem } from './treeItems';
import { core } from '../core/load';

export { isMissingRoute, LoadMoreProjectsNode, ProjectNode, WorkItemNode, WorkItemRangeNode, type LevelOwner, type WorkItemTreeNode } from './nodes';

export const WORK_ITEMS_VIEW = 'workItemStudio.workItems';
const PROJECT_PAGE_SIZE = 100;

export class WorkItemsTree extends Disposable implements vscode.TreeDataProvider<WorkItemTreeNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<WorkItemTreeNode | WorkItemTreeNode[] | undefined | void>();
  readonly onDidChangeTreeData = this.emitter.event;
  readonly state: ProjectListState = { filter: {}, hideFinished: false };
  readonly hierarchy = new Hierarchy();
  /** Items checked (by Select Children / Select Subtree / Reveal, or by hand): what the commands act on when any are. */
  readonly checked = new Set<string>();
  private readonly pages = new PagedLoader<Project & { id: string }>(PROJECT_PAGE_SIZE, {
    fetch: (page, signal) => this.reads((c) => c.listProjects(projectsQuery(this.state, page), { signal }), signal) as Promise<{ totalCount: number; data: (Project & { id: string })[] }>,
    failed: (error) => this.log.warn(`Projects: ${describeError(error)}`),
    changed: () => this.changed(),
  });
  /** Projects shown although not (yet) in the loaded pages: revealed from a request document. */
  private readonly extraProjects = new Map<string, ProjectNode>();
  private readonly projectNodes = new Map<string, ProjectNode>();
  private readonly itemNodes = new Map<string, WorkItemNode>();
  /** Level loads by parent work item ID (the root folder's ID for a project). */
  private readonly levels = new Map<string, Loadable<WorkItemRow[]>>();
  /** The project of each level, by parent work item ID. */
  private readonly levelProjects = new Map<string, string>();
  /** Which `fields=` the reads ask, and the fallback when a service refuses a name. */
  readonly fieldPolicy: TreeFieldPolicy;
  /** Item types and statuses of each project: its profile, or the answers' shape. */
  readonly types: ProjectTypesCache;
  view: vscode.TreeView<WorkItemTreeNode> | undefined;

  constructor(
    readonly connection: ConnectionManager,
    readonly log: vscode.LogOutputChannel,
    /** Users by ID for the leader's name (src/people); IDs only without. */
    readonly users?: UserNames,
  ) {
    super();
    this.fieldPolicy = new TreeFieldPolicy((m) => log.warn(m));
    this.types = new ProjectTypesCache(
      (projectId, signal) =>
        this.reads((c) => (c.getProjectProfile ? c.getProjectProfile(projectId, PROFILE_INCLUDES, { signal }) : Promise.resolve(undefined)), signal),
      (m) => log.info(m),
      describeError,
    );
    this.register(
      this.emitter,
      followConnection(connection, {
        serviceChanged: () => {
          // Another service: its IDs mean other items, so nothing stays checked.
          this.checked.clear();
          this.fieldPolicy.reset();
          this.refresh();
        },
        signedIn: () => this.retryFailed(),
      }),
    );
  }

  /** The read operations of the client in use (signs in first when needed). */
  reads<T>(read: (c: WorkItemReads) => Promise<T>, signal?: AbortSignal): Promise<T> {
    return this.connection.run((c) => read(c), { signal, background: true });
  }

  fire(node?: WorkItemTreeNode | WorkItemTreeNode[]): void {
    this.emitter.fire(node);
  }

  // -------------------------------------------------------------------------
  // TreeDataProvider
  // -------------------------------------------------------------------------

  getTreeItem(node: WorkItemTreeNode): vscode.TreeItem {
    if (node instanceof MessageNode) return node.toTreeItem();
    if (node instanceof LoadMoreProjectsNode) return loadMoreItem(node.id, this.pages.list.loaded.length, this.pages.list.totalCount, 'workItemStudio.loadMoreProjects');
    if (node instanceof ProjectNode) return projectTreeItem(node);
    if (node instanceof WorkItemRangeNode) return rangeTreeItem(node, this.rowsOf(node.owner));
    return workItemTreeItem(node, this);
  }

  /** What is known of the types of the item's project (its profile, or the answers' shape). */
  typesOf(itemId: string): ProjectTypes {
    return this.types.known(this.projectIdOf(itemId));
  }

  /** The project of a loaded work item (its level's project). */
  projectIdOf(itemId: string): string | undefined {
    const at = this.hierarchy.locate(itemId);
    return at ? this.levelProjects.get(at.parentId) : undefined;
  }

  /** The name of a loaded work item, or of a project's root folder (the project's name). */
  nameOf(id: string): string | undefined {
    const row = this.hierarchy.row(id);
    if (row) return row.name;
    for (const n of this.projectNodes.values()) if (n.rootId === id) return n.project.name;
    return undefined;
  }

  /** Whether a loaded row is a folder: the profile's item type, else the answers' shape (ProjectTypes). */
  isFolder(r: WorkItemRow): boolean {
    return this.typesOf(r.id).isFolder(r);
  }

  /**
   * Whether a row can be expanded: the help shows no HasChildren, so a row is expandable until
   * its level is read; then a folder stays expandable (an empty one says so) and an item found
   * without children is a leaf.
   */
  isExpandable(r: WorkItemRow): boolean {
    const kids = this.hierarchy.children(r.id);
    if (kids === undefined) return r.hasChildren ?? true;
    return kids.length > 0 || this.isFolder(r);
  }

  /** On hover: a leader not known yet is read (src/people) and the tooltip names them. */
  async resolveTreeItem(item: vscode.TreeItem, node: WorkItemTreeNode, token: vscode.CancellationToken): Promise<vscode.TreeItem> {
    if (!(node instanceof WorkItemNode) || !this.users?.resolve) return item;
    const leader = leaderIdOf(node.row);
    if (!leader || this.users.lookup(leader)) return item;
    if (!(await this.users.resolve([leader])) || token.isCancellationRequested) return item;
    const types = this.typesOf(node.row.id);
    item.tooltip = workItemTooltip(node.row, { types, users: this.users, folder: types.isFolder(node.row), nameOf: (id) => this.nameOf(id) });
    return item;
  }

  /** A level that loads within FIRST_ROWS_WAIT_MS is returned at once; a slower one is "Loading…" until announced. */
  async getChildren(node?: WorkItemTreeNode): Promise<WorkItemTreeNode[]> {
    if (!node) return this.rootRows();
    if (node instanceof ProjectNode) {
      const root = node.rootId;
      if (!root) return [new MessageNode(node, `${node.id}/noRoot`, 'info', vscode.l10n.t('The service did not name this project\'s root folder (workItemRootFolderId).'))];
      this.levelProjects.set(root, node.projectId);
      return this.levelRows(node, root, 0);
    }
    if (node instanceof WorkItemNode) return this.levelRows(node, node.itemId, node.row.level);
    if (node instanceof WorkItemRangeNode) return this.spanRows(node.owner, node.start, node.end);
    return [];
  }

  getParent(node: WorkItemTreeNode): WorkItemTreeNode | undefined {
    if (node instanceof ProjectNode || node instanceof LoadMoreProjectsNode) return undefined;
    if (node instanceof MessageNode) return node.parentNode as WorkItemTreeNode | undefined;
    if (node instanceof WorkItemRangeNode) {
      const rows = this.rowsOf(node.owner);
      if (!rows) return node.owner;
      const path = rangePath(rows.length, node.start);
      const at = path.findIndex((r) => r.start === node.start && r.end === node.end);
      const p = at > 0 ? path[at - 1]! : undefined;
      return p ? new WorkItemRangeNode(node.owner, p.start, p.end) : node.owner;
    }
    const at = this.hierarchy.locate(node.itemId);
    if (!at) return undefined;
    const owner = this.ownerOf(at.parentId);
    if (!owner) return undefined;
    const rows = this.hierarchy.children(at.parentId) ?? [];
    const p = rangePath(rows.length, at.index).pop();
    return p ? new WorkItemRangeNode(owner, p.start, p.end) : owner;
  }

  // -------------------------------------------------------------------------
  // Projects
  // -------------------------------------------------------------------------

  private rootRows(): WorkItemTreeNode[] {
    if (!this.connection.current) return [];
    if (!this.pages.list.started && this.pages.state.kind === 'idle') void this.loadMore();
    const rows: WorkItemTreeNode[] = this.pages.list.loaded.map((p) => this.projectNode(p));
    for (const [id, n] of this.extraProjects) if (!this.pages.list.loaded.some((p) => p.id === id)) rows.push(n);
    if (this.pages.state.kind === 'loading') rows.push(new MessageNode(undefined, 'projects/loading', 'loading', vscode.l10n.t('Loading…')));
    else if (this.pages.state.kind === 'failed') {
      const error = this.pages.failure;
      if (isMissingRoute(error)) {
        rows.push(
          new MessageNode(
            undefined,
            'projects/unsupported',
            'info',
            vscode.l10n.t('This service does not offer the work item read operations (GET /project/projects answered 404). Request documents and the other views work as before.'),
          ),
        );
      } else rows.push(failureRow(undefined, 'projects/error', error, () => this.retryProjects()));
    } else if (this.pages.list.started && this.pages.list.hasMore) rows.push(new LoadMoreProjectsNode());
    else if (this.pages.list.started && rows.length === 0) {
      const filtered = this.isFiltered;
      rows.push(new MessageNode(undefined, 'projects/empty', 'empty', filtered ? vscode.l10n.t('No projects match the filter.') : vscode.l10n.t('No projects.')));
    }
    return rows;
  }

  projectNode(p: Project): ProjectNode {
    const id = String(p.id);
    let n = this.projectNodes.get(id);
    if (!n) {
      n = new ProjectNode(this, p);
      this.projectNodes.set(id, n);
    } else n.project = p;
    return n;
  }

  get isFiltered(): boolean {
    const f = this.state.filter;
    return !!(f.name || f.code || f.keyword) || this.state.hideFinished;
  }

  get loadedProjects(): readonly Project[] {
    return this.pages.list.loaded;
  }

  /** Fetches the next page of projects (no-op while one loads or when all are loaded). */
  loadMore(): Promise<void> {
    return this.pages.loadMore();
  }

  /** Waits until no page is loading (tests, reveal). */
  async projectsSettled(): Promise<void> {
    await this.pages.settled();
  }

  get projectsFailed(): unknown {
    return this.pages.failure;
  }

  retryProjects(): void {
    this.pages.clearFailure();
    void this.loadMore();
    this.changed();
  }

  /** Call after changing `state`: the list starts over with the new query. */
  queryChanged(): void {
    this.pages.reset();
    this.changed();
  }

  /** A project by ID: from the pages loaded, or one GET (shown after the list until the list has it). */
  async ensureProject(projectId: string, signal?: AbortSignal): Promise<ProjectNode | undefined> {
    const loaded = this.pages.list.loaded.find((p) => p.id === projectId);
    if (loaded) return this.projectNode(loaded);
    const extra = this.extraProjects.get(projectId);
    if (extra) return extra;
    const [p] = await this.reads((c) => c.getProjects([projectId], { signal }), signal);
    if (!p) return undefined;
    const n = this.projectNode(p);
    this.extraProjects.set(projectId, n);
    this.fire();
    return n;
  }

  private changed(): void {
    void setContext(ContextKeys.workItemsFiltered, this.isFiltered);
    void setContext(ContextKeys.workItemsHideFinished, this.state.hideFinished);
    this.updateMessage();
    this.fire();
  }

  // -------------------------------------------------------------------------
  // Levels
  // -------------------------------------------------------------------------

  /** The load of the children of `parentId` (on `level`); created on first use. */
  level(parentId: string, level: number): Loadable<WorkItemRow[]> {
    let l = this.levels.get(parentId);
    if (!l) {
      if (!this.levelProjects.has(parentId)) {
        const projectId = this.projectIdOf(parentId);
        if (projectId !== undefined) this.levelProjects.set(parentId, projectId);
      }
      l = new Loadable(
        async (signal) => {
          const projectId = this.levelProjects.get(parentId);
          // The profile (once per project) and the level at the same time: neither waits for the other.
          const { rows } = await this.reads((c) => loadTreeLevel(c, { types: this.types, fields: this.fieldPolicy }, { id: parentId, level }, projectId, signal), signal);
          this.hierarchy.setLevel(parentId, rows);
          return rows;
        },
        () => {
          const owner = this.ownerOf(parentId);
          this.fire(owner);
        },
        this.log,
      );
      this.levels.set(parentId, l);
    }
    return l;
  }

  /** Loads the children of an owner and waits for them (reveal, Select Children, tests). */
  async loadChildren(owner: LevelOwner): Promise<WorkItemRow[]> {
    const parentId = owner instanceof ProjectNode ? owner.rootId : owner.itemId;
    if (!parentId) return [];
    if (owner instanceof ProjectNode) this.levelProjects.set(parentId, owner.projectId);
    const l = this.level(parentId, owner instanceof ProjectNode ? 0 : owner.row.level);
    l.ensure();
    await l.settled();
    if (l.state.kind === 'failed') throw l.state.error;
    return l.state.kind === 'loaded' ? l.state.value : [];
  }

  private async levelRows(owner: LevelOwner, parentId: string, level: number): Promise<WorkItemTreeNode[]> {
    // Read during the wait and empty: an item (not a folder) loses its twistie, so its own row is announced.
    const st = await this.level(parentId, level).within(undefined, (now) => {
      if (now.kind === 'loaded' && now.value.length === 0 && owner instanceof WorkItemNode && !this.isFolder(owner.row)) this.fire(owner);
    });
    return loadStateRows<WorkItemRow[], WorkItemTreeNode>(
      st,
      { parent: owner, id: owner.id },
      () => this.reloadLevel(parentId),
      (rows) => {
        if (rows.length === 0) {
          // An item found without children is a leaf (its row loses the twistie when re-rendered); a folder says it is empty.
          if (owner instanceof WorkItemNode && !this.isFolder(owner.row)) return [];
          return [new MessageNode(owner, `${owner.id}/empty`, 'empty', vscode.l10n.t('No work items.'))];
        }
        return this.spanRows(owner, 0, rows.length);
      },
    );
  }

  private spanRows(owner: LevelOwner, start: number, end: number): WorkItemTreeNode[] {
    const rows = this.rowsOf(owner);
    if (!rows) return [];
    return rangeChildren(start, Math.min(end, rows.length)).map((c: RangeChild) =>
      c.kind === 'range' ? new WorkItemRangeNode(owner, c.start, c.end) : this.itemNode(rows[c.index]!),
    );
  }

  rowsOf(owner: LevelOwner): WorkItemRow[] | undefined {
    const parentId = owner instanceof ProjectNode ? owner.rootId : owner.itemId;
    return parentId ? this.hierarchy.children(parentId) : undefined;
  }

  itemNode(row: WorkItemRow): WorkItemNode {
    let n = this.itemNodes.get(row.id);
    if (!n) {
      n = new WorkItemNode(this, row);
      this.itemNodes.set(row.id, n);
    } else n.row = row;
    return n;
  }

  /** The node of a loaded work item (undefined when its level is not loaded). */
  nodeOf(id: string): WorkItemNode | undefined {
    const row = this.hierarchy.row(id);
    return row ? this.itemNode(row) : undefined;
  }

  /** The node whose children are the level of `parentId`: a project (root folder) or a work item. */
  ownerOf(parentId: string): LevelOwner | undefined {
    for (const n of this.projectNodes.values()) if (n.rootId === parentId) return n;
    return this.nodeOf(parentId);
  }

  /** The level of a loaded item, or 0 for a project's root folder; undefined when not known. */
  levelOf(itemId: string): number | undefined {
    for (const n of this.projectNodes.values()) if (n.rootId === itemId) return 0;
    return this.hierarchy.row(itemId)?.level;
  }

  /** Reloads one level (cancelling its load in flight); levels below it load again when expanded. */
  /** Whether the tree shows this item (it was read in a level). */
  shows(id: string): boolean {
    return this.hierarchy.locate(id) !== undefined;
  }

  /** Whether this ID's children were read (a level of the tree: a project's root folder or an item). */
  isLevelRoot(id: string): boolean {
    return this.levels.has(id);
  }

  reloadLevel(parentId: string): void {
    const l = this.levels.get(parentId);
    l?.reset();
    this.forgetBelow(parentId);
    const owner = this.ownerOf(parentId);
    this.fire(owner);
  }

  private forgetBelow(parentId: string): void {
    const rows = this.hierarchy.children(parentId) ?? [];
    for (const r of rows) {
      const l = this.levels.get(r.id);
      if (l) {
        l.reset();
        this.levels.delete(r.id);
        this.forgetBelow(r.id);
      }
      // What was learned of its children (none: a leaf) is read again too.
      this.hierarchy.forget(r.id);
    }
  }

  /** Reloads every level and page whose load failed (after signing in). */
  retryFailed(): void {
    if (this.pages.state.kind === 'failed') this.retryProjects();
    for (const [id, l] of this.levels) if (l.state.kind === 'failed') this.reloadLevel(id);
  }

  /** Refreshes one project or work item (its level), or everything. */
  refresh(owner?: LevelOwner): void {
    if (owner) {
      const parentId = owner instanceof ProjectNode ? owner.rootId : owner.itemId;
      if (parentId) this.reloadLevel(parentId);
      return;
    }
    for (const l of this.levels.values()) l.reset();
    this.levels.clear();
    this.levelProjects.clear();
    this.types.clear();
    this.fieldPolicy.reset();
    this.hierarchy.clear();
    this.itemNodes.clear();
    this.projectNodes.clear();
    this.extraProjects.clear();
    this.queryChanged();
  }

  // -------------------------------------------------------------------------
  // After an update: the rows of the items it changed
  // -------------------------------------------------------------------------

  /**
   * Reads the loaded ones among `ids` again (one batched GET per URL budget) and
   * shows the new values in place; levels whose order or membership changed reload.
   * Returns the IDs updated in place.
   */
  async refreshItems(ids: readonly string[], maxUrlLength?: number): Promise<string[]> {
    const loaded = [...new Set(ids)].filter((id) => this.hierarchy.locate(id));
    if (loaded.length === 0) return [];
    const r = await this.fieldPolicy.read(this.fieldPolicy.fieldsFor(), (fields) =>
      this.connection.run((c) => core().readWorkItems(c, loaded, { fields, maxUrlLength }), { background: true }),
    );
    const { updated, reload } = this.hierarchy.apply(r.items, r.missing);
    // The help shows no order field: an order changed among the same siblings shows in a level's answer only.
    const { reordered, reads: orderReads } = await reorderedLevels(
      (read) => this.connection.run((c) => read(c), { background: true }),
      this.hierarchy,
      updated,
      new Set(reload),
      (id) => this.levelOf(id),
      (parentId, e) => this.log.info(`Work items: the order below ${parentId} could not be checked: ${describeError(e)}`),
    );
    reload.push(...reordered);
    this.log.info(`Work items: ${updated.length} rows refreshed after the update (${r.requests + orderReads} GET), ${reload.length} levels reloaded.`);
    const nodes = updated.map((id) => this.nodeOf(id)).filter((n): n is WorkItemNode => !!n);
    if (nodes.length > 0) this.fire(nodes);
    for (const p of reload) this.reloadLevel(p);
    return updated;
  }

  // -------------------------------------------------------------------------
  // Checked items
  // -------------------------------------------------------------------------

  /** Replaces (or adds to) the checked items; re-renders the rows that changed. */
  setChecked(ids: Iterable<string>, mode: 'replace' | 'add' | 'remove' = 'replace'): void {
    const before = new Set(this.checked);
    if (mode === 'replace') this.checked.clear();
    for (const id of ids) {
      if (mode === 'remove') this.checked.delete(id);
      else this.checked.add(id);
    }
    const changed = new Set<string>();
    for (const id of before) if (!this.checked.has(id)) changed.add(id);
    for (const id of this.checked) if (!before.has(id)) changed.add(id);
    const nodes = [...changed].map((id) => this.nodeOf(id)).filter((n): n is WorkItemNode => !!n);
    if (nodes.length > 0) this.fire(nodes);
    this.updateMessage();
  }

  updateMessage(): void {
    void setContext(ContextKeys.workItemsChecked, this.checked.size > 0);
    if (!this.view) return;
    const parts = textFilterParts(this.state.filter);
    if (this.state.hideFinished) parts.push(vscode.l10n.t('finished projects hidden'));
    if (this.checked.size > 0) parts.push(this.checked.size === 1 ? vscode.l10n.t('1 work item checked') : vscode.l10n.t('{0} work items checked', String(this.checked.size)));
    this.view.message = parts.length > 0 ? parts.join(' — ') : undefined;
  }

  override dispose(): void {
    this.pages.abort();
    for (const l of this.levels.values()) l.reset();
    super.dispose();
  }
}
