// The rows of the before/after table in the page: every row received, the rows the filter
// keeps, which rows are in sight, and the count line. Every row (or a batch of a table still
// being read) that arrives before the first paint waits for it, so the first rows are painted
// at once. Pure: the page's grid (grid.ts) paints what this says; unit tests drive it directly.
import { CellState, type ChangeTableHead, type ItemRow } from '../protocol';

/** The filter of the table's tools: every item, the changed ones, those with problems (or not as expected). */
export type RowFilter = 'all' | 'changed' | 'flag';

/** Whether a row passes the filter and the search (its ID or name contains the text, any case). */
export function rowMatches(row: ItemRow, filter: RowFilter, search: string): boolean {
  if (filter === 'flag' && !row.flagged) return false;
  if (filter === 'changed' && !row.state.some((s) => s !== CellState.Unchanged)) return false;
  const q = search.toLowerCase();
  return !q || row.id.toLowerCase().includes(q) || row.name.toLowerCase().includes(q);
}

/** Rows painted above and below those in sight. */
const OVERSCAN_ABOVE = 5;
const OVERSCAN = 10;

/** What a change of the rows asks of the grid: paint again from the top (a new filter or every row), paint again where it is, or nothing yet (before the first paint). */
export type RowsChange = 'top' | 'here' | 'later';

export class GridRows {
  /** Every row received, in order. */
  all: ItemRow[];
  /** The rows the filter keeps. */
  rows: ItemRow[];
  readonly total: number;
  private filter: RowFilter = 'all';
  private search = '';
  private painted = false;
  private later?: ItemRow[];
  private readonly pending: [number, ItemRow[]][] = [];

  constructor(head: Pick<ChangeTableHead, 'rows' | 'total'>) {
    this.all = head.rows;
    this.rows = this.all;
    this.total = head.total;
  }

  /** A new filter or search: the rows it keeps. */
  setFilter(filter: RowFilter, search: string): RowsChange {
    this.filter = filter;
    this.search = search;
    this.apply();
    return 'top';
  }

  private apply(): void {
    const { filter, search } = this;
    this.rows = filter === 'all' && !search ? this.all : this.all.filter((r) => rowMatches(r, filter, search));
  }

  /** Every row: taken now, or right after the first paint when it has not happened yet. */
  takeAll(every: ItemRow[]): RowsChange {
    if (!this.painted) {
      this.later = every;
      return 'later';
    }
    this.all = every;
    this.apply();
    return 'top';
  }

  /** Rows from index `from` (a batch of a table still being read; the first replaces the first rows), the filter kept. */
  append(from: number, more: ItemRow[]): RowsChange {
    if (!this.painted) {
      this.pending.push([from, more]);
      return 'later';
    }
    const filtered = this.rows !== this.all;
    this.all.length = Math.min(this.all.length, from);
    for (const r of more) this.all.push(r);
    if (filtered) this.apply();
    else this.rows = this.all;
    return 'here';
  }

  /** The first paint is done: what waited for it, in order (every row first). */
  firstPaintDone(): RowsChange[] {
    this.painted = true;
    const out: RowsChange[] = [];
    const every = this.later;
    this.later = undefined;
    if (every) out.push(this.takeAll(every));
    for (const [from, more] of this.pending.splice(0)) out.push(this.append(from, more));
    return out;
  }

  /** Whether every row of the table is here. */
  get complete(): boolean {
    return this.all.length >= this.total;
  }

  /** What the page's body says of its rows (data attributes the tests and benchmarks wait for): how many are here, and when all are. */
  marks(): { rowsShown: string; rowsReady?: '1' } {
    return { rowsShown: String(this.all.length), ...(this.complete ? { rowsReady: '1' as const } : {}) };
  }

  /** The rows to paint for a scroll position: from `first`, `count` of them (some past the end when few). */
  inSight(scrollTop: number, clientHeight: number, rowHeight: number): { first: number; count: number } {
    return { first: Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN_ABOVE), count: Math.ceil(clientHeight / rowHeight) + OVERSCAN };
  }

  /** The count line from its template ("-1 of -2 items"): the rows shown (every row to come while unfiltered) of every row. */
  shownText(template: string): string {
    const shown = this.rows === this.all && this.all.length < this.total ? this.total : this.rows.length;
    return template.replace('-1', String(shown)).replace('-2', String(Math.max(this.all.length, this.total)));
  }
}
