// CSV / TSV import into the table's edits, without vscode.
//
// The header is matched to fields (csv.ts mapHeader); an ID column is required. Each
// record becomes edits of its item; problems are listed by line and column with a
// stable code, and a record with any problem gives no edit at all. A cell equal to what
// the export writes for the item's current value is no edit (line breaks of any kind
// count as the same; a neutralized formula is read back without its apostrophe); a
// read-only column (exported with "all columns") is accepted while its value is
// unchanged. A user is read back the way the export writes it: the name shown for a
// user the table's rows name, else by the resolver (name, login name, e-mail or ID).
// Only what the file means is applied: a record with a quote problem or a control
// character is refused, and after a quote never closed no later line is applied (each
// is reported as not read). Records are read one at a time, so the text is never
// copied and a sliced import (importTableInSlices) can yield between records. Each
// column's cells are told unchanged, parsed and checked by import-cells.ts, which keeps
// the answers that depend on a value alone; rows are looked for in the table's order first.
// With ImportOptions.newRows, a record without an ID is a new work item (import-new.ts):
// a draft below its parent, refused like any other record when something of it is wrong.
import { type CellContext, parseCellInput, type CellInput } from './cells';
import { type ColumnDef, type FormatContext, type TableRow, assignmentIds, cellValue, toCellValue } from './columns';
import { type ColumnMapping, type ImportProblem, type ImportProblemCode, type MappedHeader, mapHeader } from './csv-header';
import { DelimitedReader, type QuoteMode, restoreFormula } from './delimited';
import type { NewItemDraft } from './drafts';
import { type CellChange, sameValue } from './edits';
import { ImportColumn } from './import-cells';
import { NewRows, type NewRowsOptions } from './import-new';

export interface ImportResult {
  /** Edits of the good records, to apply as one step (TableEdits.apply). */
  changes: CellChange[];
  /** Every problem, by line. */
  problems: ImportProblem[];
  /** Records read (the header and empty lines not counted). */
  recordCount: number;
  /** Records refused: nothing of them is in `changes`. */
  badRecordCount: number;
  /** Records applied: no problem, at least one edit. */
  appliedRowCount: number;
  /** Records with no problem and no edit (the values are those of the table). */
  unchangedRowCount: number;
  /** Records without an ID read as new items (ImportOptions.newRows): `drafts.length`. */
  newRowCount: number;
  /** The new items, in the file's order (a parent before the rows below it); empty without ImportOptions.newRows. */
  drafts: NewItemDraft[];
  /** Refused records by the reason (a record with several reasons counts under each). */
  refusedByCode: Partial<Record<ImportProblemCode, number>>;
  /** Problems not listed in `problems` (over ImportOptions.maxProblems); they are counted above. */
  problemsOmitted: number;
  /** With quotes 'paste': cells whose quote closes no quoted cell, read as written (the quote kept). */
  quoteAsText: { line: number; column: string; id?: string }[];
  header: MappedHeader;
}

export interface ImportOptions extends CellContext, FormatContext {
  /** The table's columns (buildColumns: all of them). */
  columns: readonly ColumnDef[];
  /** The rows of the table by ID (items not there are "unknown ID"). */
  rows: ReadonlyMap<string, TableRow>;
  mapping?: ColumnMapping;
  /** Current values with edits (TableEdits.fieldsOf); default: as read. */
  fieldsOf?: (row: TableRow) => Readonly<Record<string, unknown>>;
  /** At most this many problems are listed (default 10,000); the others are only counted. */
  maxProblems?: number;
  /**
   * How quotes that do not close are read (delimited.ts QuoteMode): 'file' (default) refuses
   * such rows; 'paste' (cells copied from a spreadsheet, the clipboard) reads them as text.
   */
  quotes?: QuoteMode;
  /**
   * Records without an ID become new items (ImportResult.drafts) instead of the emptyId problem;
   * the file then needs no ID column. Without it, a record without an ID is refused.
   */
  newRows?: NewRowsOptions;
}

const CONTROL_CHAR = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const TEXT_CODES: ReadonlySet<string> = new Set(['unclosedQuote', 'notRead', 'textAfterQuote', 'control']);
const ID_CODES: ReadonlySet<string> = new Set(['emptyId', 'unknownId', 'duplicateId', 'noParent', 'unknownParent', 'ambiguousParent', 'parentRefused', 'parentMismatch']);
const rank = (p: ImportProblem): number => (TEXT_CODES.has(p.code) ? 0 : ID_CODES.has(p.code) ? 1 : 2);

