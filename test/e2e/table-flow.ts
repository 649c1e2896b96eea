// The work item table as a person uses it in a real workbench (browser E2E), in English or
// Japanese: opened from the Work Items view's context menu on a project, a filter typed in its
// bar (the count of matches updates, then the rows narrow), cells edited with the keyboard only
// (arrows, Enter, Escape, Tab, Ctrl+C / Ctrl+V of a block, a block pasted as Excel puts it on
// the clipboard: Japanese text and full-width digits), and Review Changes: the edits become
// one request document (a change set) shown in the Before/After view. Used by table.test.ts and table-ja.test.ts;
// each step saves the README's screenshot (with UPDATE_SCREENSHOTS=1).
import * as assert from 'node:assert/strict';
import type { Frame, Locator } from 'playwright-core';
import * as path from 'node:path';
import { E2E_RESULTS, ENGLISH_SIGN_IN, type SignInPrompts, type Workbench } from './workbench';

/** What the person reads in one language. */
export interface TableTexts {
  /** Suffix of the screenshots ('' or '-ja'). */
  suffix: string;
  newUpdateCommand: string;
  idsPrompt: RegExp;
  signInCommand: string;
  signIn: SignInPrompts;
  workItemsView: string;
  otherViews: string[];
  openTable: string;
  tabTitle: RegExp;
  /** The default columns' headers, in order. */
  headers: string[];
  filterPlaceholder: string;
  /** The bar's buttons and label, in order. */
  barTexts: string[];
  /** The filter typed first (status and leader by login name or name; 10 matches), then what is added to it (finish before a date; 4 matches). */
  filterFirst: string;
  filterMore: string;
  matches: (matches: number, total: number) => string;
  items: (n: number) => string;
  editedCells: (n: number) => string;
  copied: (n: number) => string;
  editedBefore: (before: string) => string;
  review: string;
  reviewPlaceholder: (edits: number, requests: number) => string;
  previewBeforeAfter: string;
  beforeAfterTab: RegExp;
  expectedHeading: string;
  /** English strings of the table that must not be seen (in the Japanese run). */
  notSeen: string[];
}

export const ENGLISH: TableTexts = {
  suffix: '',
  newUpdateCommand: 'Work Item Studio: New Work Item Update',
  idsPrompt: /Work item IDs/,
  signInCommand: 'Work Item Studio: Sign In…',
  signIn: ENGLISH_SIGN_IN,
  workItemsView: 'Work Items',
  otherViews: ['Organizations', 'Process Categories'],
  openTable: 'Open Work Item Table',
  tabTitle: /^Table: Webサイト刷新/,
  headers: ['Name', 'Code', 'Type', 'Status', 'Leader', 'Assignees', 'Planned start', 'Planned finish', 'Planned time (h)', 'Progress', 'Parent'],
  filterPlaceholder: 'Filter, e.g. status:"In progress" leader:suzuki finish<2026-03-01 overdue',
  barTexts: ['Add Condition…', 'Named Filters…', 'Save Filter…', 'Columns…', 'Lowest level only', 'Use in Request Document', 'Undo', 'Redo', 'Review Changes', 'Export…', 'Import…'],
  filterFirst: 'status:未着手 leader:admin',
  filterMore: ' finish<2026-05-20',
  matches: (m, t) => `${m} of ${t} items match`,
  items: (n) => `${n} items`,
  editedCells: (n) => `${n} edited cells`,
  copied: (n) => `Copied ${n} cells.`,
  editedBefore: (b) => `Edited. Before: ${b}`,
  review: 'Review Changes',
  reviewPlaceholder: (e, r) => `${e} edited cells make ${r} update requests.`,
  previewBeforeAfter: 'Preview Before/After',
  beforeAfterTab: /^Before\/After: table-edits-/,
  expectedHeading: 'Current → expected values',
  notSeen: [],
};

