// The language model tools in a real extension host against the built-in sandbox, called
// as an agent calls them (vscode.lm.invokeTool, outside a chat). Outside a chat VS Code asks
// a tool's confirmation in a modal dialog, which no test can answer: the test hooks answer
// it (setPrompts agentTools.confirmed), as they answer the extension's own dialogs.
// Finding with the table's filter language, reading by ID, and a draft that opens as an
// unsaved request document while the sandbox's data stays as it was; bad input refused
// with a message that names what was wrong.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateExtension, answering, closeUntitledDocuments, revertDirtyDocuments } from './support';

const FIND = 'workItemStudio_findWorkItems';
const READ = 'workItemStudio_readWorkItems';
const DRAFT = 'workItemStudio_draftRequestDocument';

interface Found {
  service?: string;
  read: number;
  matched: number;
  listed: number;
  truncated: boolean;
  items: { id: string; name?: string; code?: string; status?: string; type?: string; plannedStart?: string; plannedFinish?: string; leader?: string }[];
}

const textOf = (r: vscode.LanguageModelToolResult): string =>
  r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');

const invoke = (name: string, input: object): Promise<vscode.LanguageModelToolResult> =>
  answering({ agentTools: { confirmed: true } }, () => vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }));

/** The message an invocation is refused with. */
async function refusal(name: string, input: object): Promise<string> {
  try {
    await invoke(name, input);
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  assert.fail(`${name} took ${JSON.stringify(input)}`);
}

describe('agent tools: find, read and draft through vscode.lm.invokeTool against the sandbox', function () {
  this.timeout(180_000);
  let origin = '';
  const dump = async (): Promise<string> => JSON.stringify(((await (await fetch(`${origin}/_sandbox/dump`)).json()) as { workItems: unknown }).workItems);

  before(async () => {
    await activateExtension();
    await vscode.commands.executeCommand('workItemStudio.startSandbox');
  });
  after(async () => {
    await closeUntitledDocuments();
    await revertDirtyDocuments();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('the three tools are registered with VS Code', () => {
    const names = vscode.lm.tools.map((t) => t.name);
    for (const n of [FIND, READ, DRAFT]) assert.ok(names.includes(n), `${n} among ${names.join(', ')}`);
  });

  it('findWorkItems answers the items of project 3001 that the filter matches, with their count', async () => {
    const all = JSON.parse(textOf(await invoke(FIND, { projectId: '3001', filter: '' }))) as Found;
    origin = new URL(all.service!.split(' ').pop()!).origin;
    assert.ok(all.read > 5, JSON.stringify(all));
    assert.equal(all.matched, all.read);
    const found = JSON.parse(textOf(await invoke(FIND, { projectId: '3001', filter: 'name:ヘッダー' }))) as Found;
    assert.equal(found.matched, 1, JSON.stringify(found));
    assert.equal(found.items[0]!.id, '122');
    assert.equal(found.items[0]!.code, 'WEB-I-01-1');
    assert.equal(found.items[0]!.plannedStart, '2026-03-02');
    assert.equal(found.items[0]!.plannedFinish, '2026-03-13');
    const capped = JSON.parse(textOf(await invoke(FIND, { projectId: '3001', filter: '', maxResults: 2 }))) as Found;
    assert.equal(capped.listed, 2);
    assert.equal(capped.truncated, true);
    assert.equal(capped.matched, all.read);
  });

  it('findWorkItems searches below a folder (121: its three sub-items)', async () => {
    const found = JSON.parse(textOf(await invoke(FIND, { folderId: '121', filter: 'finish>=2026-03-20' }))) as Found;
    assert.deepEqual(found.items.map((i) => i.id).sort(), ['123', '127'], JSON.stringify(found));
  });

  it('findWorkItems refuses a filter with a problem, naming it and its column', async () => {
    const m = await refusal(FIND, { projectId: '3001', filter: 'nosuchfield:1' });
    assert.match(m, /nosuchfield/);
    assert.match(m, /column 1/);
  });

  it('readWorkItems answers the fields of the items asked for and the IDs not read', async () => {
    const r = JSON.parse(textOf(await invoke(READ, { ids: ['121', '122', '999999'] }))) as { read: number; missing: string[]; items: { id: string; fields: Record<string, unknown> }[] };
    assert.equal(r.read, 2);
    assert.deepEqual(r.missing, ['999999']);
    assert.equal(r.items.find((i) => i.id === '121')?.fields['Name'], 'トップページ');
    assert.equal(r.items.find((i) => i.id === '121')?.fields['Code'], 'WEB-I-01');
  });

  it('readWorkItems refuses an invalid ID and more than 200 IDs, saying which', async () => {
    assert.match(await refusal(READ, { ids: ['12/1'] }), /ids\[0\].*"\/"/);
    assert.match(await refusal(READ, { ids: Array.from({ length: 201 }, (_, i) => String(i + 1)) }), /at most 200/);
  });

  it('draftRequestDocument opens the draft as an unsaved request document and sends nothing', async () => {
    const before = await dump();
    const document = { description: 'Shift the header by a week', workItemIds: ['122'], update: { moveScheduleDays: 7 } };
    const answer = textOf(await invoke(DRAFT, { document, name: 'shift-header' }));
    assert.match(answer, /Nothing was sent/);
    assert.match(answer, /Preview/);
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'untitled' && d.uri.path.endsWith('shift-header-1.workitems.json'));
    assert.ok(doc, vscode.workspace.textDocuments.map((d) => d.uri.toString()).join(', '));
    assert.ok(answer.includes(doc.uri.toString(true)), answer);
    assert.deepEqual(JSON.parse(doc.getText()), document);
    assert.equal(doc.isDirty, true);
    // Nothing reached the service: the items are as they were.
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(await dump(), before);
  });

  it('draftRequestDocument refuses a document the checks reject, naming the line and member, and opens nothing', async () => {
    const open = vscode.workspace.textDocuments.length;
    const m = await refusal(DRAFT, { document: { workItemIds: ['122'], update: { moveScheduleDays: 'seven' } } });
    assert.match(m, /not opened/);
    assert.match(m, /line \d+, column \d+ \(update\.moveScheduleDays\)/);
    const shape = await refusal(DRAFT, { document: 'not json' });
    assert.match(shape, /JSON syntax error/);
    assert.match(await refusal(DRAFT, { document: 42 }), /document: expected the request document as a JSON object/);
    assert.equal(vscode.workspace.textDocuments.length, open);
  });
});
