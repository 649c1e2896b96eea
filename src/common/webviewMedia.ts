// The files of this extension that webviews load: their styles (media/) and their scripts (the
// page bundles, dist/web/), loaded with asWebviewUri; those two folders are the webviews' local
// resource roots (src/webview/html.ts builds the pages).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { WEBVIEW_FOLDERS } from '../webview/html';

/** The folder of this extension. */
function extensionRoot(): vscode.Uri {
  return vscode.extensions.getExtension('workitem-studio.workitem-studio')?.extensionUri ?? vscode.Uri.file(path.join(__dirname, '..'));
}

/** The folders a webview may load files from. */
export function webviewRoots(): vscode.Uri[] {
  const root = extensionRoot();
  return WEBVIEW_FOLDERS.map((f) => vscode.Uri.joinPath(root, ...f.split('/')));
}

/** The webview's address of a file of the extension, by its path in the extension's folder (e.g. `media/changes/page.css`). */
export function assetUri(webview: vscode.Webview): (file: string) => string {
  const root = extensionRoot();
  return (file) => webview.asWebviewUri(vscode.Uri.joinPath(root, ...file.split('/'))).toString();
}
