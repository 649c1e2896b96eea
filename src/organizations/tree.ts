// The Organizations view: root organizations from the setting; under each, its
// sub-organizations (from the service's subOrganizations, official help O1; on a service
// without it, discovered from operation 2) and its direct users (operation 3), grouped into
// index ranges when there are many. Failed loads are rows with Retry.
//
// An organization's own row is drawn from what is known when the view asks for it (its
// name from its parent's answer, its user count once loaded) and is not announced again
// after a load whose rows the view got directly: announcing a node while the view fetches
// or reveals its rows made VS Code drop them (an expanded organization without rows, a
// revealed path left collapsed). VS Code delays a tree's announcements by up to 200 ms
// when another came just before, so "announced while the view still waits" was not
// guaranteed. What the code changes itself (Refresh, a filter, restoring expanded rows) is
// loaded first and announced after, so the view's request then gets the rows at once.
import * as vscode from 'vscode';
import type { AllAssignedUsersQuery, User } from '../schema/api';
import type { UserRow, UserRows } from '../api/userRows';
import type { ConnectionManager } from '../common/connection';
import { affects, readSettings } from '../common/config';
import { ContextKeys, setContext } from '../common/contextKeys';
import { belowFold, type OrgRef } from './model/discovery';
import { SubOrganizations } from './model/serviceTree';
import { allUsersQuery, directUsersQuery, isEmptyFilter, matchesKeyword, type UserFilter } from '../views/model/filters';
import { rangeChildren, rangePath, sortByName, type RangeChild } from '../views/model/ranges';
import { FIRST_ROWS_WAIT_MS } from '../views/model/loadable';
import { fieldsTooltip, loadStateRows, MessageNode, rangeTreeItem } from '../views/common';
import { OrgNode, RangeNode, UserNode, type OrgContent, type OrgTreeNode, type OrgNodeHost } from './nodes';
import { Disposable } from '../common/disposable';

/** The Organizations view's ID (package.json). */
export const ORGANIZATIONS_VIEW_ID = 'workItemStudio.organizations';

/**
 * How long the view's request for the roots waits for their loads (signed in), so that they
 * are drawn named and counted: longer than a level's wait, as nothing is shown before.
 */
const ROOTS_WAIT_MS = 20 * FIRST_ROWS_WAIT_MS;

/** The fields a user's tooltip shows; "Show Details" opens the others. */
export const USER_TOOLTIP_FIELDS = ['loginName', 'email', 'code', 'englishName', 'organizationName', 'id'] as const;

interface FilterEntry {
  filter: UserFilter;
  /** Organizations (below the filtered one) with at least one matching user: operation 2 with the filter. */
  matches?: Promise<Set<string>>;
}

