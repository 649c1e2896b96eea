// Everyday use in a real extension host: placeholders block sending and take the
// cursor to the first one; a numeric range written as one ID is expanded by its Quick Fix;
// a request refused because one ID does not exist is sent again without it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { activateExtension, answering, closeUntitledDocuments, plainErrors, revertDirtyDocuments, waitFor, replaceDocumentText } from './support';

async function lensCommands(uri: vscode.Uri): Promise<string[]> {
  const lenses = (await vscode.commands.executeCommand('vscode.executeCodeLensProvider', uri)) as vscode.CodeLens[];
  return lenses.map((l) => l.command?.command ?? '').filter(Boolean);
}

describe('everyday use: placeholders', function () {
  this.timeout(120_000);

  before(async () => {
    await activateExtension();
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
    await closeUntitledDocuments();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('a placeholder left in a document is an error that blocks sending, and Send takes the cursor to the first one', async () => {
    await vscode.commands.executeCommand('workItemStudio.startSandbox');
    const editor = (await vscode.commands.executeCommand('workItemStudio.newUpdate', { ids: [], template: 'moveUnderParent' })) as vscode.TextEditor;
    const doc = editor.document;
    assert.match(doc.getText(), /"WORK-ITEM-ID"/);
    assert.match(doc.getText(), /"PARENT-ID"/);
    const placeholderErrors = await waitFor('the placeholder diagnostics', () => {
      const d = vscode.languages
        .getDiagnostics(doc.uri)
        .filter((x) => x.code === 'PLACEHOLDER_LEFT' && x.severity === vscode.DiagnosticSeverity.Error);
      return d.length === 2 ? d : undefined;
    });
    assert.deepEqual(
      placeholderErrors.map((d) => doc.getText(d.range)),
      ['"WORK-ITEM-ID"', '"PARENT-ID"'],
    );
    // No "Send · 1 item" CodeLens: the lens says what to fix.
    const lenses = await waitFor('the problems CodeLens', async () => {
      const c = await lensCommands(doc.uri);
      return c.length > 0 && !c.includes('workItemStudio.sendUpdate') ? c : undefined;
    });
    assert.ok(!lenses.includes('workItemStudio.sendUpdate'), lenses.join(', '));
    // Move the cursor away, then try to send: nothing is sent, the cursor goes to the first placeholder.
    const end = doc.positionAt(doc.getText().length);
    editor.selection = new vscode.Selection(end, end);
    void vscode.commands.executeCommand('workItemStudio.sendUpdate');
    const selected = await waitFor('the first placeholder selected', () => {
      const e = vscode.window.activeTextEditor;
      return e?.document === doc && !e.selection.isEmpty ? doc.getText(e.selection) : undefined;
    });
    assert.equal(selected, 'WORK-ITEM-ID');
    // With the IDs filled in, the next placeholder is the one the cursor goes to.
    const filled = new vscode.WorkspaceEdit();
    filled.replace(doc.uri, vscode.window.activeTextEditor!.selection, '122');
    assert.ok(await vscode.workspace.applyEdit(filled), 'the IDs were not filled in');
    const e2 = vscode.window.activeTextEditor!;
    e2.selection = new vscode.Selection(0, 0, 0, 0);
    void vscode.commands.executeCommand('workItemStudio.previewUpdate');
    assert.equal(
      await waitFor('the parent placeholder selected', () => (!vscode.window.activeTextEditor!.selection.isEmpty ? doc.getText(vscode.window.activeTextEditor!.selection) : undefined)),
      'PARENT-ID',
    );
  });
});

describe('everyday use: ranges in ID lists', function () {
  this.timeout(120_000);

  afterEach(async () => {
    await closeUntitledDocuments();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  for (const [shape, ids, expected] of [
    ['a list entry', '["120", "131-133"]', ['120', '131', '132', '133']],
    ['a token of a string of IDs', '"120, 131-133 140"', '120, 131, 132, 133 140'],
  ] as const) {
    it(`warns about 131-133 as ${shape} and its Quick Fix expands it after you pick it`, async () => {
      await activateExtension();
      const editor = (await vscode.commands.executeCommand('workItemStudio.newUpdate', { ids: ['1'], template: 'complete' })) as vscode.TextEditor;
      const doc = editor.document;
      const text = doc.getText().replace(/"workItemIds": \[[^\]]*\]/, `"workItemIds": ${ids}`);
      await replaceDocumentText(doc, text);
      const warning = await waitFor('the range warning', () =>
        vscode.languages.getDiagnostics(doc.uri).find((d) => d.code === 'DOCUMENT_ID_RANGE' && d.severity === vscode.DiagnosticSeverity.Warning),
      );
      assert.match(warning.message, /131-133/);
      const actions = (await vscode.commands.executeCommand('vscode.executeCodeActionProvider', doc.uri, warning.range)) as vscode.CodeAction[];
      const expand = actions.find((a) => /131-133/.test(a.title) && a.edit);
      assert.ok(expand, actions.map((a) => a.title).join(' | '));
      assert.match(doc.getText(), /131-133/, 'nothing changes before the Quick Fix is picked');
      assert.ok(await vscode.workspace.applyEdit(expand.edit!));
      assert.deepEqual((JSON.parse(doc.getText()) as { workItemIds: unknown }).workItemIds, expected);
      await waitFor('the warning gone', () => !vscode.languages.getDiagnostics(doc.uri).some((d) => d.code === 'DOCUMENT_ID_RANGE'));
    });
  }
});

type JobOutcome = {
  jobId?: string;
  baseUrl: string;
  result: { outcome: string; requests: { state: string; ids: string[]; error?: { status?: number; codes: string[] } }[] };
};

describe('everyday use: work items that do not exist', function () {
  this.timeout(120_000);
  let uri: vscode.Uri;
  // The browser workbench saves after a delay by default (files.autoSave "afterDelay" on the web,
  // "off" on the desktop): the check that the extension leaves its edit unsaved needs it off.
  const files = () => vscode.workspace.getConfiguration('files');
  let autoSaveBefore: string | undefined;

  before(async () => {
    autoSaveBefore = files().inspect<string>('autoSave')?.globalValue;
    await files().update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    await activateExtension();
    await vscode.commands.executeCommand('workItemStudio.startSandbox');
    const ws = vscode.workspace.workspaceFolders?.[0];
    const dir = ws ? path.join(ws.uri.fsPath, '.integration-everyday') : fs.mkdtempSync(path.join(os.tmpdir(), 'wis-every-'));
    fs.mkdirSync(dir, { recursive: true });
    uri = vscode.Uri.file(path.join(dir, `missing-${process.pid}.workitems.json`));
    fs.writeFileSync(uri.fsPath, `${JSON.stringify({ workItemIds: ['128', '99999', '129', '99998'], update: { setTimeEntryLocked: true } }, null, 2)}\n`);
  });

  after(async () => {
    // The first test leaves its edit unsaved on purpose: revert it before the file goes.
    await revertDirtyDocuments();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(uri.fsPath, { force: true });
    await files().update('autoSave', autoSaveBefore, vscode.ConfigurationTarget.Global);
  });

  it('names the missing IDs; Retry Failed asks first; "Remove Missing IDs and Send the Rest" sends the others and edits the document only when asked @errors', async () => {
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const [sent] = (await vscode.commands.executeCommand('workItemStudio.sendUpdate', uri)) as JobOutcome[];
    assert.equal(sent!.result.outcome, 'partial');
    const failed = sent!.result.requests[0]!;
    assert.equal(failed.state, 'failed');
    assert.equal(failed.error?.status, 404);
    if (plainErrors()) assert.deepEqual(failed.error?.codes, [], `a plain server names no code: ${JSON.stringify(failed.error)}`);
    else assert.ok(failed.error?.codes.includes('WORK_ITEM_NOT_FOUND'), JSON.stringify(failed.error));
    const origin = new URL(sent!.baseUrl).origin;
    const locked = async (id: string) => ((await (await fetch(`${origin}/_sandbox/workitems/${id}`)).json()) as { timeEntryLocked?: boolean }).timeEntryLocked;

    // Declining the question of Retry Failed sends nothing.
    assert.equal(await answering({ jobs: { sameFailure: async () => 'cancel' } }, () => vscode.commands.executeCommand('workItemStudio.retryFailed', sent!.jobId)), undefined);
    assert.notEqual(await locked('128'), true, 'nothing was sent after the question was declined');

    // "Send Only": a new job for 128 and 129; the document keeps its IDs.
    const onlySent = (await answering({ jobs: { sendWithoutMissing: async () => 'send' } }, () => vscode.commands.executeCommand('workItemStudio.sendWithoutMissing', sent!.jobId))) as JobOutcome['result'];
    assert.equal(onlySent.outcome, 'succeeded', JSON.stringify(onlySent.requests));
    assert.deepEqual(onlySent.requests.flatMap((r) => r.ids), ['128', '129']);
    assert.equal(await locked('128'), true);
    const doc = await vscode.workspace.openTextDocument(uri);
    assert.deepEqual((JSON.parse(doc.getText()) as { workItemIds: string[] }).workItemIds, ['128', '99999', '129', '99998'], 'the document is unchanged');

    // From Retry Failed's question: remove them from the document too.
    const again = (await answering({ jobs: { sameFailure: async () => 'removeMissing', sendWithoutMissing: async () => 'sendAndRemove' } }, () =>
      vscode.commands.executeCommand('workItemStudio.retryFailed', sent!.jobId),
    )) as JobOutcome['result'];
    assert.equal(again.outcome, 'succeeded');
    assert.deepEqual((JSON.parse(doc.getText()) as { workItemIds: string[] }).workItemIds, ['128', '129']);
    assert.ok(doc.isDirty, 'the edit is left for the user to save (or undo)');
    // Saved here, while the file exists: no unsaved document may outlive the suite.
    assert.ok(await doc.save(), 'the edited document saves');
  });

  it('a 404 that names no work item (as the real service answers): "Remove Missing IDs and Send the Rest" reads the IDs to find the missing ones, then sends the rest @errors', async () => {
    const file = vscode.Uri.file(path.join(path.dirname(uri.fsPath), `unnamed-missing-${process.pid}.workitems.json`));
    fs.writeFileSync(file.fsPath, `${JSON.stringify({ workItemIds: ['137', '99996', '138'], update: { setTimeEntryLocked: true } }, null, 2)}\n`);
    const origin = new URL(/PUT (\S+)\/workitem\/workItems\//.exec((await vscode.commands.executeCommand('workItemStudio.previewUpdate', file)) as string)![1]!).origin;
    const fault = (spec: unknown) => fetch(`${origin}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(spec) });
    const locked = async (id: string) => ((await (await fetch(`${origin}/_sandbox/workitems/${id}`)).json()) as { timeEntryLocked?: boolean }).timeEntryLocked;
    try {
      // The next PUT is refused with a plain 404 (an error code the extension does not know).
      assert.equal((await fault({ status: 404, method: 'PUT', pathContains: '/workitem/workItems/' })).status, 200);
      const [sent] = (await vscode.commands.executeCommand('workItemStudio.sendUpdate', file)) as JobOutcome[];
      const failed = sent!.result.requests[0]!;
      assert.equal(failed.state, 'failed');
      assert.equal(failed.error?.status, 404);
      assert.ok(!failed.error?.codes.includes('WORK_ITEM_NOT_FOUND'), 'the 404 names no work item');
      assert.notEqual(await locked('137'), true, 'nothing was applied');

      const rest = (await answering({ jobs: { sendWithoutMissing: async () => 'send' } }, () => vscode.commands.executeCommand('workItemStudio.sendWithoutMissing', sent!.jobId))) as JobOutcome['result'];
      assert.equal(rest.outcome, 'succeeded', JSON.stringify(rest.requests));
      assert.deepEqual(rest.requests.flatMap((r) => r.ids), ['137', '138'], 'the read found 99996 missing; the others were sent');
      assert.equal(await locked('137'), true);
      assert.equal(await locked('138'), true);
    } finally {
      await fetch(`${origin}/_sandbox/faults`, { method: 'DELETE' });
      fs.rmSync(file.fsPath, { force: true });
    }
  });

  it('Preview reads the items and reports the missing ones before anything is sent', async () => {
    const file = vscode.Uri.file(path.join(path.dirname(uri.fsPath), `preview-missing-${process.pid}.workitems.json`));
    fs.writeFileSync(file.fsPath, `${JSON.stringify({ workItemIds: ['127', '99997'], update: { fields: { Code: 'NEVER-SENT' } } }, null, 2)}\n`);
    try {
      const preview = (await vscode.commands.executeCommand('workItemStudio.previewUpdate', file)) as string;
      assert.match(preview, /Checked on the service[\s\S]*99997/, preview);
      assert.doesNotMatch(preview.split('Checked on the service')[1] ?? '', /\b127\b/, 'the item that exists is not reported');
      const origin = new URL(/PUT (\S+)\/workitem\/workItems\//.exec(preview)![1]!).origin;
      const item = (await (await fetch(`${origin}/_sandbox/workitems/127`)).json()) as { code?: string };
      assert.notEqual(item.code, 'NEVER-SENT', 'Preview sends nothing');
    } finally {
      fs.rmSync(file.fsPath, { force: true });
    }
  });
});

describe('everyday use: people by name', function () {
  this.timeout(120_000);
  let uri: vscode.Uri;
  const config = () => vscode.workspace.getConfiguration('workItemStudio');
  let organizationsBefore: string[] | undefined;

  before(async () => {
    await activateExtension();
    await vscode.commands.executeCommand('workItemStudio.startSandbox');
    organizationsBefore = config().inspect<string[]>('organizations')?.globalValue;
    await config().update('organizations', ['1001'], vscode.ConfigurationTarget.Global);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wis-people-'));
    uri = vscode.Uri.file(path.join(dir, 'people.workitems.json'));
    const doc = { workItemIds: ['122'], update: { assignmentChange: { adds: [{ partyType: 'User', partyId: '2104' }, { partyType: 'User', partyId: '2001' }] }, fields: { LeaderId: '2101' } } };
    fs.writeFileSync(uri.fsPath, `${JSON.stringify(doc, null, 2)}\n`);
  });

  after(async () => {
    await config().update('organizations', organizationsBefore, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(path.dirname(uri.fsPath), { recursive: true, force: true });
  });

  it('a user ID (partyId, LeaderId) shows the name and login name in a hover and an inlay hint, for users of the root organization itself too', async () => {
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const whole = new vscode.Range(0, 0, doc.lineCount, 0);
    const hints = await waitFor('inlay hints with the names', async () => {
      const h = (await vscode.commands.executeCommand('vscode.executeInlayHintProvider', uri, whole)) as vscode.InlayHint[];
      const labels = h.map((x) => (typeof x.label === 'string' ? x.label : x.label.map((p) => p.value).join('')));
      // 2001 belongs to the root organization itself (operation 3), the others to organizations below it.
      return labels.includes('田中 美咲 (misaki.tanaka)') && labels.includes('佐藤 花子 (hanako.sato)') && labels.includes('管理者 太郎 (admin)') ? h : undefined;
    });
    const tanaka = hints.find((h) => String(h.label).includes('田中'))!;
    assert.equal(doc.lineAt(tanaka.position.line).text.includes('"2104"'), true, 'the hint is beside the ID');
    const at = doc.positionAt(doc.getText().indexOf('2104') + 1);
    const hovers = (await vscode.commands.executeCommand('vscode.executeHoverProvider', uri, at)) as vscode.Hover[];
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))).join('\n');
    assert.match(text, /田中 美咲/);
    assert.match(text, /misaki\\\.tanaka/);
  });
});

describe('everyday use: small things', function () {
  this.timeout(120_000);

  before(async () => {
    await activateExtension();
    await vscode.commands.executeCommand('workItemStudio.startSandbox');
  });

  it('the sort pick reads "Code, ascending" and accepts typing "code asc"', async () => {
    assert.equal(await vscode.commands.executeCommand('workItemStudio.sortProcessCategories', 'code asc'), 'Code, ascending');
    assert.equal(await vscode.commands.executeCommand('workItemStudio.sortProcessCategories', 'displayOrder desc'), 'Display order, descending');
  });

  it('Add Organization checks the ID and says when no organization answers by it (instead of "0 users") @errors', async () => {
    const config = vscode.workspace.getConfiguration('workItemStudio');
    const before = config.inspect<string[]>('organizations')?.globalValue;
    try {
      await config.update('organizations', [], vscode.ConfigurationTarget.Global);
      const skipped = (await vscode.commands.executeCommand('workItemStudio.addOrganization', '1003 no-such-org', { ifUnknown: 'skip' })) as {
        added: string[];
        unknown: { id: string; message: string }[];
      };
      assert.deepEqual(skipped.added, ['1003']);
      assert.deepEqual(skipped.unknown.map((u) => u.id), ['no-such-org']);
      assert.match(skipped.unknown[0]!.message, /No organization answers by the ID "no-such-org"/);
      assert.deepEqual(vscode.workspace.getConfiguration('workItemStudio').get('organizations'), ['1003']);
      const anyway = (await vscode.commands.executeCommand('workItemStudio.addOrganization', 'no-such-org', { ifUnknown: 'add' })) as { added: string[] };
      assert.deepEqual(anyway.added, ['no-such-org'], 'added when the user says so');
    } finally {
      await config.update('organizations', before, vscode.ConfigurationTarget.Global);
    }
  });
});
