// CSV / TSV round trip of the table (issue 24 §5), without vscode.
//
// Export: a header of column names (English or Japanese headers, or system names) and
// one record per row, cells as shown (users by name, hours H:MM, dates yyyy-MM-dd),
// for the shown columns or all of them; CSV in UTF-8 with a BOM, or TSV.
// Import: the header is matched to fields (an explicit mapping first, then the system
// name, then the English or Japanese display name, then the filter bar's aliases); an
// ID column is required. Each record becomes edits of its item; problems are listed by
// line and column, and a record with any problem gives no edit at all. A cell equal to
// the item's current value is no edit; a read-only column (exported with "all
// columns") is accepted while its value is unchanged.
import { type ColumnDef, type FormatContext, type TableRow, cellValue, columnLabel, formatCell } from './columns';
import { type CellContext, type CellProblem, checkCellValue, parseCellInput, readOnlyReason } from './cells';
import { type DelimitedFormat, parseDelimited, writeDelimited } from './delimited';
import { type CellChange, sameValue } from './edits';
import { findColumn } from './lookup';

export interface ExportOptions extends FormatContext {
  format: DelimitedFormat;
  /** Header text: 'label' (default) in `language`, or 'systemName'. */
  header?: 'label' | 'systemName';
  language?: string;
  /** Values with edits (TableEdits.fieldsOf); default: as read. */
  fieldsOf?: (row: TableRow) => Readonly<Record<string, unknown>>;
}

/** The rows as CSV (UTF-8 with BOM, CRLF) or TSV; an ID column is put first when `columns` has none. */
export function exportTable(rows: readonly TableRow[], columns: readonly ColumnDef[], options: ExportOptions): string {
  const cols = columns.some((c) => c.key === 'Id') ? columns : [{ key: 'Id', label: 'ID', labelJa: 'ID', type: 'text' as const }, ...columns];
  const header = cols.map((c) => (options.header === 'systemName' ? c.key : columnLabel(c, options.language)));
  const records = rows.map((r) => cols.map((c) => formatCell(cellValue(r, c, options.fieldsOf?.(r)), c, options)));
  return writeDelimited([header, ...records], { format: options.format });
}

/** Header text → column key (or null: ignore that column), as the user confirmed it. */
export type ColumnMapping = Readonly<Record<string, string | null>>;

export interface ImportProblem {
  /** 1-based line of the text (1 is the header). */
  line: number;
  /** The header of the column, when the problem is in one cell. */
  column?: string;
  /** The row's work item ID, when known. */
  id?: string;
  message: string;
  /** For a cell's value: the field and the cell problem (its code lets the UI word it in its language). */
  field?: string;
  problem?: CellProblem;
  /** The cell's text as written. */
  text?: string;
}

export interface MappedHeader {
  /** For each header cell, the column it maps to (undefined: ignored or unknown). */
  columns: (ColumnDef | undefined)[];
  /** Index of the ID column, -1 when none. */
  idIndex: number;
  problems: ImportProblem[];
}

/** Matches header cells to columns (see the file header); unknown and repeated columns are problems on line 1. */
export function mapHeader(header: readonly string[], columns: readonly ColumnDef[], mapping: ColumnMapping = {}): MappedHeader {
  const problems: ImportProblem[] = [];
  const seen = new Map<string, string>();
  const out: (ColumnDef | undefined)[] = header.map((h) => {
    const text = h.trim();
    if (Object.prototype.hasOwnProperty.call(mapping, text)) {
      const key = mapping[text];
      if (key === null || key === undefined) return undefined;
      const c = columns.find((x) => x.key === key) ?? (key === 'Id' ? ID_COLUMN : undefined);
      if (!c) problems.push({ line: 1, column: text, message: `The mapping names the field "${key}", which the table does not have.` });
      return c;
    }
    if (text === '') return undefined;
    const c = findColumn(columns, text) ?? (findColumn([ID_COLUMN], text) ? ID_COLUMN : undefined);
    if (!c) problems.push({ line: 1, column: text, message: `Unknown column "${text}": no field has this system name or display name; map it to a field or leave it out.` });
    return c;
  });
  out.forEach((c, i) => {
    if (!c) return;
    const prev = seen.get(c.key);
    if (prev !== undefined) {
      problems.push({ line: 1, column: header[i]!.trim(), message: `Column "${header[i]!.trim()}" is the same field (${c.key}) as column "${prev}": only the first is read.` });
      out[i] = undefined;
    } else seen.set(c.key, header[i]!.trim());
  });
  const idIndex = out.findIndex((c) => c?.key === 'Id');
  if (idIndex < 0) problems.push({ line: 1, message: 'No ID column: the file needs a column "Id" (or "ID") naming each row\'s work item.' });
  return { columns: out, idIndex, problems };
}

