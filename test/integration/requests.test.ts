// Request documents inside a real extension host: a document created from a
// selection, schema and zod diagnostics on a bad document, the rename Quick Fix,
// and a good document sent to the sandbox, whose state is then checked.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { activateExtension, closeUntitledDocuments, waitFor, replaceDocumentText } from './support';

const SOURCE = 'Work Item Studio';

function scratchFolder(): string {
  const ws = vscode.workspace.workspaceFolders?.[0];
  const base = ws ? path.join(ws.uri.fsPath, '.integration-requests') : fs.mkdtempSync(path.join(os.tmpdir(), 'wis-req-'));
  fs.mkdirSync(base, { recursive: true });
  return base;
}

function writeDocument(name: string, value: unknown): vscode.Uri {
  const file = path.join(scratchFolder(), `${name}-${process.pid}.workitems.json`);
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
  return vscode.Uri.file(file);
}

async function closeAll(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

function lineOf(doc: vscode.TextDocument, d: vscode.Diagnostic): string {
  return doc.lineAt(d.range.start.line).text;
}

describe('request documents', function () {
  this.timeout(120_000);

  before(async () => {
    await activateExtension();
  });

  afterEach(async () => {
    await closeUntitledDocuments();
    await closeAll();
  });

  it('creates an untitled *.workitems.json document from the IDs in the selection', async () => {
    const source = await vscode.workspace.openTextDocument({ content: 'ID\n120\n121, 122\n121\n', language: 'plaintext' });
    const editor = await vscode.window.showTextDocument(source);
    editor.selection = new vscode.Selection(0, 0, source.lineCount, 0);
    const created = (await vscode.commands.executeCommand('workItemStudio.newUpdate', { template: 'shiftSchedule' })) as vscode.TextEditor | undefined;
    assert.ok(created, 'no editor was opened');
    const doc = created.document;
    assert.equal(doc.uri.scheme, 'untitled');
    assert.match(doc.uri.path, /\/update-\d+\.workitems\.json$/);
    assert.equal(doc.languageId, 'json');
    const value = JSON.parse(doc.getText()) as { workItemIds: string[]; update: { moveScheduleDays: number } };
    assert.deepEqual(value.workItemIds, ['120', '121', '122']);
    assert.equal(value.update.moveScheduleDays, 7);
    // Our own check finds nothing wrong with a fresh template.
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source === SOURCE && d.severity === vscode.DiagnosticSeverity.Error), []);
  });

  it('a new request document never takes the name of one closed before in the session (the window may still hold its text)', async () => {
    const first = (await vscode.commands.executeCommand('workItemStudio.newUpdate', { ids: ['1'], template: 'complete' })) as vscode.TextEditor;
    const firstUri = first.document.uri.toString();
    await closeUntitledDocuments();
    const second = (await vscode.commands.executeCommand('workItemStudio.newUpdate', { ids: ['2'], template: 'complete' })) as vscode.TextEditor;
    assert.notEqual(second.document.uri.toString(), firstUri);
    assert.deepEqual((JSON.parse(second.document.getText()) as { workItemIds: string[] }).workItemIds, ['2']);
  });

  it('applies the contributed JSON Schema to an untitled request document (hover), and an unknown member is reported once, by our check', async () => {
    const created = (await vscode.commands.executeCommand('workItemStudio.newUpdate', { ids: ['1'], template: 'complete' })) as vscode.TextEditor;
    const doc = created.document;
    const text = doc.getText().replace('"setCompleted": true', '"setCompleted": true, "notAMember": 1');
    assert.ok(text.includes('"notAMember"'), `the new document holds no "setCompleted": true: ${JSON.stringify(doc.getText())}`);
    await replaceDocumentText(doc, text);
    const at = doc.positionAt(doc.getText().indexOf('"setCompleted"') + 3);
    const hover = await waitFor(
      'the JSON language service to show the schema\'s description of setCompleted',
      async () => {
        const hovers = (await vscode.commands.executeCommand('vscode.executeHoverProvider', doc.uri, at)) as vscode.Hover[];
        const texts = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)));
        return texts.some((t) => /progress 100%/.test(t)) ? texts : undefined;
      },
      60_000,
    );
    assert.ok(hover.length > 0);
    await waitFor('our problem on notAMember', () =>
      vscode.languages.getDiagnostics(doc.uri).some((x) => x.source === SOURCE && lineOf(doc, x).includes('notAMember')) ? true : undefined,
    ).catch((e: Error) => {
      const seen = vscode.languages.getDiagnostics(doc.uri).map((d) => `${d.source ?? '?'} ${String(d.code ?? '')} on "${lineOf(doc, d).trim()}"`);
      throw new Error(`${e.message}; the document's diagnostics: ${JSON.stringify(seen)}; its text: ${JSON.stringify(doc.getText())}`);
    });
    await new Promise((r) => setTimeout(r, 1_500));
    const others = vscode.languages.getDiagnostics(doc.uri).filter((x) => x.source !== SOURCE && lineOf(doc, x).includes('notAMember'));
    assert.deepEqual(others.map((d) => d.message), [], 'the JSON Schema reported the unknown member too');
  });

  it('shows our diagnostics on a bad document, each problem once, and the rename Quick Fix fixes capitalised members', async () => {
    const uri = writeDocument('bad', {
      workItemIds: ['1', '2'],
      update: { setCompleted: 'yes', orderFirst: true, assignmentChange: { Adds: [{ PartyId: '2001', PlannedTime: 60 }] } },
    });
    try {
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc);
      // Our check reports the wrong type and the rules; the JSON language service adds nothing for them.
      const ours = await waitFor('our diagnostics', () => {
        const d = vscode.languages.getDiagnostics(uri).filter((x) => x.source === SOURCE);
        return d.some((x) => x.code === 'ORDER_WITHOUT_PARENT') && d.some((x) => x.code === 'WRONG_TYPE') ? d : undefined;
      });
      assert.match(lineOf(doc, ours.find((d) => d.code === 'WRONG_TYPE')!), /setCompleted/);
      await new Promise((r) => setTimeout(r, 1_500));
      const schema = vscode.languages.getDiagnostics(uri).filter((x) => x.source !== SOURCE && lineOf(doc, x).includes('setCompleted'));
      assert.deepEqual(schema.map((d) => d.message), [], 'the JSON Schema reported the wrong type too');
      const order = ours.find((d) => d.code === 'ORDER_WITHOUT_PARENT')!;
      assert.equal(order.severity, vscode.DiagnosticSeverity.Error);
      assert.equal(doc.getText(order.range), 'true', 'the ordering problem is on the value of orderFirst');
      assert.match(lineOf(doc, order), /orderFirst/);
      const renames = ours.filter((d) => d.code === 'MEMBER_NAME_CASE');
      assert.ok(renames.length >= 2, `rename warnings: ${ours.map((d) => `${d.code}: ${d.message}`).join('; ')}`);
      const adds = renames.find((d) => doc.getText(d.range) === '"Adds"');
      assert.ok(adds, 'a warning sits on the quoted name "Adds"');
      assert.equal(adds.severity, vscode.DiagnosticSeverity.Warning);

      // Quick Fix on "Adds".
      const actions = (await vscode.commands.executeCommand('vscode.executeCodeActionProvider', uri, adds.range, vscode.CodeActionKind.QuickFix.value)) as vscode.CodeAction[];
      const rename = actions.find((a) => a.title.includes('"adds"'));
      assert.ok(rename?.edit, `no rename action among: ${actions.map((a) => a.title).join(', ')}`);
      assert.ok(await vscode.workspace.applyEdit(rename.edit));
      assert.match(doc.getText(), /"adds": \[/);

      // "Fix all" renames the rest.
      const all = (await vscode.commands.executeCommand('vscode.executeCodeActionProvider', uri, new vscode.Range(0, 0, doc.lineCount, 0), 'source.fixAll.workItemStudio')) as vscode.CodeAction[];
      const fixAll = all.find((a) => a.kind?.value === 'source.fixAll.workItemStudio');
      assert.ok(fixAll?.edit, `no fix-all action among: ${all.map((a) => a.title).join(', ')}`);
      assert.ok(await vscode.workspace.applyEdit(fixAll.edit));
      assert.match(doc.getText(), /"partyId": "2001"/);
      assert.match(doc.getText(), /"plannedTime": 60/);
      await waitFor('the rename warnings to go away', () =>
        vscode.languages.getDiagnostics(uri).every((d) => d.code !== 'MEMBER_NAME_CASE') ? true : undefined,
      );
      await doc.save();
    } finally {
      await closeAll();
      fs.rmSync(uri.fsPath, { force: true });
    }
  });

  it('offers Send and Preview as a CodeLens at the top of a valid document', async () => {
    const uri = writeDocument('lens', { workItemIds: ['122', '123'], update: { setCompleted: true } });
    try {
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc);
      const lenses = await waitFor('the CodeLenses', async () => {
        const l = (await vscode.commands.executeCommand('vscode.executeCodeLensProvider', uri)) as vscode.CodeLens[];
        const ours = l.filter((x) => x.command?.command === 'workItemStudio.sendUpdate' || x.command?.command === 'workItemStudio.previewUpdate');
        return ours.length === 2 ? ours : undefined;
      });
      assert.equal(lenses[0]!.range.start.line, 0);
    } finally {
      await closeAll();
      fs.rmSync(uri.fsPath, { force: true });
    }
  });

  it('sends a good document to the sandbox and the sandbox has the change @cli', async () => {
    await vscode.commands.executeCommand('workItemStudio.startSandbox');
    const uri = writeDocument('good', { description: 'Complete two tasks', workItemIds: ['122', '123', '123'], update: { setCompleted: true } });
    try {
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc);
      // The preview is the exact plan; nothing is sent by it.
      const preview = (await vscode.commands.executeCommand('workItemStudio.previewUpdate', uri)) as string;
      assert.match(preview, /\/workitem\/workItems\/122,123/);
      const outcomes = (await vscode.commands.executeCommand('workItemStudio.sendUpdate', uri)) as {
        baseUrl: string;
        result: { outcome: string; totals: { items: number; requests: number }; requests: { state: string; response?: { items: { id: string }[] } }[] };
      }[];
      assert.equal(outcomes.length, 1);
      const { baseUrl, result } = outcomes[0]!;
      assert.equal(result.outcome, 'succeeded', JSON.stringify(result.requests));
      assert.equal(result.totals.items, 2, 'the duplicate ID is sent once');
      assert.equal(result.totals.requests, 1);
      assert.deepEqual(result.requests[0]!.response!.items.map((i) => i.id).sort(), ['122', '123']);
      const origin = new URL(baseUrl).origin;
      for (const id of ['122', '123']) {
        const res = await fetch(`${origin}/_sandbox/workitems/${id}`);
        assert.equal(res.status, 200);
        const item = (await res.json()) as { actualProgress: number };
        assert.equal(item.actualProgress, 100, `work item ${id} is complete in the sandbox`);
      }
      // The result view's tab names the document and the job's start time, so two sends of one document are told apart.
      // (The tab model reaches the extension host asynchronously.)
      await waitFor('a result tab titled with the document and the start time', () =>
        vscode.window.tabGroups.all
          .flatMap((g) => g.tabs)
          .some((t) => /^Results: good-[^ ]*\.workitems\.json \(\d{1,2}:\d{2}:\d{2}( [AP]M)?\)$/.test(t.label)),
      );
    } finally {
      await closeAll();
      fs.rmSync(uri.fsPath, { force: true });
    }
  });
});
