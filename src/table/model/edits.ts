// The table's pending edits with undo / redo, fill down and paste of a TSV rectangle,
// without vscode. Edits are kept apart from the rows as read: `before` is always the
// value read from the service, so an edit back to it is no edit, and the grouping into
// requests (group.ts) sends exactly the edited cells.
import { type ColumnDef, type TableRow, toCellValue } from './columns';
import { type CellContext, type CellProblem, cellContextOf, editCellValue, parseCellInput, readOnlyReason } from './cells';
import { parsePastedBlock } from './delimited';
import { dateOf } from './text';

/** One edited cell: the item, the field (system name), the value to send and the value read. */
export interface CellEdit {
  readonly id: string;
  readonly field: string;
  readonly value: unknown;
  readonly before: unknown;
}

/** A cell to set: item, field and the value to send. */
export interface CellChange {
  readonly id: string;
  readonly field: string;
  readonly value: unknown;
}

/** A cell that was not accepted, with where it is in the visible grid. */
export interface CellRejection {
  rowIndex: number;
  columnIndex: number;
  id?: string;
  field?: string;
  problem: CellProblem;
}

const DATE_VALUE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$/;

/** Same value to the service: equal JSON, or the same date (a read date may carry a time part). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if ((a === undefined || a === null) && (b === undefined || b === null)) return true;
  if (typeof a === 'string' && typeof b === 'string' && DATE_VALUE.test(a) && DATE_VALUE.test(b) && dateOf(a) === dateOf(b)) return true;
  return JSON.stringify(a) === JSON.stringify(b);
}

type Step = { id: string; field: string; from: unknown; to: unknown }[]; // from/to: pending value or NONE
const NONE = Symbol('none');

/**
 * The pending edits of one table. `apply` makes one undo step of several cells (a paste,
 * a fill down); `undo` / `redo` walk the steps; a new step after an undo drops the redo steps.
 */
export class TableEdits {
  private readonly rows = new Map<string, TableRow>();
  private readonly pending = new Map<string, Map<string, unknown>>();
  private readonly overlay = new Map<string, Readonly<Record<string, unknown>>>();
  private undoSteps: Step[] = [];
  private redoSteps: Step[] = [];

  constructor(rows: Iterable<TableRow>) {
    for (const r of rows) this.rows.set(r.id, r);
  }

  /** Adds or replaces rows (a reload after a send: their values as read become `before`, edits stay). */
  setRows(rows: Iterable<TableRow>): void {
    for (const r of rows) {
      this.rows.set(r.id, r);
      this.overlay.delete(r.id);
      const p = this.pending.get(r.id);
      if (p) for (const [f, v] of p) if (sameValue(v, r.fields[f])) p.delete(f);
      if (p && p.size === 0) this.pending.delete(r.id);
    }
  }

  /** The value read for a cell. */
  before(id: string, field: string): unknown {
    return this.rows.get(id)?.fields[field];
  }

  /** The pending edit of a cell, if any. */
  get(id: string, field: string): CellEdit | undefined {
    const p = this.pending.get(id);
    if (!p || !p.has(field)) return undefined;
    return { id, field, value: p.get(field), before: this.before(id, field) };
  }

  isEdited(id: string, field: string): boolean {
    return this.pending.get(id)?.has(field) ?? false;
  }

  /** Every pending edit, by item then field in the order edited. */
  all(): CellEdit[] {
    const out: CellEdit[] = [];
    for (const [id, p] of this.pending) for (const [field, value] of p) out.push({ id, field, value, before: this.before(id, field) });
    return out;
  }

  /** Items with a pending edit of this field. */
  fieldCount(field: string): number {
    let n = 0;
    for (const p of this.pending.values()) if (p.has(field)) n++;
    return n;
  }

  get size(): number {
    let n = 0;
    for (const p of this.pending.values()) n += p.size;
    return n;
  }

  /** A row's fields with its edits applied (for display, sorting, filtering and checks). */
  fieldsOf(row: TableRow): Readonly<Record<string, unknown>> {
    const p = this.pending.get(row.id);
    if (!p) return row.fields;
    let o = this.overlay.get(row.id);
    if (!o) {
      o = { ...row.fields, ...Object.fromEntries(p) };
      this.overlay.set(row.id, o);
    }
    return o;
  }

