// The before/after table as data for a webview that paints it itself (the Before/After
// view): the page (media/changes/page.js) asks for its table when it is loaded (again
// after the view was hidden or reloaded), and gets it as messages that
// media/changes/table.js `wisTable` paints: first the settings and the rows in sight, then
// every row as UTF-8 JSON bytes (an ArrayBuffer crosses to the webview as it is, where
// objects would be serialized value by value), and names of people when they are known.
// The rows are the table computed once (previewTable); their bytes are made once per table.
// No vscode import.
import { changeTableHead, type ChangeTable, type ChangeTableHead, type ChangeTableStrings } from './changeTable';

/** What the page posts when it is loaded: its page mark (so an answer goes to the page that asked). */
export interface TableRequest {
  command: 'ready';
  page: string;
}

/** The messages of a table to its page, in this order: `table` (painted at once), `rows`, later maybe `people`. */
export type TableMessage =
  | { type: 'table'; page: string; head: ChangeTableHead }
  | { type: 'rows'; page: string; rows: Uint8Array }
  | { type: 'people'; page: string; people: Record<string, string> };

/** Whether a message from a webview is a page asking for its table (then post `head()`, then `rows()`). */
export function isTableRequest(m: unknown): m is TableRequest {
  return typeof m === 'object' && m !== null && (m as { command?: unknown }).command === 'ready' && typeof (m as { page?: unknown }).page === 'string';
}

const utf8 = new TextEncoder();

/** Every row of the table as UTF-8 JSON (an array of rows). */
export function rowsBytes(table: ChangeTable): Uint8Array {
  return utf8.encode(JSON.stringify(table.rows));
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
    private readonly made: { bytes?: Uint8Array } = {},
  ) {}

  /** The same table shown in a new page (after a send mark, say): the rows' bytes are not made again. */
  forPage(page: string): PostedTable {
    return new PostedTable(page, this.table, this.strings, this.made);
  }

  /** The settings and the first rows. */
  head(): TableMessage {
    return { type: 'table', page: this.page, head: changeTableHead(this.table, this.strings) };
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
