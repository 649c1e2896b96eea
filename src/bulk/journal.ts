// The job journal: one JSON file per bulk job, in a directory the caller gives
// (the extension passes its globalStorageUri path). No vscode import.
//
// Every state change is written atomically (temp file, fsync, rename, fsync of
// the directory), and writes are serialized, so the file on disk is always one
// complete, consistent version. A request is recorded as `sent` BEFORE it is
// handed to the client: after a crash, a `sent` request reads back as `unknown`
// (the service may have applied it) and is never replayed silently.
//
// Responses (which can be large: up to 1000 changed items each, plus affected
// items) are not rewritten with every state change: each is written once,
// atomically, to `job-<id>.responses/<index>.json` before the main file records
// the request as succeeded. The main file stays small, so each state change is
// one small atomic write.
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { z } from 'zod';
import { REQUEST_STATES, type JobOutcome, type JobPlan, type RequestResult, type RequestState } from './types';

export const JOURNAL_FORMAT = 'workitem-studio.bulk-job';
export const JOURNAL_VERSION = 1;
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
}

export interface JournalData {
  format: typeof JOURNAL_FORMAT;
  version: typeof JOURNAL_VERSION;
  jobId: string;
  createdAt: string;
  updatedAt: string;
  /** Set when nothing is left to send (or the user dismissed the job). */
  finishedAt?: string;
  source: JobSource;
  plan: JobPlan;
  /** One per plan request, same order. */
  requests: RequestResult[];
  runs: JournalRun[];
  /**
   * What is left of the job's budget of automatic retries: set when a run starts,
   * lowered (in the same write) with each retry, so a resumption continues from it.
   * Absent in journals written before it was kept.
   */
  retryBudgetLeft?: number;
}

export type JournalErrorCode = 'corrupt' | 'unreadable' | 'unsupported' | 'write-failed' | 'locked' | 'invalid-argument';

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
  ids: z.array(z.string()),
  path: z.string(),
  state: z.enum(REQUEST_STATES as [RequestState, ...RequestState[]]),
  attempts: z.number().int().nonnegative().default(0),
  error: RequestErrorShape.optional(),
});
const PlanShape = z.looseObject({
  ids: z.array(z.string()),
  duplicates: z.array(z.string()).default([]),
  requests: z.array(z.looseObject({ index: z.number().int(), ids: z.array(z.string()), path: z.string() })),
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
});

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
  error?: JournalError;
}

/** A job journal. Create with {@link JobJournal.create}, read back with {@link JobJournal.load}. */
export class JobJournal {
  private writing: Promise<void> = Promise.resolve();
  private queued: Promise<void> | undefined;
  private tmpCounter = 0;
  private lockFile: string | undefined;
  /** Requests whose response is not yet in its side file. */
  private unsavedResponses = new Set<number>();

  private constructor(
    /** Absolute path of the journal file. */
    readonly file: string,
    private state: JournalData,
  ) {}

