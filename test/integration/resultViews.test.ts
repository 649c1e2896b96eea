// Result views in a real extension host: ten sends leave the editor layout as it was
// (one result view, reused), a pinned result view is kept, and showing a job again
// refreshes its view. (Restoring after a window reload is tested in the browser E2E.)
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { activateExtension, waitFor } from './support';

type Outcome = { jobId?: string; result: { outcome: string } };

function resultTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('workItemStudio.results'));
}

function writeDocument(name: string, value: unknown): vscode.Uri {
  const ws = vscode.workspace.workspaceFolders?.[0];
  const dir = ws ? path.join(ws.uri.fsPath, '.integration-results') : fs.mkdtempSync(path.join(os.tmpdir(), 'wis-res-'));
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}-${process.pid}.workitems.json`);
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
  return vscode.Uri.file(file);
}

async function send(uri: vscode.Uri): Promise<Outcome> {
  const outcomes = (await vscode.commands.executeCommand('workItemStudio.sendUpdate', uri)) as Outcome[];
  assert.equal(outcomes.length, 1);
  assert.equal(outcomes[0]!.result.outcome, 'succeeded');
  return outcomes[0]!;
}

describe('result views', function () {
  this.timeout(180_000);
  let uri: vscode.Uri;

  before(async () => {
    await activateExtension();
    await vscode.commands.executeCommand('workItemStudio.startSandbox');
    uri = writeDocument('reuse', { workItemIds: ['122'], update: { setCompleted: true } });
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(uri.fsPath, { force: true });
  });

  it('ten sends leave the editor layout as it was: one result view, reused', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    await send(uri);
    await waitFor('the first result view', () => resultTabs().length === 1);
    const groups = vscode.window.tabGroups.all.length;
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).length;
    let last: Outcome | undefined;
    for (let i = 0; i < 9; i++) last = await send(uri);
    // The tab model reaches the extension host asynchronously: wait until the last job's title shows, then count.
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(resultTabs().length, 1, `result tabs: ${resultTabs().map((t) => t.label).join(' | ')}`);
    assert.equal(vscode.window.tabGroups.all.length, groups, 'no editor group was added');
    assert.equal(vscode.window.tabGroups.all.flatMap((g) => g.tabs).length, tabs, 'no tab was added');
    assert.ok(last?.jobId);
  });

  it('keeps a pinned result view and shows the next result in a new one (which is reused in turn)', async () => {
    assert.equal(resultTabs().length, 1);
    const first = await send(uri);
    // Focus the result view (showing a job from the command focuses it), then pin its tab.
    await vscode.commands.executeCommand('workItemStudio.showJobs', first.jobId);
    await waitFor('the result view active', () => resultTabs().some((t) => t.isActive && t.group.activeTab === t && vscode.window.tabGroups.activeTabGroup === t.group));
    await vscode.commands.executeCommand('workbench.action.pinEditor');
    await waitFor('the result tab pinned', () => resultTabs().some((t) => t.isPinned));
    const pinnedLabel = resultTabs().find((t) => t.isPinned)!.label;
    await send(uri);
    await waitFor('a second result view beside the pinned one', () => resultTabs().length === 2);
    await send(uri);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(resultTabs().length, 2, `result tabs: ${resultTabs().map((t) => t.label).join(' | ')}`);
    assert.equal(resultTabs().find((t) => t.isPinned)?.label, pinnedLabel, 'the pinned view still shows its job');
  });
});
