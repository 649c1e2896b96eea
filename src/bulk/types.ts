// Shared types of the bulk engine: plans, request states, results, progress.
// No vscode import. Everything here is plain JSON-serializable data (it goes into
// the job journal), except the option objects.
import type { NetworkReason, ServiceErrorEntry, ServiceErrorKind } from '../api/errors';
import type { Logger } from '../api/logger';
import type { Clock, SharedPacing } from '../api/pacer';
import type { UpdateWorkItemsBody, UpdateWorkItemsResponse } from '../schema/api';
import type { AddSpec } from '../schema/add-rules';
import type { AddSubItemsResponse } from '../schema/additions';
import type { DeleteWorkItemsResult } from '../api/workItemChanges';
import type { JobPause, ServiceBinding } from './service';
import type { SubItemNode, WorkItemRecord } from '../schema/reads';
import type { AddCandidate } from './addMatch';

export type { AddCandidate };

// ---------------------------------------------------------------------------
// Plan
// ---------------------------------------------------------------------------

/** One request of a plan: a batch of IDs and the path it goes to (relative to the base URL). */
export interface PlannedRequest {
  /** 0-based position in the plan (requests are sent in this order). */
  index: number;
  ids: string[];
  /** `/workitem/workItems/{ids}`, IDs percent-encoded and joined with a literal comma. */
  path: string;
  /** The request of the document (the plan's part) this batch belongs to; 0 when absent. */
  part?: number;
}

/**
 * One request of a document as planned: its items and its body. A plan has one part for a
 * document of one request, and one per request of a change set, in order; an item is in
 * one part only.
 */
export interface PlanPart {
  /** The deduplicated IDs of this part, in first-occurrence order (an add names none: it makes new items). */
  ids: string[];
  /** The body of an update; `{}` for an add or a delete. */
  update: UpdateWorkItemsBody;
  description?: string;
  /** Absent for an update; `add`: one POST of `add` below its parent; `delete`: DELETE of `ids`, in batches. */
  kind?: 'add' | 'delete';
  add?: AddSpec;
}

/** Codes of plan warnings and problems, for the UI to localize. `message` is the English fallback. */
export type PlanWarningCode = 'duplicate-ids';
export type PlanProblemCode = 'no-ids' | 'invalid-id' | 'id-too-long-for-url' | 'invalid-base-url' | 'invalid-limit' | 'id-in-two-requests' | 'too-many-items-to-add';

export interface PlanWarning {
  code: PlanWarningCode;
  message: string;
  /** For `duplicate-ids`: each ID given more than once (once each, first-seen order). */
  ids?: string[];
  /** For `duplicate-ids`: how many entries were dropped. */
  count?: number;
}

export interface PlanProblem {
  code: PlanProblemCode;
  message: string;
  /** The offending ID, when one is at fault. */
  id?: string;
  /** For `too-many-items-to-add`: the items of the request and the most one request adds. */
  count?: number;
  max?: number;
  /** 0-based position of the offending ID in the input list. */
  position?: number;
}

export interface JobPlan {
  /** The deduplicated IDs of every part, in first-occurrence order. */
  ids: string[];
  /** IDs that were given more than once (each listed once, first-seen order). */
  duplicates: string[];
  /** The batches, in the order they are sent: those of part 0, then of part 1, ... */
  requests: PlannedRequest[];
  /** The document's requests: the body of each batch is its part's. */
  parts: PlanPart[];
  warnings: PlanWarning[];
  /** The base URL the plan was made for (URL lengths are computed against it). */
  baseUrl: string;
  maxIdsPerRequest: number;
  maxUrlLength: number;
}

export interface PlanInput {
  workItemIds: readonly string[];
  update: UpdateWorkItemsBody;
  description?: string;
  /** The service base URL, e.g. `https://pm.example.com/TimeTrackerNX/api`. */
  baseUrl: string;
  /** At most this many IDs per request; 1..1000, default 1000 (the service's limit). */
  maxIdsPerRequest?: number;
  /** At most this many characters in a request URL (base URL + path); default 8000. */
  maxUrlLength?: number;
}

