// Sending the table's rows to the webview in chunks, without vscode: the rows of the
// current view (filtered, sorted) become lists of shown texts, `chunkSize` rows per
// message, so no message (and no HTML string) holds 100,000 rows at once.
import { type ColumnDef, type FormatContext, cellValue, formatCell } from './columns';
import type { LoadedRow } from './load';

/** Rows per `rows` message. */
export const ROW_CHUNK = 2000;

/** One row as the webview gets it: its ID, level (tree column) and the shown text of each column. */
export interface ShownRow {
  id: string;
  level: number;
  /** Some sub-items (a folder or a container). */
  container: boolean;
  cells: string[];
}

/** The cells of a row as shown, in the order of `columns`. */
export function shownRow(row: LoadedRow, columns: readonly ColumnDef[], ctx: FormatContext): ShownRow {
  const cells = new Array<string>(columns.length);
  for (let i = 0; i < columns.length; i++) cells[i] = formatCell(cellValue(row, columns[i]!), columns[i]!, ctx);
  return { id: row.id, level: row.level, container: row.hasChildren === true, cells };
}

/** [start, end) ranges of `total` rows, `size` per chunk (the last may be shorter); none for 0 rows. */
export function chunkRanges(total: number, size: number = ROW_CHUNK): [number, number][] {
  const n = Math.max(0, Math.floor(total));
  const s = Math.max(1, Math.floor(size));
  const out: [number, number][] = [];
  for (let start = 0; start < n; start += s) out.push([start, Math.min(n, start + s)]);
  return out;
}
