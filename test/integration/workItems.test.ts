// The Work Items view inside a real extension host, against the sandbox: the view's
// own tree expanded to level 3 through reveal, items selected and turned into a request
// document with "Update Selected Work Items…", sent, and the new values in the same rows;
// "Add to Request Document"; a failed level load's Retry row; a server without the reads.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';
import { ConnectionManager, type SignInPrompts } from '../../src/common/connection';
import type { SecretStorageLike } from '../../src/common/secrets';
import { MessageNode } from '../../src/views/common';
import { ConnectionStatusBar } from '../../src/common/statusBar';
import { ProjectNode, WorkItemNode, WorkItemsTree, type WorkItemTreeNode } from '../../src/workItems/tree';
import { activateExtension, closeUntitledDocuments, waitFor, replaceDocumentText } from './support';

const log = vscode.window.createOutputChannel('Work Item Studio (work items tests)', { log: true });

function memorySecrets(): SecretStorageLike {
  const data = new Map<string, string>();
  return { get: async (k) => data.get(k), store: async (k, v) => void data.set(k, v), delete: async (k) => void data.delete(k) };
}

function prompts(loginName: string | null = 'admin'): SignInPrompts {
  return { pickMethod: async () => 'token', askLoginName: async () => loginName ?? undefined, askPassword: async () => 'password', askToken: async () => undefined, askApiKey: async () => undefined };
}

/** Children once no loading row is left (a level slower than the view's wait is announced when it ends). */
async function settled(tree: WorkItemsTree, node?: WorkItemTreeNode): Promise<WorkItemTreeNode[]> {
  return waitFor('rows to finish loading', async () => {
    const rows = await tree.getChildren(node);
    return rows.some((r) => (r as { kind?: string }).kind === 'loading') ? undefined : rows;
  });
}

