// The before/after preview page: the same strict CSP, styles and table as the
// result view (src/webview/html.ts, src/webview/changeTable.ts), with Refresh and Send.
// No vscode import.
import { CHANGE_TABLE_CSS, CHANGE_TABLE_SCRIPT } from '../../webview/changeTable';
import { escapeHtml, webviewHead } from '../../webview/html';

const esc = escapeHtml;

export interface ChangesPageInput {
  title: string;
  /** Lines under the title (service, document, items and read requests, when read). */
  lines: string[];
  /** The table section (renderChangeTable), or a message when the values could not be read. */
  section: string;
  buttons: { command: string; label: string; secondary?: boolean; disabled?: boolean; title?: string }[];
  nonce: string;
  cspSource: string;
  /** The document previewed: kept in the webview state. */
  documentUri?: string;
  /** When the document was sent after these values were read (ISO time): the view sends no more. */
  sentAt?: string;
}

export function renderChangesPage(input: ChangesPageInput): string {
  const buttons = input.buttons
    .map((b) => `<button data-command="${esc(b.command)}"${b.secondary ? ' class="secondary"' : ''}${b.disabled ? ' disabled aria-disabled="true"' : ''}${b.title ? ` title="${esc(b.title)}"` : ''}>${esc(b.label)}</button>`)
    .join('');
  return `${webviewHead({ title: input.title, nonce: input.nonce, cspSource: input.cspSource })}
<style nonce="${input.nonce}">
${CHANGE_TABLE_CSS}
</style></head>
<body data-document="${esc(input.documentUri ?? '')}"${input.sentAt ? ` data-sent="${esc(input.sentAt)}"` : ''}>
<h1>${esc(input.title)}</h1>
<p>${input.lines.map(esc).join('<br>')}</p>
<div class="actions">${buttons}</div>
${input.section}
<script nonce="${input.nonce}">
const vscode = acquireVsCodeApi();
vscode.setState(document.body.dataset.document ? { document: document.body.dataset.document } : {});
document.querySelectorAll('button[data-command]').forEach((b) => b.addEventListener('click', () => { if (!b.disabled) vscode.postMessage({ command: b.dataset.command }); }));
${CHANGE_TABLE_SCRIPT}
</script>
</body></html>`;
}

/** A short message in place of the table (e.g. the values could not be read). */
export function messageSection(heading: string, text: string): string {
  return `<section id="wis-changes"><h2>${esc(heading)}</h2><p class="muted">${esc(text)}</p></section>`;
}
