// Paging state of a limit/offset list ("Load More"). No vscode import.

export interface Page<T> {
  totalCount: number;
  data: T[];
}

/**
 * Items loaded so far, and what the next page asks for. Items are deduplicated by
 * id (a record added on the server between two pages would otherwise shift the
 * next page and repeat one), and `totalCount` is the latest one reported.
 */
export class PagedList<T extends { id: string }> {
  private readonly items: T[] = [];
  private readonly ids = new Set<string>();
  private total: number | undefined;
  private offset = 0;

  constructor(readonly pageSize: number) {
    if (!Number.isInteger(pageSize) || pageSize < 1) throw new RangeError(`page size must be a positive integer, not ${pageSize}`);
  }

  get loaded(): readonly T[] {
    return this.items;
  }

  /** undefined until the first page arrived. */
  get totalCount(): number | undefined {
    return this.total;
  }

  get started(): boolean {
    return this.total !== undefined;
  }

  get hasMore(): boolean {
    return this.total === undefined || this.offset < this.total;
  }

  /** `limit`/`offset` of the next request. */
  nextPage(): { limit: number; offset: number } {
    return { limit: this.pageSize, offset: this.offset };
  }

  /** Adds a page that answered `nextPage()`. Returns how many new items it added. */
  append(page: Page<T>): number {
    this.total = page.totalCount;
    this.offset += page.data.length;
    let added = 0;
    for (const item of page.data) {
      if (this.ids.has(item.id)) continue;
      this.ids.add(item.id);
      this.items.push(item);
      added++;
    }
    // A short page means the end, whatever totalCount said.
    if (page.data.length < this.pageSize) this.total = this.offset;
    return added;
  }
}
