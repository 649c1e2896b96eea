// The Before/After view's page script: keeps the document previewed in the webview state
// (the view comes back after a window reload), posts button clicks (not of disabled buttons),
// and, for a table whose rows are posted (a section with data-rows="posted"), asks the extension
// for it once the page is loaded and paints what comes (media/changes/table.js `wisTable`):
// the settings and first rows, then every row (UTF-8 JSON bytes), or for a table still being read
// its rows batch by batch (appended) and its counts and lines when the last read is done; then
// names learned later.
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
  /** @type {{all(rows: any[]): void, append(from: number, rows: any[]): void, people(names: Record<string, string>): void} | undefined} */
  let table;
  /** The fields' system names and the names people read (the table's settings), for the counts. @type {{fields: string[], labels?: string[]}} */
  let names = { fields: [] };
  /** The counts, lines and read line of a table read batch by batch, once every read is done. @param {{counts: {field: string, changes: number, unchanged: number, computed: number}[], lines: {text: string, level: string}[], status: string}} s */
  const summary = (s) => {
    const counts = document.getElementById('wis-counts-body');
    if (counts) {
      counts.textContent = '';
      for (const c of s.counts) {
        const tr = document.createElement('tr');
        const at = names.fields.indexOf(c.field), label = (names.labels && names.labels[at]) || c.field;
        const th = document.createElement('th'); th.textContent = label; th.title = c.field; tr.appendChild(th);
        for (const n of [c.changes, c.unchanged, c.computed]) { const td = document.createElement('td'); td.textContent = String(n); tr.appendChild(td); }
        counts.appendChild(tr);
      }
    }
    const lines = document.getElementById('wis-lines');
    if (lines) {
      lines.textContent = '';
      for (const l of s.lines) { const li = document.createElement('li'); li.className = l.level; li.textContent = l.text; lines.appendChild(li); }
    }
    const status = document.getElementById('wis-status');
    if (status) status.textContent = s.status;
    document.body.dataset.summary = '1';
  };
  window.addEventListener('message', (e) => {
    const m = e.data;
    if (typeof m !== 'object' || m === null || m.page !== page) return;
    if (m.type === 'table') { names = m.head; table = wisTable(m.head); }
    else if (m.type === 'rows' && table) table.all(JSON.parse(new TextDecoder().decode(m.rows)));
    else if (m.type === 'more' && table) table.append(m.from, JSON.parse(new TextDecoder().decode(m.rows)));
    else if (m.type === 'summary') summary(m.summary);
    else if (m.type === 'people' && table) table.people(m.people);
  });
  // Asked once every script of the page is there (wisTable is in table.js, after this one).
  const ask = () => vscode.postMessage({ command: 'ready', page });
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', ask);
  else ask();
})();
