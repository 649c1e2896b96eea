// The job journal: one JSON file per bulk job, in a directory the caller gives
// (the extension passes its globalStorageUri path). No vscode import.
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
//   (both written out when they are not).
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { z } from 'zod';
import { REQUEST_STATES, type JobOutcome, type JobPlan, type RequestResult, type RequestState } from './types';
import { syncDirectory, writeFileDurably, writePiecesSync, type Piece } from './durable';
import { rawJsonOf } from '../api/rawJson';
import { workItemsPath } from '../api/paths';
import { isServiceBaseUrl, JobServiceShape, serviceBaseUrl, type JobService, type ServiceGoneReason } from './service';

/** The time as an ISO string; the string is made once per millisecond (a job writes several lines a millisecond). */
let lastMs = 0;
let lastIso = '';
function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

/** Stands for an answer in a line while the line is serialized; replaced by the answer's kept JSON text. */
const RAW_MARK = '\u0000kept answer\u0000';
const RAW_MARK_JSON = JSON.stringify(RAW_MARK);

export const JOURNAL_FORMAT = 'workitem-studio.bulk-job';
export const JOURNAL_VERSION = 3;
/**
 * Versions this code reads (1: no change log, a running job always rewrote its
 * snapshot; 2: every ID three times in the plan, in its list, its request's list and
 * its request's path).
 */
