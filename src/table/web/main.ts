// The work item table's page. Rows come from the extension in chunks (messages of
// src/table/protocol.ts); only the rows in sight are in the page (virtual.ts). The keyboard
// is a spreadsheet's (selection.ts); Enter or F2 (or a click on the focused cell, or a
// double-click) opens the cell's editor with its value (the extension answers with its kind and
// choices, or why the cell cannot be edited). Typing on the focused cell starts its editor with
// what was typed in place of the value, Japanese input (IME) included: the keyboard's focus is on
// a text box kept at the focused cell (#typer, cellEditor.ts), so a composition starts in it and
// nothing typed is lost while the editor opens. In the editor Enter commits (and moves down), Tab
// commits and moves right, Escape cancels; a value the extension refuses keeps the editor open, as
// typed, with the reason. Ctrl+C copies the selected cells as TSV, Ctrl+V pastes a TSV rectangle
// at the selection. Ctrl+Z / Ctrl+Y / Ctrl+D are keybindings of the extension that come back as
// `key` messages. Bundled by esbuild.js for the browser (dist/web/table.js).
import type { ColumnInfo, FromWebview, PageRow, TableStrings, ToWebview } from '../protocol';
import { onMessages, pageApi } from '../../webview/web/vscodeApi';
import { buildBar, type Bar } from './bar';
import { editingController } from './cellEditor';
import { buildHeader } from './header';
import { cellId, cellShown, cellSpoken, countText, statusText } from './rowView';
import { boxCells, clampCell, gridKey, inBox, selectionBox, type CellAt, type GridAction } from './selection';
import { scrollToRow, toTsv, visibleRange } from './virtual';

type Init = Extract<ToWebview, { type: 'init' }>;

const api = pageApi<FromWebview, unknown>();
const post = (m: FromWebview): void => api.post(m);
const el = (id: string): HTMLElement => document.getElementById(id)!;
const barEl = el('bar');
const problem = el('problem');
const status = el('status');
const grid = el('grid');
const ariaGrid = el('aria-grid');
const header = el('header');
const body = el('body');
const spacer = el('spacer');
const rowsEl = el('rows');
const countEl = el('count');
const editsEl = el('edits');
const lang = document.documentElement.lang || 'en';

let strings = {} as TableStrings;
let columns: ColumnInfo[] = [];
let rowHeight = 24;
let rows: (PageRow | undefined)[] = [];
let total = 0;
let received = 0;
let loaded = 0;
let generation = -1;
let tree = false;
let sort: Init['sort'];
let resetAt = 0;
let firstPaintSent = -1;
let lastPaintPost = 0;
let loading = true;
let focus: CellAt = { r: 0, c: 0 };
let anchor: CellAt = { r: 0, c: 0 };
let bar: Bar | undefined;
let debounce: ReturnType<typeof setTimeout> | undefined;

const editing = editingController({
  get rows() {
    return rows;
  },
  get columns() {
    return columns;
  },
  get rowHeight() {
    return rowHeight;
  },
  get focus() {
    return focus;
  },
  get strings() {
    return strings;
  },
  grid,
  spacer,
  problem,
  post,
  moveFocus,
  select(r, c) {
    focus = { r, c };
    anchor = { ...focus };
    render();
  },
});

function makeBar(text: string, lowestOnly: boolean): Bar {
  const b = buildBar(barEl, strings, text, lowestOnly, post);
  const input = b.filterInput;
  input.addEventListener('input', () => {
    if (debounce) clearTimeout(debounce);
    debounce = setTimeout(() => post({ type: 'filter', text: input.value, apply: false }), 250);
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      if (debounce) clearTimeout(debounce);
      post({ type: 'filter', text: input.value, apply: true });
    } else if (e.key === 'ArrowDown') {
      e.preventDefault();
      editing.focusGrid();
    }
  });
  return b;
}

