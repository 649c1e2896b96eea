// The work item table's page: a strict Content-Security-Policy (scripts only with the
// page's nonce, styles only from the extension), the style of media/table/ and the page's
// bundle (built from src/table/web/) loaded with asWebviewUri. No row is in this HTML: rows
// come as messages.
import * as crypto from 'node:crypto';
import * as vscode from 'vscode';
import { core } from '../core/load';
import { PAGE_SCRIPTS } from '../webview/html';

/** The folders the table's webview loads files from: its style and its script. */
export function tableRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'media', 'table'), vscode.Uri.joinPath(extensionUri, 'dist', 'web')];
}

export function tableHtml(webview: vscode.Webview, extensionUri: vscode.Uri, title: string): string {
  const nonce = crypto.randomBytes(16).toString('base64');
  const file = (f: string) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...f.split('/'))).toString();
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const lang = vscode.env.language.startsWith('ja') ? 'ja' : 'en';
  return `<!DOCTYPE html>
<html lang="${lang}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${webview.cspSource}; script-src 'nonce-${nonce}'; img-src ${webview.cspSource};">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${file('media/table/table.css')}">
<title>${esc(title)}</title>
</head>
<body>
${core().TABLE_PAGE_BODY}
<script nonce="${nonce}" src="${file(PAGE_SCRIPTS.table)}"></script>
</body>
</html>`;
}
