// Opens a new, unsaved request document (`*.workitems.json`, built with
// createRequestDocument from src/schema/document.ts) so the request-document
// features (validation, preview, send) apply to it. Used by "New Work Item Update"
// and "Assign to Work Items…".
import * as vscode from 'vscode';
import { REQUEST_DOCUMENT_SUFFIX } from '../schema/suffix';
import type { Template } from '../schema/render';
import { core } from '../core/load';

/** Untitled paths handed out in this session: never handed out again. */
const handedOut = new Set<string>();

/**
 * A free `untitled:<folder>/<baseName>-N.workitems.json` (in the first workspace
 * folder when it is on disk, so saving offers that folder). A name is not used twice
 * in a session, even after its document was closed: the window may still hold the
 * closed document's text under that name for a moment, and a new document of the
 * same name would show it.
 */
export function untitledRequestUri(baseName: string, plainFirst = false): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  const dir = folder && folder.uri.scheme === 'file' ? folder.uri.path.replace(/\/+$/, '') : '';
  const open = new Set(vscode.workspace.textDocuments.map((d) => d.uri.path));
  // plainFirst: `<baseName>.workitems.json` when free (names that carry their own number, e.g. undo-1-of-3), else -2, -3, ...
  for (let n = 1; ; n++) {
    const p = plainFirst && n === 1 ? `${dir}/${baseName}${REQUEST_DOCUMENT_SUFFIX}` : `${dir}/${baseName}-${n}${REQUEST_DOCUMENT_SUFFIX}`;
    if (open.has(p) || handedOut.has(p)) continue;
    handedOut.add(p);
    return vscode.Uri.from({ scheme: 'untitled', path: p });
  }
}

/**
 * Opens a new untitled request document with `document` inserted as a snippet:
 * placeholders are tab stops, and the cursor starts on the first (the placeholder
 * ID when the document has no IDs yet). Returns the editor.
 */
export async function openNewRequestDocument(document: Template, baseName: string, plainFirst = false): Promise<vscode.TextEditor> {
  let doc = await vscode.workspace.openTextDocument(untitledRequestUri(baseName, plainFirst));
  if (doc.languageId !== 'json') doc = await vscode.languages.setTextDocumentLanguage(doc, 'json');
  const editor = await vscode.window.showTextDocument(doc, { preview: false });
  const filled = untilFilled(doc);
  const inserted = await editor.insertSnippet(new vscode.SnippetString(core().renderDocument(document, { snippet: true })), new vscode.Position(0, 0));
  if (!inserted && doc.getText() === '') {
    // The editor refused the snippet (it lost its place meanwhile): the same text, without tab stops.
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(0, 0), core().renderDocument(document));
    await vscode.workspace.applyEdit(edit);
  }
  // The caller reads and edits the document next: it must hold the text already.
  await filled;
  return editor;
}

/** Resolves once `doc` holds some text (at most `ms` later: a document that stays empty is the caller's to handle). */
function untilFilled(doc: vscode.TextDocument, ms = 5_000): Promise<void> {
  if (doc.getText() !== '') return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      sub.dispose();
      resolve();
    };
    const sub = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document === doc && doc.getText() !== '') done();
    });
    const timer = setTimeout(done, ms);
  });
}
