// The before/after table as data for a webview that paints it itself (the Before/After
// view): the page (src/webview/web/page.ts) asks for its table when it is loaded (again
// after the view was hidden or reloaded), and gets it as messages (src/webview/protocol.ts)
// that its grid paints: first the settings and the rows in sight, then
// every row as UTF-8 JSON bytes (an ArrayBuffer crosses to the webview as it is, where
// objects would be serialized value by value), and names of people when they are known.
// The rows are the table computed once (previewTable); their bytes are made once per table.
// No vscode import.
import { changeTableHead, type ChangeTable, type ChangeTableStrings } from './changeTable';
import type { ChangeTableMessage, TableSummary } from './protocol';

const utf8 = new TextEncoder();

/** Every row of the table (from index `from`) as UTF-8 JSON (an array of rows). */
export function rowsBytes(table: ChangeTable, from = 0): Uint8Array {
  return utf8.encode(JSON.stringify(from === 0 ? table.rows : table.rows.slice(from)));
}

/** What the pages of one table share: every row's bytes, or the batches' bytes and the summary of a table read batch by batch. */
interface Made {
  bytes?: Uint8Array;
  batches?: { from: number; rows: Uint8Array }[];
  summary?: TableSummary;
}

/**
 * A table shown in a page: the messages that page gets when it asks (the rows' bytes made
 * once, while the page loads or at its first ask, and kept for the next asks: the view is
 * loaded again each time it is shown).
 */
export class PostedTable {
  constructor(
    readonly page: string,
    readonly table: ChangeTable,
    private readonly strings: ChangeTableStrings,
    /** Every row's bytes, shared by the pages that show this table. */
    private readonly made: Made = {},
    /** For a table read batch by batch: how many rows it will have. */
    private readonly total?: number,
  ) {}

  /** The same table shown in a new page (after a send mark, say): the rows' bytes are not made again. */
  forPage(page: string): PostedTable {
    return new PostedTable(page, this.table, this.strings, this.made, this.total);
  }

  /** The settings and the first rows. */
  head(): ChangeTableMessage {
    const head = changeTableHead(this.table, this.strings);
    if (this.total !== undefined && this.total > head.total) head.total = this.total;
    return { type: 'table', page: this.page, head };
  }

  /** A table read batch by batch: the rows from index `from` to the last made (their bytes kept for the next asks). */
  more(from: number): ChangeTableMessage {
    const rows = rowsBytes(this.table, from);
    (this.made.batches ??= []).push({ from, rows });
    return { type: 'more', page: this.page, from, rows };
  }

  /** A table read batch by batch: its counts and lines, now that every read is done (kept for the next asks). */
  summary(summary: TableSummary): ChangeTableMessage {
    this.made.summary = summary;
    return { type: 'summary', page: this.page, summary };
  }

  /** Whether the table is read batch by batch (its rows go as `more`, its counts as `summary`). */
  get byBatch(): boolean {
    return this.made.batches !== undefined;
  }

  /** What a page gets after `head()` when it asks: every row, or the batches so far and the summary when done. */
  rest(): ChangeTableMessage[] {
    if (!this.made.batches) return [this.rows()];
    const out: ChangeTableMessage[] = this.made.batches.map((b) => ({ type: 'more', page: this.page, from: b.from, rows: b.rows }));
    if (this.made.summary) out.push({ type: 'summary', page: this.page, summary: this.made.summary });
    return out;
  }

  /** Makes every row's bytes now (once), so that `rows()` has them. */
  prepare(): void {
    this.made.bytes ??= rowsBytes(this.table);
  }

  /** Every row. */
  rows(): ChangeTableMessage {
    this.prepare();
    return { type: 'rows', page: this.page, rows: this.made.bytes! };
  }

  /** The people's names (learned after the table was posted): the page paints the rows in sight again. */
  people(): ChangeTableMessage {
    return { type: 'people', page: this.page, people: this.table.people ?? {} };
  }
}
