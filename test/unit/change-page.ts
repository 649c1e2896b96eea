// The before/after table's page as its modules run it, without a DOM: the page's handling of
// the extension's messages (src/webview/web/page.ts PostedTablePage) over grids that keep what
// the page's grid paints (src/webview/web/gridRows.ts for the rows, cells.ts for their texts and
// hovers), the rows in sight of a grid 240 pixels high.
import type { ChangeTableHead, ChangeTableMessage, ItemRow, TableSummary } from '../../src/webview/protocol';
import { cellViewText, headerCells, rowCells, type CellView } from '../../src/webview/web/cells';

import { GridRows, type RowFilter, type RowsChange } from '../../src/webview/web/gridRows';
import { PostedTablePage, type ChangeGrid, type SummaryRow } from '../../src/webview/web/posted';

export class ModelGrid implements ChangeGrid {
  readonly model: GridRows;
  /** The page body's data attributes of the rows. */
  readonly marks: { rowsShown?: string; rowsReady?: string } = {};
  scrollTop = 0;
  constructor(readonly head: ChangeTableHead) {
    this.model = new GridRows(head);
  }
  private changed(change: RowsChange): void {
    if (change === 'later') return;
    if (change === 'top') this.scrollTop = 0;
    Object.assign(this.marks, this.model.marks());
  }
  all(rows: ItemRow[]): void {
    this.changed(this.model.takeAll(rows));
  }
  append(from: number, rows: ItemRow[]): void {
    this.changed(this.model.append(from, rows));
  }
  people(names: Record<string, string>): void {
    this.head.people = names;
  }
  /** The first paint happened (the page's next frame and timer). */
  flush(): void {
    for (const c of this.model.firstPaintDone()) this.changed(c);
  }
  filter(filter: RowFilter, search = ''): void {
    this.changed(this.model.setFilter(filter, search));
  }
  /** The cells of the rows in sight. */
  shownCells(): CellView[][] {
    const { first, count } = this.model.inSight(this.scrollTop, 240, this.head.h);
    return this.model.rows.slice(first, first + count).map((r) => rowCells(this.head, r));
  }
  /** The rows in sight, each as the text of its cells. */
  shownRows(): string[][] {
    return this.shownCells().map((r) => r.map(cellViewText));
  }
  header(): { text: string; title: string }[] {
    return headerCells(this.head);
  }
  shown(template = '-1 of -2 items'): string {
    return this.model.shownText(template);
  }
}

/** A page of mark `page` with a posted table: messages delivered as postMessage does (a structured clone). */
export function postedPage(page: string) {
  const grids: ModelGrid[] = [];
  let summary: { rows: SummaryRow[]; s: TableSummary } | undefined;
  const table = new PostedTablePage(
    page,
    (head) => {
      const g = new ModelGrid(head);
      grids.push(g);
      return g;
    },
    (rows, s) => (summary = { rows, s }),
  );
  return {
    deliver: (m: ChangeTableMessage): void => table.receive(structuredClone(m)),
    grid: (): ModelGrid | undefined => grids.at(-1),
    summary: () => summary,
  };
}
