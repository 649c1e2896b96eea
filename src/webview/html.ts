// The shared pieces of our webview pages: HTML escaping and the page head (strict
// CSP, title, the stylesheets of media/). No vscode import (model code only).
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A file of media/ as the webview loads it (e.g. `changes/page.css`): the panel's `asWebviewUri`. */
export type MediaUri = (file: string) => string;

/** Where the model code's pages load media/ when no panel says (a relative address: unit tests only). */
export const RELATIVE_MEDIA: MediaUri = (file) => `media/${file}`;

/**
 * The start of a webview page of ours, up to its stylesheets: the strict CSP (no remote
 * resources, no inline style; stylesheets only from the extension, scripts only with the
 * page's nonce), the title, the shared styles (media/changes/page.css) and the page's own
 * stylesheets. The caller adds `</head>`, the body and its `<script nonce src>` elements ({@link scriptTag}).
 */
export function webviewHead(p: { title: string; nonce: string; cspSource: string; media: MediaUri; styles: readonly string[] }): string {
  const csp = `default-src 'none'; style-src ${p.cspSource}; script-src 'nonce-${p.nonce}'; img-src ${p.cspSource}`;
  const links = ['changes/page.css', ...p.styles].map((f) => `<link rel="stylesheet" href="${escapeHtml(p.media(f))}">`).join('\n');
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(p.title)}</title>
${links}`;
}

/** A script of media/ (e.g. `changes/table.js`) with the page's nonce. */
export function scriptTag(media: MediaUri, nonce: string, file: string): string {
  return `<script nonce="${nonce}" src="${escapeHtml(media(file))}"></script>`;
}
