// Before/after and undo in a real extension host: Preview reads the current values
// and opens the Before/After view, Send keeps the values before beside the job and
// shows before → after, Create Undo Document writes the documents that put them
// back, and sending those documents restores every touched value (checked with the
// service's read operation and in the Work Items view).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { WorkItemNode } from '../../src/workItems/tree';
import { activateExtension, answering, closeUntitledDocuments, waitFor } from './support';

const IDS = ['122', '123'];
const FIELDS = ['Id', 'Code', 'PlannedStartDate', 'PlannedFinishDate', 'IsTimeEntryLocked'];

interface SendOutcome {
  baseUrl: string;
  jobId?: string;
  result: { outcome: string; requests: { state: string }[] };
}

function scratchFolder(): string {
  const ws = vscode.workspace.workspaceFolders?.[0];
  const base = ws ? path.join(ws.uri.fsPath, '.integration-undo') : fs.mkdtempSync(path.join(os.tmpdir(), 'wis-undo-'));
  fs.mkdirSync(base, { recursive: true });
  return base;
}

/** The items as the service's read operation answers them (GET /workitem/workItems/{ids}?fields=...). */
async function readItems(baseUrl: string): Promise<Map<string, Record<string, unknown>>> {
  const res = await fetch(`${baseUrl}/workitem/workItems/${IDS.join(',')}?fields=${FIELDS.join(',')}`, {
    headers: { authorization: `Basic ${Buffer.from('admin:password').toString('base64')}` },
  });
  assert.equal(res.status, 200, await res.clone().text());
  const records = (await res.json()) as { fields: Record<string, unknown> }[];
  return new Map(records.map((r) => [String(r.fields.Id), r.fields]));
}

interface UndoResult {
  documents: vscode.Uri[];
  plan: { documents: { kind: string; workItemIds: string[]; update: Record<string, unknown> }[]; nonInvertible: unknown[] };
  drift?: { id: string; fields: { field: string; expected: unknown; now: unknown }[]; gone?: boolean }[];
  skipped?: string[];
}

