// A tidy window in a real extension host: document → preview → Before/After → send →
// result → undo document → "Send All Undo Documents in Order" never makes more than
// two editor groups; the undo summary is part of the result view (no Markdown tab);
// the job's one undo document (its requests put back each kind of value) is named
// after the document and the job; the question before it is asked once.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse } from 'jsonc-parser';
import * as vscode from 'vscode';
import { activateExtension, answering, closeUntitledDocuments, waitFor } from './support';

const IDS = ['122', '123'];

interface SendOutcome {
  baseUrl: string;
  jobId?: string;
  result: { outcome: string; requests: { state: string }[] };
}

function groups(): number {
  return vscode.window.tabGroups.all.length;
}

function tabLabels(): string[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => t.label);
}

async function readCodes(baseUrl: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${baseUrl}/workitem/workItems/${IDS.join(',')}?fields=Id,Code,IsTimeEntryLocked`, {
    headers: { authorization: `Basic ${Buffer.from('admin:password').toString('base64')}` },
  });
  assert.equal(res.status, 200);
  const records = (await res.json()) as { fields: Record<string, unknown> }[];
  return Object.fromEntries(records.map((r) => [String(r.fields.Id), [r.fields.Code, r.fields.IsTimeEntryLocked]]));
}

describe('a tidy window: never more than two editor groups', function () {
  this.timeout(240_000);

  before(async () => {
    await activateExtension();
    await vscode.commands.executeCommand('workItemStudio.startSandbox');
  });

  afterEach(async () => {
    await closeUntitledDocuments();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('document → preview → send → result → undo documents → Send All Undo Documents in Order keeps at most two groups (tabGroups.all.length)', async () => {
    const dir = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? fs.mkdtempSync(path.join(os.tmpdir(), 'wis-tidy-'));
    const file = path.join(dir, `tidy-${process.pid}.workitems.json`);
    fs.writeFileSync(file, `${JSON.stringify({ workItemIds: IDS, update: { setTimeEntryLocked: true, fields: { Code: 'TIDY-TEST' } } }, null, 2)}\n`);
    const uri = vscode.Uri.file(file);
    const most: number[] = [];
    const watch = vscode.window.tabGroups.onDidChangeTabGroups(() => most.push(groups()));
    try {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { viewColumn: vscode.ViewColumn.One });
      const preview = (await vscode.commands.executeCommand('workItemStudio.previewUpdate', uri)) as string;
      const baseUrl = /PUT (\S+)\/workitem\/workItems\/122,123/.exec(preview)?.[1];
      assert.ok(baseUrl, preview);
      const before = await readCodes(baseUrl);
      await waitFor('the Before/After view', () => tabLabels().some((l) => l.startsWith('Before/After: tidy-')));
      assert.ok(groups() <= 2, `after the preview: ${groups()} groups (${tabLabels().join(', ')})`);

      const [sent] = (await vscode.commands.executeCommand('workItemStudio.sendUpdate', uri)) as SendOutcome[];
      assert.equal(sent?.result.outcome, 'succeeded');
      await waitFor('the result view', () => tabLabels().some((l) => l.startsWith('Results: tidy-')));
      assert.ok(groups() <= 2, `after the send: ${groups()} groups (${tabLabels().join(', ')})`);

      const undo = (await answering({ undo: { drift: async () => 'cancel' } }, () => vscode.commands.executeCommand('workItemStudio.createUndoDocument', sent!.jobId))) as { documents: vscode.Uri[] };
      assert.equal(undo?.documents.length, 1, 'one undo document: its requests put back the lock and the fields');
      const names = undo.documents.map((d) => path.posix.basename(d.path));
      const undoText = (await vscode.workspace.openTextDocument(undo.documents[0]!)).getText();
      assert.ok(((parse(undoText) as { requests?: unknown[] }).requests?.length ?? 0) >= 2, undoText);
      // Named after the document and the job (never a number another undo of this window has).
      assert.match(names[0]!, new RegExp(`^undo-tidy-[\\w.-]*-${sent!.jobId!.split('-').pop()}\\.workitems\\.json$`), names.join(', '));
      assert.ok(!tabLabels().some((l) => /\.preview\.md$/.test(l) && l.startsWith('undo-')), `the undo summary is part of the result view, not a Markdown tab: ${tabLabels().join(', ')}`);
      assert.ok(groups() <= 2, `after the undo documents: ${groups()} groups (${tabLabels().join(', ')})`);

      // Send them all in order: asked before the first, "the rest without asking" once, then no more questions.
      const asked: number[] = [];
      const run = (await answering(
        {
          undo: {
            drift: async () => 'cancel',
            sendNext: async (q) => {
              asked.push(q.index);
              assert.ok(groups() <= 2, `while sending undo ${q.index}: ${groups()} groups`);
              return 'all';
            },
          },
        },
        () => vscode.commands.executeCommand('workItemStudio.sendAllUndoDocuments', sent!.jobId),
      )) as { sent: string[]; stopped?: string; asked: number };
      assert.equal(run.stopped, undefined, JSON.stringify(run));
      assert.deepEqual(run.sent, names);
      assert.deepEqual(asked, [1], 'asked once, then the rest without asking');
      assert.deepEqual(await readCodes(baseUrl), before, 'every value is back');
      assert.ok(groups() <= 2, `at the end: ${groups()} groups (${tabLabels().join(', ')})`);
      assert.ok(Math.max(...most, groups()) <= 2, `at some point the window had ${Math.max(...most)} groups`);
    } finally {
      watch.dispose();
      fs.rmSync(file, { force: true });
    }
  });
});