/** One import, record by record: `step` reads one record, `finish` gives the result. */
class ImportRun {
  readonly reader: DelimitedReader;
  private readonly result: ImportResult;
  private headerCells: readonly string[] = [];
  /** The file's columns (undefined: not a column of the table, or the ID), with what they keep of their cells. */
  private plans: (ImportColumn | undefined)[] = [];
  private headerRead = false;
  private usable = false;
  private headerCode: ImportProblemCode = 'noIdColumn';
  // The records of rows: line, edits (result.changes[start, end)) and whether refused, by
  // record number; the first record of each row, and the others of a row on several lines.
  // A row's first record is kept by the row's place in options.rows (an array, no map of every
  // row), so IDs no row has are not counted twice.
  private readonly recLine: number[] = [];
  private readonly recStart: number[] = [];
  private readonly recEnd: number[] = [];
  private readonly recBad: boolean[] = [];
  /** By a row's place in options.rows: 1 + its first record, 0 for none yet. */
  private readonly firstOf: number[];
  /** Each row's place in options.rows, made when a row is not found in the rows' order. */
  private places: Map<TableRow, number> | undefined;
  /** The place of the row rowOf found last. */
  private place = -1;
  private readonly again = new Map<TableRow, number[]>();
  private shown: Map<string, string[]> | undefined;
  // The rows in the table's order, read alongside the file: a file exported from the table
  // has its rows in that order, and the next row's ID is then told by one comparison
  // instead of a look-up in a map of every row (a miss of the processor's caches each).
  private readonly order: Iterator<[string, TableRow]>;
  private nextId: string | undefined;
  private nextRow: TableRow | undefined;
  private nextPlace = -1;
  private readonly own: ImportProblem[] = [];
  private readonly record0: string[] = [];
  private readonly maxProblems: number;
  /** The records without an ID, read as new items (with ImportOptions.newRows). */
  private news: NewRows | undefined;

  constructor(text: string, private readonly options: ImportOptions) {
    this.reader = new DelimitedReader(text, undefined, options.quotes ?? 'file');
    this.maxProblems = options.maxProblems ?? 10_000;
    this.order = options.rows.entries();
    this.advance();
    this.firstOf = new Array<number>(options.rows.size).fill(0);
    this.result = {
      changes: [], problems: [], recordCount: 0, badRecordCount: 0, appliedRowCount: 0, unchangedRowCount: 0, newRowCount: 0, drafts: [], refusedByCode: {}, problemsOmitted: 0, quoteAsText: [],
      header: { columns: [], idIndex: -1, problems: [] },
    };
  }

  /** Reads one record; false at the end of the text. */
  step(): boolean {
    // After the header, every record is read into one array: a record's cells are not kept.
    const cells = this.reader.next(this.headerRead ? this.record0 : undefined);
    if (cells === undefined) return false;
    if (this.headerRead) this.record(cells);
    else this.readHeader(cells);
    return true;
  }

  private readHeader(cells: string[]): void {
    this.headerRead = true;
    this.headerCells = cells.map((h) => restoreFormula(h).trim());
    const header = mapHeader(cells, this.options.columns, this.options.mapping);
    this.result.header = header;
    this.plans = header.columns.map((c) => (c === undefined || c.key === 'Id' ? undefined : new ImportColumn(c, this.options)));
    const p = this.reader.problem;
    if (p) this.add({ code: p.code as ImportProblemCode, line: p.line, message: p.message, params: { openLine: p.line } });
    const o = this.options;
    // Adding new rows, a file without an ID column is a file of new rows only.
    const newRows = o.newRows;
    for (const hp of header.problems) if (!(newRows && hp.code === 'noIdColumn')) this.add(hp);
    this.usable = (header.idIndex >= 0 || newRows !== undefined) && !p;
    if (newRows) {
      const shownUser = (text: string): string | undefined => {
        const ids = this.shownUsers().get(text);
        return ids?.length === 1 ? ids[0] : undefined;
      };
      this.news = new NewRows(newRows, o.rows, header, this.headerCells, this.plans, { ...o, shownUser }, (c, t) => this.parse(c, t));
    }
    if (p) this.headerCode = p.code as ImportProblemCode;
  }

