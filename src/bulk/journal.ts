// The job journal: one JSON file per bulk job, in a directory the caller gives
// (the extension passes its globalStorageUri path), with its change log, its
// responses and its lock beside it. No vscode import.
//
// JobJournal (here) keeps a job's state in memory and on disk: it appends each change
// to the change log before it resolves (group commit: a `sent` mark fsynced before
// its request leaves), and compacts the log into a snapshot when a run ends. The
// parts, in ./journal/:
// - format.ts: the files of a job, versions, zod shapes, reading a journal file, the snapshot's text;
// - log.ts: the change log's lines, replaying it over a snapshot, reading a whole journal;
// - lock.ts: the lock that keeps two windows from running one job;
// - catalogue.ts: summaries, listing and pruning the jobs of a directory.
import * as fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { JobPlan, RequestResult, RequestState } from './types';
import { syncDirectory, writePiecesSync, type Piece } from './durable';
import { isServiceBaseUrl, serviceBaseUrl, type JobService, type ServiceGoneReason } from './service';
import { summarize, valuesBeforeFileOf, valuesBeforeStateOf, type JobSummary, type ValuesBeforeState } from './journal/catalogue';
import {
  errText,
  FILE_PREFIX,
  FILE_SUFFIX,
  fixedPieces,
  JOURNAL_VERSION,
  JournalError,
  LOG_SUFFIX,
  newJobId,
  newJournalData,
  responsesDirOf,
  snapshotPieces,
  type JobSource,
  type JournalData,
  type JournalRun,
  type RunKind,
} from './journal/format';
import { lockFileOf, takeLock } from './journal/lock';
import { bootKey, isoNow, linePieces, readJournal, writeAtomic, type LogEntry } from './journal/log';

// The journal's public names, as before the split (callers import them from here or from ./index).
export { JOURNAL_FORMAT, JOURNAL_VERSION, JournalError, type JobSource, type JournalData, type JournalErrorCode, type JournalRun, type RunKind } from './journal/format';
export { listJobs, listUnfinishedJobs, pruneJobs, type JobSummary, type ValuesBeforeState } from './journal/catalogue';

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
    const data = newJournalData(jobId, now, init);
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
    const { file: abs, data, inLog } = await readJournal(file, options);
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
    return valuesBeforeFileOf(this.file);
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
  valuesBeforeState(): Promise<ValuesBeforeState> {
    return valuesBeforeStateOf(this.file, this.state);
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
    await fsp.rm(lockFileOf(this.file), { force: true });
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
    this.lockFile = await takeLock(this.file, this.id);
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
    return linePieces(entry);
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
    this.fixedJson ??= fixedPieces(this.state);
    await writeAtomic(this.file, snapshotPieces(this.state, this.fixedJson), `${process.pid}.${++this.tmpCounter}`);
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
