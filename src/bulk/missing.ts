// Failed requests that name work items that do not exist, and failures that a
// plain retry repeats. The service refuses a whole request when any named ID does
// not exist, so one typo holds back up to 999 good items: the result view names
// the missing IDs (from the service's error codes) and offers a new job for the
// remaining ones. No vscode import.
import type { JobResult, RequestError, RequestResult } from './types';

/** The error code of a work item that does not exist (the sandbox's; params `id`, entry `itemId`). */
export const WORK_ITEM_NOT_FOUND = 'WORK_ITEM_NOT_FOUND';

/** The IDs of a request that its error says do not exist (only IDs the request named). */
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

/**
 * Failed requests the service refused with a 404 without naming which of their work
 * items do not exist (the real service answers `[{"message": ...}]`, whose codes are
 * not a contract). Which IDs are missing is then found by reading them.
 */
export function unnamedNotFound(result: Pick<JobResult, 'requests'>): number[] {
  return result.requests
    .filter((r) => r.state === 'failed' && r.error?.kind === 'http' && r.error.status === 404 && missingIdsOfRequest(r).length === 0)
    .map((r) => r.index);
}

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