  private record(cells: string[]): void {
    const reader = this.reader;
    const result = this.result;
    const line = reader.recordLine;
    if (cells.length === 1 && cells[0] === '' && !reader.problem) return; // an empty line
    result.recordCount++;
    const h = result.header;
    const idText = h.idIndex >= 0 ? cells[h.idIndex] : undefined;
    const id = idText === undefined ? '' : restoreFormula(idText).trim();
    const idColumn = h.idIndex >= 0 ? this.headerCells[h.idIndex] : undefined;
    if (reader.unreadSince > 0) {
      const open = reader.unreadSince;
      this.refuse([{ code: 'notRead', line, ...(id ? { id } : {}), params: { openLine: open }, message: `Line ${line} is not read: the quote opened on line ${open} is not closed.` }]);
      return;
    }
    if (!this.usable) {
      result.badRecordCount++;
      this.count(this.headerCode);
      return;
    }
    const own = this.own; // one array for every record (refuse copies what it holds)
    own.length = 0;
    let qp = reader.problem;
    if (qp?.code === 'quoteAsText') {
      // Clipboard text: the quote is a character of its cell (noted, not refused).
      for (const p of reader.problems) if (p.record === reader.count - 1) result.quoteAsText.push({ line: p.line, column: this.headerCells[p.cell] ?? `#${p.cell + 1}`, ...(id ? { id } : {}) });
      qp = undefined;
    }
    if (qp) own.push({ code: qp.code as ImportProblemCode, line: qp.line, ...(id ? { id } : {}), params: { openLine: qp.line }, message: qp.message });
    const control = reader.controlCells;
    if (control) for (const k of control) own.push(this.controlProblem(line, k, cells[k]!, id));
    if (!id && this.news) {
      this.newRecord(this.news, cells, line, qp, own);
      return;
    }
    const row = id ? this.rowOf(id) : undefined;
    if (!id) own.push({ code: 'emptyId', line, column: idColumn, message: 'The ID is empty.' });
    else if (!row) own.push({ code: 'unknownId', line, column: idColumn, id, message: `Unknown ID ${id}: no such work item in the table.` });
    if (cells.length > this.headerCells.length) own.push(this.extraCells(line, cells.length, id));
    const start = result.changes.length;
    if (row && !qp) this.cells(row, cells, line, id, own);
    if (qp?.endLine !== undefined) this.swallowed(qp.line, qp.endLine);
    const bad = own.length > 0;
    if (bad) {
      result.changes.length = start;
      this.refuse(own);
    } else if (result.changes.length > start) result.appliedRowCount++;
    else result.unchangedRowCount++;
    if (row) this.note(row, this.place, line, bad, start, result.changes.length);
  }

  /** A record without an ID as a new item: a draft, or refused with its problems (`own`: the record's problems so far). */
  private newRecord(news: NewRows, cells: readonly string[], line: number, qp: { line: number; endLine?: number } | undefined, own: ImportProblem[]): void {
    if (cells.length > this.headerCells.length) own.push(this.extraCells(line, cells.length));
    const added = news.record(cells, line, own, this.reader.controlCells, !qp);
    if (qp?.endLine !== undefined) this.swallowed(qp.line, qp.endLine);
    if (added) this.result.newRowCount++;
    else this.refuse(own);
  }

  private extraCells(line: number, cells: number, id?: string): ImportProblem {
    const headerCells = this.headerCells.length;
    return { code: 'extraCells', line, ...(id !== undefined ? { id } : {}), params: { cells, headerCells }, message: `The line has ${cells} cells, the header ${headerCells}.` };
  }

  /** The row of an ID (the same as options.rows.get), its place in `place`. */
  private rowOf(id: string): TableRow | undefined {
    if (id === this.nextId) {
      const row = this.nextRow;
      this.place = this.nextPlace;
      this.advance();
      return row;
    }
    const row = this.options.rows.get(id);
    if (row) this.place = this.placeOf(row);
    return row;
  }

  private advance(): void {
    const e = this.order.next();
    this.nextId = e.done ? undefined : e.value[0];
    this.nextRow = e.done ? undefined : e.value[1];
    this.nextPlace++;
  }

  private placeOf(row: TableRow): number {
    let at = this.places?.get(row);
    if (at === undefined) {
      // Made once (again only if rows were added since).
      this.places = new Map();
      let i = 0;
      for (const r of this.options.rows.values()) {
        if (!this.places.has(r)) this.places.set(r, i);
        i++;
      }
      at = this.places.get(row) ?? -1;
    }
    return at;
  }