const READABLE_VERSIONS: readonly number[] = [1, 2, 3];
const LOG_SUFFIX = '.log';
const FILE_PREFIX = 'job-';
const FILE_SUFFIX = '.json';
const RESPONSES_SUFFIX = '.responses';

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
});
const PlanShape = z.looseObject({
  duplicates: z.array(z.string()).default([]),
  ids: z.array(z.string()).optional(),
  requests: z.array(z.looseObject({ index: z.number().int(), ids: z.array(z.string()).optional(), n: z.number().int().nonnegative().optional(), path: z.string() })),
  update: z.record(z.string(), z.unknown()),
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

/** One line of the change log. */
interface LogEntry {
  /** Line number (1, 2, …; continues across compactions). */
  n: number;
  /** updatedAt. */
  t: string;
  /** A request change: index, members set, members removed. */
  i?: number;
  p?: Record<string, unknown>;
  d?: string[];
  /** retryBudgetLeft. */
  b?: number;
  /** A run started. */
  run?: JournalRun;
  /**
   * Requests that may be sent from now on (reserved ahead with this line's fsync).
   * Read back after the machine restarted, they are `sent` unless a later line says
   * otherwise; in the same boot every line written before the process ended is there,
   * so a reserved request without its own `sent` line never left.
   */
  r?: number[];
  /** The machine's boot (on the first line a process writes to a log). */
  k?: string;
}

let currentBoot: string | undefined;
/** Identifies the machine's current boot: Linux's boot id, else the boot time in seconds. */
function bootKey(): string {
  if (currentBoot === undefined) {
    try {
      currentBoot = `id:${fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()}`;
    } catch {
      currentBoot = `at:${Math.round(Date.now() / 1000 - os.uptime())}`;
    }
  }
  return currentBoot;
}

function sameBoot(key: string | undefined): boolean {
  if (key === undefined) return false;
  const now = bootKey();
  if (key.startsWith('at:') && now.startsWith('at:')) return Math.abs(Number(key.slice(3)) - Number(now.slice(3))) <= 2;
  return key === now;
}

/** A summary of one journal file, for listing jobs. `error` is set (and nothing else) for a file that cannot be read. */
export interface JobSummary {
  file: string;
  jobId?: string;
  createdAt?: string;
  updatedAt?: string;
  finishedAt?: string;
  source?: { uri?: string; description?: string };
  itemsTotal?: number;
  requestsTotal?: number;
  requestsByState?: Record<RequestState, number>;
  /** Requests never sent (`pending`): what a resumption sends. */
  unsent?: number;
  /** Requests whose outcome is unknown (`unknown`, `cancelled`, or `sent` when the process ended). */
  outcomeUnknown?: number;
  failed?: number;
  /** Another live process is running this job now. */
  locked?: boolean;
  /**
   * The values before for undo: `present` (beside the journal), `missing` (the job
   * cannot be undone as it is: see {@link JobJournal.valuesBeforeState}), `off` (sent
   * without them by choice), `unrecorded` (none, in an older journal).
   */
  valuesBefore?: ValuesBeforeState;
  error?: JournalError;
}

/** See {@link JobJournal.valuesBeforeState}. */
export type ValuesBeforeState = 'present' | 'missing' | 'off' | 'unrecorded';

/** A job journal. Create with {@link JobJournal.create}, read back with {@link JobJournal.load}. */
export class JobJournal {
  private tmpCounter = 0;
  private lockFile: string | undefined;
  /** Requests whose response is not yet in a responses file (only in the log, or only in memory). */
  private unsavedResponses = new Set<number>();
  /** Requests whose latest response is on a line of the change log as it is now (so a link of the log keeps it). */
  private loggedResponses = new Set<number>();
  /** The parts of the journal file that never change (the source and the plan), as JSON made once. */
  private fixedJson: string[] | undefined;
  /** Number of the last change-log line made. */
  private seq: number;
  /** The change log, open for appending (written synchronously: a line is in the OS when append returns). */
  private logFd: number | undefined;
  /** The last append failed: the next one starts with a line break (after a possibly torn line). */
  private logTorn = false;
  /** The fsync under way, and the one asked for while it runs (covers every line written before it starts). */
  private syncing: Promise<void> | undefined;
  private syncNext: Promise<void> | undefined;
  /** A snapshot (compaction) under way; appends wait for it. */
  private compacting: Promise<void> | undefined;
  /** Requests marked on disk as possibly sent ahead of their turn: the fsync of that mark. */
  private reserved = new Map<number, Promise<void>>();
  /** This process has written its boot key to the log. */
  private bootWritten = false;
  /** Lines written later (outcomes): with the next line, on the next turn of the event loop, or before a compaction. */
  private pendingLines: Piece[] = [];
  private pendingTimer: NodeJS.Immediate | undefined;
  /** A later write that failed: the next flush rejects with it. */
  private pendingError: unknown;

  private constructor(
    /** Absolute path of the journal file. */
    readonly file: string,
    private state: JournalData,
  ) {
    this.seq = state.seq ?? 0;
  }

  /**
   * Creates the journal of a new job in `dir` (created when missing) and writes it.
   * Every request starts `pending`.
   */
  static async create(
    dir: string,
    init: { source: JobSource; plan: JobPlan; service?: JobService; jobId?: string; now?: () => Date; valuesBefore?: 'expected' | 'off' },
  ): Promise<JobJournal> {
    const now = (init.now ?? (() => new Date()))();
    const jobId = init.jobId ?? newJobId(now);
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,100}$/.test(jobId)) {
      throw new JournalError('invalid-argument', dir, `"${jobId}" is not a valid job id (letters, digits, ".", "_", "-")`);
    }
    const file = path.join(path.resolve(dir), `${FILE_PREFIX}${jobId}${FILE_SUFFIX}`);
    if (init.service && !isServiceBaseUrl(init.service, init.plan.baseUrl)) {
      throw new JournalError('invalid-argument', file, `the plan was made for ${init.plan.baseUrl}, not for the job's service ${serviceBaseUrl(init.service)}`);
    }
    const at = now.toISOString();
    const data: JournalData = {
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
    // The quick file-system steps of a job are made synchronously (a few microseconds
    // each, less than a trip through the thread pool); the fsyncs are not.
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
    } catch (e) {
      throw new JournalError('write-failed', file, `cannot create the job directory ${path.dirname(file)}: ${errText(e)}`, { cause: e });
    }
    const journal = new JobJournal(file, data);
    if (fs.existsSync(file)) throw new JournalError('invalid-argument', file, `a job with id "${jobId}" already exists (${file})`);
    await journal.compact();
    return journal;
  }

  /**
   * Reads a journal (its snapshot, then its change log). A request recorded as
   * `sent` (the process ended while it was in flight) reads back as `unknown` with
   * error kind `interrupted`. Throws {@link JournalError} (`unreadable`, `corrupt`,
   * `unsupported`) with the file and what is wrong.
   */
  static async load(file: string, options: { responses?: boolean } = {}): Promise<JobJournal> {
    const abs = path.resolve(file);
    let text: string;
    try {
      text = await fsp.readFile(abs, 'utf8');
    } catch (e) {
      throw new JournalError('unreadable', abs, `cannot read the job journal ${abs}: ${errText(e)}`, { cause: e });
    }
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
    const inLog = await replayLog(abs, data);
    for (const r of data.requests) {
      if (r.state === 'sent') {
        r.state = 'unknown';
        r.error = {
          kind: 'interrupted',
          messages: [],
          codes: [],
          message: `${r.path.length > 80 ? `${r.path.slice(0, 80)}…` : r.path}: the request was sent but the job stopped before its answer arrived; its outcome is unknown`,
        };
      }
    }
    if (options.responses !== false) {
      const files = new Map<string, Promise<unknown>>();
      const read = (rel: string): Promise<unknown> => {
        let p = files.get(rel);
        if (!p) {
          p = fsp.readFile(path.join(path.dirname(abs), rel), 'utf8').then((t) => (rel.endsWith(LOG_SUFFIX) ? responsesInLog(t) : (JSON.parse(t) as unknown)));
          files.set(rel, p);
          p.catch(() => undefined);
        }
        return p;
      };
      for (const r of data.requests) {
        const stored = (r as { responseFile?: unknown }).responseFile;
        if (typeof stored !== 'string' || r.response !== undefined) continue;
        const hash = stored.lastIndexOf('#');
        try {
          if (hash < 0) {
            r.response = (await read(stored)) as RequestResult['response']; // version 1: one response per file
          } else {
            const all = (await read(stored.slice(0, hash))) as Record<string, unknown>;
            const one = all[stored.slice(hash + 1)];
            if (one === undefined) throw new Error('not in the file');
            r.response = one as RequestResult['response'];
          }
        } catch {
          // The state is what matters for safety; a lost response only means less detail.
          (r as { responseMissing?: boolean }).responseMissing = true;
        }
      }
    }
    const journal = new JobJournal(abs, data);
    journal.seq = Math.max(journal.seq, inLog.lastSeq);
    journal.logTorn = inLog.torn === true;
    for (const i of inLog.responses) {
      journal.unsavedResponses.add(i);
      journal.loggedResponses.add(i);
    }
    return journal;
  }

  /** Directory of the side files holding the responses. */
  get responsesDir(): string {
    return responsesDirOf(this.file);
  }

  /** The change log beside the journal file. */
  get logFile(): string {
    return `${this.file}${LOG_SUFFIX}`;
  }

  get id(): string {
    return this.state.jobId;
  }

  /** The journal's content. Read-only: change it only through the methods. */
  get data(): Readonly<JournalData> {
    return this.state;
  }

  get plan(): JobPlan {
    return this.state.plan;
  }

  get requests(): readonly RequestResult[] {
    return this.state.requests;
  }

  get isFinished(): boolean {
    return this.state.finishedAt !== undefined;
  }

  /** Indexes of the requests in one of `states`, in plan order. */
  indexesIn(...states: RequestState[]): number[] {
    const out: number[] = [];
    for (const r of this.state.requests) if (states.includes(r.state)) out.push(r.index);
    return out;
  }

  summary(): JobSummary {
    return summarize(this.file, this.state);
  }

  /** Where the values before of this job are (or would be) kept for undo. */
  get valuesBeforeFile(): string {
    return `${this.file}.before`;
  }

  /**
   * Whether the job can be undone from what is on disk: `present` (its values before
   * are beside the journal), `off` (it was sent without them by choice), `missing`
   * (they were to be written but are not: the process ended between creating the
   * journal and writing them, so no request has left), `unrecorded` (none on disk, and
   * the journal does not say whether there were to be: an older journal, or one made
   * without saying; it cannot be undone). A job whose values are `missing` is resumed
   * only after they are read again, or explicitly without undo (see resumeJob).
   */
  async valuesBeforeState(): Promise<ValuesBeforeState> {
    const present = await fsp.stat(this.valuesBeforeFile).then(
      (st) => st.isFile() && st.size > 0,
      () => false,
    );
    if (present) return 'present';
    return this.state.valuesBefore === 'expected' ? 'missing' : this.state.valuesBefore === 'off' ? 'off' : 'unrecorded';
  }

  /** What is left of the job's retry budget (undefined for a job that has not run, or an older journal). */
  get retryBudgetLeft(): number | undefined {
    return this.state.retryBudgetLeft;
  }

  /**
   * Replaces the record of request `index` (merged; a member given as undefined is
   * removed), with what is left of the retry budget when given, and appends the
   * change to the log. Resolves once it is on disk.
   */
  updateRequest(
    index: number,
    patch: Partial<Omit<RequestResult, 'index' | 'ids' | 'path'>>,
    retryBudgetLeft?: number,
    options: { reserveAhead?: readonly number[]; later?: boolean } = {},
  ): Promise<void> {
    // Every change is written before this resolves, so it survives the process being
    // killed. A `sent` mark is also fsynced (it must survive a power cut: the request
    // leaves only after it); an outcome is fsynced with the next `sent` mark or at
    // compaction, and read back as `sent`, i.e. unknown, if the machine went down first.
    // `reserveAhead` (with a `sent` mark): requests about to be sent next are marked
    // on disk with the same fsync, so their own `sent` marks need none; after a crash
    // they read back as unknown even if they had not left yet (never as unsent).
    // `later` (an outcome): resolves at once; the line is written with the next line
    // (before the next request's `sent` mark), on the next turn of the event loop, or
    // before a compaction, whichever comes first. Killed before, the request reads
    // back as `sent` (unknown), never as unsent or wrongly.
    // A request that leaves on an earlier mark ahead renews the marks ahead once half of
    // the window is unmarked: that line's fsync runs while this request (covered by its
    // own earlier fsync) leaves, so the next ones rarely wait (the marked ones still
    // never leave before the fsync of their mark).
    let durable = patch.state === 'sent';
    let waitFor: Promise<void> | undefined;
    if (durable) {
      waitFor = this.reserved.get(index);
      if (waitFor) {
        this.reserved.delete(index);
        durable = false;
      }
    }
    const window = patch.state === 'sent' ? (options.reserveAhead ?? []) : [];
    let ahead = window.filter((i) => i !== index && this.state.requests[i] && !this.reserved.has(i));
    if (!durable && ahead.length * 2 < window.length) ahead = [];
    const r = this.state.requests[index];
    if (!r) return Promise.reject(new JournalError('invalid-argument', this.file, `the job has no request #${index}`));
    const set: Record<string, unknown> = {};
    const removed: string[] = [];
    for (const k of Object.keys(patch) as (keyof typeof patch)[]) {
      const v = patch[k];
      if (v === undefined) {
        removed.push(k);
        delete (r as unknown as Record<string, unknown>)[k];
      } else {
        set[k] = v;
        (r as unknown as Record<string, unknown>)[k] = v;
      }
    }
    if ('response' in patch) {
      // A new response (or none) replaces what a responses file held.
      delete (r as { responseFile?: string }).responseFile;
      delete (r as { responseMissing?: boolean }).responseMissing;
      if (!removed.includes('responseFile')) removed.push('responseFile');
      if (r.response !== undefined) this.unsavedResponses.add(index);
      else this.unsavedResponses.delete(index);
    }
    const entry: LogEntry = { n: 0, t: '', i: index, p: set };
    if (removed.length > 0) entry.d = removed;
    if (retryBudgetLeft !== undefined) {
      this.state.retryBudgetLeft = retryBudgetLeft;
      entry.b = retryBudgetLeft;
    }
    if (ahead.length > 0) entry.r = ahead;
    // A `sent` line is written (to the system) before its request leaves, also when a mark
    // ahead covers it on disk: replayed in the same boot, a request marked ahead without a
    // line of its own never left (so it is sent on resuming, not asked about).
    const written = options.later && patch.state !== 'sent' ? this.appendLater(entry) : this.append(entry, durable);
    if ('response' in patch) {
      // Known to be on a line of this log once the line is written (before a compaction links it).
      this.loggedResponses.delete(index);
      if (r.response !== undefined) written.then(() => (r.response === set.response ? this.loggedResponses.add(index) : undefined)).catch(() => undefined);
    }
    const marked = durable || ahead.length === 0 ? written : written.then(() => this.sync());
    marked.catch(() => undefined);
    for (const i of ahead) this.reserved.set(i, marked);
    return waitFor ? Promise.all([written, waitFor]).then(() => undefined) : written;
  }

  /** Records the start of a run, with the retry budget it starts with when given. */
  beginRun(kind: RunKind, requests: number[], now: Date = new Date(), retryBudget?: number): Promise<void> {
    const run: JournalRun = { kind, startedAt: now.toISOString(), requests: [...requests] };
    this.state.runs.push(run);
    if (retryBudget !== undefined) this.state.retryBudgetLeft = retryBudget;
    // A journal of version 1 is rewritten as version 2 first: a version that does not
    // know the change log refuses it instead of missing what the log holds.
    if (this.state.version !== JOURNAL_VERSION) return this.compact();
    const entry: LogEntry = { n: 0, t: '', run };
    if (retryBudget !== undefined) entry.b = retryBudget;
    return this.append(entry, false);
  }

  /**
   * Records the end of the latest run; marks the job finished when nothing is left
   * to send. Compacts the journal: the change log is folded into the journal file.
   */
  endRun(outcome: JournalRun['outcome'], now: Date = new Date(), paused?: ServiceGoneReason): Promise<void> {
    const run = this.state.runs[this.state.runs.length - 1];
    if (run) {
      run.finishedAt = now.toISOString();
      run.outcome = outcome;
      if (paused) run.paused = paused;
    }
    if (!this.state.requests.some((r) => r.state === 'pending' || r.state === 'sent')) this.state.finishedAt ??= now.toISOString();
    return this.compact();
  }

  /** Marks the job finished: it is no longer offered for resumption (Retry Failed still works). */
  markFinished(now: Date = new Date()): Promise<void> {
    this.state.finishedAt ??= now.toISOString();
    return this.compact();
  }

  /** Deletes the journal file (and its change log, responses and lock). */
  async delete(): Promise<void> {
    await this.flush().catch(() => undefined);
    this.closeLog();
    await fsp.rm(this.file, { force: true });
    await fsp.rm(this.logFile, { force: true });
    await fsp.rm(this.responsesDir, { recursive: true, force: true });
    await fsp.rm(`${this.file}.lock`, { force: true });
  }

  /** Resolves when every write asked for so far is on disk (rejects with the last write error). */
  async flush(): Promise<void> {
    this.writePending();
    await this.compacting;
    await (this.syncNext ?? this.syncing);
    const e = this.pendingError;
    this.pendingError = undefined;
    if (e !== undefined) throw e;
  }

  /**
   * Takes the job's lock (a `.lock` file beside the journal holding this process's
   * id), so that two windows never run the same job at once. A lock left by a
   * process that no longer runs is taken over. Throws `locked` otherwise.
   */
  async acquireLock(): Promise<void> {
    if (this.lockFile) return;
    const lockFile = `${this.file}.lock`;
    const content = JSON.stringify({ pid: process.pid, host: os.hostname(), at: new Date().toISOString() });
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        fs.writeFileSync(lockFile, content, { flag: 'wx' });
        this.lockFile = lockFile;
        return;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
          throw new JournalError('write-failed', this.file, `cannot lock the job journal ${this.file}: ${errText(e)}`, { cause: e });
        }
      }
      if (await lockIsLive(lockFile)) {
        throw new JournalError('locked', this.file, `job ${this.id} is being run by another window or process`);
      }
      await fsp.rm(lockFile, { force: true });
    }
    throw new JournalError('locked', this.file, `job ${this.id} is being run by another window or process`);
  }

  async releaseLock(): Promise<void> {
    await this.flush().catch(() => undefined);
    this.closeLog();
    if (!this.lockFile) return;
    const f = this.lockFile;
    this.lockFile = undefined;
    fs.rmSync(f, { force: true });
  }

  /**
   * Appends one change-log line. It is written (to the operating system) before this
   * returns; the promise resolves at once, or, when `durable`, once an fsync that
   * started after the write has completed (several lines share one fsync).
   */
  private append(entry: LogEntry, durable: boolean): Promise<void> {
    const line = this.lineOf(entry);
    if (this.compacting) return this.compacting.catch(() => undefined).then(() => this.appendLine(line, durable));
    return this.appendLine(line, durable);
  }

  private lineOf(entry: LogEntry): Piece[] {
    const at = isoNow();
    this.state.updatedAt = at;
    entry.n = ++this.seq;
    entry.t = at;
    if (!this.bootWritten) {
      entry.k = bootKey();
      this.bootWritten = true;
    }
    // An answer whose JSON text the client kept is written as that text, not serialized again.
    const response = entry.p?.response;
    const raw = response === undefined ? undefined : rawJsonOf(response);
    if (raw === undefined || !entry.p) return [`${JSON.stringify(entry)}\n`];
    entry.p.response = RAW_MARK;
    const line = JSON.stringify(entry);
    entry.p.response = response;
    const cut = line.indexOf(RAW_MARK_JSON);
    return [line.slice(0, cut), raw, `${line.slice(cut + RAW_MARK_JSON.length)}\n`];
  }

  /** Queues a line to be written with the next one (or on the next turn of the event loop); resolves at once. */
  private appendLater(entry: LogEntry): Promise<void> {
    if (this.compacting) return this.append(entry, false);
    this.pendingLines.push(...this.lineOf(entry));
    this.pendingTimer ??= setImmediate(() => this.writePending());
    return Promise.resolve();
  }

  /** Writes the queued lines now; a failure is kept for the next flush. */
  private writePending(): void {
    if (this.pendingTimer) clearImmediate(this.pendingTimer);
    this.pendingTimer = undefined;
    if (this.pendingLines.length === 0) return;
    this.appendLine([], false).catch((e: unknown) => void (this.pendingError ??= e));
  }

  private appendLine(line: readonly Piece[], durable: boolean): Promise<void> {
    if (this.pendingTimer) clearImmediate(this.pendingTimer);
    this.pendingTimer = undefined;
    const pieces = this.pendingLines;
    pieces.push(...line);
    this.pendingLines = [];
    try {
      this.logFd ??= fs.openSync(this.logFile, 'a', 0o600);
      if (this.logTorn) pieces.unshift('\n');
      writePiecesSync(this.logFd, pieces);
      this.logTorn = false;
      // A log removed under us (its directory deleted) takes writes that reach no file. A
      // line that must be durable is checked after its fsync (fsyncLog), which every request
      // leaves on (its own, or the mark ahead that covered it): once the log is gone, no
      // request leaves but those already marked on disk before (each write is not checked:
      // that would cost a system call per request).
    } catch (e) {
      this.logTorn = true;
      this.loggedResponses.clear();
      this.closeLog();
      return Promise.reject(new JournalError('write-failed', this.file, `cannot write the job journal ${this.logFile}: ${errText(e)}`, { cause: e }));
    }
    return durable ? this.sync() : Promise.resolve();
  }

  /** Group commit: one fsync at a time; callers arriving while one runs share the next. */
  private sync(): Promise<void> {
    if (this.syncNext) return this.syncNext;
    const run = (): Promise<void> => {
      const p = this.fsyncLog().finally(() => {
        if (this.syncing === p) this.syncing = undefined;
      });
      this.syncing = p;
      return p;
    };
    if (!this.syncing) return run();
    const next = this.syncing
      .catch(() => undefined)
      .then(() => {
        this.syncNext = undefined;
        return run();
      });
    this.syncNext = next;
    return next;
  }

  private async fsyncLog(): Promise<void> {
    const fd = this.logFd;
    try {
      if (fd === undefined) throw new Error('the change log is not open');
      await this.syncFd(fd);
      // What this fsync made durable must be in a file that still exists.
      if (fs.fstatSync(fd).nlink === 0) throw new Error('the change log was removed');
    } catch (e) {
      this.logTorn = true;
      this.loggedResponses.clear(); // what the log holds may not reach the disk: responses are written out from memory
      this.closeLog();
      throw new JournalError('write-failed', this.file, `cannot write the job journal ${this.logFile}: ${errText(e)}`, { cause: e });
    }
  }

  /** Writes a snapshot of the whole state (the change log is then dropped). Serialized with the fsyncs. */
  private compact(): Promise<void> {
    this.writePending(); // the log holds every line before it is linked
    this.state.updatedAt = new Date().toISOString();
    const before = this.compacting;
    const p: Promise<void> = (async () => {
      await before?.catch(() => undefined);
      await (this.syncNext ?? this.syncing)?.catch(() => undefined);
      await this.writeSnapshot();
    })().finally(() => {
      if (this.compacting === p) this.compacting = undefined;
    });
    this.compacting = p;
    return p;
  }

  /**
   * Keeps the responses held only in the log in a responses file (the log itself,
   * hard-linked, when it holds them; else written out), then writes the journal
   * file; then drops the log.
   */
  private async writeSnapshot(): Promise<void> {
    const indexes = [...this.unsavedResponses].filter((i) => this.state.requests[i]?.response !== undefined);
    const seq = this.seq;
    if (indexes.length > 0) {
      const dirName = path.basename(this.responsesDir);
      try {
        fs.mkdirSync(this.responsesDir, { recursive: true });
        const logged = indexes.filter((i) => this.loggedResponses.has(i));
        const linked = logged.length > 0 && (await this.linkLog(`${seq}${LOG_SUFFIX}`)) ? new Set(logged) : new Set<number>();
        for (const i of linked) (this.state.requests[i] as { responseFile?: string }).responseFile = `${dirName}/${seq}${LOG_SUFFIX}#${i}`;
        const rest = indexes.filter((i) => !linked.has(i));
        if (rest.length > 0) {
          const name = `${seq}.json`;
          const map: Record<string, unknown> = {};
          for (const i of rest) map[i] = this.state.requests[i]!.response;
          await writeAtomic(path.join(this.responsesDir, name), JSON.stringify(map), `${process.pid}.${++this.tmpCounter}`);
          for (const i of rest) (this.state.requests[i] as { responseFile?: string }).responseFile = `${dirName}/${name}#${i}`;
        }
      } catch (e) {
        throw e instanceof JournalError ? e : new JournalError('write-failed', this.file, `cannot write the responses of job ${this.id}: ${errText(e)}`, { cause: e });
      }
      this.unsavedResponses.clear();
    }
    this.state.version = JOURNAL_VERSION;
    this.state.seq = seq;
    this.reserved.clear(); // the snapshot holds each request's true state
    await writeAtomic(this.file, this.snapshotPieces(), `${process.pid}.${++this.tmpCounter}`);
    // Every line of the log is in the snapshot now (and would be skipped by number anyway).
    this.closeLog();
    this.loggedResponses.clear();
    try {
      fs.rmSync(this.logFile, { force: true });
    } catch {
      /* left for the next compaction: its lines are in the snapshot, skipped by number */
    }
  }

  /**
   * Makes the change log durable and links it into the responses directory as
   * `name` (its lines are never written again: the log is dropped after the
   * snapshot). False when the file system cannot (the caller writes the responses).
   */
  private async linkLog(name: string): Promise<boolean> {
    const target = path.join(this.responsesDir, name);
    try {
      const fd = this.logFd ?? (this.logFd = fs.openSync(this.logFile, 'a', 0o600));
      await this.syncFd(fd);
      fs.rmSync(target, { force: true }); // left by a compaction that did not finish
      fs.linkSync(this.logFile, target);
    } catch {
      return false;
    }
    // The link must be on disk before a snapshot naming it is.
    await syncDirectory(this.responsesDir);
    return true;
  }

  private syncFd(fd: number): Promise<void> {
    return new Promise<void>((resolve, reject) => fs.fdatasync(fd, (e) => (e ? reject(e) : resolve())));
  }

  /**
   * The journal file's text: the source and the plan as serialized once (the same
   * text at every compaction; encoded into reused blocks as it is written); requests without the plan's ids and path,
   * and without responses.
   */
  private snapshotPieces(): Piece[] {
    const { source, plan, requests, ...rest } = this.state;
    // Kept as separate pieces: joined, the 20,000 IDs of the source and of the plan would
    // make a new string of 360 KB to be copied whole before its first encoding.
    this.fixedJson ??= ['"source":', JSON.stringify(source), ',"plan":', planJson(plan)];
    const states = requests.map(({ response: _inSideFile, ids: _inPlan, path: _alsoInPlan, ...r }) => JSON.stringify(r));
    const head = JSON.stringify(rest);
    return [`${head.slice(0, -1)}${head.length > 2 ? ',' : ''}`, ...this.fixedJson, `,"requests":[${states.join(',')}]}\n`];
  }

  private closeLog(): void {
    const fd = this.logFd;
    this.logFd = undefined;
    this.bootWritten = false;
    if (fd !== undefined) {
      try {
        fs.closeSync(fd);
      } catch {
        /* already gone */
      }
    }
  }
}

