// The catalogue of job journals in a directory: a summary of each job (for the
// Jobs view and for offering a resumption), listing, and pruning finished jobs.
// No vscode import.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { REQUEST_STATES, type RequestResult, type RequestState } from '../types';
import { errText, FILE_PREFIX, FILE_SUFFIX, JournalError, LOG_SUFFIX, responsesDirOf, type JournalData } from './format';
import { lockFileOf, lockIsLive } from './lock';
import { readJournal } from './log';

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

function countByState(requests: readonly RequestResult[]): Record<RequestState, number> {
  const counts = Object.fromEntries(REQUEST_STATES.map((s) => [s, 0])) as Record<RequestState, number>;
  for (const r of requests) counts[r.state]++;
  return counts;
}

/** The summary of the journal `file` holding `d`. */
export function summarize(file: string, d: JournalData): JobSummary {
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

/** Where the values before of the journal `file` are (or would be) kept for undo. */
export function valuesBeforeFileOf(file: string): string {
  return `${file}.before`;
}

/** See {@link JobJournal.valuesBeforeState}: for the journal `file` holding `d`. */
export async function valuesBeforeStateOf(file: string, d: Readonly<JournalData>): Promise<ValuesBeforeState> {
  const present = await fsp.stat(valuesBeforeFileOf(file)).then(
    (st) => st.isFile() && st.size > 0,
    () => false,
  );
  if (present) return 'present';
  return d.valuesBefore === 'expected' ? 'missing' : d.valuesBefore === 'off' ? 'off' : 'unrecorded';
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
      const j = await readJournal(file, { responses: false });
      out.push({ ...summarize(j.file, j.data), locked: await lockIsLive(lockFileOf(file)).catch(() => false), valuesBefore: await valuesBeforeStateOf(j.file, j.data) });
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
      await fsp.rm(lockFileOf(s.file), { force: true });
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