  /** The row's cells into edits (pushed to result.changes) or problems (`own`). */
  private cells(row: TableRow, cells: readonly string[], line: number, id: string, own: ImportProblem[]): void {
    const options = this.options;
    const plans = this.plans;
    const control = this.reader.controlCells;
    const current = options.fieldsOf ? options.fieldsOf(row) : row.fields;
    const n = Math.min(plans.length, cells.length);
    let values: { plan: ImportColumn; value: unknown; col: string; text: string }[] | undefined;
    let dates = false;
    for (let k = 0; k < n; k++) {
      const plan = plans[k];
      if (plan === undefined || (control !== undefined && control.includes(k))) continue;
      const raw = cells[k]!;
      const text = raw.charCodeAt(0) === 39 ? restoreFormula(raw) : raw;
      const cur = current[plan.key];
      if (plan.unchanged(cur, text)) continue;
      const c = plan.c;
      const col = this.headerCells[k]!;
      const ro = plan.readOnly;
      if (ro) {
        const message = `${c.label}: ${ro}`;
        own.push({ code: 'cell', line, column: col, id, message, field: c.key, problem: { code: 'readOnly', message }, text });
        continue;
      }
      const p = plan.parse(text, (t) => this.parse(c, t));
      if (!p.ok) {
        own.push({ code: 'cell', line, column: col, id, message: p.problem.message, field: c.key, problem: p.problem, text });
        continue;
      }
      // Two texts of a text column are the same only when equal (the shown text was compared above).
      if (p.value === cur || (!(c.type === 'text' && typeof cur === 'string' && typeof p.value === 'string') && sameValue(p.value, cur))) continue;
      if (p.value === null && toCellValue(cur, c) === null) continue;
      if (c.key === 'PlannedStartDate' || c.key === 'PlannedFinishDate') dates = true;
      (values ??= []).push({ plan, value: p.value, col, text });
    }
    if (!values) return;
    // A value's check reads the row's other values only for a planned date (the other date, edited or not).
    let fields = current;
    if (dates) {
      const edited: Record<string, unknown> = { ...current };
      for (const v of values) edited[v.plan.key] = v.value;
      fields = edited;
    }
    for (const v of values) {
      const problem = v.plan.check(v.value, fields);
      if (problem) own.push({ code: 'cell', line, column: v.col, id, message: problem.message, field: v.plan.key, problem, text: v.text });
      else this.result.changes.push({ id: row.id, field: v.plan.key, value: v.value });
    }
  }

  /** A cell's text as a value: a user by the name the export shows for them, else as typed input. */
  private parse(c: ColumnDef, text: string): CellInput {
    if (c.type === 'user' && !c.multi) {
      const ids = this.shownUsers().get(text.trim());
      if (ids?.length === 1) return { ok: true, value: ids[0] };
    }
    return parseCellInput(c, text, this.options);
  }

  /** What the export writes for each user the rows name → the users written so. */
  private shownUsers(): Map<string, string[]> {
    if (this.shown) return this.shown;
    const out = new Map<string, string[]>();
    const add = (uid: string): void => {
      const name = this.options.userName?.(uid) ?? uid;
      const ids = out.get(name);
      if (!ids) out.set(name, [uid]);
      else if (!ids.includes(uid)) ids.push(uid);
    };
    const userCols = this.options.columns.filter((c) => c.type === 'user');
    for (const row of this.options.rows.values()) {
      for (const c of userCols) {
        const v = row.fields[c.key];
        if (c.multi) for (const uid of assignmentIds(v)) add(uid);
        else {
          const uid = cellValue(row, c);
          if (typeof uid === 'string') add(uid);
        }
      }
    }
    return (this.shown = out);
  }

  /** The lines a quote took into its cell (after its own line, up to where it closed): each a row not read. */
  private swallowed(open: number, end: number): void {
    for (let l = open + 1; l <= end; l++) {
      this.result.recordCount++;
      this.refuse([{ code: 'notRead', line: l, params: { openLine: open }, message: `Line ${l} is not read: the quote opened on line ${open} does not close where a cell ends.` }]);
    }
  }

