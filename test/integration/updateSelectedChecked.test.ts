// "Update Selected Work Items…": checked items win for every entry point. The view
// title passes the focused row (and the selection) to the command, as the context menu
// of a row does; with items checked, the new request document lists the checked items,
// not the focused or selected row.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { WorkItemNode } from '../../src/workItems/tree';
import { activateExtension, closeUntitledDocuments } from './support';

describe('Update Selected Work Items…: checked items win for every entry point', function () {
  this.timeout(120_000);

  before(async () => {
    await activateExtension();
    await vscode.commands.executeCommand('workItemStudio.startSandbox');
    await vscode.commands.executeCommand('workItemStudio.workItems.focus');
  });

  after(async () => {
    await vscode.commands.executeCommand('workItemStudio.clearCheckedWorkItems');
    await closeUntitledDocuments();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('the view title (focused unchecked row passed), the context menu of an unchecked row and the palette all use the checked items', async () => {
    await vscode.commands.executeCommand('workItemStudio.clearCheckedWorkItems');
    const revealed = (await vscode.commands.executeCommand('workItemStudio.revealWorkItems', { ids: ['122', '123'] })) as WorkItemNode[];
    assert.equal(revealed.length, 2, 'items 122 and 123 were not found');
    const tree = revealed[0]!.tree;
    assert.deepEqual([...tree.checked].sort(), ['122', '123'], 'the revealed items are checked');
    const unchecked = tree.nodeOf('127');
    assert.ok(unchecked, 'the sibling 127 is loaded');
    assert.ok(!tree.checked.has('127'));

    // The template is given, as scripted callers do (a person picks it in a quick pick).
    const TEMPLATE = { template: 'setProgress' };
    const idsOf = (editor: unknown): string[] => (JSON.parse((editor as vscode.TextEditor).document.getText()) as { workItemIds: string[] }).workItemIds;
    // View title: VS Code passes the focused row and the selection.
    const fromTitle = await vscode.commands.executeCommand('workItemStudio.updateSelectedWorkItems', unchecked, [unchecked], TEMPLATE);
    assert.deepEqual(idsOf(fromTitle).sort(), ['122', '123'], 'the view title used the checked items');
    // Context menu of an unchecked row: the checked items win there too.
    const fromMenu = await vscode.commands.executeCommand('workItemStudio.updateSelectedWorkItems', unchecked, [unchecked, revealed[0]], TEMPLATE);
    assert.deepEqual(idsOf(fromMenu).sort(), ['122', '123']);
    // Palette and key binding: no row.
    const fromPalette = await vscode.commands.executeCommand('workItemStudio.updateSelectedWorkItems', TEMPLATE);
    assert.deepEqual(idsOf(fromPalette).sort(), ['122', '123']);

    // Nothing checked: the row the command was started on.
    await vscode.commands.executeCommand('workItemStudio.clearCheckedWorkItems');
    const fromRow = await vscode.commands.executeCommand('workItemStudio.updateSelectedWorkItems', unchecked, [unchecked], TEMPLATE);
    assert.deepEqual(idsOf(fromRow), ['127']);
  });
});