/** The first error of the typed filter, its part of the text marked; none: the problem line hidden. */
function showProblem(text: string, errors: { start: number; end: number; message: string }[]): void {
  const input = bar!.filterInput;
  const e = errors[0];
  if (!e) {
    problem.hidden = true;
    problem.textContent = '';
    input.classList.remove('invalid');
    return;
  }
  problem.textContent = '';
  const msg = document.createElement('div');
  msg.textContent = e.message;
  const where = document.createElement('code');
  const start = Math.max(0, Math.min(text.length, e.start));
  const end = Math.max(start, Math.min(text.length, e.end));
  const mark = document.createElement('mark');
  mark.textContent = end > start ? text.slice(start, end) : '\u2002';
  where.append(document.createTextNode(text.slice(0, start)), mark, document.createTextNode(text.slice(end)));
  problem.append(msg, where);
  problem.hidden = false;
  input.classList.add('invalid');
}

function render(): void {
  spacer.style.height = `${total * rowHeight}px`;
  const range = visibleRange(body.scrollTop, body.clientHeight, rowHeight, total);
  rowsEl.style.transform = `translateY(${range.offset}px)`;
  const frag = document.createDocumentFragment();
  const box = selectionBox(anchor, focus);
  let painted = 0;
  for (let r = range.start; r < range.end; r++) {
    const row = rows[r];
    const rowEl = document.createElement('div');
    rowEl.className = `row${row ? '' : ' pending'}${r === focus.r ? ' focus-row' : ''}${row?.sent ? ' sent' : ''}${row?.added ? ' added' : ''}`;
    if (row?.sent) rowEl.title = strings.sentRow;
    if (row?.added) rowEl.title = strings.newRowTitle;
    rowEl.setAttribute('role', 'row');
    rowEl.setAttribute('aria-rowindex', String(r + 2));
    rowEl.dataset.r = String(r);
    if (row) painted++;
    for (let c = 0; c < columns.length; c++) {
      const cell = document.createElement('div');
      cell.className = `cell ${columns[c]!.type}${inBox(box, r, c) ? ' selected' : ''}${r === focus.r && c === focus.c ? ' focused' : ''}`;
      cell.setAttribute('role', 'gridcell');
      cell.id = cellId(r, c);
      cell.setAttribute('aria-colindex', String(c + 1));
      cell.setAttribute('aria-selected', String(inBox(box, r, c)));
      cell.style.width = `${columns[c]!.width}px`;
      cell.dataset.c = String(c);
      let text = '';
      if (row) {
        const shown = cellShown(row, columns, c, tree, strings);
        if (shown.indent !== undefined) cell.style.paddingLeft = `${shown.indent}px`;
        cell.textContent = text = shown.text;
        if (shown.title !== undefined) cell.title = shown.title;
        if (shown.edited) cell.classList.add('edited');
      }
      // Words for what colours and marks show: a new or sent row, an edited cell's value before; read-only cells.
      const spoken = cellSpoken(row, columns[c]!, text, strings);
      if (spoken.description !== undefined) cell.setAttribute('aria-description', spoken.description);
      if (spoken.readOnly) cell.setAttribute('aria-readonly', 'true');
      rowEl.append(cell);
    }
    frag.append(rowEl);
  }
  rowsEl.replaceChildren(frag);
  // Rows are virtual: the counts and each row's and cell's index tell where the painted ones are (the header is row 1).
  ariaGrid.setAttribute('aria-rowcount', String(total + 1));
  ariaGrid.setAttribute('aria-colcount', String(columns.length));
  editing.placeTyper();
  noteSelection();
  const now = performance.now();
  const complete = total === 0 || painted > 0;
  if (complete && (firstPaintSent !== generation || now - lastPaintPost > 500)) {
    firstPaintSent = generation;
    lastPaintPost = now;
    post({ type: 'painted', generation, first: range.start, count: painted, total, received, ms: Math.round(now - resetAt) });
  }
}

/** The selected cells by row ID and column key, told to the extension when they change (a reload restores them). */
let toldSelection = '';
function noteSelection(): void {
  const f = rows[focus.r];
  const a = rows[anchor.r];
  const fc = columns[focus.c];
  const ac = columns[anchor.c];
  if (!f || !a || !fc || !ac) return;
  const m: FromWebview = { type: 'selection', focus: { id: f.id, key: fc.key }, anchor: { id: a.id, key: ac.key } };
  const text = JSON.stringify(m);
  if (text !== toldSelection) {
    toldSelection = text;
    post(m);
  }
}

