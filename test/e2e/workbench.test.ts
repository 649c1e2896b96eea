// Browser E2E: Work Item Studio in a real VS Code workbench (code-server + headless Chromium),
// used as a person would: the sidebar, sign-in, the command palette, the Problems panel, and
// sending a request document to a sandbox that this process runs, and the walkthrough. Each test
// saves a screenshot (test-results/screenshots/; media/screenshots/, which the README shows, with
// UPDATE_SCREENSHOTS=1). The tests run in order and build on each other.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as os from 'node:os';
import { REPO_ROOT } from '../runners/code-server';
import { readHookProbe, stageHookProbe } from './hookProbe';
import { repeatedDescribe } from './repeat';
import { Workbench } from './workbench';

const SEND_DOCUMENT = {
  description: 'Mark the header and footer tasks complete',
  workItemIds: ['122', '123'],
  update: { setCompleted: true },
};

async function sandboxItem(wb: Workbench, id: string): Promise<Record<string, unknown>> {
  const r = await fetch(`${wb.sandbox.origin}/_sandbox/workitems/${id}`, { signal: AbortSignal.timeout(10_000) });
  assert.equal(r.status, 200, `sandbox has no work item ${id}`);
  return (await r.json()) as Record<string, unknown>;
}

repeatedDescribe('Work Item Studio in a VS Code workbench', function () {
  this.timeout(120_000);
  let wb: Workbench;
  const probeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wis-hook-probe-'));
  const probeResult = path.join(probeDir, 'result.json');

  before(async function () {
    this.timeout(15 * 60_000); // first run on a fresh machine installs code-server
    wb = await Workbench.start({
      files: { 'send-me.workitems.json': SEND_DOCUMENT },
      settings: { 'workItemStudio.organizations': ['1001'] },
      // Another installed extension that looks for the test hooks (none in normal use).
      extensions: [stageHookProbe(path.join(probeDir, 'extension'), probeResult)],
    });
  });

  after(async () => {
    await wb?.stop();
    fs.rmSync(probeDir, { recursive: true, force: true });
  });

  it('in normal use, another extension finds no test hook: nothing exported, no command that presses Send', async () => {
    const found = await readHookProbe(probeResult);
    assert.equal(found.error, undefined, `the probe failed: ${found.error}`);
    assert.ok(found.found && found.activated, 'the probe activated Work Item Studio');
    assert.equal(found.exports, null, `Work Item Studio exported ${JSON.stringify(found.exports)}`);
    assert.equal(found.pressCommand, false, 'workItemStudio.pressBeforeAfterButton is registered');
  });

  it('runs "New Work Item Update" from the command palette and gets a request document', async () => {
    await wb.runCommand('Work Item Studio: New Work Item Update');
    await wb.answerInputBox('the work item IDs box', /Work item IDs/, '122, 123');
    await wb.expectVisible(wb.quickInput.locator('input[placeholder*="What should change"]'), 'the template pick');
    await (await wb.expectVisible(wb.quickInput.locator('.monaco-list-row'), 'a template')).click();
    const tab = wb.page.locator('.tabs-container .tab', { hasText: /\.workitems\.json/ });
    await wb.expectVisible(tab, 'an editor with the new request document');
    await wb.expectVisible(wb.page.locator('.monaco-editor .view-lines', { hasText: '122' }), 'the IDs in the new document');
    await wb.screenshot('new-update');
    await wb.screenshotOf(wb.page.locator('.part.editor'), 'walkthrough-write');
  });

  it('never uses clipboard IDs silently: asks, lets you type others, and asks before expanding a range', async () => {
    // No editor with a selection (a selection's IDs come first): close the document of the previous test.
    await wb.runCommand('View: Close All Editors');
    const dontSave = wb.page.getByRole('button', { name: /Don't Save/ });
    if (await dontSave.isVisible({ timeout: 3_000 }).catch(() => false)) await dontSave.click();
    await wb.page.evaluate('navigator.clipboard.writeText("133\\n134\\n135")');
    await wb.runCommand('Work Item Studio: New Work Item Update');
    await wb.expectVisible(wb.quickInput.locator('input[placeholder="Use 3 IDs from the clipboard: 133, 134, 135?"]'), 'the question about the clipboard IDs');
    await wb.pickQuickItem('"Type Other IDs…"', 'Type Other IDs…');
    await wb.answerInputBox('the work item IDs box', /Work item IDs/, '120, 141-143');
    await wb.expectVisible(wb.quickInput.locator('input[placeholder="Expand 141-143 into the 3 IDs 141 to 143?"]'), 'the question about the range');
    await wb.pickQuickItem('"Expand the Ranges"', 'Expand the Ranges');
    await wb.expectVisible(wb.quickInput.locator('input[placeholder*="What should change"]'), 'the template pick');
    await wb.page.keyboard.type('Mark complete');
    await wb.pickQuickItem('the "Mark complete" template', 'Mark complete');
    const lines = wb.page.locator('.monaco-editor .view-lines');
    await wb.expectVisible(lines.filter({ hasText: '"142"' }), 'the expanded range in the new document');
    const text = (await lines.first().innerText()).replace(/\u00a0/g, ' ');
    assert.doesNotMatch(text, /133|134|135|141-143/, `the clipboard IDs were used: ${text}`);
    assert.match(text, /"120"/);
    await wb.page.evaluate('navigator.clipboard.writeText("")');
  });

  it('signs in from the command palette, then shows organizations and users from the sandbox in the sidebar', async () => {
    const { page } = wb;
    // Sign in first (the previous test's command activated the extension, so the palette offers
    // Sign In, which needs a configured service). Known issue: opening the sidebar
    // before signing in makes both views ask at once; the second prompt replaces the first and the
    // Organizations row can stay "Loading…" (first-use sign-in is not shared like the 401 one).
    await wb.runCommand('Work Item Studio: Sign In…');
    // The status bar names the user (GET /system/users/me) once it has asked, the login name before.
    const signedIn = page.locator('.statusbar-item', { hasText: /(admin|管理者 太郎)@127\.0\.0\.1/ });
    const picks = await wb.signIn('admin', 'password', signedIn);
    assert.equal(picks, 1, 'the sign-in method was asked more than once');

    await (await wb.expectVisible(wb.activityBarIcon, 'the Work Item Studio activity bar icon')).click();
    const org = wb.treeRow(/1001|株式会社サンプル/);
    await (await wb.expectVisible(org, 'the root organization (1001) in the Organizations view')).click();
    await wb.expectVisible(wb.treeRow('管理者 太郎'), 'the demo user 管理者 太郎 (admin) under the root organization');
    await wb.expectVisible(wb.treeRow('開発本部'), 'the sub-organization 開発本部 under the root organization');
    await wb.screenshot('sidebar');
    await wb.screenshotOf(wb.page.locator('.part.sidebar'), 'walkthrough-browse');
  });

  it('Filter Users reveals the first match (organizations expanded, the user selected); clearing the filter keeps what was expanded', async () => {
    const { page } = wb;
    // Room for the organizations: fold the other two views of the container (their headers stay).
    for (const title of ['Work Items', 'Process Categories']) {
      const h = page.locator('.part.sidebar .pane-header', { hasText: title });
      if ((await h.getAttribute('aria-expanded')) === 'true') await h.click();
    }
    // Expand two sub-organizations first, as a person exploring the tree does.
    await (await wb.expectVisible(wb.treeRow('開発本部'), 'the sub-organization 開発本部')).click();
    await (await wb.expectVisible(wb.treeRow('基盤技術部'), 'the sub-organization 基盤技術部 under 開発本部')).click();
    await wb.expectVisible(wb.treeRow('クラウドチーム'), 'クラウドチーム under 基盤技術部');
    const contextMenu = async (row: string, item: string) => {
      await wb.treeRow(row).first().click({ button: 'right' });
      const entry = await wb.expectVisible(page.getByRole('menuitem', { name: item }), `"${item}" in the context menu of ${row}`);
      await wb.runMenuEntry(entry);
    };
    await contextMenu('株式会社サンプル', 'Filter Users…');
    await wb.answerInputBox('the filter box', /Partial matches/, 'Tanaka');
    const selected = page.locator('.part.sidebar .monaco-list-row.selected', { hasText: '田中 美咲' });
    await wb.expectVisible(selected, 'the first matching user (田中 美咲, three organizations down) revealed and selected');
    await wb.expectVisible(wb.treeRow('Webチーム'), 'her organization expanded');
    await wb.screenshot('filter-reveal');
    await contextMenu('株式会社サンプル', 'Clear Filter');
    await wb.expectVisible(wb.treeRow('クラウドチーム'), 'クラウドチーム again: what was expanded before the filter is expanded after it', 30_000);
  });

  it('browses a project in the Work Items view, selects two tasks and turns them into a request document', async () => {
    const { page } = wb;
    await page.keyboard.press('Escape');
    await page.mouse.move(700, 700); // no tooltip of a row over the headers
    const header = (title: string) => page.locator('.part.sidebar .pane-header', { hasText: title });
    // Room for four levels: fold the other two views (their headers stay) and unfold this one.
    for (const title of ['Organizations', 'Process Categories']) {
      const h = header(title);
      if ((await h.getAttribute('aria-expanded')) === 'true') await h.click();
    }
    if ((await header('Work Items').getAttribute('aria-expanded')) !== 'true') await header('Work Items').click();
    const pane = page.locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: 'Work Items' }) });
    const row = (text: RegExp | string) => pane.locator('.monaco-list-row', { hasText: text });
    // One level per click: the project (its root folder's children), then 100, 120, 121.
    await (await wb.expectVisible(row(/PRJ-WEB/), 'the project Webサイト刷新 (PRJ-WEB) in the Work Items view')).click();
    await (await wb.expectVisible(row(/刷新WEB/), 'the top folder Webサイト刷新 (WEB) on level 1')).locator('.monaco-tl-twistie').click();
    await (await wb.expectVisible(row(/実装WEB-I/), 'the folder 実装 on level 2')).locator('.monaco-tl-twistie').click();
    await (await wb.expectVisible(row(/トップページWEB-I-01/), 'the task トップページ on level 3')).locator('.monaco-tl-twistie').click();
    const header122 = await wb.expectVisible(row(/ヘッダーWEB-I-01-1/), 'the task ヘッダー on level 4');
    await header122.click();
    await (await wb.expectVisible(row(/フッターWEB-I-01-2/), 'the task フッター on level 4')).click({ modifiers: ['Control'] });
    await wb.expectVisible(pane.locator('.monaco-list-row.selected', { hasText: 'フッター' }), 'フッター selected with ヘッダー');
    assert.equal(await pane.locator('.monaco-list-row.selected').count(), 2, 'two rows selected');
    await wb.screenshot('work-items');
    // The key binding of "Update Selected Work Items…" while the view has focus.
    await page.keyboard.press('Control+Alt+U');
    await (await wb.expectVisible(wb.quickInput.locator('input[placeholder*="2 work items"]'), 'the template pick for the 2 work items')).fill('progress');
    await wb.pickQuickItem('the template "Set progress"', 'Set progress');
    const tab = page.locator('.tabs-container .tab', { hasText: /^update-\d+\.workitems\.json/ });
    await wb.expectVisible(tab, 'the new request document');
    const lines = page.locator('.monaco-editor .view-lines');
    await wb.expectVisible(lines.filter({ hasText: '"122"' }).filter({ hasText: '"123"' }), 'the selected IDs 122 and 123 in workItemIds');
    await wb.screenshot('work-items-update');
    await wb.runCommand('View: Revert and Close Editor');
  });

  it('shows the problems of an invalid request document in the Problems panel, each once', async () => {
    await wb.page.keyboard.press('Escape');
    await wb.runCommand('View: Close All Editors');
    // A dialog may ask to save the untitled document from the previous test.
    const dontSave = wb.page.getByRole('button', { name: /Don't Save/ });
    if (await dontSave.isVisible({ timeout: 3_000 }).catch(() => false)) await dontSave.click();
    await wb.openFile('invalid.workitems.json');
    await wb.page.keyboard.press('Control+Shift+M');
    const problems = wb.page.locator('.markers-panel .monaco-list-row');
    await wb.expectVisible(problems.filter({ hasText: 'invalid.workitems.json' }), 'invalid.workitems.json in the Problems panel');
    await wb.expectVisible(problems.filter({ hasText: /notAMember/ }), 'our problem naming the unknown member');
    await wb.expectVisible(problems.filter({ hasText: /setCompleted/ }), 'our problem naming the member of the wrong type');
    // Reported once: the JSON Schema adds no second problem for the same members (give the
    // JSON language service time to publish anything it would).
    await wb.page.waitForTimeout(2_000);
    assert.equal(await problems.filter({ hasText: /Incorrect type|is not allowed|Missing property/ }).count(), 0, 'the JSON Schema reported a problem our checks report');
    await wb.screenshot('problems');
  });

  it('sends a valid request document and shows the result', async () => {
    const before = await sandboxItem(wb, '122');
    assert.notEqual(before.actualProgress, 100, 'demo data changed: item 122 already complete');
    await wb.page.keyboard.press('Escape');
    await wb.openFile('send-me.workitems.json');
    await wb.runCommand('Work Item Studio: Send Work Item Update');
    await wb.expectVisible(wb.notification(/Updated 2 work items/), 'the "Updated 2 work items" notification', 60_000);
    const after = await sandboxItem(wb, '122');
    assert.equal(after.actualProgress, 100, 'the sandbox did not record the update');
    // The result view: a webview (nested frames) listing the updated items.
    await wb.expectVisible(wb.page.locator('.tabs-container .tab', { hasText: /^Results/ }), 'the Results editor tab');
    const result = wb.page.frameLocator('iframe.webview').frameLocator('iframe#active-frame').locator('body');
    await wb.expectVisible(result.filter({ hasText: '123' }), 'the updated work items in the Results view', 30_000);
    await wb.page.keyboard.press('Control+J'); // hide the panel: the result is the subject
    await wb.expectVisible(wb.notification(/Updated 2 work items/), 'the notification');
    await wb.screenshot('result');
    const resultGroup = wb.page.locator('.part.editor .editor-group-container', { has: wb.page.locator('.tab', { hasText: /^Results/ }) });
    await wb.screenshotOf(resultGroup, 'walkthrough-send');
  });

  it('sends again into the same result view, and the result view comes back after a window reload', async () => {
    const resultTabs = wb.page.locator('.tabs-container .tab', { hasText: /^Results/ });
    await wb.dismissNotifications();
    await wb.openFile('send-me.workitems.json');
    await wb.runCommand('Work Item Studio: Send Work Item Update');
    await wb.expectVisible(wb.notification(/Updated 2 work items/), 'the notification of the second send', 60_000);
    await wb.page.waitForTimeout(1_000);
    assert.equal(await resultTabs.count(), 1, 'the second result replaced the first one instead of opening a tab');
    // Reload as a person does (the workbench saves its editors' state on the way).
    await wb.runCommand('Developer: Reload Window');
    await wb.page.waitForEvent('framenavigated', { timeout: 60_000 }).catch(() => undefined);
    await wb.expectVisible(wb.page.locator('.monaco-workbench .part.activitybar'), 'the workbench after the reload', 90_000);
    await wb.expectVisible(resultTabs, 'the Results tab after the reload', 60_000);
    await resultTabs.first().click();
    const result = wb.page.frameLocator('iframe.webview').frameLocator('iframe#active-frame').locator('body');
    await wb.expectVisible(result.filter({ hasText: '123' }), 'the restored results (the updated work items)', 60_000);
    await wb.expectVisible(result.locator('button', { hasText: 'Save as JSON' }), 'the buttons of the restored results');
    await wb.screenshot('result-restored');
  });

  it('opens the walkthrough with its title, its steps and their images', async () => {
    await wb.page.keyboard.press('Escape');
    await wb.runCommand('View: Close All Editors');
    const nls = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.nls.json'), 'utf8')) as Record<string, string>;
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      contributes: { walkthroughs: { steps: { id: string; media: { image: string } }[] }[] };
    };
    // The walkthrough shows its images only when the editor is wide enough: hide the side bar.
    if (await wb.page.locator('.part.sidebar').isVisible()) await wb.page.keyboard.press('Control+B');
    await wb.page.locator('.part.sidebar').waitFor({ state: 'hidden', timeout: 10_000 });
    await wb.openWalkthrough(nls['walkthrough.title']!);
    const steps = manifest.contributes.walkthroughs[0]!.steps;
    for (const step of steps) {
      const title = nls[`walkthrough.${step.id}.title`]!;
      await wb.expectVisible(wb.walkthroughStep(title), `the walkthrough step "${title}"`);
    }
    // Every step's image loads (the media path in the manifest is right).
    for (const step of steps) {
      const title = nls[`walkthrough.${step.id}.title`]!;
      await wb.walkthroughStep(title).click();
      const image = wb.page.locator('.gettingStartedSlideDetails .getting-started-media img').filter({ visible: true });
      await wb.expectVisible(image, `the image of the walkthrough step "${title}"`);
      await wb.page.waitForFunction(
        (el) => (el as unknown as { complete: boolean; naturalWidth: number }).complete && (el as unknown as { naturalWidth: number }).naturalWidth > 0,
        await image.first().elementHandle(),
        { timeout: 15_000 },
      ).catch(() => assert.fail(`the image of the walkthrough step "${title}" (${step.media.image}) did not load`));
      const alt = await image.first().getAttribute('alt');
      assert.equal(alt, nls[`walkthrough.${step.id}.altText`], `the image of "${title}" has the step's alt text`);
    }
    await wb.walkthroughStep(nls['walkthrough.browse.title']!).click();
    await wb.screenshot('walkthrough');
  });
});