export class OrganizationsTree extends Disposable implements vscode.TreeDataProvider<OrgTreeNode>, OrgNodeHost, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<OrgTreeNode | undefined | void>();
  readonly onDidChangeTreeData = this.emitter.event;
  private roots: OrgNode[] | undefined;
  private subs: SubOrganizations;
  /** Services for which the fallback to discovery from users was logged (said once per service). */
  private readonly fallbackLogged = new Set<string>();
  /** Filters by org node id; a filter applies to the node's whole subtree. */
  private readonly filters = new Map<string, FilterEntry>();
  /** Set by registerOrganizations: the view, for `message`. */
  view: vscode.TreeView<OrgTreeNode> | undefined;

  constructor(
    readonly connection: ConnectionManager,
    readonly log: vscode.LogOutputChannel,
    private readonly organizationIds: () => string[] = () => readSettings().organizations,
  ) {
    super();
    this.subs = this.newSubs();
    this.lastService = connection.current?.baseUrl;
    this.register(
      this.emitter,
      connection.onDidChange(() => this.connectionChanged()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        // Loaded roots are kept; rootNodes() adds and drops the others.
        if (affects(e, 'organizations')) this.fire();
      }),
    );
    void setContext(ContextKeys.hasOrganizations, this.organizationIds().length > 0);
  }

  fire(node?: OrgTreeNode): void {
    this.emitter.fire(node);
  }

  private lastService: string | undefined;

  /** Another service: start over. Signed in (again): reload only what failed. */
  private connectionChanged(): void {
    const service = this.connection.current?.baseUrl;
    if (service !== this.lastService) {
      this.lastService = service;
      this.refresh();
      return;
    }
    if (this.connection.isSignedIn) {
      this.retryFailed();
      // Roots listed before the sign-in: loaded now, so their rows are named and counted before they are expanded.
      if (this.roots) void this.preloadRoots(this.roots, 0);
    }
  }

  /** Reloads every organization whose load failed. */
  retryFailed(): void {
    const walk = (n: OrgNode): void => {
      const st = n.content.state;
      if (st.kind === 'failed') this.refresh(n);
      else if (st.kind === 'loaded') for (const s of st.value.subOrgs) walk(n.child(s));
    };
    for (const r of this.roots ?? []) walk(r);
  }

  // -------------------------------------------------------------------------
  // TreeDataProvider
  // -------------------------------------------------------------------------

  getTreeItem(node: OrgTreeNode): vscode.TreeItem {
    if (node instanceof MessageNode) return node.toTreeItem();
    if (node instanceof OrgNode) {
      const filtered = this.filters.has(node.id);
      const item = new vscode.TreeItem(node.name ?? node.orgId, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = node.id;
      item.iconPath = new vscode.ThemeIcon('organization');
      const st = node.content.state;
      const count = st.kind === 'loaded' ? userCount(st.value.users.length) : undefined;
      item.description = [node.name ? node.orgId : undefined, count, filtered ? vscode.l10n.t('(filtered)') : undefined].filter(Boolean).join(' · ');
      item.contextValue = `organization ${node.isRoot ? 'root' : 'sub'}${filtered ? ' filtered' : ''}`;
      // The tooltip is resolved on hover (resolveTreeItem): it gives the user count once loaded, without an announcement.
      return item;
    }
    if (node instanceof RangeNode) return rangeTreeItem(node, this.usersOf(node.org));
    const u = node.row;
    const item = new vscode.TreeItem(u.name, vscode.TreeItemCollapsibleState.None);
    item.id = node.id;
    item.description = u.isDeleted ? vscode.l10n.t('{0} (deleted)', u.loginName ?? '') : (u.loginName ?? '');
    item.iconPath = u.isDeleted ? new vscode.ThemeIcon('person', new vscode.ThemeColor('disabledForeground')) : new vscode.ThemeIcon('person');
    item.tooltip = fieldsTooltip(u.isDeleted ? vscode.l10n.t('{0} (deleted user)', u.name) : u.name, node.user, USER_TOOLTIP_FIELDS, `user-${u.id}`);
    item.contextValue = `user${u.isDeleted ? ' deleted' : ''}`;
    item.accessibilityInformation = {
      label: u.isDeleted ? vscode.l10n.t('{0}, login name {1}, deleted', u.name, u.loginName ?? '') : vscode.l10n.t('{0}, login name {1}', u.name, u.loginName ?? ''),
    };
    return item;
  }

  /** An organization's tooltip, on hover: its name, ID and user count (when loaded). */
  resolveTreeItem(item: vscode.TreeItem, node: OrgTreeNode): vscode.TreeItem {
    if (!(node instanceof OrgNode)) return item;
    const base = node.name ? vscode.l10n.t('Organization {0} ({1})', node.name, node.orgId) : vscode.l10n.t('Organization {0}', node.orgId);
    const st = node.content.state;
    item.tooltip = st.kind === 'loaded' ? `${base} · ${userCount(st.value.users.length)}` : base;
    return item;
  }

  /** An organization that loads within FIRST_ROWS_WAIT_MS is returned at once; a slower one is "Loading…" until announced. */
  async getChildren(node?: OrgTreeNode): Promise<OrgTreeNode[]> {
    if (!node) {
      const roots = this.rootNodes();
      await this.preloadRoots(roots, ROOTS_WAIT_MS);
      return roots;
    }
    if (node instanceof OrgNode) return this.orgChildren(node);
    if (node instanceof RangeNode) return this.spanChildren(node.org, node.start, node.end);
    return [];
  }

  getParent(node: OrgTreeNode): OrgTreeNode | undefined {
    if (node instanceof OrgNode) return node.parent;
    if (node instanceof MessageNode) return node.parentNode as OrgTreeNode | undefined;
    const org = node.org;
    const users = this.usersOf(org);
    if (!users) return org;
    const index = node instanceof UserNode ? node.index : node.start;
    const path = rangePath(users.length, index);
    if (node instanceof RangeNode) {
      // The range's parent is the range before it in the path (or the org).
      const at = path.findIndex((r) => r.start === node.start && r.end === node.end);
      const p = at > 0 ? path[at - 1]! : undefined;
      return p ? new RangeNode(org, p.start, p.end) : org;
    }
    const p = path[path.length - 1];
    return p ? new RangeNode(org, p.start, p.end) : org;
  }

  // -------------------------------------------------------------------------

  private rootNodes(): OrgNode[] {
    if (!this.connection.current) return [];
    const ids = [...new Set(this.organizationIds())];
    void setContext(ContextKeys.hasOrganizations, ids.length > 0);
    if (!this.roots || this.roots.map((r) => r.orgId).join('\n') !== ids.join('\n')) {
      const old = new Map((this.roots ?? []).map((r) => [r.orgId, r]));
      this.roots = ids.map((id) => old.get(id) ?? new OrgNode(this, id, undefined, undefined));
      for (const [id, node] of old) {
        if (!ids.includes(id)) {
          node.reset();
          for (const key of [...this.filters.keys()]) if (key === node.id || key.startsWith(`${node.id}/`)) this.filters.delete(key);
          this.updateMessage();
        }
      }
    }
    return this.roots;
  }

  /**
   * Starts the loads of the roots not loaded yet (signed in only: a load may ask to sign in)
   * and waits up to `ms` for them, so that the roots' rows are drawn named and counted. A
   * root still loading after the wait is announced when it is loaded, unless the view has
   * asked for its rows meanwhile (its "Loading…" row is then announced by the load itself,
   * or the view got the rows directly and must not be disturbed).
   */
  private async preloadRoots(roots: OrgNode[], ms: number): Promise<void> {
    if (!this.connection.isSignedIn) return;
    const pending: Promise<void>[] = [];
    for (const r of roots) {
      if (r.content.state.kind !== 'idle' || r.rowsAsked) continue;
      r.content.ensure();
      pending.push(r.content.settled());
    }
    if (pending.length === 0) return;
    const all = Promise.all(pending);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = await Promise.race([all.then(() => false), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), ms)))]);
    clearTimeout(timer);
    if (!late) return;
    for (const r of roots) {
      if (r.content.state.kind !== 'loading' || r.rowsAsked) continue;
      void r.content.settled().then(() => {
        if (!r.rowsAsked && r.content.state.kind !== 'idle') this.fire(r);
      });
    }
  }

  private async orgChildren(org: OrgNode): Promise<OrgTreeNode[]> {
    // Loaded during the wait: the rows themselves, and nothing announced (not even the
    // organization's own row: see the top of this file).
    org.rowsAsked = true;
    const st = await org.content.within();
    return loadStateRows(st, { parent: org, id: org.id }, () => this.refresh(org), (value): OrgTreeNode[] => {
      const subs = value.subOrgs.map((s) => org.child(s));
      const users = this.spanChildren(org, 0, value.users.length);
      if (subs.length === 0 && users.length === 0) {
        const text = this.effectiveFilter(org)
          ? vscode.l10n.t('No users match the filter.')
          : value.source === 'service'
            ? vscode.l10n.t('No users and no sub-organizations.')
            : vscode.l10n.t('No users, and no sub-organizations with users.');
        return [new MessageNode(org, `${org.id}/empty`, 'empty', text)];
      }
      return [...subs, ...users];
    });
  }

  private spanChildren(org: OrgNode, start: number, end: number): OrgTreeNode[] {
    const st = org.content.state;
    if (st.kind !== 'loaded') return [];
    const { users, list } = st.value;
    return rangeChildren(start, Math.min(end, users.length)).map((c: RangeChild) =>
      c.kind === 'range' ? new RangeNode(org, c.start, c.end) : new UserNode(org, c.index, users[c.index]!, list),
    );
  }

  private usersOf(org: OrgNode): UserRow[] | undefined {
    const st = org.content.state;
    return st.kind === 'loaded' ? st.value.users : undefined;
  }

  /** The filter in force for an org: its own, or the nearest filtered ancestor's. */
  effectiveFilter(org: OrgNode): { owner: OrgNode; entry: FilterEntry } | undefined {
    for (let n: OrgNode | undefined = org; n; n = n.parent) {
      const entry = this.filters.get(n.id);
      if (entry) return { owner: n, entry };
    }
    return undefined;
  }

  /**
   * Loads one organization: direct users (operation 3) and direct sub-organizations (the
   * service's subOrganizations, or operation 2 where the service has none).
   */
  async loadOrg(org: OrgNode, signal: AbortSignal): Promise<OrgContent> {
    const f = this.effectiveFilter(org);
    const filter = f?.entry.filter ?? {};
    const usersP = this.connection.run((c) => c.readOrganizationUsers(org.orgId, directUsersQuery(filter), { signal }), { signal, background: true });
    const subsP = this.subs.childrenOf(org.orgId, signal);
    const [list, subs] = await Promise.all([usersP, subsP]);
    if (list.rows.length > 0) this.subs.noteExists(org.orgId);
    let users = list.rows;
    // A keyword reads seven members: the users are decoded for it (a filtered list only).
    if (filter.keyword) users = users.filter((u) => matchesKeyword(list.user(u), filter.keyword));
    sortByName(users, vscode.env.language);
    let subOrgs = subs.refs;
    if (f) {
      // Only sub-organizations with a matching user in them or below them stay.
      const matches = await this.matchesOf(f.owner, f.entry, signal);
      const visible: OrgRef[] = [];
      for (const s of subs.refs) if (await this.subs.holdsAny(s.id, matches, signal)) visible.push(s);
      subOrgs = visible;
    }
    // The organization's name: the service's own, else learnt from its users.
    const named = this.subs.nameOf(org.orgId) ?? orgNameFromUsers(list, org.orgId);
    if (named && (!org.name || subs.source === 'service')) org.name = named;
    this.log.debug(
      `Organization ${org.orgId}: ${users.length} direct users, ${subOrgs.length} sub-organizations from ${subs.source === 'service' ? 'subOrganizations' : 'users'} (${this.subs.tree.requests} subOrganizations and ${this.subs.discovery.requests} discovery requests so far).`,
    );
    return { subOrgs, users, list, source: subs.source };
  }

  private matchesOf(owner: OrgNode, entry: FilterEntry, signal: AbortSignal): Promise<Set<string>> {
    entry.matches ??= this.summaryBelow(owner.orgId, allUsersQuery(entry.filter), signal).then((below) => new Set(below.keys()));
    entry.matches.catch(() => {
      entry.matches = undefined;
    });
    return entry.matches;
  }

  private newSubs(): SubOrganizations {
    return new SubOrganizations(
      (orgId, depth, signal) => this.connection.run((c) => c.getSubOrganizations(orgId, { depth }, { signal }), { signal, background: true }),
      (orgId, signal) => this.summaryBelow(orgId, {}, signal),
      (why) => {
        const service = this.connection.current?.baseUrl ?? '';
        if (this.fallbackLogged.has(service)) return;
        this.fallbackLogged.add(service);
        this.log.info(
          `${service} does not answer GET /system/organizations/{id}/subOrganizations (${why instanceof Error ? why.message : String(why)}): sub-organizations are found from their users (operations 2 and 3), so organizations without users are not shown.`,
        );
      },
    );
  }

  /**
   * The organizations below `orgId` from operation 2, read batch by batch into the
   * summary: the users themselves are never all held (a large organization's users
   * below it can be hundreds of thousands). A read that starts over starts afresh.
   */
  private async summaryBelow(orgId: string, query: AllAssignedUsersQuery, signal: AbortSignal | undefined): Promise<Map<string, { name: string; users: number }>> {
    const fold = belowFold(orgId);
    await this.connection.run((c) => c.foldAllAssignedUsers(orgId, query, fold.start, { signal }), { signal, background: true });
    return fold.below();
  }

  // -------------------------------------------------------------------------
  // Commands
  // -------------------------------------------------------------------------

  /**
   * Refreshes one organization (cancelling its request in flight) or everything. One
   * organization is loaded again first and announced once loaded (`reloaded`), so the view
   * gets its rows at once and its own row with its count.
   */
  refresh(org?: OrgNode): void {
    if (org) {
      this.resetSubtree(org);
      this.subs.clear(org.orgId);
      const f = this.filters.get(org.id);
      if (f) f.matches = undefined;
      this.reload(org);
      return;
    }
    for (const r of this.roots ?? []) this.resetSubtree(r);
    this.roots = undefined;
    this.subs = this.newSubs();
    for (const f of this.filters.values()) f.matches = undefined;
    this.updateMessage();
    this.fire();
  }

  private resetSubtree(org: OrgNode): void {
    org.reset();
  }

  /** The last reload of one organization (Refresh, a filter): resolves once it is loaded and announced. */
  reloaded: Promise<void> = Promise.resolve();

  /** Loads a reset organization, then announces it (unless the view asked for its rows meanwhile: see preloadRoots). */
  private reload(org: OrgNode): void {
    org.content.ensure();
    const done = org.content.settled().then(() => {
      if (!org.rowsAsked) this.fire(org);
    });
    this.reloaded = done;
    void vscode.window.withProgress({ location: { viewId: ORGANIZATIONS_VIEW_ID } }, () => done);
  }

  getFilter(org: OrgNode): UserFilter | undefined {
    return this.filters.get(org.id)?.filter;
  }

  setFilter(org: OrgNode, filter: UserFilter | undefined): void {
    const clearing = !filter || isEmptyFilter(filter);
    // What the user had expanded before the first filter on this organization comes back when it is cleared.
    if (!clearing && !this.filters.has(org.id)) this.expandedBeforeFilter.set(org.id, this.expandedUnder(org.id));
    if (clearing) this.filters.delete(org.id);
    else this.filters.set(org.id, { filter });
    this.updateMessage();
    org.reset();
    this.reload(org);
    if (clearing) {
      const before = this.expandedBeforeFilter.get(org.id);
      this.expandedBeforeFilter.delete(org.id);
      if (before) this.restored = this.reloaded.then(() => this.restoreExpansion(org, before));
    }
  }

  clearAllFilters(): void {
    const before = new Map(this.expandedBeforeFilter);
    this.expandedBeforeFilter.clear();
    this.filters.clear();
    this.updateMessage();
    this.refresh();
    const roots = this.rootNodes().filter((n): n is OrgNode => n instanceof OrgNode);
    const all = new Set([...before.values()].flatMap((ids) => [...ids]));
    for (const key of before.keys()) all.add(key);
    this.restored = Promise.all(roots.filter((r) => [...all].some((id) => id === r.id || id.startsWith(`${r.id}/`))).map((r) => this.restoreExpansion(r, all))).then((d) => d.flat());
  }

  // -------------------------------------------------------------------------
  // Expansion and reveal (Filter Users reveals the matches; clearing restores what was expanded)
  // -------------------------------------------------------------------------

  /** Ids of the nodes the user expanded (kept from the view's expand/collapse events). */
  private readonly expanded = new Set<string>();
  private readonly expandedBeforeFilter = new Map<string, Set<string>>();
  /** The last restoring of expanded nodes after a filter was cleared: the ids expanded again (tests wait for it). */
  restored: Promise<string[]> = Promise.resolve([]);

  /** Follows what the user expands and collapses in the view. */
  trackExpansion(view: vscode.TreeView<OrgTreeNode>): vscode.Disposable {
    return vscode.Disposable.from(
      view.onDidExpandElement((e) => {
        if (e.element instanceof OrgNode || e.element instanceof RangeNode) this.expanded.add(e.element.id);
      }),
      view.onDidCollapseElement((e) => {
        if (e.element instanceof OrgNode || e.element instanceof RangeNode) this.expanded.delete(e.element.id);
      }),
    );
  }

  /** Marks a node expanded (what the view reports when the user expands it). */
  noteExpanded(node: OrgNode | RangeNode, expanded: boolean): void {
    if (expanded) this.expanded.add(node.id);
    else this.expanded.delete(node.id);
  }

  private expandedUnder(id: string): Set<string> {
    return new Set([...this.expanded].filter((e) => e === id || e.startsWith(`${id}/`)));
  }

  /**
   * Expands again, level by level, the organizations and ranges below `org` that were
   * expanded (`ids`). Each is loaded before it is revealed, so the view gets its rows at
   * once and nothing needs announcing during the reveal. Returns the nodes it expanded.
   */
  async restoreExpansion(org: OrgNode, ids: ReadonlySet<string>, signal?: AbortSignal): Promise<string[]> {
    const done: string[] = [];
    const visit = async (node: OrgNode | RangeNode): Promise<void> => {
      if (signal?.aborted || !ids.has(node.id)) return;
      const owner = node instanceof OrgNode ? node : node.org;
      owner.content.ensure();
      await owner.content.settled();
      if (signal?.aborted) return;
      await this.view?.reveal(node, { expand: true, select: false, focus: false }).then(undefined, () => undefined);
      this.expanded.add(node.id);
      done.push(node.id);
      for (const child of await this.getChildren(node)) if (child instanceof OrgNode || child instanceof RangeNode) await visit(child);
    };
    await visit(org);
    return done;
  }

  /** Every user loaded so far (names for user IDs in documents and results). */
  *knownUsers(): Iterable<User> {
    const walk = function* (n: OrgNode): Iterable<User> {
      const st = n.content.state;
      if (st.kind !== 'loaded') return;
      for (const row of st.value.users) yield st.value.list.user(row);
      for (const s of st.value.subOrgs) yield* walk(n.child(s));
    };
    for (const r of this.roots ?? []) yield* walk(r);
  }

  /**
   * The first user that the filter in force lets through below `org` (its own users first, then
   * its sub-organizations in order), loading organizations on the way; undefined when none matches.
   */
  async firstMatch(org: OrgNode, signal?: AbortSignal): Promise<UserNode | undefined> {
    org.content.ensure();
    await org.content.settled();
    if (signal?.aborted) return undefined;
    const st = org.content.state;
    if (st.kind !== 'loaded') return undefined;
    const first = st.value.users[0];
    if (first) return new UserNode(org, 0, first, st.value.list);
    for (const s of st.value.subOrgs) {
      const found = await this.firstMatch(org.child(s), signal);
      if (found) return found;
    }
    return undefined;
  }

  get filterCount(): number {
    return this.filters.size;
  }

  /** The view's message: every active filter. */
  updateMessage(): void {
    void setContext(ContextKeys.organizationsFiltered, this.filters.size > 0);
    if (!this.view) return;
    if (this.filters.size === 0) {
      this.view.message = undefined;
      return;
    }
    const parts: string[] = [];
    for (const [id, e] of this.filters) {
      const name = this.findNode(id)?.name ?? id.split(/[/:]/).pop() ?? id;
      parts.push(vscode.l10n.t('{0}: {1}', name, describeUserFilter(e.filter)));
    }
    this.view.message = vscode.l10n.t('Filtered — {0}', parts.join('; '));
  }

  private findNode(id: string): OrgNode | undefined {
    const walk = (nodes: OrgNode[]): OrgNode | undefined => {
      for (const n of nodes) {
        if (n.id === id) return n;
        const st = n.content.state;
        if (st.kind === 'loaded' && id.startsWith(`${n.id}/`)) {
          const found = walk(st.value.subOrgs.map((s) => n.child(s)));
          if (found) return found;
        }
      }
      return undefined;
    };
    return walk(this.roots ?? []);
  }

  override dispose(): void {
    for (const r of this.roots ?? []) r.reset();
    super.dispose();
  }
}

export function describeUserFilter(f: UserFilter): string {
  const parts: string[] = [];
  if (f.name) parts.push(vscode.l10n.t('name contains "{0}"', f.name));
  if (f.code) parts.push(vscode.l10n.t('code contains "{0}"', f.code));
  if (f.englishName) parts.push(vscode.l10n.t('English name contains "{0}"', f.englishName));
  if (f.keyword) parts.push(vscode.l10n.t('keyword "{0}"', f.keyword));
  return parts.join(', ');
}

/** The organization's name as its users give it (a service without subOrganizations); the first that names it. */
function orgNameFromUsers(list: UserRows, orgId: string): string | undefined {
  for (const row of list.rows) {
    const u = list.user(row);
    if (u.organizationId === orgId && u.organizationName) return u.organizationName;
  }
  return undefined;
}

/** "1 user" / "{n} users" (one string each, so every language can word both). */
function userCount(n: number): string {
  return n === 1 ? vscode.l10n.t('1 user') : vscode.l10n.t('{0} users', String(n));
}
