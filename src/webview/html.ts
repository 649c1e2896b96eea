// The shared pieces of our webview pages: HTML escaping and the page head (strict
// CSP, title, the stylesheets of media/), the page scripts (the bundles of the `web/`
// folders, dist/web/). No vscode import (model code only).
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * A file of the extension as the webview loads it, by its path in the extension's folder
 * (`media/changes/page.css`, `dist/web/changes.js`): the panel's `asWebviewUri`.
 */
export type AssetUri = (file: string) => string;

/** Where the model code's pages load their files when no panel says (relative addresses: unit tests only). */
export const RELATIVE_ASSETS: AssetUri = (file) => file;

/**
 * The page scripts, one bundle per page (esbuild.js builds them from the `web/` folders for the
 * browser); the panels allow their folder as a local resource root beside media/.
 */
export const PAGE_SCRIPTS = {
  table: 'dist/web/table.js',
  changes: 'dist/web/changes.js',
  results: 'dist/web/results.js',
} as const;

/** The folders a webview of ours loads files from (its local resource roots). */
export const WEBVIEW_FOLDERS: readonly string[] = ['media', 'dist/web'];

/**
 * The start of a webview page of ours, up to its stylesheets: the strict CSP (no remote
 * resources, no inline style; stylesheets only from the extension, scripts only with the
 * page's nonce), the title, the shared styles (media/changes/page.css) and the page's own
 * stylesheets. The caller adds `</head>`, the body and its `<script nonce src>` element ({@link scriptTag}).
 */
export function webviewHead(p: { title: string; nonce: string; cspSource: string; assets: AssetUri; styles: readonly string[]; lang?: string }): string {
  const csp = `default-src 'none'; style-src ${p.cspSource}; script-src 'nonce-${p.nonce}'; img-src ${p.cspSource}`;
  const links = ['media/changes/page.css', ...p.styles].map((f) => `<link rel="stylesheet" href="${escapeHtml(p.assets(f))}">`).join('\n');
  return `<!DOCTYPE html>
<html lang="${escapeHtml(p.lang ?? 'en')}"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(p.title)}</title>
${links}`;
}

/** A page script (one of {@link PAGE_SCRIPTS}) with the page's nonce. */
export function scriptTag(assets: AssetUri, nonce: string, file: string): string {
  return `<script nonce="${nonce}" src="${escapeHtml(assets(file))}"></script>`;
}
