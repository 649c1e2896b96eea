// A Before/After view that cannot send twice, in a real extension host: a document is
// previewed (the view opens with Send live), then sent; the view is then marked sent
// (Send disabled, "Preview Again" first, the send time and job named); its Send, pressed
// as a click does, sends nothing (the item is shifted once, not twice); Preview Again
// reads the values again and Send is live again for the new values.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { activateExtension, closeUntitledDocuments, waitFor } from './support';

const ID = '113';
const DAYS = 7;

interface ButtonState {
  document?: string;
  sentAt?: string;
  jobId?: string;
  buttons: { command: string; label: string; disabled: boolean }[];
  did: string;
}

interface SendOutcome {
  baseUrl: string;
  jobId?: string;
  result: { outcome: string; requests: { state: string }[] };
}

function scratchFolder(): string {
  const ws = vscode.workspace.workspaceFolders?.[0];
  const base = ws ? path.join(ws.uri.fsPath, '.integration-stale-view') : fs.mkdtempSync(path.join(os.tmpdir(), 'wis-stale-'));
  fs.mkdirSync(base, { recursive: true });
  return base;
}

async function startDate(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/workitem/workItems/${ID}?fields=Id,PlannedStartDate`, {
    headers: { authorization: `Basic ${Buffer.from('admin:password').toString('base64')}` },
  });
  assert.equal(res.status, 200, await res.clone().text());
  const records = (await res.json()) as { fields: Record<string, unknown> }[];
  return String(records[0]!.fields.PlannedStartDate).slice(0, 10);
}

function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

const press = async (command: string): Promise<ButtonState> => (await vscode.commands.executeCommand('workItemStudio.pressBeforeAfterButton', command)) as ButtonState;
const send = (s: ButtonState): ButtonState['buttons'][number] | undefined => s.buttons.find((b) => b.command === 'send');

function tabLabels(): string[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => t.label);
}

describe('a stale Before/After view cannot send twice', function () {
  this.timeout(180_000);

  before(async () => {
    await activateExtension();
    await vscode.commands.executeCommand('workItemStudio.startSandbox');
  });

  afterEach(async () => {
    await closeUntitledDocuments();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('after a send of the previewed document, the view says "Sent at", its Send is disabled and sends nothing; Preview Again makes it live again', async () => {
    const file = path.join(scratchFolder(), `stale-${process.pid}.workitems.json`);
    fs.writeFileSync(file, `${JSON.stringify({ workItemIds: [ID], update: { moveScheduleDays: DAYS } }, null, 2)}\n`);
    const uri = vscode.Uri.file(file);
    try {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      const preview = (await vscode.commands.executeCommand('workItemStudio.previewUpdate', uri)) as string;
      const baseUrl = new RegExp(`PUT (\\S+)/workitem/workItems/${ID}`).exec(preview)?.[1];
      assert.ok(baseUrl, preview);
      await waitFor('the Before/After view of the preview', () => tabLabels().some((l) => l.startsWith('Before/After: stale-')));
      const before = await startDate(baseUrl);

      const fresh = await press('state');
      assert.equal(fresh.document, uri.toString());
      assert.equal(fresh.sentAt, undefined);
      assert.equal(send(fresh)?.disabled, false, 'Send is live before the send');

      const outcomes = (await vscode.commands.executeCommand('workItemStudio.sendUpdate', uri)) as SendOutcome[];
      assert.equal(outcomes[0]?.result.outcome, 'succeeded', JSON.stringify(outcomes));
      assert.equal(await startDate(baseUrl), addDays(before, DAYS), 'shifted once');

      const stale = await press('state');
      assert.ok(stale.sentAt, 'the view is marked sent');
      assert.equal(stale.jobId, outcomes[0]!.jobId, 'the view names the job of the send');
      assert.equal(send(stale)?.disabled, true, 'Send is disabled');
      assert.equal(stale.buttons[0]?.command, 'refresh', 'Preview Again is the first button');
      assert.match(stale.buttons[0]?.label ?? '', /Preview Again|再度プレビュー/);

      const pressed = await press('send');
      assert.equal(pressed.did, 'refused-sent', 'the stale view sends nothing');
      assert.equal(await startDate(baseUrl), addDays(before, DAYS), 'still shifted once, not twice');

      const again = await press('refresh');
      assert.equal(again.did, 'refresh');
      assert.equal(again.sentAt, undefined, 'Preview Again read the values now: the view may send again');
      assert.equal(send(again)?.disabled, false);
    } finally {
      fs.rmSync(file, { force: true });
    }
  });
});
