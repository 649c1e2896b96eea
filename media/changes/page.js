// The Before/After view's page script: keeps the document previewed in the webview state
// (the view comes back after a window reload), posts button clicks (not of disabled buttons),
// and, for a table whose rows are posted (a section with data-rows="posted"), asks the extension
// for it once the page is loaded and paints what comes (media/changes/table.js `wisTable`):
// the settings and first rows, then every row (UTF-8 JSON bytes), then names learned later.
// Messages name the page they are for (body data-page): those for another page are ignored.
// @ts-check
/* global wisTable */
(function () {
  // @ts-ignore acquireVsCodeApi is given by the webview host
  const vscode = acquireVsCodeApi();
  vscode.setState(document.body.dataset.document ? { document: document.body.dataset.document } : {});
  document.querySelectorAll('button[data-command]').forEach((b) => b.addEventListener('click', () => { if (!(/** @type {HTMLButtonElement} */ (b)).disabled) vscode.postMessage({ command: /** @type {HTMLElement} */ (b).dataset.command }); }));
  const page = document.body.dataset.page;
  const section = document.getElementById('wis-changes');
  if (!page || !section || section.dataset.rows !== 'posted') return;
  /** @type {{all(rows: any[]): void, people(names: Record<string, string>): void} | undefined} */
  let table;
  window.addEventListener('message', (e) => {
    const m = e.data;
    if (typeof m !== 'object' || m === null || m.page !== page) return;
    if (m.type === 'table') table = wisTable(m.head);
    else if (m.type === 'rows' && table) table.all(JSON.parse(new TextDecoder().decode(m.rows)));
    else if (m.type === 'people' && table) table.people(m.people);
  });
  // Asked once every script of the page is there (wisTable is in table.js, after this one).
  const ask = () => vscode.postMessage({ command: 'ready', page });
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', ask);
  else ask();
})();
