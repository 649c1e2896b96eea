// The E2E fixture: a real VS Code workbench (code-server, offline) with the packaged extension
// installed, opened in headless Chromium, pointed at a sandbox that this process runs. Helpers
// act as a person would (activity bar, command palette, Quick Open, keyboard) and every wait has
// a timeout that fails with a message naming what did not appear (never a hang).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { createSandbox, type Sandbox } from '../../src/sandbox';
import {
  ensureTools,
  installDisplayLanguage,
  installExtensions,
  launchChromium,
  log,
  makeRunDir,
  packageExtension,
  packageFolder,
  REPO_ROOT,
  startCodeServer,
  type CodeServer,
} from '../runners/code-server';
import { createWorkspace } from '../runners/workspace.mjs';

/** The README's screenshots; written only when UPDATE_SCREENSHOTS=1. */
export const README_SCREENSHOTS = path.join(REPO_ROOT, 'media', 'screenshots');
/** Where the tests' screenshots go: test-results/screenshots/ (ignored by git), or the README's with UPDATE_SCREENSHOTS=1. */
export const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? README_SCREENSHOTS : path.join(REPO_ROOT, 'test-results', 'screenshots');
export const E2E_RESULTS = path.join(REPO_ROOT, 'test-results', 'e2e');

export interface WorkbenchOptions {
  /** Extra workspace files: name -> JSON value or text. */
  files?: Record<string, unknown>;
  /** Workspace settings besides the service URL (which points at this process's sandbox). */
  settings?: Record<string, unknown>;
  /**
   * VS Code's display language (e.g. 'ja'): the extension host then reports it as
   * `vscode.env.language`, so VS Code loads the extension's package.nls.<locale>.json and
   * l10n/bundle.l10n.<locale>.json. VS Code's own UI stays English (no real language pack here).
   */
  locale?: string;
  /** Folders of other extensions to package and install beside this one (test/e2e/hookProbe.ts). */
  extensions?: string[];
}

let startedOnce = false;

/** The texts of the sign-in prompts (method pick row, login name prompt, password prompt). */
export interface SignInPrompts {
  method: RegExp | string;
  login: RegExp;
  password: RegExp;
}

export const ENGLISH_SIGN_IN: SignInPrompts = { method: 'Login Name and Password', login: /^Login name/, password: /^Password for/ };

export class Workbench {
  private constructor(
    readonly page: Page,
    readonly sandbox: Sandbox,
    readonly workspace: string,
    private readonly browser: Browser,
    private readonly server: CodeServer,
    private readonly cleanupRunDir: () => void,
  ) {}

