// Running a bulk job: pacing, bounded parallelism, prompt cancellation, and a
// retry policy that never replays an update whose outcome is unknown.
// No vscode import.
import { isServiceError, type ServiceError } from '../api/errors';
import { nullLogger, type Logger } from '../api/logger';
import { JobJournal, JournalError, type RunKind } from './journal';
import { newJobId } from './journal/format';
import { partOfRequest } from './plan';
import { AddSteps } from './addSteps';
import { candidateAnswer } from './addMatch';
import { makeResult, outcomeOf, totalsOf } from './jobResult';
import { checkClient, checkOptions, toRequestError } from './engineChecks';
import type { UpdateWorkItemsResponse } from '../schema/api';
import { DEFAULT_MIN_INTERVAL_MS, DEFAULT_REQUESTS_PER_MINUTE } from '../api/limits';
import { intervalFor, Pacer, systemClock, type PacerSlot } from '../api/pacer';
import { GONE_TEXT, isServiceBaseUrl, sameService, ServiceGoneError, ServiceMismatchError, serviceBaseUrl, type JobPause, type ServiceGoneReason } from './service';
import {
  DEFAULT_ADD_SETTLE_MS,
  DEFAULT_CONCURRENCY,
  DEFAULT_MAX_RETRY_WAIT_MS,
  DEFAULT_RETRY_BUDGET,
  type BulkClient,
  type JobPlan,
  type PlanPart,
  type JobResult,
  type RequestResult,
  type RequestState,
  type RunOptions,
} from './types';

export { toRequestError, totalsOf };

/**
 * Marked sent on disk ahead of their turn with each mark: the next request whatever its
 * size, and further requests while they hold at most this many items (and requests).
 */
const RESERVE_AHEAD_ITEMS = 32;
const RESERVE_AHEAD_REQUESTS = 32;

/**
 * An update answered 429 or 503 (with or without Retry-After). Whether it was applied
 * is a trust assumption about the server: a gateway may forward the PUT and then
 * answer 503 itself. Retried automatically only with `RunOptions.retryRefusedUpdates`.
 */
function refusedUpdate(se: ServiceError | undefined): se is ServiceError {
  return se?.kind === 'http' && (se.status === 429 || se.status === 503);
}

const REFUSED_NOT_RETRIED_TEXT =
  'not retried: a 429/503 answer to an update does not prove it was not applied (a gateway may have forwarded it first); ' +
  'check the items, then re-send or confirm it (or trust the service with the setting workItemStudio.bulk.retryRefusedUpdates)';

/** Backoff before retrying a connect failure (no Retry-After): 500 ms, doubling, at most 10 s. */
const CONNECT_BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 10_000];

/**
 * Runs every request of a fresh plan. With `journal` (made by `JobJournal.create`
 * for this plan), every state change is written to it, a request being marked
 * `sent` on disk before it is sent.
 *
 * Never rejects for a service failure: those are request states in the result.
 * Rejects with a RangeError for bad options, and with a JournalError when the
 * journal cannot be written (no further request is started then; a request whose
 * `sent` mark could not be written is not sent).
 */
export async function runJob(plan: JobPlan, opts: RunOptions & { journal?: JobJournal }): Promise<JobResult> {
  const journal = opts.journal;
  if (journal) {
    if (journal.requests.some((r) => r.state !== 'pending')) {
      throw new JournalError('invalid-argument', journal.file, `job ${journal.id} has already run; use resumeJob, retryFailed or resendUnknown`);
    }
    return runOnJournal(journal, 'run', journal.indexesIn('pending'), opts);
  }
  const records: RequestResult[] = plan.requests.map((r) => ({ index: r.index, ids: r.ids, path: r.path, state: 'pending', attempts: 0 }));
  checkOptions(opts);
  checkClient(plan, opts.client);
  checkService(plan, undefined, opts);
  return execute(plan, records, records.map((r) => r.index), opts, undefined, opts.retryBudget ?? DEFAULT_RETRY_BUDGET, 'run');
}

