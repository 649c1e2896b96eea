// The table page's selection and keyboard, as rules without a DOM: the selected rectangle
// (anchor to focus), its cells as copied, and what a key on the grid does. As in a spreadsheet:
// arrows move the focused cell (Shift extends the selection), Tab and Shift+Tab move right and
// left (wrapping to the next or previous row, leaving the grid at its ends), Home/End (with
// Ctrl: the first or last row), Page Up/Down, Enter or F2 open the cell's editor, Backspace opens
// it empty, Delete clears the selected cells, Escape collapses the selection (again: back to the
// filter), Ctrl+A selects every cell, Ctrl+C copies. Letters count by their lower case (with
// Caps Lock on, Ctrl+C gives the key "C").

export interface CellAt {
  r: number;
  c: number;
}

export interface Box {
  r0: number;
  r1: number;
  c0: number;
  c1: number;
}

/** The rectangle from the anchor to the focused cell. */
export function selectionBox(anchor: CellAt, focus: CellAt): Box {
  return { r0: Math.min(anchor.r, focus.r), r1: Math.max(anchor.r, focus.r), c0: Math.min(anchor.c, focus.c), c1: Math.max(anchor.c, focus.c) };
}

export function inBox(b: Box, r: number, c: number): boolean {
  return r >= b.r0 && r <= b.r1 && c >= b.c0 && c <= b.c1;
}

/** A cell kept inside a table of `rows` × `columns`. */
export function clampCell(r: number, c: number, rows: number, columns: number): CellAt {
  return { r: Math.max(0, Math.min(rows - 1, r)), c: Math.max(0, Math.min(columns - 1, c)) };
}

/** The texts of the rectangle's cells, row by row (rows not received yet are left out). */
export function boxCells(rows: readonly ({ cells: string[] } | undefined)[], b: Box): string[][] {
  const out: string[][] = [];
  for (let r = b.r0; r <= b.r1; r++) {
    const row = rows[r];
    if (row) out.push(row.cells.slice(b.c0, b.c1 + 1));
  }
  return out;
}

/** A key as the grid reads it. */
export interface KeyInput {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/** What a key on the grid does. */
export type GridAction =
  | { kind: 'move'; r: number; c: number; extend: boolean }
  /** The focused cell's editor, with its value or (`empty`) without. */
  | { kind: 'edit'; empty: boolean }
  /** The selected cells cleared (one step to undo). */
  | { kind: 'clear' }
  /** The selection collapsed to the focused cell. */
  | { kind: 'collapse' }
  /** The keyboard's focus back to the filter box. */
  | { kind: 'toFilter' }
  | { kind: 'selectAll' }
  | { kind: 'copy' };

/**
 * What `e` does on the grid (the focused cell `focus`, the selection from `anchor`, `total` rows
 * of `columns` columns, `page` rows in sight); undefined for a key the grid leaves alone (the
 * browser's own, or Tab leaving the grid at its ends).
 */
export function gridKey(e: KeyInput, at: { focus: CellAt; anchor: CellAt; total: number; columns: number; page: number }): GridAction | undefined {
  const { focus, anchor, total, columns, page } = at;
  const ctrl = e.ctrlKey || e.metaKey;
  const move = (r: number, c: number, extend = e.shiftKey): GridAction => ({ kind: 'move', r, c, extend });
  switch (e.key.length === 1 ? e.key.toLowerCase() : e.key) {
    case 'ArrowUp':
      return move(focus.r - 1, focus.c);
    case 'ArrowDown':
      return move(focus.r + 1, focus.c);
    case 'ArrowLeft':
      return move(focus.r, focus.c - 1);
    case 'ArrowRight':
      return move(focus.r, focus.c + 1);
    case 'PageUp':
      return move(focus.r - page, focus.c);
    case 'PageDown':
      return move(focus.r + page, focus.c);
    case 'Home':
      return move(ctrl ? 0 : focus.r, 0);
    case 'End':
      return move(ctrl ? total - 1 : focus.r, columns - 1);
    case 'Tab': {
      const back = e.shiftKey;
      const last = focus.r === total - 1 && focus.c === columns - 1;
      const first = focus.r === 0 && focus.c === 0;
      if ((back && first) || (!back && last)) return undefined;
      if (back) return focus.c === 0 ? move(focus.r - 1, columns - 1, false) : move(focus.r, focus.c - 1, false);
      return focus.c === columns - 1 ? move(focus.r + 1, 0, false) : move(focus.r, focus.c + 1, false);
    }
    case 'Enter':
    case 'F2':
      return ctrl || e.altKey ? undefined : { kind: 'edit', empty: false };
    case 'Backspace':
      return ctrl || e.altKey ? undefined : { kind: 'edit', empty: true };
    case 'Delete':
      return ctrl || e.altKey ? undefined : { kind: 'clear' };
    case 'Escape':
      return anchor.r !== focus.r || anchor.c !== focus.c ? { kind: 'collapse' } : { kind: 'toFilter' };
    case 'a':
      return ctrl ? { kind: 'selectAll' } : undefined;
    case 'c':
      return ctrl ? { kind: 'copy' } : undefined;
    default:
      return undefined;
  }
}
