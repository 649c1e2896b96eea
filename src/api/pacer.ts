// Pacing of request starts across parallel workers (a bulk job's, a read of many
// items'), and the clock it runs on. No vscode import.

/** Time source, injectable for tests. `sleep` must reject (or resolve) promptly when `signal` aborts. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The real clock: Date.now and an abortable setTimeout. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(abortReason(signal));
      if (ms <= 0) return resolve();
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(abortReason(signal!));
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted', 'AbortError');
}

/**
 * Spaces request starts at least `intervalMs` apart, shared by every worker of a
 * job. Slots are granted one at a time, in the order asked (first come, first
 * served): each grant happens at least `intervalMs` after the previous grant.
 * `holdUntil(t)` delays every grant to `t` or later (a 429/503 Retry-After: the
 * whole job backs off, not one worker); a hold placed while a waiter sleeps is
 * honoured when it wakes.
 */
export class Pacer {
  private lastGrant = Number.NEGATIVE_INFINITY;
  private holdTime = Number.NEGATIVE_INFINITY;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    readonly intervalMs: number,
    private readonly clock: Clock,
  ) {}

  /** Waits for the next slot. Rejects promptly when `signal` aborts (the slot is given up). */
  acquire(signal?: AbortSignal): Promise<void> {
    const turn = this.chain.then(() => this.waitTurn(signal));
    this.chain = turn.catch(() => undefined);
    return turn;
  }

  private async waitTurn(signal?: AbortSignal): Promise<void> {
    for (;;) {
      if (signal?.aborted) throw abortReason(signal);
      const now = this.clock.now();
      const target = Math.max(this.lastGrant + this.intervalMs, this.holdTime);
      if (target <= now) {
        // A timer that fires late does not push every later slot back (no drift
        // over a long job); after an idle spell the schedule restarts from now.
        this.lastGrant = now - target < this.intervalMs ? target : now;
        return;
      }
      await this.clock.sleep(target - now, signal);
    }
  }

  /** No request starts before time `t` (clock ms). */
  holdUntil(t: number): void {
    if (t > this.holdTime) this.holdTime = t;
  }

  /** The time before which nothing starts (for progress reports), when in the future. */
  heldUntil(): number | undefined {
    return this.holdTime > this.clock.now() ? this.holdTime : undefined;
  }
}

/** The spacing between request starts for a rate and a minimum interval. */
export function intervalFor(requestsPerMinute: number, minIntervalMs: number): number {
  const byRate = Number.isFinite(requestsPerMinute) ? 60_000 / requestsPerMinute : 0;
  return Math.max(byRate, minIntervalMs);
}
