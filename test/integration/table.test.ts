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
import { activateExtension, answering, closeUntitledDocuments, waitFor, workspaceFolder } from './support';

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

describe('work item table: editing, review, send and undo (extension, sandbox)', function () {
  this.timeout(300_000);
  let table: TablePanel;
  const name = (id: string) => table.viewRows().find((r) => r.id === id)?.fields;

  before(async () => {
    await activateExtension();
    await vscode.commands.executeCommand('workItemStudio.startSandbox');
    await vscode.commands.executeCommand('workItemStudio.workItems.focus');
    const revealed = (await vscode.commands.executeCommand('workItemStudio.revealWorkItems', { ids: ['121'] })) as WorkItemNode[];
    const projects = (await revealed[0]!.tree.getChildren()) as WorkItemTreeNode[];
    const project = projects.find((n) => n.kind === 'project' && n.projectId === '3001');
    assert.ok(project);
    table = (await vscode.commands.executeCommand('workItemStudio.openWorkItemTable', project)) as TablePanel;
    await table.whenLoaded();
    await waitFor('the webview to paint', async () => (table.lastPaint && table.lastPaint.count > 0 ? true : undefined));
  });

  after(async () => {
    await closeUntitledDocuments();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('edits cells through the webview messages, pastes a block, fills down, undoes and redoes; refuses read-only and bad cells with the reason', async () => {
    const view = table.viewRows();
    const i = view.findIndex((r, k) => k > 0 && r.hasChildren === false && view[k + 1]?.hasChildren === false && view[k - 1]?.hasChildren === false);
    assert.ok(i > 0, 'three leaves in a row');
    const [a, b, c] = [view[i - 1]!, view[i]!, view[i + 1]!];
    const cols = table.shownColumns().map((x) => x.key);
    assert.ok(['Name', 'Code', 'PlannedTime', 'ParentName'].every((k) => cols.includes(k)), cols.join());

    // A read-only cell says why instead of opening an editor.
    await table.dispatch({ type: 'activate', id: a.id, key: 'ParentName' });
    const refused = table.lastEditorMessage;
    assert.equal(refused?.type, 'refused');
    assert.match((refused as { message: string }).message, /moveParentTo/);
    // An editable cell gets the editor of its type.
    await table.dispatch({ type: 'activate', id: a.id, key: 'PlannedFinishDate' });
    assert.equal(table.lastEditorMessage?.type, 'editor');
    assert.equal((table.lastEditorMessage as { editor: { kind: string } }).editor.kind, 'date');

    await table.dispatch({ type: 'commit', id: a.id, key: 'Name', text: 'Table edit A' });
    assert.equal(table.editing.edits.get(a.id, 'Name')?.value, 'Table edit A');
    assert.equal(name(a.id)?.['Name'], 'Table edit A', 'the row shows the edited value');
    await table.dispatch({ type: 'commit', id: a.id, key: 'ActualProgress', text: 'abc' });
    assert.equal(table.lastEditorMessage?.type, 'refused', 'a bad value is refused');
    assert.equal(table.editing.edits.isEdited(a.id, 'ActualProgress'), false);

    // A block pasted from a spreadsheet (CRLF, full-width digits in the hours).
    await table.dispatch({ type: 'paste', id: b.id, key: 'Code', text: 'TBL-B\r\nTBL-C\r\n' });
    assert.equal(table.editing.edits.get(b.id, 'Code')?.value, 'TBL-B');
    assert.equal(table.editing.edits.get(c.id, 'Code')?.value, 'TBL-C');
    await table.dispatch({ type: 'paste', id: b.id, key: 'PlannedTime', text: '７．２５' });
    assert.equal(table.editing.edits.get(b.id, 'PlannedTime')?.value, 435);
    // Fill down the planned time from b to c.
    await table.dispatch({ type: 'fill', generation: table.currentGeneration, firstRow: i, lastRow: i + 1, keys: ['PlannedTime'] });
    assert.equal(table.editing.edits.get(c.id, 'PlannedTime')?.value, 435);
    await table.dispatch({ type: 'undo' });
    assert.equal(table.editing.edits.isEdited(c.id, 'PlannedTime'), false, 'undo takes the fill down back');
    await table.dispatch({ type: 'redo' });
    assert.equal(table.editing.edits.get(c.id, 'PlannedTime')?.value, 435);
    assert.equal(table.editing.edits.size, 5);
  });

  it('Review Changes opens one document of the fewest requests; one Send, one job; the table shows the new values; one undo document puts them back', async () => {
    const edits = table.editing.edits.all();
    const before = new Map(edits.map((e) => [`${e.id}/${e.field}`, e.before]));
    const docs = (await vscode.commands.executeCommand('workItemStudio.reviewTableChanges', 'documents')) as vscode.TextDocument[];
    assert.equal(docs.length, 1, 'one document for every edit of the table');
    const json = parse(docs[0]!.getText()) as { requests: { workItemIds: string[]; update: { fields: Record<string, unknown> } }[] };
    assert.ok(Array.isArray(json.requests) && json.requests.length >= 2, `a change set of several requests: ${docs[0]!.getText()}`);
    const sentIds = new Set<string>();
    for (const r of json.requests) {
      r.workItemIds.forEach((id) => sentIds.add(id));
      for (const id of r.workItemIds) for (const [f, v] of Object.entries(r.update.fields)) assert.deepEqual(table.editing.edits.get(id, f)?.value, v);
    }
    assert.deepEqual([...sentIds].sort(), [...new Set(edits.map((e) => e.id))].sort());
    // One Send: one job for the whole change.
    const outcomes = (await vscode.commands.executeCommand('workItemStudio.sendUpdate', docs[0]!.uri)) as { jobId?: string; result: { outcome: string; requests: unknown[] } }[];
    assert.equal(outcomes.length, 1);
    assert.equal(outcomes[0]?.result.outcome, 'succeeded');
    assert.equal(outcomes[0]!.result.requests.length, json.requests.length, 'one batch per request of the change');
    const jobId = outcomes[0]!.jobId!;
    await waitFor('the table to read the items again', async () => {
      await table.reloading;
      return table.editing.edits.size === 0 ? true : undefined;
    });
    for (const e of edits) assert.deepEqual(name(e.id)?.[e.field], e.value, `${e.id}.${e.field} shows the value sent`);

    // Create Undo Document: one document for the job, sent with one action; the values read before come back.
    const undo = (await answering({ undo: { drift: async () => 'cancel' } }, () => vscode.commands.executeCommand('workItemStudio.createUndoDocument', jobId))) as { documents: vscode.Uri[] };
    assert.equal(undo?.documents.length, 1, 'one undo document');
    const sent = (await vscode.commands.executeCommand('workItemStudio.sendUpdate', undo.documents[0])) as { result: { outcome: string } }[];
    assert.equal(sent.length, 1);
    assert.equal(sent[0]?.result.outcome, 'succeeded');
    await waitFor('the values before in the table', async () => {
      await table.reloading;
      return edits.every((e) => JSON.stringify(name(e.id)?.[e.field] ?? null) === JSON.stringify(before.get(`${e.id}/${e.field}`) ?? null)) ? true : undefined;
    });
  });

  it('exports the table as CSV in UTF-8 with a BOM and imports a CSV: good rows become edits, a bad row is listed and not applied', async () => {
    const file = vscode.Uri.joinPath(workspaceFolder().uri, `table-export-${process.pid}.csv`);
    try {
      const out = (await vscode.commands.executeCommand('workItemStudio.exportTableCsv', { columns: 'shown', uri: file })) as { text: string };
      const bytes = await vscode.workspace.fs.readFile(file);
      assert.deepEqual([...bytes.slice(0, 3)], [0xef, 0xbb, 0xbf], 'UTF-8 BOM');
      assert.equal(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes), out.text);
      assert.equal(out.text.split('\r\n').filter((l) => l !== '').length, table.viewRows().length + 1, 'a header and one line per row shown');
    } finally {
      await vscode.workspace.fs.delete(file).then(undefined, () => undefined);
    }
    const [x, y] = table.viewRows().filter((r) => r.hasChildren === false);
    const text = `ID,Name,Planned time (h),Notes\n${x!.id},Imported X,7:30,a note\n${y!.id},Imported Y,not hours,\n999999,Nobody,1,\n`;
    const result = (await vscode.commands.executeCommand('workItemStudio.importIntoTable', { text, mapping: { Notes: null } })) as {
      changes: { id: string; field: string }[];
      problems: { line: number; column?: string; message: string }[];
      badRecordCount: number;
    };
    assert.ok(result.changes.some((ch) => ch.id === x!.id && ch.field === 'Name'), JSON.stringify(result.problems));
    assert.equal(result.changes.filter((ch) => ch.id === y!.id).length, 0, 'nothing of a bad row');
    assert.equal(result.badRecordCount, 2);
    assert.ok(result.problems.some((p) => p.line === 3 && p.column === 'Planned time (h)'));
    assert.ok(result.problems.some((p) => p.line === 4 && /999999/.test(p.message)));
    assert.equal(table.editing.edits.get(x!.id, 'Name')?.value, 'Imported X', 'shown as an edit, not sent');
    await waitFor('the problems document', async () => (vscode.workspace.textDocuments.some((d) => d.languageId === 'markdown' && d.getText().includes('999999')) ? true : undefined));
    table.editing.edits.clear();
  });

  it('Review Changes can go straight to the Before/After view of the request documents', async () => {
    const row = table.viewRows().find((r) => r.hasChildren === false)!;
    await table.dispatch({ type: 'commit', id: row.id, key: 'Code', text: 'TBL-PREVIEW' });
    assert.equal(table.editing.edits.size, 1);
    const docs = (await vscode.commands.executeCommand('workItemStudio.reviewTableChanges', 'preview')) as vscode.TextDocument[];
    assert.equal(docs.length, 1);
    assert.deepEqual((parse(docs[0]!.getText()) as { update: unknown }).update, { fields: { Code: 'TBL-PREVIEW' } });
    const labels = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => t.label);
    await waitFor('the Before/After view', async () => (labels().some((l) => l.startsWith('Before/After: table-edits')) ? true : undefined));
    assert.equal(table.editing.edits.size, 1, 'nothing sent: the edit stays');
    await table.dispatch({ type: 'undo' });
    assert.equal(table.editing.edits.size, 0);
  });
});
