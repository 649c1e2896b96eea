// Browser E2E in Japanese: the workbench runs with the display language ja (code-server
// `--locale ja` and a stand-in language pack, see Workbench.start), so the extension host reports
// `vscode.env.language` = 'ja' and VS Code loads package.nls.ja.json and
// l10n/bundle.l10n.ja.json. VS Code's own UI stays English (no real language pack offline); the
// extension's must be Japanese. Each check looks for Japanese strings of ours that a person sees
// (view titles, a tree row, the sign-in prompts, a diagnostic of our checks, the walkthrough), and
// that no English string of ours is visible in the parts of the window that show our UI.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../runners/code-server';
import { repeatedDescribe } from './repeat';
import { Workbench } from './workbench';

/** A request document with a problem that our own checks report (not the JSON Schema): a duplicate ID. */
const DUPLICATE_IDS = {
  description: '重複した ID のある文書',
  workItemIds: ['122', '123', '122'],
  update: { setCompleted: true },
};

/** A request document with one problem of each kind our checks report on an update (types, values, ranges, members, dates, old names). */
const MANY_PROBLEMS = {
  workItemIds: ['122'],
  update: {
    setCompleted: 'yes',
    setTimeEntryLocked: 1,
    bogusMember: 1,
    moveScheduleDays: 'x',
    fields: { ActualProgress: 500, PlannedStartDate: '2025/01/01', Name: 5, StartDate: '2025-01-01' },
    assignmentChange: { adds: [{ partyId: 5, plannedTime: -1 }] },
  },
};
/** The update itself of the wrong type ("the update" must not appear in English). */
const WRONG_UPDATE = { workItemIds: ['122'], update: 'x' };

/**
 * English words in a diagnostic outside quoted names and values: quoted text, code spans, member
 * paths (camelCase, dotted), lists of names and JSON literals are the document's own; "Work Item
 * Studio" is our name. (A fragment such as "the update" or "the text" is caught.)
 */
export function englishWordsOutsideQuotes(text: string): string[] {
  const rest = text
    .replace(/Work Item Studio/g, ' ')
    .replace(/"(?:[^"\\]|\\.)*"|「[^」]*」|`[^`]*`/g, ' ')
    .replace(/\b[A-Za-z_$][\w$]*(?:\[[^\]]*\]|\.[A-Za-z_$][\w$]*)+/g, ' ')
    // A list of names (the members allowed, "a, b, c") is names, each shown as it is written.
    .replace(/\b[A-Za-z_$][\w$]*(?:, [A-Za-z_$][\w$]*)+/g, ' ');
  return (rest.match(/\b[A-Za-z]{2,}\b/g) ?? []).filter(
    (w) => !/^(true|false|null|ID|IDs|URL|JSON|yyyy|MM|dd|HH|mm|ss|update|fields)$/.test(w) && !/[a-z][A-Z]/.test(w) && !/^[A-Z][a-z]+[A-Z]/.test(w),
  );
}

function readJson(file: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(REPO_ROOT, file), 'utf8')) as Record<string, unknown>;
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && typeof (value as { message?: unknown }).message === 'string') return (value as { message: string }).message;
  return undefined;
}

/** Our strings as a person sees them: markdown links and codicons reduced to their visible text, one per line. */
function visibleLines(s: string): string[] {
  return s
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\$\([a-z0-9-~]+\)/g, '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
}

interface EnglishString {
  text: string;
  line: RegExp;
}

/**
 * Every English string of ours that has a different Japanese translation (manifest and l10n
 * bundle), as whole-line patterns: placeholders match anything, and a line must keep an English
 * word of its own (so "{0} ({1})" is not a pattern that matches every line).
 */
function englishStrings(): EnglishString[] {
  const pairs: [string, string][] = [];
  const en = readJson('package.nls.json');
  const ja = readJson('package.nls.ja.json');
  for (const [key, value] of Object.entries(en)) {
    const e = text(value);
    const j = text(ja[key]);
    if (e !== undefined && j !== undefined) pairs.push([e, j]);
  }
  for (const [key, value] of Object.entries(readJson('l10n/bundle.l10n.ja.json'))) {
    const j = text(value);
    if (j !== undefined) pairs.push([key, j]);
  }
  const out: EnglishString[] = [];
  // Lines that a Japanese string shows too (names such as "Work Item Studio") are not English UI.
  const seen = new Set<string>(pairs.flatMap(([, j]) => visibleLines(j)));
  for (const [e, j] of pairs) {
    if (e === j) continue;
    for (const line of visibleLines(e)) {
      if (seen.has(line)) continue;
      const literal = line.replace(/\{\w+\}/g, ' ');
      if (!/[A-Za-z]{3,}/.test(literal)) continue;
      seen.add(line);
      const pattern = line
        .split(/\{\w+\}/)
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.+?');
      out.push({ text: line, line: new RegExp(`^${pattern}$`) });
    }
  }
  return out;
}

