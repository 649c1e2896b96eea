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

/** The page being loaded, or why the last one failed. */
export type PageState = { kind: 'idle' } | { kind: 'loading'; controller: AbortController; promise: Promise<void> } | { kind: 'failed'; error: unknown };

export interface PagedLoaderOptions<T> {
  /** Reads one page (`limit`/`offset` of the list's next page). */
  fetch(page: { limit: number; offset: number }, signal: AbortSignal): Promise<Page<T>>;
  /** A page failed (not called when it was aborted: by `reset`, `abort` or the caller's signal). */
  failed?(error: unknown): void;
  /** The state changed: a page settled (and, with `announceStart`, one started). */
  changed(): void;
  announceStart?: boolean;
}

/**
 * A limit/offset list loaded one page at a time ("Load More"): the pages so far and
 * the page in flight or failed. One page loads at a time; an answer that arrives
 * after `reset` or `abort` is dropped; an aborted page is not a failure.
 */
export class PagedLoader<T extends { id: string }> {
  private current: PagedList<T>;
  private page: PageState = { kind: 'idle' };

  constructor(
    pageSize: number,
    private readonly o: PagedLoaderOptions<T>,
  ) {
    this.current = new PagedList(pageSize);
  }

  get list(): PagedList<T> {
    return this.current;
  }

  get state(): PageState {
    return this.page;
  }

  /** Why the last page failed; undefined unless it did. */
  get failure(): unknown {
    return this.page.kind === 'failed' ? this.page.error : undefined;
  }

  /** Loads the next page (the one in flight when one is; nothing when all are loaded). Resolves when it settled, never rejects. */
  loadMore(signal?: AbortSignal): Promise<void> {
    if (this.page.kind === 'loading') return this.page.promise;
    if (this.current.started && !this.current.hasMore) return Promise.resolve();
    const controller = new AbortController();
    const onAbort = (): void => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const list = this.current;
    const mine = (): boolean => this.current === list && this.page.kind === 'loading' && this.page.controller === controller;
    let answer: Promise<Page<T>>;
    try {
      answer = this.o.fetch(list.nextPage(), controller.signal);
    } catch (e) {
      answer = Promise.reject(e);
    }
    const promise = answer
      .then(
        (page) => {
          if (!mine()) return;
          list.append(page);
          this.page = { kind: 'idle' };
        },
        (error: unknown) => {
          if (!mine()) return;
          if (controller.signal.aborted) {
            this.page = { kind: 'idle' };
            return;
          }
          this.o.failed?.(error);
          this.page = { kind: 'failed', error };
        },
      )
      .finally(() => {
        signal?.removeEventListener('abort', onAbort);
        this.o.changed();
      });
    this.page = { kind: 'loading', controller, promise };
    if (this.o.announceStart) this.o.changed();
    return promise;
  }

  /** Forgets a failure, so that the next `loadMore` asks again. */
  clearFailure(): void {
    if (this.page.kind === 'failed') this.page = { kind: 'idle' };
  }

  /** Aborts the page in flight (its answer is dropped). */
  abort(): void {
    if (this.page.kind === 'loading') this.page.controller.abort();
    this.page = { kind: 'idle' };
  }

  /** Drops every page (aborting the one in flight): the next `loadMore` reads the first page again. */
  reset(pageSize = this.current.pageSize): void {
    this.abort();
    this.current = new PagedList(pageSize);
  }

  /** Resolves once no page is loading. */
  async settled(): Promise<void> {
    while (this.page.kind === 'loading') await this.page.promise;
  }
}
