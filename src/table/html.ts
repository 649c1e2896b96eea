// The work item table's page: a strict Content-Security-Policy (scripts only with the
// page's nonce, styles only from the extension), the script and style of media/table/
// loaded with asWebviewUri. No row is in this HTML: rows come as messages.
import * as crypto from 'node:crypto';
import * as vscode from 'vscode';
import { core } from '../core/load';

export function tableHtml(webview: vscode.Webview, extensionUri: vscode.Uri, title: string): string {
  const nonce = crypto.randomBytes(16).toString('base64');
  const media = (f: string) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'table', f)).toString();
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const lang = vscode.env.language.startsWith('ja') ? 'ja' : 'en';
  return `<!DOCTYPE html>
<html lang="${lang}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${webview.cspSource}; script-src 'nonce-${nonce}'; img-src ${webview.cspSource};">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${media('table.css')}">
<title>${esc(title)}</title>
</head>
<body>
${core().TABLE_PAGE_BODY}
${core().TABLE_SCRIPTS.map((f) => `<script nonce="${nonce}" src="${media(f)}"></script>`).join('\n')}
</body>
</html>`;
}
