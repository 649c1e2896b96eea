// Browser E2E in a real workbench, in English and in Japanese: a WBS copied from Excel (a
// header, WBS numbers, dates as Excel shows them) is pasted into the work item table with
// Paste as New Items below the selected folder. The new rows appear in the table, marked as
// new, as a tree in the outline's levels, before anything is added; Review Changes opens one
// document and its Before/After view, which lists the new items. Nothing is sent here (the
// integration suite sends and undoes the same flow). Saves table-outline*.png and
// table-outline-review*.png with UPDATE_SCREENSHOTS=1.
import * as assert from 'node:assert/strict';
import { ENGLISH, JAPANESE, TableFlow, type TableTexts } from './table-flow';
import { Workbench } from './workbench';

const OUTLINE = 'WBS\t名称\t予定開始日\t予定終了日\r\n1\tリリース準備\t\t\r\n1.1\t資料作成\t2026/6/1\t2026/6/3\r\n1.1.1\t草案\t2026/6/1\t2026/6/2\r\n1.2\t公開\t2026/6/4\t2026/6/4\r\n';
const NAMES = ['リリース準備', '資料作成', '草案', '公開'];

interface OutlineTexts {
  command: string;
  newRow: string;
  reviewPlaceholder: string;
}
const TEXTS: Record<'en' | 'ja', OutlineTexts> = {
  en: { command: 'Work Item Studio: Paste as New Items (Outline)', newRow: 'New item: added when the review is sent.', reviewPlaceholder: '4 new rows: 1 request.' },
  ja: { command: 'Work Item Studio: 新しい項目として貼り付け (アウトライン)', newRow: '新しい項目: レビューを送信すると追加されます。', reviewPlaceholder: '新しい行 4 件: 1 リクエスト。' },
};

/** A Name cell's text without the tree's toggle of a row with children. */
const name = (shown: string): string => shown.replace(/^[▾▸▹▿]\s*/, '').trim();

for (const [locale, t, o] of [
  ['en', ENGLISH, TEXTS.en],
  ['ja', JAPANESE, TEXTS.ja],
] as [string, TableTexts, OutlineTexts][]) {
  describe(`Work item table: an outline pasted as new items in a VS Code workbench (${locale})`, function () {
    this.timeout(180_000);
    let wb: Workbench;
    let flow: TableFlow;

    before(async function () {
      this.timeout(15 * 60_000);
      wb = await Workbench.start({ ...(locale === 'ja' ? { locale: 'ja' } : {}), settings: { 'workItemStudio.organizations': ['1001'] } });
      flow = new TableFlow(wb, t);
    });

    after(async () => {
      await wb?.stop();
    });

    it('pastes a three-level WBS below the first folder: four new rows, marked, in their levels; then one review and its Before/After', async () => {
      await flow.open();
      const folderName = name(await flow.cellText(0, 0));
      await flow.cell(0, 0).click();
      await flow.expectFocus(0, 0, 'the first folder selected');
      await flow.table.evaluate(`navigator.clipboard.writeText(${JSON.stringify(OUTLINE)})`);
      assert.equal(await flow.clipboard(), OUTLINE, 'the outline on the clipboard');
      await wb.runCommand(o.command);

      const added = flow.table.locator('#rows .row.added');
      await wb.expectVisible(added, 'the new rows in the table', 30_000);
      await wb.page.waitForTimeout(300);
      assert.equal(await added.count(), 4, 'four new rows');
      // Runs in the webview's page (a string: this project compiles without the DOM's types).
      const rows = (await flow.table.evaluate(`[...document.querySelectorAll('#rows .row.added')].map((e) => {
        const c = e.querySelector('.cell[data-c="0"]');
        return { title: e.getAttribute('title'), name: c ? c.textContent : '', indent: c ? c.style.paddingLeft : '' };
      })`)) as { title: string | null; name: string; indent: string }[];
      assert.deepEqual(rows.map((r) => name(r.name)), NAMES, 'in the outline\'s order');
      assert.ok(rows.every((r) => r.title === o.newRow), `each marked as new: ${JSON.stringify(rows)}`);
      const indents = rows.map((r) => Number.parseInt(r.indent, 10));
      assert.ok(indents[0]! < indents[1]! && indents[1]! < indents[2]! && indents[3] === indents[1], `the levels shown by indent: ${indents.join(', ')}`);
      // The folder stays where it was: the new rows come after its children.
      assert.equal(name(await flow.cellText(0, 0)), folderName);
      // The picture shows the new rows whole: the grid scrolled on by a few rows.
      await flow.table.evaluate(`document.getElementById('body').scrollTop += ${5 * 24}`);
      await wb.page.waitForTimeout(300);
      await flow.shoot('table-outline');

      const button = await wb.expectVisible(flow.table.locator('#review', { hasText: t.review }), `the ${t.review} button`);
      await button.click();
      await wb.expectVisible(wb.quickInput.locator('.monaco-list-row', { hasText: t.previewBeforeAfter }), 'the review pick');
      assert.equal(await wb.quickInput.locator('input').first().getAttribute('placeholder'), o.reviewPlaceholder, 'the pick counts the new rows');
      await wb.pickQuickItem(`${t.previewBeforeAfter} in the review pick`, t.previewBeforeAfter);
      const preview = wb.page.locator('.tabs-container .tab', { hasText: t.beforeAfterTab });
      await (await wb.expectVisible(preview, `the Before/After view (${t.beforeAfterTab.source})`, 90_000)).click();
      const view = await flow.visibleFrameWith('#wis-changes[data-kind="preview"] .wis-row', 'the rows of the Before/After view');
      const shown = (await view.locator('.wis-row').allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim());
      for (const n of NAMES) assert.ok(shown.some((r) => r.includes(n)), `${n} in the Before/After view: ${shown.join(' | ')}`);
      // Item types by the names of the project's profile, not by their IDs.
      assert.ok(shown.some((r) => r.includes('フォルダー')) && shown.some((r) => r.includes('作業')), `the types by name: ${shown.join(' | ')}`);
      await flow.shoot('table-outline-review');
    });
  });
}
