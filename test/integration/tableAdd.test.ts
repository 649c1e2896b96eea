// New rows in the work item table, in a real extension host against the sandbox: Add
// Sub-item, Add Row and Duplicate Rows make a three-level tree of new rows below a folder,
// marked as new; Review Changes opens one document (one add, nested) and one Before/After;
// one Send adds them; the table then shows the created items with their IDs in place of the
// new rows, and the Work Items view shows them below the folder; the undo deletes them and
// the undo of that undo brings them back.
import * as assert from 'node:assert/strict';
import { parse } from 'jsonc-parser';
import * as vscode from 'vscode';
import type { TablePanel } from '../../src/table/panel';
import type { WorkItemNode, WorkItemTreeNode } from '../../src/workItems/tree';
import { activateExtension, answering, closeUntitledDocuments, waitFor } from './support';

/** The demo's folder and task item types. */
const FOLDER_TYPE = '41';
const TASK_TYPE = '42';

interface SendOutcome {
  baseUrl: string;
  jobId?: string;
  result: { outcome: string; requests: { state: string; ids: string[]; path: string; response?: { items?: { id?: string; name?: string; parentId?: string }[] } }[] };
}

async function stored(baseUrl: string, id: string): Promise<{ name: string; isDeleted: boolean; parentId: string | null }> {
  const res = await fetch(`${new URL(baseUrl).origin}/_sandbox/workitems/${encodeURIComponent(id)}`);
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()) as { name: string; isDeleted: boolean; parentId: string | null };
}

