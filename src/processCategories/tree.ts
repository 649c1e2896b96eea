// The Process Categories view: pages of `limit`/`offset` with a "Load More" row,
// Load All (progress + cancel), order, filter and deleted-record options.
import * as vscode from 'vscode';
import type { ProcessCategory } from '../schema/api';
import { abortOn } from '../common/abortOn';
import type { ConnectionManager } from '../common/connection';
import { Disposable } from '../common/disposable';
import { affects, readSettings } from '../common/config';
import { ContextKeys, setContext } from '../common/contextKeys';
import { describeError } from '../common/messages';
import { isCancellation } from '../common/commands';
import { categoriesQuery, isEmptyFilter, type CategoryQueryState } from '../views/model/filters';
import { PagedLoader } from '../views/model/paging';
import { swatchDataPath, toHexColor } from '../views/model/colors';
import { isUserId, type KnownUser } from '../common/model/users';
import { failureRow, fieldsTooltip, followConnection, loadMoreItem, MessageNode, textFilterParts, type ActionableNode } from '../views/common';

/** What the tree needs of the people directory. */
export interface CategoryUsers {
  lookup(id: string): KnownUser | undefined;
  resolve(ids: Iterable<string>): Promise<boolean>;
}

export class CategoryNode implements ActionableNode {
  readonly kind = 'category';
  readonly id: string;
  constructor(readonly category: ProcessCategory) {
    this.id = `category:${category.id}`;
  }
  copyId(): string {
    return this.category.id;
  }
  details(): { title: string; value: unknown } {
    return { title: `process-category-${this.category.id}`, value: this.category };
  }
}

export class LoadMoreNode {
  readonly kind = 'loadMore';
  readonly id = 'categories/loadMore';
}

export type CategoryTreeNode = CategoryNode | LoadMoreNode | MessageNode;

