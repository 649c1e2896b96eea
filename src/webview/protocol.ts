// What our webviews and the extension say to each other, in one envelope for every view:
// each message is an object whose `type` says what it is (a discriminated union per view and
// direction). The extension's panels and the pages' scripts (the `web/` folders) import the same
// types, so a message one side posts and the other does not read is a type error; the side that
// receives a message still checks it (a message is input). Here: the envelope, a page's button
// press, and the before/after table that the Before/After view and the result view paint (its
// rows with named fields, its settings, its messages). No vscode import, no DOM.

/** Every message between a webview of ours and the extension. */
export interface Envelope {
  readonly type: string;
}

/** A button of a page pressed (its `data-command`): Refresh and Send of the Before/After view, the result view's actions. */
export interface CommandMessage<N extends string = string> {
  type: 'command';
  name: N;
}

/** A button press, when `m` is one naming a button of `names`. */
export function readCommand<N extends string>(m: unknown, names: readonly N[]): CommandMessage<N> | undefined {
  if (typeof m !== 'object' || m === null) return undefined;
  const { type, name } = m as { type?: unknown; name?: unknown };
  return type === 'command' && typeof name === 'string' && (names as readonly string[]).includes(name) ? { type, name: name as N } : undefined;
}

/** State of a cell: unchanged, changes as expected, computed by the service, different from what was expected. */
export const CellState = { Unchanged: 0, Changes: 1, Computed: 2, Unexpected: 3 } as const;
export type CellState = (typeof CellState)[keyof typeof CellState];

/**
 * One item of a before/after table. The cells are three arrays in the table's `fields` order
 * (`state[i]`, `before[i]`, `after[i]` are field `i`'s), not an object per cell: 20,000 rows
 * stay cheap to build and to send. Values are raw (as read, normalized): the page formats only
 * the rows in sight. A table of several requests will add a group header row beside this one
 * (a union discriminated by its own member).
 */
export interface ItemRow {
  id: string;
  name: string;
  /** Sentences about the item (its problems), already joined. */
  remarks: string;
  /** A problem, or a value not as expected: the row is marked and found by the "problems" filter. */
  flagged: boolean;
  state: CellState[];
  before: unknown[];
  /** The value after (or expected); null when unchanged or computed. */
  after: unknown[];
}

export interface FieldCounts {
  field: string;
  changes: number;
  unchanged: number;
  computed: number;
  unexpected: number;
}

/** A sentence shown above the table (notes, problems, what could not be read). */
export interface TableLine {
  text: string;
  level: 'info' | 'warning' | 'error';
}

/** The words of the table's column headers. */
export interface ColumnWords {
  id: string;
  name: string;
  remarks: string;
  field: string;
  changes: string;
  unchanged: string;
  computed: string;
  unexpected: string;
}

/**
 * What the page paints the table from: its settings (columns, words, names, hour units) and its
 * first rows; `total` rows in all (the rest come after the first paint).
 */
export interface ChangeTableHead {
  /** The fields' system names (each column header's hover). */
  fields: string[];
  /** The fields' names as people read them (the column headers), in `fields` order. */
  labels: string[];
  /** The row height in pixels. */
  h: number;
  empty: string;
  computed: string;
  col: ColumnWords;
  kind: 'preview' | 'result';
  people: Record<string, string>;
  /** Names of list values by field (an item type or a status by its ID), as the project's profile gives them. */
  choices?: Record<string, Record<string, string>>;
  /** `{0}`-templates of hours and minutes. */
  hours: string;
  minutes: string;
  rows: ItemRow[];
  total: number;
}

/** The counts and lines of a table read batch by batch (they need every item): sent when the last read is done, with the line that says what was read. */
export interface TableSummary {
  counts: FieldCounts[];
  lines: TableLine[];
  status: string;
}

/** A page with a posted table asks for it once loaded, with its page mark (an answer goes to the page that asked). */
export interface TableRequest {
  type: 'ready';
  page: string;
}

/**
 * The messages of a table to its page, in this order: `table` (painted at once), then `rows` (every
 * row) or, for a table read batch by batch, one `more` per batch (the rows from index `from`, appended
 * as they come) and `summary` when the last read is done; later maybe `people`. Rows travel as UTF-8
 * JSON bytes of an `ItemRow[]` (an ArrayBuffer crosses to the webview as it is).
 */
export type ChangeTableMessage =
  | { type: 'table'; page: string; head: ChangeTableHead }
  | { type: 'rows'; page: string; rows: Uint8Array }
  | { type: 'more'; page: string; from: number; rows: Uint8Array }
  | { type: 'summary'; page: string; summary: TableSummary }
  | { type: 'people'; page: string; people: Record<string, string> };

/** Whether a message from a webview is a page asking for its table. */
export function isTableRequest(m: unknown): m is TableRequest {
  return typeof m === 'object' && m !== null && (m as { type?: unknown }).type === 'ready' && typeof (m as { page?: unknown }).page === 'string';
}