  private controlProblem(line: number, k: number, cell: string, id: string): ImportProblem {
    const at = cell.search(CONTROL_CHAR);
    const char = `U+${cell.charCodeAt(at).toString(16).toUpperCase().padStart(4, '0')}`;
    const column = this.headerCells[k] ?? `#${k + 1}`;
    return {
      code: 'control', line, column, ...(id ? { id } : {}), params: { position: at + 1, char },
      message: `Line ${line}, column ${column}: the cell holds the control character ${char} (at character ${at + 1}); such a cell is not read.`,
    };
  }

  private refuse(own: readonly ImportProblem[]): void {
    this.result.badRecordCount++;
    for (const p of own) this.add(p);
    if (own.length === 1) this.count(own[0]!.code);
    else for (const code of new Set(own.map((p) => p.code))) this.count(code);
  }

  private add(p: ImportProblem): void {
    if (this.result.problems.length < this.maxProblems) this.result.problems.push(p);
    else this.result.problemsOmitted++;
  }

  private count(code: ImportProblemCode): void {
    const by = this.result.refusedByCode;
    by[code] = (by[code] ?? 0) + 1;
  }

  private note(row: TableRow, place: number, line: number, bad: boolean, start: number, end: number): void {
    const k = this.recLine.length;
    this.recLine.push(line);
    this.recStart.push(start);
    this.recEnd.push(end);
    this.recBad.push(bad);
    const first = (this.firstOf[place] ?? 0) - 1;
    if (first < 0) {
      this.firstOf[place] = k + 1;
      return;
    }
    const more = this.again.get(row);
    if (more) more.push(k);
    else this.again.set(row, [first, k]);
  }

  /** The result, once every record is read: records of an ID on several lines refused, problems by line. */
  finish(): ImportResult {
    const result = this.result;
    const h = result.header;
    let drop: Set<number> | undefined;
    for (const [row, ks] of this.again) {
      const lines = ks.map((k) => this.recLine[k]!).join(', ');
      for (const k of ks) {
        this.add({ code: 'duplicateId', line: this.recLine[k]!, column: this.headerCells[h.idIndex], id: row.id, params: { lines }, message: `ID ${row.id} is on more than one line (${lines}).` });
        this.count('duplicateId');
        if (this.recBad[k]) continue;
        this.recBad[k] = true;
        result.badRecordCount++;
        const start = this.recStart[k]!;
        const end = this.recEnd[k]!;
        if (end > start) {
          result.appliedRowCount--;
          drop ??= new Set();
          for (let i = start; i < end; i++) drop.add(i);
        } else result.unchangedRowCount--;
      }
    }
    if (drop) result.changes = result.changes.filter((_, i) => !drop.has(i));
    if (this.news) result.drafts = this.news.finish();
    result.problems.sort((a, b) => a.line - b.line || rank(a) - rank(b));
    return result;
  }
}

/** Reads an imported CSV / TSV text (delimiter detected from the header line) into edits and problems. */
export function importTable(text: string, options: ImportOptions): ImportResult {
  const run = new ImportRun(text, options);
  while (run.step());
  return run.finish();
}

/** The error a sliced import rejects with when its signal aborts. */
export class ImportCancelledError extends Error {
  readonly code = 'cancelled';
  constructor() {
    super('The import was cancelled.');
    this.name = 'ImportCancelledError';
  }
}

export interface ImportSliceControl {
  signal?: AbortSignal;
  /** Characters of the text read so far, of `total`; called after each slice. */
  onProgress?: (done: number, total: number) => void;
  /** How long one slice runs before yielding, in ms (default 5). */
  sliceMs?: number;
}

const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * importTable in slices of a few ms, yielding to the event loop (setImmediate) between
 * them so the extension host keeps answering; the same result as importTable. Rejects
 * with ImportCancelledError when `signal` aborts (nothing is to be applied then).
 */
export async function importTableInSlices(text: string, options: ImportOptions, control: ImportSliceControl = {}): Promise<ImportResult> {
  const run = new ImportRun(text, options);
  const sliceMs = control.sliceMs ?? 5;
  for (;;) {
    if (control.signal?.aborted) throw new ImportCancelledError();
    const t0 = performance.now();
    let more = true;
    for (let k = 1; (more = run.step()); k++) if ((k & 15) === 0 && performance.now() - t0 >= sliceMs) break;
    control.onProgress?.(run.reader.offset, run.reader.length);
    if (!more) return run.finish();
    await yieldToLoop();
  }
}
