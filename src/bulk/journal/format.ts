// The job journal's format: its files, versions, shapes (zod), reading a journal
// file's JSON and writing its snapshot. No vscode import, no I/O.
//
// Files of a job (`job-<id>.json` is "the journal file"):
// - `job-<id>.json`: a compacted snapshot (plan, source, every request's state,
//   runs), written atomically (temp file, fsync, rename, fsync of the directory)
//   when the job is created and when a run ends (compaction).
// - `job-<id>.json.log`: an append-only change log of what happened since that
//   snapshot, one JSON line per change (a request's state, a run starting), each
//   numbered. Changes are appended in groups (whatever arrives while a write is
//   under way goes into the next one); every change resolves only once it is
//   written, so it survives the process being killed. A request is recorded as
//   `sent` BEFORE it is handed to the client, and that mark is also fsynced, so it
//   survives a power cut too: after a crash, a `sent` request reads back as
//   `unknown` (the service may have applied it) and is never replayed silently. An
//   outcome is fsynced with the next `sent` mark or at compaction (a machine that
//   goes down before reads it back as `sent`: unknown, never resent silently). Reading a journal replays the
//   log over the snapshot (lines the snapshot already holds are skipped by number;
//   a line torn by a crash was never acknowledged, so it is ignored).
// - `job-<id>.responses/<n>.log`: the responses (up to 1000 changed items each,
//   plus affected items) stay where the change log put them: compaction fsyncs the
//   log and hard-links it there (`<n>.log#<request>`: the request's last line with
//   a response), so a response is serialized and written once. Where a link is not
//   possible (file system), or a response is not in the log, compaction writes them
//   to `<n>.json` (several in one object), as earlier builds did.
//   Journals of version 1 (one response per file, rewritten snapshot per change)
//   are read as before.
// - The journal file holds each request's `ids` and `path` once, in the plan; its
//   `requests` hold the states (ids and path are filled in from the plan on reading;
//   files that also hold them there are read as before). Since version 3 the plan
//   holds each ID once, in its request's path, when the path is the IDs as they are,
//   joined by commas (`n`: how many); the plan's list is its requests' IDs in order
//   (both written out when they are not). Since version 4 the plan holds `parts`, the
//   requests of the document with their bodies (a change set has several; each batch
//   names its part); a part's IDs are left out when they are its batches' IDs in order.
//   A plan of an earlier version holds one `update` and reads as one part. Since version 5 a
//   part may add (`kind: "add"`, `add`: the parent and the POST's body; its one batch names
//   the parent and goes to `/workitem/workItems/{parent}/subItems`) or delete (`kind:
//   "delete"`); the answer of an add (the added items, with their IDs) is its request's
//   response, kept like any other, so a resumption and an undo know what the job created.
//   Since version 6 the request of an add holds `addCheck` (the start of the keys its items
//   carry in `metadata`, and the IDs of the parent's sub-items read just before it first
//   left), and, once its outcome was looked into, `matched` (found by its key, or the
//   candidate the user named), `candidates` (items that may be what it made) or
//   `checkError` (the look failed). A journal of version 5 has none of them: its adds were
//   sent without keys, and are looked for by their name only.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { subItemsPath, workItemsPath } from '../../api/paths';
import type { Piece } from '../durable';
import { isServiceBaseUrl, JobServiceShape, serviceBaseUrl, type JobService, type ServiceGoneReason } from '../service';
import type { UpdateWorkItemsBody } from '../../schema/api';
import { REQUEST_STATES, type JobOutcome, type JobPlan, type RequestResult, type RequestState } from '../types';

export const JOURNAL_FORMAT = 'workitem-studio.bulk-job';
export const JOURNAL_VERSION = 6;
/**
 * Versions this code reads (1: no change log, a running job always rewrote its
 * snapshot; 2: every ID three times in the plan, in its list, its request's list and
 * its request's path; 3: one body per job, `update`; 4: parts that update only; 5: adds
 * without keys).
 */
export const READABLE_VERSIONS: readonly number[] = [1, 2, 3, 4, 5, 6];
export const LOG_SUFFIX = '.log';
export const FILE_PREFIX = 'job-';
export const FILE_SUFFIX = '.json';
export const RESPONSES_SUFFIX = '.responses';

/** Where the job came from: the request document. */
export interface JobSource {
  /** The document's URI (string form), e.g. `file:///.../a.workitems.json` or `untitled:Untitled-1`. */
  uri?: string;
  /** The document's text when the job was started. */
  text?: string;
  description?: string;
}

export type RunKind = 'run' | 'resume' | 'retry-failed' | 'resend-unknown';