export class ProcessCategoriesTree extends Disposable implements vscode.TreeDataProvider<CategoryTreeNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<CategoryTreeNode | undefined | void>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly pages: PagedLoader<ProcessCategory>;
  private readonly nodes = new Map<string, CategoryNode>();
  readonly state: CategoryQueryState = { filter: {}, deleted: 'hide' };
  view: vscode.TreeView<CategoryTreeNode> | undefined;

  constructor(
    readonly connection: ConnectionManager,
    readonly log: vscode.LogOutputChannel,
    private readonly pageSize: () => number = () => readSettings().processCategoriesPageSize,
    /** The people directory: the tooltip's createdBy / updatedBy shown by name. */
    private readonly users?: CategoryUsers,
  ) {
    super();
    this.pages = new PagedLoader<ProcessCategory>(this.pageSize(), {
      fetch: (page, signal) => this.connection.run((c) => c.listProcessCategories(categoriesQuery(this.state, page), { signal }), { signal, background: true }),
      failed: (error) => {
        if (!isCancellation(error)) this.log.warn(`Process categories: ${describeError(error)}`);
      },
      changed: () => this.changed(),
      announceStart: true,
    });
    this.register(
      this.emitter,
      followConnection(connection, {
        serviceChanged: () => this.refresh(),
        signedIn: () => {
          if (this.pages.state.kind === 'failed') this.retry();
        },
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (affects(e, 'processCategories.pageSize')) this.refresh();
      }),
    );
  }

  getTreeItem(node: CategoryTreeNode): vscode.TreeItem {
    if (node instanceof MessageNode) return node.toTreeItem();
    if (node instanceof LoadMoreNode) return loadMoreItem(node.id, this.pages.list.loaded.length, this.pages.list.totalCount, 'workItemStudio.loadMoreProcessCategories');
    const c = node.category;
    const item = new vscode.TreeItem(c.name, vscode.TreeItemCollapsibleState.None);
    item.id = node.id;
    const deleted = c.isDeleted === true;
    item.description = [c.code || undefined, deleted ? vscode.l10n.t('deleted') : undefined].filter(Boolean).join(' · ');
    const hex = toHexColor(c.color);
    item.iconPath = hex
      ? vscode.Uri.from({ scheme: 'data', path: swatchDataPath(hex, { deleted }) })
      : new vscode.ThemeIcon(deleted ? 'trash' : 'symbol-color');
    item.tooltip = this.tooltip(c);
    item.contextValue = `processCategory${deleted ? ' deleted' : ''}`;
    return item;
  }

  private tooltip(c: ProcessCategory): vscode.MarkdownString {
    const title = c.isDeleted === true ? vscode.l10n.t('{0} (deleted)', c.name) : c.name;
    return fieldsTooltip(title, c, undefined, title, (id) => this.users?.lookup(id)?.name);
  }

  /** On hover: the users the category names are read when not known yet, then the tooltip shows their names. */
  async resolveTreeItem(item: vscode.TreeItem, node: CategoryTreeNode): Promise<vscode.TreeItem> {
    if (!(node instanceof CategoryNode) || !this.users) return item;
    const ids = [node.category.createdBy, node.category.updatedBy].filter((v): v is string => typeof v === 'string' && isUserId(v));
    if (ids.length > 0 && (await this.users.resolve(ids.map((v) => v.trim())))) item.tooltip = this.tooltip(node.category);
    return item;
  }

  getChildren(node?: CategoryTreeNode): CategoryTreeNode[] {
    if (node) return [];
    if (!this.connection.current) return [];
    if (!this.pages.list.started && this.pages.state.kind === 'idle') void this.loadMore(); // never rejects: a failure is a row
    const rows: CategoryTreeNode[] = this.pages.list.loaded.map((c) => this.node(c));
    if (this.pages.state.kind === 'loading') rows.push(new MessageNode(undefined, 'categories/loading', 'loading', vscode.l10n.t('Loading…')));
    else if (this.pages.state.kind === 'failed') rows.push(failureRow(undefined, 'categories/error', this.pages.failure, () => this.retry()));
    else if (this.pages.list.started && this.pages.list.hasMore) rows.push(new LoadMoreNode());
    else if (this.pages.list.started && this.pages.list.loaded.length === 0) {
      rows.push(
        new MessageNode(
          undefined,
          'categories/empty',
          'empty',
          this.isFiltered ? vscode.l10n.t('No process categories match the filter.') : vscode.l10n.t('No process categories.'),
        ),
      );
    }
    return rows;
  }

  getParent(): undefined {
    return undefined;
  }

  private node(c: ProcessCategory): CategoryNode {
    let n = this.nodes.get(c.id);
    if (!n || n.category !== c) {
      n = new CategoryNode(c);
      this.nodes.set(c.id, n);
    }
    return n;
  }

  get hasMore(): boolean {
    return this.pages.list.hasMore;
  }

  get loadedCount(): number {
    return this.pages.list.loaded.length;
  }

  get totalCount(): number | undefined {
    return this.pages.list.totalCount;
  }

  /** Whether rows are left out or added (filter, deleted mode); the sort order is not a filter. */
  get isFiltered(): boolean {
    return !isEmptyFilter(this.state.filter) || this.state.deleted !== 'hide';
  }

  /** "Clear Process Category Filter": the filter and the deleted mode go; the sort order stays. */
  clearFilter(): void {
    this.state.filter = {};
    this.state.deleted = 'hide';
    this.queryChanged();
  }

  /** Fetches the next page (no-op while one is loading or when all are loaded). Resolves when it settled. */
  loadMore(signal?: AbortSignal): Promise<void> {
    return this.pages.loadMore(signal);
  }

  /** Loads every remaining page; stops on cancel or on the first failure. */
  async loadAll(token?: vscode.CancellationToken, progress?: (loaded: number, total: number | undefined) => void): Promise<void> {
    const abort = abortOn(token);
    try {
      while (this.pages.list.hasMore && !abort.signal.aborted) {
        await this.loadMore(abort.signal);
        if (this.pages.state.kind === 'failed') return;
        progress?.(this.pages.list.loaded.length, this.pages.list.totalCount);
      }
    } finally {
      abort.dispose();
    }
  }

  retry(): void {
    this.pages.clearFailure();
    void this.loadMore();
  }

  /** Starts over (cancelling the request in flight) with the current query state. */
  refresh(): void {
    this.pages.reset(this.pageSize());
    this.nodes.clear();
    this.changed();
  }

  /** Call after changing `state`. */
  queryChanged(): void {
    this.updateMessage();
    this.refresh();
  }

  private changed(): void {
    void setContext(ContextKeys.processCategoriesHasMore, this.pages.list.hasMore && !!this.connection.current);
    this.updateMessage();
    this.emitter.fire();
  }

  updateMessage(): void {
    void setContext(ContextKeys.processCategoriesFiltered, this.isFiltered);
    if (!this.view) return;
    const parts = textFilterParts(this.state.filter);
    if (this.state.deleted === 'include') parts.push(vscode.l10n.t('deleted included'));
    if (this.state.deleted === 'only') parts.push(vscode.l10n.t('deleted only'));
    if (this.state.orderBy) {
      parts.push(
        this.state.orderBy.direction === 'desc'
          ? vscode.l10n.t('sorted by {0}, descending', this.state.orderBy.field)
          : vscode.l10n.t('sorted by {0}, ascending', this.state.orderBy.field),
      );
    }
    const total = this.pages.list.totalCount;
    const counts = total !== undefined ? vscode.l10n.t('{0} of {1}', String(this.pages.list.loaded.length), String(total)) : undefined;
    const text = [parts.length ? parts.join(', ') : undefined, parts.length && counts ? counts : undefined].filter(Boolean).join(' — ');
    this.view.message = text || undefined;
  }

  override dispose(): void {
    this.pages.abort();
    super.dispose();
  }
}
