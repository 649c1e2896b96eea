// Browser E2E of the work item table's editing in a real workbench: the page script
// (src/table/web/) with the real webview. A click on the focused cell opens the
// in-cell editor, Enter commits, the cell is marked edited with the value before on
// hover, Ctrl+Z (the keybinding scoped to the table webview) takes it back, a
// read-only cell says why, and Ctrl+D fills a selection down. Then the whole flow in English
// (table-flow.ts): opened from the Work Items view, a filter, keyboard-only editing with copy and
// paste, Review Changes. Saves the README's screenshots with UPDATE_SCREENSHOTS=1.
import * as assert from 'node:assert/strict';
import { ENGLISH, TableFlow, frameWith as frameIn } from './table-flow';
import { repeatedDescribe } from './repeat';
import { Workbench } from './workbench';

repeatedDescribe('Work item table editing in a VS Code workbench', function () {
  this.timeout(180_000);
  let wb: Workbench;

  before(async function () {
    this.timeout(15 * 60_000);
    // The root organization picked (as in the Organizations view): the table shows users by name.
    wb = await Workbench.start({
      files: { 'table-items.workitems.json': { workItemIds: ['122', '123', '127'], update: { fields: { Code: 'X' } } } },
      settings: { 'workItemStudio.organizations': ['1001'] },
    });
    await wb.page.keyboard.press('Control+B');
  });

  after(async () => {
    await wb?.stop();
  });

  const frameWith = (selector: string, what: string) => frameIn(wb, selector, what);

  it('edits a cell in place (Enter commits), marks it with the value before, undoes it with Ctrl+Z, says why a read-only cell cannot be edited, fills down with Ctrl+D', async () => {
    // A command of the extension activates it (its editor commands show once it runs).
    await wb.runCommand('Work Item Studio: New Work Item Update');
    await wb.expectVisible(wb.quickInput.locator('.quick-input-message', { hasText: /Work item IDs/ }), 'the work item IDs box');
    await wb.page.keyboard.press('Escape');
    await wb.openFile('table-items.workitems.json');
    await wb.runCommand('Work Item Studio: Open Work Item Table');
    const tab = wb.page.locator('.tabs-container .tab', { hasText: /^Table: table-items/ });
    // The command opens the tab at once (its first read asks to sign in after). An error it shows
    // instead fails here with its text: an error message without buttons fades after 15 s.
    const error = wb.notification(/./).filter({ has: wb.page.locator('.notification-list-item-icon.codicon-error') });
    await wb.expectVisible(tab.or(error), 'the table tab (or an error message of the command)', 60_000);
    if (await error.first().isVisible()) assert.fail(`Open Work Item Table showed an error: ${(await error.first().innerText()).replace(/\s+/g, ' ')}`);
    // Rows show once signed in.
    const rowsShown = wb.page.frameLocator('iframe.webview').frameLocator('iframe').locator('#rows .row .cell').first();
    await wb.signIn('admin', 'password', rowsShown);
    const table = await frameWith('#rows .row:not(.pending) .cell', 'the rows of the table');
    const headers = await table.locator('#header .hcell .label').allTextContents();
    const codeAt = headers.findIndex((h) => h.replace(/[▲▼ ]/g, '') === 'Code');
    const parentAt = headers.findIndex((h) => h.replace(/[▲▼ ]/g, '') === 'Parent');
    assert.ok(codeAt >= 0 && parentAt >= 0, headers.join(' | '));
    const row = table.locator('#rows .row').first();
    const code = row.locator('.cell').nth(codeAt);
    const before = (await code.textContent()) ?? '';

    await code.click();
    await code.click(); // the focused cell again: its editor
    const editor = await wb.expectVisible(table.locator('input.cell-editor'), 'the in-cell editor');
    assert.equal(await editor.inputValue(), before);
    await editor.fill('E2E-CODE');
    await editor.press('Enter');
    const edited = table.locator('#rows .row').first().locator('.cell.edited');
    await wb.expectVisible(edited, 'the edited cell marked');
    assert.equal(await edited.textContent(), 'E2E-CODE');
    assert.match((await edited.getAttribute('title')) ?? '', new RegExp(`^Edited\\. Before: ${before.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') || '\\(empty\\)'}$`));
    await wb.expectVisible(table.locator('#edits', { hasText: '1 edited cell' }), 'the count of edited cells in the bar (one: singular)');
    await wb.screenshot('table-editing');

    await table.locator('#grid').focus();
    await wb.page.keyboard.press('Control+Z');
    await table.locator('#rows .row .cell.edited').first().waitFor({ state: 'detached', timeout: 15_000 });
    assert.equal(await table.locator('#rows .row').first().locator('.cell').nth(codeAt).textContent(), before);

    const parent = table.locator('#rows .row').first().locator('.cell').nth(parentAt);
    await parent.click();
    await parent.dblclick();
    await wb.expectVisible(table.locator('#problem', { hasText: /moveParentTo/ }), 'why the parent cannot be edited');
    assert.equal(await table.locator('.cell-editor').count(), 0, 'no editor for a read-only cell');

    // Fill down (Ctrl+D, the table's keybinding) over the Code cells of the three rows.
    const cells = (r: number) => table.locator('#rows .row').nth(r).locator('.cell').nth(codeAt);
    await cells(0).click();
    await cells(2).click({ modifiers: ['Shift'] });
    await wb.page.keyboard.press('Control+D');
    await wb.expectVisible(table.locator('#rows .row').nth(2).locator('.cell.edited'), 'the last row filled');
    assert.equal(await cells(1).textContent(), before.replace(/^● ?/, ''));
    assert.equal(await cells(2).textContent(), before.replace(/^● ?/, ''));
    await wb.expectVisible(table.locator('#edits', { hasText: '2 edited cells' }), 'two cells edited by the fill');
    await wb.page.keyboard.press('Control+Z');
    await table.locator('#rows .row .cell.edited').first().waitFor({ state: 'detached', timeout: 15_000 });
  });

  describe('the table flow in English', () => {
    let flow: TableFlow;

    before(async function () {
      this.timeout(60_000);
      // The table of the first test closed: only the project's table is open below.
      await wb.runCommand('View: Close All Editors');
      flow = new TableFlow(wb, ENGLISH);
    });

    it('opens the table of a project from the Work Items view, with its default columns', async () => {
      await flow.open();
      await flow.checkTexts();
      await flow.shoot('table');
    });

    it('counts the matches of a filter as it is typed (status, leader, finish before a date) and narrows the rows on Enter', async () => {
      await flow.filter();
      await flow.shoot('table-filter');
    });

    it('edits with the keyboard only: arrows, Enter, Escape, Tab, Ctrl+C / Ctrl+V of a block, a block pasted from Excel', async () => {
      await flow.keyboard();
      await flow.shoot('table-edited');
    });

    it('Review Changes: the edits as one request document of three requests in the Before/After view', async () => {
      await flow.review();
    });
  });
});
