// The request document a command acts on when it is run without an argument (from the command
// palette or a keybinding): the one of the active editor tab. A tab shows as soon as a file is
// opened, but its text editor (vscode.window.activeTextEditor) only once the file has been read,
// which takes a moment on a busy or remote machine: a command run in between uses the tab's file
// (read here first), not "no request document open", nor the editor of the file shown before.
import * as vscode from 'vscode';
import { isRequestDocument, isRequestDocumentUri } from './requestDocument';

/**
 * What the active tab shows: a text file (its URI), the active text editor's document (a diff,
 * or no tab at all: the text editor decides, as before), or something else (a webview, a custom
 * editor, a notebook, a terminal): never a request document.
 */
function activeTabTarget(): { uri: vscode.Uri } | 'editor' | 'other' {
  const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
  if (!tab) return 'editor';
  if (tab.input instanceof vscode.TabInputText) return { uri: tab.input.uri };
  if (tab.input instanceof vscode.TabInputTextDiff) return 'editor';
  return 'other';
}

function activeEditorRequestDocument(): vscode.TextDocument | undefined {
  const editor = vscode.window.activeTextEditor;
  return editor && isRequestDocument(editor.document) ? editor.document : undefined;
}

/** Whether the active tab shows a request document (also while its file is still being read). */
export function requestDocumentActive(): boolean {
  const target = activeTabTarget();
  if (target === 'other') return false;
  if (target === 'editor') return !!activeEditorRequestDocument();
  return isRequestDocumentUri(target.uri);
}

/**
 * The request document of the active tab, waiting for its file to be read when its editor does
 * not have it yet; undefined when the active tab shows something else (another file, a webview).
 * Without a text tab (a diff, or no tab), the active text editor's, when it is a request document.
 */
export async function activeRequestDocument(): Promise<vscode.TextDocument | undefined> {
  const target = activeTabTarget();
  if (target === 'other') return undefined;
  if (target === 'editor') return activeEditorRequestDocument();
  const { uri } = target;
  if (!isRequestDocumentUri(uri)) return undefined;
  const key = uri.toString();
  const editor = vscode.window.activeTextEditor;
  if (editor?.document.uri.toString() === key) return editor.document;
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === key) ?? vscode.workspace.openTextDocument(uri);
}
