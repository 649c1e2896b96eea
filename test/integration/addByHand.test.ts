// An add document typed by hand gets the editor's help as an update does, in a real
// extension host against the demo sandbox: completion offers the item types of the parent's
// project by name and inserts the ID; an item type written by name is a warning whose Quick
// Fix writes its ID; an old field name in a sub-item is renamed by its Quick Fix; a sub-item
// without "Name" gets one from its Quick Fix; then the Preview shows the new items.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'jsonc-parser';
import * as vscode from 'vscode';
import { activateExtension, closeUntitledDocuments, replaceDocumentText, revertDirtyDocuments, waitFor, workspaceFolder } from './support';

/** The demo's root folder of project 3001, and its folder and task item types. */
const ROOT = '10';
const FOLDER = '41';
const TASK = '42';

describe('an add document typed by hand: completion of item types, diagnostics and Quick Fixes, then Preview', function () {
  this.timeout(300_000);
  const dir = path.join(workspaceFolder().uri.fsPath, '.integration-add-by-hand');
  const uri = vscode.Uri.file(path.join(dir, `hand-${process.pid}.workitems.json`));
  const NAME = `Handmade ${process.pid}`;

  before(async () => {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(uri.fsPath, '');
    await activateExtension();
    await vscode.commands.executeCommand('workItemStudio.startSandbox');
  });
  after(async () => {
    await closeUntitledDocuments();
    await revertDirtyDocuments();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // The folder stays (the workspace of a run is temporary): a save of the typed document that
    // comes late would fail on a removed file and leave it dirty, and every later close of the
    // editors would then wait on the question whether to save it.
  });

  const ours = (d: vscode.Diagnostic, code: string): boolean => d.source === 'Work Item Studio' && d.code === code;

  async function quickFix(doc: vscode.TextDocument, code: string, title: string): Promise<void> {
    const diagnostic = await waitFor(`a ${code} diagnostic`, () => vscode.languages.getDiagnostics(doc.uri).find((d) => ours(d, code)), 30_000);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', doc.uri, diagnostic.range, vscode.CodeActionKind.QuickFix.value);
    const action = actions.find((a) => a.title === title);
    assert.ok(action?.edit, `Quick Fixes for ${code}: ${actions.map((a) => a.title).join('; ')}`);
    assert.ok(await vscode.workspace.applyEdit(action.edit));
    await waitFor(`${code} gone`, () => !vscode.languages.getDiagnostics(doc.uri).some((d) => ours(d, code) && d.range.isEqual(diagnostic.range)), 30_000);
  }

  it('inside a sub-item, StatusTypeId and ProcessCategoryId complete by name from the profile and the service, inserting the ID', async () => {
    const listUri = vscode.Uri.file(path.join(dir, `lists-${process.pid}.workitems.json`));
    const text = `{ "add": { "parentId": "${ROOT}", "fields": { "ItemTypeId": "${FOLDER}", "Name": "x" }, "subItems": [{ "fields": { "ItemTypeId": "${TASK}", "Name": "y", "StatusTypeId": "", "ProcessCategoryId": "" } }] } }\n`;
    fs.writeFileSync(listUri.fsPath, text);
    const doc = await vscode.workspace.openTextDocument(listUri);
    await vscode.window.showTextDocument(doc);
    const offered = async (member: string, label: string): Promise<vscode.CompletionItem> => {
      const at = doc.positionAt(text.indexOf(`"${member}": ""`) + `"${member}": ""`.length - 1);
      return waitFor(`${member} by name`, async () => {
        const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', listUri, at);
        return list.items.find((i) => typeof i.label !== 'string' && i.label.label === label);
      }, 30_000);
    };
    assert.equal((await offered('StatusTypeId', '進行中')).insertText, '"52"');
    assert.equal((await offered('ProcessCategoryId', '要件定義 (REQ)')).insertText, '"5001"');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('completes the item type by name, fixes a type written by name, an old field name and a missing name; Preview lists the new items', async () => {
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    // Typed as a person would: the top item's type left to complete, a sub-item's type by its name,
    // the old name StartDate, and a second sub-item without a name yet.
    await replaceDocumentText(
      doc,
      [
        '{',
        '  "add": {',
        `    "parentId": "${ROOT}",`,
        `    "fields": { "ItemTypeId": "", "Name": "${NAME}" },`,
        '    "subItems": [',
        `      { "fields": { "ItemTypeId": "作業", "Name": "${NAME} plan", "StartDate": "2026-03-02" } },`,
        `      { "fields": { "ItemTypeId": "${TASK}" } }`,
        '    ],',
        '    "orderLast": true',
        '  }',
        '}',
        '',
      ].join('\n'),
    );

    // Completion inside the empty ItemTypeId: the project's item types by name, the ID inserted.
    const at = doc.positionAt(doc.getText().indexOf('"ItemTypeId": ""') + '"ItemTypeId": ""'.length - 1);
    const folder = await waitFor('the item types by name', async () => {
      const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', uri, at);
      return list.items.find((i) => typeof i.label !== 'string' && i.label.label === 'フォルダー' && i.label.description === `ID ${FOLDER}`);
    }, 30_000);
    assert.equal(folder.insertText, `"${FOLDER}"`);
    const range = folder.range instanceof vscode.Range ? folder.range : folder.range!.replacing;
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, range, folder.insertText as string);
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.match(doc.getText(), new RegExp(`"ItemTypeId": "${FOLDER}", "Name": "${NAME}"`));

    // The sub-item's type by name: a warning on the value, its Quick Fix writes the ID.
    const named = await waitFor('the warning on the type written by name', () => vscode.languages.getDiagnostics(uri).find((d) => ours(d, 'ADD_ID_BY_NAME')), 30_000);
    assert.equal(named.severity, vscode.DiagnosticSeverity.Warning);
    assert.equal(doc.getText(named.range), '"作業"');
    await quickFix(doc, 'ADD_ID_BY_NAME', `Use the item type "作業" (ID ${TASK})`);
    // The old field name in a sub-item, renamed as in an update.
    await quickFix(doc, 'FIELD_OLD_NAME', 'Rename "StartDate" to the official name "PlannedStartDate"');
    // The sub-item without a name gets one to fill in.
    await quickFix(doc, 'ADD_NAME_MISSING', 'Add "Name" to the new item');
    await replaceDocumentText(doc, doc.getText().replace('"Name": ""', `"Name": "${NAME} ship"`));

    const value = parse(doc.getText()) as { add: { fields: Record<string, unknown>; subItems: { fields: Record<string, unknown> }[] } };
    assert.deepEqual(value.add.fields, { ItemTypeId: FOLDER, Name: NAME });
    assert.deepEqual(value.add.subItems.map((s) => s.fields), [
      { ItemTypeId: TASK, Name: `${NAME} plan`, PlannedStartDate: '2026-03-02' },
      { Name: `${NAME} ship`, ItemTypeId: TASK },
    ]);
    await waitFor('no problems left', () => (vscode.languages.getDiagnostics(uri).some((d) => d.source === 'Work Item Studio') ? undefined : true), 30_000);

    await vscode.commands.executeCommand('workItemStudio.previewUpdate', uri);
    const state = await waitFor('the Before/After view with the new rows', async () => {
      const s = (await vscode.commands.executeCommand('workItemStudio.pressBeforeAfterButton', 'state')) as { document?: string; rows?: { id: string; name: string }[] };
      return s.document === uri.toString() && (s.rows?.length ?? 0) >= 3 ? s : undefined;
    });
    assert.deepEqual(state.rows!.map((r) => r.name.trim()), [NAME, `${NAME} plan`, `${NAME} ship`]);
    assert.ok(state.rows!.every((r) => !/^\d+$/.test(r.id)), `new rows: ${JSON.stringify(state.rows)}`);
  });
});
