// The sidebar's tree providers inside a real extension host, against the sandbox:
// rows, a filter, Load More, a failed load's row and its Retry, reveal; organizations from the
// service's subOrganizations (official help O1), and from users where a service has none.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { createSandbox, generateDataset, type Sandbox } from '../../src/sandbox/index';
import { ConnectionManager, type SignInPrompts } from '../../src/common/connection';
import type { SecretStorageLike } from '../../src/common/secrets';
import { MessageNode } from '../../src/views/common';
import { OrgNode, RangeNode, UserNode } from '../../src/organizations/nodes';
import { OrganizationsTree } from '../../src/organizations/tree';
import { CategoryNode, LoadMoreNode, ProcessCategoriesTree, type CategoryTreeNode } from '../../src/processCategories/tree';
import { activateExtension, waitFor } from './support';

function memorySecrets(): SecretStorageLike & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, get: async (k) => data.get(k), store: async (k, v) => void data.set(k, v), delete: async (k) => void data.delete(k) };
}

/** Prompts that answer like a person signing in as `loginName`; counts how often they were asked. */
function scriptedPrompts(loginName = 'admin', password = 'password'): SignInPrompts & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    pickMethod: async (info, _preferred, reason) => {
      asked.push(`${reason}:${info.origin}`);
      return 'token';
    },
    askLoginName: async () => loginName,
    askPassword: async () => password,
    askToken: async () => undefined,
    askApiKey: async () => undefined,
  };
}

const log = vscode.window.createOutputChannel('Work Item Studio (views tests)', { log: true });

