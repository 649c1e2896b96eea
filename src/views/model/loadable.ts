// One node's load in a tree view, and how long the view's request for its rows waits
// for it. No vscode import (the benchmarks run it in plain Node).
//
// Why the wait: VS Code reuses a node's children request that is still in flight when the
// node is refreshed, so a change announced while the view is still applying a "Loading…"
// row that it was just given is dropped, and the row stays. A level whose data arrives
// within FIRST_ROWS_WAIT_MS is therefore returned to the view's request directly: no
// placeholder was given and no change is announced. Only a slower load gives the view a
// "Loading…" row, and its end (loaded or failed) is announced.

/** How long a request of the view for a node's rows waits for its load before a "Loading…" row. */
export const FIRST_ROWS_WAIT_MS = 150;

export type LoadState<T> =
  | { kind: 'idle' }
  | { kind: 'loading'; controller: AbortController; promise: Promise<void> }
  | { kind: 'loaded'; value: T }
  | { kind: 'failed'; error: unknown };

export interface LoadHooks {
  /** A failure that means "load again" (a shared request cancelled by another node's refresh). */
  again?(error: unknown): boolean;
  /** A load failed (not called when it was aborted or is loaded again). */
  failed?(error: unknown): void;
}

/**
 * One node's load: starts once, can be cancelled (refresh), ends loaded or failed. The
 * view reads it through `within` (waits a little) or `shown` (now); `changed` is called when
 * a load ends whose "Loading…" row the view was given, and only then.
 */
export class LoadCell<T> {
  state: LoadState<T> = { kind: 'idle' };
  /** The view was given a "Loading…" row for the load in flight: its end is announced. */
  private placeholder = false;

  constructor(
    private readonly load: (signal: AbortSignal) => Promise<T>,
    private readonly changed: () => void,
    private readonly hooks: LoadHooks = {},
  ) {}

  /** Starts the load when idle. */
  ensure(): void {
    if (this.state.kind !== 'idle') return;
    const controller = new AbortController();
    this.placeholder = false;
    const mine = () => this.state.kind === 'loading' && this.state.controller === controller;
    let answer: Promise<T>;
    try {
      answer = this.load(controller.signal);
    } catch (e) {
      answer = Promise.reject(e);
    }
    const promise = answer.then(
      (value) => {
        if (!mine()) return;
        this.state = { kind: 'loaded', value };
        this.announce();
      },
      (error: unknown) => {
        if (!mine()) return;
        if (controller.signal.aborted) {
          this.state = { kind: 'idle' };
          return;
        }
        if (this.hooks.again?.(error)) {
          // A waiting request of the view starts it again itself; a "Loading…" row asks the view to.
          this.state = { kind: 'idle' };
          this.announce();
          return;
        }
        this.hooks.failed?.(error);
        this.state = { kind: 'failed', error };
        this.announce();
      },
    );
    this.state = { kind: 'loading', controller, promise };
  }

  private announce(): void {
    if (!this.placeholder) return;
    this.placeholder = false;
    this.changed();
  }

  /**
   * The state for the view now (starting the load when idle): a load still in flight is a
   * "Loading…" row the view is given, so its end will be announced.
   */
  shown(): LoadState<T> {
    this.ensure();
    if (this.state.kind === 'loading') this.placeholder = true;
    return this.state;
  }

  /**
   * The state for the view once the load has ended or `ms` have passed, whichever comes
   * first (starting the load when idle). Loaded or failed within the wait: returned as it is,
   * nothing announced. Still loading: as `shown`.
   *
   * `arrived` is called when the load ended during this wait, before the rows are returned:
   * what the owner's own row shows may depend on it (a count, a name, whether it has children).
   * Announcing the owner then, while the view still waits for its rows, is safe: the view takes
   * the rows it is about to get (or asks again and gets them at once). Announced later, when
   * the view holds the rows, VS Code's extension host forgets the rows it had registered.
   */
  async within(ms = FIRST_ROWS_WAIT_MS, arrived?: (state: LoadState<T>) => void): Promise<LoadState<T>> {
    const deadline = Date.now() + ms;
    const ended = (st: LoadState<T>) => st.kind === 'loaded' || st.kind === 'failed';
    const before = ended(this.state);
    for (;;) {
      this.ensure();
      const st = this.state;
      const left = deadline - Date.now();
      if (st.kind !== 'loading' || left <= 0) {
        const now = this.shown();
        if (arrived && !before && ended(now)) arrived(now);
        return now;
      }
      // One promise woken by the load's end or the timer, whichever comes first (no race of two promises).
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        void st.promise.then(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits for the current load (tests, reveal, Load All). */
  async settled(): Promise<void> {
    if (this.state.kind === 'loading') await this.state.promise;
  }

  /** Cancels a running load and forgets the result. */
  reset(): void {
    if (this.state.kind === 'loading') this.state.controller.abort();
    this.state = { kind: 'idle' };
    this.placeholder = false;
  }
}