repeatedDescribe('Work Item Studio in a VS Code workbench in Japanese', function () {
  this.timeout(120_000);
  let wb: Workbench;
  const english = englishStrings();

  /** Fails when any visible line of `selector`'s elements is one of our English strings. */
  async function expectNoEnglish(selector: string, where: string): Promise<void> {
    const texts = await wb.page.locator(selector).evaluateAll((els) => els.map((e) => (e as unknown as { innerText: string }).innerText));
    const lines = texts.flatMap((t) => t.split('\n')).map((l) => l.trim()).filter((l) => l.length > 0);
    assert.ok(lines.length > 0, `nothing visible in ${where}`);
    const found = lines.flatMap((l) => english.filter((e) => e.line.test(l)).map((e) => `"${l}" (English string "${e.text}")`));
    assert.deepEqual(found, [], `English strings of the extension visible in ${where}`);
  }

  before(async function () {
    this.timeout(15 * 60_000);
    assert.ok(english.length > 100, `too few English strings found in the bundles (${english.length})`);
    wb = await Workbench.start({
      locale: 'ja',
      files: { 'duplicate-ids.workitems.json': DUPLICATE_IDS, 'many-problems.workitems.json': MANY_PROBLEMS, 'wrong-update.workitems.json': WRONG_UPDATE },
      settings: { 'workItemStudio.organizations': ['1001'] },
    });
  });

  after(async () => {
    await wb?.stop();
  });

  it('runs with the display language ja', async () => {
    // What the extension host reports as vscode.env.language.
    const language = await wb.page.evaluate(() => (globalThis as { _VSCODE_NLS_LANGUAGE?: string })._VSCODE_NLS_LANGUAGE);
    assert.equal(language, 'ja');
  });

  it('shows a diagnostic of our checks, the sign-in prompts, the sidebar and its tree in Japanese', async () => {
    const { page } = wb;
    // A command activates the extension (a person starting a new request document, then
    // cancelling it); its checks then report the duplicate ID of the open request document.
    await wb.openFile('duplicate-ids.workitems.json');
    await wb.runCommand('Work Item Studio: 新しい作業項目の更新');
    await wb.expectVisible(wb.quickInput.locator('.quick-input-message', { hasText: /^作業項目の ID/ }), 'the work item IDs box in Japanese');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+Shift+M');
    const problems = page.locator('.markers-panel .monaco-list-row');
    await wb.expectVisible(problems.filter({ hasText: '作業項目 ID "122" が複数回指定されています' }), 'the duplicate-ID warning in Japanese in the Problems panel');

    // The command palette lists our command under its Japanese title (package.nls.ja.json).
    await wb.runCommand('Work Item Studio: サインイン…');
    const signedIn = page.locator('.statusbar-item', { hasText: /(admin|管理者 太郎)@127\.0\.0\.1/ });
    const picks = await wb.signIn('admin', 'password', signedIn, 60_000, {
      method: 'ログイン名とパスワード',
      login: /^ログイン名/,
      password: /のパスワード/,
    });
    assert.equal(picks, 1, 'the sign-in method was asked more than once');

    await (await wb.expectVisible(wb.activityBarIcon, 'the Work Item Studio activity bar icon')).click();
    const header = (title: string) => page.locator('.part.sidebar .pane-header', { hasText: title });
    await wb.expectVisible(header('組織'), 'the Organizations view titled 組織');
    await wb.expectVisible(header('プロセス分類'), 'the Process Categories view titled プロセス分類');
    const org = wb.treeRow(/1001|株式会社サンプル/);
    await (await wb.expectVisible(org, 'the root organization (1001)')).click();
    await wb.expectVisible(wb.treeRow('開発本部'), 'the sub-organization 開発本部');
    await wb.expectVisible(wb.treeRow(/人のユーザー/), 'an organization with its user count in Japanese (N 人のユーザー)');

    await wb.screenshot('sidebar-ja');

    await expectNoEnglish('.part.sidebar', 'the side bar');
    await expectNoEnglish('.markers-panel', 'the Problems panel');
    await expectNoEnglish('.part.statusbar .statusbar-item', 'the status bar');
  });

  it('shows the Work Items view in Japanese and turns a selection into a request document', async () => {
    const { page } = wb;
    await page.keyboard.press('Escape');
    await page.mouse.move(700, 700); // no tooltip of a row over the headers
    const header = (title: string) => page.locator('.part.sidebar .pane-header', { hasText: title });
    await wb.expectVisible(header('作業項目'), 'the Work Items view titled 作業項目');
    for (const title of ['組織', 'プロセス分類']) {
      const h = header(title);
      if ((await h.getAttribute('aria-expanded')) === 'true') await h.click();
    }
    const pane = page.locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: '作業項目' }) });
    const row = (text: RegExp | string) => pane.locator('.monaco-list-row', { hasText: text });
    await wb.expectVisible(row(/PRJ-OLD.*完了/), 'the finished project marked 完了');
    await (await wb.expectVisible(row(/PRJ-WEB/), 'the project Webサイト刷新 (PRJ-WEB)')).click();
    await (await wb.expectVisible(row(/刷新WEB/), 'the top folder on level 1')).locator('.monaco-tl-twistie').click();
    await (await wb.expectVisible(row(/実装WEB-I/), 'the folder 実装 on level 2')).locator('.monaco-tl-twistie').click();
    await (await wb.expectVisible(row(/トップページWEB-I-01/), 'the task トップページ on level 3')).locator('.monaco-tl-twistie').click();
    await (await wb.expectVisible(row(/ヘッダーWEB-I-01-1/), 'the task ヘッダー on level 4')).click();
    await (await wb.expectVisible(row(/フッターWEB-I-01-2/), 'the task フッター on level 4')).click({ modifiers: ['Control'] });
    await wb.expectVisible(pane.locator('.monaco-list-row.selected', { hasText: 'フッター' }), 'フッター selected with ヘッダー');
    await expectNoEnglish('.part.sidebar', 'the side bar with the Work Items view');
    await wb.screenshot('work-items-ja');
    // The context menu of a selected row, in Japanese.
    await pane.locator('.monaco-list-row.selected', { hasText: 'フッター' }).click({ button: 'right' });
    const menuItem = page.locator('.monaco-menu .action-item', { hasText: '選択した作業項目を更新…' });
    await wb.runMenuEntry(await wb.expectVisible(menuItem, 'Update Selected Work Items… in Japanese in the context menu'));
    await (await wb.expectVisible(wb.quickInput.locator('input'), 'the template pick')).fill('進捗率');
    await wb.pickQuickItem('the template pick in Japanese', '進捗率を設定');
    await wb.expectVisible(page.locator('.tabs-container .tab', { hasText: /^update-\d+\.workitems\.json/ }), 'the new request document');
    await wb.expectVisible(page.locator('.monaco-editor .view-lines').filter({ hasText: '"122"' }).filter({ hasText: '"123"' }), 'the selected IDs in workItemIds');
    await wb.screenshot('work-items-update-ja');
    await wb.runCommand('View: Revert and Close Editor');
  });

  it('shows the request-document schema\'s hover text in Japanese (schemas/workitems.schema.ja.json)', async () => {
    const { page } = wb;
    await page.keyboard.press('Escape');
    await wb.openFile('duplicate-ids.workitems.json');
    const member = page.locator('.monaco-editor .view-lines span', { hasText: /^"setCompleted"$/ });
    await (await wb.expectVisible(member, 'the member setCompleted in the editor')).hover();
    await wb.expectVisible(page.locator('.monaco-hover', { hasText: '項目とその子が完了' }), 'the hover of setCompleted in Japanese', 30_000);
  });

  it('opens the walkthrough in Japanese', async () => {
    await wb.page.keyboard.press('Escape');
    await wb.openWalkthrough('Work Item Studio をはじめる');
    const ja = readJson('package.nls.ja.json');
    for (const step of ['connect', 'browse', 'write', 'preview', 'send']) {
      const title = String(ja[`walkthrough.${step}.title`]);
      await wb.expectVisible(wb.walkthroughStep(title), `the walkthrough step "${title}"`);
    }
    await expectNoEnglish('.gettingStartedContainer', 'the walkthrough');
  });

  it('diagnostics of every kind our checks report read in Japanese, with no English word outside quoted names and values', async () => {
    const { page } = wb;
    await wb.openFile('many-problems.workitems.json');
    await wb.openFile('wrong-update.workitems.json');
    await page.keyboard.press('Control+Shift+M');
    const rows = page.locator('.markers-panel .monaco-list-row');
    // Ours carry the source "Work Item Studio"; wait until both documents were checked.
    await wb.expectVisible(rows.filter({ hasText: /"update" オブジェクト/ }), 'the wrong update type, named in Japanese', 60_000);
    await wb.expectVisible(rows.filter({ hasText: /テキスト "yes"/ }), 'a wrong value, named in Japanese', 60_000);
    const texts = await page.locator('.markers-panel .monaco-list-row .marker-message-details, .markers-panel .monaco-list-row .marker-message').evaluateAll((els) =>
      els.map((e) => (e as unknown as { innerText: string }).innerText),
    );
    const messages = [...new Set(texts.map((t) => t.replace(/\s+/g, ' ').trim()))].filter((t) => /[\u3040-\u30ff\u3400-\u9fff]/.test(t));
    assert.ok(messages.length >= 6, `too few of our diagnostics visible: ${messages.join(' | ')}`);
    const found = messages.flatMap((m) => {
      const words = englishWordsOutsideQuotes(m.replace(/\[Ln \d+, Col \d+\]/g, ' '));
      return words.length ? [`${m} [${words.join(', ')}]`] : [];
    });
    assert.deepEqual(found, [], 'English words inside Japanese diagnostics');
  });
});
