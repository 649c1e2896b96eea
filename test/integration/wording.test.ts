// How counts and outcomes read: "1 item", not "1 items"; a cancel whose request was in
// flight says its outcome is unknown instead of "0 of 2 items were not sent". Fields are
// named in the UI's language (Progress, a custom field by the service's name), their
// system names only on hover: the Before/After view and the descriptions of table edits.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { REQUEST_STATES, type JobResult, type RequestState } from '../../src/bulk/types';
import { outcomeMessage } from '../../src/common/wording';
import { sendConfirmation } from '../../src/changes/send';
import { unreadValuesQuestion } from '../../src/changes';
import { describeTableEdits } from '../../src/table/review';
import { buildColumns } from '../../src/table/model/columns';
import type { PreviewButtonOutcome } from '../../src/changes';
import { activateExtension, closeUntitledDocuments, waitFor, replaceDocumentText } from './support';

function byState(values: Partial<Record<RequestState, number>>): Record<RequestState, number> {
  return Object.fromEntries(REQUEST_STATES.map((s) => [s, values[s] ?? 0])) as Record<RequestState, number>;
}

function result(outcome: JobResult['outcome'], requests: Partial<Record<RequestState, number>>, items: Partial<Record<RequestState, number>>): JobResult {
  const sum = (v: Partial<Record<RequestState, number>>) => Object.values(v).reduce((a, b) => a + (b ?? 0), 0);
  return {
    outcome,
    requests: [],
    totals: {
      requests: sum(requests),
      items: sum(items),
      requestsByState: byState(requests),
      itemsByState: byState(items),
      changedItems: 0,
      affectedItems: 0,
      addedTimeEntries: 0,
      addedScheduleDependencies: 0,
      retries: 0,
      retryBudgetLeft: 10,
    },
    startedAt: new Date(0).toISOString(),
    finishedAt: new Date(0).toISOString(),
    durationMs: 1,
  };
}

describe('wording of counts and outcomes', function () {
  this.timeout(60_000);

  before(async () => {
    await activateExtension();
  });

  afterEach(async () => {
    await closeUntitledDocuments();
  });

  it('the Send CodeLens of a one-item document says "1 item · 1 request"', async () => {
    await vscode.commands.executeCommand('workItemStudio.startSandbox');
    try {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: 'untitled', path: `/wording-${process.pid}.workitems.json` }));
      await vscode.window.showTextDocument(doc);
      await replaceDocumentText(doc, JSON.stringify({ workItemIds: ['120'], update: { setCompleted: true } }, null, 2));
      const send = await waitFor('the Send CodeLens', async () => {
        const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
        return lenses.map((l) => l.command?.title ?? '').find((t) => t.includes('Sandbox'));
      });
      assert.match(send, /· 1 item · 1 request$/);
    } finally {
      await vscode.commands.executeCommand('workItemStudio.stopSandbox');
    }
  });

  it('the confirmation of a large send says the values before are kept for an undo, and "cannot be undone" only with reading values off', () => {
    const plan = { ids: Array.from({ length: 150 }, (_, i) => String(i + 1)), requests: [{}, {}] as never[] };
    const info = { label: 'Test Service', baseUrl: 'https://tt.example.com/api' };
    const on = sendConfirmation('big.workitems.json', plan, info, true);
    assert.equal(on.message, 'Update 150 work items on Test Service?');
    assert.match(on.detail, /^big\.workitems\.json sends 2 requests to Test Service \(https:\/\/tt\.example\.com\/api\)\./);
    assert.match(on.detail, /Create Undo Document can put them back/);
    assert.doesNotMatch(on.detail, /cannot be undone/);
    const off = sendConfirmation('big.workitems.json', plan, info, false);
    assert.match(off.detail, /workItemStudio\.bulk\.readValues\), so the change cannot be undone from here\./);
  });

  it('when the values before cannot be read, Send says why and names the setting that stops the reading', () => {
    const q = unreadValuesQuestion('HTTP 404 Not Found');
    assert.equal(q.message, 'The values before the update could not be read: HTTP 404 Not Found');
    assert.match(q.detail, /cannot be undone from the result view/);
    assert.match(q.detail, /workItemStudio\.bulk\.readValues/);
  });

  it('a success names the count in the singular when there is one work item', () => {
    const m = outcomeMessage(result('succeeded', { succeeded: 1 }, { succeeded: 1 }), 'Test Service');
    assert.equal(m.text, 'Updated 1 work item on Test Service.');
    assert.equal(outcomeMessage(result('succeeded', { succeeded: 2 }, { succeeded: 5 }), 'S').text, 'Updated 5 work items on S.');
  });

  it('a cancel with the only request in flight says its outcome is unknown, not "0 items were not sent"', () => {
    const m = outcomeMessage(result('cancelled', { cancelled: 1 }, { cancelled: 2 }), 'Test Service');
    assert.doesNotMatch(m.text, /\b0\b/, m.text);
    assert.doesNotMatch(m.text, /not sent/, m.text);
    assert.match(m.text, /Outcome unknown: 1 request \(2 items\)/);
    assert.equal(m.severity, 'warning');
  });

  it('a cancel before anything was sent points to Resume; a failure names only what failed', () => {
    const cancelled = outcomeMessage(result('cancelled', { pending: 2 }, { pending: 7 }), 'S');
    assert.equal(cancelled.text, 'Cancelled. Not sent: 7 items; run "Resume Update Jobs" to send them.');
    assert.equal(cancelled.severity, 'info');
    const failed = outcomeMessage(result('partial', { failed: 1 }, { failed: 3 }), 'S');
    assert.equal(failed.text, 'Failed requests: 1 of 1.');
    assert.equal(failed.severity, 'warning');
  });
});