/**
 * Applies the change log beside `file` to `data` (lines the snapshot already holds
 * are skipped). Returns the last line's number and the requests whose response is
 * only in the log.
 */
async function replayLog(file: string, data: JournalData): Promise<{ lastSeq: number; responses: Set<number>; torn?: boolean }> {
  const responses = new Set<number>();
  let text: string;
  try {
    text = await fsp.readFile(`${file}${LOG_SUFFIX}`, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { lastSeq: 0, responses };
    throw new JournalError('unreadable', file, `cannot read the change log of the job journal ${file}: ${errText(e)}`, { cause: e });
  }
  let last = data.seq ?? 0;
  let boot: string | undefined;
  // A last line cut short by a crash: the next line written must start on a line of its own.
  const torn = text !== '' && !text.endsWith('\n');
  /** Reserved ahead, with no line of their own after. */
  const reservedOnly = new Set<number>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    let e: LogEntry;
    try {
      e = JSON.parse(line) as LogEntry;
    } catch {
      continue; // torn by a crash mid-write: never acknowledged, so nothing was sent on its strength
    }
    if (typeof e !== 'object' || e === null || typeof e.n !== 'number' || e.n <= last) continue;
    last = e.n;
    if (typeof e.t === 'string') data.updatedAt = e.t;
    if (typeof e.b === 'number') data.retryBudgetLeft = e.b;
    if (e.run && typeof e.run === 'object') data.runs.push(e.run);
    if (typeof e.k === 'string') boot = e.k;
    if (Array.isArray(e.r)) for (const i of e.r) if (typeof i === 'number' && data.requests[i]) reservedOnly.add(i);
    if (typeof e.i === 'number') {
      const r = data.requests[e.i] as unknown as Record<string, unknown> | undefined;
      if (!r) throw new JournalError('corrupt', file, `the change log of the job journal ${file} is damaged: it names request #${e.i}, which the job does not have`);
      for (const k of e.d ?? []) delete r[k];
      for (const [k, v] of Object.entries(e.p ?? {})) {
        if (k === 'index' || k === 'ids' || k === 'path') continue;
        r[k] = v;
      }
      reservedOnly.delete(e.i);
      if (e.p && 'response' in e.p) responses.add(e.i);
      else if (e.d?.includes('response')) responses.delete(e.i);
      if (typeof r.state !== 'string' || !REQUEST_STATES.includes(r.state as RequestState)) {
        throw new JournalError('corrupt', file, `the change log of the job journal ${file} is damaged: request #${e.i} has the state ${JSON.stringify(r.state)}`);
      }
    }
  }
  // After a restart of the machine, lines written after the last fsync may be lost:
  // a request reserved ahead may have left with its own `sent` line lost, so it is
  // `sent` (read as unknown). In the same boot nothing written is lost: it never left.
  if (!sameBoot(boot)) {
    for (const i of reservedOnly) {
      const r = data.requests[i]!;
      if (r.state !== 'succeeded') r.state = 'sent';
    }
  }
  return { lastSeq: last, responses, torn };
}

