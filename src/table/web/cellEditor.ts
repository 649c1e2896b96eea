// The table's editing in the page: the text box that holds the keyboard's focus in the grid
// (typing on the focused cell, an IME's composition), the editor asked for and opened, its
// value committed and the extension's answer (taken: the editor closes and the focus moves on;
// refused: the editor stays open, as typed, with the reason under it and in the problem line).
import type { CellEditorSpec, ColumnInfo, FromWebview, PageRow, TableStrings, ToWebview } from '../protocol';
import { editorElements } from './editorElements';
import { cellId, cellSpoken } from './rowView';
import type { CellAt } from './selection';

/** What the editing reads of the page and asks of it. */
export interface EditingHost {
  readonly rows: readonly (PageRow | undefined)[];
  readonly columns: readonly ColumnInfo[];
  readonly rowHeight: number;
  readonly focus: CellAt;
  readonly strings: TableStrings;
  grid: HTMLElement;
  spacer: HTMLElement;
  problem: HTMLElement;
  post(m: FromWebview): void;
  moveFocus(r: number, c: number, extend: boolean): void;
  select(r: number, c: number): void;
}

/** The editor's answers of the extension. */
export type EditorMessage = Extract<ToWebview, { type: 'editor' | 'refused' | 'committed' }>;

/** The open cell editor; `pending` while its value is with the extension (the move to make once it is taken). */
interface OpenEditor {
  box: HTMLElement;
  el: HTMLInputElement | HTMLSelectElement;
  id: string;
  key: string;
  r: number;
  c: number;
  start: string;
  typed: boolean;
  pending?: { text: string; dr: number; dc: number; blur: boolean };
}

/** The cell whose editor was asked for (Enter, F2, a click, or typing: then the typer holds the text so far). */
interface Asked {
  id: string;
  key: string;
  r: number;
  c: number;
  typing: boolean;
  spec?: CellEditorSpec;
  commit?: { dr: number; dc: number };
}

export type Editing = ReturnType<typeof editingController>;

