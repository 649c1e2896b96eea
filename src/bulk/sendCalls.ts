// How many calls a Send makes and how long they take at the configured rate: what
// the send confirmation announces (src/changes/send.ts), computed from the same
// batching the reads and the updates use. The times hold because every call of a Send
// takes its turn on one pacer (SharedPacing, src/api/pacer.ts; src/changes/jobs/running.ts).
// No vscode import.
import { planWorkItemReads } from '../api/reads';
import { DEFAULT_MIN_INTERVAL_MS } from '../api/limits';
import { intervalFor } from '../api/pacer';
import type { UpdateWorkItemsBody } from '../schema/api';
import { extraReadsOf } from '../schema/members';
import { fieldsToReadForAll } from './effects';
import { planBodies } from './plan';
import type { JobPlan } from './types';

export interface SendCalls {
  /**
   * Reads of the values before the update (the values to undo; the drift check compares the
   * same read with the preview's), and before each add the read of its parent's sub-items.
   */
  readsBefore: number;
  /** Update requests (PUT). */
  updates: number;
  /** Reads of the values after the update, when every update succeeds (the items applied, batched like the reads before). */
  readsAfter: number;
  /** All of them. */
  total: number;
  /**
   * False when the body needs reads that depend on what is read (a move reads each
   * current parent's children and the parents' levels; setCompleted, setTimeEntryLocked
   * and propagateToChildren whether items have sub-items; an add its parent's level): `total`
   * is then a floor.
   */
  exact: boolean;
  /** Spacing between calls at the rate (ms). */
  intervalMs: number;
  /** Time the paced calls take from the first start to the last (ms): (total - 1) × interval. */
  pacedMs: number;
  /** Time to the result view: the reads before and the updates, paced (ms); the reads after fill it in. */
  toResultMs: number;
}

/** Whether reading values for `body` makes calls beyond the batched reads by ID. */
export function needsExtraReads(body: UpdateWorkItemsBody | readonly UpdateWorkItemsBody[]): boolean {
  const all = Array.isArray(body) ? (body as readonly UpdateWorkItemsBody[]) : [body as UpdateWorkItemsBody];
  return all.some((b) => extraReadsOf(b).size > 0);
}

/**
 * The calls of a Send of `plan`: with `readValues`, the batched reads before (one
 * read serves the values to undo and the drift check), the updates, and the reads
 * after; without, the updates alone.
 */
export function sendCalls(plan: Pick<JobPlan, 'ids' | 'requests' | 'parts' | 'baseUrl' | 'maxUrlLength'>, o: { readValues: boolean; requestsPerMinute: number; minIntervalMs?: number }): SendCalls {
  const updates = plan.requests.length;
  let reads = 0;
  if (o.readValues && plan.ids.length > 0) {
    try {
      reads = planWorkItemReads(plan.baseUrl, plan.ids, fieldsToReadForAll(planBodies(plan)), plan.maxUrlLength).length;
    } catch {
      reads = 0; // IDs the reads refuse are refused by the plan too: nothing to announce
    }
  }
  // Before each add, the parent's sub-items (and its level, from the chain of its parents: not counted).
  const adds = plan.parts.filter((p) => p.kind === 'add').length;
  const total = reads + adds + updates + reads;
  const intervalMs = intervalFor(o.requestsPerMinute, o.minIntervalMs ?? DEFAULT_MIN_INTERVAL_MS);
  const paced = (n: number): number => Math.max(0, n - 1) * intervalMs;
  return {
    readsBefore: reads + adds,
    updates,
    readsAfter: reads,
    total,
    exact: adds === 0 && !(o.readValues && needsExtraReads(planBodies(plan))),
    intervalMs,
    pacedMs: paced(total),
    toResultMs: paced(reads + adds + updates),
  };
}