/** Records the nodes a tree announces as changed (undefined: the whole tree). */
function announcements(tree: WorkItemsTree): { nodes: unknown[]; dispose(): void } {
  const nodes: unknown[] = [];
  const sub = tree.onDidChangeTreeData((e) => nodes.push(...(Array.isArray(e) ? e : [e])));
  return { nodes, dispose: () => sub.dispose() };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function label(tree: WorkItemsTree, n: WorkItemTreeNode): string {
  const l = tree.getTreeItem(n).label;
  return typeof l === 'string' ? l : (l?.label ?? '');
}

describe('work items view (extension, sandbox)', function () {
  this.timeout(120_000);

  before(async () => {
    await activateExtension();
    await vscode.commands.executeCommand('workItemStudio.startSandbox');
    await vscode.commands.executeCommand('workItemStudio.workItems.focus');
  });

  after(async () => {
    await closeUntitledDocuments();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('reveals an item on level 3 in the view (loading the path), selects its children, updates them and shows the new values', async () => {
    // Reveal loads project → 100 (level 1) → 120 (level 2) → 121 (level 3), one level at a time.
    const revealed = (await vscode.commands.executeCommand('workItemStudio.revealWorkItems', { ids: ['121'] })) as WorkItemNode[];
    assert.equal(revealed.length, 1, 'item 121 was not found');
    const n121 = revealed[0]!;
    const tree = n121.tree;
    assert.equal(n121.row.level, 3);
    // (Nodes of the extension's own tree come from another bundle: compare by kind, not instanceof.)
    const parent = tree.getParent(n121) as WorkItemNode;
    assert.equal(parent.kind === 'workItem' && parent.itemId, '120', 'getParent of 121 is 120');
    const project = tree.getParent(tree.getParent(parent)!) as ProjectNode;
    assert.equal(project.kind, 'project', 'the chain ends at the project');
    assert.equal(project.rootId, '10');
    assert.ok(tree.checked.has('121'), 'the revealed item is checked');

    // The project's level 1 as a person expands it.
    const level1 = await settled(tree, project);
    assert.equal((level1[0] as WorkItemNode).itemId, '100');
    // Level 4 below 121.
    const children = (await settled(tree, n121)).filter((n): n is WorkItemNode => n.kind === 'workItem');
    assert.deepEqual(children.map((n) => n.itemId), ['122', '123', '127']);
    const [n122, n123] = children;
    assert.equal(label(tree, n122!), 'ヘッダー');
    const tooltip = tree.getTreeItem(n122!).tooltip as vscode.MarkdownString;
    assert.match(tooltip.value, /WEB\\-I\\-01\\-1/, 'the tooltip lists the code');

    // Update Selected Work Items… on the selected rows (the checked 121 is left alone: the clicked row is not checked).
    await vscode.commands.executeCommand('workItemStudio.clearCheckedWorkItems');
    const editor = (await vscode.commands.executeCommand('workItemStudio.updateSelectedWorkItems', n122, [n122, n123], { template: 'setProgress' })) as vscode.TextEditor;
    assert.ok(editor, 'no request document was opened');
    const doc = editor.document;
    const value = JSON.parse(doc.getText()) as { workItemIds: string[]; update: { fields: { ActualProgress: number } } };
    assert.deepEqual(value.workItemIds, ['122', '123']);
    assert.equal(value.update.fields.ActualProgress, 50);
    await replaceDocumentText(doc, doc.getText().replace(/"ActualProgress": 50/, '"ActualProgress": 37'));

    // Add to Request Document appends the other child without repeating the two.
    const n127 = children[2]!;
    const added = (await vscode.commands.executeCommand('workItemStudio.addToRequestDocument', n127, [n122, n127])) as { added: string[]; present: number };
    assert.deepEqual(added.added, ['127']);
    assert.equal(added.present, 1);
    assert.deepEqual((JSON.parse(doc.getText()) as { workItemIds: string[] }).workItemIds, ['122', '123', '127']);
    // 127 has children (its progress is theirs): send for 122 and 123 only.
    const text = doc.getText().replace(/,\s*"127"/, '');
    await replaceDocumentText(doc, text);

    const outcomes = (await vscode.commands.executeCommand('workItemStudio.sendUpdate', doc.uri)) as { result: { outcome: string; requests: unknown[] } }[];
    assert.equal(outcomes[0]?.result.outcome, 'succeeded', JSON.stringify(outcomes[0]?.result.requests));
    // The same rows show the new values (one batched GET after the send).
    await waitFor('the new progress in the rows of 122 and 123', () =>
      [n122!, n123!].every((n) => String(tree.getTreeItem(n).description).includes('37%')) ? true : undefined,
    );
    assert.equal(tree.nodeOf('122'), n122, 'the row is the same node, updated in place');
  });

  it('the tree shows a period from PlannedStartDate/PlannedFinishDate of a demo item (official help U2), the item type by name (P2)', async () => {
    const [n122] = (await vscode.commands.executeCommand('workItemStudio.revealWorkItems', { ids: ['122'] })) as WorkItemNode[];
    assert.ok(n122, 'item 122 was not found');
    const tree = n122.tree;
    const tooltip = (tree.getTreeItem(n122).tooltip as vscode.MarkdownString).value;
    // Demo item 122 (ヘッダー) is planned from 2026-03-02 to 2026-03-13; Markdown escapes the hyphens.
    assert.match(tooltip, /2026\\-03\\-02 – 2026\\-03\\-13/, tooltip);
    assert.match(tooltip, /作業 \\\(42\\\)/, 'the item type\'s name from the project\'s profile');
    // Folders from the profile's item types: 120 is a folder, 122 a task.
    const n120 = tree.nodeOf('120')!;
    assert.equal((tree.getTreeItem(n120).iconPath as vscode.ThemeIcon).id, 'folder');
    assert.notEqual((tree.getTreeItem(n122).iconPath as vscode.ThemeIcon).id, 'folder');
    // Whether a task has children is known once read: 122 has none and loses its twistie.
    assert.equal(tree.getTreeItem(n122).collapsibleState, vscode.TreeItemCollapsibleState.Collapsed, 'unknown until read');
    assert.deepEqual(await settled(tree, n122), []);
    await waitFor('122 to show no children', () => (tree.getTreeItem(n122).collapsibleState === vscode.TreeItemCollapsibleState.None ? true : undefined));
  });

  it('Select Children and Select Subtree (lowest level only) check a folder\'s items', async () => {
    const [n120] = (await vscode.commands.executeCommand('workItemStudio.revealWorkItems', { ids: ['120'] })) as WorkItemNode[];
    const tree = n120!.tree;
    await vscode.commands.executeCommand('workItemStudio.clearCheckedWorkItems');
    const children = (await vscode.commands.executeCommand('workItemStudio.selectChildren', n120)) as string[];
    assert.deepEqual(children, ['121', '124', '125', '126']);
    await vscode.commands.executeCommand('workItemStudio.clearCheckedWorkItems');
    const lowest = (await vscode.commands.executeCommand('workItemStudio.selectSubtree', n120, { lowestOnly: true })) as string[];
    assert.ok(lowest.includes('122') && lowest.includes('128') && lowest.includes('129'), `lowest-level items: ${lowest.join(', ')}`);
    assert.ok(!lowest.includes('121') && !lowest.includes('127'), 'items with sub-items are left out');
    assert.deepEqual([...tree.checked].sort(), [...lowest].sort());
    // Commands started without a row (title, key binding) act on the checked items.
    const editor = (await vscode.commands.executeCommand('workItemStudio.updateSelectedWorkItems', { template: 'complete' })) as vscode.TextEditor;
    assert.deepEqual((JSON.parse(editor.document.getText()) as { workItemIds: string[] }).workItemIds, lowest);
    await vscode.commands.executeCommand('workItemStudio.clearCheckedWorkItems');
    assert.equal(tree.checked.size, 0);
  });
});

describe('work items view: failures (own tree, sandbox with faults)', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let connection: ConnectionManager;
  let tree: WorkItemsTree;

  before(async () => {
    sandbox = await createSandbox({ port: 0 });
    connection = new ConnectionManager({ secrets: memorySecrets(), log, prompts: prompts(), serviceUrl: () => sandbox.url });
    tree = new WorkItemsTree(connection, log);
  });
  after(async () => {
    tree?.dispose();
    connection?.dispose();
    await sandbox?.close();
  });

  it('a failed level load shows a warning row with Retry, and Retry loads it @errors', async () => {
    const projects = (await settled(tree)).filter((n): n is ProjectNode => n instanceof ProjectNode);
    const web = projects.find((p) => p.projectId === '3001');
    assert.ok(web, `projects: ${projects.map((p) => p.projectId).join(', ')}`);
    const r = await fetch(`${sandbox.origin}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 500, times: 5, pathContains: '/subItems' }),
    });
    assert.ok(r.ok);
    const rows = await settled(tree, web);
    const error = rows[0];
    assert.ok(error instanceof MessageNode && error.kind === 'error', 'a warning row');
    const item = tree.getTreeItem(error);
    assert.equal(item.command?.command, 'workItemStudio.retryLoad');
    assert.match(String(item.description), /Retry|再試行/);
    await fetch(`${sandbox.origin}/_sandbox/faults`, { method: 'DELETE' });
    await vscode.commands.executeCommand('workItemStudio.retryLoad', error);
    const again = await settled(tree, web);
    assert.ok(again[0] instanceof WorkItemNode && again[0].itemId === '100', 'the level loaded on Retry');
  });

  it('a level ready within the wait is returned without a placeholder, and no change is announced', async () => {
    const web = (await settled(tree)).find((n): n is ProjectNode => n instanceof ProjectNode && n.projectId === '3001')!;
    await settled(tree, web); // signed in, the profile read
    await sleep(100); // what that load announced is past
    tree.refresh(web);
    const heard = announcements(tree);
    try {
      const started = Date.now();
      const rows = await tree.getChildren(web);
      const waited = Date.now() - started;
      assert.ok(!rows.some((r) => r instanceof MessageNode), `the rows themselves: ${rows.map((r) => r.id).join(', ')}`);
      assert.ok(rows[0] instanceof WorkItemNode && rows[0].itemId === '100', 'level 1 of the project');
      assert.ok(waited < 1_000, `answered as soon as loaded (${waited} ms)`);
      await sleep(400);
      assert.deepEqual(heard.nodes.filter((n) => n === web || n === undefined), [], 'no change announced for the project');
    } finally {
      heard.dispose();
    }
  });

  it('a level slower than the wait (sandbox latency) is "Loading…", then announced once with its rows', async () => {
    const web = (await settled(tree)).find((n): n is ProjectNode => n instanceof ProjectNode && n.projectId === '3001')!;
    await settled(tree, web);
    await sleep(100);
    const r = await fetch(`${sandbox.origin}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ latencyMs: 1_500, times: 1, pathContains: '/subItems' }),
    });
    assert.ok(r.ok);
    tree.refresh(web);
    const heard = announcements(tree);
    try {
      const started = Date.now();
      const first = await tree.getChildren(web);
      const waited = Date.now() - started;
      assert.equal(first.length, 1);
      assert.ok(first[0] instanceof MessageNode && first[0].kind === 'loading', `a loading row: ${first.map((n) => n.id).join(', ')}`);
      assert.ok(waited >= 140 && waited < 1_400, `the view's request waited about 150 ms before the placeholder (${waited} ms)`);
      assert.deepEqual(heard.nodes, [], 'nothing announced while loading');
      await waitFor('the project announced', () => heard.nodes.includes(web));
      const rows = await tree.getChildren(web);
      assert.ok(rows[0] instanceof WorkItemNode && rows[0].itemId === '100', 'the rows after the announcement');
      await sleep(300);
      assert.equal(heard.nodes.filter((n) => n === web).length, 1, 'announced once');
    } finally {
      heard.dispose();
      await fetch(`${sandbox.origin}/_sandbox/faults`, { method: 'DELETE' });
    }
  });

  it('a server without the read operations gets one row saying so @errors', async () => {
    const r = await fetch(`${sandbox.origin}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 404, times: 1, pathContains: '/project/projects' }),
    });
    assert.ok(r.ok);
    tree.refresh();
    const rows = await settled(tree);
    assert.equal(rows.length, 1);
    const row = rows[0]!;
    assert.ok(row instanceof MessageNode && row.kind === 'info');
    assert.match(row.text, /404/);
  });
});

describe('work items view: not signed in, and the identity in the status bar', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;

  before(async () => {
    sandbox = await createSandbox({ port: 0 });
  });
  after(async () => {
    await sandbox?.close();
  });

  it('a dismissed sign-in is a "Not signed in" row whose click signs in', async () => {
    const connection = new ConnectionManager({ secrets: memorySecrets(), log, prompts: prompts(null), serviceUrl: () => sandbox.url });
    const tree = new WorkItemsTree(connection, log);
    try {
      const rows = await settled(tree);
      const row = rows[0];
      assert.ok(row instanceof MessageNode && row.kind === 'error' && row.signInRequired, `rows: ${rows.map((r) => r.id).join(', ')}`);
      assert.equal(tree.getTreeItem(row).command?.command, 'workItemStudio.retryLoad');
    } finally {
      tree.dispose();
      connection.dispose();
    }
  });

  it('the status bar names the signed-in user from /system/users/me', async () => {
    const connection = new ConnectionManager({ secrets: memorySecrets(), log, prompts: prompts(), serviceUrl: () => sandbox.url });
    const bar = new ConnectionStatusBar(connection);
    try {
      assert.ok(await connection.signIn('command'));
      await waitFor('the user\'s name in the status bar', () => (bar.text.includes('管理者 太郎@') ? true : undefined));
    } finally {
      bar.dispose();
      connection.dispose();
    }
  });

  it('on a server without /system/users/me (404) the status bar keeps the login name, without a message @errors', async () => {
    const r = await fetch(`${sandbox.origin}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 404, times: 1, pathContains: '/system/users/me' }),
    });
    assert.ok(r.ok);
    const connection = new ConnectionManager({ secrets: memorySecrets(), log, prompts: prompts(), serviceUrl: () => sandbox.url });
    const bar = new ConnectionStatusBar(connection);
    try {
      assert.ok(await connection.signIn('command'));
      await waitFor('the fault to be used', async () => {
        const f = await fetch(`${sandbox.origin}/_sandbox/faults`);
        const pending = (await f.json()) as unknown[];
        return Array.isArray(pending) && pending.length === 0 ? true : undefined;
      });
      await new Promise((res) => setTimeout(res, 300));
      assert.match(bar.text, /admin@/);
      assert.doesNotMatch(bar.text, /管理者/);
    } finally {
      bar.dispose();
      connection.dispose();
    }
  });
});
