// A change set in a real extension host against the sandbox: a document of two requests
// (different items, different bodies) gets the editor's checks on each request's own
// path and completion inside a request; its Preview shows the whole change in one
// Before/After view; one Send runs one job; Create Undo Document makes one document,
// sent with one Send, and every value is back (read from the sandbox). The Before/After
// view follows the request document in front. A document of one request works as it
// always did (the other suites).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'jsonc-parser';
import * as vscode from 'vscode';
import type { TablePanel } from '../../src/table/panel';
import type { WorkItemNode, WorkItemTreeNode } from '../../src/workItems/tree';
import { activateExtension, answering, closeUntitledDocuments, waitFor, waitForDiagnostics, workspaceFolder } from './support';

const SHIFTED = ['121', '122'];
const RENAMED = ['123', '124'];
const DAYS = 3;

interface SendOutcome {
  baseUrl: string;
  jobId?: string;
  result: { outcome: string; requests: { state: string; ids: string[] }[] };
}
interface ButtonState {
  document?: string;
  fields?: { field: string; label: string }[];
  did: string;
}

async function read(baseUrl: string, ids: readonly string[]): Promise<Map<string, Record<string, unknown>>> {
  const res = await fetch(`${baseUrl}/workitem/workItems/${ids.join(',')}?fields=Id,Name,PlannedStartDate,PlannedFinishDate`, {
    headers: { authorization: `Basic ${Buffer.from('admin:password').toString('base64')}` },
  });
  assert.equal(res.status, 200, await res.clone().text());
  const records = (await res.json()) as { fields: Record<string, unknown> }[];
  return new Map(records.map((r) => [String(r.fields.Id), r.fields]));
}

