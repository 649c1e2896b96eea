// Browser E2E of before/after and undo in a real workbench: Preview shows current →
// expected values per item, the result view shows before → after, "Create Undo
// Document" opens the document that puts the old values back, and sending it restores
// them in the sandbox. Saves the README's screenshots with UPDATE_SCREENSHOTS=1.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { Workbench } from './workbench';

const DOCUMENT = {
  description: 'Shift the top page tasks by a week',
  workItemIds: ['122', '123', '127'],
  update: { moveScheduleDays: 7 },
};

async function sandboxItem(wb: Workbench, id: string): Promise<{ plannedStartDate: string | null; plannedFinishDate: string | null }> {
  const r = await fetch(`${wb.sandbox.origin}/_sandbox/workitems/${id}`, { signal: AbortSignal.timeout(10_000) });
  assert.equal(r.status, 200, `sandbox has no work item ${id}`);
  return (await r.json()) as { plannedStartDate: string | null; plannedFinishDate: string | null };
}

describe('Before/after and undo in a VS Code workbench', function () {
  this.timeout(180_000);
  let wb: Workbench;

  before(async function () {
    this.timeout(15 * 60_000);
    wb = await Workbench.start({ files: { 'shift-week.workitems.json': DOCUMENT } });
    await wb.page.keyboard.press('Control+B'); // the side bar off: the editors are the subject
  });

  after(async () => {
    await wb?.stop();
  });

  /** A screenshot of the active editor group maximized (the README's pictures), then the layout as it was. */
  async function groupScreenshot(name: string): Promise<void> {
    // Maximize Editor Group (Ctrl+K Ctrl+M) and back.
    await wb.page.keyboard.press('Escape');
    await wb.page.keyboard.press('Control+K');
    await wb.page.keyboard.press('Control+M');
    await wb.page.waitForTimeout(800);
    await wb.screenshot(name);
    await wb.page.keyboard.press('Control+K');
    await wb.page.keyboard.press('Control+M');
    await wb.page.waitForTimeout(300);
  }

  /** The webview document that holds `selector` (the Before/After view and the result view are both webviews). */
  async function frameWith(selector: string, what: string, timeoutMs = 60_000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      for (const f of wb.page.frames()) {
        if ((await f.locator(selector).count().catch(() => 0)) > 0) return f;
      }
      await wb.page.waitForTimeout(300);
    }
    await wb.screenshot(`missing-${what.replace(/[^A-Za-z0-9]+/g, '-')}`);
    throw new Error(`${what} did not appear within ${timeoutMs / 1000} s`);
  }

  /** Waits for a preview kept in the extension's storage (user data of the workbench) written after `since`. */
  async function keptPreviewSince(since: number, timeoutMs = 30_000): Promise<void> {
    const storage = path.join(path.dirname(wb.workspace), 'user-data', 'User', 'globalStorage');
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const kept = fs.existsSync(storage)
        ? fs.readdirSync(storage).flatMap((ext) => {
            const dir = path.join(storage, ext, 'previews');
            return fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.endsWith('.json')).map((n) => path.join(dir, n)) : [];
          })
        : [];
      if (kept.some((f) => fs.statSync(f).mtimeMs >= since)) return;
      await wb.page.waitForTimeout(200);
    }
    throw new Error(`no preview was kept under ${storage} within ${timeoutMs / 1000} s`);
  }

  it('previews current → expected values, sends, shows before → after, and undoes the shift', async () => {
    const before = await Promise.all(DOCUMENT.workItemIds.map((id) => sandboxItem(wb, id)));
    // A command of the extension activates it (its editor commands show once it runs).
    await wb.runCommand('Work Item Studio: New Work Item Update');
    await wb.expectVisible(wb.quickInput.locator('.quick-input-message', { hasText: /Work item IDs/ }), 'the work item IDs box');
    await wb.page.keyboard.press('Escape');
    await wb.openFile('shift-week.workitems.json');
    // Preview reads the current values: the first read asks to sign in.
    await wb.runCommand('Work Item Studio: Preview Work Item Update');
    const previewTab = wb.page.locator('.tabs-container .tab', { hasText: /^Before\/After/ });
    await wb.signIn('admin', 'password', previewTab);
    await wb.expectVisible(previewTab, 'the Before/After tab of the preview', 60_000);
    await previewTab.first().click();
    const preview = await frameWith('#wis-changes[data-kind="preview"]', 'the current → expected table');
    await wb.expectVisible(preview.locator('.wis-row', { hasText: '2026-03-09' }), 'the shifted start date of 122 (2026-03-02 → 2026-03-09)');
    await previewTab.first().click();
    await groupScreenshot('before-after');

    // Send from the Before/After view.
    await (await wb.expectVisible(preview.locator('button', { hasText: /^Send$/ }), 'the Send button of the Before/After view')).click();
    const resultTab = wb.page.locator('.tabs-container .tab', { hasText: /^Results/ });
    await wb.expectVisible(resultTab, 'the Results tab', 90_000);
    const shifted = await sandboxItem(wb, '122');
    assert.notEqual(shifted.plannedStartDate, before[0]!.plannedStartDate, 'the sandbox recorded the shift');
    await resultTab.first().click();
    const results = await frameWith('#wis-changes[data-kind="result"]', 'the before → after table of the results');
    await wb.expectVisible(results.locator('.wis-row', { hasText: '123' }), 'a row of the changed items');
    await wb.dismissNotifications();
    await resultTab.first().click();
    await groupScreenshot('result-before-after');

    await (await wb.expectVisible(results.locator('button', { hasText: 'Create Undo Document' }), 'the Create Undo Document button')).click();
    const undoTab = wb.page.locator('.tabs-container .tab', { hasText: /^undo-shift-week-[0-9a-f]+/ });
    await wb.expectVisible(undoTab, 'the undo document', 60_000);
    await wb.expectVisible(wb.page.locator('.monaco-editor .view-lines', { hasText: '"moveScheduleDays": -7' }), 'the opposite shift in the undo document');
    await undoTab.first().click();
    await groupScreenshot('undo-document');

    await undoTab.first().click();
    await wb.runCommand('Work Item Studio: Send Work Item Update');
    await wb.expectVisible(wb.page.locator('.tabs-container .tab', { hasText: /^Results: undo-shift-week-[0-9a-f]+/ }), 'the results of the undo', 90_000);
    const after = await Promise.all(DOCUMENT.workItemIds.map((id) => sandboxItem(wb, id)));
    assert.deepEqual(
      after.map((a) => [a.plannedStartDate, a.plannedFinishDate]),
      before.map((b) => [b.plannedStartDate, b.plannedFinishDate]),
      'every date is back to its value before the update',
    );
  });

  it('after a window reload, the Before/After view comes back and its Send still says which items changed since the preview; cancelled, nothing is sent', async () => {
    await wb.dismissNotifications();
    await wb.openFile('shift-week.workitems.json');
    // Its tab clicked: the active editor is this document (Quick Open finds its tab open already in another group).
    await wb.page.locator('.tabs-container .tab', { hasText: 'shift-week.workitems.json' }).first().click();
    const previewedAt = Date.now() - 1_000;
    await wb.runCommand('Work Item Studio: Preview Work Item Update');
    const previewTab = wb.page.locator('.tabs-container .tab', { hasText: /^Before\/After: shift-week/ });
    await wb.signIn('admin', 'password', previewTab);
    const preview = await frameWith('#wis-changes[data-kind="preview"]', 'the current → expected table of the new preview');
    await wb.expectVisible(preview.locator('.wis-row', { hasText: '2026-03-09' }), 'the preview of the values as they are again (122 starts 2026-03-02)');
    // The preview's values are written to the extension's storage in the background: a reload
    // right away would come before them (as it would for a person reloading within milliseconds).
    await keptPreviewSince(previewedAt);
    // The window reloads: what the extension held in memory is gone.
    await wb.runCommand('Developer: Reload Window');
    await wb.page.waitForEvent('framenavigated', { timeout: 60_000 }).catch(() => undefined);
    await wb.expectVisible(wb.page.locator('.monaco-workbench .part.activitybar'), 'the workbench after the reload', 90_000);
    // Someone else moves 122 by a day meanwhile.
    const moved = await fetch(`${wb.sandbox.url}/workitem/workItems/122`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from('admin:password').toString('base64')}` },
      body: JSON.stringify({ moveScheduleDays: 1 }),
      signal: AbortSignal.timeout(10_000),
    });
    assert.equal(moved.status, 200, await moved.text());
    const changed = await sandboxItem(wb, '122');
    // The Before/After view comes back with the values read before the reload (kept on disk, no request
    // made), saying so; its Send sends the document.
    await wb.expectVisible(previewTab, 'the Before/After tab after the reload', 60_000);
    await previewTab.first().click();
    const restored = await frameWith('#wis-changes[data-kind="preview"]', 'the restored Before/After view with its table');
    await wb.expectVisible(restored.locator('.wis-row', { hasText: '2026-03-09' }), 'the kept preview of 122 (2026-03-02 → 2026-03-09)');
    await wb.expectVisible(restored.locator('body', { hasText: /before the window was reloaded/ }), 'the restored view saying its values were read before the reload');
    await (await wb.expectVisible(restored.locator('button', { hasText: /^Send$/ }), 'the Send button of the restored view')).click();
    const dialog = wb.page.locator('.monaco-dialog-box', { hasText: /1 item changed on the service since the preview/ });
    await wb.signIn('admin', 'password', dialog, 90_000);
    await wb.expectVisible(dialog.filter({ hasText: /122: Planned start, Planned finish/ }), 'the changed item and its fields in the question');
    await (await wb.expectVisible(dialog.locator('.monaco-button', { hasText: 'Cancel' }), 'the Cancel button of the question')).click();
    await dialog.first().waitFor({ state: 'hidden', timeout: 10_000 });
    await wb.page.waitForTimeout(1_000);
    assert.deepEqual(await sandboxItem(wb, '122'), changed, 'nothing was sent');
  });
});
