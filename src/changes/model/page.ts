// The before/after preview page: the same strict CSP, styles and table as the
// result view (src/editors/model/results.ts, ./table.ts), with Refresh and Send.
// No vscode import.
import { CHANGE_TABLE_CSS, CHANGE_TABLE_SCRIPT } from './table';

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export interface ChangesPageInput {
  title: string;
  /** Lines under the title (service, document, items and read requests, when read). */
  lines: string[];
  /** The table section (renderChangeTable), or a message when the values could not be read. */
  section: string;
  buttons: { command: string; label: string; secondary?: boolean }[];
  nonce: string;
  cspSource: string;
  /** The document previewed: kept in the webview state. */
  documentUri?: string;
}

export function renderChangesPage(input: ChangesPageInput): string {
  const csp = `default-src 'none'; style-src ${input.cspSource} 'nonce-${input.nonce}'; script-src 'nonce-${input.nonce}'; img-src ${input.cspSource}`;
  const buttons = input.buttons.map((b) => `<button data-command="${esc(b.command)}"${b.secondary ? ' class="secondary"' : ''}>${esc(b.label)}</button>`).join('');
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(input.title)}</title>
<style nonce="${input.nonce}">
body{font-family:var(--vscode-font-family);font-size:var(--vscode-font-size);color:var(--vscode-foreground);padding:0 16px 24px}
table{border-collapse:collapse;margin:4px 0 12px}th,td{text-align:left;padding:3px 10px;border-bottom:1px solid var(--vscode-editorWidget-border,#8884);vertical-align:top}
.actions{display:flex;gap:8px;flex-wrap:wrap;margin:8px 0 16px}
button{background:var(--vscode-button-background);color:var(--vscode-button-foreground);border:none;padding:5px 12px;cursor:pointer}
button:hover{background:var(--vscode-button-hoverBackground)}
button.secondary{background:var(--vscode-button-secondaryBackground);color:var(--vscode-button-secondaryForeground)}
.muted{opacity:.75}
${CHANGE_TABLE_CSS}
</style></head>
<body data-document="${esc(input.documentUri ?? '')}">
<h1>${esc(input.title)}</h1>
<p>${input.lines.map(esc).join('<br>')}</p>
<div class="actions">${buttons}</div>
${input.section}
<script nonce="${input.nonce}">
const vscode = acquireVsCodeApi();
vscode.setState(document.body.dataset.document ? { document: document.body.dataset.document } : {});
document.querySelectorAll('button[data-command]').forEach((b) => b.addEventListener('click', () => vscode.postMessage({ command: b.dataset.command })));
${CHANGE_TABLE_SCRIPT}
</script>
</body></html>`;
}

/** A short message in place of the table (e.g. the values could not be read). */
export function messageSection(heading: string, text: string): string {
  return `<section id="wis-changes"><h2>${esc(heading)}</h2><p class="muted">${esc(text)}</p></section>`;
}