export interface JournalRun {
  kind: RunKind;
  startedAt: string;
  finishedAt?: string;
  outcome?: JobOutcome | 'error';
  /** Request indexes this run was asked to send. */
  requests: number[];
  /** The run paused because the job's service was gone (what was not sent is still pending). */
  paused?: ServiceGoneReason;
}

export interface JournalData {
  format: typeof JOURNAL_FORMAT;
  version: number;
  jobId: string;
  createdAt: string;
  updatedAt: string;
  /** Set when nothing is left to send (or the user dismissed the job). */
  finishedAt?: string;
  source: JobSource;
  plan: JobPlan;
  /**
   * The service the job started on (origin, base path, sandbox instance, where the
   * credentials came from): every request of the job goes there or nowhere. Absent in
   * journals written before it was kept (the plan's base URL is the service then).
   */
  service?: JobService;
  /** One per plan request, same order. */
  requests: RequestResult[];
  runs: JournalRun[];
  /**
   * What is left of the job's budget of automatic retries: set when a run starts,
   * lowered (in the same write) with each retry, so a resumption continues from it.
   * Absent in journals written before it was kept.
   */
  retryBudgetLeft?: number;
  /** Number of the last change-log line this snapshot includes (0 or absent: none). */
  seq?: number;
  /**
   * Whether the values before are kept beside the journal for undo (`<file>.before`,
   * src/bulk/snapshot.ts): `expected` (written after the journal is created and before
   * the first request leaves; a journal that says so without the file was left between
   * the two), `off` (the job was sent without them). Absent in older journals.
   */
  valuesBefore?: 'expected' | 'off';
}

export type JournalErrorCode = 'corrupt' | 'unreadable' | 'unsupported' | 'write-failed' | 'locked' | 'invalid-argument' | 'no-values-before';

/** Every journal failure: a code for the UI, the file, and an English message. Never a bare crash. */
export class JournalError extends Error {
  constructor(
    readonly code: JournalErrorCode,
    readonly file: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'JournalError';
  }
}

// Tolerant on unknown members, strict on the ones the engine relies on.
const RequestErrorShape = z.looseObject({
  kind: z.string(),
  status: z.number().optional(),
  messages: z.array(z.string()).default([]),
  codes: z.array(z.string()).default([]),
  message: z.string().default(''),
});
const RequestShape = z.looseObject({
  index: z.number().int().nonnegative(),
  // Absent from snapshots written since they are held once, in the plan.
  ids: z.array(z.string()).optional(),
  path: z.string().optional(),
  state: z.enum(REQUEST_STATES as [RequestState, ...RequestState[]]),
  attempts: z.number().int().nonnegative().default(0),
  error: RequestErrorShape.optional(),
  // Version 6: what an add keeps to be found again, and what a look below its parent found.
  addCheck: z.looseObject({ key: z.string().min(1), before: z.array(z.string()).optional() }).optional(),
  matched: z.enum(['key', 'candidate']).optional(),
  candidates: z.array(z.looseObject({ id: z.string(), name: z.string(), ids: z.array(z.string()) })).optional(),
  checkError: RequestErrorShape.optional(),
});
const PlanShape = z.looseObject({
  duplicates: z.array(z.string()).default([]),
  ids: z.array(z.string()).optional(),
  requests: z.array(
    z.looseObject({ index: z.number().int(), ids: z.array(z.string()).optional(), n: z.number().int().nonnegative().optional(), path: z.string(), part: z.number().int().nonnegative().optional() }),
  ),
  // Version 4: the document's requests; earlier versions: one body for every request.
  parts: z
    .array(
      z.looseObject({
        ids: z.array(z.string()).optional(),
        update: z.record(z.string(), z.unknown()),
        description: z.string().optional(),
        kind: z.enum(['add', 'delete']).optional(),
        // The body is the client's to check again before it is sent (its strict wire schema).
        add: z.looseObject({ parentId: z.string().min(1), item: z.looseObject({ fields: z.record(z.string(), z.unknown()) }) }).optional(),
      }),
    )
    .min(1)
    .optional(),
  update: z.record(z.string(), z.unknown()).optional(),
  warnings: z.array(z.unknown()).default([]),
  baseUrl: z.string(),
  maxIdsPerRequest: z.number(),
  maxUrlLength: z.number(),
});
const JournalShape = z.looseObject({
  format: z.literal(JOURNAL_FORMAT),
  version: z.number().int(),
  jobId: z.string().min(1),
  createdAt: z.string(),
  updatedAt: z.string(),
  finishedAt: z.string().optional(),
  source: z.looseObject({ uri: z.string().optional(), text: z.string().optional(), description: z.string().optional() }).default({}),
  plan: PlanShape,
  requests: z.array(RequestShape),
  runs: z.array(z.unknown()).default([]),
  retryBudgetLeft: z.number().int().nonnegative().optional(),
  seq: z.number().int().nonnegative().optional(),
  service: JobServiceShape.optional(),
  valuesBefore: z.enum(['expected', 'off']).optional(),
});