/** Queues a sandbox fault (/_sandbox/faults, sandbox only) for the next matching requests. */
async function injectFault(sandbox: Sandbox, spec: Record<string, unknown>): Promise<void> {
  const r = await fetch(`${sandbox.origin}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(spec) });
  assert.ok(r.ok, `fault not accepted: ${r.status}`);
}

async function clearFaults(sandbox: Sandbox): Promise<void> {
  await fetch(`${sandbox.origin}/_sandbox/faults`, { method: 'DELETE' });
}

type Tree<N> = { getChildren(n?: N): N[] | Promise<N[]> };

/** Children once no loading row is left (a load slower than the view's wait is announced when it ends). */
async function settled<N>(tree: Tree<N>, node?: N): Promise<N[]> {
  return waitFor('rows to finish loading', async () => {
    const rows = await tree.getChildren(node);
    return rows.some((r) => r instanceof MessageNode && r.kind === 'loading') ? undefined : rows;
  });
}

/** Records the nodes a tree announces as changed (undefined: the whole tree). */
function announcements<N>(tree: { onDidChangeTreeData?: vscode.Event<N | N[] | undefined | null | void> }): { nodes: unknown[]; dispose(): void } {
  const nodes: unknown[] = [];
  const sub = tree.onDidChangeTreeData!((e) => nodes.push(...(Array.isArray(e) ? e : [e])));
  return { nodes, dispose: () => sub.dispose() };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function labelOf<N>(tree: vscode.TreeDataProvider<N>, n: N): string {
  const item = tree.getTreeItem(n) as vscode.TreeItem;
  return typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
}

describe('views: organizations (sandbox)', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let connection: ConnectionManager;
  let tree: OrganizationsTree;
  let prompts: ReturnType<typeof scriptedPrompts>;

  before(async () => {
    sandbox = await createSandbox({ port: 0 });
    prompts = scriptedPrompts();
    connection = new ConnectionManager({ secrets: memorySecrets(), log, prompts, serviceUrl: () => sandbox.url });
    tree = new OrganizationsTree(connection, log, () => ['1001']);
  });
  after(async () => {
    tree?.dispose();
    connection?.dispose();
    await sandbox?.close();
  });

  it('signs in on first use and shows the root with its sub-organizations and users', async () => {
    const roots = await tree.getChildren();
    assert.equal(roots.length, 1);
    const root = roots[0] as OrgNode;
    const rows = await settled(tree, root);
    assert.deepEqual(prompts.asked, [`missing:${sandbox.origin}`], 'asked to sign in once');
    const subs = rows.filter((r): r is OrgNode => r instanceof OrgNode).map((r) => r.orgId).sort();
    assert.deepEqual(subs, ['1002', '1003', '1004', '1015'], 'from subOrganizations: 1015 has no users, 1016 is deleted');
    assert.equal(labelOf(tree, root), '株式会社サンプル', 'the root is named by the service');
    const dev = rows.find((r): r is OrgNode => r instanceof OrgNode && r.orgId === '1002')!;
    const devRows = await settled(tree, dev);
    assert.deepEqual(
      devRows.filter((r): r is OrgNode => r instanceof OrgNode).map((r) => r.orgId).sort(),
      ['1005', '1006'],
    );
  });

  it('an organization without users is shown, named by the service, with its own empty row (official help O1)', async () => {
    const root = (await tree.getChildren())[0] as OrgNode;
    const empty = (await settled(tree, root)).find((r): r is OrgNode => r instanceof OrgNode && r.orgId === '1015')!;
    assert.equal(labelOf(tree, empty), '新規事業準備室');
    const rows = await settled(tree, empty);
    assert.equal(rows.length, 1);
    assert.ok(rows[0] instanceof MessageNode && rows[0].kind === 'empty');
    assert.equal(labelOf(tree, rows[0]), vscode.l10n.t('No users and no sub-organizations.'));
  });

  it('falls back to users\' organizations when the service has no subOrganizations, and says so once in the log @errors', async () => {
    const lines: string[] = [];
    const spy = new Proxy(log, {
      get: (target, key) => {
        if (key === 'info') return (m: string) => (lines.push(m), target.info(m));
        const v: unknown = Reflect.get(target, key, target);
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    await injectFault(sandbox, { status: 404, times: 100, pathContains: 'subOrganizations' });
    const c = new ConnectionManager({ secrets: memorySecrets(), log, prompts: scriptedPrompts(), serviceUrl: () => sandbox.url });
    const t = new OrganizationsTree(c, spy, () => ['1001']);
    try {
      const root = (await t.getChildren())[0] as OrgNode;
      const rows = await settled(t, root);
      assert.deepEqual(rows.filter((r): r is OrgNode => r instanceof OrgNode).map((r) => r.orgId).sort(), ['1002', '1003', '1004'], 'organizations with users only');
      assert.equal(labelOf(t, root), '株式会社サンプル', 'named from its users');
      const dev = rows.find((r): r is OrgNode => r instanceof OrgNode && r.orgId === '1002')!;
      assert.deepEqual((await settled(t, dev)).filter((r): r is OrgNode => r instanceof OrgNode).map((r) => r.orgId).sort(), ['1005', '1006']);
      const said = lines.filter((l) => l.includes('subOrganizations'));
      assert.equal(said.length, 1, lines.join('\n'));
      assert.match(said[0]!, /from their users/);
    } finally {
      t.dispose();
      c.dispose();
      await clearFaults(sandbox);
    }
  });

  it('shows users with name, login name, a tooltip and stable ids; getParent leads back', async () => {
    const root = (await tree.getChildren())[0] as OrgNode;
    const dev = (await settled(tree, root)).find((r): r is OrgNode => r instanceof OrgNode && r.orgId === '1002')!;
    const app = (await settled(tree, dev)).find((r): r is OrgNode => r instanceof OrgNode && r.orgId === '1005')!;
    const web = (await settled(tree, app)).find((r): r is OrgNode => r instanceof OrgNode && r.orgId === '1011')!;
    const users = (await settled(tree, web)).filter((r): r is UserNode => r instanceof UserNode);
    assert.ok(users.length > 0);
    const item = tree.getTreeItem(users[0]!) as vscode.TreeItem;
    assert.equal(item.label, users[0]!.user.name);
    assert.equal(item.description, users[0]!.user.loginName);
    assert.match(item.contextValue ?? '', /\buser\b/);
    assert.ok(item.tooltip instanceof vscode.MarkdownString && item.tooltip.value.includes('loginName'));
    // The main fields only, and "Show Details" for the rest (a link to the command with the whole user).
    const tip = item.tooltip.value;
    assert.match(tip, /\| email \|/);
    assert.doesNotMatch(tip, /\| (unitCost|timeEntryLockedDate|avatarUrl) \|/, 'the other fields are behind Show Details');
    const link = /\]\(command:workItemStudio\.showDetails\?([^)]+)\)/.exec(tip);
    assert.ok(link, tip);
    const [arg] = JSON.parse(decodeURIComponent(link[1]!)) as [{ detailsValue: { id: string; unitCost?: number } }];
    assert.equal(arg.detailsValue.id, users[0]!.user.id);
    assert.ok('unitCost' in arg.detailsValue || Object.keys(arg.detailsValue).length > 6, 'Show Details opens every field');
    assert.deepEqual((item.tooltip.isTrusted as { enabledCommands: string[] }).enabledCommands, ['workItemStudio.showDetails']);
    assert.equal(item.id, `org:1001/o:1002/o:1005/o:1011/u:${users[0]!.user.id}`);
    assert.equal((tree.getParent(users[0]!) as OrgNode).id, web.id);
    assert.equal((tree.getParent(web) as OrgNode).id, app.id);
  });

  it('filters the users of an organization and shows the filter in the view message', async () => {
    const root = (await tree.getChildren())[0] as OrgNode;
    tree.setFilter(root, { keyword: 'Tanaka' });
    const rows = await settled(tree, root);
    // Only sub-organizations with a matching user below them stay.
    const visible = rows.filter((r): r is OrgNode => r instanceof OrgNode).map((r) => r.orgId);
    assert.ok(visible.length >= 1 && visible.length < 3, `visible: ${visible.join(', ')}`);
    const walk = async (n: OrgNode): Promise<UserNode[]> => {
      const kids = await settled(tree, n);
      const users = kids.filter((k): k is UserNode => k instanceof UserNode);
      for (const k of kids) if (k instanceof OrgNode) users.push(...(await walk(k)));
      return users;
    };
    const found = await walk(root);
    assert.ok(found.length > 0);
    assert.ok(found.every((u) => JSON.stringify(u.user).toLowerCase().includes('tanaka')));
    tree.setFilter(root, undefined);
    assert.equal(tree.filterCount, 0);
  });

  it('after a filter, finds the first matching user below (loading organizations on the way); clearing it expands again what was expanded', async () => {
    const root = (await tree.getChildren())[0] as OrgNode;
    const rows = await settled(tree, root);
    const dev = rows.find((r): r is OrgNode => r instanceof OrgNode && r.orgId === '1002')!;
    const app = (await settled(tree, dev)).find((r): r is OrgNode => r instanceof OrgNode && r.orgId === '1005')!;
    // What the view reports as the user expands rows.
    tree.noteExpanded(root, true);
    tree.noteExpanded(dev, true);
    tree.noteExpanded(app, true);
    tree.setFilter(root, { keyword: 'Tanaka' });
    const first = await tree.firstMatch(root);
    assert.ok(first instanceof UserNode, 'a matching user');
    assert.match(JSON.stringify(first.user).toLowerCase(), /tanaka/);
    // Its parents lead back to the filtered organization (what reveal expands).
    const chain: string[] = [];
    for (let n: unknown = first; n; n = tree.getParent(n as UserNode)) chain.push((n as { id: string }).id);
    assert.equal(chain.at(-1), root.id);
    tree.setFilter(root, { keyword: 'no-such-user-anywhere' });
    assert.equal(await tree.firstMatch(root), undefined, 'no match: nothing to reveal');
    tree.setFilter(root, undefined);
    assert.deepEqual((await tree.restored).sort(), [root.id, dev.id, app.id].sort());
  });

  it('a failed load is a warning row with Retry, and Retry loads @errors', async () => {
    const root = (await tree.getChildren())[0] as OrgNode;
    tree.refresh();
    await injectFault(sandbox, { status: 500, times: 4, pathContains: '/users' });
    const failed = await settled(tree, (await tree.getChildren())[0] as OrgNode);
    assert.equal(failed.length, 1);
    const row = failed[0] as MessageNode;
    assert.ok(row instanceof MessageNode && row.kind === 'error', 'an error row, not an exception');
    const item = row.toTreeItem();
    assert.match(item.contextValue ?? '', /\bretryable\b/);
    assert.match(String(item.label), /500/);
    await clearFaults(sandbox);
    row.retry();
    const rows = await settled(tree, (await tree.getChildren())[0] as OrgNode);
    assert.ok(rows.some((r) => r instanceof OrgNode), 'loaded after Retry');
    void root;
  });

  it('an organization ready within the wait is returned at once: no "Loading…" row, nothing announced (not even its own row)', async () => {
    const root = (await tree.getChildren())[0] as OrgNode;
    await settled(tree, root); // signed in, nothing failing
    await sleep(100); // what that load announced is past
    tree.refresh(root);
    const heard = announcements<unknown>(tree);
    try {
      const started = Date.now();
      const rows = await tree.getChildren(root);
      const waited = Date.now() - started;
      const announcedBefore = [...heard.nodes];
      assert.ok(!rows.some((r) => r instanceof MessageNode), `the rows themselves: ${rows.map((r) => labelOf(tree, r)).join(' | ')}`);
      assert.ok(rows.some((r) => r instanceof OrgNode && r.orgId === '1002'), 'the sub-organizations');
      assert.ok(waited < 1_000, `answered as soon as loaded (${waited} ms)`);
      // Announcing a node while the view fetches its rows made VS Code drop them: nothing is announced.
      assert.deepEqual(announcedBefore, [], 'nothing announced before the rows were returned');
      await sleep(400);
      assert.deepEqual(heard.nodes, [], 'nothing announced after them either');
      assert.match(String((tree.getTreeItem(root) as vscode.TreeItem).description), /1001 · \d+ users?/, 'its row, drawn now, names the user count');
      // Asked again (as the view does for the announcement): the same rows at once.
      assert.ok(!(await tree.getChildren(root)).some((r) => r instanceof MessageNode));
      await sleep(200);
      assert.equal(heard.nodes.length, 0, 'asking again announces nothing');
    } finally {
      heard.dispose();
    }
  });

  it('Refresh loads the organization first and announces it once loaded; the view then gets its rows at once', async () => {
    const root = (await tree.getChildren())[0] as OrgNode;
    await settled(tree, root);
    await sleep(100);
    const heard = announcements<unknown>(tree);
    try {
      tree.refresh(root);
      assert.deepEqual(heard.nodes, [], 'not announced before it is loaded');
      await tree.reloaded;
      assert.deepEqual(heard.nodes, [root], 'announced once loaded');
      assert.match(String((tree.getTreeItem(root) as vscode.TreeItem).description), /1001 · \d+ users?/, 'its row names the user count');
      const started = Date.now();
      const rows = await tree.getChildren(root);
      assert.ok(!rows.some((r) => r instanceof MessageNode) && Date.now() - started < 50, 'the rows at once');
    } finally {
      heard.dispose();
    }
  });

  it('a slow organization (sandbox latency) shows "Loading…" after the wait, then is announced once and shows its rows', async () => {
    const root = (await tree.getChildren())[0] as OrgNode;
    await settled(tree, root);
    await sleep(100);
    await injectFault(sandbox, { latencyMs: 1_500, times: 1, pathContains: '/organizations/1001/users' });
    tree.refresh(root);
    const heard = announcements<unknown>(tree);
    try {
      const started = Date.now();
      const first = await tree.getChildren(root);
      const waited = Date.now() - started;
      assert.equal(first.length, 1);
      assert.ok(first[0] instanceof MessageNode && first[0].kind === 'loading', `a loading row: ${first.map((r) => labelOf(tree, r)).join(' | ')}`);
      assert.ok(waited >= 140 && waited < 1_400, `the view's request waited about 150 ms before the placeholder (${waited} ms)`);
      assert.deepEqual(heard.nodes, [], 'nothing announced while loading');
      await waitFor('the organization announced', () => heard.nodes.includes(root));
      const rows = await tree.getChildren(root);
      assert.ok(rows.some((r) => r instanceof OrgNode && r.orgId === '1002'), 'the rows after the announcement');
      await sleep(300);
      assert.equal(heard.nodes.filter((n) => n === root).length, 1, 'announced once');
    } finally {
      heard.dispose();
      await clearFaults(sandbox);
    }
  });

  it('groups 1,000 direct users into ranges that are views over one list', async () => {
    const data = { version: 2, organizations: [{ id: 'big', name: 'Big', parentId: null }], users: [] as object[] };
    data.users.push({ id: '2001', name: 'Admin', loginName: 'admin', organizationId: 'big' });
    for (let i = 1; i < 1000; i++) data.users.push({ id: `u${i}`, name: `User ${String(i).padStart(4, '0')}`, loginName: `user${i}`, organizationId: 'big' });
    const big = await createSandbox({ port: 0, data: data as never });
    const c = new ConnectionManager({ secrets: memorySecrets(), log, prompts: scriptedPrompts(), serviceUrl: () => big.url });
    const t = new OrganizationsTree(c, log, () => ['big']);
    try {
      const root = (await t.getChildren())[0] as OrgNode;
      const rows = await settled(t, root);
      assert.equal(rows.length, 10);
      assert.ok(rows.every((r) => r instanceof RangeNode));
      assert.equal(labelOf(t, rows[0]!), '[0..99]');
      const inner = await t.getChildren(rows[3]);
      assert.equal(inner.length, 100);
      const user = inner[5] as UserNode;
      assert.equal(user.index, 305);
      assert.equal((t.getParent(user) as RangeNode).id, (rows[3] as RangeNode).id, 'getParent of a user is its range');
      assert.equal((t.getParent(rows[3]!) as OrgNode).id, root.id);
    } finally {
      t.dispose();
      c.dispose();
      await big.close();
    }
  });

  it('shows nothing (the welcome view) when no service is configured', async () => {
    const c = new ConnectionManager({ secrets: memorySecrets(), log, prompts: scriptedPrompts(), serviceUrl: () => '' });
    const t = new OrganizationsTree(c, log, () => ['1001']);
    try {
      assert.deepEqual(await t.getChildren(), []);
    } finally {
      t.dispose();
      c.dispose();
    }
  });
});