  static async start(options: WorkbenchOptions = {}): Promise<Workbench> {
    if (!startedOnce) {
      fs.rmSync(E2E_RESULTS, { recursive: true, force: true });
      if (SCREENSHOTS !== README_SCREENSHOTS) fs.rmSync(SCREENSHOTS, { recursive: true, force: true });
    }
    startedOnce = true;
    fs.mkdirSync(E2E_RESULTS, { recursive: true });
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    const setupLog = path.join(E2E_RESULTS, 'setup.log');
    const tools = ensureTools();
    const vsix = packageExtension(setupLog);
    const run = makeRunDir('e2e');
    let sandbox: Sandbox | undefined;
    let server: CodeServer | undefined;
    let browser: Browser | undefined;
    try {
      sandbox = await createSandbox({ host: '127.0.0.1', port: 0 });
      log('e2e', `sandbox ${sandbox.url}`);
      const extensionsDir = path.join(run.dir, 'extensions');
      const userDataDir = path.join(run.dir, 'user-data');
      const others = (options.extensions ?? []).map((folder, i) => packageFolder(folder, path.join(run.dir, `other-${i}.vsix`), setupLog));
      installExtensions(tools, extensionsDir, userDataDir, [vsix, ...others], setupLog);
      if (options.locale) installDisplayLanguage(tools, { runDir: run.dir, extensionsDir, userDataDir, locale: options.locale, logFile: setupLog });
      const workspace = createWorkspace({
        dir: path.join(run.dir, 'workspace'),
        files: options.files,
        settings: { 'workItemStudio.serviceUrl': sandbox.url, ...options.settings },
      });
      server = await startCodeServer({
        tools,
        userDataDir,
        extensionsDir,
        folder: workspace,
        logFile: path.join(E2E_RESULTS, 'code-server.log'),
        locale: options.locale,
      });
      browser = await launchChromium(tools);
      // Clipboard access as a person grants it (commands read IDs from the clipboard).
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      const page = await context.newPage();
      const consoleLog = fs.createWriteStream(path.join(E2E_RESULTS, 'browser-console.log'), { flags: 'a' });
      page.on('console', (m) => consoleLog.write(`[${m.type()}] ${m.text()}\n`));
      page.on('pageerror', (e) => consoleLog.write(`[pageerror] ${e.message}\n`));
      await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`, { timeout: 60_000 });
      const wb = new Workbench(page, sandbox, workspace, browser, server, run.cleanup);
      await wb.expectVisible(page.locator('.monaco-workbench .part.activitybar'), 'the workbench (activity bar)', 90_000);
      // The extension's contributions are registered (its commands are in the palette) once its
      // activity bar icon is there; the extension itself is not activated by this.
      await wb.expectVisible(wb.activityBarIcon, "the Work Item Studio activity bar icon (the extension's contributions)", 90_000);
      await wb.dismissNotifications();
      return wb;
    } catch (e) {
      await browser?.close().catch(() => undefined);
      await server?.stop();
      await sandbox?.close();
      run.cleanup();
      throw e;
    }
  }

  async stop(): Promise<void> {
    await this.browser.close().catch(() => undefined);
    await this.server.stop();
    await this.sandbox.close();
    this.cleanupRunDir();
  }

  /** Waits for `locator` to be visible; fails naming `what` and saves a screenshot of the moment. */
  async expectVisible(locator: Locator, what: string, timeoutMs = 30_000): Promise<Locator> {
    try {
      await locator.first().waitFor({ state: 'visible', timeout: timeoutMs });
      return locator.first();
    } catch {
      const shot = path.join(E2E_RESULTS, `missing-${what.replace(/[^A-Za-z0-9]+/g, '-').slice(0, 60)}.png`);
      await this.page.screenshot({ path: shot }).catch(() => undefined);
      throw new Error(`${what} did not appear within ${timeoutMs / 1000} s (screenshot: ${path.relative(REPO_ROOT, shot)})`);
    }
  }

  /**
   * Saves a screenshot: test-results/screenshots/<name>.png, or the README's
   * media/screenshots/<name>.png when UPDATE_SCREENSHOTS=1; of the `clip` rectangle only when given.
   */
  async screenshot(name: string, clip?: { x: number; y: number; width: number; height: number }): Promise<string> {
    const file = path.join(SCREENSHOTS, `${name}.png`);
    await this.page.mouse.move(0, 0);
    await this.page.screenshot({ path: file, ...(clip ? { clip } : {}) });
    return file;
  }

  /** Like `screenshot`, of one part of the window only (e.g. the side bar for the walkthrough's images). */
  async screenshotOf(locator: Locator, name: string): Promise<string> {
    const file = path.join(SCREENSHOTS, `${name}.png`);
    await this.page.mouse.move(0, 0);
    await locator.first().screenshot({ path: file });
    return file;
  }

  get activityBarIcon(): Locator {
    return this.page.locator('.part.activitybar .action-item a[aria-label^="Work Item Studio"]');
  }

  get quickInput(): Locator {
    return this.page.locator('.quick-input-widget');
  }

  /**
   * Opens the command palette (F1) and runs the command whose title matches `title`. The palette
   * lists the commands enabled when it opens: a command whose `when` depends on the editor just
   * opened may be missing for a moment, so the palette is opened again until it lists it.
   */
  async runCommand(title: string): Promise<void> {
    const row = this.quickInput.locator('.monaco-list-row', { hasText: title });
    for (let attempt = 1; ; attempt++) {
      await this.failOnDialog(`before running "${title}"`);
      await this.page.keyboard.press('Escape');
      await this.page.keyboard.press('F1');
      const input = await this.expectVisible(this.quickInput.locator('input'), 'the command palette');
      const filled = await input.fill(`>${title}`, { timeout: 10_000 }).then(
        () => true,
        () => false,
      );
      if (!filled) {
        await this.failOnDialog(`while running "${title}"`);
        if (attempt === 6) throw new Error(`the command palette did not take "${title}"`);
        continue;
      }
      const listed = await row.first().waitFor({ state: 'visible', timeout: 5_000 }).then(() => true, () => false);
      // The row is clicked, as a person would: Enter pressed after the palette closed on its own
      // (focus taken by an editor that just opened) went to the editor as a line break and ran nothing.
      if (listed && (await row.first().click({ timeout: 5_000 }).then(() => true, () => false))) return;
      if (attempt === 6) await this.expectVisible(row, `the command "${title}" in the command palette`, 1);
    }
  }

  /**
   * A modal dialog makes the rest of the workbench inert (nothing else can be typed
   * into or clicked): say which one is open, with a screenshot, instead of timing out.
   */
  async failOnDialog(when: string): Promise<void> {
    const dialog = this.page.locator('.monaco-dialog-box');
    if (!(await dialog.first().isVisible().catch(() => false))) return;
    const text = ((await dialog.first().innerText().catch(() => '')) || '').replace(/\s+/g, ' ').trim();
    const shot = path.join(REPO_ROOT, 'test-results', 'screenshots', `dialog-${Date.now()}.png`);
    await this.page.screenshot({ path: shot }).catch(() => undefined);
    throw new Error(`a dialog is open ${when}: "${text}" (screenshot ${shot})`);
  }

  /** Opens a workspace file with Quick Open (Ctrl+P), as a person would. */
  async openFile(name: string): Promise<void> {
    await this.page.keyboard.press('Escape');
    await this.page.keyboard.press('Control+P');
    const input = await this.expectVisible(this.quickInput.locator('input'), 'Quick Open');
    await input.fill(name);
    await this.expectVisible(this.quickInput.locator('.monaco-list-row', { hasText: name }), `${name} in Quick Open`);
    await this.page.keyboard.press('Enter');
    await this.expectVisible(this.page.locator('.tabs-container .tab', { hasText: name }), `the editor tab of ${name}`);
    // The tab shows at once; the file is read after it. Once read, its text editor appears and takes the
    // keyboard focus, which closes a command palette opened in between: a click on the palette's row
    // then lands in the editor and runs nothing (and the extension has no text editor of the file until
    // then). The file is open when the active group's editor shows it (its model's URI on the editor).
    // A file open already in another group may stay behind another editor there (Quick Open can
    // settle on that group's tab): then its tab is clicked, as a person would.
    const uri = name.split('/').map(encodeURIComponent).join('/');
    const active = this.page.locator(`.part.editor .editor-group-container.active .monaco-editor[data-uri$="/${uri}"]`);
    const shown = await active
      .first()
      .waitFor({ state: 'visible', timeout: 5_000 })
      .then(() => true)
      .catch(() => false);
    if (shown) return;
    await this.page.locator('.tabs-container .tab', { hasText: name }).first().click();
    await this.expectVisible(this.page.locator(`.part.editor .monaco-editor[data-uri$="/${uri}"]`), `the text of ${name} in its editor`);
  }

  /** Picks the item of the open quick pick whose text matches (clicked, as a person would). */
  async pickQuickItem(what: string, label: RegExp | string): Promise<void> {
    const row = await this.expectVisible(this.quickInput.locator('.monaco-list-row', { hasText: label }), what);
    await row.click();
  }

  /**
   * Runs the entry of the open context menu: hovered, then clicked, as a person does. On a loaded
   * machine the menu may miss the click while the pointer settles; then (and only when the menu is
   * still open after a moment) Enter runs the entry the hover focused. Enter is never pressed once
   * the menu has closed: it would go to the tree and toggle the focused row.
   */
  async runMenuEntry(entry: Locator): Promise<void> {
    await entry.hover();
    await entry.click();
    const closed = await entry.waitFor({ state: 'hidden', timeout: 3_000 }).then(() => true, () => false);
    if (!closed) {
      await entry.hover();
      await this.page.keyboard.press('Enter');
    }
  }

  /** Types `value` into the open input box whose prompt matches `prompt`, then presses Enter. */
  async answerInputBox(what: string, prompt: RegExp | string, value: string): Promise<void> {
    await this.expectVisible(this.quickInput.locator('.quick-input-message', { hasText: prompt }), what);
    const input = this.quickInput.locator('input.input').first();
    await input.click();
    await input.fill(value);
    await this.page.keyboard.press('Enter');
  }

  /**
   * Answers the extension's sign-in prompts (method pick, login name, password) until `done` is
   * visible. Returns how many sign-in method picks were answered (more than one means several
   * prompts were shown for one sign-in).
   */
  async signIn(loginName: string, password: string, done: Locator, timeoutMs = 60_000, prompts: SignInPrompts = ENGLISH_SIGN_IN): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    const method = this.quickInput.locator('.monaco-list-row', { hasText: prompts.method });
    const loginPrompt = this.quickInput.locator('.quick-input-message', { hasText: prompts.login });
    const passwordPrompt = this.quickInput.locator('.quick-input-message', { hasText: prompts.password });
    const input = this.quickInput.locator('input.input').first();
    let picks = 0;
    // Prompts can be replaced while we act on them: every action is short and retried by the loop.
    const act = async (f: () => Promise<void>) => {
      try {
        await f();
        return true;
      } catch {
        return false;
      }
    };
    // The login prompt turns into the password prompt in place: a value is entered only while the
    // prompt it is meant for is still shown after typing it, and the loop goes on once that prompt
    // has gone (else a slow switch could get the login name typed into the password prompt).
    const answer = (prompt: Locator, value: string) =>
      act(async () => {
        await input.fill(value, { timeout: 2_000 });
        if (!(await prompt.first().isVisible())) return;
        await input.press('Enter', { timeout: 2_000 });
        await prompt.first().waitFor({ state: 'hidden', timeout: 5_000 });
      });
    while (Date.now() < deadline) {
      if (await done.first().isVisible()) return picks;
      if (await method.first().isVisible()) {
        if (await act(() => method.first().click({ timeout: 2_000 }))) picks++;
      } else if (await loginPrompt.first().isVisible()) {
        await answer(loginPrompt, loginName);
      } else if (await passwordPrompt.first().isVisible()) {
        await answer(passwordPrompt, password);
      }
      await this.page.waitForTimeout(300);
    }
    return this.expectVisible(done, 'the result of signing in', 1).then(() => picks);
  }

  /** A visible notification toast whose text matches. */
  notification(text: RegExp | string): Locator {
    return this.page.locator('.notification-toast', { hasText: text });
  }

  async dismissNotifications(): Promise<void> {
    await this.page.keyboard.press('Escape').catch(() => undefined);
  }

  /**
   * Opens a walkthrough as a person does (Welcome: Open Walkthrough..., then its title) and waits
   * for its page: the title as the heading of the walkthrough's details.
   */
  async openWalkthrough(title: string): Promise<Locator> {
    await this.runCommand('Welcome: Open Walkthrough...');
    await this.pickQuickItem(`the walkthrough "${title}" in the walkthrough pick`, title);
    return this.expectVisible(this.page.locator('.gettingStartedSlideDetails h2.category-title', { hasText: title }), `the walkthrough "${title}"`);
  }

  /** A step (its button, title and description) of the walkthrough shown. */
  walkthroughStep(title: string): Locator {
    return this.page.locator('.gettingStartedSlideDetails button.getting-started-step', { has: this.page.locator('h3.step-title', { hasText: title }) });
  }

  /** The side bar's tree rows (all views), matching `text`. */
  treeRow(text: RegExp | string): Locator {
    return this.page.locator('.part.sidebar .monaco-list-row', { hasText: text });
  }
}
