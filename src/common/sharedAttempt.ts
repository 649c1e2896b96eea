// One interactive attempt (a sign-in prompt) at a time per key (the service origin),
// shared by every caller that needs it: concurrent callers await the same outcome.
// An explicit request (the Sign In command) replaces the attempt in flight, as VS Code
// replaces an open quick input with a new one; the callers waiting on the old attempt
// get the new one's outcome instead of the old prompt's "closed". A waiter's own
// AbortSignal releases that waiter only. Nothing here can leave a caller waiting
// forever once the attempt settles, is replaced, or `cancelAll` runs.
// No vscode import (unit-tested in plain Node).

interface Session<T> {
  /** Number of the newest attempt; only its outcome settles the session. */
  latest: number;
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export class SharedAttempt<T> {
  private readonly sessions = new Map<string, Session<T>>();
  private counter = 0;

  /** True while an attempt for `key` is in flight. */
  isPending(key: string): boolean {
    return this.sessions.has(key);
  }

  /** Waits for the attempt in flight for `key`, or starts one with `start` when none is. */
  join(key: string, start: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const session = this.sessions.get(key) ?? this.begin(key, start);
    return releasable(session.promise, signal);
  }

  /**
   * Starts a new attempt even when one is in flight; every caller waiting for `key`
   * (and this one) gets the new attempt's outcome. The old attempt's outcome is ignored.
   */
  replace(key: string, start: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const session = this.sessions.get(key);
    if (!session) return releasable(this.begin(key, start).promise, signal);
    this.launch(key, session, start);
    return releasable(session.promise, signal);
  }

  /** Settles every waiter with `error` (disposal, the service changed); running attempts are ignored. */
  cancelAll(error: unknown): void {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    for (const s of all) s.reject(error);
  }

  private begin(key: string, start: () => Promise<T>): Session<T> {
    let resolve!: (value: T) => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // Nobody may be left listening (every waiter was aborted): no unhandled rejection.
    promise.catch(() => undefined);
    const session: Session<T> = { latest: 0, promise, resolve, reject };
    this.sessions.set(key, session);
    this.launch(key, session, start);
    return session;
  }

  private launch(key: string, session: Session<T>, start: () => Promise<T>): void {
    const n = ++this.counter;
    session.latest = n;
    let attempt: Promise<T>;
    try {
      attempt = Promise.resolve(start());
    } catch (e) {
      attempt = Promise.reject(e);
    }
    const settle = (f: () => void) => {
      if (session.latest !== n || this.sessions.get(key) !== session) return; // replaced or cancelled
      this.sessions.delete(key);
      f();
    };
    attempt.then(
      (value) => settle(() => session.resolve(value)),
      (error: unknown) => settle(() => session.reject(error)),
    );
  }
}

/** `promise`, or a rejection with the signal's reason as soon as `signal` aborts. */
export function releasable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}