describe('views: organizations, Add Organization offers what the service shows', function () {
  this.timeout(120_000);

  before(async () => {
    await activateExtension();
    await vscode.commands.executeCommand('workItemStudio.startSandbox');
  });

  it('offers the tree of the signed-in user\'s organization (users/me, subOrganizations: official help O1) and adds the one ticked', async () => {
    const config = vscode.workspace.getConfiguration('workItemStudio');
    const before = config.inspect<string[]>('organizations')?.globalValue;
    try {
      await config.update('organizations', ['1003'], vscode.ConfigurationTarget.Global);
      const r = (await vscode.commands.executeCommand('workItemStudio.addOrganization', undefined, { pick: ['1015', '1003', 'not-offered'] })) as { added: string[]; offered: string[] };
      assert.equal(r.offered[0], '1001', 'the top organization first (admin belongs to it)');
      assert.ok(r.offered.includes('1015'), 'an organization without users is offered');
      assert.ok(!r.offered.includes('1016'), 'a deleted one is not');
      assert.deepEqual(r.added, ['1015'], 'only an offered one not shown yet');
      assert.deepEqual(vscode.workspace.getConfiguration('workItemStudio').get('organizations'), ['1003', '1015']);
    } finally {
      await config.update('organizations', before, vscode.ConfigurationTarget.Global);
    }
  });
});