// ---------------------------------------------------------------------------
// Running
// ---------------------------------------------------------------------------

/**
 * State of one request:
 * - `pending`: never sent (safe to send).
 * - `sent`: handed to the client, no answer yet. In a journal read after a crash
 *   this becomes `unknown` (the service may have applied it).
 * - `succeeded`: 2xx, `response` holds the service's answer.
 * - `failed`: the service refused it (4xx), it provably never took effect (connect
 *   failure; 429/503 after the retry budget ran out when `retryRefusedUpdates` trusts
 *   the service), or it was refused before sending. `error` says why. "Retry Failed" re-sends these.
 * - `unknown`: outcome unknown (reset or timeout after sending, a 5xx, a 429 unless
 *   `retryRefusedUpdates` trusts the service, process killed while sent). Never re-sent without the
 *   user's word (`resendUnknown`).
 * - `cancelled`: the user cancelled while it was in flight; the service may or may
 *   not have applied it, so it is treated like `unknown` (never re-sent without
 *   the user's word). Requests not yet started when the user cancels stay `pending`.
 */
export type RequestState = 'pending' | 'sent' | 'succeeded' | 'failed' | 'unknown' | 'cancelled';

export const REQUEST_STATES: readonly RequestState[] = ['pending', 'sent', 'succeeded', 'failed', 'unknown', 'cancelled'];

/**
 * A readable error, plain data. `kind` is a ServiceError kind, or:
 * - `interrupted`: the process ended while the request was sent (from a journal);
 * - `unexpected`: something that was not a ServiceError (a bug); `message` says what.
 */
export interface RequestError {
  kind: ServiceErrorKind | 'interrupted' | 'unexpected';
  status?: number;
  /** Every message the service gave (or the raw body text when its shape was unknown). */
  messages: string[];
  /** Error codes the service gave, when any. */
  codes: string[];
  /** The service's error objects with their codes and template params, when given (the UI translates known codes). */
  entries?: ServiceErrorEntry[];
  /** undici/system error code (ECONNREFUSED, UND_ERR_SOCKET, ...), when any. */
  code?: string;
  /** Stable cause of a transport failure (the UI localizes it), when known. */
  reason?: NetworkReason;
  /** One English sentence describing the failure (method, path, status, messages). */
  message: string;
  retryAfterMs?: number;
  /**
   * Why a retryable failure (connect failure, 429/503 with Retry-After) was not
   * retried: the job's retry budget was used up, or the Retry-After was longer
   * than `maxRetryWaitMs`; or (`refused-update-not-retried`, state `unknown`) the
   * update was answered 429/503 and the service is not trusted to answer so only
   * for what it did not apply (`RunOptions.retryRefusedUpdates`): a gateway may
   * have forwarded it first.
   */
  note?: 'retry-budget-exhausted' | 'retry-wait-too-long' | 'refused-update-not-retried';
  /** The failure is of the read below an add's parent made before the add leaves: the add was not sent. */
  step?: 'add-read';
}

export interface RequestResult {
  index: number;
  ids: string[];
  path: string;
  state: RequestState;
  /** How many times it was handed to the client (all runs together). */
  attempts: number;
  /** HTTP status of the last answer, when one arrived. */
  status?: number;
  /** Duration of the last attempt, in ms. */
  durationMs?: number;
  /** ISO time the last attempt started / ended. */
  startedAt?: string;
  finishedAt?: string;
  /** The service's answer when `succeeded`. */
  response?: UpdateWorkItemsResponse;
  /**
   * Why, when `failed`, `unknown` or `cancelled`; on a `succeeded` request, a
   * problem that did not stop it (a 2xx whose body could not be read, or why it
   * was of unknown outcome before `confirmedByUser`).
   */
  error?: RequestError;
  /** The user confirmed that this request of unknown outcome was applied. */
  confirmedByUser?: boolean;
  /** An add: what the job keeps to find its items again (its key, the parent's sub-items before it left). */
  addCheck?: AddCheck;
  /**
   * An add of unknown outcome: how it was settled without being sent again: `key` (its items
   * were found below the parent by their key), `candidate` (you named one of the candidates).
   */
  matched?: 'key' | 'candidate';
  /**
   * An add of unknown outcome that the last look below its parent could not settle: the items
   * there that may be what it created (named like it, new since it was sent).
   */
  candidates?: AddCandidate[];
  /** An add of unknown outcome: the last look below its parent failed (it was not sent again). */
  checkError?: RequestError;
  /** Journal only: where the response is stored, relative to the journal's directory. */
  responseFile?: string;
  /** Journal only: the response's side file could not be read back (the state is still right). */
  responseMissing?: boolean;
}

