// Reading many work items by ID: split the IDs into GETs whose URLs fit the URL
// budget (the same batching as a bulk update's, src/bulk/plan.ts), send them one
// after another paced like every other job, and collect what came back.
// No vscode import.
import { DEFAULT_MAX_URL_LENGTH, DEFAULT_MIN_INTERVAL_MS, DEFAULT_REQUESTS_PER_MINUTE, MAX_ITEMS_PER_UPDATE, SERVICE_REQUESTS_PER_MINUTE } from './limits';
import { SharedPacing, Pacer, intervalFor, systemClock, type Clock, type PacerSlot } from './pacer';
import { workItemIdOf, type WorkItemRecord } from '../schema/reads';
import type { CallOptions, ServiceClient } from './client';
import { ServiceError } from './errors';
import { batchIdsByUrlLength, checkedBatch, parseBaseUrl, readQuery, validateWorkItemIdForPath } from './paths';

/** The path prefix of a read by IDs; the IDs follow, joined with literal commas. */
const WORK_ITEMS_PREFIX = '/workitem/workItems/';

/** Tries of one batch answering 429 or 503 before the error is thrown. */
const MAX_ATTEMPTS = 4;
const MAX_RETRY_WAIT_MS = 60_000;

/** Thrown by {@link planWorkItemReads} (and so by {@link readWorkItems}) for IDs or limits that cannot be read. */
export class ReadPlanError extends Error {
  constructor(readonly problems: readonly string[]) {
    const head = problems.slice(0, 3).join('; ');
    super(`the work items cannot be read: ${head}${problems.length > 3 ? ` (and ${problems.length - 3} more)` : ''}`);
    this.name = 'ReadPlanError';
  }
}

/**
 * Splits `ids` into batches whose GET URL (`baseUrl` + `/workitem/workItems/` + the
 * IDs joined with commas + `?fields=...`) is at most `maxUrlLength` characters and
 * which hold at most `maxIdsPerRequest` IDs (default 1000, as for updates).
 * Duplicate IDs are read once (first occurrence's order). Pure.
 *
 * Throws {@link ReadPlanError} listing every problem: an invalid ID (with its
 * position), an ID that does not fit a URL on its own, a bad field name, base URL
 * or limit.
 */
export function planWorkItemReads(
  baseUrl: string,
  ids: readonly string[],
  fields: readonly string[] | undefined,
  maxUrlLength: number = DEFAULT_MAX_URL_LENGTH,
  maxIdsPerRequest: number = MAX_ITEMS_PER_UPDATE,
): (readonly string[])[] {
  const problems: string[] = [];
  if (!Number.isInteger(maxUrlLength) || maxUrlLength < 1) problems.push(`maxUrlLength must be a positive integer (got ${String(maxUrlLength)})`);
  if (!Number.isInteger(maxIdsPerRequest) || maxIdsPerRequest < 1) problems.push(`maxIdsPerRequest must be a positive integer (got ${String(maxIdsPerRequest)})`);
  let href = '';
  try {
    href = parseBaseUrl(baseUrl).href;
  } catch (e) {
    problems.push(e instanceof Error ? e.message : String(e));
  }
  let query = '';
  try {
    query = readQuery(fields);
  } catch (e) {
    problems.push(e instanceof Error ? e.message : String(e));
  }
  if (!Array.isArray(ids)) problems.push('the work item IDs must be a list');
  const distinct: string[] = [];
  const seen = new Set<string>();
  (Array.isArray(ids) ? ids : []).forEach((id, i) => {
    if (seen.has(id)) return;
    seen.add(id);
    const problem = validateWorkItemIdForPath(id);
    if (problem !== undefined) problems.push(`work item ID #${i + 1}: ${problem}`);
    else distinct.push(id);
  });
  if (problems.length > 0) throw new ReadPlanError(problems);
  const fixed = href.length + WORK_ITEMS_PREFIX.length + (query ? query.length + 1 : 0);
  const { batches, tooLong } = batchIdsByUrlLength(distinct, fixed, maxUrlLength, maxIdsPerRequest);
  for (const t of tooLong) {
    problems.push(`work item ID "${t.id.length > 40 ? `${t.id.slice(0, 40)}…` : t.id}" does not fit in a request URL of at most ${maxUrlLength} characters on its own (it needs ${t.needs})`);
  }
  if (problems.length > 0) throw new ReadPlanError(problems);
  // Each ID was checked above (and each batch is distinct): the client sends them as planned.
  return batches.map(checkedBatch);
}

export interface ReadWorkItemsOptions {
  /** Field names to ask for (`Id` comes back too); all fields when absent. */
  fields?: readonly string[];
  /** Longest request URL, default 8000 (as for updates). */
  maxUrlLength?: number;
  /** Pace: at most this many requests a minute (default 600, i.e. 100 ms apart; at most the service's 1500). */
  requestsPerMinute?: number;
  signal?: AbortSignal;
  /** Called after each request with the number of IDs settled so far and the number of distinct IDs. */
  onProgress?: (done: number, total: number) => void;
  /** Called after each batch (also one answered 404) with its IDs and every record read so far, by ID (the map `items` of the result). */
  onBatch?: (batch: readonly string[], items: Map<string, WorkItemRecord>) => void;
  /** The clock of the pacing (tests); the system clock by default. */
  clock?: Clock;
  /** The time line of the work this read is part of (a Send, a Preview); a pace of its own without. */
  pacing?: SharedPacing;
}

export interface ReadWorkItemsResult {
  /** The records that came back, by ID (`fields.Id`). */
  items: Map<string, WorkItemRecord>;
  /** IDs asked for that did not come back (they do not exist, are deleted or not visible), in the order asked. */
  missing: string[];
  /** Number of GET requests sent. */
  requests: number;
}

