// The "before" snapshot of a bulk job: the values of the touched fields read
// before sending, kept in a file beside the job's journal (`<journal file>.before`)
// and written durably (temp file, fsync, rename, fsync of the directory) before the
// first request leaves, so the values survive a crash or a reload and the job can
// still be undone. The values read after sending go to `<journal file>.after`.
// No vscode import.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { writeFileDurably } from './durable';
import type { ItemValues } from './effects';

export const SNAPSHOT_FORMAT = 'workitem-studio.job-values';
export const SNAPSHOT_VERSION = 1;

export type SnapshotKind = 'before' | 'after';

export interface ValuesSnapshot {
  format: typeof SNAPSHOT_FORMAT;
  version: typeof SNAPSHOT_VERSION;
  kind: SnapshotKind;
  jobId: string;
  takenAt: string;
  /** The `fields=` list that was read. */
  fields: string[];
  /** Values per work item ID (PascalCase, as read). */
  items: Record<string, Record<string, unknown>>;
  /** IDs asked for that did not come back. */
  missing: string[];
  /** Children of each previous parent in their order (before only; for undoing moves). */
  siblings?: Record<string, string[]>;
}

const SnapshotShape = z.looseObject({
  format: z.literal(SNAPSHOT_FORMAT),
  version: z.literal(SNAPSHOT_VERSION),
  kind: z.enum(['before', 'after']),
  jobId: z.string(),
  takenAt: z.string(),
  fields: z.array(z.string()),
  items: z.record(z.string(), z.record(z.string(), z.unknown())),
  missing: z.array(z.string()).default([]),
  siblings: z.record(z.string(), z.array(z.string())).optional(),
});

/** Where a job's snapshot lives: beside its journal file. */
export function snapshotFile(journalFile: string, kind: SnapshotKind): string {
  return `${journalFile}.${kind}`;
}

export class SnapshotError extends Error {
  constructor(
    readonly file: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SnapshotError';
  }
}

let counter = 0;

/** Writes the snapshot durably; resolves once it is on disk (fsync of the file and, where possible, the directory). */
export async function writeSnapshot(
  journalFile: string,
  s: { kind: SnapshotKind; jobId: string; fields: readonly string[]; items: ReadonlyMap<string, ItemValues>; missing?: readonly string[]; siblings?: ReadonlyMap<string, readonly string[]>; now?: Date },
): Promise<string> {
  const file = snapshotFile(journalFile, s.kind);
  const data: ValuesSnapshot = {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    kind: s.kind,
    jobId: s.jobId,
    takenAt: (s.now ?? new Date()).toISOString(),
    fields: [...s.fields],
    items: Object.fromEntries([...s.items].map(([id, v]) => [id, { ...v }])),
    missing: [...(s.missing ?? [])],
  };
  if (s.siblings) data.siblings = Object.fromEntries([...s.siblings].map(([p, list]) => [p, [...list]]));
  try {
    await fsp.mkdir(path.dirname(file), { recursive: true });
    await writeFileDurably(file, `${JSON.stringify(data)}\n`, `${process.pid}.${++counter}`);
  } catch (e) {
    throw new SnapshotError(file, `cannot write the values of job ${s.jobId} to ${file}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  return file;
}

/** Reads a job's snapshot; undefined when there is none. Throws SnapshotError when it is damaged. */
export async function readSnapshot(journalFile: string, kind: SnapshotKind): Promise<ValuesSnapshot | undefined> {
  const file = snapshotFile(journalFile, kind);
  let text: string;
  try {
    text = await fsp.readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SnapshotError(file, `cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new SnapshotError(file, `${file} is not valid JSON (${e instanceof Error ? e.message : String(e)})`, { cause: e });
  }
  const parsed = SnapshotShape.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new SnapshotError(file, `${file} is damaged: ${first ? first.path.join('.') || '(root)' : '(root)'}: ${first?.message ?? 'invalid'}`);
  }
  return parsed.data as ValuesSnapshot;
}

/** The snapshot's items as a map. */
export function snapshotItems(s: ValuesSnapshot | undefined): Map<string, ItemValues> {
  return new Map(Object.entries(s?.items ?? {}));
}

export function snapshotSiblings(s: ValuesSnapshot | undefined): Map<string, string[]> | undefined {
  return s?.siblings ? new Map(Object.entries(s.siblings)) : undefined;
}

/** Deletes snapshots whose journal file no longer exists (after the journals were pruned). Returns the files deleted. */
export async function pruneSnapshots(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return [];
  }
  const present = new Set(names);
  const deleted: string[] = [];
  for (const n of names) {
    const m = /^(.*)\.(before|after)$/.exec(n);
    if (!m || present.has(m[1]!)) continue;
    await fsp.rm(path.join(dir, n), { force: true }).catch(() => undefined);
    deleted.push(path.join(dir, n));
  }
  return deleted;
}