/** A createdBy that names a user ("0" names none). */
function isUserIdText(v: string | null | undefined): v is string {
  return typeof v === 'string' && v.trim() !== '' && v.trim() !== '0';
}

describe('views: process categories (sandbox)', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let connection: ConnectionManager;
  let tree: ProcessCategoriesTree;

  before(async () => {
    sandbox = await createSandbox({ port: 0 });
    connection = new ConnectionManager({ secrets: memorySecrets(), log, prompts: scriptedPrompts(), serviceUrl: () => sandbox.url });
    tree = new ProcessCategoriesTree(connection, log, () => 3);
  });
  after(async () => {
    tree?.dispose();
    connection?.dispose();
    await sandbox?.close();
  });

  it('loads a page, then Load More appends the next one', async () => {
    const first = await settled<CategoryTreeNode>(tree);
    const cats = first.filter((r) => r instanceof CategoryNode);
    assert.equal(cats.length, 3);
    assert.ok(first[first.length - 1] instanceof LoadMoreNode, 'a Load More row ends the page');
    await tree.loadMore();
    const second = await settled<CategoryTreeNode>(tree);
    assert.equal(second.filter((r) => r instanceof CategoryNode).length, 6);
    assert.equal(new Set(second.map((r) => r.id)).size, second.length, 'stable, unique ids');
  });

  it('Load All loads every page; deleted ones are marked when shown', async () => {
    tree.state.deleted = 'include';
    tree.queryChanged();
    await settled<CategoryTreeNode>(tree);
    await tree.loadAll();
    const rows = await settled<CategoryTreeNode>(tree);
    assert.ok(!rows.some((r) => r instanceof LoadMoreNode));
    const cats = rows.filter((r): r is CategoryNode => r instanceof CategoryNode);
    assert.equal(cats.length, tree.totalCount);
    const deleted = cats.filter((c) => c.category.isDeleted);
    assert.ok(deleted.length > 0, 'the demo has deleted categories');
    assert.match(tree.getTreeItem(deleted[0]!).contextValue ?? '', /\bdeleted\b/);
    const coloured = cats.find((c) => typeof c.category.color === 'string');
    if (coloured) assert.ok(tree.getTreeItem(coloured).iconPath instanceof vscode.Uri, 'a colour swatch icon');
    tree.state.deleted = 'hide';
    tree.queryChanged();
  });

  it('a category tooltip shows createdBy by name once the people directory knows the user', async () => {
    const names = new Map<string, { id: string; name: string }>();
    const asked: string[][] = [];
    const users = {
      lookup: (id: string) => names.get(id),
      resolve: async (ids: Iterable<string>) => {
        const list = [...ids];
        asked.push(list);
        for (const id of list) names.set(id, { id, name: `User ${id}` });
        return true;
      },
    };
    const named = new ProcessCategoriesTree(connection, log, () => 3, users);
    try {
      const cat = (await settled<CategoryTreeNode>(named)).find((r): r is CategoryNode => r instanceof CategoryNode && isUserIdText(r.category.createdBy))!;
      assert.ok(cat, 'the demo has a category with a creator');
      const id = cat.category.createdBy!;
      const before = named.getTreeItem(cat).tooltip as vscode.MarkdownString;
      assert.ok(!before.value.includes(`User ${id}`), 'no name before it is known');
      const item = await named.resolveTreeItem(named.getTreeItem(cat), cat);
      assert.ok(asked.some((l) => l.includes(id)), 'the creator was looked up');
      const tip = (item.tooltip as vscode.MarkdownString).value;
      assert.ok(tip.includes(`User ${id} \\(${id}\\)`), `the name beside the ID: ${tip}`);
    } finally {
      named.dispose();
    }
  });

  it('filters by keyword and orders ascending or descending', async () => {
    const all = (await settled<CategoryTreeNode>(tree)).filter((r): r is CategoryNode => r instanceof CategoryNode);
    const word = all[0]!.category.name.slice(0, 2);
    tree.state.filter = { keyword: word };
    tree.queryChanged();
    const rows = (await settled<CategoryTreeNode>(tree)).filter((r): r is CategoryNode => r instanceof CategoryNode);
    assert.ok(rows.length > 0);
    assert.ok(rows.every((r) => r.category.name.includes(word) || (r.category.code ?? '').includes(word)));
    assert.match(tree.view?.message ?? 'no view', /no view|\S/);
    tree.state.filter = {};
    const ids = async (direction: 'asc' | 'desc') => {
      tree.state.orderBy = { field: 'id', direction };
      tree.queryChanged();
      await settled<CategoryTreeNode>(tree);
      await tree.loadAll();
      return (await settled<CategoryTreeNode>(tree)).filter((r): r is CategoryNode => r instanceof CategoryNode).map((r) => r.category.id);
    };
    const asc = await ids('asc');
    const desc = await ids('desc');
    assert.deepEqual(desc, [...asc].reverse());
    tree.state.orderBy = undefined;
    tree.queryChanged();
  });

  it('Clear Filter removes the filter and the deleted mode but keeps the sort order', async () => {
    tree.state.orderBy = { field: 'name', direction: 'desc' };
    tree.state.filter = { keyword: 'x' };
    tree.state.deleted = 'only';
    tree.queryChanged();
    assert.equal(tree.isFiltered, true);
    tree.clearFilter();
    assert.deepEqual(tree.state.filter, {});
    assert.equal(tree.state.deleted, 'hide');
    assert.deepEqual(tree.state.orderBy, { field: 'name', direction: 'desc' });
    assert.equal(tree.isFiltered, false, 'a sort order alone is not a filter (no Clear Filter button for it)');
    await settled<CategoryTreeNode>(tree);
    tree.state.orderBy = undefined;
    tree.queryChanged();
    await settled<CategoryTreeNode>(tree);
  });

  it('a failed page is a warning row with Retry; Retry loads it @errors', async () => {
    await injectFault(sandbox, { status: 500, times: 5, pathContains: 'processCategories' });
    tree.refresh();
    const rows = await settled<CategoryTreeNode>(tree);
    const err = rows.find((r): r is MessageNode => r instanceof MessageNode && r.kind === 'error');
    assert.ok(err, `an error row: ${rows.map((r) => r.id).join(', ')}`);
    assert.match(err.toTreeItem().contextValue ?? '', /\bretryable\b/);
    await clearFaults(sandbox);
    err.retry();
    const again = await settled<CategoryTreeNode>(tree);
    assert.ok(again.some((r) => r instanceof CategoryNode));
  });

  it('refresh cancels the request in flight', async () => {
    await injectFault(sandbox, { latencyMs: 30_000, times: 1, pathContains: 'processCategories' });
    tree.refresh();
    const loading = tree.getChildren();
    assert.ok(loading.some((r) => r instanceof MessageNode && r.kind === 'loading'));
    // Let the slow request reach the sandbox (it holds it for 30 s), then refresh.
    await new Promise((r) => setTimeout(r, 500));
    tree.refresh();
    const rows = await waitFor('rows after refresh, without waiting for the cancelled request', () => {
      const r = tree.getChildren();
      return r.some((x) => x instanceof CategoryNode) ? r : undefined;
    }, 15_000);
    assert.ok(!rows.some((r) => r instanceof MessageNode && r.kind === 'error'), 'the cancelled request left no error row');
    await clearFaults(sandbox);
  });
});