export function editingController(S: EditingHost) {
  let editor: OpenEditor | undefined;
  let asked: Asked | undefined;
  let composing = false;
  // The keyboard's focus in the grid: a text box at the focused cell, so that typing (and an IME's composition) lands in it.
  // It is the grid's stop in the Tab order (the grid itself is not: Shift+Tab from the box would land on the grid and come back).
  // Its aria-activedescendant names the focused cell, so a screen reader reads that cell (its row and column, selected,
  // read only, its state) as the focus moves. The grid's role is on an element that owns the header and the rows only
  // (aria-owns): this box is not one of a grid's rows.
  const typer = document.createElement('textarea');
  typer.id = 'typer';
  typer.rows = 1;
  typer.spellcheck = false;
  typer.setAttribute('autocomplete', 'off');
  S.spacer.append(typer);
  let refusedTimer: ReturnType<typeof setTimeout> | undefined;

  const leftOf = (c: number): number => S.columns.slice(0, c).reduce((n, x) => n + x.width, 0);

  /** The keyboard's focus to the grid (its text box at the focused cell). */
  function focusGrid(): void {
    if (!asked) typer.value = '';
    placeTyper();
    typer.focus({ preventScroll: true });
  }

  const gridFocused = (): boolean => document.activeElement === typer || document.activeElement === S.grid;

  /** The grid's text box over the focused cell (its caret is where an IME shows its composition), naming the cell. */
  function placeTyper(): void {
    const col = S.columns[S.focus.c];
    typer.style.top = `${S.focus.r * S.rowHeight}px`;
    typer.style.left = `${leftOf(S.focus.c)}px`;
    typer.style.height = `${S.rowHeight}px`;
    typer.style.width = `${asked && asked.typing && col ? Math.max(col.width, 80) : 1}px`;
    const row = S.rows[S.focus.r];
    if (col) typer.setAttribute('aria-label', cellSpoken(row, col, row ? (row.cells[S.focus.c] ?? '') : '', S.strings).label);
    // The focused cell while it is painted (scrolled out of sight, the label above still names it).
    const id = cellId(S.focus.r, S.focus.c);
    if (document.getElementById(id)) typer.setAttribute('aria-activedescendant', id);
    else typer.removeAttribute('aria-activedescendant');
  }

  /** Asks for the focused cell's editor; `typed`: typing on the cell started it (the text is in the typer). */
  function activate(typed: boolean): boolean {
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
  function endTyping(): void {
    asked = undefined;
    typer.value = '';
    typer.classList.remove('typing');
    placeTyper();
  }

  function closeEditor(): void {
    const ed = editor;
    if (!ed) return;
    editor = undefined;
    ed.box.remove();
    hideCellMessage();
  }

  /** The editor's value to the extension; the editor closes (and the focus moves by dr, dc) once it is taken. */
  function commitEditor(dr: number, dc: number, blur: boolean): void {
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

  /** The extension took the value: the editor closes, the focus moves on (unless it went elsewhere on the blur). */
  function committed(id: string, key: string): void {
    const ed = editor;
    if (!ed || ed.id !== id || ed.key !== key || !ed.pending) return;
    const p = ed.pending;
    const hadFocus = ed.box.contains(document.activeElement);
    closeEditor();
    if (S.problem.dataset.cell === `${id}\u0000${key}`) hideProblem();
    if (!p.blur || hadFocus || document.activeElement === document.body) {
      focusGrid();
      if (p.dr || p.dc) S.moveFocus(ed.r + p.dr, ed.c + p.dc, false);
    }
  }

  /** A refused value: the editor stays open (focused, as typed) with the reason under it. */
  function refusedValue(ed: OpenEditor, message: string): void {
    ed.pending = undefined;
    ed.el.classList.add('invalid');
    ed.el.setAttribute('aria-invalid', 'true');
    ed.el.title = message;
    showCellMessage(ed, message);
    showRefused(message, `${ed.id}\u0000${ed.key}`);
    S.select(ed.r, ed.c);
    ed.el.focus({ preventScroll: true });
  }

  function openEditor(m: { id: string; key: string; editor: CellEditorSpec }, typed: string | undefined): void {
    closeEditor();
    const r = S.rows.findIndex((x) => x !== undefined && x.id === m.id);
    const c = S.columns.findIndex((x) => x.key === m.key);
    if (r < 0 || c < 0) return;
    const spec = m.editor;
    const made = editorElements(spec, S.strings, typed);
    const { box, el } = made;
    el.setAttribute('aria-label', S.columns[c]!.label);
    box.style.top = `${r * S.rowHeight}px`;
    box.style.left = `${leftOf(c)}px`;
    box.style.width = `${Math.max(S.columns[c]!.width, spec.kind === 'date' ? 150 : 80)}px`;
    box.style.height = `${S.rowHeight}px`;
    editor = { box, el, id: m.id, key: m.key, r, c, start: spec.kind === 'choice' ? spec.value : el.value, typed: made.typed };
    box.addEventListener('keydown', (ke) => {
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
      const to = e.relatedTarget as Node | null;
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
  function openTyped(): void {
    if (!asked || !asked.spec || composing) return;
    const a = asked;
    const text = typer.value;
    endTyping();
    openEditor({ id: a.id, key: a.key, editor: a.spec! }, text);
    if (a.commit) commitEditor(a.commit.dr, a.commit.dc, false);
  }

  let cellMessage: HTMLElement | undefined;
  function showCellMessage(ed: OpenEditor, message: string): void {
    if (!cellMessage) {
      cellMessage = document.createElement('div');
      cellMessage.className = 'cell-message';
      cellMessage.id = 'cell-message';
    }
    cellMessage.textContent = message;
    cellMessage.style.top = `${(ed.r + 1) * S.rowHeight}px`;
    ed.el.setAttribute('aria-describedby', 'cell-message');
    S.spacer.append(cellMessage);
    // Under the cell, kept inside the part of the table in sight.
    const view = S.spacer.parentElement!;
    const right = view.scrollLeft + view.clientWidth - cellMessage.offsetWidth - 4;
    cellMessage.style.left = `${Math.max(view.scrollLeft, Math.min(leftOf(ed.c), right))}px`;
  }
  function hideCellMessage(): void {
    cellMessage?.remove();
  }

  function hideProblem(): void {
    S.problem.hidden = true;
    delete S.problem.dataset.cell;
  }

  /** A refusal in the problem line; `cell`: of the open editor's value (stays until the editor closes), else it fades. */
  function showRefused(message: string, cell: string): void {
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
  function typingKey(e: KeyboardEvent): void {
    const a = asked!;
    if (e.key === 'Escape') endTyping();
    else if (e.key === 'Enter') a.commit = { dr: e.shiftKey ? -1 : 1, dc: 0 };
    else if (e.key === 'Tab') a.commit = { dr: 0, dc: e.shiftKey ? -1 : 1 };
    else return;
    e.preventDefault();
    openTyped();
  }

  // Text typed on the focused cell (a key, or an IME's composition): the cell's editor opens with it.
  typer.addEventListener('input', (e) => {
    if ((e as InputEvent).isComposing || composing) return;
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
    typing: (): boolean => !!(asked && asked.typing),
    /** An editor open or asked for (a paste goes to its text). */
    busy: (): boolean => !!(editor || asked),
    hasEditor: (): boolean => !!editor,
    /** A click elsewhere: the text typed so far goes to its editor (which commits it on the blur). */
    clickAway: (): void => {
      if (asked && asked.typing) openTyped();
    },
    /** The extension's `editor`, `refused` and `committed` messages. */
    message(msg: EditorMessage): void {
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
        if (editor && editor.pending && editor.id === msg.id && editor.key === msg.key) refusedValue(editor, msg.message);
        else {
          if (asked && asked.id === msg.id && asked.key === msg.key) endTyping();
          showRefused(msg.message, '');
        }
      } else committed(msg.id, msg.key);
    },
  };
}
