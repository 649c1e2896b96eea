// Shared fixtures of the bulk engine's tests (not a test file itself).
import { ServiceClient } from '../../src/api/client';
import { createSandbox, generateDataset, type Sandbox } from '../../src/sandbox';
import type { DatasetInput } from '../../src/sandbox/model';
import type { BulkClient, Clock } from '../../src/bulk';
import type { UpdateWorkItemsBody, UpdateWorkItemsResponse } from '../../src/schema/api';

export const ADMIN = { kind: 'basic', loginName: 'admin', password: 'password' } as const;

/** A sandbox with `workItems` generated items (plus the projects' root folders). */
export async function startSandbox(workItems = 200, data?: DatasetInput): Promise<Sandbox> {
  return createSandbox({ data: data ?? generateDataset({ workItems, users: 10, organizations: 2, processCategories: 0, seed: 7 }) });
}

export function clientFor(sandbox: Pick<Sandbox, 'url'>, opts: { headersMs?: number } = {}): ServiceClient {
  return new ServiceClient({
    baseUrl: sandbox.url,
    credentials: () => ADMIN,
    ...(opts.headersMs ? { timeouts: { headersMs: opts.headersMs, bodyMs: opts.headersMs } } : {}),
  });
}

export async function sandboxPost(sandbox: Sandbox, path: string, body: unknown): Promise<void> {
  const res = await fetch(`${sandbox.origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`POST ${path} → ${res.status}: ${await res.text()}`);
}

/** Queues a fault for the next matching API request(s). */
export function fault(sandbox: Sandbox, spec: Record<string, unknown>): Promise<void> {
  return sandboxPost(sandbox, '/_sandbox/faults', spec);
}

export interface StoredItem {
  id: string;
  plannedStartDate: string | null;
  plannedFinishDate: string | null;
  [k: string]: unknown;
}

export async function storedItem(sandbox: Sandbox, id: string): Promise<StoredItem> {
  const res = await fetch(`${sandbox.origin}/_sandbox/workitems/${encodeURIComponent(id)}`);
  if (!res.ok) throw new Error(`GET /_sandbox/workitems/${id} → ${res.status}`);
  return (await res.json()) as StoredItem;
}

/** IDs of non-folder work items that have a schedule (so moveScheduleDays shows). */
export function scheduledTaskIds(sandbox: Sandbox, n: number): string[] {
  const ids = sandbox.data.workItems
    .filter((w) => w.itemTypeId !== '41' && w.plannedStartDate !== null && w.plannedFinishDate !== null && !w.isDeleted)
    .map((w) => w.id);
  if (ids.length < n) throw new Error(`the data set has only ${ids.length} scheduled items, ${n} needed`);
  return ids.slice(0, n);
}

export function snapshotDates(sandbox: Sandbox, ids: readonly string[]): Map<string, { plannedStartDate: string | null; plannedFinishDate: string | null }> {
  const byId = new Map(sandbox.data.workItems.map((w) => [w.id, w]));
  return new Map(ids.map((id) => [id, { plannedStartDate: byId.get(id)!.plannedStartDate, plannedFinishDate: byId.get(id)!.plannedFinishDate }]));
}

export function addDays(date: string | null, days: number): string | null {
  if (date === null) return null;
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * A discrete-event fake clock: `sleep` registers a timer; whenever every promise
 * chain is blocked (checked with setImmediate), time jumps to the earliest timer.
 * Code under test must only wait on this clock or on promises (no real I/O), so
 * pacing can be asserted exactly, without wall-clock timing.
 */
export class FakeClock implements Clock {
  t = 1_000_000;
  readonly sleeps: number[] = [];
  private timers: { at: number; seq: number; resolve: () => void }[] = [];
  private seq = 0;
  private scheduled = false;

  now(): number {
    return this.t;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    this.sleeps.push(ms);
    return new Promise<void>((resolve, reject) => {
      const timer = { at: this.t + Math.max(0, ms), seq: this.seq++, resolve: () => { signal?.removeEventListener('abort', onAbort); resolve(); } };
      const onAbort = (): void => {
        this.timers = this.timers.filter((x) => x !== timer);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.timers.push(timer);
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.timers.length === 0) return;
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.timers.shift()!;
      this.t = Math.max(this.t, next.at);
      next.resolve();
      if (this.timers.length > 0) this.schedule();
    });
  }
}

/**
 * A virtual clock for pacing: time moves only when something sleeps (to the end of that
 * sleep), so the spacing of calls shows exactly, whatever the machine's load; the requests
 * themselves take no virtual time. Unlike FakeClock, sleeps never wait for each other: for
 * code that sleeps one turn at a time (a pacer) over real HTTP.
 */
export function virtualClock(): Clock {
  let t = 1_000_000;
  return {
    now: () => t,
    sleep: (ms, signal) => {
      if (signal?.aborted) return Promise.reject(signal.reason);
      t += Math.max(0, ms);
      return new Promise((r) => setImmediate(r));
    },
  };
}

/**
 * Real time plus a skip: `sleep` returns at once and moves this clock's time
 * forward by the slept amount (retry backoffs and Retry-After against real HTTP
 * without waiting). `slept` lists every sleep.
 */
export function skippingClock(): Clock & { slept: number[] } {
  let skip = 0;
  const slept: number[] = [];
  return {
    slept,
    now: () => Date.now() + skip,
    sleep: (ms, signal) => {
      if (signal?.aborted) return Promise.reject(signal.reason);
      slept.push(ms);
      skip += Math.max(0, ms);
      return new Promise((r) => setImmediate(r));
    },
  };
}

/** Wraps a client and records every call (ids, time, whether the job was aborted then). */
export function recording(client: BulkClient, signal?: AbortSignal): BulkClient & { calls: { ids: string[]; abortedBefore: boolean }[] } {
  const calls: { ids: string[]; abortedBefore: boolean }[] = [];
  return {
    calls,
    updateWorkItems(ids: readonly string[], body: UpdateWorkItemsBody, o?: { signal?: AbortSignal }): Promise<UpdateWorkItemsResponse> {
      calls.push({ ids: [...ids], abortedBefore: signal?.aborted === true });
      return client.updateWorkItems(ids, body, o);
    },
  };
}
