// The before/after table's grid in the page (the Before/After view and the result view):
// paints the table of a head (ChangeTableHead: columns, words, names, the first rows) in
// #wis-grid, only the rows in sight, with the filter tools, and records the first paint time
// in `document.body.dataset.firstPaintMs` (the benchmark reads it). What is painted is said by
// gridRows.ts (rows, filter, count) and cells.ts (texts, hovers); this file puts it in the DOM.
import type { ChangeTableHead, ItemRow } from '../protocol';
import { headerCells, hasNameColumn, rowCells, type CellView } from './cells';
import { GridRows, type RowFilter, type RowsChange } from './gridRows';
import type { ChangeGrid } from './posted';

const byId = <T extends HTMLElement>(id: string): T | null => document.getElementById(id) as T | null;

function paintCell(el: HTMLElement, c: CellView): void {
  el.className = c.className;
  el.title = c.title;
  if (!c.change) {
    el.textContent = c.text ?? '';
    return;
  }
  el.textContent = '';
  const before = document.createElement('span');
  before.textContent = c.change.before;
  const arrow = document.createElement('span');
  arrow.className = 'arrow';
  arrow.textContent = '→';
  const after = document.createElement('span');
  after.className = 'a';
  after.textContent = c.change.after;
  el.append(before, arrow, after);
}

export function changeGrid(d: ChangeTableHead): ChangeGrid {
  const t0 = performance.now();
  const grid = byId<HTMLElement>('wis-grid');
  if (!grid) return { all: () => undefined, append: () => undefined, people: () => undefined };
  grid.textContent = '';
  const H = d.h;
  const model = new GridRows(d);
  const columns = d.fields.length + (hasNameColumn(d.fields) ? 3 : 2);
  const template = `minmax(5em,8em) ${hasNameColumn(d.fields) ? 'minmax(7em,14em) ' : ''}${d.fields.map(() => 'minmax(15em,1fr)').join(' ')} minmax(10em,2fr)`;
  const head = document.createElement('div');
  head.className = 'wis-head';
  head.setAttribute('role', 'row');
  head.style.gridTemplateColumns = template;
  for (const h of headerCells(d)) {
    const c = document.createElement('div');
    c.setAttribute('role', 'columnheader');
    c.textContent = h.text;
    c.title = h.title;
    head.append(c);
  }
  const body = document.createElement('div');
  body.style.position = 'relative';
  grid.append(head, body);
  const pool: HTMLDivElement[] = [];
  const shown = byId<HTMLElement>('wis-shown');
  const filter = byId<HTMLSelectElement>('wis-filter');
  const search = byId<HTMLInputElement>('wis-search');

  function make(): HTMLDivElement {
    const div = document.createElement('div');
    div.setAttribute('role', 'row');
    div.style.gridTemplateColumns = template;
    // Rows of a table hold cells (role: screen readers read them by column).
    for (let i = 0; i < columns; i++) {
      const cell = document.createElement('div');
      cell.setAttribute('role', 'cell');
      div.append(cell);
    }
    body.append(div);
    return div;
  }

  function render(): void {
    body.style.height = `${model.rows.length * H}px`;
    const { first, count } = model.inSight(grid!.scrollTop, grid!.clientHeight, H);
    for (let i = 0; i < count; i++) {
      const div = (pool[i] ??= make());
      const r = model.rows[first + i];
      if (!r) {
        div.style.display = 'none';
        continue;
      }
      div.style.display = '';
      div.style.top = `${(first + i) * H}px`;
      div.className = `wis-row${r.flagged ? ' flag' : ''}`;
      const cells = rowCells(d, r);
      const k = div.children;
      for (let c = 0; c < cells.length; c++) paintCell(k[c] as HTMLElement, cells[c]!);
    }
    if (shown) shown.textContent = model.shownText(shown.dataset.template ?? '');
  }

  /** Paints after a change of the rows (from the top for a new filter or every row). */
  function changed(change: RowsChange): void {
    if (change === 'later') return;
    if (change === 'top') grid!.scrollTop = 0;
    render();
    Object.assign(document.body.dataset, model.marks());
  }

  const applyFilter = (): void => changed(model.setFilter((filter?.value ?? 'all') as RowFilter, search?.value ?? ''));
  grid.addEventListener('scroll', () => requestAnimationFrame(render));
  filter?.addEventListener('change', applyFilter);
  search?.addEventListener('input', applyFilter);
  window.addEventListener('resize', render);
  render();
  requestAnimationFrame(() => {
    document.body.dataset.firstPaintMs = String(Math.round(performance.now()));
    document.body.dataset.scriptMs = String(Math.round(performance.now() - t0));
    document.body.dataset.rows = String(d.total);
    // Every row, after the first paint.
    setTimeout(() => {
      for (const change of model.firstPaintDone()) changed(change);
    }, 0);
  });
  return {
    all: (rows) => changed(model.takeAll(rows)),
    append: (from, rows) => changed(model.append(from, rows)),
    people: (names) => {
      d.people = names;
      render();
    },
  };
}
