// Opens a new, unsaved request document (`*.workitems.json`, the shape of
// src/schema/document.ts) with a body filled in, so the request-document features
// (validation, preview, send) apply to it. Views use it for "Assign to Work Items…".
import * as vscode from 'vscode';

export interface NewRequestDocument {
  description?: string;
  workItemIds: (string | number)[] | string;
  update: Record<string, unknown>;
}

/**
 * Opens `untitled:<baseName>[-n].workitems.json` with the document as JSON and puts
 * the cursor inside "workItemIds". Returns the editor.
 */
export async function openNewRequestDocument(body: NewRequestDocument, baseName: string): Promise<vscode.TextEditor> {
  const open = new Set(vscode.workspace.textDocuments.map((d) => d.uri.toString()));
  let uri: vscode.Uri;
  for (let n = 1; ; n++) {
    uri = vscode.Uri.from({ scheme: 'untitled', path: `${baseName}${n === 1 ? '' : `-${n}`}.workitems.json` });
    if (!open.has(uri.toString())) break;
  }
  const text = JSON.stringify(body, null, 2) + '\n';
  const doc = await vscode.workspace.openTextDocument(uri);
  const edit = new vscode.WorkspaceEdit();
  edit.insert(uri, new vscode.Position(0, 0), text);
  await vscode.workspace.applyEdit(edit);
  if (doc.languageId !== 'json') await vscode.languages.setTextDocumentLanguage(doc, 'json');
  const editor = await vscode.window.showTextDocument(doc, { preview: false });
  const at = text.indexOf('"workItemIds": [');
  if (at >= 0) {
    const pos = doc.positionAt(at + '"workItemIds": ['.length);
    editor.selection = new vscode.Selection(pos, pos);
  }
  return editor;
}