/**
 * The retry budget is one per job, kept in its journal. A new job, and an explicit
 * Retry Failed (the user asks for another try, often after the budget ran out in
 * an outage), start with the configured budget; a resumption and a re-send of
 * unknown requests continue from what the job has left, never above the
 * configured budget.
 */
export function startingRetryBudget(kind: RunKind, configured: number, left: number | undefined): number {
  if (kind === 'run' || kind === 'retry-failed' || left === undefined) return configured;
  return Math.min(left, configured);
}

/**
 * Resumes a job from its journal: sends the requests never sent (`pending`). Requests
 * interrupted while sent read back as `unknown` and are not sent; an add of unknown outcome
 * is looked for below its parent first (when the client can read there): found, it becomes
 * succeeded; not there, it is sent once; undecided, it stays unknown with the candidates.
 */
export function resumeJob(journal: JobJournal, opts: RunOptions & ResumeOptions): Promise<JobResult> {
  const looked = typeof opts.client.getSubItems === 'function' ? unknownAddIndexes(journal) : [];
  const indexes = [...journal.indexesIn('pending'), ...looked].sort((a, b) => a - b);
  // Under the job's lock, before the run starts: nothing is sent until the values before are settled.
  return runOnJournal(journal, 'resume', indexes, opts, () => settleValuesBefore(journal, opts));
}

/** The adds of a job whose outcome is unknown (`unknown` or `cancelled`), in plan order. */
export function unknownAddIndexes(journal: Pick<JobJournal, 'plan' | 'requests'>): number[] {
  return journal.requests.filter((r) => (r.state === 'unknown' || r.state === 'cancelled') && partOfRequest(journal.plan, journal.plan.requests[r.index] ?? r).kind === 'add').map((r) => r.index);
}

/** A job whose values before are missing gets them read again (nothing has left yet), or runs only without undo when told so. */
async function settleValuesBefore(journal: JobJournal, opts: RunOptions & ResumeOptions): Promise<void> {
  const state = await journal.valuesBeforeState();
  if (state === 'missing') {
    const log = opts.logger ?? nullLogger;
    const nothingLeft = journal.requests.every((r) => r.state === 'pending');
    if (opts.readValuesBefore && nothingLeft) {
      // Killed between creating the journal and writing the values before: nothing has
      // left, so the values read now are the values before. On disk before the first request.
      await opts.readValuesBefore(journal);
      if ((await journal.valuesBeforeState()) !== 'present' && !opts.withoutUndo) {
        throw new JournalError('no-values-before', journal.file, `the values before of job ${journal.id} were read again but are not on disk (${journal.valuesBeforeFile}); nothing was sent`);
      }
      log.info(`bulk: job ${journal.id}: its values before were read again before its first request (the job can be undone)`);
    } else if (opts.withoutUndo) {
      log.warn(`bulk: job ${journal.id} is resumed without its values before: it cannot be undone`);
    } else {
      throw new JournalError(
        'no-values-before',
        journal.file,
        `job ${journal.id} has no values before (${journal.valuesBeforeFile}), so it could not be undone; ` +
          (nothingLeft ? 'read them again before resuming it, or resume it without undo' : 'resume it without undo') +
          '; nothing was sent',
      );
    }
  }
}

/** How a job without its values before (see JobJournal.valuesBeforeState) is resumed. */
export interface ResumeOptions {
  /**
   * Reads the values before again and writes them beside the journal. Called before the
   * first request, only when the job's values before are missing and none of its
   * requests has left (values read later would not be the values before).
   */
  readValuesBefore?: (journal: JobJournal) => Promise<void>;
  /** Resume although the job has no values before: it cannot be undone (the user said so). */
  withoutUndo?: boolean;
}

/** Re-sends the requests of a job that `failed` (the service refused them or they provably never took effect). */
export function retryFailed(journal: JobJournal, opts: RunOptions): Promise<JobResult> {
  return runOnJournal(journal, 'retry-failed', journal.indexesIn('failed'), opts);
}