/**
 * What the journal keeps about an add before it is sent, so that a retry or a resumption can
 * tell whether it happened: the start of the keys its items carry in `metadata`
 * (`<job id>/<part>`, src/bulk/addMatch.ts), and the IDs of the parent's sub-items just
 * before it first left (what is new since is what it may have made).
 */
export interface AddCheck {
  key: string;
  /** Absent when the client could not read them (then every sub-item of that name is a candidate). */
  before?: string[];
}

export interface JobTotals {
  requests: number;
  items: number;
  /** Requests per state. */
  requestsByState: Record<RequestState, number>;
  /** Items (IDs) per state of their request. */
  itemsByState: Record<RequestState, number>;
  /** Items returned in `items` / `affectedItems` of all succeeded responses. */
  changedItems: number;
  affectedItems: number;
  addedTimeEntries: number;
  addedScheduleDependencies: number;
  /** Automatic retries made in this run, and what is left of the job's budget. */
  retries: number;
  retryBudgetLeft: number;
}

/**
 * - `succeeded`: every request succeeded.
 * - `partial`: otherwise: some requests of the job are failed, unknown, cancelled or
 *   still pending (e.g. `retryFailed` ran while others were never sent).
 * - `cancelled`: the run was cancelled (the signal fired) before every request succeeded;
 *   requests not started are still `pending`.
 */
export type JobOutcome = 'succeeded' | 'partial' | 'cancelled';

export interface JobResult {
  /** The journal's job id, when the job has a journal. */
  jobId?: string;
  outcome: JobOutcome;
  /** Every request of the plan (also those this run did not touch), in plan order. */
  requests: RequestResult[];
  totals: JobTotals;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /**
   * Set when the job paused because its service is gone (the sandbox stopped, the
   * service changed, the user signed out): the requests that did not leave are still
   * `pending` ("not sent"), and `paused.service` is where they go when the job is
   * resumed, and nowhere else.
   */
  paused?: JobPause;
  /**
   * Updates answered 429 or 503 in this run: `trusted` tells whether the setting
   * `retryRefusedUpdates` was on (they were retried automatically) or off (they are
   * `unknown`, never replayed without the user's word); `requests` how many were
   * so answered, `retries` how many retries that trust caused.
   */
  refusedUpdates?: { trusted: boolean; requests: number; retries: number };
}

export interface JobProgress {
  /** Items whose request reached a final state in this job (succeeded, failed, unknown, cancelled). */
  itemsDone: number;
  itemsTotal: number;
  requestsDone: number;
  requestsTotal: number;
  /** The request whose state just changed. */
  current?: { index: number; state: RequestState; ids: number };
  /** Set while the job waits for a `Retry-After`. */
  waitingUntil?: string;
}

