// Browser E2E of the work item table edited as a spreadsheet, in a real workbench: a date typed
// as the table shows it (2026-05-25) and as a paste accepts it (2026/5/25, full-width digits) in
// the real editor gives the date; typing on a focused cell starts its editor with what was typed
// (keys, and a Japanese IME's composition); a refused value keeps the focus in the editor, as
// typed, with the reason; Delete clears a cell. Then the bar beside other editors: one row at
// about 900 px and 1400 px editor widths (the rest in its "…" menu, Undo next to Redo, the
// filter box as wide as its placeholder), headers naming the field on hover. Saves screenshots
// (test-results/screenshots/, or the README's with UPDATE_SCREENSHOTS=1).
import * as assert from 'node:assert/strict';
import { ENGLISH, TableFlow } from './table-flow';
import { repeatedDescribe } from './repeat';
import { Workbench } from './workbench';

/** Column indexes of the default layout (Name, Code, Type, Status, Leader, Assignees, Planned start, Planned finish, Planned time, Progress, Parent). */
const COL = { name: 0, code: 1, start: 6, finish: 7, progress: 9 } as const;

repeatedDescribe('Work item table: editing as in a spreadsheet, and its bar beside other editors', function () {
  this.timeout(180_000);
  let wb: Workbench;
  let flow: TableFlow;
  /** Rows whose planned start is before 2026-05-20 (a planned finish of 2026-05-2x is valid for them). */
  const dated: number[] = [];
  /** The cells' values as read (the edited cells' hover names them). */
  const read = new Map<string, string>();
  const asRead = (r: number, c: number) => read.get(`${r}/${c}`) || '(empty)';

  before(async function () {
    this.timeout(15 * 60_000);
    wb = await Workbench.start({ settings: { 'workItemStudio.organizations': ['1001'] } });
    flow = new TableFlow(wb, ENGLISH);
    await flow.open();
    for (let r = 0; r < 20 && dated.length < 4; r++) {
      const start = await flow.cellText(r, COL.start).catch(() => '');
      if (/^\d{4}-\d{2}-\d{2}$/.test(start) && start < '2026-05-20') dated.push(r);
    }
    for (const r of dated) for (const c of [COL.code, COL.finish]) read.set(`${r}/${c}`, await flow.cellText(r, c));
    assert.ok(dated.length >= 3, `rows with a planned start before 2026-05-20 among the first 20: ${dated.join(', ')}`);
  });

  after(async () => {
    await wb?.stop();
  });

  /** The focus on cell (r, c) of the grid by a click (a single cell selected; a click on the focused cell would edit it). */
  async function focusCell(r: number, c: number): Promise<void> {
    const focused = await flow.table.locator(`#rows .row[data-r="${r}"] .cell.focused[data-c="${c}"]`).count();
    if (focused === 0 || (await flow.table.locator('#rows .cell.selected').count()) > 1) await flow.cell(r, c).click();
    await flow.expectFocus(r, c, `the cell at row ${r}, column ${c} focused by a click`);
  }

  /** Waits for cell (r, c) to show `value` (an edited cell may already be marked before its new value is painted). */
  async function expectText(r: number, c: number, value: string, what: string): Promise<void> {
    const deadline = Date.now() + 15_000;
    let seen = '';
    while (Date.now() < deadline) {
      if ((seen = await flow.cellText(r, c).catch(() => '')) === value) return;
      await wb.page.waitForTimeout(150);
    }
    assert.fail(`${what}: the cell shows ${JSON.stringify(seen)}, not ${JSON.stringify(value)}`);
  }

  const editorInput = () => flow.table.locator('input.cell-editor, .cell-editor input.date-text');

  /** What has the keyboard's focus in the table's page: the element's id or class, and its value. */
  async function active(): Promise<{ id: string; cls: string; value: string }> {
    return (await flow.table.evaluate(`(() => { const a = document.activeElement; return { id: a ? a.id : '', cls: a ? String(a.className) : '', value: a && 'value' in a ? a.value : '' }; })()`)) as { id: string; cls: string; value: string };
  }

  it('edits a date typed as yyyy-MM-dd in the date editor (a text box with a calendar button, not mm/dd/yyyy)', async () => {
    const r = dated[0]!;
    await focusCell(r, COL.finish);
    const before = await flow.cellText(r, COL.finish);
    await flow.press('Enter');
    const input = await wb.expectVisible(editorInput(), 'the date editor opened by Enter');
    assert.equal(await input.getAttribute('type'), 'text', 'a text box: the browser\'s date box reads digits as mm/dd/yyyy');
    assert.equal(await input.inputValue(), before, 'the editor shows the date as the cell does (yyyy-MM-dd)');
    await wb.expectVisible(flow.table.locator('.date-editor .date-pick'), 'the calendar button beside the date box');
    // A day picked in the browser's date picker (its change event, as the picker sends it) is written as yyyy-MM-dd.
    await flow.table.evaluate(`(() => { const d = document.querySelector('.date-editor .date-picker'); d.value = '2026-05-26'; d.dispatchEvent(new Event('change')); })()`);
    assert.equal(await input.inputValue(), '2026-05-26', 'the picked day in the text box');
    // The value is selected: typing replaces it.
    await wb.page.keyboard.type('2026-05-25');
    await flow.press('Enter');
    await expectText(r, COL.finish, '2026-05-25', 'the planned finish typed as 2026-05-25');
    await flow.expectEdited(r, COL.finish, '2026-05-25', asRead(r, COL.finish), 'the planned finish typed as 2026-05-25');
    await flow.expectFocus(r + 1, COL.finish, 'Enter committed and moved down');
    await wb.expectVisible(flow.table.locator('#edits', { hasText: /^1 edited cell$/ }), '"1 edited cell" (singular) in the bar');
  });

  it('types on a focused date cell: the editor opens with what was typed, 2026/5/25 and full-width digits give the date', async () => {
    const r = dated[1]!;
    await focusCell(r, COL.finish);
    await wb.page.keyboard.type('2026/5/25');
    const input = await wb.expectVisible(editorInput(), 'the date editor opened by typing on the cell');
    assert.equal(await input.inputValue(), '2026/5/25', 'the editor holds every character typed, the first one too');
    await flow.press('Enter');
    await expectText(r, COL.finish, '2026-05-25', 'the planned finish typed as 2026/5/25');
    await flow.expectEdited(r, COL.finish, '2026-05-25', asRead(r, COL.finish), 'the planned finish typed as 2026/5/25');
    const r2 = dated[2]!;
    await focusCell(r2, COL.finish);
    await wb.page.keyboard.insertText('２０２６／５／２４');
    await wb.expectVisible(editorInput(), 'the date editor opened by full-width text');
    await flow.press('Tab');
    await expectText(r2, COL.finish, '2026-05-24', 'the planned finish typed with full-width digits');
    await flow.expectEdited(r2, COL.finish, '2026-05-24', asRead(r2, COL.finish), 'the planned finish typed with full-width digits');
    await flow.expectFocus(r2, COL.finish + 1, 'Tab committed and moved right');
    await wb.expectVisible(flow.table.locator('#edits', { hasText: /^3 edited cells$/ }), '"3 edited cells" (plural) in the bar');
  });

  it('types on a focused text cell (Excel\'s rule): the value is replaced by what was typed, nothing lost; a Japanese IME composition starts the editor too', async () => {
    const r = dated[0]!;
    await focusCell(r, COL.code);
    await wb.page.keyboard.type('TYPED-1', { delay: 15 });
    await flow.press('Enter');
    await expectText(r, COL.code, 'TYPED-1', 'the Code typed on the focused cell');
    await flow.expectEdited(r, COL.code, 'TYPED-1', asRead(r, COL.code), 'the Code typed on the focused cell');
    await flow.expectFocus(r + 1, COL.code, 'Enter moved down');

    // A composition as a Japanese IME makes it (the text being converted, then the text committed).
    const r2 = dated[1]!;
    await focusCell(r2, COL.code);
    const cdp = await wb.page.context().newCDPSession(wb.page);
    await cdp.send('Input.imeSetComposition', { text: 'て', selectionStart: 1, selectionEnd: 1 });
    await cdp.send('Input.imeSetComposition', { text: 'てすと', selectionStart: 3, selectionEnd: 3 });
    await wb.expectVisible(flow.table.locator('#typer.typing'), 'the composition shown at the cell');
    await cdp.send('Input.insertText', { text: 'テスト' });
    const input = await wb.expectVisible(editorInput(), 'the editor opened by the composition');
    assert.equal(await input.inputValue(), 'テスト', 'the composed text, its first characters too');
    await cdp.detach();
    await flow.press('Enter');
    await expectText(r2, COL.code, 'テスト', 'the Code composed with the IME');
    await flow.expectEdited(r2, COL.code, 'テスト', asRead(r2, COL.code), 'the Code composed with the IME');

    // F2 edits in place (the value kept, the caret after it); Escape cancels.
    await focusCell(r2, COL.code);
    await flow.press('F2');
    assert.equal(await (await wb.expectVisible(editorInput(), 'the editor opened by F2')).inputValue(), 'テスト');
    await flow.press('Escape');
    await flow.table.locator('.cell-editor').waitFor({ state: 'detached', timeout: 10_000 });
    await flow.expectFocus(r2, COL.code, 'Escape back on the cell');

    // Delete clears the cell (a Code may be empty); Ctrl+Z brings the composed value back.
    await flow.press('Delete');
    await expectText(r2, COL.code, '', 'Delete cleared the Code');
    await wb.page.keyboard.press('Control+Z');
    await expectText(r2, COL.code, 'テスト', 'Ctrl+Z brought the composed Code back after Delete');
    // Backspace starts the editor empty; Ctrl+Z then brings the composed value back.
    await flow.press('Backspace');
    assert.equal(await (await wb.expectVisible(editorInput(), 'the editor opened empty by Backspace')).inputValue(), '');
    await wb.page.keyboard.type('BK');
    await flow.press('Enter');
    await expectText(r2, COL.code, 'BK', 'the Code typed after Backspace');
    await flow.expectEdited(r2, COL.code, 'BK', asRead(r2, COL.code), 'the Code typed after Backspace');
    await wb.page.keyboard.press('Control+Z');
    await expectText(r2, COL.code, 'テスト', 'Ctrl+Z brought the composed Code back');
    await flow.expectEdited(r2, COL.code, 'テスト', asRead(r2, COL.code), 'Ctrl+Z brought the composed Code back');
  });

  it('keeps the focus in the editor, as typed, with the reason when a value is refused; the corrected value is taken', async () => {
    const r = dated[2]!;
    await focusCell(r, COL.finish);
    await wb.page.keyboard.type('2026-13-45');
    await flow.press('Enter');
    const message = await wb.expectVisible(flow.table.locator('.cell-message'), 'the reason under the editor');
    assert.match(await message.innerText(), /date/i, 'the reason names a date');
    await wb.expectVisible(flow.table.locator('#problem'), 'the reason in the problem line');
    const a = await active();
    assert.match(a.cls, /date-text/, `the focus stays in the date editor: ${JSON.stringify(a)}`);
    assert.equal(a.value, '2026-13-45', 'the text stays as typed');
    assert.equal(await flow.table.locator(`#rows .row[data-r="${r}"] .cell.focused[data-c="${COL.finish}"]`).count(), 1, 'the refused cell stays the focused one');
    await wb.screenshot('table-refused');
    // Corrected: taken, the editor closes and the focus moves down.
    await wb.page.keyboard.press('Control+A');
    await wb.page.keyboard.type('2026-05-23');
    await flow.press('Enter');
    await expectText(r, COL.finish, '2026-05-23', 'the corrected planned finish');
    await flow.expectEdited(r, COL.finish, '2026-05-23', asRead(r, COL.finish), 'the corrected planned finish');
    await flow.expectFocus(r + 1, COL.finish, 'the focus moved on once the value was taken');
    assert.equal(await flow.table.locator('.cell-message').count(), 0, 'the reason gone');
    assert.equal(await flow.table.locator('#problem').isVisible(), false, 'the problem line gone');
  });

  /** The editor's width set by the window's (the side bar is closed: the editor is the window less the activity bar). */
  async function barAt(editorWidth: number): Promise<{ width: number; rows: number; items: { id: string; text: string; left: number; right: number; top: number }[] }> {
    const frame = await wb.page.locator('.part.editor').boundingBox();
    const extra = (wb.page.viewportSize()?.width ?? 1280) - (frame?.width ?? 1232);
    await wb.page.setViewportSize({ width: editorWidth + extra, height: 800 });
    await wb.page.waitForTimeout(800);
    return (await flow.table.evaluate(`(() => {
      const bar = document.getElementById('bar');
      const items = [...bar.children].filter((e) => e.id !== 'more-menu' && e.getBoundingClientRect().width > 0).map((e) => {
        const b = e.getBoundingClientRect();
        return { id: e.id || e.dataset.command || e.tagName, text: (e.textContent || '').trim(), left: b.left, right: b.right, top: b.top };
      });
      const tops = new Set(items.map((i) => Math.round(i.top / 10)));
      return { width: bar.getBoundingClientRect().width, rows: tops.size, items };
    })()`)) as { width: number; rows: number; items: { id: string; text: string; left: number; right: number; top: number }[] };
  }

  for (const width of [900, 1400]) {
    it(`fits the bar in one row at an editor width of ${width} px: the rest in its "…" menu, Undo next to Redo, the filter as wide as its placeholder`, async () => {
      const bar = await barAt(width);
      assert.ok(Math.abs(bar.width - width) < 40, `the table is about ${width} px wide: ${bar.width}`);
      assert.equal(bar.rows, 1, `one row: ${JSON.stringify(bar.items)}`);
      const undo = bar.items.find((i) => i.id === 'undo');
      const redo = bar.items.find((i) => i.id === 'redo');
      assert.ok(undo && redo && redo.left - undo.right < 12, `Undo next to Redo: ${JSON.stringify([undo, redo])}`);
      // The filter box holds its placeholder (measured in its own font).
      const room = (await flow.table.evaluate(`(() => {
        const f = document.getElementById('filter');
        const cs = getComputedStyle(f);
        const ctx = document.createElement('canvas').getContext('2d');
        ctx.font = cs.fontStyle + ' ' + cs.fontWeight + ' ' + cs.fontSize + ' ' + cs.fontFamily;
        return { box: f.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight), text: ctx.measureText(f.placeholder).width };
      })()`)) as { box: number; text: number };
      assert.ok(room.box >= room.text, `the filter box (${room.box} px) holds its placeholder (${room.text} px)`);
      // Each action is in the bar or in the menu.
      const shown = bar.items.map((i) => i.text).join(' | ');
      await flow.table.locator('#more').click();
      const menu = await wb.expectVisible(flow.table.locator('#more-menu'), 'the "…" menu');
      const inMenu = (await menu.locator('[role^="menuitem"]:not([hidden])').allTextContents()).map((s) => s.trim());
      for (const text of ENGLISH.barTexts) assert.ok(shown.includes(text) || inMenu.includes(text), `"${text}" in the bar (${shown}) or in the menu (${inMenu.join(' | ')})`);
      await wb.screenshot(`table-bar-${width}`);
      await wb.page.keyboard.press('Escape');
      await menu.waitFor({ state: 'hidden', timeout: 10_000 });
    });
  }

  it('typing a long filter widens the filter box within the bar, still one row', async () => {
    const filter = flow.table.locator('#filter');
    const w0 = (await filter.boundingBox())!.width;
    await filter.click();
    await filter.pressSequentially('name:"結合テスト" status:未着手 leader:admin finish<2026-06-30 start>2026-01-01 overdue', { delay: 5 });
    await wb.page.waitForTimeout(600);
    const w1 = (await filter.boundingBox())!.width;
    assert.ok(w1 >= w0, `the filter box grew or kept its width: ${w0} → ${w1}`);
    const bar = await barAt(1400);
    assert.equal(bar.rows, 1, `one row: ${JSON.stringify(bar.items)}`);
    await filter.fill('');
    await filter.press('Enter');
  });

  it('names each header in full, with its system name, on hover', async () => {
    const title = await flow.table.locator('#header .hcell').nth(COL.finish).getAttribute('title');
    assert.match(title ?? '', /^Planned finish \(PlannedFinishDate\)\n/, `the header's hover: ${title}`);
  });
});
