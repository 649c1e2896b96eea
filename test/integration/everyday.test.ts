// Everyday use in a real extension host: placeholders block sending and take the
// cursor to the first one.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateExtension, closeUntitledDocuments, waitFor } from './support';

async function lensCommands(uri: vscode.Uri): Promise<string[]> {
  const lenses = (await vscode.commands.executeCommand('vscode.executeCodeLensProvider', uri)) as vscode.CodeLens[];
  return lenses.map((l) => l.command?.command ?? '').filter(Boolean);
}

describe('everyday use: placeholders', function () {
  this.timeout(120_000);

  before(async () => {
    await activateExtension();
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
    await closeUntitledDocuments();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('a placeholder left in a document is an error that blocks sending, and Send takes the cursor to the first one', async () => {
    await vscode.commands.executeCommand('workItemStudio.startSandbox');
    const editor = (await vscode.commands.executeCommand('workItemStudio.newUpdate', { ids: [], template: 'moveUnderParent' })) as vscode.TextEditor;
    const doc = editor.document;
    assert.match(doc.getText(), /"WORK-ITEM-ID"/);
    assert.match(doc.getText(), /"PARENT-ID"/);
    const placeholderErrors = await waitFor('the placeholder diagnostics', () => {
      const d = vscode.languages
        .getDiagnostics(doc.uri)
        .filter((x) => x.code === 'PLACEHOLDER_LEFT' && x.severity === vscode.DiagnosticSeverity.Error);
      return d.length === 2 ? d : undefined;
    });
    assert.deepEqual(
      placeholderErrors.map((d) => doc.getText(d.range)),
      ['"WORK-ITEM-ID"', '"PARENT-ID"'],
    );
    // No "Send · 1 item" CodeLens: the lens says what to fix.
    const lenses = await waitFor('the problems CodeLens', async () => {
      const c = await lensCommands(doc.uri);
      return c.length > 0 && !c.includes('workItemStudio.sendUpdate') ? c : undefined;
    });
    assert.ok(!lenses.includes('workItemStudio.sendUpdate'), lenses.join(', '));
    // Move the cursor away, then try to send: nothing is sent, the cursor goes to the first placeholder.
    const end = doc.positionAt(doc.getText().length);
    editor.selection = new vscode.Selection(end, end);
    void vscode.commands.executeCommand('workItemStudio.sendUpdate');
    const selected = await waitFor('the first placeholder selected', () => {
      const e = vscode.window.activeTextEditor;
      return e?.document === doc && !e.selection.isEmpty ? doc.getText(e.selection) : undefined;
    });
    assert.equal(selected, 'WORK-ITEM-ID');
    // With the IDs filled in, the next placeholder is the one the cursor goes to.
    await editor.edit((b) => b.replace(vscode.window.activeTextEditor!.selection, '122'));
    const e2 = vscode.window.activeTextEditor!;
    e2.selection = new vscode.Selection(0, 0, 0, 0);
    void vscode.commands.executeCommand('workItemStudio.previewUpdate');
    assert.equal(
      await waitFor('the parent placeholder selected', () => (!vscode.window.activeTextEditor!.selection.isEmpty ? doc.getText(vscode.window.activeTextEditor!.selection) : undefined)),
      'PARENT-ID',
    );
  });
});
