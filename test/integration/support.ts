// Helpers for the integration suites (they run inside a VS Code extension host, under either
// runner: test/runners/offline.ts on code-server, or @vscode/test-electron). Nothing here is
// specific to one runner.
import * as vscode from 'vscode';
import type { WorkItemStudioApi } from '../../src/extension';
import { plainErrorsFromEnvironment } from '../../src/sandbox/plain';

export const EXTENSION_ID = 'workitem-studio.workitem-studio';

/**
 * Whether every sandbox of this run answers failures with a status and `[{"message"}]` only
 * (the integration-plain tier: `tsx test/runners/offline.ts --plain-errors`). A suite that
 * asserts an error code asserts the plain behaviour instead when this is true.
 */
export function plainErrors(): boolean {
  return plainErrorsFromEnvironment();
}

/** The extension under test; fails with a clear message when it is not installed. */
export function extension(): vscode.Extension<unknown> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) {
    throw new Error(`extension ${EXTENSION_ID} is not installed in this extension host`);
  }
  return ext;
}

/**
 * Activates the extension explicitly (it activates on JSON documents, views and commands; a test may run before any of them).
 * The first attempt is shared by every suite in this extension host (through a global, since each
 * suite is bundled separately): VS Code reports a failed activation only to the first caller and
 * counts the extension as active afterwards, so a later call alone would hide the failure.
 */
export function activateExtension(): Promise<vscode.Extension<unknown>> {
  const g = globalThis as { __workItemStudioActivation?: Promise<vscode.Extension<unknown>> };
  g.__workItemStudioActivation ??= (async () => {
    const ext = extension();
    await ext.activate();
    return ext;
  })();
  return g.__workItemStudioActivation;
}

/** What the suites give the extension's questions instead of a person (see `WorkItemStudioApi` in src/extension.ts). */
export type ScriptedPrompts = Parameters<WorkItemStudioApi['setPrompts']>[0];

/**
 * Runs `run` with the extension's questions (update jobs, Create Undo Document) answered by
 * `prompts` (an implementation of `JobPrompts` / `UndoPrompts`, in part), through the API the
 * extension exports; the modal dialogs come back afterwards, also when `run` fails.
 */
export async function answering<T>(prompts: ScriptedPrompts, run: () => Thenable<T> | Promise<T>): Promise<T> {
  const api = (await activateExtension()).exports as WorkItemStudioApi | undefined;
  if (!api) throw new Error(`${EXTENSION_ID} exports no test hooks: run VS Code with WIS_TEST_HOOKS=1 or the extension in development or test mode`);
  api.setPrompts(prompts);
  try {
    return await run();
  } finally {
    api.setPrompts(undefined);
  }
}

/** The manifest (package.json) of the extension as installed, read at run time. */
export function manifest(): Manifest {
  return extension().packageJSON as Manifest;
}

export interface Manifest {
  name: string;
  publisher: string;
  version: string;
  contributes?: {
    commands?: { command: string; title?: string }[];
    menus?: Record<string, { command?: string; submenu?: string; when?: string }[]>;
    keybindings?: { command: string }[];
    views?: Record<string, { id: string; name?: string }[]>;
    viewsWelcome?: { view: string; contents: string }[];
    jsonValidation?: { fileMatch: string | string[]; url: string }[];
    configuration?: unknown;
  };
}

/**
 * Polls `probe` until it returns a value other than `undefined`/`false`, or fails after `timeoutMs`
 * with `what` in the message (a wait never hangs a suite).
 */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 20_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (e) {
      lastError = e;
    }
    if (Date.now() > deadline) {
      const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${cause}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** The first workspace folder; both runners open one (see test/runners/workspace.mjs). */
export function workspaceFolder(): vscode.WorkspaceFolder {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder is open; the test runner must open one');
  return folder;
}

/** Waits until `uri` has at least one diagnostic (from any source) and returns them. */
export async function waitForDiagnostics(uri: vscode.Uri, timeoutMs = 30_000): Promise<vscode.Diagnostic[]> {
  return waitFor(
    `diagnostics for ${uri.fsPath}`,
    () => {
      const d = vscode.languages.getDiagnostics(uri);
      return d.length > 0 ? d : undefined;
    },
    timeoutMs,
  );
}

/** Reverts and closes every untitled document, so closing them never asks to save. */
/**
 * Reverts and closes every document with unsaved changes (files and untitled ones), so that a
 * later "close all editors" never meets a "Save changes?" dialog that would hold every suite after it.
 */
export async function revertDirtyDocuments(): Promise<void> {
  for (const doc of vscode.workspace.textDocuments.filter((d) => d.isDirty && !d.isClosed)) {
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
}

export async function closeUntitledDocuments(): Promise<void> {
  for (const doc of vscode.workspace.textDocuments.filter((d) => d.isUntitled && !d.isClosed)) {
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
}

/**
 * Replaces a document's whole text through a workspace edit (not `TextEditor.edit`, which
 * answers false and changes nothing when the document changed since the editor was handed
 * over, e.g. by the command that filled it) and fails when the document does not hold the
 * new text after three tries.
 */
export async function replaceDocumentText(doc: vscode.TextDocument, text: string): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), text);
    await vscode.workspace.applyEdit(edit);
    if (doc.getText() === text) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the edit of ${doc.uri.toString()} was not applied: the document holds ${JSON.stringify(doc.getText().slice(0, 200))}`);
}