describe('fields by their names in the UI language', function () {
  this.timeout(120_000);
  const japanese = vscode.env.language.startsWith('ja');
  let file: string | undefined;

  before(async () => {
    await activateExtension();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (file) fs.rmSync(file, { force: true });
  });

  it('the Before/After view heads each column with the field\'s name (a custom field by the service\'s catalogue), not its system name', async () => {
    await vscode.commands.executeCommand('workItemStudio.startSandbox');
    try {
      const ws = vscode.workspace.workspaceFolders?.[0];
      const dir = ws ? path.join(ws.uri.fsPath, '.integration-wording') : fs.mkdtempSync(path.join(os.tmpdir(), 'wis-wording-'));
      fs.mkdirSync(dir, { recursive: true });
      file = path.join(dir, `field-names-${process.pid}.workitems.json`);
      fs.writeFileSync(file, `${JSON.stringify({ workItemIds: ['122', '123'], update: { fields: { ActualProgress: 40, CustomNumber1: 12 } } }, null, 2)}\n`);
      const uri = vscode.Uri.file(file);
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      // The sandbox's catalogue names its custom fields (CustomNumber1 is 見積工数).
      await vscode.commands.executeCommand('workItemStudio.refreshFieldCatalogue');
      await vscode.commands.executeCommand('workItemStudio.previewUpdate', uri);
      const state = await waitFor('the Before/After view with its table', async () => {
        const s = (await vscode.commands.executeCommand('workItemStudio.pressBeforeAfterButton', 'state')) as PreviewButtonOutcome;
        return s.fields && s.fields.length > 0 ? s : undefined;
      });
      assert.deepEqual(state.fields, [
        { field: 'ActualProgress', label: japanese ? '進捗率' : 'Progress' },
        { field: 'CustomNumber1', label: '見積工数' },
      ]);
    } finally {
      await vscode.commands.executeCommand('workItemStudio.stopSandbox');
    }
  });

  it('the description of table edits names the fields by the table\'s headers, with a singular count', () => {
    const columns = buildColumns();
    assert.equal(
      describeTableEdits({ fields: { ActualProgress: 30, PlannedFinishDate: '2026-05-25' } }, 2, columns),
      japanese ? 'テーブルの編集: 進捗率 = 30%, 予定終了日 = "2026-05-25" (作業項目 2 件)' : 'Table edits: Progress = 30%, Planned finish = "2026-05-25" (2 work items)',
    );
    assert.equal(describeTableEdits({ moveScheduleDays: 1 }, 1, columns), japanese ? 'テーブルの編集: スケジュールを 1 日ずらす (作業項目 1 件)' : 'Table edits: shift the schedule by 1 day (1 work item)');
  });
});
