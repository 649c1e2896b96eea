// The shared pieces of our webview pages: HTML escaping and the page head (strict
// CSP, title, the styles every page shares). No vscode import (model code only).
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The styles every page of ours shares (body, tables, action buttons, muted text). */
const PAGE_CSS = `body{font-family:var(--vscode-font-family);font-size:var(--vscode-font-size);color:var(--vscode-foreground);padding:0 16px 24px}
table{border-collapse:collapse;margin:4px 0 12px}th,td{text-align:left;padding:3px 10px;border-bottom:1px solid var(--vscode-editorWidget-border,#8884);vertical-align:top}
.actions{display:flex;gap:8px;flex-wrap:wrap;margin:8px 0 16px}
button{background:var(--vscode-button-background);color:var(--vscode-button-foreground);border:none;padding:5px 12px;cursor:pointer}
button:hover{background:var(--vscode-button-hoverBackground)}
button.secondary{background:var(--vscode-button-secondaryBackground);color:var(--vscode-button-secondaryForeground)}
.muted{opacity:.75}`;

/**
 * The start of a webview page of ours, up to its own styles: the strict CSP (no remote
 * resources; styles and scripts only with the page's nonce or from the extension), the
 * title and the shared styles. The caller adds a `<style nonce>` of its own, `</head>` and the body.
 */
export function webviewHead(p: { title: string; nonce: string; cspSource: string }): string {
  const csp = `default-src 'none'; style-src ${p.cspSource} 'nonce-${p.nonce}'; script-src 'nonce-${p.nonce}'; img-src ${p.cspSource}`;
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(p.title)}</title>
<style nonce="${p.nonce}">
${PAGE_CSS}
</style>`;
}