  /**
   * Creates the journal of a new job in `dir` (created when missing) and writes it.
   * Every request starts `pending`.
   */
  static async create(dir: string, init: { source: JobSource; plan: JobPlan; jobId?: string; now?: () => Date }): Promise<JobJournal> {
    const now = (init.now ?? (() => new Date()))();
    const jobId = init.jobId ?? newJobId(now);
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,100}$/.test(jobId)) {
      throw new JournalError('invalid-argument', dir, `"${jobId}" is not a valid job id (letters, digits, ".", "_", "-")`);
    }
    const file = path.join(path.resolve(dir), `${FILE_PREFIX}${jobId}${FILE_SUFFIX}`);
    const at = now.toISOString();
    const data: JournalData = {
      format: JOURNAL_FORMAT,
      version: JOURNAL_VERSION,
      jobId,
      createdAt: at,
      updatedAt: at,
      source: { ...init.source },
      plan: structuredClone(init.plan),
      requests: init.plan.requests.map((r) => ({ index: r.index, ids: [...r.ids], path: r.path, state: 'pending', attempts: 0 })),
      runs: [],
    };
    try {
      await fsp.mkdir(path.dirname(file), { recursive: true });
    } catch (e) {
      throw new JournalError('write-failed', file, `cannot create the job directory ${path.dirname(file)}: ${errText(e)}`, { cause: e });
    }
    const journal = new JobJournal(file, data);
    try {
      await fsp.access(file);
      throw new JournalError('invalid-argument', file, `a job with id "${jobId}" already exists (${file})`);
    } catch (e) {
      if (e instanceof JournalError) throw e;
    }
    await journal.save();
    return journal;
  }

  /**
   * Reads a journal. A request recorded as `sent` (the process ended while it was
   * in flight) reads back as `unknown` with error kind `interrupted`.
   * Throws {@link JournalError} (`unreadable`, `corrupt`, `unsupported`) with the
   * file and what is wrong.
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
      if (version !== JOURNAL_VERSION) {
        throw new JournalError('unsupported', abs, `the job journal ${abs} has version ${String(version)}; this version of the extension reads version ${JOURNAL_VERSION}`);
      }
    }
    const parsed = JournalShape.safeParse(json);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      const where = first ? first.path.join('.') || '(root)' : '(root)';
      throw new JournalError('corrupt', abs, `the job journal ${abs} is damaged: ${where}: ${first?.message ?? 'invalid'}`);
    }
    const data = parsed.data as unknown as JournalData;
    if (data.requests.length !== data.plan.requests.length || data.requests.some((r, i) => r.index !== i)) {
      throw new JournalError('corrupt', abs, `the job journal ${abs} is damaged: its requests do not match its plan`);
    }
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
      for (const r of data.requests) {
        const stored = (r as { responseFile?: unknown }).responseFile;
        if (typeof stored !== 'string') continue;
        try {
          r.response = JSON.parse(await fsp.readFile(path.join(path.dirname(abs), stored), 'utf8')) as RequestResult['response'];
        } catch {
          // The state is what matters for safety; a lost response only means less detail.
          (r as { responseMissing?: boolean }).responseMissing = true;
        }
      }
    }
    return new JobJournal(abs, data);
  }

  /** Directory of the side files holding the responses. */
  get responsesDir(): string {
    return responsesDirOf(this.file);
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
    return this.state.requests.filter((r) => states.includes(r.state)).map((r) => r.index);
  }

  summary(): JobSummary {
    return summarize(this.file, this.state);
  }

  /** What is left of the job's retry budget (undefined for a job that has not run, or an older journal). */
  get retryBudgetLeft(): number | undefined {
    return this.state.retryBudgetLeft;
  }

  /**
   * Replaces the record of request `index` (merged), with what is left of the
   * retry budget when given, and writes the journal. Resolves once it is on disk.
   */
  updateRequest(index: number, patch: Partial<Omit<RequestResult, 'index' | 'ids' | 'path'>>, retryBudgetLeft?: number): Promise<void> {
    const r = this.state.requests[index];
    if (!r) return Promise.reject(new JournalError('invalid-argument', this.file, `the job has no request #${index}`));
    if (retryBudgetLeft !== undefined) this.state.retryBudgetLeft = retryBudgetLeft;
    Object.assign(r, patch);
    for (const k of Object.keys(patch) as (keyof typeof patch)[]) if (patch[k] === undefined) delete (r as unknown as Record<string, unknown>)[k];
    if ('response' in patch) this.unsavedResponses.add(index);
    return this.save();
  }

  /** Records the start of a run, with the retry budget it starts with when given. */
  beginRun(kind: RunKind, requests: number[], now: Date = new Date(), retryBudget?: number): Promise<void> {
    this.state.runs.push({ kind, startedAt: now.toISOString(), requests: [...requests] });
    if (retryBudget !== undefined) this.state.retryBudgetLeft = retryBudget;
    return this.save();
  }

  /** Records the end of the latest run; marks the job finished when nothing is left to send. */
  endRun(outcome: JournalRun['outcome'], now: Date = new Date()): Promise<void> {
    const run = this.state.runs[this.state.runs.length - 1];
    if (run) {
      run.finishedAt = now.toISOString();
      run.outcome = outcome;
    }
    if (!this.state.requests.some((r) => r.state === 'pending' || r.state === 'sent')) this.state.finishedAt ??= now.toISOString();
    return this.save();
  }

  /** Marks the job finished: it is no longer offered for resumption (Retry Failed still works). */
  markFinished(now: Date = new Date()): Promise<void> {
    this.state.finishedAt ??= now.toISOString();
    return this.save();
  }

  /** Deletes the journal file (and its lock). */
  async delete(): Promise<void> {
    await this.flush();
    await fsp.rm(this.file, { force: true });
    await fsp.rm(this.responsesDir, { recursive: true, force: true });
    await fsp.rm(`${this.file}.lock`, { force: true });
  }

  /** Resolves when every write asked for so far is on disk (rejects with the last write error). */
  flush(): Promise<void> {
    return this.queued ?? this.writing;
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
        await fsp.writeFile(lockFile, content, { flag: 'wx' });
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
    if (!this.lockFile) return;
    const f = this.lockFile;
    this.lockFile = undefined;
    await fsp.rm(f, { force: true });
  }

  /** Serialized, coalesced atomic write of the current state. */
  private save(): Promise<void> {
    if (this.queued) return this.queued;
    const next = this.writing.then(
      () => this.startWrite(),
      () => this.startWrite(),
    );
    this.queued = next;
    this.writing = next.catch(() => undefined);
    return next;
  }

  private async startWrite(): Promise<void> {
    this.queued = undefined; // later changes need a new write
    this.state.updatedAt = new Date().toISOString();
    // Responses first (each once), so the main file never points at a missing one.
    const indexes = [...this.unsavedResponses];
    this.unsavedResponses.clear();
    try {
      for (const i of indexes) {
        const r = this.state.requests[i]!;
        const name = `${i}.json`;
        if (r.response === undefined) {
          delete (r as { responseFile?: string }).responseFile;
          continue;
        }
        await fsp.mkdir(this.responsesDir, { recursive: true });
        await writeAtomic(path.join(this.responsesDir, name), JSON.stringify(r.response), `${process.pid}.${++this.tmpCounter}`);
        (r as { responseFile?: string }).responseFile = `${path.basename(this.responsesDir)}/${name}`;
      }
    } catch (e) {
      for (const i of indexes) this.unsavedResponses.add(i);
      throw e instanceof JournalError ? e : new JournalError('write-failed', this.file, `cannot write a response of job ${this.id}: ${errText(e)}`, { cause: e });
    }
    const onDisk = { ...this.state, requests: this.state.requests.map(({ response: _inSideFile, ...rest }) => rest) };
    const text = `${JSON.stringify(onDisk)}\n`;
    await writeAtomic(this.file, text, `${process.pid}.${++this.tmpCounter}`);
  }
}

/** Writes `text` to `file` atomically: temp file in the same directory, fsync, rename, fsync of the directory. */
async function writeAtomic(file: string, text: string, tag: string): Promise<void> {
  const tmp = `${file}.${tag}.tmp`;
  try {
    const handle = await fsp.open(tmp, 'w', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fsp.rename(tmp, file);
  } catch (e) {
    await fsp.rm(tmp, { force: true }).catch(() => undefined);
    throw new JournalError('write-failed', file, `cannot write the job journal ${file}: ${errText(e)}`, { cause: e });
  }
  // Make the rename itself durable. Not possible on every platform (Windows): best effort.
  try {
    const dir = await fsp.open(path.dirname(file), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  } catch {
    /* best effort */
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
      out.push({ ...j.summary(), locked: await lockIsLive(`${file}.lock`).catch(() => false) });
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
