// The before/after table as data for a webview that paints it itself (the Before/After
// view): the page (media/changes/page.js) asks for its table when it is loaded (again
// after the view was hidden or reloaded), and gets it as messages that
// media/changes/table.js `wisTable` paints: first the settings and the rows in sight, then
// every row as UTF-8 JSON bytes (an ArrayBuffer crosses to the webview as it is, where
// objects would be serialized value by value), and names of people when they are known.
// The rows are the table computed once (previewTable); their bytes are made once per table.
// No vscode import.
import { changeTableHead, type ChangeTable, type ChangeTableHead, type ChangeTableStrings, type FieldCounts } from './changeTable';

/** What the page posts when it is loaded: its page mark (so an answer goes to the page that asked). */
export interface TableRequest {
  command: 'ready';
  page: string;
}

/** The counts and lines of a table read batch by batch (they need every item): sent when the last read is done, with the line that says what was read. */
export interface TableSummary {
  counts: FieldCounts[];
  lines: ChangeTable['lines'];
  status: string;
}

/**
 * The messages of a table to its page, in this order: `table` (painted at once), then `rows` (every
 * row) or, for a table read batch by batch, one `more` per batch (the rows from index `from`, appended
 * as they come) and `summary` when the last read is done; later maybe `people`.
 */
export type TableMessage =
  | { type: 'table'; page: string; head: ChangeTableHead }
  | { type: 'rows'; page: string; rows: Uint8Array }
  | { type: 'more'; page: string; from: number; rows: Uint8Array }
  | { type: 'summary'; page: string; summary: TableSummary }
  | { type: 'people'; page: string; people: Record<string, string> };

/** Whether a message from a webview is a page asking for its table (then post `head()`, then `rows()`). */
export function isTableRequest(m: unknown): m is TableRequest {
  return typeof m === 'object' && m !== null && (m as { command?: unknown }).command === 'ready' && typeof (m as { page?: unknown }).page === 'string';
}

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
  head(): TableMessage {
    const head = changeTableHead(this.table, this.strings);
    if (this.total !== undefined && this.total > head.total) head.total = this.total;
    return { type: 'table', page: this.page, head };
  }

  /** A table read batch by batch: the rows from index `from` to the last made (their bytes kept for the next asks). */
  more(from: number): TableMessage {
    const rows = rowsBytes(this.table, from);
    (this.made.batches ??= []).push({ from, rows });
    return { type: 'more', page: this.page, from, rows };
  }

  /** A table read batch by batch: its counts and lines, now that every read is done (kept for the next asks). */
  summary(summary: TableSummary): TableMessage {
    this.made.summary = summary;
    return { type: 'summary', page: this.page, summary };
  }

  /** Whether the table is read batch by batch (its rows go as `more`, its counts as `summary`). */
  get byBatch(): boolean {
    return this.made.batches !== undefined;
  }

  /** What a page gets after `head()` when it asks: every row, or the batches so far and the summary when done. */
  rest(): TableMessage[] {
    if (!this.made.batches) return [this.rows()];
    const out: TableMessage[] = this.made.batches.map((b) => ({ type: 'more', page: this.page, from: b.from, rows: b.rows }));
    if (this.made.summary) out.push({ type: 'summary', page: this.page, summary: this.made.summary });
    return out;
  }

  /** Makes every row's bytes now (once), so that `rows()` has them. */
  prepare(): void {
    this.made.bytes ??= rowsBytes(this.table);
  }

  /** Every row. */
  rows(): TableMessage {
    this.prepare();
    return { type: 'rows', page: this.page, rows: this.made.bytes! };
  }

  /** The people's names (learned after the table was posted): the page paints the rows in sight again. */
  people(): TableMessage {
    return { type: 'people', page: this.page, people: this.table.people ?? {} };
  }
}
