// Imports into the work item table inside a real extension host, against the demo sandbox:
// a Shift_JIS (CP932) file as Japanese Excel saves it (bytes made with iconv-lite here), a
// file over the import limits (low limits in the workspace settings) and a file that decodes
// in no encoding; both refusals leave the table's edits as they were. An unclosed quote read
// as text from the clipboard and refused with the lines it swallowed from a file; Cancel
// during a 200,000-row import. And an export in Shift_JIS that stops on a character CP932
// cannot hold.
import * as assert from 'node:assert/strict';
import * as iconv from 'iconv-lite';
import * as vscode from 'vscode';
import type { TablePanel } from '../../src/table/panel';
import type { WorkItemNode, WorkItemTreeNode } from '../../src/workItems/tree';
import { runImport } from '../../src/table/csvCommands';
import { ImportCancelledError } from '../../src/table/model';
import { activateExtension, closeUntitledDocuments, waitFor, workspaceFolder } from './support';

interface Outcome {
  refused?: string;
  summary?: string;
  encoding?: string;
  changes?: { id: string; field: string; value: unknown }[];
  badRecordCount?: number;
}

describe('table import: encodings and limits (extension, sandbox)', function () {
  this.timeout(180_000);
  let table: TablePanel;
  const files: vscode.Uri[] = [];

  const write = async (name: string, bytes: Uint8Array): Promise<vscode.Uri> => {
    const uri = vscode.Uri.joinPath(workspaceFolder().uri, `table-import-${process.pid}-${name}`);
    await vscode.workspace.fs.writeFile(uri, bytes);
    files.push(uri);
    return uri;
  };
  const importFile = async (uri: vscode.Uri, extra: object = {}) => (await vscode.commands.executeCommand('workItemStudio.importIntoTable', { uri, ...extra })) as Outcome | undefined;
  const editsNow = () => JSON.stringify(table.editing.edits.all());
  const leaves = () => table.viewRows().filter((r) => r.hasChildren === false);

  before(async () => {
    await activateExtension();
    await vscode.commands.executeCommand('workItemStudio.startSandbox');
    await vscode.commands.executeCommand('workItemStudio.workItems.focus');
    const revealed = (await vscode.commands.executeCommand('workItemStudio.revealWorkItems', { ids: ['121'] })) as WorkItemNode[];
    const projects = (await revealed[0]!.tree.getChildren()) as WorkItemTreeNode[];
    const project = projects.find((n) => n.kind === 'project' && n.projectId === '3001');
    assert.ok(project, 'project 3001 is in the view');
    table = (await vscode.commands.executeCommand('workItemStudio.openWorkItemTable', project)) as TablePanel;
    await table.whenLoaded();
  });

  after(async () => {
    const config = vscode.workspace.getConfiguration('workItemStudio.table');
    await config.update('importMaxRows', undefined, vscode.ConfigurationTarget.Workspace);
    await config.update('importMaxMegabytes', undefined, vscode.ConfigurationTarget.Workspace);
    for (const f of files) await vscode.workspace.fs.delete(f).then(undefined, () => undefined);
    table?.editing.edits.clear();
    await closeUntitledDocuments();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('imports a Shift_JIS (CP932) file without a BOM: Japanese names (① ㈱ included) become edits, and the summary names Shift_JIS', async () => {
    const [x, y] = leaves();
    assert.ok(x && y, 'two leaf rows');
    const text = `ID,名称\r\n${x.id},設計レビュー①㈱\r\n${y.id},ﾃｽﾄ工程の確認～\r\n999999,存在しない\r\n`;
    const uri = await write('sjis.csv', iconv.encode(text, 'cp932'));
    const bytes = await vscode.workspace.fs.readFile(uri);
    assert.notDeepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'no BOM');
    const out = await importFile(uri);
    assert.ok(out && !out.refused, JSON.stringify(out));
    assert.equal(out.encoding, 'shiftjis');
    assert.equal(table.editing.edits.get(x.id, 'Name')?.value, '設計レビュー①㈱');
    assert.equal(table.editing.edits.get(y.id, 'Name')?.value, 'ﾃｽﾄ工程の確認～');
    assert.ok(!JSON.stringify(out.changes).includes('\ufffd'), 'no U+FFFD anywhere');
    assert.match(out.summary ?? '', /Shift_JIS \(CP932\)/);
    assert.match(out.summary ?? '', /2 rows applied, 1 row refused \(ID not in the table: 1\)/);
    await waitFor('the problems document', async () => (vscode.workspace.textDocuments.some((d) => d.languageId === 'markdown' && d.getText().includes('999999') && d.getText().includes('Shift_JIS')) ? true : undefined));
  });

  it('refuses a file over the row limit with the numbers before any parse, and the edits stay as they were', async () => {
    const before = editsNow();
    const config = vscode.workspace.getConfiguration('workItemStudio.table');
    await config.update('importMaxRows', 3, vscode.ConfigurationTarget.Workspace);
    try {
      const [x] = leaves();
      const rows = Array.from({ length: 5 }, (_, i) => `${x!.id},over ${i}`).join('\r\n');
      const out = await importFile(await write('rows.csv', Buffer.from(`ID,Name\r\n${rows}\r\n`)));
      assert.ok(out?.refused, JSON.stringify(out));
      assert.match(out.refused, /has 5 rows, and an import may have at most 3 rows/);
      assert.match(out.refused, /workItemStudio\.table\.importMaxRows/);
      assert.equal(editsNow(), before, 'the table is unchanged');
    } finally {
      await config.update('importMaxRows', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  it('refuses a file over the size limit with its size and the limit, before reading it', async () => {
    const before = editsNow();
    const config = vscode.workspace.getConfiguration('workItemStudio.table');
    await config.update('importMaxMegabytes', 1, vscode.ConfigurationTarget.Workspace);
    try {
      const [x] = leaves();
      const big = Buffer.from(`ID,Name\r\n${x!.id},${'a'.repeat(1_300_000)}\r\n`);
      const out = await importFile(await write('big.csv', big));
      assert.ok(out?.refused, JSON.stringify(out));
      assert.match(out.refused, new RegExp(`is 1\\.2 MiB \\(${big.length.toLocaleString('en-US')} bytes\\), and an import may be at most 1 MiB`));
      assert.equal(editsNow(), before, 'the table is unchanged');
    } finally {
      await config.update('importMaxMegabytes', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  it('refuses a file that decodes in no encoding, naming the line and byte, and applies nothing', async () => {
    const before = editsNow();
    const [x, y] = leaves();
    const file = Buffer.concat([Buffer.from(`ID,Name\r\n${x!.id},`), iconv.encode('名前', 'cp932'), Buffer.from(`\r\n${y!.id},ab`), Buffer.from([0x82, 0xff]), Buffer.from('\r\n')]);
    const out = await importFile(await write('broken.csv', file));
    assert.ok(out?.refused, JSON.stringify(out));
    assert.match(out.refused, /line 3, byte \d+ of the line \(82 FF 0D 0A\) is neither UTF-8 nor Shift_JIS/);
    assert.equal(editsNow(), before, 'no edit');
  });

  it('asks which encoding when both UTF-8 and Shift_JIS read the file, and remembers the answer for that file', async () => {
    table.editing.edits.clear();
    const [x] = leaves();
    const uri = await write('unsure.csv', Buffer.from(`ID,Name\r\n${x!.id},Café\r\n`, 'utf8'));
    const settle = () => new Promise((r) => setTimeout(r, 800));
    const asked = Promise.resolve(vscode.commands.executeCommand('workItemStudio.importIntoTable', { uri }));
    await settle();
    // UTF-8 (most likely) first, Shift_JIS second: take the second.
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    const first = (await asked) as Outcome;
    assert.equal(first.encoding, 'shiftjis');
    assert.equal(table.editing.edits.get(x!.id, 'Name')?.value, 'Cafﾃｩ', 'read as the user said');
    table.editing.edits.clear();
    // The same file again: no question (a question would leave the command waiting).
    const again = (await Promise.race([importFile(uri), new Promise((r) => setTimeout(() => r('asked again'), 5000))])) as Outcome | string;
    if (again === 'asked again') await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.notEqual(again, 'asked again');
    assert.equal((again as Outcome).encoding, 'shiftjis');
    table.editing.edits.clear();
  });

  it('a cancelled import gives no result to apply (the parse stops on the token)', async () => {
    const source = new vscode.CancellationTokenSource();
    source.cancel();
    const progress: number[] = [];
    const [x] = leaves();
    await assert.rejects(
      runImport(`ID,Name\n${x!.id},cancelled\n`, { columns: table.allColumns(), rows: new Map(table.allRows().map((r) => [r.id, r])) }, source.token, (done) => progress.push(done)),
      (e: unknown) => e instanceof ImportCancelledError && e.code === 'cancelled',
    );
    assert.equal(table.editing.edits.get(x!.id, 'Name'), undefined);
  });

  it('Cancel during a large import (200,000 rows) stops the parse between slices: the host answered meanwhile, and the edits are unchanged', async () => {
    table.editing.edits.clear();
    const [x] = leaves();
    await table.dispatch({ type: 'commit', id: x!.id, key: 'Name', text: 'kept before the import' });
    const before = editsNow();
    const lines = Array.from({ length: 200_000 }, (_, i) => (i === 0 ? `${x!.id},from the big file` : `${9_000_000 + i},row ${i}`));
    const text = `ID,Name\n${lines.join('\n')}\n`;
    const source = new vscode.CancellationTokenSource();
    const progress: [number, number][] = [];
    let timerRan = false;
    setTimeout(() => (timerRan = true), 0);
    const options = { ...table.editing.context(), columns: table.allColumns(), rows: new Map(table.allRows().map((r) => [r.id, r])) };
    await assert.rejects(
      runImport(text, options, source.token, (done, total) => {
        progress.push([done, total]);
        if (progress.length === 3) source.cancel();
      }),
      (e: unknown) => e instanceof ImportCancelledError,
    );
    assert.equal(progress.length, 3, 'no slice after the Cancel');
    assert.ok(progress[2]![0] < progress[2]![1], `cancelled part way: ${JSON.stringify(progress[2])}`);
    assert.ok(timerRan, 'a timer ran between slices: the extension host was not blocked');
    assert.equal(editsNow(), before, 'the edits are as they were');
    table.editing.edits.clear();
  });

  it('text from the clipboard reads a quote that closes no cell as text; the same text as a file refuses the row and the lines the quote swallowed', async () => {
    table.editing.edits.clear();
    const [x, y, z] = leaves();
    assert.ok(x && y && z, 'three leaf rows');
    const text = `ID,Name\r\n${x.id},"abc\r\n${y.id},def\r\n${z.id},ghi\r\n`;
    const pasted = (await vscode.commands.executeCommand('workItemStudio.importIntoTable', { text, clipboard: true })) as Outcome & { quoteAsText: { line: number; column: string }[] };
    assert.ok(pasted && !pasted.refused, JSON.stringify(pasted));
    assert.equal(pasted.badRecordCount, 0);
    assert.deepEqual(pasted.quoteAsText.map((q) => [q.line, q.column]), [[2, 'Name']]);
    assert.equal(table.editing.edits.get(x.id, 'Name')?.value, '"abc', 'the quote is a character of its cell');
    assert.equal(table.editing.edits.get(y.id, 'Name')?.value, 'def', 'the next line is its own row');
    assert.match(pasted.summary ?? '', /In 1 cell, a quote that closes no quoted cell was read as a character of the cell\./);
    table.editing.edits.clear();
    await closeUntitledDocuments();

    const before = editsNow();
    const file = (await importFile(await write('unclosed.csv', Buffer.from(text)))) as Outcome & { problems: { line: number; code: string }[]; appliedRowCount: number };
    assert.ok(file && !file.refused, JSON.stringify(file));
    assert.deepEqual(file.problems.map((p) => [p.line, p.code]), [[2, 'unclosedQuote'], [3, 'notRead'], [4, 'notRead']]);
    assert.equal(file.badRecordCount, 3);
    assert.equal(file.appliedRowCount, 0);
    assert.equal(editsNow(), before, 'nothing of the file is applied');
    assert.match(file.summary ?? '', /0 rows applied, 3 rows refused \((unclosed quote: 1, line inside an unclosed quote: 2|line inside an unclosed quote: 2, unclosed quote: 1)\)/);
    await waitFor('the problems document', async () =>
      vscode.workspace.textDocuments.some((d) => d.languageId === 'markdown' && d.getText().includes('Line 3 is not read: the quote opened on line 2 does not close where a cell ends.')) ? true : undefined,
    );
    await closeUntitledDocuments();
  });

  it('a paste says which cell kept a quote that closes no quoted cell, and refuses a pasted control character with a worded message', async () => {
    table.editing.edits.clear();
    const [x, y] = leaves();
    const quoted = table.editing.paste(x!.id, 'Name', '"5 inch" screw\n');
    assert.equal(table.editing.edits.get(x!.id, 'Name')?.value, '"5 inch" screw');
    assert.equal(
      quoted.notice,
      `A quote in the pasted cell of ID ${x!.id}, Name (line 1 of the pasted text) closes no quoted cell: it was kept as a character of the cell.`,
    );
    const control = table.editing.paste(y!.id, 'Name', 'a\u0000b');
    assert.equal(control.changed, 0);
    assert.deepEqual(control.refused.map((r) => r.message), ['Name: the pasted cell holds a control character (such as NUL); it is not read.']);
    assert.equal(table.editing.edits.get(y!.id, 'Name'), undefined);
    table.editing.edits.clear();
  });

  it('exports in Shift_JIS on request; a character CP932 cannot hold stops it (cancel) or writes UTF-8 (the choice), never a "?"', async () => {
    table.editing.edits.clear();
    const [x] = leaves();
    await table.dispatch({ type: 'commit', id: x!.id, key: 'Name', text: '絵文字😀' });
    const cancelled = await write('export-cancel.csv', new Uint8Array());
    await vscode.workspace.fs.delete(cancelled);
    const none = await vscode.commands.executeCommand('workItemStudio.exportTableCsv', { columns: 'shown', uri: cancelled, encoding: 'shiftjis', onUnencodable: 'cancel' });
    assert.equal(none, undefined);
    await assert.rejects(Promise.resolve(vscode.workspace.fs.stat(cancelled)), 'nothing written');
    const utf8 = await write('export-utf8.csv', new Uint8Array());
    const out = (await vscode.commands.executeCommand('workItemStudio.exportTableCsv', { columns: 'shown', uri: utf8, encoding: 'shiftjis', onUnencodable: 'utf8' })) as {
      encoding: string;
      unencodable: { id: string; chars: string[] }[];
    };
    assert.equal(out.encoding, 'utf8');
    assert.deepEqual(out.unencodable.filter((c) => c.id === x!.id).map((c) => c.chars), [['😀']]);
    assert.deepEqual([...(await vscode.workspace.fs.readFile(utf8)).subarray(0, 3)], [0xef, 0xbb, 0xbf], 'UTF-8 with BOM');
    table.editing.edits.clear();
    const sjis = await write('export-sjis.csv', new Uint8Array());
    const plain = (await vscode.commands.executeCommand('workItemStudio.exportTableCsv', { columns: 'shown', uri: sjis, encoding: 'shiftjis', onUnencodable: 'cancel' })) as { encoding: string; text: string } | undefined;
    assert.ok(plain, 'the demo data has no character outside CP932');
    assert.equal(plain.encoding, 'shiftjis');
    assert.equal(iconv.decode(Buffer.from(await vscode.workspace.fs.readFile(sjis)), 'cp932'), plain.text.replace(/^\ufeff/, ''));
  });
});