/** The journal data of a new job `jobId` made at `now`: every request `pending`, no run yet. */
export function newJournalData(
  jobId: string,
  now: Date,
  init: { source: JobSource; plan: JobPlan; service?: JobService; valuesBefore?: 'expected' | 'off' },
): JournalData {
  const at = now.toISOString();
  return {
    format: JOURNAL_FORMAT,
    version: JOURNAL_VERSION,
    jobId,
    createdAt: at,
    updatedAt: at,
    source: { ...init.source },
    ...(init.service ? { service: JSON.parse(JSON.stringify(init.service)) as JobService } : {}),
    // The plan's lists are shared, not copied (a plan is never changed once made).
    plan: { ...init.plan, requests: init.plan.requests.map((r) => ({ ...r })) },
    requests: init.plan.requests.map((r) => ({ index: r.index, ids: r.ids, path: r.path, state: 'pending', attempts: 0 })),
    runs: [],
    ...(init.valuesBefore ? { valuesBefore: init.valuesBefore } : {}),
  };
}

/**
 * The journal data of a journal file's text, checked: its format and version, its
 * shape, its service against its plan, its requests against its plan (each request's
 * IDs and path filled in from the plan), and each path against the IDs it names.
 * Throws {@link JournalError} (`corrupt`, `unsupported`) naming `abs` and what is wrong.
 */
export function parseJournal(abs: string, text: string): JournalData {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new JournalError('corrupt', abs, `the job journal ${abs} is not valid JSON (${errText(e)})`, { cause: e });
  }
  if (typeof json === 'object' && json !== null && 'format' in json && (json as { format: unknown }).format === JOURNAL_FORMAT) {
    const version = (json as { version?: unknown }).version;
    if (typeof version !== 'number' || !READABLE_VERSIONS.includes(version)) {
      throw new JournalError('unsupported', abs, `the job journal ${abs} has version ${String(version)}; this version of the extension reads versions ${READABLE_VERSIONS.join(' and ')}`);
    }
  }
  const parsed = JournalShape.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first ? first.path.join('.') || '(root)' : '(root)';
    throw new JournalError('corrupt', abs, `the job journal ${abs} is damaged: ${where}: ${first?.message ?? 'invalid'}`);
  }
  const data = parsed.data as unknown as JournalData;
  if (data.service && !isServiceBaseUrl(data.service, data.plan.baseUrl)) {
    throw new JournalError('corrupt', abs, `the job journal ${abs} is damaged: its service ${serviceBaseUrl(data.service)} is not the one its plan was made for (${data.plan.baseUrl})`);
  }
  if (!idsFromPaths(data.plan)) throw new JournalError('corrupt', abs, `the job journal ${abs} is damaged: a request's path does not hold its IDs`);
  const partsProblem = fillParts(data.plan as JobPlan & { update?: UpdateWorkItemsBody });
  if (partsProblem) throw new JournalError('corrupt', abs, `the job journal ${abs} is damaged: ${partsProblem}`);
  if (data.requests.length !== data.plan.requests.length || data.requests.some((r, i) => r.index !== i)) {
    throw new JournalError('corrupt', abs, `the job journal ${abs} is damaged: its requests do not match its plan`);
  }
  data.requests.forEach((r, i) => {
    const planned = data.plan.requests[i]!;
    r.ids ??= planned.ids;
    r.path ??= planned.path;
  });
  // A request is sent to the path the journal holds: it must be the one its IDs make (each ID
  // checked as when the job was planned), so an edited journal cannot send elsewhere (`%2F..%2F`).
  const damagedPath = pathProblem(data);
  if (damagedPath) throw new JournalError('corrupt', abs, `the job journal ${abs} is damaged: ${damagedPath}`);
  return data;
}

/**
 * The journal file's text: the source and the plan as serialized once (`fixed`, see
 * {@link fixedPieces}: the same text at every compaction; encoded into reused blocks
 * as it is written); requests without the plan's ids and path, and without responses.
 */
export function snapshotPieces(state: JournalData, fixed: readonly string[]): Piece[] {
  const { source: _fixed, plan: _alsoFixed, requests, ...rest } = state;
  const states = requests.map(({ response: _inSideFile, ids: _inPlan, path: _alsoInPlan, ...r }) => JSON.stringify(r));
  const head = JSON.stringify(rest);
  return [`${head.slice(0, -1)}${head.length > 2 ? ',' : ''}`, ...fixed, `,"requests":[${states.join(',')}]}\n`];
}

