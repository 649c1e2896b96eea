// Sending the table's rows to the webview in chunks, without vscode: the rows of the
// current view (filtered, sorted) become lists of shown texts, `chunkSize` rows per
// message, so no message (and no HTML string) holds 100,000 rows at once.
import { type ColumnDef, type FormatContext, cellValue, formatCell } from './columns';
import type { LoadedRow } from './load';
import type { ShownRow } from './shown';

export type { ShownRow } from './shown';

/** Rows per `rows` message. */
export const ROW_CHUNK = 2000;

/** The cells of a row as shown, in the order of `columns`. */
export function shownRow(row: LoadedRow, columns: readonly ColumnDef[], ctx: FormatContext): ShownRow {
  const cells = new Array<string>(columns.length);
  let titles: Record<string, string> | undefined;
  for (let i = 0; i < columns.length; i++) {
    const c = columns[i]!;
    const v = cellValue(row, c);
    cells[i] = formatCell(v, c, ctx);
    if (c.type === 'user' && v !== null && ctx.userName) {
      const t = userTitle(v, ctx.userName);
      if (t !== undefined) (titles ??= {})[c.key] = t;
    }
  }
  const out: ShownRow = { id: row.id, level: row.level, container: row.hasChildren === true, cells };
  if (titles) out.titles = titles;
  return out;
}

/** The hover of a user cell: each user's name with the ID, a line each; undefined when no name is known (the cell shows the IDs). */
export function userTitle(v: string | number | readonly string[], userName: (id: string) => string | undefined): string | undefined {
  const ids = Array.isArray(v) ? (v as readonly string[]) : [String(v)];
  let named = false;
  const lines = ids.map((id) => {
    const name = userName(id);
    if (name === undefined || name === id) return id;
    named = true;
    return `${name} (${id})`;
  });
  return named ? lines.join('\n') : undefined;
}

/** [start, end) ranges of `total` rows, `size` per chunk (the last may be shorter); none for 0 rows. */
export function chunkRanges(total: number, size: number = ROW_CHUNK): [number, number][] {
  const n = Math.max(0, Math.floor(total));
  const s = Math.max(1, Math.floor(size));
  const out: [number, number][] = [];
  for (let start = 0; start < n; start += s) out.push([start, Math.min(n, start + s)]);
  return out;
}
