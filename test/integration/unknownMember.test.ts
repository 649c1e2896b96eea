// An unknown member blocks sending, so it is an error in the Problems panel (the JSON
// language service reports it as a warning only), with the "did you mean" and a Quick Fix;
// "fix all" (also on save) never applies such a guess.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { activateExtension, waitFor } from './support';

const SOURCE = 'Work Item Studio';

describe('request documents: unknown members', function () {
  this.timeout(120_000);
  let file: string;

  before(async () => {
    await activateExtension();
    const ws = vscode.workspace.workspaceFolders?.[0];
    const dir = ws ? path.join(ws.uri.fsPath, '.integration-unknown') : fs.mkdtempSync(path.join(os.tmpdir(), 'wis-unknown-'));
    fs.mkdirSync(dir, { recursive: true });
    file = path.join(dir, `typo-${process.pid}.workitems.json`);
    fs.writeFileSync(file, `${JSON.stringify({ workItemIds: ['120'], update: { movScheduleDays: 3, assignmentChange: { Adds: [{ partyId: '2001' }] } } }, null, 2)}\n`);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(file, { force: true });
  });

  it('is an error of ours with the suggestion, and its Quick Fix renames it; fix-all leaves it alone', async () => {
    const uri = vscode.Uri.file(file);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const typo = await waitFor('our diagnostic on movScheduleDays', () =>
      vscode.languages.getDiagnostics(uri).find((d) => d.source === SOURCE && doc.getText(d.range).includes('movScheduleDays')),
    );
    assert.equal(typo.severity, vscode.DiagnosticSeverity.Error);
    assert.match(typo.message, /Did you mean "moveScheduleDays"\?/);

    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, typo.range, vscode.CodeActionKind.QuickFix.value);
    const rename = actions.find((a) => a.title === 'Rename to "moveScheduleDays"');
    assert.ok(rename, `Quick Fixes: ${actions.map((a) => a.title).join('; ')}`);

    const fixAll = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      uri,
      new vscode.Range(0, 0, doc.lineCount, 0),
      'source.fixAll.workItemStudio',
    );
    const ours = fixAll.filter((a) => a.title.startsWith('Apply all'));
    assert.equal(ours.length, 1, `fix-all actions: ${fixAll.map((a) => a.title).join('; ')}`);
    const edits = ours[0]!.edit!.get(uri).map((e) => e.newText);
    assert.deepEqual(edits, ['"adds"'], 'fix-all renames the capitalised member only, not the guessed one');

    await vscode.workspace.applyEdit(rename.edit!);
    await waitFor('the error to go away', () =>
      vscode.languages.getDiagnostics(uri).some((d) => d.source === SOURCE && d.severity === vscode.DiagnosticSeverity.Error) ? undefined : true,
    );
    assert.match(doc.getText(), /"moveScheduleDays": 3/);
  });
});
