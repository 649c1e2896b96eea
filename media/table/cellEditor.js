// The in-cell editor's element for a cell's editor (the extension's CellEditorSpec): a list of
// choices, or a text box. Dates are typed as the table shows them (yyyy-MM-dd) or in any form a
// paste accepts (2026/5/25, full-width digits: the extension parses the text as typed), with a
// small calendar button beside the box that opens the browser's date picker and writes the
// picked day back as yyyy-MM-dd. Numbers are text too (a number box would drop "50%" or
// full-width digits as empty). Classic script: window.TableCellEditor.
// @ts-check
(function () {
  // @ts-ignore set by virtual.js
  const V = /** @type {{choiceFor: (choices: {value: string, label: string}[], typed: string) => string | undefined, pickerValue: (text: string) => string}} */ (window.TableVirtual);

  /**
   * @typedef {{kind: string, value: string, choices?: {value: string, label: string}[], allowEmpty?: boolean}} Spec
   * @typedef {{box: HTMLElement, el: HTMLInputElement | HTMLSelectElement, typed: boolean}} CellEditor
   */

  /** A small calendar drawn in the text's color (no icon font or emoji needed). */
  function calendarIcon() {
    const NS = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(NS, 'svg');
    svg.setAttribute('viewBox', '0 0 16 16');
    svg.setAttribute('width', '14');
    svg.setAttribute('height', '14');
    svg.setAttribute('aria-hidden', 'true');
    for (const [tag, attrs] of /** @type {[string, Record<string, string>][]} */ ([
      ['rect', { x: '1.5', y: '2.5', width: '13', height: '12', rx: '1.5' }],
      ['path', { d: 'M1.5 6.5h13M5 1v3M11 1v3' }],
      ['path', { d: 'M4 9h2M7 9h2M10 9h2M4 12h2M7 12h2' }],
    ])) {
      const el = document.createElementNS(NS, tag);
      for (const k of Object.keys(attrs)) el.setAttribute(k, attrs[k]);
      el.setAttribute('fill', 'none');
      el.setAttribute('stroke', 'currentColor');
      svg.append(el);
    }
    return svg;
  }

  /**
   * The editor's elements: `box` is what is placed over the cell, `el` holds the value.
   * @param {Spec} spec
   * @param {Record<string, string>} strings
   * @param {string | undefined} typed the text typed on the focused cell that opened the editor (replaces the value)
   * @returns {CellEditor}
   */
  function create(spec, strings, typed) {
    if (spec.kind === 'choice') {
      const sel = document.createElement('select');
      if (spec.allowEmpty || !spec.choices || !spec.choices.some((x) => x.value === spec.value)) {
        const o = document.createElement('option');
        o.value = '';
        o.textContent = strings.empty;
        sel.append(o);
      }
      for (const ch of spec.choices || []) {
        const o = document.createElement('option');
        o.value = ch.value;
        o.textContent = ch.label;
        sel.append(o);
      }
      sel.value = spec.value;
      // Typed on the cell: the choice the text names (else the value stays).
      const picked = typed === undefined ? undefined : V.choiceFor(spec.choices || [], typed);
      if (picked !== undefined) sel.value = picked;
      sel.className = 'cell-editor';
      return { box: sel, el: sel, typed: typed !== undefined };
    }
    const input = document.createElement('input');
    input.type = 'text';
    input.spellcheck = false;
    input.value = typed !== undefined ? typed : spec.value;
    if (spec.kind === 'number') input.inputMode = 'decimal';
    if (spec.kind !== 'date') {
      input.className = 'cell-editor';
      return { box: input, el: input, typed: typed !== undefined };
    }
    input.placeholder = 'yyyy-MM-dd';
    input.className = 'date-text';
    const box = document.createElement('div');
    box.className = 'cell-editor date-editor';
    const pick = document.createElement('button');
    pick.type = 'button';
    pick.className = 'date-pick';
    pick.tabIndex = -1;
    pick.title = strings.pickDate || '';
    pick.setAttribute('aria-label', strings.pickDate || '');
    pick.append(calendarIcon());
    // The browser's picker, under the button (it must be in the page to open); its value goes to the text box.
    const picker = document.createElement('input');
    picker.type = 'date';
    picker.className = 'date-picker';
    picker.tabIndex = -1;
    picker.setAttribute('aria-hidden', 'true');
    // The text box keeps the focus while the button is pressed (a blur would commit).
    pick.addEventListener('mousedown', (e) => e.preventDefault());
    pick.addEventListener('click', () => {
      picker.value = V.pickerValue(input.value);
      try {
        picker.showPicker();
      } catch {
        picker.focus();
      }
    });
    picker.addEventListener('change', () => {
      if (picker.value) input.value = picker.value;
      input.focus();
      input.select();
    });
    box.append(input, pick, picker);
    return { box, el: input, typed: typed !== undefined };
  }


  /**
   * The table's editing: the text box that holds the keyboard's focus in the grid (typing on the
   * focused cell, an IME's composition), the editor asked for and opened, its value committed and
   * the extension's answer (taken: the editor closes and the focus moves on; refused: the editor
   * stays open, as typed, with the reason under it and in the problem line).
   * @param {{readonly rows: any[], readonly columns: {key: string, label: string, width: number}[], readonly rowHeight: number, readonly focus: {r: number, c: number}, readonly strings: Record<string, string>,
   *   grid: HTMLElement, spacer: HTMLElement, problem: HTMLElement, post: (m: any) => void, moveFocus: (r: number, c: number, extend: boolean) => void, select: (r: number, c: number) => void}} S
   */
  function controller(S) {
    /**
     * The open cell editor; `pending` while its value is with the extension (the move to make once
     * it is taken; the editor stays open, as typed, when it is refused).
     * @type {{box: HTMLElement, el: HTMLInputElement | HTMLSelectElement, id: string, key: string, r: number, c: number, start: string, typed: boolean, pending?: {text: string, dr: number, dc: number, blur: boolean}} | undefined}
     */
    let editor;
    /** The cell whose editor was asked for (Enter, F2, a click, or typing: then `typed` holds the text so far). @type {{id: string, key: string, r: number, c: number, typing: boolean, spec?: any, commit?: {dr: number, dc: number}} | undefined} */
    let asked;
    let composing = false;
    // The keyboard's focus in the grid: a text box at the focused cell, so that typing (and an IME's composition) lands in it.
    // It is the grid's stop in the Tab order (the grid itself is not: Shift+Tab from the box would land on the grid and come back).
    const typer = document.createElement('textarea');
    typer.id = 'typer';
    typer.rows = 1;
    typer.spellcheck = false;
    typer.setAttribute('autocomplete', 'off');
    S.spacer.append(typer);
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let refusedTimer;


    const leftOf = (/** @type {number} */ c) => S.columns.slice(0, c).reduce((n, x) => n + x.width, 0);

    /** The keyboard's focus to the grid (its text box at the focused cell). */
    function focusGrid() {
      if (!asked) typer.value = '';
      placeTyper();
      typer.focus({ preventScroll: true });
    }

    const gridFocused = () => document.activeElement === typer || document.activeElement === S.grid;

    /** The grid's text box over the focused cell: its caret is where an IME shows its composition. */
    function placeTyper() {
      const col = S.columns[S.focus.c];
      typer.style.top = S.focus.r * S.rowHeight + 'px';
      typer.style.left = leftOf(S.focus.c) + 'px';
      typer.style.height = S.rowHeight + 'px';
      typer.style.width = (asked && asked.typing && col ? Math.max(col.width, 80) : 1) + 'px';
      const row = S.rows[S.focus.r];
      if (col) typer.setAttribute('aria-label', col.label + ': ' + (row ? row.cells[S.focus.c] : ''));
    }

    /** Asks for the focused cell's editor; `typed`: typing on the cell started it (the text is in #typer). */
    function activate(/** @type {boolean} */ typed) {
      const row = S.rows[S.focus.r];
      const col = S.columns[S.focus.c];
      if (!row || !col) return false;
      asked = { id: row.id, key: col.key, r: S.focus.r, c: S.focus.c, typing: typed };
      if (typed) typer.classList.add('typing');
      placeTyper();
      S.post({ type: 'activate', id: row.id, key: col.key });
      return true;
    }

    /** Typing on the cell ended without an editor (Escape, a read-only cell). */
    function endTyping() {
      asked = undefined;
      typer.value = '';
      typer.classList.remove('typing');
      placeTyper();
    }

    function closeEditor() {
      const ed = editor;
      if (!ed) return;
      editor = undefined;
      ed.box.remove();
      hideCellMessage();
    }

    /** The editor's value to the extension; the editor closes (and the S.focus moves by dr, dc) once it is taken. */
    function commitEditor(/** @type {number} */ dr, /** @type {number} */ dc, /** @type {boolean} */ blur) {
      const ed = editor;
      if (!ed) return;
      const text = ed.el.value;
      if (ed.pending && ed.pending.text === text) return;
      if (text === ed.start && !ed.typed) {
        closeEditor();
        if (!blur) {
          focusGrid();
          if (dr || dc) S.moveFocus(S.focus.r + dr, S.focus.c + dc, false);
        }
        return;
      }
      ed.pending = { text, dr, dc, blur };
      S.post({ type: 'commit', id: ed.id, key: ed.key, text });
    }

    /** The extension took the value: the editor closes, the S.focus moves on (unless it went elsewhere on the blur). */
    function committed(/** @type {string} */ id, /** @type {string} */ key) {
      const ed = editor;
      if (!ed || ed.id !== id || ed.key !== key || !ed.pending) return;
      const p = ed.pending;
      const hadFocus = ed.box.contains(document.activeElement);
      closeEditor();
      if (S.problem.dataset.cell === id + '\u0000' + key) hideProblem();
      if (!p.blur || hadFocus || document.activeElement === document.body) {
        focusGrid();
        if (p.dr || p.dc) S.moveFocus(ed.r + p.dr, ed.c + p.dc, false);
      }
    }

    /** A refused value: the editor stays open (focused, as typed) with the reason under it. */
    function refusedValue(/** @type {string} */ message) {
      const ed = /** @type {NonNullable<typeof editor>} */ (editor);
      ed.pending = undefined;
      ed.el.classList.add('invalid');
      ed.el.setAttribute('aria-invalid', 'true');
      ed.el.title = message;
      showCellMessage(ed, message);
      showRefused(message, ed.id + '\u0000' + ed.key);
      S.select(ed.r, ed.c);
      ed.el.focus({ preventScroll: true });
    }

    /** @param {{id: string, key: string, editor: {kind: string, value: string, choices?: {value: string, label: string}[], allowEmpty?: boolean}}} m @param {string | undefined} typed */
    function openEditor(m, typed) {
      closeEditor();
      const r = S.rows.findIndex((x) => x !== undefined && x.id === m.id);
      const c = S.columns.findIndex((x) => x.key === m.key);
      if (r < 0 || c < 0) return;
      const spec = m.editor;
      const made = create(spec, S.strings, typed);
      const { box, el } = made;
      el.setAttribute('aria-label', S.columns[c].label);
      box.style.top = r * S.rowHeight + 'px';
      box.style.left = leftOf(c) + 'px';
      box.style.width = Math.max(S.columns[c].width, spec.kind === 'date' ? 150 : 80) + 'px';
      box.style.height = S.rowHeight + 'px';
      editor = { box, el, id: m.id, key: m.key, r, c, start: spec.kind === 'choice' ? spec.value : el.value, typed: made.typed };
      box.addEventListener('keydown', (e) => {
        const ke = /** @type {KeyboardEvent} */ (e);
        // Keys that end an IME's composition belong to it.
        if (ke.isComposing || ke.keyCode === 229) return;
        if (ke.key === 'Enter') {
          ke.preventDefault();
          commitEditor(ke.shiftKey ? -1 : 1, 0, false);
        } else if (ke.key === 'Escape') {
          ke.preventDefault();
          closeEditor();
          if (S.problem.dataset.cell) hideProblem();
          focusGrid();
        } else if (ke.key === 'Tab') {
          ke.preventDefault();
          commitEditor(0, ke.shiftKey ? -1 : 1, false);
        }
        ke.stopPropagation();
      });
      // Focus out of the editor (a click elsewhere, another tab): the value is committed; refused, the editor stays.
      box.addEventListener('focusout', (e) => {
        const to = /** @type {Node | null} */ (/** @type {FocusEvent} */ (e).relatedTarget);
        if (to && box.contains(to)) return;
        if (editor && editor.box === box) commitEditor(0, 0, true);
      });
      S.spacer.append(box);
      el.focus({ preventScroll: true });
      if (el instanceof HTMLInputElement) {
        if (typed === undefined) el.select();
        else el.setSelectionRange(el.value.length, el.value.length);
      }
    }

    /** The editor's answer for a typing started on the cell: the editor with the text typed so far (after an IME's composition ends). */
    function openTyped() {
      if (!asked || !asked.spec || composing) return;
      const a = asked;
      const text = typer.value;
      endTyping();
      openEditor({ id: a.id, key: a.key, editor: a.spec }, text);
      if (a.commit) commitEditor(a.commit.dr, a.commit.dc, false);
    }

    /** @type {HTMLElement | undefined} */
    let cellMessage;
    function showCellMessage(/** @type {NonNullable<typeof editor>} */ ed, /** @type {string} */ message) {
      if (!cellMessage) {
        cellMessage = document.createElement('div');
        cellMessage.className = 'cell-message';
        cellMessage.id = 'cell-message';
      }
      cellMessage.textContent = message;
      cellMessage.style.top = (ed.r + 1) * S.rowHeight + 'px';
      ed.el.setAttribute('aria-describedby', 'cell-message');
      S.spacer.append(cellMessage);
      // Under the cell, kept inside the part of the table in sight.
      const view = /** @type {HTMLElement} */ (S.spacer.parentElement);
      const right = view.scrollLeft + view.clientWidth - cellMessage.offsetWidth - 4;
      cellMessage.style.left = Math.max(view.scrollLeft, Math.min(leftOf(ed.c), right)) + 'px';
    }
    function hideCellMessage() {
      if (cellMessage) cellMessage.remove();
    }

    function hideProblem() {
      S.problem.hidden = true;
      delete S.problem.dataset.cell;
    }

    /** A refusal in the S.problem line; `cell`: of the open editor's value (stays until the editor closes), else it fades. */
    function showRefused(/** @type {string} */ message, /** @type {string} */ cell) {
      S.problem.textContent = message;
      S.problem.hidden = false;
      if (refusedTimer) clearTimeout(refusedTimer);
      if (cell) {
        S.problem.dataset.cell = cell;
        return;
      }
      delete S.problem.dataset.cell;
      refusedTimer = setTimeout(() => {
        if (S.problem.textContent === message) S.problem.hidden = true;
      }, 8000);
    }

    /** Keys while a typing started on the cell waits for its editor: Enter and Tab commit the text once it opens, Escape drops it. */
    function typingKey(/** @type {KeyboardEvent} */ e) {
      const a = /** @type {NonNullable<typeof asked>} */ (asked);
      if (e.key === 'Escape') endTyping();
      else if (e.key === 'Enter') a.commit = { dr: e.shiftKey ? -1 : 1, dc: 0 };
      else if (e.key === 'Tab') a.commit = { dr: 0, dc: e.shiftKey ? -1 : 1 };
      else return;
      e.preventDefault();
      openTyped();
    }

    // Text typed on the focused cell (a key, or an IME's composition): the cell's editor opens with it.
    typer.addEventListener('input', (e) => {
      if (/** @type {InputEvent} */ (e).isComposing || composing) return;
      if (!asked && typer.value !== '' && !activate(true)) typer.value = '';
    });
    typer.addEventListener('compositionstart', () => {
      composing = true;
      if (!asked) activate(true);
    });
    typer.addEventListener('compositionend', () => {
      composing = false;
      if (asked && asked.typing) openTyped();
      else if (!asked) typer.value = '';
    });
    // The grid itself focused (Tab, a click on its edge): the focus to its text box.
    S.grid.addEventListener('focus', () => focusGrid());


    return {
      typer,
      activate,
      focusGrid,
      gridFocused,
      placeTyper,
      typingKey,
      /** Typing waits for its editor (keys go to its text). */
      typing: () => !!(asked && asked.typing),
      /** An editor open or asked for (a paste goes to its text). */
      busy: () => !!(editor || asked),
      hasEditor: () => !!editor,
      /** A click elsewhere: the text typed so far goes to its editor (which commits it on the blur). */
      clickAway: () => {
        if (asked && asked.typing) openTyped();
      },
      /** The extension's `editor`, `refused` and `committed` messages. */
      message(/** @type {any} */ msg) {
        if (msg.type === 'editor') {
          // The answer for the cell asked last (an older one is dropped).
          if (asked && (asked.id !== msg.id || asked.key !== msg.key)) return;
          if (asked && asked.typing) {
            asked.spec = msg.editor;
            openTyped();
          } else {
            // Text typed while the editor was on its way replaces the value, as typing in it would.
            const early = typer.value;
            asked = undefined;
            typer.value = '';
            openEditor(msg, early === '' ? undefined : early);
          }
        } else if (msg.type === 'refused') {
          if (editor && editor.pending && editor.id === msg.id && editor.key === msg.key) refusedValue(msg.message);
          else {
            if (asked && asked.id === msg.id && asked.key === msg.key) endTyping();
            showRefused(msg.message, '');
          }
        } else if (msg.type === 'committed') committed(msg.id, msg.key);
      },
    };
  }

  // @ts-ignore read by table.js
  window.TableCellEditor = { create, controller };
})();