/** `p`, or a failure naming `what` after a minute. */
const within = <T>(what: string, p: Thenable<T> | Promise<T>): Promise<T> =>
  Promise.race([Promise.resolve(p), new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what} did not end within 60 s`)), 60_000))]);

describe('the table adds work items: new rows reviewed, sent and undone as one change @errors', function () {
  this.timeout(300_000);
  const NAME = `Phase ${process.pid}`;
  let table: TablePanel;
  let folder: WorkItemNode;

  before(async () => {
    await activateExtension();
    await vscode.commands.executeCommand('workItemStudio.startSandbox');
  });
  after(async () => {
    await closeUntitledDocuments();
    await answering({ table: { closeWithEdits: async () => 'discard' } }, () => vscode.commands.executeCommand('workbench.action.closeAllEditors'));
  });

  const select = (id: string, key = 'Name', to = id) => table.dispatch({ type: 'selection', focus: { id: to, key }, anchor: { id, key } });
  const commit = (id: string, key: string, text: string) => within(`${id}.${key}`, table.dispatch({ type: 'commit', id, key, text }));

  it('Add Sub-item, Add Row and Duplicate Rows make new rows below a folder, marked as new, each creation one undo step', async () => {
    await vscode.commands.executeCommand('workItemStudio.workItems.focus');
    const revealed = (await within('reveal', vscode.commands.executeCommand('workItemStudio.revealWorkItems', { ids: ['121'] }))) as WorkItemNode[];
    const projects = (await within('projects', revealed[0]!.tree.getChildren())) as WorkItemTreeNode[];
    const project = projects.find((n) => n.kind === 'project' && n.projectId === '3001')!;
    table = (await within('open the table', vscode.commands.executeCommand('workItemStudio.openWorkItemTable', project))) as TablePanel;
    await within('load the table', table.whenLoaded());
    const level1 = (await within('the first level', revealed[0]!.tree.getChildren(project))) as WorkItemTreeNode[];
    const folderRow = table.viewRows().find((r) => r.level === 1 && r.hasChildren === true);
    assert.ok(folderRow, 'a folder on the first level of the table');
    folder = level1.find((n): n is WorkItemNode => n.kind === 'workItem' && (n as WorkItemNode).itemId === folderRow.id) as WorkItemNode;
    assert.ok(folder, `the folder ${folderRow.id} in the Work Items view`);
    const rowsBefore = table.viewRows().length;

    await select(folder.itemId);
    const [top] = (await vscode.commands.executeCommand('workItemStudio.addTableSubItem')) as string[];
    assert.match(top!, /^new-\d+$/);
    await table.additions.settled;
    await commit(top!, 'Name', NAME);
    await commit(top!, 'ItemTypeId', FOLDER_TYPE);
    await select(top!);
    const [mid] = (await vscode.commands.executeCommand('workItemStudio.addTableSubItem')) as string[];
    await table.additions.settled;
    await commit(mid!, 'Name', `${NAME} design`);
    await commit(mid!, 'ItemTypeId', FOLDER_TYPE);
    await select(mid!);
    const [leaf] = (await vscode.commands.executeCommand('workItemStudio.addTableSubItem')) as string[];
    await table.additions.settled;
    await commit(leaf!, 'Name', `${NAME} sketch`);
    await commit(leaf!, 'PlannedTime', '2:30');
    await select(leaf!);
    const [sibling] = (await vscode.commands.executeCommand('workItemStudio.addTableRow')) as string[];
    await table.additions.settled;
    await commit(sibling!, 'Name', `${NAME} review`);
    await select(sibling!);
    const [copy] = (await vscode.commands.executeCommand('workItemStudio.duplicateTableRows')) as string[];
    await table.additions.settled;
    await commit(copy!, 'Name', `${NAME} sign-off`);

    const view = table.viewRows();
    assert.equal(view.length, rowsBefore + 5);
    const at = (id: string) => view.findIndex((r) => r.id === id);
    assert.ok(at(folder.itemId) < at(top!) && at(top!) < at(mid!) && at(mid!) < at(leaf!) && at(leaf!) < at(sibling!) && at(sibling!) < at(copy!), 'in tree order below the folder');
    const base = view[at(folder.itemId)]!.level;
    assert.deepEqual([top, mid, leaf, sibling, copy].map((id) => view[at(id!)]!.level - base), [1, 2, 3, 3, 3]);
    assert.ok(view.filter((r) => r.id.startsWith('new-')).every((r) => r.level > base));
    assert.equal(table.editing.edits.fieldsOf(table.editing.row(leaf!)!)['ItemTypeId'], TASK_TYPE, 'a new row takes the task type by default');

    // One undo step took away the duplicate; redo brings it back.
    await table.dispatch({ type: 'undo' }); // the name of the copy
    await table.dispatch({ type: 'undo' }); // the copy itself
    await waitFor('the copy taken away by undo', () => (table.viewRows().every((r) => r.id !== copy) ? true : undefined));
    await table.dispatch({ type: 'redo' });
    await table.dispatch({ type: 'redo' });
    await waitFor('the copy back by redo', () => (table.viewRows().some((r) => r.id === copy) ? true : undefined));
  });

  it('Review Changes → one add of the tree → one Before/After → one Send → the table and the Work Items view show the items with their IDs → undo deletes them → the undo of the undo brings them back', async () => {
    const docs = (await within('Review Changes', vscode.commands.executeCommand('workItemStudio.reviewTableChanges', 'preview'))) as vscode.TextDocument[];
    assert.equal(docs.length, 1, 'one document');
    const uri = docs[0]!.uri;
    const doc = parse(docs[0]!.getText()) as { add?: { parentId: string; fields: Record<string, unknown>; subItems?: { fields: Record<string, unknown>; subItems?: { fields: Record<string, unknown> }[] }[] } };
    assert.equal(doc.add?.parentId, folder.itemId, docs[0]!.getText());
    assert.equal(doc.add!.fields['Name'], NAME);
    assert.equal(doc.add!.fields['ItemTypeId'], FOLDER_TYPE);
    assert.deepEqual(doc.add!.subItems!.map((s) => s.fields['Name']), [`${NAME} design`]);
    assert.deepEqual(doc.add!.subItems![0]!.subItems!.map((s) => [s.fields['Name'], s.fields['ItemTypeId']]), [[`${NAME} sketch`, TASK_TYPE], [`${NAME} review`, TASK_TYPE], [`${NAME} sign-off`, TASK_TYPE]]);
    assert.equal(doc.add!.subItems![0]!.subItems![0]!.fields['PlannedTime'], 150);

    const state = await waitFor('the Before/After view with the new rows', async () => {
      const s = (await vscode.commands.executeCommand('workItemStudio.pressBeforeAfterButton', 'state')) as { document?: string; rows?: { id: string; name: string }[] };
      return s.document === uri.toString() && (s.rows?.length ?? 0) >= 5 ? s : undefined;
    });
    assert.deepEqual(state.rows!.map((r) => r.name.trim()), [NAME, `${NAME} design`, `${NAME} sketch`, `${NAME} review`, `${NAME} sign-off`]);

    const sent = (await within('Send', vscode.commands.executeCommand('workItemStudio.sendUpdate', uri))) as SendOutcome[];
    assert.equal(sent.length, 1, 'one job');
    assert.equal(sent[0]!.result.outcome, 'succeeded', JSON.stringify(sent[0]!.result.requests));
    assert.equal(sent[0]!.result.requests.length, 1, 'one POST');
    const added = (sent[0]!.result.requests[0]!.response?.items ?? []).map((i) => String(i.id));
    assert.equal(added.length, 5);
    const preview = (await vscode.commands.executeCommand('workItemStudio.previewUpdate', uri)) as string;
    const baseUrl = /POST (\S+)\/workitem\/workItems\//.exec(preview)?.[1] ?? '';
    assert.ok(baseUrl, preview);

    // The table: the new rows gave way to the created items, with their IDs, below the folder.
    await within('the table reading again', table.reloading);
    await waitFor('the created items in the table', () => (added.every((id) => table.viewRows().some((r) => r.id === id)) ? true : undefined));
    assert.ok(table.viewRows().every((r) => !r.id.startsWith('new-')), 'no new row is left');
    assert.equal(table.editing.edits.size, 0, 'nothing left to send');
    const topRow = table.viewRows().find((r) => r.id === added[0])!;
    assert.equal(topRow.fields['Name'], NAME);
    await shownInTreeUndoneAndBack(sent[0]!, added, baseUrl);
  });

  /**
   * The items a send added: in the Work Items view below the folder (its level read again);
   * Create Undo Document deletes them (one delete of the top item), and the undo of that undo
   * brings them back below the folder.
   */
  async function shownInTreeUndoneAndBack(sent: SendOutcome, added: readonly string[], baseUrl: string): Promise<void> {
    await waitFor('the new items in the Work Items view', async () => {
      const kids = (await folder.tree.getChildren(folder)) as WorkItemTreeNode[];
      return kids.some((k) => k.kind === 'workItem' && (k as WorkItemNode).itemId === added[0]) ? true : undefined;
    });
    const undo = (await within('Create Undo Document', answering({ undo: { drift: async () => 'cancel' } }, () => vscode.commands.executeCommand('workItemStudio.createUndoDocument', sent.jobId)))) as { documents: vscode.Uri[] };
    assert.equal(undo.documents.length, 1);
    const undoDoc = parse((await vscode.workspace.openTextDocument(undo.documents[0]!)).getText()) as { delete?: { workItemIds: string[] } };
    assert.deepEqual(undoDoc.delete?.workItemIds, [added[0]], 'the undo deletes the item added below the folder (its sub-items go with it)');
    const undone = (await within('send the undo', vscode.commands.executeCommand('workItemStudio.sendUpdate', undo.documents[0]))) as SendOutcome[];
    assert.equal(undone[0]!.result.outcome, 'succeeded', JSON.stringify(undone[0]!.result.requests));
    for (const id of added) assert.equal((await stored(baseUrl, id)).isDeleted, true, `${id} deleted`);
    await waitFor('the deleted items gone from the Work Items view', async () => {
      const kids = (await folder.tree.getChildren(folder)) as WorkItemTreeNode[];
      return kids.every((k) => k.kind !== 'workItem' || (k as WorkItemNode).itemId !== added[0]) ? true : undefined;
    });
    const again = (await within('undo the undo', answering({ undo: { drift: async () => 'cancel' } }, () => vscode.commands.executeCommand('workItemStudio.createUndoDocument', undone[0]!.jobId)))) as { documents: vscode.Uri[] };
    const restored = (await within('send the undo of the undo', vscode.commands.executeCommand('workItemStudio.sendUpdate', again.documents[0]))) as SendOutcome[];
    assert.equal(restored[0]!.result.outcome, 'succeeded', JSON.stringify(restored[0]!.result.requests));
    for (const id of added) assert.equal((await stored(baseUrl, id)).isDeleted, false, `${id} back`);
    assert.equal((await stored(baseUrl, added[0]!)).parentId, folder.itemId);
  }

  /** Reviews the table, sends the one document, and answers the added items' IDs (depth first) and the job. */
  async function reviewAndSend(): Promise<{ uri: vscode.Uri; sent: SendOutcome; added: string[]; text: string }> {
    const docs = (await within('Review Changes', vscode.commands.executeCommand('workItemStudio.reviewTableChanges', 'preview'))) as vscode.TextDocument[];
    assert.equal(docs.length, 1, 'one document');
    const text = docs[0]!.getText();
    const [sent] = (await within('Send', vscode.commands.executeCommand('workItemStudio.sendUpdate', docs[0]!.uri))) as SendOutcome[];
    assert.equal(sent?.result.outcome, 'succeeded', JSON.stringify(sent?.result.requests));
    const added = sent!.result.requests.filter((r) => r.path.endsWith('/subItems')).flatMap((r) => (r.response?.items ?? []).map((i) => String(i.id)));
    await within('the table reading again', table.reloading);
    return { uri: docs[0]!.uri, sent: sent!, added, text };
  }

  it('an outline pasted from Excel (a header, WBS numbers, Japanese dates) becomes new rows below the selected folder, shown before anything is added, then one add', async () => {
    const OUTLINE = `WBS\t名称\t予定開始日\t予定終了日\r\n1\t${NAME} リリース\t\t\r\n1.1\t準備\t2026/6/1\t2026/6/3\r\n1.1.1\t草案\t2026/6/1\t2026/6/2\r\n1.2\t公開\t2026/6/4\t2026/6/4\r\n`;
    await select(folder.itemId);
    const rowsBefore = table.viewRows().length;
    const ids = (await within('Paste as New Items', vscode.commands.executeCommand('workItemStudio.pasteTableNewItems', OUTLINE))) as string[];
    await table.additions.settled;
    assert.equal(ids.length, 4, 'four new rows');
    const view = table.viewRows();
    assert.equal(view.length, rowsBefore + 4, 'shown in the table; nothing added yet');
    const base = view.find((r) => r.id === folder.itemId)!.level;
    const fields = (id: string) => table.editing.edits.fieldsOf(table.editing.row(id)!);
    assert.deepEqual(ids.map((id) => [view.find((r) => r.id === id)!.level - base, fields(id)['Name'], fields(id)['ItemTypeId']]), [
      [1, `${NAME} リリース`, FOLDER_TYPE],
      [2, '準備', FOLDER_TYPE],
      [3, '草案', TASK_TYPE],
      [2, '公開', TASK_TYPE],
    ]);
    assert.equal(fields(ids[2]!)['PlannedStartDate'], '2026-06-01');

    const { text, added, sent } = await reviewAndSend();
    const doc = parse(text) as { add?: { fields: Record<string, unknown>; subItems?: { fields: Record<string, unknown>; subItems?: unknown[] }[] } };
    assert.equal(doc.add?.fields['Name'], `${NAME} リリース`, text);
    assert.deepEqual(doc.add!.subItems!.map((x) => x.fields['Name']), ['準備', '公開']);
    assert.equal(doc.add!.subItems![0]!.subItems!.length, 1);
    assert.equal(added.length, 4);
    await waitFor('the created items in the table', () => (added.every((id) => table.viewRows().some((r) => r.id === id)) ? true : undefined));
    assert.ok(table.viewRows().every((r) => !r.id.startsWith('new-')));
    assert.deepEqual(added.map((id) => table.viewRows().find((r) => r.id === id)!.level - base), [1, 2, 3, 2], 'the created items in the outline\'s levels, with their IDs');
    await shownInTreeUndoneAndBack(sent, added, sent.baseUrl);
  });

  it('a CSV with new rows (no ID, placed by the parent path, one below another new row) and an edit of an existing row: one undo step, one change', async () => {
    const leaf = table.viewRows().find((r) => r.hasChildren === false && !r.id.startsWith('new-') && r.level > 1)!;
    const typeName = (v: unknown): string => {
      const id = typeof v === 'object' && v !== null ? String((v as { id?: unknown }).id) : String(v);
      return table.allColumns().find((c) => c.key === 'ItemTypeId')?.choices?.find((c) => c.id === id)?.name ?? id;
    };
    // The path the folder's children show in the Parent column (as the export writes it).
    const folderName = table.additions.placeOf(folder.itemId)!.childPath;
    const csv = [
      'ID,Name,Type,Parent,Code',
      `,${NAME} CSV folder,${FOLDER_TYPE},${folderName},`,
      `,${NAME} CSV task,${TASK_TYPE},${folderName} / ${NAME} CSV folder,CSV-T`,
      // The existing row as the export writes it (its type by name), with a new code.
      `${leaf.id},${String(leaf.fields['Name'])},${typeName(leaf.fields['ItemTypeId'])},${String(leaf.fields['ParentName'] ?? '')},CSV-EDIT`,
    ].join('\r\n');
    const outcome = (await within('Import', vscode.commands.executeCommand('workItemStudio.importIntoTable', { text: csv, mapping: {} }))) as { newRowCount: number; changedCells: number; problems: unknown[] };
    assert.deepEqual(outcome.problems, []);
    assert.equal(outcome.newRowCount, 2);
    assert.equal(outcome.changedCells, 1, 'the code of the existing row');
    await table.additions.settled;
    const fresh = table.viewRows().filter((r) => r.id.startsWith('new-'));
    assert.deepEqual(fresh.map((r) => table.editing.edits.fieldsOf(table.editing.row(r.id)!)['Name']), [`${NAME} CSV folder`, `${NAME} CSV task`]);
    // One undo takes back the whole import; redo brings it back.
    await table.dispatch({ type: 'undo' });
    await waitFor('the import undone', () => (table.viewRows().every((r) => !r.id.startsWith('new-')) && !table.editing.edits.get(leaf.id, 'Code') ? true : undefined));
    await table.dispatch({ type: 'redo' });
    await waitFor('the import back', () => (table.viewRows().filter((r) => r.id.startsWith('new-')).length === 2 ? true : undefined));

    const { text, added } = await reviewAndSend();
    const doc = parse(text) as { requests?: { add?: { parentId: string; fields: Record<string, unknown>; subItems?: { fields: Record<string, unknown> }[] }; workItemIds?: string[] }[] };
    const add = doc.requests?.find((r) => r.add)?.add;
    assert.equal(add?.parentId, folder.itemId, text);
    assert.deepEqual(add!.subItems!.map((x) => [x.fields['Name'], x.fields['Code']]), [[`${NAME} CSV task`, 'CSV-T']]);
    assert.ok(doc.requests?.some((r) => r.workItemIds?.includes(leaf.id)), text);
    assert.equal(added.length, 2);
  });
});