/**
 * Reads many work items by ID in batches (see {@link planWorkItemReads}), one
 * request at a time, paced. A batch answering 404 means none of its IDs exists;
 * every other error ends the read and is thrown as it is (a ServiceError; kind
 * `cancelled` when `signal` aborts, also while waiting for the pace).
 */
export async function readWorkItems(client: ServiceClient, ids: readonly string[], o: ReadWorkItemsOptions = {}): Promise<ReadWorkItemsResult> {
  const batches = planWorkItemReads(client.baseUrl, ids, o.fields, o.maxUrlLength ?? DEFAULT_MAX_URL_LENGTH);
  const total = batches.reduce((n, b) => n + b.length, 0);
  const rpm = o.requestsPerMinute ?? DEFAULT_REQUESTS_PER_MINUTE;
  if (!(typeof rpm === 'number' && rpm > 0 && rpm <= SERVICE_REQUESTS_PER_MINUTE)) {
    throw new ReadPlanError([`requestsPerMinute must be a number above 0 and at most ${SERVICE_REQUESTS_PER_MINUTE} (got ${String(rpm)})`]);
  }
  const clock = o.clock ?? systemClock;
  const pacer = new Pacer(intervalFor(rpm, DEFAULT_MIN_INTERVAL_MS), clock, o.pacing);
  const items = new Map<string, WorkItemRecord>();
  const call: CallOptions = { signal: o.signal };
  let done = 0;
  let requests = 0;
  for (const batch of batches) {
    let slot: PacerSlot;
    try {
      slot = await pacer.slot(o.signal);
    } catch {
      throw new ServiceError({ kind: 'cancelled', method: 'GET', path: '/workitem/workItems/…', sent: false });
    }
    for (let attempt = 1; ; attempt++) {
      requests++;
      try {
        slot.start(); // the turn starts as the read leaves
        keepAsked(items, batch, await client.getWorkItems(batch, o.fields, call));
        break;
      } catch (e) {
        if (e instanceof ServiceError && e.kind === 'http' && e.status === 404) break;
        // Too many requests / unavailable: the whole read waits (Retry-After, else 1 s), then tries the batch again.
        if (e instanceof ServiceError && e.kind === 'http' && (e.status === 429 || e.status === 503) && attempt < MAX_ATTEMPTS) {
          pacer.holdUntil(clock.now() + Math.min(e.retryAfterMs ?? 1000, MAX_RETRY_WAIT_MS));
          try {
            slot = await pacer.slot(o.signal);
          } catch {
            throw new ServiceError({ kind: 'cancelled', method: 'GET', path: '/workitem/workItems/…', sent: false });
          }
          continue;
        }
        throw e;
      }
    }
    done += batch.length;
    o.onBatch?.(batch, items);
    o.onProgress?.(done, total);
  }
  // The batches hold each ID once, in the order asked.
  const missing: string[] = [];
  for (const batch of batches) for (const id of batch) if (!items.has(id)) missing.push(id);
  return { items, missing, requests };
}

/**
 * Keeps the records of `answer` that `batch` asked for, by ID (a record of an ID not asked
 * for is left out). An answer in the order asked is checked position by position, without
 * a set of the batch's IDs.
 */
function keepAsked(items: Map<string, WorkItemRecord>, batch: readonly string[], answer: readonly WorkItemRecord[]): void {
  let inOrder = answer.length <= batch.length;
  for (let i = 0; inOrder && i < answer.length; i++) inOrder = workItemIdOf(answer[i]!) === batch[i];
  if (inOrder) {
    for (let i = 0; i < answer.length; i++) items.set(batch[i]!, answer[i]!);
    return;
  }
  const asked = new Set(batch);
  for (const r of answer) {
    const id = workItemIdOf(r);
    if (id !== undefined && asked.has(id)) items.set(id, r);
  }
}

// ---------------------------------------------------------------------------
// A service that refuses a field name it does not know
// ---------------------------------------------------------------------------

/**
 * Whether a failed read looks like the service refusing what it was asked (a 4xx
 * other than sign-in, permission, not found, timeout and rate limit): a server that
 * does not know a name in `fields=` may answer so. The help promises no error codes
 * or messages (C3), so only the status is read.
 */
export function isFieldRefusal(e: unknown): boolean {
  if (!(e instanceof ServiceError) || e.kind !== 'http' || e.status === undefined) return false;
  return e.status >= 400 && e.status < 500 && ![401, 403, 404, 408, 429].includes(e.status);
}

/**
 * Reads with `fields`; when the service refuses them ({@link isFieldRefusal}) and
 * `fallback` differs, reads once more with `fallback` (the core official names) and,
 * when that read is answered, calls `refused` with the first error (a refusal for
 * another reason fails the second read too, and nothing is said). Every other error,
 * and one of the second read, is thrown as it is; so is a refusal when `mayRetry`
 * says no (a read of several requests whose first ones were answered: the names
 * were not what was refused).
 */
export async function readWithFieldFallback<T>(
  fields: readonly string[],
  fallback: readonly string[],
  read: (fields: readonly string[]) => Promise<T>,
  refused: (e: ServiceError, fields: readonly string[]) => void,
  mayRetry: () => boolean = () => true,
): Promise<T> {
  try {
    return await read(fields);
  } catch (e) {
    const same = fields.length === fallback.length && fields.every((f, i) => f === fallback[i]);
    if (same || !isFieldRefusal(e) || !mayRetry()) throw e;
    const answer = await read(fallback);
    refused(e as ServiceError, fields);
    return answer;
  }
}
