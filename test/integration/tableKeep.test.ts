// The work item table keeps unsent work, inside a real extension host against the demo
// sandbox: a window reload (the tab disposed with the window, then restored through the
// serializer VS Code calls) brings back the edits, the filter and the selection; an edit
// whose value changed on the service meanwhile is held and said, not applied; a tab
// closed with unsent edits asks, and keeps or discards them as answered; after a send,
// the edited rows stay in sight, marked as sent, until the filter is applied again.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { WorkItemStudioApi } from '../../src/extension';
import type { TablePanel } from '../../src/table/panel';
import type { TablePrompts } from '../../src/table/pending';
import type { WorkItemNode, WorkItemTreeNode } from '../../src/workItems/tree';
import { parse } from 'jsonc-parser';
import { activateExtension, answering, closeUntitledDocuments, waitFor, workspaceFolder } from './support';

type SendOutcome = { jobId?: string; result: { outcome: string } }[];

describe('work item table keeps unsent work (extension, sandbox)', function () {
  this.timeout(300_000);
  let api: WorkItemStudioApi;
  let project: WorkItemTreeNode;
  let table: TablePanel;
  const jobs: string[] = [];

  const openProject = async (): Promise<TablePanel> => {
    const t = (await vscode.commands.executeCommand('workItemStudio.openWorkItemTable', project)) as TablePanel;
    await t.whenLoaded();
    return t;
  };

  /** What a window reload does: the tab goes with the window (no question), then VS Code gives the serializer a new panel and the state the page kept. */
  const reload = async (t: TablePanel, prompts: Partial<TablePrompts> = {}): Promise<TablePanel> => {
    const state = JSON.parse(JSON.stringify(t.keptState)) as unknown;
    t.dispose();
    const panel = vscode.window.createWebviewPanel('workItemStudio.table', 'restoring', vscode.ViewColumn.Active, { enableScripts: true, retainContextWhenHidden: true });
    return answering({ table: prompts }, async () => {
      const restored = await api.tableSerializer.deserializeWebviewPanel(panel, state);
      assert.ok(restored, 'the serializer restores a table');
      await restored.whenLoaded();
      await restored.keeper.asked;
      return restored;
    });
  };

  const leaves = (t: TablePanel) => t.viewRows().filter((r) => r.hasChildren === false);

  before(async () => {
    api = (await activateExtension()).exports as WorkItemStudioApi;
    await vscode.commands.executeCommand('workItemStudio.startSandbox');
    await vscode.commands.executeCommand('workItemStudio.workItems.focus');
    const revealed = (await vscode.commands.executeCommand('workItemStudio.revealWorkItems', { ids: ['121'] })) as WorkItemNode[];
    const projects = (await revealed[0]!.tree.getChildren()) as WorkItemTreeNode[];
    const p = projects.find((n) => n.kind === 'project' && n.projectId === '3001');
    assert.ok(p, 'project 3001 is in the view');
    project = p;
    table = await openProject();
    // Edits another suite may have left kept for this project: discarded, so that this suite starts from none.
    if (table.keeper.count > 0) await answering({ table: { discardEdits: async () => true } }, () => vscode.commands.executeCommand('workItemStudio.discardTableEdits'));
    await table.keeper.flush();
  });

  after(async () => {
    // The values this suite sent, put back for the suites after it.
    for (const jobId of jobs) {
      const undo = (await answering({ undo: { drift: async () => 'cancel' } }, () => vscode.commands.executeCommand('workItemStudio.createUndoDocument', jobId))) as { documents: vscode.Uri[] } | undefined;
      for (const doc of undo?.documents ?? []) await vscode.commands.executeCommand('workItemStudio.sendUpdate', doc);
    }
    await closeUntitledDocuments();
    await answering({ table: { closeWithEdits: async () => 'discard' } }, () => vscode.commands.executeCommand('workbench.action.closeAllEditors'));
  });

  it('a window reload brings back the unsent edits, the filter and the selection', async () => {
    const [a, b] = leaves(table);
    assert.ok(a && b, 'two leaves');
    await table.dispatch({ type: 'commit', id: a.id, key: 'Name', text: 'Kept across a reload' });
    await table.dispatch({ type: 'commit', id: b.id, key: 'Code', text: 'KEPT-B' });
    assert.equal(table.editing.edits.size, 2);
    const filter = 'name:"Kept across"';
    table.applyFilterText(filter);
    await waitFor('the filtered view', async () => (table.viewRows().length === 1 ? true : undefined));
    const selection = { focus: { id: a.id, key: 'Name' }, anchor: { id: a.id, key: 'Code' } };
    await table.dispatch({ type: 'selection', ...selection });
    assert.deepEqual(table.keptState?.selection, selection, 'the page is asked to keep the selection');
    assert.equal(table.keptState?.filterText, filter, 'and the filter');

    const restored = await reload(table);
    table = restored;
    assert.equal(restored.editing.edits.get(a.id, 'Name')?.value, 'Kept across a reload');
    assert.equal(restored.editing.edits.get(b.id, 'Code')?.value, 'KEPT-B');
    assert.equal(restored.editing.edits.size, 2, 'nothing more, nothing less');
    assert.equal(restored.currentFilterText, filter, 'the filter is applied again');
    assert.deepEqual(restored.matchingIds(), [a.id], 'the filter sees the edited name');
    assert.deepEqual(restored.lastSelect, selection, 'the page is told to select the cells again');
    assert.equal(restored.panel.title, table.source.title);
    // Undo still works on what came back.
    await restored.dispatch({ type: 'undo' });
    assert.equal(restored.editing.edits.size, 0);
    await restored.dispatch({ type: 'redo' });
    assert.equal(restored.editing.edits.size, 2);
  });

  it('an edit whose value changed on the service since it was made is held and said, not applied', async () => {
    const [a, b] = [...new Set(table.editing.edits.all().map((e) => e.id))];
    assert.ok(a && b);
    const docs = (await vscode.commands.executeCommand('workItemStudio.reviewTableChanges', 'documents')) as vscode.TextDocument[];
    assert.equal(docs.length, 1, 'one document for the edits');
    const change = parse(docs[0]!.getText()) as { requests: { workItemIds: string[]; update: { fields?: Record<string, unknown> } }[] };
    const codeRequest = change.requests.find((r) => r.update.fields?.['Code'] === 'KEPT-B');
    assert.deepEqual(codeRequest?.workItemIds, [b], 'a request of the Code edit');
    // The window goes; meanwhile someone else sets another Code on the service (a document of that request alone).
    await table.keeper.flush();
    const state = JSON.parse(JSON.stringify(table.keptState)) as unknown;
    table.dispose();
    const file = vscode.Uri.joinPath(workspaceFolder().uri, `held-${process.pid}.workitems.json`);
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(`${JSON.stringify({ workItemIds: [b], update: { fields: { Code: 'SERVICE-B' } } }, null, 2)}\n`));
    const sent = (await vscode.commands.executeCommand('workItemStudio.sendUpdate', file)) as SendOutcome;
    await vscode.workspace.fs.delete(file);
    assert.equal(sent[0]?.result.outcome, 'succeeded');
    jobs.push(sent[0]!.jobId!);

    let asked: Parameters<TablePrompts['heldEdits']>[0] | undefined;
    const panel = vscode.window.createWebviewPanel('workItemStudio.table', 'restoring', vscode.ViewColumn.Active, { enableScripts: true });
    table = await answering(
      {
        table: {
          heldEdits: async (q) => {
            asked = q;
            return 'discard';
          },
        },
      },
      async () => {
        const t = await api.tableSerializer.deserializeWebviewPanel(panel, state);
        assert.ok(t);
        await t.whenLoaded();
        await t.keeper.asked;
        return t;
      },
    );
    assert.ok(asked, 'the held edit is said');
    assert.equal(asked.count, 1);
    assert.equal(asked.canApply, true);
    assert.match(asked.detail, new RegExp(`#${b}\\b.*SERVICE-B.*KEPT-B`), asked.detail);
    assert.equal(table.editing.edits.isEdited(b, 'Code'), false, 'not applied');
    assert.ok(table.editing.edits.isEdited(a, 'Name'), 'the edit that still fits is applied');
    assert.equal(table.keeper.held.length, 0, 'discarded as answered');
  });

  it('closing the tab with unsent edits asks; kept edits come back when the table opens again, discarded ones do not', async () => {
    const count = table.editing.edits.size;
    assert.ok(count > 0);
    await table.keeper.flush();
    const close = async (t: TablePanel, answer: 'keep' | 'discard' | undefined): Promise<Parameters<TablePrompts['closeWithEdits']>[0] | undefined> => {
      let asked: Parameters<TablePrompts['closeWithEdits']>[0] | undefined;
      await answering(
        {
          table: {
            closeWithEdits: async (q) => {
              asked = q;
              return answer;
            },
          },
        },
        async () => {
          const tab = await waitFor('the table tab active', () =>
            vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((x) => x.isActive && x.input instanceof vscode.TabInputWebview && x.input.viewType.endsWith('workItemStudio.table')),
          );
          await vscode.window.tabGroups.close(tab);
          await waitFor('the close to be handled', async () => (asked ? true : undefined));
          await t.closing;
        },
      );
      return asked;
    };

    table.reveal();
    const askedKeep = await close(table, 'keep');
    assert.equal(askedKeep?.count, count, 'asked, with the count');
    assert.match(askedKeep!.message, new RegExp(`${count} unsent edit`));
    table = await openProject();
    assert.equal(table.editing.edits.size, count, 'kept: back when the project table opens again');

    table.reveal();
    await close(table, undefined);
    table = await openProject();
    assert.equal(table.editing.edits.size, count, 'a dismissed question keeps them too');

    table.reveal();
    const askedDiscard = await close(table, 'discard');
    assert.ok(askedDiscard);
    table = await openProject();
    assert.equal(table.editing.edits.size, 0, 'discarded: gone');
  });

  it('Discard Edits asks with the count, and Undo brings the edits back', async () => {
    const [a] = leaves(table);
    await table.dispatch({ type: 'commit', id: a!.id, key: 'Code', text: 'TO-DISCARD' });
    let asked: { count: number; message: string } | undefined;
    const n = await answering({ table: { discardEdits: async (q) => ((asked = q), false) } }, () => vscode.commands.executeCommand('workItemStudio.discardTableEdits'));
    assert.equal(n, 0, 'declined: nothing discarded');
    assert.equal(asked?.count, 1);
    assert.equal(table.editing.edits.size, 1);
    await answering({ table: { discardEdits: async () => true } }, () => vscode.commands.executeCommand('workItemStudio.discardTableEdits'));
    assert.equal(table.editing.edits.size, 0);
    await table.dispatch({ type: 'undo' });
    assert.equal(table.editing.edits.get(a!.id, 'Code')?.value, 'TO-DISCARD');
    await answering({ table: { discardEdits: async () => true } }, () => vscode.commands.executeCommand('workItemStudio.discardTableEdits'));
  });

  it('after a send, the edited rows stay in sight, marked as sent, until the filter is applied again', async () => {
    const dated = leaves(table).filter((r) => typeof r.fields['PlannedFinishDate'] === 'string' && r.fields['PlannedFinishDate'] !== '');
    assert.ok(dated.length >= 3, 'three leaves with a planned finish');
    const day = (r: (typeof dated)[number]) => String(r.fields['PlannedFinishDate']).slice(0, 10);
    const three = [...dated].sort((x, y) => day(x).localeCompare(day(y))).slice(0, 3);
    const limit = new Date(`${day(three[2]!)}T00:00:00Z`);
    limit.setUTCDate(limit.getUTCDate() + 1);
    const before = limit.toISOString().slice(0, 10);
    const filter = `finish<${before}`;
    table.applyFilterText(filter);
    await waitFor('the filtered view', async () => (three.every((r) => table.matchingIds().includes(r.id)) ? true : undefined));
    const later = new Date(limit);
    later.setUTCDate(later.getUTCDate() + 60);
    for (const r of three) await table.dispatch({ type: 'commit', id: r.id, key: 'PlannedFinishDate', text: later.toISOString().slice(0, 10) });
    assert.equal(table.editing.edits.size, 3, JSON.stringify(table.lastEditorMessage));
    const docs = (await vscode.commands.executeCommand('workItemStudio.reviewTableChanges', 'documents')) as vscode.TextDocument[];
    assert.equal(docs.length, 1);
    const sent = (await vscode.commands.executeCommand('workItemStudio.sendUpdate', docs[0]!.uri)) as SendOutcome;
    assert.equal(sent[0]?.result.outcome, 'succeeded');
    jobs.push(sent[0]!.jobId!);
    await waitFor('the table to read the items again', async () => {
      await table.reloading;
      return table.editing.edits.size === 0 ? true : undefined;
    });
    const ids = three.map((r) => r.id);
    assert.deepEqual(ids.filter((id) => !table.matchingIds().includes(id)), [], 'the sent rows are still in sight');
    assert.deepEqual([...table.sent].sort(), [...ids].sort(), 'marked as sent');
    for (const id of ids) assert.equal(String(table.viewRows().find((r) => r.id === id)?.fields['PlannedFinishDate']).slice(0, 10), later.toISOString().slice(0, 10), `${id} shows the new date`);
    assert.equal(table.currentFilterText, filter);

    table.applyFilterText(filter);
    await waitFor('the filter applied again', async () => (ids.every((id) => !table.matchingIds().includes(id)) ? true : undefined));
    assert.equal(table.sent.size, 0, 'no row is marked any more');
  });
});