function selectCells(m: Extract<ToWebview, { type: 'select' }>): void {
  const at = (x: { id: string; key: string }): CellAt => ({
    r: rows.findIndex((row) => row !== undefined && row.id === x.id),
    c: columns.findIndex((col) => col.key === x.key),
  });
  const f = at(m.focus);
  const a = at(m.anchor);
  if (f.r < 0 || f.c < 0) return;
  moveFocus(f.r, f.c, false);
  if (a.r >= 0 && a.c >= 0) {
    anchor = a;
    render();
  }
}

let frame = 0;
function schedule(): void {
  if (frame) return;
  frame = requestAnimationFrame(() => {
    frame = 0;
    render();
  });
}

/** The service the rows are read from (the profile's name), said before the count. */
let service: string | undefined;

function updateStatus(): void {
  const text = statusText(strings, { total, loaded, loading }, lang);
  status.textContent = service ? `${service} · ${text}` : text;
}

function moveFocus(r: number, c: number, extend: boolean): void {
  focus = clampCell(r, c, total, columns.length);
  if (!extend) anchor = { ...focus };
  const top = scrollToRow(focus.r, body.scrollTop, body.clientHeight, rowHeight);
  if (top !== body.scrollTop) body.scrollTop = top;
  // The focused column in sight too (arrows and Tab to a column beyond the right edge).
  const left = columns.slice(0, focus.c).reduce((n, x) => n + x.width, 0);
  const right = left + (columns[focus.c]?.width ?? 0);
  if (left < body.scrollLeft) body.scrollLeft = left;
  else if (right > body.scrollLeft + body.clientWidth) body.scrollLeft = Math.min(left, right - body.clientWidth);
  editing.placeTyper();
  render();
}

/** A paste (or Delete: an empty text) at the selection's top-left cell; the selection's size lets a single value fill it. */
function pasteAt(text: string): boolean {
  const b = selectionBox(anchor, focus);
  const row = rows[b.r0];
  const col = columns[b.c0];
  if (!row || !col) return false;
  post({ type: 'paste', id: row.id, key: col.key, text, rows: b.r1 - b.r0 + 1, columns: b.c1 - b.c0 + 1 });
  return true;
}

document.addEventListener('paste', (e) => {
  // Into the text of an editor, of the filter, of a typing started on the cell.
  if (editing.busy() || document.activeElement === bar?.filterInput || !e.clipboardData) return;
  const text = e.clipboardData.getData('text/plain');
  const b = selectionBox(anchor, focus);
  if (!text || !rows[b.r0] || !columns[b.c0]) return;
  e.preventDefault();
  pasteAt(text);
});

function onKey(name: Extract<ToWebview, { type: 'key' }>['name']): void {
  // In a text field (the cell editor, the filter bar) the keys belong to its text.
  const active = document.activeElement;
  if (editing.busy() || (active && (active.tagName === 'INPUT' || active.tagName === 'SELECT'))) {
    // The browser's own undo and redo of the text being typed.
    if (name !== 'fillDown') document.execCommand(name);
    return;
  }
  if (name === 'fillDown') {
    const b = selectionBox(anchor, focus);
    if (b.r1 <= b.r0) return;
    post({ type: 'fill', generation, firstRow: b.r0, lastRow: b.r1, keys: columns.slice(b.c0, b.c1 + 1).map((c) => c.key) });
  } else post({ type: name });
}

/** Does what a key on the grid asks; false when it did nothing (the key is then the browser's). */
function run(a: GridAction): boolean {
  switch (a.kind) {
    case 'move':
      moveFocus(a.r, a.c, a.extend);
      return true;
    case 'edit':
      // Backspace: as in a spreadsheet, the editor, empty.
      return editing.activate(a.empty) || !a.empty;
    case 'clear':
      // The selected cells cleared (one step to undo; a cell that cannot be empty is refused with the reason).
      return pasteAt('');
    case 'collapse':
      moveFocus(focus.r, focus.c, false);
      return true;
    case 'toFilter':
      bar?.filterInput.focus();
      return true;
    case 'selectAll':
      anchor = { r: 0, c: 0 };
      focus = { r: total - 1, c: columns.length - 1 };
      render();
      return true;
    case 'copy': {
      const b = selectionBox(anchor, focus);
      const cells = boxCells(rows, b);
      post({ type: 'copy', text: toTsv(cells), cells: cells.length * (b.c1 - b.c0 + 1) });
      return true;
    }
  }
}