export const JAPANESE: TableTexts = {
  suffix: '-ja',
  newUpdateCommand: 'Work Item Studio: 新しい作業項目の更新',
  idsPrompt: /^作業項目の ID/,
  signInCommand: 'Work Item Studio: サインイン…',
  signIn: { method: 'ログイン名とパスワード', login: /^ログイン名/, password: /のパスワード/ },
  workItemsView: '作業項目',
  otherViews: ['組織', 'プロセス分類'],
  openTable: '作業項目テーブルを開く',
  tabTitle: /^テーブル: Webサイト刷新/,
  headers: ['名称', 'コード', '項目タイプ', 'ステータス', 'リーダー', '担当者', '予定開始日', '予定終了日', '予定工数 (時間)', '進捗率', '親'],
  filterPlaceholder: '絞り込み (例: ステータス:"進行中" リーダー:suzuki finish<2026-03-01 期限切れ)',
  barTexts: ['条件を追加…', '名前付きフィルター…', 'フィルターを保存…', '列…', '最下位の作業項目のみ', 'リクエスト文書で使う', '元に戻す', 'やり直し', '変更を確認', 'エクスポート…', 'インポート…'],
  // Japanese field names, a user by name, full-width characters (read as ASCII).
  filterFirst: 'ステータス:未着手 リーダー:管理者',
  filterMore: ' 終了＜２０２６－０５－２０',
  matches: (m, t) => `${t} 件中 ${m} 件が一致`,
  items: (n) => `${n} 件`,
  editedCells: (n) => `編集したセル ${n} 個`,
  copied: (n) => `${n} 個のセルをコピーしました。`,
  editedBefore: (b) => `編集済み。変更前: ${b}`,
  review: '変更を確認',
  reviewPlaceholder: (e, r) => `編集した ${e} 個のセルは ${r} 件の更新リクエストになります。`,
  previewBeforeAfter: '変更前と変更後をプレビュー',
  beforeAfterTab: /^変更前\/変更後: table-edits-/,
  expectedHeading: '現在値 → 予想値',
  notSeen: ['Add Condition', 'Named Filters', 'Save Filter', 'Columns…', 'Lowest level', 'Request Document', 'Undo', 'Redo', 'Review Changes', 'Export', 'Import', 'edited cells', 'items match', 'Reading work items', 'Before/After'],
};

/** Column indexes of the default layout. */
const COL = { name: 0, code: 1, status: 3, leader: 4, start: 6, finish: 7, time: 8, progress: 9 } as const;

/** The rows the filter leaves (items 131-134: not started, leader admin, finishing 05-16 to 05-19), in the tree's order; the first part finds 131-140. */
const FILTERED = [
  { id: '131', name: '結合テスト 1', code: 'WEB-T-01', start: '2026-05-11', finish: '2026-05-16' },
  { id: '132', name: '結合テスト 2', code: 'WEB-T-02', start: '2026-05-12', finish: '2026-05-17' },
  { id: '133', name: '結合テスト 3', code: 'WEB-T-03', start: '2026-05-13', finish: '2026-05-18' },
  { id: '134', name: '結合テスト 4', code: 'WEB-T-04', start: '2026-05-14', finish: '2026-05-19' },
];

/**
 * The block a person copies from Excel: planned time and progress of two rows, in Japanese
 * notation and full-width digits (7 hours 30 minutes, 50 %; 7.5, 50), with Excel's last line
 * break. Both rows then hold the same change, which Review Changes puts in one request.
 */
export const EXCEL_BLOCK = '７時間３０分\t５０％\r\n７．５\t５０\r\n';

/** A screenshot of the moment something did not appear (test-results/e2e/, never the README's folder). */
async function missingShot(wb: Workbench, what: string): Promise<void> {
  await wb.page.screenshot({ path: path.join(E2E_RESULTS, `missing-${what.replace(/[^A-Za-z0-9]+/g, '-').slice(0, 60)}.png`) }).catch(() => undefined);
}

