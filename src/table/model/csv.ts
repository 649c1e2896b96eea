// CSV / TSV export of the table, without vscode.
//
// Export: a header of column names (English or Japanese headers, or system names) and
// one record per row, cells as shown (users by name, hours H:MM, dates yyyy-MM-dd),
// for the shown columns or all of them; CSV in UTF-8 with a BOM, or TSV. Formula-like
// cells are written with a leading apostrophe (delimited.ts neutralizeFormula). A header
// that would not map back to its own column (two columns with the same display name,
// e.g. a custom field named like a built-in column) is written "label (SystemName)".
// The header's matching is in csv-header.ts, the import in csv-import.ts.
import { type ColumnDef, type FormatContext, type TableRow, SYSTEM_COLUMNS, cellValue, columnLabel, formatCell } from './columns';
import { type DelimitedFormat, writeDelimited } from './delimited';
import { ID_COLUMN, withId } from './csv-header';
import { columnCandidates } from './lookup';

export interface ExportOptions extends FormatContext {
  format: DelimitedFormat;
  /** Header text: 'label' (default) in `language`, or 'systemName'. */
  header?: 'label' | 'systemName';
  language?: string;
  /** Values with edits (TableEdits.fieldsOf); default: as read. */
  fieldsOf?: (row: TableRow) => Readonly<Record<string, unknown>>;
  /** Every column of the table, to tell headers two columns share; default: the exported and the built-in columns. */
  allColumns?: readonly ColumnDef[];
}

/** The header cells the export writes for `cols`: each maps back to its own column (mapHeader). */
export function exportHeaders(cols: readonly ColumnDef[], options: Pick<ExportOptions, 'header' | 'language' | 'allColumns'>): string[] {
  if (options.header === 'systemName') return cols.map((c) => c.key);
  const byKey = new Map<string, ColumnDef>();
  for (const c of [...cols, ...(options.allColumns ?? SYSTEM_COLUMNS)]) if (!byKey.has(c.key)) byKey.set(c.key, c);
  const universe = withId([...byKey.values()]);
  const own = (h: string, c: ColumnDef): boolean => {
    const found = columnCandidates(universe, h);
    return found.length === 1 && found[0]!.key === c.key;
  };
  return cols.map((c) => {
    const label = columnLabel(c, options.language);
    if (own(label, c)) return label;
    const withKey = `${label} (${c.key})`;
    return own(withKey, c) ? withKey : c.key;
  });
}

/** The rows as CSV (UTF-8 with BOM, CRLF) or TSV; an ID column is put first when `columns` has none. */
export function exportTable(rows: readonly TableRow[], columns: readonly ColumnDef[], options: ExportOptions): string {
  const cols = columns.some((c) => c.key === 'Id') ? columns : [ID_COLUMN, ...columns];
  const header = exportHeaders(cols, options);
  const records: string[][] = [header];
  for (const r of rows) {
    const fields = options.fieldsOf?.(r);
    records.push(cols.map((c) => formatCell(cellValue(r, c, fields), c, options)));
  }
  return writeDelimited(records, { format: options.format, neutralize: true });
}


export * from './csv-header';
export * from './csv-import';
