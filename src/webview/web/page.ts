// What the Before/After view's page and the result view's page share: the buttons (a click
// posts the button's name, not of a disabled button), and the before/after table, either in
// the page (a section with data-rows="embedded": #wis-head and #wis-data JSON, painted at once)
// or posted (data-rows="posted": the page asks for it with its page mark once loaded and paints
// what comes: the head and first rows, then every row as UTF-8 JSON bytes, or for a table still
// being read its rows batch by batch and its counts and lines when the last read is done; then
// names learned later). Messages for another page (one replaced since) are ignored.
import type { ChangeTableHead, ChangeTableMessage, CommandMessage, ItemRow, TableRequest, TableSummary } from '../protocol';
import { changeGrid } from './grid';
import { PostedTablePage, pressed, tableAsk, type SummaryRow } from './posted';

/** The buttons of the page: a click posts what {@link pressed} says. */
export function wireButtons<N extends string>(names: readonly N[], post: (m: CommandMessage<N>) => void): void {
  document.querySelectorAll<HTMLButtonElement>('button[data-command]').forEach((b) =>
    b.addEventListener('click', () => {
      const m = pressed(names, { command: b.dataset.command, disabled: b.disabled });
      if (m) post(m);
    }),
  );
}

/** The counts, lines and read line of a table read batch by batch, painted once every read is done. */
function paintSummary(rows: SummaryRow[], s: TableSummary): void {
  const counts = document.getElementById('wis-counts-body');
  if (counts) {
    counts.textContent = '';
    for (const r of rows) {
      const tr = document.createElement('tr');
      const th = document.createElement('th');
      th.textContent = r.label;
      th.title = r.field;
      tr.append(th);
      for (const n of r.counts) {
        const td = document.createElement('td');
        td.textContent = String(n);
        tr.append(td);
      }
      counts.append(tr);
    }
  }
  const lines = document.getElementById('wis-lines');
  if (lines) {
    lines.textContent = '';
    for (const l of s.lines) {
      const li = document.createElement('li');
      li.className = l.level;
      li.textContent = l.text;
      lines.append(li);
    }
  }
  const status = document.getElementById('wis-status');
  if (status) status.textContent = s.status;
  document.body.dataset.summary = '1';
}

/** A posted table: asks for it once the page is loaded, and paints what comes for this page. */
export function startPostedTable(post: (m: TableRequest) => void, onMessage: (handle: (m: ChangeTableMessage) => void) => void): void {
  const request = tableAsk(document.body.dataset.page, document.getElementById('wis-changes')?.dataset.rows);
  if (!request) return;
  const table = new PostedTablePage(request.page, changeGrid, paintSummary);
  onMessage((m) => table.receive(m));
  const ask = (): void => post(request);
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', ask);
  else ask();
}

/** A table in the page (the result view): painted now, every row after the first paint (the first rows are in #wis-head). */
export function startEmbeddedTable(): void {
  const data = document.getElementById('wis-data');
  const head = document.getElementById('wis-head');
  if (!data || !head) return;
  const grid = changeGrid(JSON.parse(head.textContent ?? '') as ChangeTableHead);
  requestAnimationFrame(() => setTimeout(() => grid.all((JSON.parse(data.textContent ?? '') as { rows: ItemRow[] }).rows), 0));
}
