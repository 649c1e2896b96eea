// The before/after preview page: the same strict CSP, styles and table as the
// result view (src/webview/html.ts, src/webview/changeTable.ts), with Refresh and Send.
// Its styles are files of media/changes/, its script the page's bundle (src/changes/web/). No vscode import.
import { CHANGE_TABLE_STYLES } from '../../webview/changeTable';
import { escapeHtml, PAGE_SCRIPTS, RELATIVE_ASSETS, scriptTag, webviewHead, type AssetUri } from '../../webview/html';
import type { PreviewButtonName } from './protocol';

const esc = escapeHtml;

export interface ChangesPageInput {
  title: string;
  /** Lines under the title (service, document, items and read requests, when read). */
  lines: string[];
  /** The last line, while the values are still being read (replaced by the page when they are: src/webview/web/page.ts). */
  status?: string;
  /** The table section (changeTableSection: its rows posted when the page asks), or a message when the values could not be read. */
  section: string;
  buttons: { command: PreviewButtonName; label: string; secondary?: boolean; disabled?: boolean; title?: string }[];
  nonce: string;
  cspSource: string;
  /** The panel's address of a file of the extension (asWebviewUri); relative addresses when not given (tests). */
  assets?: AssetUri;
  /** The document previewed: kept in the webview state. */
  documentUri?: string;
  /** When the document was sent after these values were read (ISO time): the view sends no more. */
  sentAt?: string;
  /** This page's mark: it asks for its table with it, and messages for another page are ignored (src/webview/web/page.ts). */
  page?: string;
  /** The language of the page's text (the UI's: `lang` of the page, for screen readers). */
  lang?: string;
}

export function renderChangesPage(input: ChangesPageInput): string {
  const buttons = input.buttons
    .map((b) => `<button data-command="${esc(b.command)}"${b.secondary ? ' class="secondary"' : ''}${b.disabled ? ' disabled aria-disabled="true"' : ''}${b.title ? ` title="${esc(b.title)}"` : ''}>${esc(b.label)}</button>`)
    .join('');
  const assets = input.assets ?? RELATIVE_ASSETS;
  return `${webviewHead({ title: input.title, nonce: input.nonce, cspSource: input.cspSource, assets, styles: CHANGE_TABLE_STYLES, ...(input.lang ? { lang: input.lang } : {}) })}
</head>
<body data-document="${esc(input.documentUri ?? '')}"${input.sentAt ? ` data-sent="${esc(input.sentAt)}"` : ''}${input.page ? ` data-page="${esc(input.page)}"` : ''}>
<h1>${esc(input.title)}</h1>
<p>${input.lines.map(esc).join('<br>')}${input.status !== undefined ? `<br><span id="wis-status">${esc(input.status)}</span>` : ''}</p>
<div class="actions">${buttons}</div>
${input.section}
${scriptTag(assets, input.nonce, PAGE_SCRIPTS.changes)}
</body></html>`;
}

/** A short message in place of the table (e.g. the values could not be read). */
export function messageSection(heading: string, text: string): string {
  return `<section id="wis-changes"><h2>${esc(heading)}</h2><p class="muted">${esc(text)}</p></section>`;
}
