// Browser E2E of what the work item table keeps across a real window reload: an edited cell
// the applied filter and the selected cell come back in the restored tab (the page's setState, the table's
// serializer and its activation event), and closing the tab with the edit asks in a modal
// dialog, which keeps the edit when "Keep for Next Time" is chosen.
import * as assert from 'node:assert/strict';
import { frameWith as frameIn } from './table-flow';
import { Workbench } from './workbench';

describe('Work item table across a window reload in a VS Code workbench', function () {
  this.timeout(240_000);
  let wb: Workbench;

  before(async function () {
    this.timeout(15 * 60_000);
    wb = await Workbench.start({ files: { 'kept-items.workitems.json': { workItemIds: ['122', '123', '127'], update: { fields: { Code: 'X' } } } } });
    await wb.page.keyboard.press('Control+B');
  });

  after(async () => {
    await wb?.stop();
  });

  const frameWith = (selector: string, what: string) => frameIn(wb, selector, what);
  const tab = () => wb.page.locator('.tabs-container .tab', { hasText: /^Table: kept-items/ });

  it('brings back the edited cell and the filter after Developer: Reload Window; closing then asks and keeps the edit', async () => {
    await wb.runCommand('Work Item Studio: New Work Item Update');
    await wb.expectVisible(wb.quickInput.locator('.quick-input-message', { hasText: /Work item IDs/ }), 'the work item IDs box');
    await wb.page.keyboard.press('Escape');
    await wb.openFile('kept-items.workitems.json');
    await wb.runCommand('Work Item Studio: Open Work Item Table');
    await wb.expectVisible(tab(), 'the table tab', 60_000);
    const rowsShown = wb.page.frameLocator('iframe.webview').frameLocator('iframe').locator('#rows .row .cell').first();
    await wb.signIn('admin', 'password', rowsShown);
    let table = await frameWith('#rows .row:not(.pending) .cell', 'the rows of the table');
    const headers = (await table.locator('#header .hcell .label').allTextContents()).map((h) => h.replace(/[▲▼ ]/g, ''));
    const codeAt = headers.indexOf('Code');
    const nameAt = headers.indexOf('Name');
    assert.ok(codeAt >= 0 && nameAt >= 0, headers.join(' | '));
    const name = ((await table.locator('#rows .row').first().locator('.cell').nth(nameAt).textContent()) ?? '').trim();
    assert.ok(name !== '', 'the first row has a name');

    const code = table.locator('#rows .row').first().locator('.cell').nth(codeAt);
    await code.click();
    await code.click();
    const editor = await wb.expectVisible(table.locator('input.cell-editor'), 'the in-cell editor');
    await editor.fill('E2E-KEPT');
    await editor.press('Enter');
    await wb.expectVisible(table.locator('.cell.edited', { hasText: 'E2E-KEPT' }), 'the edited cell');
    const filter = `name:"${name}"`;
    await table.locator('#filter').fill(filter);
    await table.locator('#filter').press('Enter');
    await wb.expectVisible(table.locator('#status', { hasText: /^1 item/ }), 'the filtered view (one row)');
    // The edits are written a moment after they change.
    await wb.page.waitForTimeout(1_500);

    await wb.runCommand('Developer: Reload Window');
    await wb.page.waitForEvent('framenavigated', { timeout: 60_000 }).catch(() => undefined);
    await wb.expectVisible(wb.page.locator('.monaco-workbench .part.activitybar'), 'the workbench after the reload', 90_000);
    await wb.expectVisible(tab(), 'the table tab after the reload', 60_000);
    await tab().first().click();
    table = await frameWith('#rows .row:not(.pending) .cell.edited', 'the restored table with its edited cell');
    await wb.expectVisible(table.locator('.cell.edited', { hasText: 'E2E-KEPT' }), 'the edit kept across the reload');
    assert.equal(await table.locator('#filter').inputValue(), filter, 'the filter is back in the bar');
    await wb.expectVisible(table.locator('#status', { hasText: /^1 item/ }), 'and applied');
    await wb.expectVisible(table.locator('#rows .row').first().locator('.cell.focused', { hasText: 'E2E-KEPT' }), 'the selected cell selected again');
    await wb.screenshot('table-restored');

    // Closing the tab with the edit asks (a modal dialog); the edit is kept.
    await tab().first().click();
    await wb.runCommand('View: Close Editor');
    const dialog = wb.page.locator('.monaco-dialog-box', { hasText: /closed with 1 unsent edit/ });
    await wb.expectVisible(dialog, 'the question about the unsent edit');
    await (await wb.expectVisible(dialog.locator('.monaco-button', { hasText: 'Keep for Next Time' }), 'its Keep for Next Time button')).click();
    await wb.openFile('kept-items.workitems.json');
    await wb.runCommand('Work Item Studio: Open Work Item Table');
    await wb.expectVisible(tab(), 'the table tab opened again', 60_000);
    table = await frameWith('#rows .row:not(.pending) .cell.edited', 'the table opened again with its edited cell');
    await wb.expectVisible(table.locator('.cell.edited', { hasText: 'E2E-KEPT' }), 'the kept edit');
  });
});