/**
 * The parts of the journal file that never change (the source and the plan), as JSON.
 * Kept as separate pieces: joined, the 20,000 IDs of the source and of the plan would
 * make a new string of 360 KB to be copied whole before its first encoding.
 */
export function fixedPieces(state: JournalData): string[] {
  return ['"source":', JSON.stringify(state.source), ',"plan":', planJson(state.plan)];
}

/**
 * The plan's JSON with each ID once where it can (version 3): a request whose path
 * is its IDs as they are, joined by commas (IDs that percent-encoding leaves as they
 * are), is written with its path and the number of IDs; the plan's list is left out
 * when it is its requests' IDs in order.
 */
function planJson(plan: JobPlan): string {
  let k = 0;
  let inOrder = true;
  const requests = plan.requests.map((r) => {
    for (const id of r.ids) if (plan.ids[k++] !== id) inOrder = false;
    const joined = r.ids.join(',');
    const inPath =
      r.ids.length > 0 &&
      r.path.length > joined.length &&
      r.path.endsWith(joined) &&
      r.path[r.path.length - joined.length - 1] === '/' &&
      !joined.includes('/') &&
      commas(joined) === r.ids.length - 1;
    return inPath ? { index: r.index, n: r.ids.length, path: r.path, ...(r.part !== undefined ? { part: r.part } : {}) } : r;
  });
  const parts = plan.parts.map((p, n) => (sameIds(p.ids, batchIdsOfPart(plan.requests, n)) ? { ...p, ids: undefined } : p));
  return JSON.stringify({ ...plan, ids: inOrder && k === plan.ids.length ? undefined : plan.ids, requests, parts });
}

/** The IDs of a part's batches, in order. */
function batchIdsOfPart(requests: JobPlan['requests'], part: number): string[] {
  return requests.filter((r) => (r.part ?? 0) === part).flatMap((r) => r.ids);
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}

/**
 * Gives a plan read from a journal its parts: a plan of version 3 or earlier has one
 * `update` (one part, every ID); a part without IDs gets its batches' IDs. A problem
 * (a batch naming a part the plan lacks) is returned as text.
 */
function fillParts(plan: JobPlan & { update?: UpdateWorkItemsBody }): string | undefined {
  if (!plan.parts) {
    if (!plan.update) return 'its plan has neither parts nor an update';
    plan.parts = [{ ids: plan.ids, update: plan.update }];
  }
  delete plan.update;
  for (const r of plan.requests) if ((r.part ?? 0) >= plan.parts.length) return `request #${r.index + 1} names part ${(r.part ?? 0) + 1} of a plan of ${plan.parts.length}`;
  for (const [n, p] of plan.parts.entries()) p.ids ??= batchIdsOfPart(plan.requests, n);
  return undefined;
}

function commas(text: string): number {
  let n = 0;
  for (let i = text.indexOf(','); i >= 0; i = text.indexOf(',', i + 1)) n++;
  return n;
}

function pathProblem(data: JournalData): string | undefined {
  for (let i = 0; i < data.plan.requests.length; i++) {
    const planned = data.plan.requests[i]!;
    const r = data.requests[i]!;
    const part = data.plan.parts[planned.part ?? 0]!;
    if (part.kind === 'add' && (!part.add || planned.ids.length !== 1 || planned.ids[0] !== part.add.parentId)) return `request #${i + 1}: an add names its parent only`;
    let expected: string;
    try {
      expected = part.kind === 'add' ? subItemsPath(planned.ids[0]!) : workItemsPath(planned.ids);
    } catch (e) {
      return `request #${i + 1}: ${errText(e)}`;
    }
    if (planned.path !== expected || r.path !== expected) return `request #${i + 1}: its path is not the one its work item IDs make`;
    if (r.ids !== planned.ids && (r.ids.length !== planned.ids.length || r.ids.some((id, k) => id !== planned.ids[k]))) {
      return `request #${i + 1}: its IDs are not the ones of its plan`;
    }
  }
  return undefined;
}

/** Fills in the IDs a version-3 plan holds in its paths (see planJson); false when a path does not hold as many as it says. */
function idsFromPaths(plan: JobPlan): boolean {
  for (const r of plan.requests as (JobPlan['requests'][number] & { n?: number })[]) {
    if (r.ids !== undefined) continue;
    const ids = r.path.slice(r.path.lastIndexOf('/') + 1).split(',');
    if (typeof r.n !== 'number' || ids.length !== r.n || ids.includes('')) return false;
    r.ids = ids;
    delete r.n;
  }
  plan.ids ??= plan.requests.flatMap((r) => r.ids);
  return true;
}

export function responsesDirOf(file: string): string {
  return file.slice(0, -FILE_SUFFIX.length) + RESPONSES_SUFFIX;
}

export function newJobId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${randomBytes(4).toString('hex')}`;
}

export function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
