// What the engine checks before a run (the options, a client able to do what the plan
// asks), and the plain-data form of a failure kept in a request's record. No vscode import.
import { isServiceError } from '../api/errors';
import { DEFAULT_MIN_INTERVAL_MS, DEFAULT_REQUESTS_PER_MINUTE, SERVICE_REQUESTS_PER_MINUTE } from '../api/limits';
import { DEFAULT_CONCURRENCY, DEFAULT_RETRY_BUDGET, MAX_CONCURRENCY, type BulkClient, type JobPlan, type RequestError, type RunOptions } from './types';

/** A plan that adds or deletes needs a client that can (RangeError before anything is sent). */
export function checkClient(plan: JobPlan, client: BulkClient): void {
  if (plan.parts.some((p) => p.kind === 'add') && typeof client.addSubItems !== 'function') throw new RangeError('the client cannot add work items (addSubItems), and the job adds some');
  if (plan.parts.some((p) => p.kind === 'delete') && typeof client.deleteWorkItems !== 'function') throw new RangeError('the client cannot delete work items (deleteWorkItems), and the job deletes some');
}

export function checkOptions(opts: RunOptions): void {
  const c = opts.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(c) || c < 1 || c > MAX_CONCURRENCY) throw new RangeError(`concurrency must be an integer from 1 to ${MAX_CONCURRENCY} (got ${String(c)})`);
  const rpm = opts.requestsPerMinute ?? DEFAULT_REQUESTS_PER_MINUTE;
  if (typeof rpm !== 'number' || Number.isNaN(rpm) || rpm <= 0) throw new RangeError(`requestsPerMinute must be a positive number (got ${String(rpm)})`);
  if (rpm > SERVICE_REQUESTS_PER_MINUTE && !opts.allowAboveServiceLimit) {
    throw new RangeError(`requestsPerMinute ${rpm} is above the service's limit of ${SERVICE_REQUESTS_PER_MINUTE} calls a minute`);
  }
  const mi = opts.minIntervalMs ?? DEFAULT_MIN_INTERVAL_MS;
  if (typeof mi !== 'number' || !(mi >= 0)) throw new RangeError(`minIntervalMs must be a number ≥ 0 (got ${String(mi)})`);
  const b = opts.retryBudget ?? DEFAULT_RETRY_BUDGET;
  if (!Number.isInteger(b) || b < 0) throw new RangeError(`retryBudget must be an integer ≥ 0 (got ${String(b)})`);
}

/** Plain-data, readable form of any failure. */
export function toRequestError(e: unknown): RequestError {
  if (isServiceError(e)) {
    const out: RequestError = { kind: e.kind, messages: [...e.messages], codes: [...e.codes], message: e.message };
    if (e.status !== undefined) out.status = e.status;
    if (e.code !== undefined) out.code = e.code;
    if (e.retryAfterMs !== undefined) out.retryAfterMs = e.retryAfterMs;
    if (e.reason !== undefined) out.reason = e.reason;
    if (e.entries.length > 0) out.entries = e.entries.map((en) => ({ ...en }));
    return out;
  }
  const message = e instanceof Error ? e.message : String(e);
  return { kind: 'unexpected', messages: [message], codes: [], message: `unexpected failure: ${message}` };
}
