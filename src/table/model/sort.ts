// Sorting the table by any column, without vscode: stable (equal cells keep the rows'
// order), text in Japanese collation (Intl.Collator('ja', numeric)), numbers and dates
// by value, users and list values by the name shown, empty cells last in both
// directions. Keys are computed once per row (decorate, sort, undecorate).
import { type CellValue, type ColumnDef, type FormatContext, type TableRow, cellValue, formatCell, isEmptyCell } from './columns';

export type SortDirection = 'asc' | 'desc';

export interface SortOptions extends FormatContext {
  /** Edited values by row ID, shown instead of the read ones (TableEdits.fieldsOf). */
  fieldsOf?: (row: TableRow) => Readonly<Record<string, unknown>>;
}

const collator = new Intl.Collator('ja', { numeric: true, sensitivity: 'variant' });

/** Compares two texts the way the table sorts them (Japanese collation, numbers inside text by value). */
export const compareText: (a: string, b: string) => number = collator.compare;

function sortKey(v: CellValue, c: ColumnDef, ctx: FormatContext): string | number | null {
  if (isEmptyCell(v)) return null;
  switch (c.type) {
    case 'number':
    case 'hours':
    case 'progress':
      return v as number;
    case 'date':
      return v as string;
    default:
      return formatCell(v, c, ctx);
  }
}

/**
 * A new array of `rows` sorted by column `c` in `direction`; `rows` is not changed.
 * Empty cells come last whatever the direction; ties keep the input order.
 */
export function sortRows(rows: readonly TableRow[], c: ColumnDef, direction: SortDirection = 'asc', options: SortOptions = {}): TableRow[] {
  const sign = direction === 'asc' ? 1 : -1;
  const keyed = rows.map((row, i) => ({ row, i, k: sortKey(cellValue(row, c, options.fieldsOf?.(row)), c, options) }));
  const textual = !(c.type === 'number' || c.type === 'hours' || c.type === 'progress' || c.type === 'date');
  keyed.sort((a, b) => {
    if (a.k === null || b.k === null) return a.k === b.k ? a.i - b.i : a.k === null ? 1 : -1;
    let d: number;
    if (textual) d = collator.compare(a.k as string, b.k as string);
    else d = a.k < b.k ? -1 : a.k > b.k ? 1 : 0;
    return d !== 0 ? d * sign : a.i - b.i;
  });
  return keyed.map((k) => k.row);
}
