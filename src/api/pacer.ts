// Pacing of request starts across parallel workers (a bulk job's, a read of many
// items'), shared by every call of a Send, and the clock it runs on. No vscode import.

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

/** The time line pacers work on: when the last call started, the hold, the queue of turns. */
export class Schedule {
  lastStart = Number.NEGATIVE_INFINITY;
  holdTime = Number.NEGATIVE_INFINITY;
  chain: Promise<void> = Promise.resolve();
  constructor(readonly clock: Clock) {}
}

/**
 * One schedule for every call of a Send (or of a Preview): each Pacer made with it (the
 * reads before, the drift check, the updates, the reads after: src/api/reads.ts,
 * src/bulk/engine.ts, given it as `pacing`) takes its turns on this one time line, so
 * together their calls start at least one interval apart and the time a Send announces
 * (src/bulk/sendCalls.ts) holds. Its pacers run on its clock.
 */
export class SharedPacing {
  /** The time line its pacers share. */
  readonly schedule: Schedule;

  constructor(clock: Clock = systemClock) {
    this.schedule = new Schedule(clock);
  }
}

/** A turn granted by {@link Pacer.slot}: the call starts with `start()`, or the turn is given back with `release()`. */
export interface PacerSlot {
  /** The call starts now: the next turn comes one interval after this moment. */
  start(): void;
  /** No call was made (no-op after `start`): the next turn may come at once. */
  release(): void;
}

/**
 * Spaces request starts at least `intervalMs` apart, shared by every worker of a
 * job (and by every Pacer of a {@link SharedPacing}). Turns are granted one at a
 * time, in the order asked (first come, first served); the next turn is not granted
 * before the previous one has started its call (or given its turn back), and comes
 * at least `intervalMs` after that start: the starts of the calls themselves are
 * spaced, not only the grants. `holdUntil(t)` delays every turn to `t` or later (a
 * 429/503 Retry-After: the whole job backs off, not one worker); a hold placed while
 * a waiter sleeps is honoured when it wakes.
 */
export class Pacer {
  private readonly schedule: Schedule;

  /** `pacing`: the shared time line of the work this pacer is part of; without, a time line of its own. */
  constructor(
    readonly intervalMs: number,
    clock: Clock,
    pacing?: SharedPacing,
  ) {
    this.schedule = pacing?.schedule ?? new Schedule(clock);
  }

  /** Waits for the next turn and starts at once (the caller's call follows without waiting). Rejects promptly when `signal` aborts. */
  async acquire(signal?: AbortSignal): Promise<void> {
    (await this.slot(signal)).start();
  }

  /**
   * Waits for the next turn, for a caller with work to do before its call starts (a
   * journal mark): it calls `start()` as the call leaves, or `release()` when it does
   * not leave. Until one of them, no other turn is granted. Rejects promptly when
   * `signal` aborts (the turn is given up).
   */
  slot(signal?: AbortSignal): Promise<PacerSlot> {
    const s = this.schedule;
    let free!: () => void;
    const done = new Promise<void>((resolve) => (free = resolve));
    const turn = s.chain.then(() => this.waitTurn(signal));
    s.chain = turn.then(
      () => done,
      () => undefined,
    );
    return turn.then(() => {
      let used = false;
      return {
        start: () => {
          if (used) return;
          used = true;
          s.lastStart = s.clock.now();
          free();
        },
        release: () => {
          if (used) return;
          used = true;
          free();
        },
      };
    });
  }

  private async waitTurn(signal?: AbortSignal): Promise<void> {
    const s = this.schedule;
    for (;;) {
      if (signal?.aborted) throw abortReason(signal);
      const now = s.clock.now();
      const target = Math.max(s.lastStart + this.intervalMs, s.holdTime);
      if (target <= now) return;
      await s.clock.sleep(target - now, signal);
    }
  }

  /** No request starts before time `t` (clock ms). */
  holdUntil(t: number): void {
    if (t > this.schedule.holdTime) this.schedule.holdTime = t;
  }

  /** The time before which nothing starts (for progress reports), when in the future. */
  heldUntil(): number | undefined {
    const s = this.schedule;
    return s.holdTime > s.clock.now() ? s.holdTime : undefined;
  }
}

/** The spacing between request starts for a rate and a minimum interval. */
export function intervalFor(requestsPerMinute: number, minIntervalMs: number): number {
  const byRate = Number.isFinite(requestsPerMinute) ? 60_000 / requestsPerMinute : 0;
  return Math.max(byRate, minIntervalMs);
}
