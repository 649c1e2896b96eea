// media/ of this extension for webviews: their scripts and styles are files loaded with
// asWebviewUri (src/webview/html.ts builds the pages), with media/ as the local resource root.
import * as path from 'node:path';
import * as vscode from 'vscode';

/** media/ of this extension. */
export function mediaRoot(): vscode.Uri {
  const ext = vscode.extensions.getExtension('workitem-studio.workitem-studio')?.extensionUri ?? vscode.Uri.file(path.join(__dirname, '..'));
  return vscode.Uri.joinPath(ext, 'media');
}

/** The webview's address of a media/ file (e.g. `changes/page.css`). */
export function mediaUri(webview: vscode.Webview): (file: string) => string {
  const root = mediaRoot();
  return (file) => webview.asWebviewUri(vscode.Uri.joinPath(root, ...file.split('/'))).toString();
}
