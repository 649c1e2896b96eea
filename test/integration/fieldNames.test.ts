// Field names in request documents inside a real extension host: a document written with
// the old names (StartDate, EndDate, WorkCategoryId) gets errors with Quick Fixes to the
// official names (one per name, and one for the whole document); completion inside
// `fields` offers the custom fields the connected sandbox describes (GET /system/fieldTypes).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { createSandbox } from '../../src/sandbox';
import { activateExtension, waitFor } from './support';

const SOURCE = 'Work Item Studio';

function writeDocument(name: string, text: string): vscode.Uri {
  const ws = vscode.workspace.workspaceFolders?.[0];
  const dir = ws ? path.join(ws.uri.fsPath, '.integration-fields') : fs.mkdtempSync(path.join(os.tmpdir(), 'wis-fields-'));
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}-${process.pid}.workitems.json`);
  fs.writeFileSync(file, text);
  return vscode.Uri.file(file);
}

/** The custom fields a demo sandbox describes (read over HTTP from a sandbox of the same demo data). */
async function demoCustomFields(): Promise<{ systemName: string; name: string; dataType: string }[]> {
  const sb = await createSandbox({ port: 0 });
  try {
    const token = (await (await fetch(`${sb.url}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ loginName: 'admin', password: 'password' }) })).json()) as { token: string };
    const r = await fetch(`${sb.url}/system/fieldTypes?isSystemField=false`, { headers: { authorization: `Bearer ${token.token}` } });
    assert.equal(r.status, 200, 'the sandbox answers GET /system/fieldTypes');
    return ((await r.json()) as { data: { systemName: string; name: string; dataType: string }[] }).data;
  } finally {
    await sb.close();
  }
}

