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
  const texts = new Set<string>();
  if (textual) for (const k of keyed) if (k.k !== null) texts.add(k.k as string);
  if (textual && texts.size > keyed.length / 2) {
    // Mostly distinct texts (names, codes): collate in the sort itself.
    keyed.sort((a, b) => {
      if (a.k === null || b.k === null) return a.k === b.k ? a.i - b.i : a.k === null ? 1 : -1;
      return collator.compare(a.k as string, b.k as string) * sign || a.i - b.i;
    });
    return keyed.map((k) => k.row);
  }
  if (textual) {
    // Few distinct texts (users, statuses): collate each once, then sort the rows by its rank.
    const distinct = [...texts].sort(collator.compare);
    const rank = new Map<string, number>();
    distinct.forEach((t, r) => {
      // Texts the collator calls equal share a rank (ties keep the rows' order).
      rank.set(t, r > 0 && collator.compare(distinct[r - 1]!, t) === 0 ? rank.get(distinct[r - 1]!)! : r);
    });
    for (const k of keyed) if (k.k !== null) k.k = rank.get(k.k as string)!;
  }
  keyed.sort((a, b) => {
    if (a.k === null || b.k === null) return a.k === b.k ? a.i - b.i : a.k === null ? 1 : -1;
    const d = a.k < b.k ? -1 : a.k > b.k ? 1 : 0;
    return d !== 0 ? d * sign : a.i - b.i;
  });
  return keyed.map((k) => k.row);
}