grid.addEventListener('keydown', (e) => {
  if (total === 0 || columns.length === 0) return;
  // Keys of an IME's composition belong to it.
  if (e.isComposing || e.keyCode === 229) return;
  if (editing.typing()) return editing.typingKey(e);
  const page = Math.max(1, Math.floor(body.clientHeight / rowHeight) - 1);
  const action = gridKey(e, { focus, anchor, total, columns: columns.length, page });
  if (action && run(action)) e.preventDefault();
});

rowsEl.addEventListener('mousedown', (e) => {
  const cell = (e.target as HTMLElement).closest<HTMLElement>('.cell');
  const row = cell?.parentElement;
  if (!cell || !row) return;
  const r = Number(row.dataset.r);
  const c = Number(cell.dataset.c);
  // A click on the focused cell (a single cell selected) opens its editor, as in a spreadsheet.
  const again = !e.shiftKey && r === focus.r && c === focus.c && anchor.r === focus.r && anchor.c === focus.c && editing.gridFocused();
  e.preventDefault();
  editing.clickAway();
  moveFocus(r, c, e.shiftKey);
  editing.focusGrid();
  if (again) editing.activate(false);
});
rowsEl.addEventListener('dblclick', () => editing.activate(false));
body.addEventListener('scroll', () => {
  header.scrollLeft = body.scrollLeft;
  schedule();
});
window.addEventListener('resize', schedule);

onMessages<ToWebview>((m) => {
  switch (m.type) {
    case 'init':
      strings = m.strings;
      columns = m.columns;
      ariaGrid.setAttribute('aria-label', m.title);
      service = m.service;
      rowHeight = m.rowHeight;
      sort = m.sort;
      if (!bar) bar = makeBar(m.filterText, m.lowestOnly);
      else bar.setLowest(m.lowestOnly);
      buildHeader(header, spacer, columns, sort, strings.sortHint, post, render);
      render();
      break;
    case 'reset':
      generation = m.generation;
      total = m.total;
      loaded = m.loaded;
      tree = m.tree;
      rows = new Array<PageRow | undefined>(total);
      received = 0;
      resetAt = performance.now();
      focus = { r: Math.min(focus.r, Math.max(0, total - 1)), c: Math.min(focus.c, Math.max(0, columns.length - 1)) };
      anchor = { ...focus };
      updateStatus();
      schedule();
      break;
    case 'rows': {
      if (m.generation !== generation) break;
      const list = m.rows;
      for (let i = 0; i < list.length; i++) rows[m.start + i] = list[i];
      received += list.length;
      const range = visibleRange(body.scrollTop, body.clientHeight, rowHeight, total);
      if (m.start < range.end && m.start + list.length > range.start) schedule();
      break;
    }
    case 'count':
      if (bar && m.text === bar.filterInput.value) {
        countEl.textContent = m.errors.length ? '' : countText(strings, 'matches', m.total, lang, m.matches.toLocaleString(), m.total.toLocaleString());
        showProblem(m.text, m.errors);
      }
      break;
    case 'setFilter':
      if (bar) bar.filterInput.value = m.text;
      break;
    case 'editor':
    case 'refused':
    case 'committed':
      editing.message(m);
      break;
    case 'cells':
      if (m.generation !== generation) break;
      for (const x of m.rows) if (x.index < rows.length) rows[x.index] = x.row;
      schedule();
      break;
    case 'edits':
      editsEl.textContent = m.count > 0 ? countText(strings, 'edits', m.count, lang, m.count.toLocaleString()) : '';
      if (bar) {
        bar.undoBtn.disabled = !m.canUndo;
        bar.redoBtn.disabled = !m.canRedo;
      }
      break;
    case 'key':
      onKey(m.name);
      break;
    case 'keep':
      api.setState(m.state);
      break;
    case 'select':
      selectCells(m);
      break;
    case 'progress':
      loading = !m.done;
      if (m.done) loaded = m.loaded;
      updateStatus();
      if (m.message) status.textContent = m.message;
      break;
    default:
      m satisfies never;
  }
});

post({ type: 'ready' });
