// The work item table's page script. Rows come from the extension in chunks (messages
// of src/table/protocol.ts); only the rows in sight are in the page (virtual.js).
// Keyboard: arrows move the focused cell (Shift extends the selection), Tab and
// Shift+Tab move right and left, Home/End, Page Up/Down, Enter or F2 (or a click on the
// focused cell, or a double-click) opens the cell's editor with its value (the extension
// answers with its kind and choices, or why the cell cannot be edited). As in a spreadsheet,
// typing on the focused cell starts its editor with what was typed in place of the value,
// Japanese input (IME) included: the keyboard's focus is on a text box kept at the focused
// cell (#typer), so a composition starts in it and nothing typed is lost while the editor
// opens. Backspace starts the editor empty; Delete clears the selected cells. In the editor
// Enter commits (and moves down), Tab commits and moves right, Escape cancels; a value the
// extension refuses keeps the editor open, as typed, with the reason. Escape collapses the
// selection (again: back to the filter), Ctrl+C copies the selected cells as TSV, Ctrl+V
// pastes a TSV rectangle at the selection. Ctrl+Z / Ctrl+Y / Ctrl+D are keybindings of the
// extension that come back as `key` messages.
// @ts-check
(function () {
  // @ts-ignore acquireVsCodeApi is given by the webview host
  const vscode = acquireVsCodeApi();
  // @ts-ignore set by virtual.js
  const V = /** @type {{visibleRange: Function, scrollToRow: Function, toTsv: (rows: string[][]) => string, pluralOf: (n: number, forms: {one?: string, other: string}, lang?: string) => string}} */ (window.TableVirtual);
  // @ts-ignore set by bar.js
  const Bar = /** @type {{build: Function}} */ (window.TableBar);
  // @ts-ignore set by cellEditor.js
  const CellEditor = /** @type {{controller: (ctx: any) => any}} */ (window.TableCellEditor);

  /** @typedef {{id: string, level: number, container: boolean, cells: string[], edited?: Record<string, string>, titles?: Record<string, string>, sent?: boolean}} Row */
  /** @typedef {{key: string, label: string, type: string, width: number}} Column */

  const bar = /** @type {HTMLElement} */ (document.getElementById('bar'));
  const problem = /** @type {HTMLElement} */ (document.getElementById('problem'));
  const status = /** @type {HTMLElement} */ (document.getElementById('status'));
  const grid = /** @type {HTMLElement} */ (document.getElementById('grid'));
  const header = /** @type {HTMLElement} */ (document.getElementById('header'));
  const body = /** @type {HTMLElement} */ (document.getElementById('body'));
  const spacer = /** @type {HTMLElement} */ (document.getElementById('spacer'));
  const rowsEl = /** @type {HTMLElement} */ (document.getElementById('rows'));

  let strings = /** @type {Record<string, string>} */ ({});
  /** @type {Column[]} */
  let columns = [];
  let rowHeight = 24;
  /** @type {(Row | undefined)[]} */
  let rows = [];
  let total = 0;
  let received = 0;
  let loaded = 0;
  let generation = -1;
  let tree = false;
  /** @type {{key: string, direction: string} | undefined} */
  let sort;
  let resetAt = 0;
  let firstPaintSent = -1;
  let lastPaintPost = 0;
  let loading = true;
  let focus = { r: 0, c: 0 };
  let anchor = { r: 0, c: 0 };
  /** @type {HTMLInputElement} */
  let filterInput;
  const countEl = /** @type {HTMLElement} */ (document.getElementById('count'));
  /** @type {(v: boolean) => void} */
  let setLowest = () => undefined;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let debounce;
  const editsEl = /** @type {HTMLElement} */ (document.getElementById('edits'));
  /** @type {HTMLButtonElement} */
  let undoBtn;
  /** @type {HTMLButtonElement} */
  let redoBtn;
  const lang = document.documentElement.lang || 'en';
  const plural = (/** @type {string} */ name, /** @type {number} */ n) => V.pluralOf(n, { one: strings[name + 'One'], other: strings[name] }, lang);

  const post = (/** @type {any} */ m) => vscode.postMessage(m);
  const editing = CellEditor.controller({
    get rows() { return rows; },
    get columns() { return columns; },
    get rowHeight() { return rowHeight; },
    get focus() { return focus; },
    get strings() { return strings; },
    grid, spacer, problem, post, moveFocus,
    select(/** @type {number} */ r, /** @type {number} */ c) {
      focus = { r, c };
      anchor = { ...focus };
      render(true);
    },
  });
  const fmt = (/** @type {string} */ s, /** @type {any[]} */ ...args) => s.replace(/\{(\d+)\}/g, (_, i) => String(args[Number(i)]));

  function buildBar(/** @type {string} */ text, /** @type {boolean} */ lowestOnly) {
    const b = Bar.build(bar, strings, text, lowestOnly, post);
    filterInput = b.filterInput;
    undoBtn = b.undoBtn;
    redoBtn = b.redoBtn;
    setLowest = b.setLowest;
    filterInput.addEventListener('input', () => {
      if (debounce) clearTimeout(debounce);
      debounce = setTimeout(() => post({ type: 'filter', text: filterInput.value, apply: false }), 250);
    });
    filterInput.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        if (debounce) clearTimeout(debounce);
        post({ type: 'filter', text: filterInput.value, apply: true });
      } else if (e.key === 'ArrowDown') {
        e.preventDefault();
        editing.focusGrid();
      }
    });
  }

  function showProblem(/** @type {string} */ text, /** @type {{start: number, end: number, message: string}[]} */ errors) {
    if (errors.length === 0) {
      problem.hidden = true;
      problem.textContent = '';
      filterInput.classList.remove('invalid');
      return;
    }
    const e = errors[0];
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
    filterInput.classList.add('invalid');
  }

  function buildHeader() {
    header.textContent = '';
    columns.forEach((c, i) => {
      const h = document.createElement('div');
      h.className = 'hcell ' + c.type;
      h.setAttribute('role', 'columnheader');
      h.style.width = c.width + 'px';
      // The full header (cut when the column is narrow), its system name, and what a click does.
      h.title = (c.label === c.key ? c.label : c.label + ' (' + c.key + ')') + '\n' + strings.sortHint;
      h.draggable = true;
      h.dataset.key = c.key;
      const label = document.createElement('span');
      label.className = 'label';
      label.textContent = c.label + (sort && sort.key === c.key ? (sort.direction === 'asc' ? ' ▲' : ' ▼') : '');
      h.setAttribute('aria-sort', sort && sort.key === c.key ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none');
      h.append(label);
      h.addEventListener('click', (e) => {
        if (/** @type {HTMLElement} */ (e.target).classList.contains('resizer')) return;
        post({ type: 'sort', key: c.key });
      });
      h.addEventListener('dragstart', (e) => e.dataTransfer && e.dataTransfer.setData('text/x-column', c.key));
      h.addEventListener('dragover', (e) => e.preventDefault());
      h.addEventListener('drop', (e) => {
        e.preventDefault();
        const key = e.dataTransfer ? e.dataTransfer.getData('text/x-column') : '';
        if (key && key !== c.key) post({ type: 'reorder', key, before: c.key });
      });
      const resizer = document.createElement('div');
      resizer.className = 'resizer';
      resizer.draggable = false;
      resizer.addEventListener('pointerdown', (e) => {
        e.preventDefault();
        e.stopPropagation();
        resizer.setPointerCapture(e.pointerId);
        const x0 = e.clientX;
        const w0 = c.width;
        const move = (/** @type {PointerEvent} */ m) => {
          c.width = Math.max(40, Math.min(1200, w0 + m.clientX - x0));
          h.style.width = c.width + 'px';
          render(true);
        };
        const up = () => {
          resizer.removeEventListener('pointermove', move);
          resizer.removeEventListener('pointerup', up);
          post({ type: 'resize', key: c.key, width: c.width });
        };
        resizer.addEventListener('pointermove', move);
        resizer.addEventListener('pointerup', up);
      });
      h.append(resizer);
      header.append(h);
      void i;
    });
    const width = columns.reduce((n, c) => n + c.width, 0);
    spacer.style.width = width + 'px';
  }

  function inSelection(/** @type {number} */ r, /** @type {number} */ c) {
    return r >= Math.min(anchor.r, focus.r) && r <= Math.max(anchor.r, focus.r) && c >= Math.min(anchor.c, focus.c) && c <= Math.max(anchor.c, focus.c);
  }

  function render(/** @type {boolean} */ force) {
    void force;
    spacer.style.height = total * rowHeight + 'px';
    const range = V.visibleRange(body.scrollTop, body.clientHeight, rowHeight, total);
    rowsEl.style.transform = 'translateY(' + range.offset + 'px)';
    const frag = document.createDocumentFragment();
    const nameAt = columns.findIndex((c) => c.key === 'Name');
    let painted = 0;
    for (let r = range.start; r < range.end; r++) {
      const row = rows[r];
      const el = document.createElement('div');
      el.className = 'row' + (row ? '' : ' pending') + (r === focus.r ? ' focus-row' : '') + (row && row.sent ? ' sent' : '');
      if (row && row.sent) el.title = strings.sentRow;
      el.setAttribute('role', 'row');
      el.setAttribute('aria-rowindex', String(r + 2));
      el.dataset.r = String(r);
      if (row) painted++;
      for (let c = 0; c < columns.length; c++) {
        const cell = document.createElement('div');
        cell.className = 'cell ' + columns[c].type + (inSelection(r, c) ? ' selected' : '') + (r === focus.r && c === focus.c ? ' focused' : '');
        cell.setAttribute('role', 'gridcell');
        cell.style.width = columns[c].width + 'px';
        cell.dataset.c = String(c);
        if (row) {
          let text = row.cells[c];
          if (tree && c === nameAt) {
            cell.style.paddingLeft = 6 + Math.max(0, row.level - 1) * 14 + 'px';
            text = (row.container ? '▾ ' : '  ') + text;
          }
          cell.textContent = text;
          // Users by name; the hover names each with the ID.
          const tip = row.titles ? row.titles[columns[c].key] : undefined;
          if (tip !== undefined) cell.title = tip;
          else if (row.cells[c].length > 12) cell.title = row.cells[c];
          const before = row.edited ? row.edited[columns[c].key] : undefined;
          if (before !== undefined) {
            cell.classList.add('edited');
            cell.title = fmt(strings.editedBefore, before === '' ? strings.empty : before) + (tip !== undefined ? '\n' + tip : '');
          }
        }
        el.append(cell);
      }
      frag.append(el);
    }
    rowsEl.replaceChildren(frag);
    grid.setAttribute('aria-rowcount', String(total + 1));
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
  function noteSelection() {
    const f = rows[focus.r], a = rows[anchor.r];
    if (!f || !a || !columns[focus.c] || !columns[anchor.c]) return;
    const m = { type: 'selection', focus: { id: f.id, key: columns[focus.c].key }, anchor: { id: a.id, key: columns[anchor.c].key } };
    const text = JSON.stringify(m);
    if (text !== toldSelection) {
      toldSelection = text;
      post(m);
    }
  }

  /** @param {{focus: {id: string, key: string}, anchor: {id: string, key: string}}} m */
  function selectCells(m) {
    const at = (/** @type {{id: string, key: string}} */ x) => ({ r: rows.findIndex((row) => row !== undefined && row.id === x.id), c: columns.findIndex((col) => col.key === x.key) });
    const f = at(m.focus), a = at(m.anchor);
    if (f.r < 0 || f.c < 0) return;
    moveFocus(f.r, f.c, false);
    if (a.r >= 0 && a.c >= 0) {
      anchor = a;
      render(true);
    }
  }

  let frame = 0;
  function schedule() {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      render(false);
    });
  }

  function updateStatus() {
    const what = loading ? strings.loading + ' ' : '';
    status.textContent = total === 0 && !loading ? strings.noRows : what + fmt(plural('rows', total), total.toLocaleString()) + (loaded > total ? ' / ' + loaded.toLocaleString() : '');
  }

  function moveFocus(/** @type {number} */ r, /** @type {number} */ c, /** @type {boolean} */ extend) {
    focus = { r: Math.max(0, Math.min(total - 1, r)), c: Math.max(0, Math.min(columns.length - 1, c)) };
    if (!extend) anchor = { ...focus };
    const top = V.scrollToRow(focus.r, body.scrollTop, body.clientHeight, rowHeight);
    if (top !== body.scrollTop) body.scrollTop = top;
    // The focused column in sight too (arrows and Tab to a column beyond the right edge).
    const left = columns.slice(0, focus.c).reduce((n, x) => n + x.width, 0);
    const right = left + (columns[focus.c] ? columns[focus.c].width : 0);
    if (left < body.scrollLeft) body.scrollLeft = left;
    else if (right > body.scrollLeft + body.clientWidth) body.scrollLeft = Math.min(left, right - body.clientWidth);
    editing.placeTyper();
    render(true);
  }

  function selectionTsv() {
    const r0 = Math.min(anchor.r, focus.r), r1 = Math.max(anchor.r, focus.r);
    const c0 = Math.min(anchor.c, focus.c), c1 = Math.max(anchor.c, focus.c);
    /** @type {string[][]} */
    const out = [];
    for (let r = r0; r <= r1; r++) {
      const row = rows[r];
      if (row) out.push(row.cells.slice(c0, c1 + 1));
    }
    return { text: V.toTsv(out), cells: out.length * (c1 - c0 + 1) };
  }

  function selectionBox() {
    return { r0: Math.min(anchor.r, focus.r), r1: Math.max(anchor.r, focus.r), c0: Math.min(anchor.c, focus.c), c1: Math.max(anchor.c, focus.c) };
  }

  document.addEventListener('paste', (e) => {
    // Into the text of an editor, of the filter, of a typing started on the cell.
    if (editing.busy() || document.activeElement === filterInput || !e.clipboardData) return;
    const text = e.clipboardData.getData('text/plain');
    const b = selectionBox();
    const row = rows[b.r0];
    if (!text || !row || !columns[b.c0]) return;
    e.preventDefault();
    post({ type: 'paste', id: row.id, key: columns[b.c0].key, text, rows: b.r1 - b.r0 + 1, columns: b.c1 - b.c0 + 1 });
  });

  function onKey(/** @type {string} */ name) {
    // In a text field (the cell editor, the filter bar) the keys belong to its text.
    const active = document.activeElement;
    if (editing.busy() || (active && (active.tagName === 'INPUT' || active.tagName === 'SELECT'))) {
      if (name !== 'fillDown') document.execCommand(name);
      return;
    }
    if (name === 'fillDown') {
      const b = selectionBox();
      if (b.r1 <= b.r0) return;
      post({ type: 'fill', generation, firstRow: b.r0, lastRow: b.r1, keys: columns.slice(b.c0, b.c1 + 1).map((c) => c.key) });
    } else post({ type: name });
  }

  grid.addEventListener('keydown', (e) => {
    if (total === 0 || columns.length === 0) return;
    // Keys of an IME's composition belong to it.
    if (e.isComposing || e.keyCode === 229) return;
    if (editing.typing()) return editing.typingKey(e);
    const page = Math.max(1, Math.floor(body.clientHeight / rowHeight) - 1);
    const ctrl = e.ctrlKey || e.metaKey;
    // Letters by their lower case: with Caps Lock on, Ctrl+C gives the key "C".
    switch (e.key.length === 1 ? e.key.toLowerCase() : e.key) {
      case 'ArrowUp': moveFocus(focus.r - 1, focus.c, e.shiftKey); break;
      case 'ArrowDown': moveFocus(focus.r + 1, focus.c, e.shiftKey); break;
      case 'ArrowLeft': moveFocus(focus.r, focus.c - 1, e.shiftKey); break;
      case 'ArrowRight': moveFocus(focus.r, focus.c + 1, e.shiftKey); break;
      case 'PageUp': moveFocus(focus.r - page, focus.c, e.shiftKey); break;
      case 'PageDown': moveFocus(focus.r + page, focus.c, e.shiftKey); break;
      case 'Home': moveFocus(ctrl ? 0 : focus.r, 0, e.shiftKey); break;
      case 'End': moveFocus(ctrl ? total - 1 : focus.r, columns.length - 1, e.shiftKey); break;
      case 'Tab': {
        const back = e.shiftKey;
        const last = focus.r === total - 1 && focus.c === columns.length - 1;
        const first = focus.r === 0 && focus.c === 0;
        if ((back && first) || (!back && last)) return; // leave the grid
        if (back) focus.c === 0 ? moveFocus(focus.r - 1, columns.length - 1, false) : moveFocus(focus.r, focus.c - 1, false);
        else focus.c === columns.length - 1 ? moveFocus(focus.r + 1, 0, false) : moveFocus(focus.r, focus.c + 1, false);
        break;
      }
      case 'Enter':
      case 'F2':
        if (ctrl || e.altKey) return;
        editing.activate(false);
        break;
      case 'Backspace':
        // As in a spreadsheet: the editor, empty.
        if (ctrl || e.altKey || !editing.activate(true)) return;
        break;
      case 'Delete': {
        // The selected cells cleared (one step to undo; a cell that cannot be empty is refused with the reason).
        if (ctrl || e.altKey) return;
        const b = selectionBox();
        const row = rows[b.r0];
        if (!row || !columns[b.c0]) return;
        post({ type: 'paste', id: row.id, key: columns[b.c0].key, text: '', rows: b.r1 - b.r0 + 1, columns: b.c1 - b.c0 + 1 });
        break;
      }
      case 'Escape':
        if (anchor.r !== focus.r || anchor.c !== focus.c) moveFocus(focus.r, focus.c, false);
        else filterInput.focus();
        break;
      case 'a':
        if (!ctrl) return;
        anchor = { r: 0, c: 0 };
        focus = { r: total - 1, c: columns.length - 1 };
        render(true);
        break;
      case 'c':
        if (!ctrl) return;
        post({ type: 'copy', ...selectionTsv() });
        break;
      default:
        return;
    }
    e.preventDefault();
  });

  rowsEl.addEventListener('mousedown', (e) => {
    const cell = /** @type {HTMLElement} */ (e.target).closest('.cell');
    const row = /** @type {HTMLElement | null} */ (cell && cell.parentElement);
    if (!cell || !row) return;
    const r = Number(row.dataset.r), c = Number(/** @type {HTMLElement} */ (cell).dataset.c);
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

  window.addEventListener('message', (event) => {
    const m = event.data;
    switch (m.type) {
      case 'init':
        strings = m.strings;
        columns = m.columns;
        rowHeight = m.rowHeight;
        sort = m.sort;
        if (!filterInput) buildBar(m.filterText, m.lowestOnly);
        else setLowest(m.lowestOnly);
        buildHeader();
        render(true);
        break;
      case 'reset':
        generation = m.generation;
        total = m.total;
        loaded = m.loaded;
        tree = m.tree;
        rows = new Array(total);
        received = 0;
        resetAt = performance.now();
        focus = { r: Math.min(focus.r, Math.max(0, total - 1)), c: Math.min(focus.c, Math.max(0, columns.length - 1)) };
        anchor = { ...focus };
        updateStatus();
        schedule();
        break;
      case 'rows': {
        if (m.generation !== generation) break;
        const list = /** @type {Row[]} */ (m.rows);
        for (let i = 0; i < list.length; i++) rows[m.start + i] = list[i];
        received += list.length;
        const range = V.visibleRange(body.scrollTop, body.clientHeight, rowHeight, total);
        if (m.start < range.end && m.start + list.length > range.start) schedule();
        break;
      }
      case 'count':
        if (filterInput && m.text === filterInput.value) {
          countEl.textContent = m.errors.length ? '' : fmt(plural('matches', m.total), m.matches.toLocaleString(), m.total.toLocaleString());
          showProblem(m.text, m.errors);
        }
        break;
      case 'setFilter':
        if (filterInput) filterInput.value = m.text;
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
        editsEl.textContent = m.count > 0 ? fmt(plural('edits', m.count), m.count.toLocaleString()) : '';
        if (undoBtn) undoBtn.disabled = !m.canUndo;
        if (redoBtn) redoBtn.disabled = !m.canRedo;
        break;
      case 'key':
        onKey(m.name);
        break;
      case 'keep':
        vscode.setState(m.state);
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
    }
  });

  post({ type: 'ready' });
})();