  /** Sets cells as one undo step; a value equal to the one read removes the edit. Returns the cells changed. */
  apply(changes: readonly CellChange[]): number {
    const step: Step = [];
    for (const ch of changes) {
      if (!this.rows.has(ch.id)) continue;
      const from = this.pendingValue(ch.id, ch.field);
      const to = sameValue(ch.value, this.before(ch.id, ch.field)) ? NONE : ch.value;
      if (from === to || (from !== NONE && to !== NONE && sameValue(from, to))) continue;
      this.setPending(ch.id, ch.field, to);
      step.push({ id: ch.id, field: ch.field, from, to });
    }
    if (step.length > 0) {
      this.undoSteps.push(step);
      this.redoSteps = [];
    }
    return step.length;
  }

  /** Drops every pending edit as one undo step. */
  clear(): number {
    return this.apply(this.all().map((e) => ({ id: e.id, field: e.field, value: e.before })));
  }

  /**
   * Forgets rows: their pending edits and their cells of every undo and redo step (new rows
   * whose adds were sent: Undo must not bring back what the service now holds).
   */
  forget(ids: ReadonlySet<string>): void {
    for (const id of ids) {
      this.pending.delete(id);
      this.overlay.delete(id);
      this.rows.delete(id);
    }
    const keep = (steps: Step[]): Step[] => steps.map((st) => st.filter((x) => !ids.has(x.id))).filter((st) => st.length > 0);
    this.undoSteps = keep(this.undoSteps);
    this.redoSteps = keep(this.redoSteps);
  }

  get canUndo(): boolean {
    return this.undoSteps.length > 0;
  }
  get canRedo(): boolean {
    return this.redoSteps.length > 0;
  }

  /** Undoes the last step; returns the cells it touched (empty when there was nothing to undo). */
  undo(): { id: string; field: string }[] {
    const step = this.undoSteps.pop();
    if (!step) return [];
    for (let i = step.length - 1; i >= 0; i--) this.setPending(step[i]!.id, step[i]!.field, step[i]!.from);
    this.redoSteps.push(step);
    return step.map(({ id, field }) => ({ id, field }));
  }

  redo(): { id: string; field: string }[] {
    const step = this.redoSteps.pop();
    if (!step) return [];
    for (const s of step) this.setPending(s.id, s.field, s.to);
    this.undoSteps.push(step);
    return step.map(({ id, field }) => ({ id, field }));
  }

  private pendingValue(id: string, field: string): unknown {
    const p = this.pending.get(id);
    return p && p.has(field) ? p.get(field) : NONE;
  }

  private setPending(id: string, field: string, v: unknown): void {
    this.overlay.delete(id);
    let p = this.pending.get(id);
    if (v === NONE) {
      p?.delete(field);
      if (p && p.size === 0) this.pending.delete(id);
      return;
    }
    if (!p) this.pending.set(id, (p = new Map()));
    p.set(field, v);
  }
}

export interface GridEditResult {
  /** The accepted cells: give them to TableEdits.apply as one step. */
  changes: CellChange[];
  /** Cells not accepted, each with the reason. */
  rejected: CellRejection[];
  /**
   * Pasted cells whose opening quote closes no quoted cell: read as text (the quote kept),
   * the rest of the block as the rows it is; `line` is the line of the pasted text.
   */
  quoteAsText?: { rowIndex: number; columnIndex: number; line: number }[];
}

/**
 * Fill down: the value of the first selected row (with its edits) copied into the
 * other selected rows, for each selected column. `rows` and `columns` are the visible
 * ones; the selection is rows [firstRow, lastRow] and `columnIndexes`.
 */
