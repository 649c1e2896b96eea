// Browser E2E of the whole undo flow in a tidy window, in English and in Japanese: a request
// document that changes three items (a week later, and one planned time for all) is previewed
// and sent; Create Undo Document in the result view makes one undo document of three requests
// (the opposite shift, and the planned time each item had: two different values) and adds the
// undo summary to the result view; "Send All Undo Documents in Order" previews and sends it
// after one confirmation, and the sandbox has every value back. After every step the window has at most
// two editor groups and no Markdown tab of the undo summary. Saves the README's screenshots
// (undo-flow-result, undo-flow-sent, and -ja) with UPDATE_SCREENSHOTS=1.
import * as assert from 'node:assert/strict';
import type { Frame, Locator } from 'playwright-core';
import { ENGLISH_SIGN_IN, Workbench, type SignInPrompts } from './workbench';

const FILE = 'plan-tests.workitems.json';
const IDS = ['131', '132', '133'];
const DOCUMENT = {
  description: 'Integration tests a week later, 16 hours each',
  workItemIds: IDS,
  // 132 plans 960 minutes already: the undo puts back 480 (131) and 1440 (133), one request each.
  update: { moveScheduleDays: 7, fields: { PlannedTime: 960 } },
};
/** The requests of the one undo document: the opposite shift, and one per planned time put back. */
const UNDO_REQUESTS = 3;
/** The undo document's name: after the document and the job. */
const UNDO_NAME = /^undo-plan-tests-[0-9a-f]+\.workitems\.json/;

/** What a person sees in one display language (our strings; VS Code's own stay English). */
interface Texts {
  locale?: string;
  suffix: string;
  newUpdate: string;
  idsBox: RegExp;
  previewCommand: string;
  signIn: SignInPrompts;
  beforeAfterTab: RegExp;
  send: RegExp;
  resultTab: (document: string) => RegExp;
  everySucceeded: string;
  createUndo: string;
  summaryTitle: RegExp;
  summaryNotSent: RegExp;
  /** A request's line of the summary after its number, which says its order: what it puts back. */
  summaryRequest: (i: number) => RegExp;
  /** The order said again in words after the name ("1 of 3:"), which the summary must not do. */
  summaryOrderAgain: RegExp;
  sendAll: string;
  question: (i: number, n: number, name: string) => string;
}