/** Polls `check` until it holds, failing with `what` after `timeoutMs`. */
async function until(wb: Workbench, what: string, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await wb.page.waitForTimeout(150);
  }
  await missingShot(wb, what);
  throw new Error(`${what} did not happen within ${timeoutMs / 1000} s`);
}

/** The webview document holding `selector` (the table and the Before/After views are webviews). */
export async function frameWith(wb: Workbench, selector: string, what: string, timeoutMs = 60_000, skip: readonly Frame[] = []): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const f of wb.page.frames()) {
      if (skip.includes(f)) continue;
      if ((await f.locator(selector).count().catch(() => 0)) > 0) return f;
    }
    await wb.page.waitForTimeout(300);
  }
  await missingShot(wb, what);
  throw new Error(`${what} did not appear within ${timeoutMs / 1000} s`);
}

/** The table of one workbench, driven as a person does. */
export class TableFlow {
  table!: Frame;
  constructor(
    readonly wb: Workbench,
    readonly t: TableTexts,
  ) {}

  cell(r: number, c: number): Locator {
    return this.table.locator(`#rows .row[data-r="${r}"] .cell[data-c="${c}"]`);
  }

  async cellText(r: number, c: number): Promise<string> {
    return ((await this.cell(r, c).textContent({ timeout: 10_000 })) ?? '').trim();
  }

  /** Waits for the focused cell to be (r, c) with the keyboard's focus in the grid. */
  async expectFocus(r: number, c: number, what: string): Promise<void> {
    let seen = '';
    try {
      await until(this.wb, what, async () => {
        // Runs in the webview's page (a string: this project compiles without the DOM's types).
        const at = (await this.table.evaluate(`(() => {
          const el = document.querySelector('#rows .cell.focused');
          const row = el && el.parentElement;
          return { r: row && row.dataset.r, c: el && el.dataset.c, grid: document.activeElement && document.activeElement.id };
        })()`)) as { r?: string; c?: string; grid?: string };
        seen = JSON.stringify(at);
        // The grid's keyboard focus is its text box at the focused cell (#typer).
        return at.r === String(r) && at.c === String(c) && (at.grid === 'typer' || at.grid === 'grid');
      }, 10_000);
    } catch (e) {
      throw new Error(`${(e as Error).message}: the focus is ${seen}, expected row ${r}, column ${c} in the grid`);
    }
  }

  async press(key: string): Promise<void> {
    await this.wb.page.keyboard.press(key);
  }