export function fillDown(
  edits: TableEdits,
  rows: readonly TableRow[],
  columns: readonly ColumnDef[],
  selection: { firstRow: number; lastRow: number; columnIndexes: readonly number[] },
  ctx: CellContext = {},
): GridEditResult {
  const out: GridEditResult = { changes: [], rejected: [] };
  const top = rows[selection.firstRow];
  if (!top) return out;
  for (const ci of selection.columnIndexes) {
    const c = columns[ci];
    if (!c) continue;
    // The value as a cell holds it (a date read with a time part becomes yyyy-MM-dd, an ID "0" none).
    const raw = edits.fieldsOf(top)[c.key];
    const value = c.multi || c.type === 'text' ? (raw ?? null) : toCellValue(raw, c);
    for (let ri = selection.firstRow + 1; ri <= selection.lastRow && ri < rows.length; ri++) {
      const row = rows[ri]!;
      const r = editCellValue(row, c, value, edits.fieldsOf(row), ctx);
      if (r.ok) out.changes.push({ id: r.id, field: r.field, value: r.value });
      else out.rejected.push({ rowIndex: ri, columnIndex: ci, id: row.id, field: c.key, problem: r.problem });
    }
  }
  return out;
}

/**
 * Paste of text copied from Excel or Google Sheets (TSV: tabs, quoted cells with new
 * lines) with its top-left cell at `anchor`. A single copied value fills the whole
 * selection (`rowCount` × `columnCount`) as spreadsheets do. Every cell is parsed for
 * its column's type (full-width digits, hours, dates, names) and checked; cells beyond
 * the last row or column are rejected and said.
 */
export function pasteText(
  edits: TableEdits,
  text: string,
  rows: readonly TableRow[],
  columns: readonly ColumnDef[],
  anchor: { rowIndex: number; columnIndex: number; rowCount?: number; columnCount?: number },
  ctx: CellContext = {},
): GridEditResult {
  const out: GridEditResult = { changes: [], rejected: [] };
  const block = parsePastedBlock(text);
  let grid = block.records;
  if (block.quoteAsText.length > 0) out.quoteAsText = block.quoteAsText.map((q) => ({ rowIndex: anchor.rowIndex + q.record, columnIndex: anchor.columnIndex + q.cell, line: q.line }));
  const control = new Set(block.control.map((x) => `${x.record}:${x.cell}`));
  if (grid.length === 0) grid = [['']];
  const fill = grid.length === 1 && grid[0]!.length === 1 && ((anchor.rowCount ?? 1) > 1 || (anchor.columnCount ?? 1) > 1);
  if (fill) {
    const v = grid[0]![0]!;
    grid = Array.from({ length: anchor.rowCount ?? 1 }, () => Array.from({ length: anchor.columnCount ?? 1 }, () => v));
  }
  grid.forEach((cells, dr) => {
    const ri = anchor.rowIndex + dr;
    const row = rows[ri];
    // Parse the row's cells first, then check each against the row with all of them
    // (a pasted start and finish are checked together, not against the old finish).
    const parsed: { ci: number; c: ColumnDef; value: unknown }[] = [];
    cells.forEach((cell, dc) => {
      const ci = anchor.columnIndex + dc;
      const c = columns[ci];
      if (!row || !c) {
        out.rejected.push({ rowIndex: ri, columnIndex: ci, problem: { code: 'check', message: `The pasted cell at row ${dr + 1}, column ${dc + 1} falls outside the table.` } });
        return;
      }
      const ro = readOnlyReason(c, cellContextOf(row, ctx));
      const p = ro
        ? ({ ok: false, problem: { code: 'readOnly', message: `${c.label}: ${ro}` } } as const)
        : control.has(fill ? '0:0' : `${dr}:${dc}`)
          ? ({ ok: false, problem: { code: 'control', message: `${c.label}: the pasted cell holds a control character (such as NUL); it is not read.` } } as const)
          : parseCellInput(c, cell, ctx);
      if (p.ok) parsed.push({ ci, c, value: p.value });
      else out.rejected.push({ rowIndex: ri, columnIndex: ci, id: row.id, field: c.key, problem: p.problem });
    });
    if (!row) return;
    const fields = { ...edits.fieldsOf(row), ...Object.fromEntries(parsed.map((p) => [p.c.key, p.value])) };
    for (const p of parsed) {
      const r = editCellValue(row, p.c, p.value, fields, ctx);
      if (r.ok) out.changes.push({ id: r.id, field: r.field, value: r.value });
      else out.rejected.push({ rowIndex: ri, columnIndex: p.ci, id: row.id, field: p.c.key, problem: r.problem });
    }
  });
  return out;
}
