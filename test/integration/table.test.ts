// The work item table inside a real extension host, against the demo sandbox: opened
// from a project row of the Work Items view, rows read and painted by the webview (it
// reports what it painted), a sort, a typed filter with its count and a positioned
// error, and the matches turned into a new request document.
import * as assert from 'node:assert/strict';
import { parse } from 'jsonc-parser';
import * as vscode from 'vscode';
import type { TablePanel } from '../../src/table/panel';
import type { WorkItemNode, WorkItemTreeNode } from '../../src/workItems/tree';
import { readFiltersFile } from '../../src/table/model/filterStore';
import { activateExtension, closeUntitledDocuments, waitFor, workspaceFolder } from './support';

describe('work item table (extension, sandbox)', function () {
  this.timeout(180_000);
  let table: TablePanel;

  before(async () => {
    await activateExtension();
    await vscode.commands.executeCommand('workItemStudio.startSandbox');
    await vscode.commands.executeCommand('workItemStudio.workItems.focus');
  });

  after(async () => {
    await closeUntitledDocuments();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('opens from a project row: every item of the project is a row and the webview paints the first ones', async () => {
    const revealed = (await vscode.commands.executeCommand('workItemStudio.revealWorkItems', { ids: ['121'] })) as WorkItemNode[];
    const tree = revealed[0]!.tree;
    const projects = (await tree.getChildren()) as WorkItemTreeNode[];
    const project = projects.find((n) => n.kind === 'project' && n.projectId === '3001');
    assert.ok(project, 'project 3001 is in the view');
    table = (await vscode.commands.executeCommand('workItemStudio.openWorkItemTable', project)) as TablePanel;
    assert.ok(table, 'the command returns the table');
    await table.whenLoaded();
    assert.ok(table.loadedCount > 20, `the demo project has many items (${table.loadedCount})`);
    assert.ok(table.viewRows().some((r) => r.id === '121'), 'the level-3 item is a row');
    assert.ok(table.viewRows().some((r) => r.level >= 3));
    const paint = await waitFor('the webview to paint every row of the view', async () => {
      const p = table.lastPaint;
      return p && p.total === table.viewRows().length && p.count > 0 && p.received === p.total ? p : undefined;
    });
    assert.ok(paint.count < paint.total || paint.total < 40, 'only the rows in sight are painted');
    console.log(`      (webview: ${paint.count} of ${paint.total} rows painted ${paint.ms} ms after the view was announced)`);
    // Default columns from the catalogue: parent path filled for items below level 1.
    const deep = table.viewRows().find((r) => r.id === '121')!;
    assert.match(String(deep.fields['ParentName']), / \/ /);
  });

  it('sorts by a column (click on a header) and the webview paints the new order', async () => {
    const before = table.firstPaints.length;
    table.sortBy('PlannedFinishDate');
    const paint = await waitFor('a paint of the sorted view', async () => (table.firstPaints.length > before ? table.firstPaints.at(-1) : undefined));
    const dates = table.viewRows().map((r) => (typeof r.fields['PlannedFinishDate'] === 'string' ? r.fields['PlannedFinishDate'].slice(0, 10) : ''));
    const filled = dates.filter((d) => d !== '');
    assert.deepEqual(filled, [...filled].sort(), 'ascending by planned finish');
    assert.deepEqual(dates.slice(0, filled.length), filled, 'empty dates last');
    assert.equal(paint.total, table.viewRows().length);
    table.sortBy('PlannedFinishDate');
    table.sortBy('PlannedFinishDate'); // desc, then unsorted (tree order) again
  });

  it('counts the matches of a typed filter, shows a positioned error, and applies it', async () => {
    const all = table.viewRows().length;
    const bad = table.setFilterText('progress<<1', false);
    assert.equal(bad.errors.length, 1);
    assert.equal(bad.errors[0]!.start, 9, 'the error is at the second "<"');
    const expected = table.viewRows().filter((r) => typeof r.fields['ActualProgress'] === 'number' && (r.fields['ActualProgress'] as number) < 100).length;
    const count = table.setFilterText('進捗＜１００', false);
    assert.deepEqual(count.errors, []);
    assert.equal(count.matches, expected);
    assert.equal(count.total, all);
    assert.equal(table.viewRows().length, all, 'counting does not apply');
    assert.ok(expected > 0 && expected < all, `a real filter (${expected} of ${all})`);
    const before = table.firstPaints.length;
    table.setFilterText('進捗＜１００', true);
    await waitFor('the filtered view painted', async () => (table.firstPaints.length > before && table.lastPaint?.total === expected ? true : undefined));
    assert.equal(table.matchingIds().length, expected);
  });

  it('adds a condition built with the pickers (AND) and saves the filter in the workspace file', async () => {
    const previous = table.viewRows();
    const expected = previous.filter((r) => typeof r.fields['PlannedFinishDate'] === 'string' && r.fields['PlannedFinishDate'] !== '').map((r) => r.id);
    assert.ok(expected.length > 0 && expected.length < previous.length, `a narrower filter (${expected.length} of ${previous.length})`);
    const text = (await vscode.commands.executeCommand('workItemStudio.addTableFilterCondition', { op: 'notEmpty', field: 'PlannedFinishDate' })) as string;
    assert.match(text, /^進捗＜１００ PlannedFinishDate:notempty$/);
    await waitFor('the narrower view', async () => (table.viewRows().length === expected.length ? true : undefined));
    assert.deepEqual(table.matchingIds(), expected, 'both conditions hold (AND), in the same order');
    const where = await vscode.commands.executeCommand('workItemStudio.saveTableFilter', { name: 'Open with a finish', target: 'workspace' });
    assert.equal(where, 'workspace');
    const file = vscode.Uri.joinPath(workspaceFolder().uri, '.vscode', 'workitem-filters.json');
    const saved = readFiltersFile(new TextDecoder().decode(await vscode.workspace.fs.readFile(file)));
    assert.deepEqual(saved.problems, []);
    const entry = saved.filters.find((f) => f.name === 'Open with a finish');
    assert.ok(entry, 'the named filter is in .vscode/workitem-filters.json');
    assert.deepEqual(entry.filter.conditions.map((c) => c.op), ['range', 'notEmpty']);
  });

  it('turns the matches into a new request document', async () => {
    const ids = table.matchingIds();
    const editor = (await vscode.commands.executeCommand('workItemStudio.useFilteredItemsInRequest', 'complete')) as vscode.TextEditor | undefined;
    assert.ok(editor, 'a request document was opened');
    const doc = parse(editor.document.getText()) as { workItemIds: string[] };
    assert.deepEqual(doc.workItemIds, ids);
  });

  it("opens a table of a request document's workItemIds", async () => {
    const ids = table.matchingIds();
    const fromDoc = (await vscode.commands.executeCommand('workItemStudio.openWorkItemTable')) as TablePanel;
    assert.ok(fromDoc && fromDoc !== table, 'a second table');
    await fromDoc.whenLoaded();
    assert.deepEqual(fromDoc.source.ids, ids);
    assert.deepEqual(new Set(fromDoc.viewRows().map((r) => r.id)), new Set(ids));
    await waitFor('its rows painted', async () => (fromDoc.lastPaint && fromDoc.lastPaint.count > 0 ? true : undefined));
  });
});