describe('views: an organization whose answer is over the response cap', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let connection: ConnectionManager;
  let tree: OrganizationsTree;
  const config = () => vscode.workspace.getConfiguration('workItemStudio');

  before(async () => {
    // About 2 MiB of users in one organization; the cap is set to 1 MiB.
    sandbox = await createSandbox({ port: 0, data: generateDataset({ users: 3000, organizations: 1, workItems: 2, processCategories: 0, seed: 3 }) });
    await config().update('network.maxResponseMegabytes', 1, vscode.ConfigurationTarget.Global);
    connection = new ConnectionManager({ secrets: memorySecrets(), log, prompts: scriptedPrompts(), serviceUrl: () => sandbox.url });
    tree = new OrganizationsTree(connection, log, () => ['1']);
  });
  after(async () => {
    await config().update('network.maxResponseMegabytes', undefined, vscode.ConfigurationTarget.Global);
    tree?.dispose();
    connection?.dispose();
    await sandbox?.close();
  });

  it('shows one row naming the setting and the limit; with the setting raised, the users load', async () => {
    const root = (await tree.getChildren())[0] as OrgNode;
    const rows = await settled(tree, root);
    const error = rows.find((r): r is MessageNode => r instanceof MessageNode && r.kind === 'error');
    assert.ok(error, `an error row: ${rows.map((r) => labelOf(tree, r)).join(' | ')}`);
    const text = labelOf(tree, error);
    assert.match(text, /workItemStudio\.network\.maxResponseMegabytes/);
    assert.match(text, /\b1 MiB\b/);
    await config().update('network.maxResponseMegabytes', 256, vscode.ConfigurationTarget.Global);
    tree.refresh();
    const again = await settled(tree, (await tree.getChildren())[0] as OrgNode);
    assert.ok(again.some((r) => r instanceof RangeNode || r instanceof UserNode), again.map((r) => labelOf(tree, r)).join(' | '));
  });
});
