// Browser E2E of accessibility in a real workbench: axe-core (the checker screen reader users'
// tools are tested with) runs in the webviews of the work item table, the Before/After view and
// the result view, with no serious or critical finding; the table is a WAI-ARIA grid (the
// focused cell named by the text box that holds the keyboard's focus, selected cells, row and
// column indexes over the virtual rows, read-only cells, an edited cell said in words); and in a
// high contrast theme the focused cell is outlined with the theme's contrast border and axe
// still finds nothing serious.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as axe from 'axe-core';
import type { Frame } from 'playwright-core';
import { ENGLISH, TableFlow, frameWith } from './table-flow';
import { Workbench } from './workbench';

const DOCUMENT = { description: 'Shift two tasks by a week', workItemIds: ['122', '123'], update: { moveScheduleDays: 7 } };

interface Finding {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/** axe's serious and critical findings in the webview document of `frame` (axe injected on first use: the page's CSP allows no script tag, an evaluation is not one). */
async function axeFindings(frame: Frame): Promise<Finding[]> {
  if ((await frame.evaluate('typeof window.axe')) !== 'object') await frame.evaluate(axe.source);
  return (await frame.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 8).map((n) => n.target.join(' ') + ' — ' + (n.failureSummary || '').replace(/\\s+/g, ' ')) })))`)) as Finding[];
}

async function expectNoSeriousFindings(frame: Frame, what: string): Promise<void> {
  const found = await axeFindings(frame);
  const text = found.map((f) => `${f.impact} ${f.id}: ${f.help}\n    ${f.nodes.join('\n    ')}`).join('\n');
  if (found.length) console.log(`axe findings in ${what}:\n${text}`);
  assert.deepEqual(found.map((f) => f.id), [], `axe found serious or critical problems in ${what}:\n${text}`);
}

describe('Accessibility of the webviews in a VS Code workbench', function () {
  this.timeout(240_000);
  let wb: Workbench;
  let flow: TableFlow;

  before(async function () {
    this.timeout(15 * 60_000);
    wb = await Workbench.start({ files: { 'a11y-shift.workitems.json': DOCUMENT }, settings: { 'workItemStudio.organizations': ['1001'] } });
    await wb.page.keyboard.press('Control+B');
    flow = new TableFlow(wb, ENGLISH);
  });

  after(async () => {
    await wb?.stop();
  });

  /** The table's grid state as a screen reader reads it: the focused element, its active cell, that cell's attributes. */
  async function gridState(): Promise<Record<string, string | null>> {
    return (await flow.table.evaluate(`(() => {
      const active = document.activeElement;
      const id = active && active.getAttribute('aria-activedescendant');
      const cell = id ? document.getElementById(id) : null;
      const grid = document.getElementById('aria-grid');
      const attr = (el, a) => (el ? el.getAttribute(a) : null);
      return {
        active: active && active.id,
        label: attr(active, 'aria-label'),
        cellRow: cell && cell.parentElement ? cell.parentElement.dataset.r : null,
        cellColumn: cell ? cell.dataset.c : null,
        rowindex: cell && cell.parentElement ? attr(cell.parentElement, 'aria-rowindex') : null,
        colindex: attr(cell, 'aria-colindex'),
        selected: attr(cell, 'aria-selected'),
        description: attr(cell, 'aria-description'),
        rowcount: attr(grid, 'aria-rowcount'),
        colcount: attr(grid, 'aria-colcount'),
        outline: cell ? getComputedStyle(cell).outlineColor + ' ' + getComputedStyle(cell).outlineStyle : null,
        contrastBorder: getComputedStyle(document.documentElement).getPropertyValue('--vscode-contrastActiveBorder').trim(),
        theme: document.body.className,
      };
    })()`)) as Record<string, string | null>;
  }

  it('the table is a grid whose focused cell a screen reader reads (selected, indexed, read only, edited in words), and axe finds nothing serious', async () => {
    await flow.open();
    const cell = flow.cell(0, 1);
    await cell.click();
    await flow.expectFocus(0, 1, 'the Code cell of the first row focused by a click');
    await flow.press('ArrowDown');
    await flow.expectFocus(1, 1, '↓ to the second row');
    let s = await gridState();
    assert.equal(s.active, 'typer', 'the keyboard is in the grid\'s text box');
    assert.deepEqual([s.cellRow, s.cellColumn], ['1', '1'], `the text box's aria-activedescendant is the focused cell: ${JSON.stringify(s)}`);
    assert.deepEqual([s.rowindex, s.colindex, s.selected], ['3', '2', 'true'], 'row 3 of the grid (the header is row 1), column 2, selected');
    const total = Number(((await flow.table.locator('#status').innerText()).match(/\d+/) ?? ['0'])[0]);
    assert.equal(s.rowcount, String(total + 1), 'aria-rowcount: every row of the view and the header, not only those painted');
    assert.equal(s.colcount, String(ENGLISH.headers.length), 'aria-colcount');
    assert.match(s.label ?? '', /^Code: /, 'the text box names the column');
    // Shift+→ selects two cells: both aria-selected, the others not.
    await flow.press('Shift+ArrowRight');
    assert.equal(await flow.table.locator('#rows .cell[aria-selected="true"]').count(), 2, 'two cells selected');
    assert.ok((await flow.table.locator('#rows .cell[aria-selected="false"]').count()) > 10, 'the other cells say they are not selected');
    // The Type column is read only (set with an add only); the Code column is not.
    const typeAt = ENGLISH.headers.indexOf('Type');
    assert.equal(await flow.cell(1, typeAt).getAttribute('aria-readonly'), 'true', 'a cell of the Type column is read only');
    assert.equal(await flow.cell(1, 1).getAttribute('aria-readonly'), null, 'a Code cell is editable');
    assert.equal(await flow.table.locator('#header [role="columnheader"][aria-colindex="1"]').count(), 1, 'the headers have column indexes');

    // An edit: the cell says it was edited and its value before, in words.
    await flow.press('ArrowLeft');
    await flow.expectFocus(1, 1, 'the selection collapsed on the Code cell');
    const before = await flow.cellText(1, 1);
    await flow.press('Enter');
    await wb.expectVisible(flow.table.locator('input.cell-editor'), 'the in-cell editor');
    await wb.page.keyboard.type('A11Y-1');
    await flow.press('Enter');
    await wb.expectVisible(flow.table.locator('#rows .row[data-r="1"] .cell.edited[data-c="1"]'), 'the edited Code cell');
    assert.equal(await flow.cell(1, 1).getAttribute('aria-description'), `Edited. Before: ${before || '(empty)'}`, 'the edit said in words');
    await flow.press('ArrowUp');
    await flow.expectFocus(1, 1, 'back on the edited cell');
    s = await gridState();
    assert.match(s.label ?? '', /^Code: A11Y-1\. Edited\. Before: /, 'the text box says it too');
    assert.notEqual(s.outline?.split(' ').pop(), 'none', 'the focused cell is outlined');

    await expectNoSeriousFindings(flow.table, 'the work item table');
  });

  it('the Before/After view and the result view: axe finds nothing serious', async () => {
    await wb.openFile('a11y-shift.workitems.json');
    await wb.page.locator('.tabs-container .tab', { hasText: 'a11y-shift.workitems.json' }).first().click();
    await wb.runCommand('Work Item Studio: Preview Work Item Update');
    const previewTab = wb.page.locator('.tabs-container .tab', { hasText: /^Before\/After: a11y-shift/ });
    await wb.signIn('admin', 'password', previewTab);
    await previewTab.first().click();
    const preview = await frameWith(wb, '#wis-changes[data-kind="preview"]', 'the Before/After view');
    await wb.expectVisible(preview.locator('.wis-row').first(), 'a row of the Before/After view');
    await expectNoSeriousFindings(preview, 'the Before/After view');

    await (await wb.expectVisible(preview.locator('button', { hasText: /^Send$/ }), 'the Send button of the Before/After view')).click();
    const resultTab = wb.page.locator('.tabs-container .tab', { hasText: /^Results/ });
    await wb.expectVisible(resultTab, 'the Results tab', 90_000);
    await resultTab.first().click();
    const results = await frameWith(wb, '#wis-changes[data-kind="result"]', 'the result view');
    await wb.expectVisible(results.locator('.wis-row').first(), 'a row of the result view');
    await expectNoSeriousFindings(results, 'the result view');
  });

  it('in a high contrast theme the focused cell is outlined with the contrast border, and axe finds nothing serious in the table', async () => {
    const settingsFile = path.join(wb.workspace, '.vscode', 'settings.json');
    const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(settingsFile, JSON.stringify({ ...settings, 'workbench.colorTheme': 'Default High Contrast' }, null, 2));
    await wb.page.locator('.tabs-container .tab', { hasText: ENGLISH.tabTitle }).first().click();
    flow.table = await frameWith(wb, '#rows .row:not(.pending) .cell', 'the rows of the table');
    const deadline = Date.now() + 60_000;
    while (!/vscode-high-contrast/.test((await gridState()).theme ?? '') && Date.now() < deadline) await wb.page.waitForTimeout(300);
    await flow.cell(0, 1).click();
    await flow.expectFocus(0, 1, 'the Code cell of the first row focused in the high contrast theme');
    const s = await gridState();
    assert.match(s.theme ?? '', /vscode-high-contrast/, 'the webview has the high contrast theme');
    assert.ok(s.contrastBorder, 'the theme has a contrast border');
    assert.match(s.outline ?? '', / solid$/, `the focused cell is outlined: ${s.outline}`);
    await wb.screenshot('table-high-contrast');
    await expectNoSeriousFindings(flow.table, 'the work item table in a high contrast theme');
  });
});