/** The responses on the lines of a change log kept as a responses file: request index → its last response. */
function responsesInLog(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const line of text.split('\n')) {
    if (!line.includes('"response"')) continue;
    let e: LogEntry;
    try {
      e = JSON.parse(line) as LogEntry;
    } catch {
      continue; // torn: never acknowledged
    }
    if (typeof e === 'object' && e !== null && typeof e.i === 'number' && e.p && typeof e.p === 'object' && 'response' in e.p) out[e.i] = e.p.response;
  }
  return out;
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
    return inPath ? { index: r.index, n: r.ids.length, path: r.path } : r;
  });
  return JSON.stringify({ ...plan, ids: inOrder && k === plan.ids.length ? undefined : plan.ids, requests });
}

function commas(text: string): number {
  let n = 0;
  for (let i = text.indexOf(','); i >= 0; i = text.indexOf(',', i + 1)) n++;
  return n;
}

/** Fills in the IDs a version-3 plan holds in its paths (see planJson); false when a path does not hold as many as it says. */
/** Why a request's path is not the one its IDs make (undefined when every one is). */
function pathProblem(data: JournalData): string | undefined {
  for (let i = 0; i < data.plan.requests.length; i++) {
    const planned = data.plan.requests[i]!;
    const r = data.requests[i]!;
    let expected: string;
    try {
      expected = workItemsPath(planned.ids);
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

/** Writes `content` to `file` atomically and durably (see writeFileDurably); a failure is a JournalError. */
async function writeAtomic(file: string, content: string | readonly Piece[], tag: string): Promise<void> {
  try {
    await writeFileDurably(file, content, tag);
  } catch (e) {
    throw new JournalError('write-failed', file, `cannot write the job journal ${file}: ${errText(e)}`, { cause: e });
  }
}

async function lockIsLive(lockFile: string): Promise<boolean> {
  let info: { pid?: unknown; host?: unknown };
  try {
    info = JSON.parse(await fsp.readFile(lockFile, 'utf8')) as { pid?: unknown; host?: unknown };
  } catch {
    return false; // unreadable or half-written lock: treat as stale
  }
  if (typeof info.pid !== 'number') return false;
  if (typeof info.host === 'string' && info.host !== os.hostname()) return true; // cannot check another machine: assume live
  if (info.pid === process.pid) return true;
  try {
    process.kill(info.pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function responsesDirOf(file: string): string {
  return file.slice(0, -FILE_SUFFIX.length) + RESPONSES_SUFFIX;
}

function newJobId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${randomBytes(4).toString('hex')}`;
}

function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function countByState(requests: readonly RequestResult[]): Record<RequestState, number> {
  const counts = Object.fromEntries(REQUEST_STATES.map((s) => [s, 0])) as Record<RequestState, number>;
  for (const r of requests) counts[r.state]++;
  return counts;
}

function summarize(file: string, d: JournalData): JobSummary {
  const byState = countByState(d.requests);
  return {
    file,
    jobId: d.jobId,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
    finishedAt: d.finishedAt,
    source: { uri: d.source.uri, description: d.source.description },
    itemsTotal: d.plan.ids.length,
    requestsTotal: d.requests.length,
    requestsByState: byState,
    unsent: byState.pending,
    outcomeUnknown: byState.unknown + byState.cancelled + byState.sent,
    failed: byState.failed,
  };
}

/**
 * Every job journal in `dir`, newest first. A file that cannot be read is listed
 * with `error` set (never thrown); a missing directory is an empty list.
 */
export async function listJobs(dir: string): Promise<JobSummary[]> {
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new JournalError('unreadable', dir, `cannot list the job directory ${dir}: ${errText(e)}`, { cause: e });
  }
  const files = names.filter((n) => n.startsWith(FILE_PREFIX) && n.endsWith(FILE_SUFFIX)).map((n) => path.join(path.resolve(dir), n));
  const out: JobSummary[] = [];
  for (const file of files) {
    try {
      const j = await JobJournal.load(file, { responses: false });
      out.push({ ...j.summary(), locked: await lockIsLive(`${file}.lock`).catch(() => false), valuesBefore: await j.valuesBeforeState() });
    } catch (e) {
      out.push({ file, error: e instanceof JournalError ? e : new JournalError('unreadable', file, errText(e), { cause: e }) });
    }
  }
  return out.sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''));
}

/**
 * Jobs to offer for resumption: not finished, with requests never sent or
 * interrupted while sent, and not being run by another live process.
 */
export async function listUnfinishedJobs(dir: string): Promise<JobSummary[]> {
  return (await listJobs(dir)).filter((s) => !s.error && !s.finishedAt && !s.locked && ((s.unsent ?? 0) > 0 || (s.requestsByState?.unknown ?? 0) > 0));
}

/**
 * Deletes finished jobs whose last change is older than `maxAgeMs`, and leftover
 * temp files. Unfinished and unreadable journals are kept (the UI shows them).
 * Returns the deleted journal files.
 */
export async function pruneJobs(dir: string, opts: { maxAgeMs: number; now?: () => number }): Promise<string[]> {
  const now = (opts.now ?? Date.now)();
  const deleted: string[] = [];
  for (const s of await listJobs(dir)) {
    if (s.error || !s.finishedAt || s.locked) continue;
    const last = Date.parse(s.updatedAt ?? s.finishedAt);
    if (Number.isFinite(last) && now - last > opts.maxAgeMs) {
      await fsp.rm(s.file, { force: true });
      await fsp.rm(`${s.file}${LOG_SUFFIX}`, { force: true });
      await fsp.rm(responsesDirOf(s.file), { recursive: true, force: true });
      await fsp.rm(`${s.file}.lock`, { force: true });
      deleted.push(s.file);
    }
  }
  let names: string[] = [];
  try {
    names = await fsp.readdir(dir);
  } catch {
    /* nothing to clean */
  }
  for (const n of names) {
    if (!n.startsWith(FILE_PREFIX) || !n.endsWith('.tmp')) continue;
    const f = path.join(dir, n);
    const st = await fsp.stat(f).catch(() => undefined);
    if (st && now - st.mtimeMs > 60_000) await fsp.rm(f, { force: true }).catch(() => undefined);
  }
  return deleted;
}
