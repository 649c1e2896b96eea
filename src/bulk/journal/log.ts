// The job journal's change log: one JSON line per change since the last snapshot,
// each numbered (see ./format.ts for the files of a job). Its lines (serialized
// with an answer's kept JSON text), the replay of a log over a snapshot after a
// restart (a torn line ignored, requests reserved ahead read back as sent after a
// reboot), reading a whole journal (snapshot, log, responses), and the durable
// writes of a compaction, which folds the log into the snapshot. The appending
// itself (group commit, fsyncs) is JobJournal's (../journal.ts). No vscode import.
import * as fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { rawJsonOf } from '../../api/rawJson';
import { writeFileDurably, type Piece } from '../durable';
import { REQUEST_STATES, type RequestResult, type RequestState } from '../types';
import { errText, JournalError, LOG_SUFFIX, parseJournal, type JournalData, type JournalRun } from './format';

/** The time as an ISO string; the string is made once per millisecond (a job writes several lines a millisecond). */
let lastMs = 0;
let lastIso = '';
export function isoNow(): string {
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

/** One line of the change log. */
export interface LogEntry {
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
export function bootKey(): string {
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

/**
 * The pieces of one change-log line (`entry` already numbered). An answer whose JSON
 * text the client kept is written as that text, not serialized again.
 */
export function linePieces(entry: LogEntry): Piece[] {
  const response = entry.p?.response;
  const raw = response === undefined ? undefined : rawJsonOf(response);
  if (raw === undefined || !entry.p) return [`${JSON.stringify(entry)}\n`];
  entry.p.response = RAW_MARK;
  const line = JSON.stringify(entry);
  entry.p.response = response;
  const cut = line.indexOf(RAW_MARK_JSON);
  return [line.slice(0, cut), raw, `${line.slice(cut + RAW_MARK_JSON.length)}\n`];
}

/** A journal as read from disk: its data (snapshot, change log replayed, responses), and what the log held. */
export interface ReadJournal {
  /** Absolute path of the journal file. */
  file: string;
  data: JournalData;
  /** The last line number of the log, the requests whose response is only in the log, whether its last line is torn. */
  inLog: { lastSeq: number; responses: Set<number>; torn?: boolean };
}

/**
 * Reads a journal (its snapshot, then its change log). A request recorded as
 * `sent` (the process ended while it was in flight) reads back as `unknown` with
 * error kind `interrupted`. Responses are read from their side files unless
 * `responses` is false. Throws {@link JournalError} (`unreadable`, `corrupt`,
 * `unsupported`) with the file and what is wrong.
 */
export async function readJournal(file: string, options: { responses?: boolean } = {}): Promise<ReadJournal> {
  const abs = path.resolve(file);
  let text: string;
  try {
    text = await fsp.readFile(abs, 'utf8');
  } catch (e) {
    throw new JournalError('unreadable', abs, `cannot read the job journal ${abs}: ${errText(e)}`, { cause: e });
  }
  const data = parseJournal(abs, text);
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
  return { file: abs, data, inLog };
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

/** Writes `content` to `file` atomically and durably (see writeFileDurably); a failure is a JournalError. */
export async function writeAtomic(file: string, content: string | readonly Piece[], tag: string): Promise<void> {
  try {
    await writeFileDurably(file, content, tag);
  } catch (e) {
    throw new JournalError('write-failed', file, `cannot write the job journal ${file}: ${errText(e)}`, { cause: e });
  }
}
