// Browser E2E in a real workbench, in English and in Japanese: two named service profiles (本番 and
// 検証, each a sandbox this process runs) beside the workspace's service URL. A click on the status
// bar item offers to switch to them; after switching to 本番 and signing in, the status bar names
// 本番 and VS Code's Accounts menu lists the sign-in as "admin @ 本番"; Sign Out there signs out,
// and the status bar says so; the Accounts menu then offers the sign-in, which signs in again. Saves profile-switch*.png and accounts-menu*.png with
// UPDATE_SCREENSHOTS=1.
import * as assert from 'node:assert/strict';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';
import { ENGLISH, frameWith, JAPANESE } from './table-flow';
import { ENGLISH_SIGN_IN, Workbench, type SignInPrompts } from './workbench';

interface Texts {
  switchTo: (name: string) => string;
  signIn: SignInPrompts;
  notSignedIn: string;
}
const TEXTS: Record<'en' | 'ja', Texts> = {
  en: { switchTo: (n) => `Switch to ${n}`, signIn: ENGLISH_SIGN_IN, notSignedIn: '本番 (not signed in)' },
  ja: { switchTo: (n) => `${n}に切り替え`, signIn: { method: 'ログイン名とパスワード', login: /^ログイン名/, password: /のパスワード/ }, notSignedIn: '本番 (未サインイン)' },
};

for (const locale of ['en', 'ja'] as const) {
  const t = TEXTS[locale];
  const suffix = locale === 'ja' ? '-ja' : '';
  describe(`Service profiles and the Accounts menu in a VS Code workbench (${locale})`, function () {
    this.timeout(180_000);
    let wb: Workbench;
    let prod: Sandbox;
    let staging: Sandbox;

    before(async function () {
      this.timeout(15 * 60_000);
      prod = await createSandbox({ host: '127.0.0.1', port: 0 });
      staging = await createSandbox({ host: '127.0.0.1', port: 0 });
      wb = await Workbench.start({
        ...(locale === 'ja' ? { locale: 'ja' } : {}),
        settings: {
          'workItemStudio.organizations': ['1001'],
          'workItemStudio.services': [
            { name: '本番', url: prod.url },
            { name: '検証', url: staging.url },
          ],
        },
      });
    });

    after(async () => {
      await wb?.stop();
      await prod?.close();
      await staging?.close();
    });

    it('switches to 本番 from the status bar and signs in there; the status bar names 本番', async () => {
      const { page } = wb;
      // The extension runs once its view is shown; the status bar item then names the service in use.
      await (await wb.expectVisible(wb.activityBarIcon, 'the Work Item Studio activity bar icon')).click();
      const status = page.locator('.statusbar-item', { hasText: /127\.0\.0\.1/ });
      await wb.signIn('admin', 'password', page.locator('.statusbar-item', { hasText: /@127\.0\.0\.1/ }), 60_000, t.signIn);
      await wb.dismissNotifications();
      await (await wb.expectVisible(status.first(), 'the connection item in the status bar')).click();
      const toProd = wb.quickInput.locator('.monaco-list-row', { hasText: t.switchTo('本番') });
      await wb.expectVisible(toProd, `"${t.switchTo('本番')}" in the connection picker`);
      await wb.expectVisible(wb.quickInput.locator('.monaco-list-row', { hasText: t.switchTo('検証') }), `"${t.switchTo('検証')}" in the connection picker`);
      await page.waitForTimeout(300);
      // The picker, the side bar's view titles and the status bar's item are what it shows.
      await wb.screenshot(`profile-switch${suffix}`, { x: 0, y: 0, width: 960, height: 260 });
      await toProd.first().click();
      const signedIn = page.locator('.statusbar-item', { hasText: /@本番/ });
      const picks = await wb.signIn('admin', 'password', signedIn, 60_000, t.signIn);
      assert.equal(picks, 1, 'one sign-in prompt for the new profile');
      // The views say which service they show.
      await wb.expectVisible(page.locator('.part.sidebar .pane-header .description', { hasText: '本番' }).first(), 'a view naming 本番');
      // So does a work item table, in its status line.
      const tt = locale === 'ja' ? JAPANESE : ENGLISH;
      const pane = page.locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: tt.workItemsView }) });
      const project = await wb.expectVisible(pane.locator('.monaco-list-row', { hasText: /PRJ-WEB/ }), 'the project PRJ-WEB of 本番', 60_000);
      await project.click({ button: 'right' });
      await wb.runMenuEntry(await wb.expectVisible(page.locator('.monaco-menu .action-item', { hasText: tt.openTable }), `${tt.openTable} in the project's context menu`));
      const table = await frameWith(wb, '#rows .row:not(.pending) .cell', 'the rows of the table');
      await wb.expectVisible(table.locator('#status', { hasText: /^本番 · / }), 'the table naming 本番 in its status line');
      await page.keyboard.press('Control+W');
    });

    it('lists the sign-in in the Accounts menu as "admin @ 本番"; Sign Out there signs out, and its offered sign-in signs in again', async () => {
      const { page } = wb;
      await wb.dismissNotifications();
      const accounts = page.locator('.part.activitybar .action-item:has(.codicon-accounts-view-bar-icon)');
      await (await wb.expectVisible(accounts.first(), 'the Accounts icon of the activity bar')).click();
      // A pending sign-in request would leave a badge on the icon: none, since every request is answered.
      assert.equal(await accounts.first().locator('.badge:visible').count(), 0, 'no sign-in requested any more');
      const account = page.locator('.monaco-menu .action-item', { hasText: 'admin @ 本番' });
      await wb.expectVisible(account.first(), 'the account "admin @ 本番" in the Accounts menu');
      await account.first().hover();
      const signOut = page.locator('.monaco-menu .action-item', { hasText: /^Sign Out$/ });
      await wb.expectVisible(signOut.first(), 'Sign Out in the account\'s menu');
      await page.waitForTimeout(300);
      await wb.screenshot(`accounts-menu${suffix}`, { x: 0, y: 580, width: 740, height: 220 });
      await signOut.first().click();
      // VS Code asks before signing out of an account that extensions used.
      const confirm = page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Sign Out$/ });
      await (await wb.expectVisible(confirm.first(), 'VS Code\'s question before signing out', 10_000)).click();
      await wb.expectVisible(page.locator('.statusbar-item', { hasText: t.notSignedIn }), `"${t.notSignedIn}" in the status bar`);

      // Signed out, the Accounts menu offers the sign-in to the profile in use; it signs in there.
      await wb.expectVisible(accounts.first().locator('.badge'), 'the Accounts icon\'s badge (a sign-in requested)');
      await accounts.first().click();
      const offer = page.locator('.monaco-menu .action-item', { hasText: /Sign in with Work Item Studio/ });
      await (await wb.expectVisible(offer.first(), 'the sign-in the Accounts menu offers')).click();
      const picks = await wb.signIn('admin', 'password', page.locator('.statusbar-item', { hasText: /@本番/ }), 60_000, t.signIn);
      assert.equal(picks, 1, 'one sign-in prompt');
      await accounts.first().click();
      await wb.expectVisible(page.locator('.monaco-menu .action-item', { hasText: 'admin @ 本番' }).first(), 'the account back in the Accounts menu');
      await page.keyboard.press('Escape');
    });
  });
}
