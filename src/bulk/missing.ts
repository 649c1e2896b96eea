// Failed requests that name work items that do not exist, and failures that a
// plain retry repeats. The service refuses a whole request when any named ID does
// not exist, so one typo holds back up to 999 good items: the result view names
// the missing IDs and offers a new job for the remaining ones.
// Error codes are no contract (official help, official-reference.md sections 1 and
// 12): a code naming a missing item is only a hint that saves a read. Every other
// refusal, whatever its status or body, is checked by READING its IDs
// (GET /workitem/workItems/{ids} fails only when none exists; it answers those that
// exist), so a server that answers `[{"message"}]` only is served the same way.
// No vscode import.
import { readWorkItems, type ReadWorkItemsOptions } from '../api/reads';
import type { ServiceClient } from '../api/client';
import { isServiceError, ServiceError } from '../api/errors';
import { DEFAULT_REQUESTS_PER_MINUTE } from '../api/limits';
import { intervalFor } from '../api/pacer';
import type { JobResult, RequestError, RequestResult } from './types';

/** The error code of a work item that does not exist (the sandbox's; params `id`, entry `itemId`). A hint only. */
export const WORK_ITEM_NOT_FOUND = 'WORK_ITEM_NOT_FOUND';

/** The IDs of a request that its error's codes say do not exist (only IDs the request named): a hint, empty without codes. */
export function missingIdsOfRequest(request: Pick<RequestResult, 'ids' | 'error' | 'state'>): string[] {
  if (request.state !== 'failed' || !request.error?.entries) return [];
  const named = new Set(request.ids);
  const out = new Set<string>();
  for (const e of request.error.entries) {
    if (e.code !== WORK_ITEM_NOT_FOUND) continue;
    const id = e.params?.id !== undefined ? String(e.params.id) : e.itemId;
    if (id !== undefined && named.has(id)) out.add(id);
  }
  return [...out];
}

export interface MissingIds {
  /** IDs the service said do not exist, in request order. */
  missing: string[];
  /** Indexes of the failed requests that named them. */
  requests: number[];
  /** The other IDs of those requests: what "Send the Rest" sends. */
  remaining: string[];
}

/** The missing IDs of a job's failed requests and what is left to send without them. */
export function missingIdsOf(result: Pick<JobResult, 'requests'>): MissingIds {
  const missing: string[] = [];
  const requests: number[] = [];
  const remaining: string[] = [];
  for (const r of result.requests) {
    const m = missingIdsOfRequest(r);
    if (m.length === 0) continue;
    requests.push(r.index);
    missing.push(...m);
    const gone = new Set(m);
    remaining.push(...r.ids.filter((id) => !gone.has(id)));
  }
  return { missing, requests, remaining };
}

/**
 * Why sending a failed request again unchanged fails the same way, or undefined when a
 * retry may succeed: the service refused it for what it says (400, 403, 404, 422), not
 * for the moment (a connection that never opened, 408, 409, 429, 5xx).
 */
export function sameFailureAgain(error: RequestError | undefined): 'missing-ids' | 'refused' | undefined {
  if (!error || error.kind !== 'http' || error.status === undefined) return undefined;
  if (![400, 403, 404, 422].includes(error.status)) return undefined;
  return error.entries?.some((e) => e.code === WORK_ITEM_NOT_FOUND) ? 'missing-ids' : 'refused';
}

/** Statuses that say nothing about the request's work items: sign-in, proxy, timeout, rate limit. */
const NOT_ABOUT_ITEMS = new Set([401, 407, 408, 429]);

/**
 * Whether an error is the service refusing the request for what it asks: an HTTP 4xx
 * answer other than 401, 407, 408 and 429, whatever its body (a missing work item can
 * be a 404, a 400, a 403, a 409... on a server whose codes are no contract).
 */
export function isRefusal(error: Pick<RequestError, 'kind' | 'status'> | undefined): boolean {
  return !!error && error.kind === 'http' && error.status !== undefined && error.status >= 400 && error.status < 500 && !NOT_ABOUT_ITEMS.has(error.status);
}

/**
 * Failed requests the service refused without naming (by a code) which of their work
 * items do not exist, whatever the status or body: the real service answers
 * `[{"message": ...}]`, whose codes are not a contract. Which IDs are missing is then
 * found by reading them ({@link readMissingIds}).
 */
export function unnamedNotFound(result: Pick<JobResult, 'requests'>): number[] {
  return result.requests.filter((r) => r.state === 'failed' && isRefusal(r.error) && missingIdsOfRequest(r).length === 0).map((r) => r.index);
}

/** Same as {@link unnamedNotFound}: refused requests whose missing IDs, if any, are found by reading. */
export const refusedWithoutNamedIds = unnamedNotFound;

/**
 * The missing IDs of the requests `indexes` as a read of their IDs found them
 * (`notFound`: the IDs the read did not return), and what is left to send without them.
 */
export function missingFromRead(result: Pick<JobResult, 'requests'>, indexes: readonly number[], notFound: Iterable<string>): MissingIds {
  const gone = new Set(notFound);
  const missing: string[] = [];
  const requests: number[] = [];
  const remaining: string[] = [];
  const wanted = new Set(indexes);
  for (const r of result.requests) {
    if (!wanted.has(r.index)) continue;
    const m = r.ids.filter((id) => gone.has(id));
    if (m.length === 0) continue;
    requests.push(r.index);
    missing.push(...m);
    remaining.push(...r.ids.filter((id) => !gone.has(id)));
  }
  return { missing, requests, remaining };
}

/**
 * The IDs among `ids` that do not exist, found by reading them (only `Id` is asked for;
 * paced; cancellable through `o.signal`). A read that answers a 404 means none of its
 * IDs exists (readWorkItems). A read refused with another 4xx (a server that answers
 * 400 or 409 where the help only says "fails") is split in halves until each refused
 * ID stands alone: the help says a read fails only when none of its IDs exists.
 * Other failures (sign-in, network, 5xx, cancel) are thrown.
 */
export async function readMissingIds(
  client: ServiceClient,
  ids: readonly string[],
  o: Omit<ReadWorkItemsOptions, 'fields'> = {},
): Promise<{ missing: string[]; requests: number }> {
  const unique = [...new Set(ids)];
  const gone = new Set<string>();
  let requests = 0;
  const pause = intervalFor(o.requestsPerMinute ?? DEFAULT_REQUESTS_PER_MINUTE, 0);
  const visit = async (part: readonly string[]): Promise<void> => {
    try {
      const r = await readWorkItems(client, part, { ...o, fields: ['Id'] });
      requests += r.requests;
      for (const id of r.missing) gone.add(id);
    } catch (e) {
      if (!isServiceError(e) || !isRefusal(e) || e.status === 403) throw e;
      requests += 1;
      if (part.length === 1) {
        gone.add(part[0]!);
        return;
      }
      const half = Math.ceil(part.length / 2);
      for (const next of [part.slice(0, half), part.slice(half)]) {
        await wait(pause, o.signal);
        await visit(next);
      }
    }
  };
  if (unique.length > 0) await visit(unique);
  return { missing: unique.filter((id) => gone.has(id)), requests };
}

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const cancelled = () => new ServiceError({ kind: 'cancelled', method: 'GET', path: '/workitem/workItems/…', sent: false });
    if (signal?.aborted) return reject(cancelled());
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(t);
      reject(cancelled());
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}
