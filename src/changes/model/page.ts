// The before/after preview page: the same strict CSP, styles and table as the
// result view (src/webview/html.ts, src/webview/changeTable.ts), with Refresh and Send.
// Its script and styles are files of media/changes/. No vscode import.
import { CHANGE_TABLE_SCRIPTS, CHANGE_TABLE_STYLES } from '../../webview/changeTable';
import { escapeHtml, RELATIVE_MEDIA, scriptTag, webviewHead, type MediaUri } from '../../webview/html';

const esc = escapeHtml;

export interface ChangesPageInput {
  title: string;
  /** Lines under the title (service, document, items and read requests, when read). */
  lines: string[];
  /** The last line, while the values are still being read (replaced by the page when they are: media/changes/page.js). */
  status?: string;
  /** The table section (changeTableSection: its rows posted when the page asks), or a message when the values could not be read. */
  section: string;
  buttons: { command: string; label: string; secondary?: boolean; disabled?: boolean; title?: string }[];
  nonce: string;
  cspSource: string;
  /** The panel's address of a media/ file (asWebviewUri); relative addresses when not given (tests). */
  media?: MediaUri;
  /** The document previewed: kept in the webview state. */
  documentUri?: string;
  /** When the document was sent after these values were read (ISO time): the view sends no more. */
  sentAt?: string;
  /** This page's mark: it asks for its table with it, and messages for another page are ignored (media/changes/page.js). */
  page?: string;
}

export function renderChangesPage(input: ChangesPageInput): string {
  const buttons = input.buttons
    .map((b) => `<button data-command="${esc(b.command)}"${b.secondary ? ' class="secondary"' : ''}${b.disabled ? ' disabled aria-disabled="true"' : ''}${b.title ? ` title="${esc(b.title)}"` : ''}>${esc(b.label)}</button>`)
    .join('');
  const media = input.media ?? RELATIVE_MEDIA;
  const scripts = ['changes/page.js', ...CHANGE_TABLE_SCRIPTS].map((f) => scriptTag(media, input.nonce, f)).join('\n');
  return `${webviewHead({ title: input.title, nonce: input.nonce, cspSource: input.cspSource, media, styles: CHANGE_TABLE_STYLES })}
</head>
<body data-document="${esc(input.documentUri ?? '')}"${input.sentAt ? ` data-sent="${esc(input.sentAt)}"` : ''}${input.page ? ` data-page="${esc(input.page)}"` : ''}>
<h1>${esc(input.title)}</h1>
<p>${input.lines.map(esc).join('<br>')}${input.status !== undefined ? `<br><span id="wis-status">${esc(input.status)}</span>` : ''}</p>
<div class="actions">${buttons}</div>
${input.section}
${scripts}
</body></html>`;
}

/** A short message in place of the table (e.g. the values could not be read). */
export function messageSection(heading: string, text: string): string {
  return `<section id="wis-changes"><h2>${esc(heading)}</h2><p class="muted">${esc(text)}</p></section>`;
}