const ID_COLUMN: ColumnDef = { key: 'Id', label: 'ID', labelJa: 'ID', type: 'text' };

export interface ImportResult {
  /** Edits of the good records, to apply as one step (TableEdits.apply). */
  changes: CellChange[];
  problems: ImportProblem[];
  /** Records read (the header not counted), and how many of them had a problem. */
  recordCount: number;
  badRecordCount: number;
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
}

/** Reads an imported CSV / TSV text (delimiter detected from the header line) into edits and problems. */
export function importTable(text: string, options: ImportOptions): ImportResult {
  const parsed = parseDelimited(text);
  const problems: ImportProblem[] = parsed.problems.map((p) => ({ line: p.line, message: p.message }));
  const [headerCells = [], ...records] = parsed.records;
  const header = mapHeader(headerCells, options.columns, options.mapping);
  problems.push(...header.problems);
  const result: ImportResult = { changes: [], problems, recordCount: records.length, badRecordCount: 0, header };
  if (header.idIndex < 0) {
    result.badRecordCount = records.length;
    return result;
  }
  const lineOf = (i: number) => parsed.lines[i + 1] ?? i + 2;
  // IDs written on more than one record: every such record is bad (which one is meant is unknown).
  const idLines = new Map<string, number[]>();
  records.forEach((r, i) => {
    const id = (r[header.idIndex] ?? '').trim();
    if (id) idLines.set(id, [...(idLines.get(id) ?? []), lineOf(i)]);
  });
  records.forEach((cells, i) => {
    const line = lineOf(i);
    if (cells.length === 1 && cells[0] === '') {
      result.recordCount--;
      return; // an empty line
    }
    const own: ImportProblem[] = [];
    const id = (cells[header.idIndex] ?? '').trim();
    const row = id ? options.rows.get(id) : undefined;
    if (!id) own.push({ line, column: headerCells[header.idIndex], message: 'The ID is empty.' });
    else if (!row) own.push({ line, column: headerCells[header.idIndex], id, message: `Unknown ID ${id}: no such work item in the table.` });
    const lines = idLines.get(id) ?? [];
    if (id && lines.length > 1) own.push({ line, column: headerCells[header.idIndex], id, message: `ID ${id} is on more than one line (${lines.join(', ')}).` });
    if (cells.length > headerCells.length) own.push({ line, id, message: `The line has ${cells.length} cells, the header ${headerCells.length}.` });
    const changes: CellChange[] = [];
    if (row) {
      const current = options.fieldsOf ? options.fieldsOf(row) : row.fields;
      const values: { c: ColumnDef; value: unknown; col: string; text: string }[] = [];
      header.columns.forEach((c, k) => {
        if (!c || c.key === 'Id' || k >= cells.length) return;
        const col = headerCells[k]!.trim();
        if (sameShown(row, c, cells[k]!, current, options)) return;
        const ro = readOnlyReason(c, options);
        if (ro) {
          own.push({ line, column: col, id, message: `${c.label}: ${ro}`, field: c.key, problem: { code: 'readOnly', message: `${c.label}: ${ro}` }, text: cells[k] });
          return;
        }
        const p = parseCellInput(c, cells[k]!, options);
        if (!p.ok) {
          own.push({ line, column: col, id, message: p.problem.message, field: c.key, problem: p.problem, text: cells[k] });
          return;
        }
        if (sameValue(p.value, current[c.key]) || (p.value === null && cellValue(row, c, current) === null)) return;
        values.push({ c, value: p.value, col, text: cells[k]! });
      });
      const fields = { ...current, ...Object.fromEntries(values.map((v) => [v.c.key, v.value])) };
      for (const v of values) {
        const problem = checkCellValue(v.c, v.value, fields, options);
        if (problem) own.push({ line, column: v.col, id, message: problem.message, field: v.c.key, problem, text: v.text });
        else changes.push({ id: row.id, field: v.c.key, value: v.value });
      }
    }
    if (own.length > 0) {
      problems.push(...own);
      result.badRecordCount++;
    } else result.changes.push(...changes);
  });
  return result;
}

/** True when the text is exactly what the cell shows now (an exported cell left as it was). */
function sameShown(row: TableRow, c: ColumnDef, text: string, current: Readonly<Record<string, unknown>>, ctx: FormatContext): boolean {
  return formatCell(cellValue(row, c, current), c, ctx) === text;
}