describe('request documents: field names', function () {
  this.timeout(120_000);
  const files: vscode.Uri[] = [];

  before(async () => {
    await activateExtension();
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const f of files) fs.rmSync(f.fsPath, { force: true });
  });

  it('old field names are errors with a Quick Fix to the official name, and one fix for the whole document', async () => {
    const uri = writeDocument(
      'old-names',
      `${JSON.stringify(
        {
          workItemIds: ['120'],
          update: {
            fields: { StartDate: '2025-04-01', EndDate: '2025-04-10', WorkCategoryId: '71' },
            fieldCalcTypes: { EndDate: 'Children' },
            propagateToChildren: { fields: 'WorkCategoryId,LeaderId' },
          },
        },
        null,
        2,
      )}\n`,
    );
    files.push(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const old = await waitFor('the old-name errors', () => {
      const d = vscode.languages.getDiagnostics(uri).filter((x) => x.source === SOURCE && x.code === 'FIELD_OLD_NAME');
      return d.length === 5 ? d : undefined;
    });
    for (const d of old) assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
    const start = old.find((d) => doc.getText(d.range) === '"StartDate"');
    assert.ok(start, `an error on the name "StartDate": ${old.map((d) => doc.getText(d.range)).join(', ')}`);
    assert.match(start.message, /"StartDate" in fields .*"PlannedStartDate"/);

    // One Quick Fix: rename StartDate.
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, start.range, vscode.CodeActionKind.QuickFix.value);
    const one = actions.find((a) => a.title === 'Rename "StartDate" to the official name "PlannedStartDate"');
    assert.ok(one?.edit, `Quick Fixes: ${actions.map((a) => a.title).join('; ')}`);
    assert.equal(one.isPreferred, true);
    assert.ok(await vscode.workspace.applyEdit(one.edit));
    assert.match(doc.getText(), /"PlannedStartDate": "2025-04-01"/);

    // The whole document: every remaining old name, in members and in the list of fields.
    const endDiag = await waitFor('the diagnostics after the first fix', () => {
      const d = vscode.languages.getDiagnostics(uri).filter((x) => x.code === 'FIELD_OLD_NAME');
      return d.length === 4 ? d[0] : undefined;
    });
    const more = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, endDiag.range, vscode.CodeActionKind.QuickFix.value);
    const all = more.find((a) => a.title.startsWith('Use the official field names in this document'));
    assert.ok(all?.edit, `Quick Fixes: ${more.map((a) => a.title).join('; ')}`);
    assert.ok(await vscode.workspace.applyEdit(all.edit));
    const value = JSON.parse(doc.getText()) as { update: { fields: Record<string, unknown>; fieldCalcTypes: Record<string, unknown>; propagateToChildren: { fields: string } } };
    assert.deepEqual(Object.keys(value.update.fields), ['PlannedStartDate', 'PlannedFinishDate', 'TimeEntryCategoryId']);
    assert.deepEqual(value.update.fieldCalcTypes, { PlannedFinishDate: 'Children' });
    assert.equal(value.update.propagateToChildren.fields, 'TimeEntryCategoryId,LeaderId');
    await waitFor('the old-name errors to go away', () => (vscode.languages.getDiagnostics(uri).some((d) => d.code === 'FIELD_OLD_NAME') ? undefined : true));
    await doc.save();
  });

  it('completion inside "fields" offers a custom field of the connected sandbox, with its display name and type', async () => {
    const custom = await demoCustomFields();
    const text = custom.find((f) => f.dataType === 'String') ?? custom[0];
    assert.ok(text, 'the demo data has custom fields');
    await vscode.commands.executeCommand('workItemStudio.startSandbox');
    await vscode.commands.executeCommand('workItemStudio.refreshFieldCatalogue');
    const uri = writeDocument('custom', '{\n  "workItemIds": ["122"],\n  "update": {\n    "fields": {\n      ""\n    }\n  }\n}\n');
    files.push(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const at = doc.positionAt(doc.getText().indexOf('""') + 1);
    const item = await waitFor(`completion of ${text.systemName}`, async () => {
      const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', uri, at);
      return list.items.find((i) => (typeof i.label === 'string' ? i.label : i.label.label) === text.systemName);
    }, 30_000);
    assert.match(item.detail ?? '', new RegExp(`${text.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*${text.dataType}`));

    // A custom field written with a bad value is checked by its type, from the same catalogue.
    const number = custom.find((f) => f.dataType === 'Integer' || f.dataType === 'Decimal');
    if (number) {
      const edit = new vscode.WorkspaceEdit();
      edit.replace(uri, new vscode.Range(0, 0, doc.lineCount, 0), JSON.stringify({ workItemIds: ['122'], update: { fields: { [number.systemName]: 'not a number' } } }, null, 2));
      await vscode.workspace.applyEdit(edit);
      await waitFor(`a type error on ${number.systemName}`, () =>
        vscode.languages.getDiagnostics(uri).some((d) => d.source === SOURCE && d.code === 'FIELD_VALUE_TYPE' && d.message.includes(number.systemName)) ? true : undefined,
      );
    }
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('item types (changeItemTypeTo) and statuses (StatusTypeId) complete by name from the profile of the items\' project, inserting the ID', async () => {
    await vscode.commands.executeCommand('workItemStudio.startSandbox');
    const uri = writeDocument('types', '{\n  "workItemIds": ["122"],\n  "update": {\n    "changeItemTypeTo": "",\n    "fields": { "StatusTypeId": "" }\n  }\n}\n');
    files.push(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const labels = async (needle: string): Promise<vscode.CompletionItem[]> => {
      const at = doc.positionAt(doc.getText().indexOf(needle) + needle.length - 1);
      const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', uri, at);
      return list.items.filter((i) => typeof i.label !== 'string' && /^ID \d+$/.test(i.label.description ?? ''));
    };
    const types = await waitFor('item types by name', async () => {
      const items = await labels('"changeItemTypeTo": ""');
      return items.length > 0 ? items : undefined;
    }, 30_000);
    const task = types.find((i) => (i.label as vscode.CompletionItemLabel).label === '作業');
    assert.ok(task, `item types: ${types.map((i) => (i.label as vscode.CompletionItemLabel).label).join(', ')}`);
    assert.equal(task.insertText, '"42"');
    assert.ok(!types.some((i) => (i.label as vscode.CompletionItemLabel).label === 'ワークアイテムルート'), 'not the root folder type');
    const statuses = await labels('"StatusTypeId": ""');
    const done = statuses.find((i) => (i.label as vscode.CompletionItemLabel).label === '完了');
    assert.ok(done, `statuses: ${statuses.map((i) => (i.label as vscode.CompletionItemLabel).label).join(', ')}`);
    assert.equal(done.insertText, '"53"');
  });
});
