// The page's side of a before/after table and of its buttons, as rules without a DOM (page.ts
// puts them in the page): what a button's click posts, the ask of a page whose table is posted,
// the extension's messages for this page handed to its grid, the counts of a summary.
import type { ChangeTableHead, ChangeTableMessage, CommandMessage, ItemRow, TableRequest, TableSummary } from '../protocol';

/** The grid a page paints its table in (grid.ts). */
export interface ChangeGrid {
  /** Every row (kept until after the first paint). */
  all(rows: ItemRow[]): void;
  /** The rows of a batch of a table still being read, from index `from`. */
  append(from: number, rows: ItemRow[]): void;
  /** Names learned later: the rows in sight painted again with them. */
  people(names: Record<string, string>): void;
}

/** A row of the counts table: the field by its name (its system name on hover) and its counts. */
export interface SummaryRow {
  label: string;
  field: string;
  counts: number[];
}

/** What a click on a button posts: its name when it is one of `names`, nothing for a disabled button. */
export function pressed<N extends string>(names: readonly N[], button: { command?: string; disabled: boolean }): CommandMessage<N> | undefined {
  const name = button.command;
  return !button.disabled && name !== undefined && (names as readonly string[]).includes(name) ? { type: 'command', name: name as N } : undefined;
}

/** The ask of a page whose table is posted (its page mark; a section with data-rows="posted"); none for another page. */
export function tableAsk(page: string | undefined, rows: string | undefined): TableRequest | undefined {
  return page && rows === 'posted' ? { type: 'ready', page } : undefined;
}

/** The rows of the counts table of a summary: each field by its name (system name on hover) and its counts. */
export function summaryRows(s: TableSummary, head: Pick<ChangeTableHead, 'fields' | 'labels'>): SummaryRow[] {
  return s.counts.map((c) => {
    const at = head.fields.indexOf(c.field);
    return { label: head.labels[at] || c.field, field: c.field, counts: [c.changes, c.unchanged, c.computed] };
  });
}

const decode = (bytes: Uint8Array): ItemRow[] => JSON.parse(new TextDecoder().decode(bytes)) as ItemRow[];

/**
 * The posted table of one page: takes the extension's messages for this page (others are
 * dropped) and hands them to the grid it makes from the head, and the summary to `summary`.
 */
export class PostedTablePage {
  private grid?: ChangeGrid;
  private head: Pick<ChangeTableHead, 'fields' | 'labels'> = { fields: [], labels: [] };

  constructor(
    readonly page: string,
    private readonly makeGrid: (head: ChangeTableHead) => ChangeGrid,
    private readonly summary: (rows: SummaryRow[], s: TableSummary) => void,
  ) {}

  receive(m: ChangeTableMessage): void {
    if (m.page !== this.page) return;
    switch (m.type) {
      case 'table':
        this.head = m.head;
        this.grid = this.makeGrid(m.head);
        break;
      case 'rows':
        this.grid?.all(decode(m.rows));
        break;
      case 'more':
        this.grid?.append(m.from, decode(m.rows));
        break;
      case 'summary':
        this.summary(summaryRows(m.summary, this.head), m.summary);
        break;
      case 'people':
        this.grid?.people(m.people);
        break;
      default:
        m satisfies never;
    }
  }
}
