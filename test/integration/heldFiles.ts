// Files whose reads wait until the test lets them go: a command run right after such a file is
// opened surely runs while the workbench shows its tab but has not read it yet (so there is no
// text editor of it in the extension host), the moment a person's palette command can hit on a
// busy or remote machine.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateExtension, waitFor } from './support';

interface HeldFile {
  content: Uint8Array;
  reads: number;
  gate: Promise<void>;
  release: () => void;
}

/** A read-only file system of flat files; each file's reads wait for `release(name)`. */
export class HeldFiles implements vscode.FileSystemProvider {
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;
  private readonly files = new Map<string, HeldFile>();

  constructor(readonly scheme: string) {}

  /** Adds a file (its reads held); returns its URI. */
  add(name: string, text: string): vscode.Uri {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    this.files.set(name, { content: new TextEncoder().encode(text), reads: 0, gate, release });
    return this.uri(name);
  }

  uri(name: string): vscode.Uri {
    return vscode.Uri.from({ scheme: this.scheme, path: `/${name}` });
  }

  reads(name: string): number {
    return this.files.get(name)?.reads ?? 0;
  }

  /** Lets the reads of `name` (of every file without a name) go, now and from now on. */
  release(name?: string): void {
    for (const [n, f] of this.files) if (name === undefined || n === name) f.release();
  }

  private file(uri: vscode.Uri): HeldFile {
    const f = this.files.get(uri.path.slice(1));
    if (!f) throw vscode.FileSystemError.FileNotFound(uri);
    return f;
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    if (uri.path === '/') return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    const f = this.file(uri);
    return { type: vscode.FileType.File, ctime: 0, mtime: 0, size: f.content.byteLength, permissions: vscode.FilePermission.Readonly };
  }

  readDirectory(): [string, vscode.FileType][] {
    return [...this.files.keys()].map((n) => [n, vscode.FileType.File]);
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const f = this.file(uri);
    f.reads++;
    await f.gate;
    return f.content;
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

/**
 * Opens the held file `name` as a person opens it (the workbench shows the tab, then reads the
 * file) and returns once its tab is active and its read has begun: no text editor of it yet.
 */
export async function openHeld(files: HeldFiles, name: string): Promise<void> {
  const uri = files.uri(name);
  const before = files.reads(name);
  void vscode.commands.executeCommand('vscode.open', uri);
  await waitFor(`the tab of ${name}, active`, () => {
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    return input instanceof vscode.TabInputText && input.uri.toString() === uri.toString();
  });
  await waitFor(`the workbench reading ${name}`, () => files.reads(name) > before);
  assert.notEqual(vscode.window.activeTextEditor?.document.uri.toString(), uri.toString(), `no text editor of ${name} yet (its file is still being read)`);
}

/**
 * Runs `command` with no argument while the file `name` is held, lets the read go 300 ms later,
 * and returns the command's result; fails when the command has not ended 30 s later (an error
 * message it shows holds it until dismissed).
 */
export async function runWhileHeld<T>(files: HeldFiles, name: string, command: string): Promise<T> {
  const running = vscode.commands.executeCommand(command) as Thenable<T>;
  await new Promise((r) => setTimeout(r, 300));
  files.release(name);
  const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 30_000));
  const result = await Promise.race([Promise.resolve(running), timeout]);
  assert.notEqual(result, 'timeout', `${command} ended (an error message it shows would hold it)`);
  return result as T;
}

/**
 * Before a suite: the extension active, its sandbox started, no editor open, `files` served.
 * The returned function, after it: every read let go, every editor closed, `files` no longer served.
 */
export async function serveHeld(files: HeldFiles): Promise<() => Promise<void>> {
  await activateExtension();
  await vscode.commands.executeCommand('workItemStudio.startSandbox');
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const registration = vscode.workspace.registerFileSystemProvider(files.scheme, files, { isReadonly: true });
  return async () => {
    files.release();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    registration.dispose();
  };
}