const day = (v: unknown): string => String(v ?? '').slice(0, 10);
function addDays(d: string, n: number): string {
  const t = new Date(`${d}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + n);
  return t.toISOString().slice(0, 10);
}

describe('a change set: several requests previewed, sent and undone as one', function () {
  this.timeout(300_000);
  const dir = path.join(workspaceFolder().uri.fsPath, '.integration-change-set');
  const file = (name: string): vscode.Uri => vscode.Uri.file(path.join(dir, `${name}-${process.pid}.workitems.json`));
  const write = (uri: vscode.Uri, value: unknown): void => fs.writeFileSync(uri.fsPath, `${JSON.stringify(value, null, 2)}\n`);

  before(async () => {
    fs.mkdirSync(dir, { recursive: true });
    await activateExtension();
    await vscode.commands.executeCommand('workItemStudio.startSandbox');
  });
  after(async () => {
    await closeUntitledDocuments();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("each request gets the document's checks on its own path, and completion inside its update", async () => {
    const uri = file('checks');
    write(uri, { requests: [{ workItemIds: ['121'], update: {} }, { workItemIds: ['122'], update: { moveScheduleDays: 'soon' } }] });
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const diagnostics = await waitForDiagnostics(uri);
    const line = doc.getText().split('\n').findIndex((l) => l.includes('"soon"'));
    assert.ok(
      diagnostics.some((d) => d.range.start.line === line && d.severity === vscode.DiagnosticSeverity.Error),
      `an error on the second request's moveScheduleDays (line ${line + 1}): ${diagnostics.map((d) => `${d.range.start.line + 1}: ${d.message}`).join('; ')}`,
    );
    // Completion of a member inside the first request's (empty) update, from the contributed schema.
    const text = doc.getText();
    const at = doc.positionAt(text.indexOf('"update": {}') + '"update": {'.length);
    let labels: string[] = [];
    await waitFor('the update members offered inside a request', async () => {
      const list = (await vscode.commands.executeCommand('vscode.executeCompletionItemProvider', uri, at)) as vscode.CompletionList;
      labels = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
      return labels.some((l) => l.includes('setCompleted')) && labels.some((l) => l.includes('moveScheduleDays')) ? true : undefined;
    }).catch(() => assert.fail(`update members offered inside a request: ${labels.slice(0, 30).join(', ')}`));
  });

  it('Preview → one Before/After of the whole change → one Send → one job → one undo document → one Send: every value is back', async () => {
    const uri = file('change');
    write(uri, {
      description: 'two requests, one change',
      requests: [
        { workItemIds: SHIFTED, update: { moveScheduleDays: DAYS } },
        { workItemIds: RENAMED, update: { fields: { Name: 'Renamed by a change set' } } },
      ],
    });
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const preview = (await vscode.commands.executeCommand('workItemStudio.previewUpdate', uri)) as string;
    const baseUrl = /PUT (\S+)\/workitem\/workItems\/121,122/.exec(preview)?.[1];
    assert.ok(baseUrl, preview);
    assert.match(preview, /Request 2 of 2 in the document: 2 items/);
    const before = await read(baseUrl, [...SHIFTED, ...RENAMED]);

    // One view for the whole change: the fields of both requests are its columns.
    const state = await waitFor('the Before/After view of the change', async () => {
      const s = (await vscode.commands.executeCommand('workItemStudio.pressBeforeAfterButton', 'state')) as ButtonState;
      return s.document === uri.toString() && s.fields && s.fields.length > 0 ? s : undefined;
    });
    const fields = state.fields!.map((f) => f.field);
    for (const f of ['PlannedStartDate', 'PlannedFinishDate', 'Name']) assert.ok(fields.includes(f), `${f} in ${fields.join(', ')}`);

    const sent = (await vscode.commands.executeCommand('workItemStudio.sendUpdate', uri)) as SendOutcome[];
    assert.equal(sent.length, 1, 'one job');
    assert.equal(sent[0]!.result.outcome, 'succeeded');
    assert.deepEqual(sent[0]!.result.requests.map((r) => r.ids), [SHIFTED, RENAMED], 'one request per part, in order');
    const after = await read(baseUrl, [...SHIFTED, ...RENAMED]);
    for (const id of SHIFTED) assert.equal(day(after.get(id)!.PlannedStartDate), addDays(day(before.get(id)!.PlannedStartDate), DAYS), `${id} shifted`);
    for (const id of RENAMED) assert.equal(after.get(id)!.Name, 'Renamed by a change set');
    for (const id of SHIFTED) assert.equal(after.get(id)!.Name, before.get(id)!.Name, `${id} keeps its name (its request does not change it)`);
    await waitFor('one result view', () => (vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.label.startsWith(`Results: change-${process.pid}`)).length === 1 ? true : undefined));

    const undo = (await answering({ undo: { drift: async () => 'cancel' } }, () => vscode.commands.executeCommand('workItemStudio.createUndoDocument', sent[0]!.jobId))) as { documents: vscode.Uri[] };
    assert.equal(undo.documents.length, 1, 'one undo document');
    const undoText = (await vscode.workspace.openTextDocument(undo.documents[0]!)).getText();
    const requests = (parse(undoText) as { requests?: { workItemIds: string[] }[] }).requests ?? [];
    assert.ok(requests.length >= 2, undoText);
    // The request sent last is put back first: every request of the renamed items before those of the shifted ones.
    const owner = requests.map((r) => (r.workItemIds.every((id) => RENAMED.includes(id)) ? 'renamed' : r.workItemIds.every((id) => SHIFTED.includes(id)) ? 'shifted' : 'both'));
    assert.deepEqual(owner, [...owner].sort((x, y) => (x === y ? 0 : x === 'renamed' ? -1 : 1)), `${owner.join(', ')}: ${undoText}`);
    assert.equal(owner[0], 'renamed');
    const undone = (await vscode.commands.executeCommand('workItemStudio.sendUpdate', undo.documents[0])) as SendOutcome[];
    assert.equal(undone.length, 1);
    assert.equal(undone[0]!.result.outcome, 'succeeded');
    const back = await read(baseUrl, [...SHIFTED, ...RENAMED]);
    for (const [id, b] of before) {
      assert.equal(back.get(id)!.Name, b.Name, `${id}.Name is back`);
      assert.equal(day(back.get(id)!.PlannedStartDate), day(b.PlannedStartDate), `${id}.PlannedStartDate is back`);
      assert.equal(day(back.get(id)!.PlannedFinishDate), day(b.PlannedFinishDate), `${id}.PlannedFinishDate is back`);
    }
  });

  it('the Before/After view follows the request document in front: its title and its Send are that document\'s', async () => {
    const a = file('follow-a');
    const b = file('follow-b');
    write(a, { workItemIds: ['125'], update: { fields: { Code: 'FOLLOW-A' } } });
    write(b, { workItemIds: ['126'], update: { fields: { Code: 'FOLLOW-B' } } });
    const docA = await vscode.workspace.openTextDocument(a);
    const docB = await vscode.workspace.openTextDocument(b);
    await vscode.window.showTextDocument(docA, vscode.ViewColumn.One);
    await vscode.commands.executeCommand('workItemStudio.previewUpdate', a);
    await vscode.window.showTextDocument(docB, vscode.ViewColumn.One);
    await vscode.commands.executeCommand('workItemStudio.previewUpdate', b);
    const shows = async (uri: vscode.Uri) => {
      const s = (await vscode.commands.executeCommand('workItemStudio.pressBeforeAfterButton', 'state')) as ButtonState;
      return s.document === uri.toString() ? s : undefined;
    };
    await waitFor('the view on document B', () => shows(b));
    await vscode.window.showTextDocument(docA, vscode.ViewColumn.One);
    await waitFor('the view on document A once it is in front again', () => shows(a));
    const title = `Before/After: follow-a-${process.pid}.workitems.json`;
    await waitFor('its title to name it', () => (vscode.window.tabGroups.all.flatMap((g) => g.tabs).some((t) => t.label === title) ? true : undefined)).catch(() =>
      assert.fail(`${title} among ${vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => t.label).join(', ')}`),
    );
  });

  /** `p`, or a failure naming `what` after a minute (a step that never ends says which it is). */
  const within = <T>(what: string, p: Thenable<T> | Promise<T>): Promise<T> =>
    Promise.race([Promise.resolve(p), new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what} did not end within 60 s`)), 60_000))]);

  it('the table: edits in two columns of five items → Review Changes → one document → one Before/After → one Send → one result view → one undo document sent with one action; every value is back on the sandbox', async () => {
    await vscode.commands.executeCommand('workItemStudio.workItems.focus');
    const revealed = (await within('reveal', vscode.commands.executeCommand('workItemStudio.revealWorkItems', { ids: ['121'] }))) as WorkItemNode[];
    const projects = (await within('projects', revealed[0]!.tree.getChildren())) as WorkItemTreeNode[];
    const project = projects.find((n) => n.kind === 'project' && n.projectId === '3001');
    assert.ok(project, 'project 3001');
    const table = (await within('open the table', vscode.commands.executeCommand('workItemStudio.openWorkItemTable', project))) as TablePanel;
    await within('load the table', table.whenLoaded());
    const five = table.viewRows().filter((r) => r.hasChildren === false).slice(0, 5);
    assert.equal(five.length, 5, 'five leaves');
    const ids = five.map((r) => r.id);
    for (const [i, r] of five.entries()) {
      await within(`edit ${r.id}`, table.dispatch({ type: 'commit', id: r.id, key: 'Name', text: `Change set row ${i + 1}` }));
      await within(`edit ${r.id}`, table.dispatch({ type: 'commit', id: r.id, key: 'Code', text: i < 3 ? 'CS-A' : 'CS-B' }));
    }
    assert.equal(table.editing.edits.size, 10);

    const docs = (await within('Review Changes', vscode.commands.executeCommand('workItemStudio.reviewTableChanges', 'preview'))) as vscode.TextDocument[];
    assert.equal(docs.length, 1, 'one document');
    const uri = docs[0]!.uri;
    await waitFor('one Before/After view of the document', async () => {
      const s = (await vscode.commands.executeCommand('workItemStudio.pressBeforeAfterButton', 'state')) as ButtonState;
      return s.document === uri.toString() && (s.fields?.length ?? 0) >= 2 ? s : undefined;
    });
    const preview = (await within('Preview', vscode.commands.executeCommand('workItemStudio.previewUpdate', uri))) as string;
    const baseUrl = /PUT (\S+)\/workitem\/workItems\//.exec(preview)?.[1];
    assert.ok(baseUrl, preview);
    const before = await read(baseUrl, ids);
    const codes = async (): Promise<Map<string, unknown>> => {
      const res = await fetch(`${baseUrl}/workitem/workItems/${ids.join(',')}?fields=Id,Code`, { headers: { authorization: `Basic ${Buffer.from('admin:password').toString('base64')}` } });
      return new Map(((await res.json()) as { fields: Record<string, unknown> }[]).map((r) => [String(r.fields.Id), r.fields.Code]));
    };
    const codesBefore = await codes();

    const sent = (await within('Send', vscode.commands.executeCommand('workItemStudio.sendUpdate', uri))) as SendOutcome[];
    assert.equal(sent.length, 1, 'one Send, one job');
    assert.equal(sent[0]!.result.outcome, 'succeeded');
    const results = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.label.startsWith('Results: table-edits-'));
    await waitFor('one result view', () => (results().length === 1 ? true : undefined));
    const after = await read(baseUrl, ids);
    for (const [i, id] of ids.entries()) assert.equal(after.get(id)!.Name, `Change set row ${i + 1}`);

    const undo = (await within('Create Undo Document', answering({ undo: { drift: async () => 'cancel' } }, () => vscode.commands.executeCommand('workItemStudio.createUndoDocument', sent[0]!.jobId)))) as { documents: vscode.Uri[] };
    assert.equal(undo.documents.length, 1, 'one undo document');
    // One action: Send All Undo Documents in Order sends it after one question.
    const asked: number[] = [];
    const run = (await within('Send All Undo Documents', answering({ undo: { drift: async () => 'cancel', sendNext: async (q) => (asked.push(q.total), 'send') } }, () =>
      vscode.commands.executeCommand('workItemStudio.sendAllUndoDocuments', sent[0]!.jobId),
    ))) as { sent: string[]; stopped?: string };
    assert.equal(run.stopped, undefined, JSON.stringify(run));
    assert.deepEqual(asked, [1], 'one document, one question');
    const back = await read(baseUrl, ids);
    const codesBack = await codes();
    for (const id of ids) {
      assert.equal(back.get(id)!.Name, before.get(id)!.Name, `${id}.Name is back`);
      assert.equal(codesBack.get(id) ?? null, codesBefore.get(id) ?? null, `${id}.Code is back`);
    }
    await closeUntitledDocuments();
    await within('close the editors', answering({ table: { closeWithEdits: async () => 'discard' } }, () => vscode.commands.executeCommand('workbench.action.closeAllEditors')));
  });
});