  /** Signs in, then opens the table of the project Webサイト刷新 from the Work Items view's context menu. */
  async open(): Promise<void> {
    const { wb, t } = this;
    const { page } = wb;
    // Signed in unless an earlier test of the same workbench did (the status bar names the user).
    const signedIn = page.locator('.statusbar-item', { hasText: /(admin|管理者 太郎)@127\.0\.0\.1/ });
    if (!(await signedIn.first().isVisible())) {
      // A command of the extension activates it (Sign In is listed once it runs): a new request document, cancelled.
      await wb.runCommand(t.newUpdateCommand);
      await wb.expectVisible(wb.quickInput.locator('.quick-input-message', { hasText: t.idsPrompt }), 'the work item IDs box of a new request document');
      await page.keyboard.press('Escape');
      await wb.runCommand(t.signInCommand);
      await wb.signIn('admin', 'password', signedIn, 60_000, t.signIn);
    }
    await page.keyboard.press('Escape');
    await (await wb.expectVisible(wb.activityBarIcon, 'the Work Item Studio activity bar icon')).click();
    const header = (title: string) => page.locator('.part.sidebar .pane-header', { hasText: title });
    await wb.expectVisible(header(t.workItemsView), `the Work Items view (${t.workItemsView})`);
    for (const title of t.otherViews) {
      const h = header(title);
      if ((await h.getAttribute('aria-expanded').catch(() => null)) === 'true') await h.click();
    }
    const pane = page.locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: t.workItemsView }) });
    const project = await wb.expectVisible(pane.locator('.monaco-list-row', { hasText: /PRJ-WEB/ }), 'the project Webサイト刷新 (PRJ-WEB) in the Work Items view', 60_000);
    await project.click({ button: 'right' });
    await wb.runMenuEntry(await wb.expectVisible(page.locator('.monaco-menu .action-item', { hasText: t.openTable }), `${t.openTable} in the project's context menu`));
    await wb.expectVisible(page.locator('.tabs-container .tab', { hasText: t.tabTitle }), `the table's tab (${t.tabTitle.source})`, 60_000);
    // The table is the subject: the side bar closed (a click on the view's own icon in the activity bar).
    await wb.activityBarIcon.click();
    await page.locator('.part.sidebar').waitFor({ state: 'hidden', timeout: 10_000 });
    this.table = await frameWith(wb, '#rows .row:not(.pending) .cell', 'the rows of the table');
    const rowsRead = this.table.locator('#status', { hasText: new RegExp(`^${t.items(0).replace('0', '\\d+')}$`) });
    await wb.expectVisible(rowsRead, 'the count of the items read, once reading ended', 60_000);
    // The reading's notification (progress and Cancel) gone before the pictures.
    await page.locator('.notification-toast').first().waitFor({ state: 'hidden', timeout: 30_000 }).catch(() => undefined);
  }

  /** The headers and the bar, in the UI's language. */
  async checkTexts(): Promise<void> {
    const { t } = this;
    await this.wb.expectVisible(this.table.locator('#header .hcell .label', { hasText: t.headers[0]! }), 'the headers');
    const headers = (await this.table.locator('#header .hcell .label').allTextContents()).map((h) => h.replace(/[▲▼]/g, '').trim());
    assert.deepEqual(headers, t.headers, 'the default columns and their headers');
    assert.equal(await this.table.locator('#filter').getAttribute('placeholder'), t.filterPlaceholder, 'the filter bar hint');
    // In the bar or in its "…" menu (the actions that do not fit in one row).
    const bar = ((await this.table.locator('#bar').textContent()) ?? '').replace(/\s+/g, ' ');
    for (const text of t.barTexts) assert.ok(bar.includes(text), `the bar or its menu shows "${text}": ${bar}`);
    const page = (await this.table.locator('body').textContent() ?? '').replace(/\s+/g, ' ');
    const english = t.notSeen.filter((s) => page.includes(s));
    assert.deepEqual(english, [], `English strings in the table: ${page}`);
  }

  /** Step 1: the table as opened. */
  async shoot(name: string): Promise<void> {
    await this.wb.screenshot(`${name}${this.t.suffix}`);
  }

  /** Step 2: a filter typed in the bar; the count of matches follows the typing, Enter narrows the rows. */
  async filter(): Promise<void> {
    const { wb, t } = this;
    const filter = this.table.locator('#filter');
    const total = Number(((await this.table.locator('#status').innerText()).match(/\d+/) ?? ['0'])[0]);
    assert.ok(total > 20, `the project's rows (${total})`);
    // Users by name once the people directory has read them (the first row's leader is admin, 2001).
    await until(wb, 'the leader of the first row by name (管理者 太郎)', async () => (await this.cellText(0, COL.leader)) === '管理者 太郎', 30_000);
    await filter.click();
    await filter.pressSequentially(t.filterFirst, { delay: 20 });
    await wb.expectVisible(this.table.locator('#count', { hasText: t.matches(10, total) }), `the count "${t.matches(10, total)}" for "${t.filterFirst}"`);
    await filter.pressSequentially(t.filterMore, { delay: 20 });
    await wb.expectVisible(this.table.locator('#count', { hasText: t.matches(4, total) }), `the count "${t.matches(4, total)}" once "${t.filterMore.trim()}" is added`);
    // Counted only: the rows are all still there until Enter.
    assert.ok((await this.table.locator('#rows .row').count()) > 4, 'the rows are narrowed only by Enter');
    await filter.press('Enter');
    // "4 items / 43": the rows shown of the rows read.
    await wb.expectVisible(this.table.locator('#status', { hasText: new RegExp(`^${t.items(4)} / ${total}$`) }), `the status "${t.items(4)} / ${total}" once the filter applies`);
    // The four rows, painted (a row not received yet is painted empty for a moment).
    const codes = async () => Promise.all(FILTERED.map((_, r) => this.cellText(r, COL.code)));
    await until(wb, 'the rows narrowed to the four matches', async () => (await this.table.locator('#rows .row:not(.pending)').count()) === 4 && (await codes()).join() === FILTERED.map((f) => f.code).join());
    for (let r = 0; r < FILTERED.length; r++) assert.equal(await this.cellText(r, COL.name), FILTERED[r]!.name, `row ${r} after the filter`);
  }

  async expectEdited(r: number, c: number, value: string, before: string, what: string): Promise<void> {
    const cell = this.cell(r, c);
    await this.wb.expectVisible(this.table.locator(`#rows .row[data-r="${r}"] .cell.edited[data-c="${c}"]`), what);
    assert.equal(await this.cellText(r, c), value, what);
    assert.equal(await cell.getAttribute('title'), this.t.editedBefore(before), `${what}: the value before on hover`);
  }

  /**
   * The clipboard's text, read in the table's page (the document with the keyboard's focus: the
   * browser refuses the clipboard to a document without focus; the webview's frame allows it).
   */
  async clipboard(): Promise<string> {
    return (await this.table.evaluate('navigator.clipboard.readText()')) as string;
  }

  /** Step 3: keyboard only. */
  async keyboard(): Promise<void> {
    const { wb, t } = this;
    const first = FILTERED[0]!;
    // ↓ in the filter bar goes to the grid, on its first cell.
    await this.press('ArrowDown');
    await this.expectFocus(0, COL.name, 'the first cell focused by ↓ from the filter bar');
    await this.press('ArrowRight');
    await this.expectFocus(0, COL.code, '→ to the Code cell');
    await this.press('ArrowDown');
    await this.expectFocus(1, COL.code, '↓ to the next row');
    await this.press('ArrowUp');
    await this.expectFocus(0, COL.code, '↑ back');

    // Enter opens the editor; Escape cancels (nothing edited).
    await this.press('Enter');
    const editor = await wb.expectVisible(this.table.locator('input.cell-editor'), 'the in-cell editor opened by Enter');
    assert.equal(await editor.inputValue(), first.code);
    await this.press('Escape');
    await this.table.locator('.cell-editor').waitFor({ state: 'detached', timeout: 10_000 });
    await this.expectFocus(0, COL.code, 'the focus back on the cell after Escape');
    assert.equal(await this.cellText(0, COL.code), first.code, 'Escape kept the value');
    assert.equal(await this.table.locator('#rows .cell.edited').count(), 0, 'nothing edited after Escape');

    // Enter, type, Tab: committed, and the focus moves on to the right.
    await this.press('Enter');
    await wb.expectVisible(this.table.locator('input.cell-editor'), 'the in-cell editor opened again');
    await wb.page.keyboard.type('E2E-1');
    await this.press('Tab');
    await this.expectEdited(0, COL.code, 'E2E-1', first.code, 'the Code typed and committed by Tab');
    await this.expectFocus(0, COL.code + 1, 'Tab moved to the next cell');
    await this.press('Tab');
    await this.expectFocus(0, COL.code + 2, 'Tab in the grid moves right');
    await this.press('Shift+Tab');
    await this.expectFocus(0, COL.code + 1, 'Shift+Tab moves left');

    // A block copied with Ctrl+C (the planned start and finish of the first row) and pasted with Ctrl+V on the next.
    for (let c = COL.code + 1; c < COL.start; c++) await this.press('ArrowRight');
    await this.expectFocus(0, COL.start, '→ to the planned start');
    await this.press('Shift+ArrowRight');
    await this.expectFocus(0, COL.finish, 'Shift+→ extends the selection');
    assert.equal(await this.table.locator('#rows .cell.selected').count(), 2, 'two cells selected');
    await this.press('Control+C');
    await wb.expectVisible(wb.page.locator('.statusbar-item', { hasText: t.copied(2) }), `"${t.copied(2)}" in the status bar`, 10_000);
    const copied = `${first.start}\t${first.finish}`;
    let got = '';
    const read = () => this.clipboard().catch((e: Error) => `(not read: ${e.message})`);
    await until(wb, 'the copied block on the clipboard', async () => (got = await read()) === copied).catch((e: Error) => {
      throw new Error(`${e.message}: the clipboard holds ${JSON.stringify(got)}`);
    });
    await this.press('ArrowDown');
    await this.expectFocus(1, COL.finish, '↓ to the next row');
    await this.press('ArrowLeft');
    await this.expectFocus(1, COL.start, '← to its planned start');
    await this.press('Control+V');
    await this.expectEdited(1, COL.start, first.start, FILTERED[1]!.start, 'the pasted planned start');
    await this.expectEdited(1, COL.finish, first.finish, FILTERED[1]!.finish, 'the pasted planned finish');

    // A block from Excel: Japanese notation and full-width digits, parsed for each column.
    // (Put on the clipboard from the table's page, which has the focus, as Excel would put it.)
    await this.table.evaluate(`navigator.clipboard.writeText(${JSON.stringify(EXCEL_BLOCK)})`);
    assert.equal(await this.clipboard(), EXCEL_BLOCK, 'the block from Excel on the clipboard');
    await this.press('ArrowDown');
    await this.press('ArrowRight');
    await this.press('ArrowRight');
    await this.expectFocus(2, COL.time, 'the planned time of the third row');
    const before = [await this.cellText(2, COL.time), await this.cellText(2, COL.progress), await this.cellText(3, COL.time), await this.cellText(3, COL.progress)];
    await this.press('Control+V');
    await this.expectEdited(2, COL.time, '7:30', before[0]!, 'planned time pasted as 7時間30分');
    await this.expectEdited(2, COL.progress, '50%', before[1]! || (t.suffix ? '（空）' : '(empty)'), 'progress pasted as ５０％');
    await this.expectEdited(3, COL.time, '7:30', before[2]!, 'planned time pasted as ７．５');
    await this.expectEdited(3, COL.progress, '50%', before[3]! || (t.suffix ? '（空）' : '(empty)'), 'progress pasted as ５０');
    await wb.expectVisible(this.table.locator('#edits', { hasText: t.editedCells(7) }), `"${t.editedCells(7)}" in the bar`);
    // → to the progress, beyond the right edge at first: the table scrolls to show the focused cell.
    await this.press('ArrowRight');
    await this.expectFocus(2, COL.progress, '→ to the pasted progress');
    await until(wb, 'the focused progress cell scrolled into sight', async () => {
      const cell = await this.cell(2, COL.progress).boundingBox();
      const body = await this.table.locator('#body').boundingBox();
      return !!cell && !!body && cell.x >= body.x - 1 && cell.x + cell.width <= body.x + body.width + 1;
    });
    assert.equal(await this.table.locator('#problem').isVisible(), false, 'no cell refused');
  }

  /** Step 4: Review Changes opens one request document (a change set) and its Before/After view. */
  async review(): Promise<void> {
    const { wb, t } = this;
    const { page } = wb;
    const button = await wb.expectVisible(this.table.locator('#review', { hasText: t.review }), `the ${t.review} button`);
    await button.click();
    await wb.expectVisible(wb.quickInput.locator('.monaco-list-row', { hasText: t.previewBeforeAfter }), 'the review pick');
    const placeholder = await wb.quickInput.locator('input').first().getAttribute('placeholder');
    // Code (131), the planned dates (132), and one request for the same planned time and progress of 133 and 134.
    assert.equal(placeholder, t.reviewPlaceholder(7, 3), 'the pick says how many requests the edits make');
    await wb.pickQuickItem(`${t.previewBeforeAfter} in the review pick`, t.previewBeforeAfter);
    const documents = page.locator('.tabs-container .tab', { hasText: /^table-edits-\d+\.workitems\.json/ });
    await until(wb, 'one request document (table-edits-N.workitems.json)', async () => (await documents.count()) === 1, 60_000);
    // The document as the editor shows it: one change of three requests, each with its IDs and its change.
    const tab = documents.first();
    await tab.click();
    const name = (await tab.innerText()).trim().split(/\s/)[0]!;
    const group = page.locator('.editor-group-container', { has: page.locator('.tab.active', { hasText: name }) });
    const lines = group.locator('.monaco-editor .view-lines').filter({ hasText: '"requests"' });
    await wb.expectVisible(lines, 'the text of the request document');
    const text = (await lines.first().innerText()).replace(/\s+/g, ' ');
    const requests = text.split('"workItemIds"').slice(1);
    assert.equal(requests.length, 3, `three requests: ${text}`);
    const request = (id: string) => requests.filter((x) => new RegExp(`^: \\[[^\\]]*"${id}"`).test(x));
    assert.equal(request('131').length, 1, `131 in one request: ${text}`);
    assert.match(request('131')[0]!, /^: \[ ?"131" ?\].*"fields": \{ ?"Code": "E2E-1" ?\}/, `the Code of 131: ${text}`);
    assert.match(request('132')[0] ?? '', new RegExp(`^: \\[ ?"132" ?\\].*"PlannedStartDate": "${FILTERED[0]!.start}", "PlannedFinishDate": "${FILTERED[0]!.finish}"`), `the planned dates of 132: ${text}`);
    assert.equal(request('133')[0], request('134')[0], `133 and 134 share one request: ${text}`);
    assert.match(request('133')[0] ?? '', /^: \[ ?"133", "134" ?\].*"ActualProgress": 50, "PlannedTime": 450 ?\}/, `progress 50 and 7.5 hours (450 minutes) for 133 and 134: ${text}`);

    // One Before/After view of the whole change: current → expected values of every item.
    const preview = page.locator('.tabs-container .tab', { hasText: t.beforeAfterTab });
    await (await wb.expectVisible(preview, `the Before/After view (${t.beforeAfterTab.source})`, 90_000)).click();
    const view = await this.visibleFrameWith('#wis-changes[data-kind="preview"] .wis-row', 'the rows of the Before/After view');
    await wb.expectVisible(view.locator('body', { hasText: t.expectedHeading }), `the heading "${t.expectedHeading}"`);
    const rows = (await view.locator('.wis-row').allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim());
    assert.deepEqual(rows.map((r) => r.split(' ')[0]).sort(), ['131', '132', '133', '134'], rows.join(' | '));
    for (const r of rows.filter((x) => /^13[34] /.test(x))) {
      assert.match(r, /0 ?→ ?50\b/, `the progress after the change: ${r}`);
      assert.match(r, /(h|時間) ?→ ?7\.5 ?(h|時間)/, `the planned time after the change (7.5 hours): ${r}`);
    }
    // The document beside its Before/After view.
    await tab.click();
    await preview.first().click();
    await this.shoot('table-review');
  }

  /** The webview page holding `selector` whose frame is in sight (a hidden webview may keep its page). */
  async visibleFrameWith(selector: string, what: string, timeoutMs = 60_000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      for (const f of this.wb.page.frames()) {
        if ((await f.locator(selector).count().catch(() => 0)) === 0) continue;
        const outer = f.parentFrame() && f.parentFrame() !== this.wb.page.mainFrame() ? f.parentFrame()! : f;
        const el = await outer.frameElement().catch(() => undefined);
        if (el && (await el.isVisible().catch(() => false))) return f;
      }
      await this.wb.page.waitForTimeout(300);
    }
    await missingShot(this.wb, what);
    throw new Error(`${what} did not appear within ${timeoutMs / 1000} s`);
  }
}