/** Another client of the service changes items (PUT /workitem/workItems/{ids}). */
async function otherClientUpdate(baseUrl: string, ids: readonly string[], body: unknown): Promise<void> {
  const res = await fetch(`${baseUrl}/workitem/workItems/${ids.join(',')}`, {
    method: 'PUT',
    headers: { authorization: `Basic ${Buffer.from('admin:password').toString('base64')}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 200, await res.clone().text());
}

const day = (v: unknown): unknown => (typeof v === 'string' ? v.slice(0, 10) : v);

function tabLabels(): string[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => t.label);
}

describe('before/after and undo', function () {
  this.timeout(180_000);

  before(async () => {
    await activateExtension();
    await vscode.commands.executeCommand('workItemStudio.startSandbox');
  });

  afterEach(async () => {
    await closeUntitledDocuments();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('previews, sends, shows before → after, creates the undo documents, and sending them restores the values', async () => {
    const file = path.join(scratchFolder(), `undo-${process.pid}.workitems.json`);
    fs.writeFileSync(file, `${JSON.stringify({ workItemIds: IDS, update: { moveScheduleDays: 5, setTimeEntryLocked: true, fields: { Code: 'UNDO-TEST' } } }, null, 2)}\n`);
    const uri = vscode.Uri.file(file);
    try {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      // Preview: the plan, and the Before/After view with the values read from the service.
      const preview = (await vscode.commands.executeCommand('workItemStudio.previewUpdate', uri)) as string;
      const baseUrl = /PUT (\S+)\/workitem\/workItems\/122,123/.exec(preview)?.[1];
      assert.ok(baseUrl, preview);
      const before = await readItems(baseUrl);
      await waitFor('the Before/After view of the preview', () => tabLabels().some((l) => l.startsWith('Before/After: undo-')));

      const outcomes = (await vscode.commands.executeCommand('workItemStudio.sendUpdate', uri)) as SendOutcome[];
      assert.equal(outcomes.length, 1);
      const { jobId, result } = outcomes[0]!;
      assert.equal(result.outcome, 'succeeded', JSON.stringify(result.requests));
      assert.ok(jobId);
      const changed = await readItems(baseUrl);
      for (const id of IDS) {
        assert.equal(changed.get(id)!.Code, 'UNDO-TEST');
        assert.equal(changed.get(id)!.IsTimeEntryLocked, true);
        assert.notEqual(day(changed.get(id)!.PlannedStartDate), day(before.get(id)!.PlannedStartDate), `${id} was shifted`);
      }
      await waitFor('the result view', () => tabLabels().some((l) => l.startsWith('Results: undo-')));

      // Nobody changed the items since the job: the drift check lists nothing (a listed item would cancel here).
      const undo = (await answering({ undo: { drift: async () => 'cancel' } }, () => vscode.commands.executeCommand('workItemStudio.createUndoDocument', jobId))) as UndoResult;
      assert.ok(undo, 'Create Undo Document returned its documents (no item listed as changed since the job)');
      assert.deepEqual(undo.drift, []);
      assert.deepEqual(undo.plan.nonInvertible, [], 'every change of this job can be put back');
      assert.deepEqual(
        undo.plan.documents.map((d) => d.kind),
        ['lock', 'schedule', 'fields', 'fields'],
        'lock, an opposite shift, and one document per previous code',
      );
      assert.deepEqual(undo.plan.documents[1]!.update, { moveScheduleDays: -5 });
      // The documents are opened for review; nothing has been sent.
      const stillChanged = await readItems(baseUrl);
      assert.equal(stillChanged.get('122')!.Code, 'UNDO-TEST', 'creating the undo documents sends nothing');
      // One undo document: a change of the four requests, in the order to send them, sent with one Send.
      assert.equal(undo.documents.length, 1);
      const text = (await vscode.workspace.openTextDocument(undo.documents[0]!)).getText();
      assert.match(text, /"description": "Undo of undo-/);
      const requests = (JSON.parse(text) as { requests: { update: unknown }[] }).requests;
      assert.deepEqual(requests.map((r) => r.update), undo.plan.documents.map((d) => d.update));
      const sent = (await vscode.commands.executeCommand('workItemStudio.sendUpdate', undo.documents[0])) as SendOutcome[];
      assert.equal(sent.length, 1, 'one job');
      assert.equal(sent[0]?.result.outcome, 'succeeded', `${undo.documents[0]!.toString()}: ${JSON.stringify(sent[0]?.result.requests)}`);
      const restored = await readItems(baseUrl);
      for (const id of IDS) {
        for (const f of FIELDS) {
          assert.deepEqual(day(restored.get(id)![f]), day(before.get(id)![f]), `${id}.${f} is back to its value before the update`);
        }
      }
      // The Work Items view shows the old values again (its rows are read again after each send).
      await vscode.commands.executeCommand('workItemStudio.workItems.focus');
      const nodes = (await vscode.commands.executeCommand('workItemStudio.revealWorkItems', { ids: IDS })) as WorkItemNode[];
      assert.equal(nodes.length, IDS.length, 'both items are in the Work Items view');
      for (const n of nodes) {
        const code = String(before.get(n.itemId)!.Code).replace(/[-\\`*_{}[\]()#+.!|]/g, (c) => `\\${c}`);
        await waitFor(`the old code of ${n.itemId} in the Work Items view`, () => {
          const tip = n.tree.getTreeItem(n).tooltip as vscode.MarkdownString | undefined;
          return tip && tip.value.includes(code) && !tip.value.includes('UNDO') ? true : undefined;
        });
      }
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  it('an undo lists the items another client changed since the job (field, value left, value now) and skipping them leaves them alone', async () => {
    const file = path.join(scratchFolder(), `undo-drift-${process.pid}.workitems.json`);
    fs.writeFileSync(file, `${JSON.stringify({ workItemIds: IDS, update: { fields: { Code: 'DRIFT-JOB' } } }, null, 2)}\n`);
    const uri = vscode.Uri.file(file);
    try {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      const preview = (await vscode.commands.executeCommand('workItemStudio.previewUpdate', uri)) as string;
      const baseUrl = /PUT (\S+)\/workitem\/workItems\/122,123/.exec(preview)?.[1];
      assert.ok(baseUrl, preview);
      const before = await readItems(baseUrl);
      const outcomes = (await vscode.commands.executeCommand('workItemStudio.sendUpdate', uri)) as SendOutcome[];
      const { jobId, result } = outcomes[0]!;
      assert.equal(result.outcome, 'succeeded', JSON.stringify(result.requests));
      assert.ok(jobId);

      // Another client writes a code on 123 after the job.
      await otherClientUpdate(baseUrl, ['123'], { fields: { Code: 'OTHER-CLIENT' } });
      const undo = (await answering({ undo: { drift: async () => 'skip' } }, () => vscode.commands.executeCommand('workItemStudio.createUndoDocument', jobId))) as UndoResult;
      assert.ok(undo);
      assert.deepEqual(
        undo.drift?.map((d) => [d.id, d.fields.map((f) => [f.field, f.expected, f.now])]),
        [['123', [['Code', 'DRIFT-JOB', 'OTHER-CLIENT']]]],
      );
      assert.deepEqual(undo.skipped, ['123']);
      assert.ok(undo.plan.documents.every((d) => !d.workItemIds.includes('123')), 'the changed item is left out of the undo');
      for (const doc of undo.documents) {
        const sent = (await vscode.commands.executeCommand('workItemStudio.sendUpdate', doc)) as SendOutcome[];
        assert.equal(sent[0]?.result.outcome, 'succeeded');
      }
      const after = await readItems(baseUrl);
      assert.equal(after.get('122')!.Code, before.get('122')!.Code, '122 is put back');
      assert.equal(after.get('123')!.Code, 'OTHER-CLIENT', 'what the other client wrote is kept');
      // Put 123 back for the other tests.
      await otherClientUpdate(baseUrl, ['123'], { fields: { Code: before.get('123')!.Code } });
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  it('an undo document goes to the service of its job or nowhere: after the sandbox is started again (another service), its Send is refused and nothing reaches the new one', async () => {
    const file = path.join(scratchFolder(), `undo-service-${process.pid}.workitems.json`);
    fs.writeFileSync(file, `${JSON.stringify({ workItemIds: IDS, update: { moveScheduleDays: 5 } }, null, 2)}\n`);
    const uri = vscode.Uri.file(file);
    try {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      const outcomes = (await vscode.commands.executeCommand('workItemStudio.sendUpdate', uri)) as SendOutcome[];
      const { jobId, result, baseUrl } = outcomes[0]!;
      assert.equal(result.outcome, 'succeeded', JSON.stringify(result.requests));
      assert.ok(jobId);
      const undo = (await answering({ undo: { drift: async () => 'cancel' } }, () => vscode.commands.executeCommand('workItemStudio.createUndoDocument', jobId))) as UndoResult;
      assert.ok(undo && undo.documents.length === 1, 'one undo document (the opposite shift)');
      const undoUri = undo.documents[0]!;
      const text = (await vscode.workspace.openTextDocument(undoUri)).getText();
      assert.equal((JSON.parse(text) as { service?: string }).service, baseUrl.replace(/\/+$/, ''), 'the undo document names the service of its job');

      // The sandbox is started again: another service (another port, its own data), now the one in use.
      await vscode.commands.executeCommand('workItemStudio.stopSandbox');
      await vscode.commands.executeCommand('workItemStudio.startSandbox');
      const preview = (await vscode.commands.executeCommand('workItemStudio.previewUpdate', uri)) as string;
      const otherUrl = /PUT (\S+)\/workitem\/workItems\/122,123/.exec(preview)?.[1];
      assert.ok(otherUrl, preview);
      assert.notEqual(otherUrl.replace(/\/+$/, ''), baseUrl.replace(/\/+$/, ''), 'the new sandbox is another service');
      const before = await readItems(otherUrl);

      // Refused: the command shows the error (a notification it waits on) and returns no job result.
      const sending = Promise.resolve(vscode.commands.executeCommand('workItemStudio.sendUpdate', undoUri)) as Promise<SendOutcome[] | undefined>;
      const within = (ms: number) => Promise.race([sending.then((r) => ({ r })), new Promise<'open'>((res) => setTimeout(() => res('open'), ms))]);
      const first = await within(5_000);
      await vscode.commands.executeCommand('notifications.clearAll');
      const settled = first === 'open' ? await within(10_000) : first;
      if (settled !== 'open') assert.equal(settled.r, undefined, 'the Send of the undo document is refused (no job)');
      const after = await readItems(otherUrl);
      for (const id of IDS) {
        assert.equal(day(after.get(id)!.PlannedStartDate), day(before.get(id)!.PlannedStartDate), `${id} was not shifted on the other service`);
      }
    } finally {
      fs.rmSync(file, { force: true });
    }
  });
});