const ENGLISH: Texts = {
  suffix: '',
  newUpdate: 'Work Item Studio: New Work Item Update',
  idsBox: /^Work item IDs/,
  previewCommand: 'Work Item Studio: Preview Work Item Update',
  signIn: ENGLISH_SIGN_IN,
  beforeAfterTab: /^Before\/After: plan-tests/,
  send: /^Send$/,
  resultTab: (document) => new RegExp(`^Results: ${document.replace(/\./g, '\\.')}`),
  everySucceeded: 'Every request succeeded',
  createUndo: 'Create Undo Document',
  summaryTitle: /Undo of plan-tests\.workitems\.json \(job /,
  summaryNotSent: /Nothing has been sent\. Review undo-plan-tests-[0-9a-f]+\.workitems\.json, then send it: its requests are sent in this order, as one change\./,
  summaryRequest: (i) => new RegExp(`^Request ${i}: puts back the \\w+.* of \\d+ items?`),
  summaryOrderAgain: /\d+ of \d+:/,
  sendAll: 'Send All Undo Documents in Order',
  question: (i, n, name) => `Send undo document ${i} of ${n} (${name})?`,
};

const JAPANESE: Texts = {
  locale: 'ja',
  suffix: '-ja',
  newUpdate: 'Work Item Studio: 新しい作業項目の更新',
  idsBox: /^作業項目の ID/,
  previewCommand: 'Work Item Studio: 作業項目の更新をプレビュー',
  signIn: { method: 'ログイン名とパスワード', login: /^ログイン名/, password: /のパスワード/ },
  beforeAfterTab: /^変更前\/変更後: plan-tests/,
  send: /^送信$/,
  resultTab: (document) => new RegExp(`^結果: ${document.replace(/\./g, '\\.')}`),
  everySucceeded: 'すべてのリクエストが成功しました',
  createUndo: '取り消し文書を作成',
  summaryTitle: /plan-tests\.workitems\.json の取り消し（ジョブ /,
  summaryNotSent: /まだ何も送信していません。undo-plan-tests-[0-9a-f]+\.workitems\.json を確認してから送信してください。/,
  summaryRequest: (i) => new RegExp(`^リクエスト ${i}: \\d+ 件の\\S+を元に戻します`),
  summaryOrderAgain: /件中 \d+ 件目/,
  sendAll: 'すべての取り消し文書を順に送信',
  question: (i, n, name) => `取り消し文書 ${n} 件中 ${i} 件目 (${name}) を送信しますか？`,
};

interface SandboxItem {
  plannedStartDate: string | null;
  plannedFinishDate: string | null;
  plannedTime: number | null;
}

for (const t of [ENGLISH, JAPANESE]) {
  describe(`The undo flow in a tidy window (${t.locale ?? 'en'})`, function () {
    this.timeout(240_000);
    let wb: Workbench;

    before(async function () {
      this.timeout(15 * 60_000);
      wb = await Workbench.start({ locale: t.locale, files: { [FILE]: DOCUMENT } });
      await wb.page.keyboard.press('Control+B'); // the side bar off: the editors are the subject
      // Every 100 ms the page notes the most editor groups it had, so a group that opens and closes between two steps is seen too.
      await wb.page.evaluate(() => {
        const g = globalThis as unknown as { wisMostGroups?: number; document: { querySelectorAll(s: string): { length: number } } };
        g.wisMostGroups = 0;
        setInterval(() => {
          g.wisMostGroups = Math.max(g.wisMostGroups ?? 0, g.document.querySelectorAll('.editor-group-container').length);
        }, 100);
      });
    });

    after(async () => {
      await wb?.stop();
    });

    async function sandboxItem(id: string): Promise<SandboxItem> {
      const r = await fetch(`${wb.sandbox.origin}/_sandbox/workitems/${id}`, { signal: AbortSignal.timeout(10_000) });
      assert.equal(r.status, 200, `sandbox has no work item ${id}`);
      const item = (await r.json()) as SandboxItem;
      return { plannedStartDate: item.plannedStartDate, plannedFinishDate: item.plannedFinishDate, plannedTime: item.plannedTime };
    }

    async function tabLabels(): Promise<string[]> {
      return wb.page.locator('.tabs-container .tab').evaluateAll((els) => els.map((e) => (e.textContent ?? '').trim()));
    }

    /** The tab labels of each editor group, in the order of the layout. */
    async function groupTabs(): Promise<string[][]> {
      return wb.page.locator('.editor-group-container').evaluateAll((groups) =>
        groups.map((g) => [...g.querySelectorAll('.tabs-container .tab')].map((e) => (e.textContent ?? '').trim())),
      );
    }

    /** The undo document is open once, in the first group (the documents' group; the views are beside it). */
    async function expectUndoDocumentInFirstGroup(step: string): Promise<void> {
      const groups = await groupTabs();
      const where = groups.map((tabs) => tabs.filter((l) => UNDO_NAME.test(l)).length);
      const elsewhere = where.slice(1).reduce((a, b) => a + b, 0);
      assert.deepEqual([where[0], elsewhere], [1, 0], `${step}: the undo document open ${JSON.stringify(where)} times by group (${JSON.stringify(groups)})`);
    }

    /** At most two editor groups now and since the last check, and no Markdown tab of the undo summary (undo-<job>.preview.md). */
    async function expectTidy(step: string): Promise<void> {
      const groups = await wb.page.locator('.editor-group-container').count();
      const most = await wb.page.evaluate(() => (globalThis as unknown as { wisMostGroups?: number }).wisMostGroups ?? 0);
      const tabs = await tabLabels();
      assert.ok(groups >= 1 && groups <= 2, `${step}: ${groups} editor groups (${tabs.join(' | ')})`);
      assert.ok(most <= 2, `${step}: the window had ${most} editor groups at some moment (${tabs.join(' | ')})`);
      // The summary's would be named after the job (undo-<job id>.preview.md); the undo document's own plan preview is not it.
      const summaryTabs = tabs.filter((l) => /^(Preview )?undo-\d{8}T\d{6}Z-[0-9a-f]+(\.workitems\.json|\.preview\.md)/.test(l));
      assert.deepEqual(summaryTabs, [], `${step}: the undo summary opened as a Markdown tab`);
    }

    /** The webview document (Before/After view or result view) that holds `selector`. */
    async function webview(selector: string, what: string, timeoutMs = 60_000): Promise<Frame> {
      const deadline = Date.now() + timeoutMs;
      do {
        const frames = wb.page.frames();
        const counts = await Promise.all(frames.map((f) => f.locator(selector).count().catch(() => 0)));
        const found = frames[counts.findIndex((c) => c > 0)];
        if (found) return found;
        await wb.page.waitForTimeout(300);
      } while (Date.now() < deadline);
      const shot = await wb.screenshot(`missing-${what.replace(/[^A-Za-z0-9]+/g, '-')}`);
      throw new Error(`${what} did not appear within ${timeoutMs / 1000} s (screenshot: ${shot})`);
    }

    const tab = (label: RegExp): Locator => wb.page.locator('.tabs-container .tab', { hasText: label });

    it('previews, sends, creates the undo document with the summary in the result view, and sends it: at most two editor groups throughout', async () => {
      const { page } = wb;
      const before = await Promise.all(IDS.map(sandboxItem));
      assert.deepEqual(
        before.map((b) => b.plannedTime),
        [480, 960, 1440],
        'the demo data this test was written for',
      );
      // A command of the extension activates it (a person starting a new request document, then cancelling it).
      await wb.runCommand(t.newUpdate);
      await wb.expectVisible(wb.quickInput.locator('.quick-input-message', { hasText: t.idsBox }), 'the work item IDs box');
      await page.keyboard.press('Escape');
      await wb.openFile(FILE);
      await expectTidy('the request document open');

      // Preview: the current values are read (the first read asks to sign in).
      await wb.runCommand(t.previewCommand);
      const previewTab = tab(t.beforeAfterTab);
      await wb.signIn('admin', 'password', previewTab, 60_000, t.signIn);
      await previewTab.first().click();
      const preview = await webview('#wis-changes[data-kind="preview"]', 'the Before/After view');
      await wb.expectVisible(preview.locator('.wis-row', { hasText: '2026-05-18' }), 'the shifted start of 131 (2026-05-11 → 2026-05-18)');
      await expectTidy('after Preview');

      // Send, from the Before/After view.
      await (await wb.expectVisible(preview.locator('button', { hasText: t.send }), 'the Send button of the Before/After view')).click();
      const resultTab = tab(t.resultTab(FILE));
      await wb.expectVisible(resultTab, 'the result view of the document', 90_000);
      const sent = await Promise.all(IDS.map(sandboxItem));
      assert.deepEqual(
        sent.map((s) => [s.plannedStartDate, s.plannedTime]),
        [
          ['2026-05-18', 960],
          ['2026-05-19', 960],
          ['2026-05-20', 960],
        ],
        'the sandbox has the update',
      );
      await resultTab.first().click();
      let results = await webview('#wis-changes[data-kind="result"]', 'the before → after table of the result view');
      await wb.expectVisible(results.locator('body', { hasText: t.everySucceeded }), 'every request succeeded');
      await expectTidy('after Send');

      // Create Undo Document: one document (three requests), the summary inside the result view.
      await (await wb.expectVisible(results.locator('button', { hasText: t.createUndo }), 'the Create Undo Document button')).click();
      const undoTab = tab(UNDO_NAME);
      await wb.expectVisible(undoTab, 'the undo document', 60_000);
      const name = ((await undoTab.first().textContent()) ?? '').trim().match(UNDO_NAME)![0];
      await resultTab.first().click();
      results = await webview('#wis-undo', 'the undo summary in the result view');
      const summary = results.locator('#wis-undo');
      await wb.expectVisible(summary.filter({ hasText: t.summaryTitle }), 'the title of the undo summary');
      await wb.expectVisible(summary.filter({ hasText: t.summaryNotSent }), 'the summary saying nothing has been sent');
      for (let i = 1; i <= UNDO_REQUESTS; i++) {
        const line = t.summaryRequest(i);
        await wb.expectVisible(summary.locator('li', { hasText: line }), `the line ${String(line)} of the summary`);
      }
      // Each line says its order once: by the request's number, not again in words.
      const lines = await summary.locator('li').allTextContents();
      assert.equal(lines.length, UNDO_REQUESTS, lines.join(' | '));
      assert.deepEqual(lines.filter((l) => t.summaryOrderAgain.test(l)), [], 'a line of the summary says its order twice');
      const sendAll = await wb.expectVisible(summary.locator('button', { hasText: t.sendAll }), 'the Send All Undo Documents in Order button');
      await wb.dismissNotifications();
      await expectTidy('after Create Undo Document');
      await expectUndoDocumentInFirstGroup('after Create Undo Document');
      await wb.screenshot(`undo-flow-result${t.suffix}`);

      // Send All Undo Documents in Order: the one document previewed, confirmed once, sent as one job; the sandbox has every value back.
      await sendAll.click();
      const dialog = wb.page.locator('.monaco-dialog-box', { hasText: t.question(1, 1, name) });
      await wb.expectVisible(dialog, `the question before ${name}`, 90_000);
      await wb.expectVisible(tab(new RegExp(t.beforeAfterTab.source.replace('plan-tests', name.replace(/\./g, '\\.')))), `the Before/After view of ${name}`);
      await expectTidy(`the question before ${name}`);
      await (await wb.expectVisible(dialog.locator('.monaco-button', { hasText: t.send }), `the Send button of the question before ${name}`)).click();
      await dialog.first().waitFor({ state: 'hidden', timeout: 10_000 });
      await wb.expectVisible(tab(t.resultTab(name)), `the result view of ${name}`, 90_000);
      await expectTidy(`after sending ${name}`);
      const last = await webview(`#wis-changes[data-kind="result"]`, 'the result view of the undo document');
      await tab(t.resultTab(name)).first().click();
      await wb.expectVisible(last.locator('body', { hasText: t.everySucceeded }), 'the undo document sent completely');
      assert.deepEqual(await Promise.all(IDS.map(sandboxItem)), before, 'every value is back as it was before the update');
      await wb.page.waitForTimeout(500);
      assert.equal(await wb.page.locator('.monaco-dialog-box').count(), 0, 'no question after the undo document');
      await wb.dismissNotifications();
      await expectTidy('after Send All Undo Documents in Order');
      await expectUndoDocumentInFirstGroup('after Send All Undo Documents in Order');
      await wb.screenshot(`undo-flow-sent${t.suffix}`);
    });
  });
}
