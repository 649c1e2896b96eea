// Open Work Item Table with no argument, run while the active tab's request document is still
// being read: the tab shows as soon as the file is opened, its text editor only once the file
// has been read (on a busy or remote machine, a moment later). The file here is served by a file
// system whose reads wait until the test lets them go, so the command surely runs in between;
// it opens the table of that document (it once said to open a request document instead).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TablePanel } from '../../src/table/panel';
import { activateExtension, waitFor } from './support';

const SCHEME = 'wis-slow-read';

/** A read-only file system of one file whose reads wait for `release()`. */
class HeldFiles implements vscode.FileSystemProvider {
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;
  reads = 0;
  private released!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.released = resolve));

  constructor(
    private readonly name: string,
    private readonly content: Uint8Array,
  ) {}

  release(): void {
    this.released();
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    if (uri.path === '/') return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    if (uri.path !== `/${this.name}`) throw vscode.FileSystemError.FileNotFound(uri);
    return { type: vscode.FileType.File, ctime: 0, mtime: 0, size: this.content.byteLength, permissions: vscode.FilePermission.Readonly };
  }

  readDirectory(): [string, vscode.FileType][] {
    return [[this.name, vscode.FileType.File]];
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    this.stat(uri);
    this.reads++;
    await this.gate;
    return this.content;
  }

  createDirectory(): void {
    throw vscode.FileSystemError.NoPermissions();
  }

  writeFile(): void {
    throw vscode.FileSystemError.NoPermissions();
  }

  delete(): void {
    throw vscode.FileSystemError.NoPermissions();
  }

  rename(): void {
    throw vscode.FileSystemError.NoPermissions();
  }
}

describe('work item table of the active tab (extension, sandbox)', function () {
  this.timeout(120_000);
  const name = 'held.workitems.json';
  const uri = vscode.Uri.from({ scheme: SCHEME, path: `/${name}` });
  const files = new HeldFiles(name, new TextEncoder().encode(JSON.stringify({ workItemIds: ['122', '123'], update: { fields: { Code: 'X' } } }, null, 2)));
  let registration: vscode.Disposable | undefined;
  let table: TablePanel | undefined;

  before(async () => {
    await activateExtension();
    await vscode.commands.executeCommand('workItemStudio.startSandbox');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    registration = vscode.workspace.registerFileSystemProvider(SCHEME, files, { isReadonly: true });
  });

  after(async () => {
    files.release();
    table?.panel.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    registration?.dispose();
  });

  it("opens the table of the active tab's request document while its editor is still reading the file", async () => {
    // Opened as a person opens it (the workbench shows the tab, then reads the file).
    void vscode.commands.executeCommand('vscode.open', uri);
    await waitFor('the tab of the request document, active', () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputText && input.uri.toString() === uri.toString();
    });
    await waitFor('the workbench reading the file', () => files.reads > 0);
    assert.notEqual(vscode.window.activeTextEditor?.document.uri.toString(), uri.toString(), 'no text editor of the document yet (its file is still being read)');

    const opening = vscode.commands.executeCommand('workItemStudio.openWorkItemTable') as Thenable<TablePanel | undefined>;
    // The command runs while the file is held, then the read ends.
    await new Promise((r) => setTimeout(r, 300));
    files.release();
    const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 30_000));
    const result = await Promise.race([Promise.resolve(opening), timeout]);
    assert.notEqual(result, 'timeout', 'the command ended (an error message it shows would hold it)');
    table = result as TablePanel | undefined;
    assert.ok(table, 'the command opened a table');
    assert.deepEqual(table.source.ids, ['122', '123'], "the document's workItemIds");
    assert.equal(table.source.title, `Table: ${name}`);
    await table.whenLoaded();
    assert.deepEqual(new Set(table.viewRows().map((r) => r.id)), new Set(['122', '123']));
  });
});