/** The part of ServiceClient the engine uses (ServiceClient satisfies it). */
export interface BulkClient {
  /** `o.path`: the request's path as planJob made it from these IDs (checked and encoded), so it is not built again. */
  updateWorkItems(ids: readonly string[], body: UpdateWorkItemsBody, o?: { signal?: AbortSignal; path?: string }): Promise<UpdateWorkItemsResponse>;
  /** The add of a change (one POST, never replayed by the client); needed only by jobs that add. */
  addSubItems?(parentId: string, body: AddSpec['item'], o?: { signal?: AbortSignal }): Promise<AddSubItemsResponse>;
  /** The delete of a change (an undo of an add); needed only by jobs that delete. */
  deleteWorkItems?(ids: readonly string[], o?: { signal?: AbortSignal }): Promise<DeleteWorkItemsResult>;
  /**
   * The reads around an add (the parent's sub-items before it leaves, and below the parent
   * again when its outcome is unknown; the parent's level from the ParentId chain). Without
   * them an add of unknown outcome is never looked for: it waits for your word, as before.
   */
  getSubItems?(id: string, q: { fields?: readonly string[]; depth?: number }, o?: { signal?: AbortSignal }): Promise<SubItemNode>;
  getWorkItems?(ids: readonly string[], fields?: readonly string[], o?: { signal?: AbortSignal }): Promise<WorkItemRecord[]>;
}

/** The clock of pacing and retries (src/api/pacer.ts), an option of a run. */
export type { Clock };

export const DEFAULT_CONCURRENCY = 2;
export const MAX_CONCURRENCY = 16;
export const DEFAULT_RETRY_BUDGET = 10;
/** A Retry-After longer than this is not waited for: the request is marked failed. */
export const DEFAULT_MAX_RETRY_WAIT_MS = 120_000;
/** How long after its last attempt an add of unknown outcome is looked for (RunOptions.addSettleMs). */
export const DEFAULT_ADD_SETTLE_MS = 10_000;
// The request limits (IDs per update, requests a minute, URL length) are the API
// layer's: src/api/limits.ts.

export interface RunOptions {
  client: BulkClient;
  /** Parallel requests; default 2, 1..16. */
  concurrency?: number;
  /**
   * Pace: at most this many requests a minute (spacing of 60000/rpm ms between
   * request starts, across all parallel workers). Default 600. Values above the
   * service's 1500 are refused unless `allowAboveServiceLimit` is set.
   * `Infinity` (with `allowAboveServiceLimit`) turns pacing off (benchmarks).
   */
  requestsPerMinute?: number;
  allowAboveServiceLimit?: boolean;
  /**
   * Minimum spacing between request starts besides the rate; default 0 (the rate
   * alone sets the spacing: 100 ms, the help's advice, at the default 600 a minute).
   */
  minIntervalMs?: number;
  /**
   * Automatic retries for the whole job (connect failures; 429/503 only with `retryRefusedUpdates`); default 10.
   * With a journal, what is left is kept in it (see `startingRetryBudget`).
   */
  retryBudget?: number;
  /**
   * Trust the service to answer 429 or 503 to an update only when it did not apply
   * it: such answers are then retried automatically (within the budget, after
   * Retry-After or a backoff). Off by default: an update answered 429/503 is of
   * unknown outcome (a gateway may have forwarded it before answering), and is not
   * replayed without the user's word. Reads are not concerned.
   */
  retryRefusedUpdates?: boolean;
  /** Longest Retry-After honoured; longer → the request is failed. Default 120 s. */
  maxRetryWaitMs?: number;
  /**
   * An add of unknown outcome is looked for below its parent only this long after its last
   * attempt started or ended (a service may still be working on a request whose answer did
   * not come); the run waits for the rest. Default 10 s.
   */
  addSettleMs?: number;
  /** Cancels the job: in-flight requests are aborted, nothing new starts. */
  signal?: AbortSignal;
  onProgress?: (p: JobProgress) => void;
  logger?: Logger;
  clock?: Clock;
  /**
   * The time line the job's requests take their turns on, shared with the reads of the same
   * Send (the values before and after): one pace for all its calls. A pace of its own without.
   */
  pacing?: SharedPacing;
  /**
   * The service the job belongs to (its journal records it): checked before every
   * request. When it is gone, no further request starts, the ones not sent stay
   * `pending` ("not sent", never "outcome unknown"), and the result is `paused`. A job
   * whose journal records another service is refused (ServiceMismatchError), nothing sent.
   */
  service?: ServiceBinding;
}