/**
 * Re-sends requests whose outcome is unknown (`unknown` or `cancelled`), ONLY after
 * the user said so: they may already have been applied, and an update such as
 * `moveScheduleDays` applied twice shifts dates twice. `requestIndexes` must all
 * be in one of those states (RangeError otherwise). An add is looked for below its parent
 * first: found, it becomes succeeded and is not sent; when that read fails it is not sent.
 */
export function resendUnknown(journal: JobJournal, requestIndexes: readonly number[], opts: RunOptions): Promise<JobResult> {
  const wrong = requestIndexes.filter((i) => {
    const r = journal.requests[i];
    return !r || (r.state !== 'unknown' && r.state !== 'cancelled');
  });
  if (wrong.length > 0) {
    return Promise.reject(new RangeError(`requests ${wrong.map((i) => `#${i}`).join(', ')} of job ${journal.id} are not of unknown outcome`));
  }
  return runOnJournal(journal, 'resend-unknown', [...new Set(requestIndexes)].sort((a, b) => a - b), opts);
}

/**
 * Records the user's word that requests of unknown outcome were in fact applied
 * (they checked the service): they become `succeeded` without a response
 * (`error` keeps why they were unknown). They are then never re-sent. For an add,
 * `chosen` may name the candidate (RequestResult.candidates) it created: its IDs become
 * the add's answer (what the undo deletes).
 */
export async function confirmUnknown(journal: JobJournal, requestIndexes: readonly number[], chosen: ReadonlyMap<number, string> = new Map()): Promise<void> {
  for (const i of requestIndexes) {
    const r = journal.requests[i];
    if (!r || (r.state !== 'unknown' && r.state !== 'cancelled')) throw new RangeError(`request #${i} of job ${journal.id} is not of unknown outcome`);
    const id = chosen.get(i);
    if (id !== undefined && !r.candidates?.some((c) => c.id === id)) throw new RangeError(`item ${id} is not a candidate of request #${i} of job ${journal.id}`);
  }
  await journal.acquireLock(); // not while another window runs this job
  try {
    for (const i of requestIndexes) {
      const r = journal.requests[i]!;
      const candidate = r.candidates?.find((c) => c.id === chosen.get(i));
      const parentId = journal.plan.parts[journal.plan.requests[i]?.part ?? 0]?.add?.parentId ?? r.ids[0]!;
      const answer = candidate ? { response: candidateAnswer(candidate, parentId) as unknown as UpdateWorkItemsResponse, matched: 'candidate' as const, candidates: undefined } : {};
      await journal.updateRequest(i, { state: 'succeeded', confirmedByUser: true, ...answer });
    }
    if (!journal.requests.some((r) => r.state === 'pending' || r.state === 'sent')) await journal.markFinished();
  } finally {
    await journal.releaseLock().catch(() => undefined);
  }
}

/** The result of a job as its journal holds it (no request is sent). */
export function resultFromJournal(journal: JobJournal): JobResult {
  const d = journal.data;
  const last = d.runs[d.runs.length - 1];
  const result = makeResult(journal.requests, journal.id, outcomeOf(journal.requests, false), last?.startedAt ?? d.createdAt, last?.finishedAt ?? d.updatedAt, 0, d.retryBudgetLeft ?? 0);
  // The last run paused and nothing ran since: the rest waits for the job's service.
  if (last?.paused && d.service && journal.requests.some((r) => r.state === 'pending')) result.paused = { reason: last.paused, service: d.service };
  return result;
}

/**
 * Refuses (ServiceMismatchError, nothing sent) to run a job on another service than the
 * one it belongs to: the one its journal records, else the one its plan was made for.
 */
function checkService(plan: JobPlan, journal: JobJournal | undefined, opts: RunOptions): void {
  const binding = opts.service;
  if (!binding) return;
  const recorded = journal?.data.service;
  if (recorded ? !sameService(recorded, binding.service) : !isServiceBaseUrl(binding.service, plan.baseUrl)) {
    throw new ServiceMismatchError(recorded ?? binding.service, recorded ? serviceBaseUrl(binding.service) : plan.baseUrl);
  }
}

async function runOnJournal(journal: JobJournal, kind: RunKind, indexes: number[], opts: RunOptions, beforeRun?: () => Promise<void>): Promise<JobResult> {
  checkOptions(opts);
  checkClient(journal.plan, opts.client);
  checkService(journal.plan, journal, opts);
  await journal.acquireLock();
  try {
    await beforeRun?.();
    const budget = startingRetryBudget(kind, opts.retryBudget ?? DEFAULT_RETRY_BUDGET, journal.retryBudgetLeft);
    await journal.beginRun(kind, indexes, new Date((opts.clock ?? systemClock).now()), budget);
    let result: JobResult;
    try {
      result = await execute(journal.plan, journal.requests as RequestResult[], indexes, opts, journal, budget, kind);
    } catch (e) {
      await journal.endRun('error').catch(() => undefined);
      throw e;
    }
    await journal.endRun(result.outcome, new Date(Date.parse(result.finishedAt)), result.paused?.reason);
    return result;
  } finally {
    await journal.releaseLock().catch(() => undefined);
  }
}

/**
 * Sends one request of a plan as its part says: the PUT of an update, the one POST of an add
 * (its answer, the added items, kept as the request's response), the DELETE of a batch. The
 * engine's policy for outcomes is the same for all three: a request whose outcome is unknown
 * is never sent again without the user's word (an add sent twice makes its items twice).
 */
function sendRequest(client: BulkClient, part: PlanPart, r: RequestResult, signal: AbortSignal | undefined): Promise<UpdateWorkItemsResponse> {
  if (part.kind === 'add') return client.addSubItems!(part.add!.parentId, AddSteps.body(part, r), { signal }) as Promise<unknown> as Promise<UpdateWorkItemsResponse>;
  if (part.kind === 'delete') {
    return client.deleteWorkItems!(r.ids, { signal }).then((d) => ({ items: d.items, affectedItems: d.affectedItems }) as unknown as UpdateWorkItemsResponse);
  }
  return client.updateWorkItems(r.ids, part.update, { signal, path: r.path });
}

/** The core loop. `records` are updated in place (they are the journal's when there is one). */
async function execute(
  plan: JobPlan,
  records: RequestResult[],
  selected: number[],
  opts: RunOptions,
  journal: JobJournal | undefined,
  retryBudget: number,
  kind: RunKind,
): Promise<JobResult> {
  const clock = opts.clock ?? systemClock;
  const log: Logger = opts.logger ?? nullLogger;
  const signal = opts.signal;
  const concurrency = opts.concurrency ?? DEFAULT_CONCURRENCY;
  const interval = intervalFor(opts.requestsPerMinute ?? DEFAULT_REQUESTS_PER_MINUTE, opts.minIntervalMs ?? DEFAULT_MIN_INTERVAL_MS);
  const pacer = new Pacer(interval, clock, opts.pacing);
  const maxRetryWait = opts.maxRetryWaitMs ?? DEFAULT_MAX_RETRY_WAIT_MS;
  let budget = retryBudget;
  let retries = 0;
  const trustRefusals = opts.retryRefusedUpdates === true;
  const refused = { requests: 0, retries: 0 };
  const startedAt = clock.now();

  const itemsTotal = selected.reduce((n, i) => n + records[i]!.ids.length, 0);
  let itemsDone = 0;
  let requestsDone = 0;
  let fatal: unknown;
  /** Set when the job's service is gone: nothing new starts; what was not sent stays as it was. */
  let paused: JobPause | undefined;
  const queue = [...selected];
  const pause = (reason: ServiceGoneReason): void => {
    if (paused || !opts.service) return;
    paused = { reason, service: opts.service.service };
    log.warn(`bulk: paused: ${GONE_TEXT[reason]}; what was not sent stays unsent and goes only to ${serviceBaseUrl(opts.service.service)} when the job is resumed`);
  };

  const progress = (index: number, final: boolean): void => {
    const r = records[index]!;
    if (final) {
      itemsDone += r.ids.length;
      requestsDone++;
    }
    if (!opts.onProgress) return;
    const held = pacer.heldUntil();
    try {
      opts.onProgress({
        itemsDone,
        itemsTotal,
        requestsDone,
        requestsTotal: selected.length,
        current: { index, state: r.state, ids: r.ids.length },
        ...(held !== undefined ? { waitingUntil: new Date(held).toISOString() } : {}),
      });
    } catch (e) {
      log.warn(`bulk: progress callback failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  const record = async (index: number, patch: Partial<RequestResult>, reserveAhead?: readonly number[], later?: boolean): Promise<void> => {
    const r = records[index]!;
    if (journal) {
      await journal.updateRequest(index, patch, budget, reserveAhead || later ? { reserveAhead, later } : undefined); // also updates `r` (same object)
    } else {
      Object.assign(r, patch);
      for (const k of Object.keys(patch) as (keyof RequestResult)[]) if (patch[k] === undefined) delete r[k];
    }
  };

  const stopped = (): boolean => signal?.aborted === true || fatal !== undefined || paused !== undefined;

  // Each `sent` mark also marks the next request in the queue (with the same fsync),
  // and small requests a few at a time (up to RESERVE_AHEAD_ITEMS items): the next
  // request's own `sent` line is then written as it leaves, without waiting for an
  // fsync, so a job is not bound by fsync latency (one fsync under way while the
  // previous request is out). A request marked ahead is on disk before it leaves; if
  // it never left, it reads back as unsent after the process dies, and as unknown
  // (never as unsent) only after the machine itself went down: then at most the next
  // request, or RESERVE_AHEAD_ITEMS items of small ones, besides those under way.
  const reserveAhead = (items: number): number[] => {
    const out: number[] = [];
    let total = items;
    for (const i of queue) {
      const n = records[i]!.ids.length;
      // An add's own mark (with what it keeps to be found again) is on disk before it leaves.
      if (partOfRequest(plan, plan.requests[i] ?? records[i]!).kind === 'add') break;
      if (out.length + 1 >= RESERVE_AHEAD_REQUESTS || (out.length > 0 && total + n > RESERVE_AHEAD_ITEMS)) break;
      out.push(i);
      total += n;
    }
    return out;
  };

  // The reads around an add take their turns on the job's pacing, as its requests do.
  const adds = new AddSteps({
    client: opts.client,
    plan,
    records,
    jobKey: journal?.id ?? newJobId(new Date(clock.now())),
    kind,
    paced: async (call) => {
      const slot = await pacer.slot(signal);
      slot.start();
      return call();
    },
    record: (index, patch) => record(index, patch),
    done: (index) => progress(index, true),
    pause,
    toError: toRequestError,
    clock,
    settleMs: opts.addSettleMs ?? DEFAULT_ADD_SETTLE_MS,
    signal,
    log,
  });

  log.info(
    `bulk: ${selected.length} request(s), ${itemsTotal} item(s); concurrency ${concurrency}, ` +
      `${Number.isFinite(interval) && interval > 0 ? `one request every ≥${Math.round(interval)} ms` : 'no pacing'}, retry budget ${budget}`,
  );

  const sendOne = async (index: number): Promise<void> => {
    const r = records[index]!;
    const before: RequestState = r.state; // 'pending', 'failed', 'unknown' or 'cancelled'
    const part = partOfRequest(plan, plan.requests[index] ?? r);
    let connectFailures = 0;
    /** An add: an earlier attempt may have been applied, so what is below its parent is read before it is sent. */
    let mayHaveLanded = before === 'unknown' || before === 'cancelled';
    for (;;) {
      /** Written with the `sent` mark: what an add keeps to be found again. */
      let withMark: Partial<RequestResult> = {};
      if (part.kind === 'add') {
        if (stopped()) return;
        const turn = await adds.beforeSend(index, part, mayHaveLanded);
        if (!turn.send) return;
        withMark = turn.patch;
        mayHaveLanded = false;
      }
      let slot: PacerSlot;
      try {
        slot = await pacer.slot(signal);
      } catch {
        return; // cancelled while waiting: stays as it was (never sent)
      }
      let t0: number;
      // The turn is this update's: it starts as the update leaves (after its `sent` mark), and is given back on any other way out.
      try {
        if (stopped()) return;
        // The job's service must still be the one in use before anything is marked or sent.
        const gone = opts.service?.gone();
        if (gone) {
          pause(gone);
          return;
        }
        t0 = clock.now();
        // Persist `sent` BEFORE sending: after a crash this request reads back as unknown.
        try {
          await record(index, { ...withMark, state: 'sent', attempts: r.attempts + 1, startedAt: new Date(t0).toISOString() }, journal ? reserveAhead(r.ids.length) : undefined);
        } catch (e) {
          fatal ??= e;
          r.state = before; // not on disk as sent, so not sent
          return;
        }
        if (signal?.aborted) {
          await record(index, { state: before }).catch((e: unknown) => void (fatal ??= e));
          return;
        }
        slot.start();
      } finally {
        slot.release();
      }
      let patch: Partial<RequestResult>;
      let retryWaitMs: number | undefined;
      let neverSent = false;
      try {
        const response = await sendRequest(opts.client, part, r, signal);
        patch = { state: 'succeeded', status: 200, response, error: undefined };
      } catch (e) {
        const err = toRequestError(e);
        const se = isServiceError(e) ? e : undefined;
        const aborted = signal?.aborted === true || se?.kind === 'cancelled';
        // Refused before sending because the job's service is gone, or provably not sent while it went away.
        const goneNow = e instanceof ServiceGoneError ? e.reason : se && !se.sent && !aborted ? opts.service?.gone() : undefined;
        if (goneNow) {
          pause(goneNow);
          patch = { state: before };
          neverSent = true;
        } else if (refusedUpdate(se) && !aborted && !trustRefusals) {
          // 429/503 to an update: a gateway may have forwarded it before answering. Not
          // known to be unapplied, so not replayed without the user's word.
          refused.requests++;
          patch = {
            state: 'unknown',
            status: se.status,
            error: { ...err, note: 'refused-update-not-retried', message: `${err.message}; ${REFUSED_NOT_RETRIED_TEXT}` },
          };
        } else if ((se?.safeToRetry || (refusedUpdate(se) && trustRefusals)) && !aborted) {
          // Provably never applied (or the service is trusted to say so): may be retried within the job's budget.
          const trusted = refusedUpdate(se);
          if (trusted) refused.requests++;
          const wait = se.retryAfterMs ?? CONNECT_BACKOFF_MS[Math.min(connectFailures++, CONNECT_BACKOFF_MS.length - 1)]!;
          if (budget <= 0) {
            patch = { state: 'failed', status: se.status, error: { ...err, note: 'retry-budget-exhausted' } };
          } else if (wait > maxRetryWait) {
            patch = { state: 'failed', status: se.status, error: { ...err, note: 'retry-wait-too-long' } };
          } else {
            budget--;
            retries++;
            if (trusted) refused.retries++;
            // A refused add may have been forwarded: it is looked for before it is sent again.
            if (trusted) mayHaveLanded = true;
            retryWaitMs = wait;
            patch = { state: before, status: se.status, error: err };
          }
        } else if (se?.kind === 'invalid-response') {
          // A 2xx whose body we cannot read: the service applied it. Never re-send.
          patch = { state: 'succeeded', status: se.status, error: err, response: undefined };
        } else if (aborted && se?.kind === 'cancelled' && !se.sent) {
          // Cancelled before a byte left: it was never sent, so it stays as it was.
          patch = { state: before };
          neverSent = true;
        } else if (aborted) {
          patch = { state: 'cancelled', error: { ...err, kind: 'cancelled' } };
        } else if (!se || se.outcomeUnknown) {
          patch = { state: 'unknown', status: se?.status, error: err };
        } else {
          patch = { state: 'failed', status: se.status, error: err };
        }
      }
      const t1 = clock.now();
      patch.durationMs = t1 - t0;
      patch.finishedAt = new Date(t1).toISOString();
      try {
        // An outcome is written with the next line (the next `sent` mark) or on the next
        // turn of the event loop, without holding this worker; killed before, this
        // request reads back as unknown. The job's end flushes it (a failure is fatal).
        await record(index, patch, undefined, true);
      } catch (e) {
        fatal ??= e;
        return;
      }
      const s = patch.state!;
      const statusText = patch.status !== undefined ? String(patch.status) : (patch.error?.code ?? patch.error?.kind ?? '');
      log.info(`bulk: request #${index} (${r.ids.length} item(s)) → ${s}${statusText ? ` (${statusText})` : ''} in ${patch.durationMs} ms`);
      if (retryWaitMs !== undefined) {
        log.warn(`bulk: request #${index} will be retried in ${retryWaitMs} ms (retry budget left: ${budget})`);
        pacer.holdUntil(clock.now() + retryWaitMs);
        progress(index, false);
        continue;
      }
      if (patch.error && s !== 'succeeded') log.warn(`bulk: request #${index}: ${patch.error.message}`);
      progress(index, !neverSent);
      return;
    }
  };

  // The requests of a change are sent in their order: a batch of a later part starts only once
  // every batch of the earlier parts under way has finished (the batches of one part go side by side).
  const partOfIndex = (index: number): number => plan.requests[index]?.part ?? 0;
  const inFlight = new Map<number, number>();
  let settled: () => void = () => undefined;
  let settledOnce = new Promise<void>((resolve) => (settled = resolve));
  const earlierUnderWay = (part: number): boolean => [...inFlight].some(([p, n]) => p < part && n > 0);
  const worker = async (): Promise<void> => {
    while (!stopped()) {
      const index = queue[0];
      if (index === undefined) return;
      const part = partOfIndex(index);
      if (earlierUnderWay(part)) {
        await settledOnce;
        continue;
      }
      queue.shift();
      inFlight.set(part, (inFlight.get(part) ?? 0) + 1);
      try {
        await sendOne(index);
      } finally {
        inFlight.set(part, inFlight.get(part)! - 1);
        const wake = settled;
        settledOnce = new Promise<void>((resolve) => (settled = resolve));
        wake();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(queue.length, 1)) }, worker));
  if (journal) await journal.flush().catch((e: unknown) => void (fatal ??= e));
  if (fatal !== undefined) throw fatal;

  const finishedAt = clock.now();
  const outcome = outcomeOf(records, signal?.aborted === true);
  log.info(`bulk: finished (${outcome}${paused ? `, paused: ${paused.reason}` : ''}) in ${finishedAt - startedAt} ms; ${retries} retr${retries === 1 ? 'y' : 'ies'}`);
  const result = makeResult(records, journal?.id, outcome, new Date(startedAt).toISOString(), new Date(finishedAt).toISOString(), retries, budget);
  if (paused && records.some((r) => r.state === 'pending' || r.state === 'failed')) result.paused = paused;
  if (refused.requests > 0) {
    result.refusedUpdates = { trusted: trustRefusals, requests: refused.requests, retries: refused.retries };
    log.warn(
      trustRefusals
        ? `bulk: ${refused.requests} update answer(s) of 429/503 were retried ${refused.retries} time(s) because the setting trusts the service to refuse only what it did not apply`
        : `bulk: ${refused.requests} update answer(s) of 429/503 are of unknown outcome and were not retried (the service is not trusted to refuse only what it did not apply)`,
    );
  }
  return result;
}
