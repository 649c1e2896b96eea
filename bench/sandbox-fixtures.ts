// Shared by the sandbox benchmarks (bench/sandbox.ts, bench/sandbox-update.ts): a
// data set of folders with sub-folders of tasks, and median timings.
import { performance } from 'node:perf_hooks';
import type { DatasetInput } from '../src/sandbox/model';

export interface FolderTreeShape {
  /** Top-level folders `F0`, `F1`, … (the IDs an update names). */
  folders: number;
  /** Sub-folders `F0.0`, … under each folder. */
  subfolders: number;
  /** Tasks `F0.0.0`, … under each sub-folder (the leaves propagation reaches). */
  tasks: number;
}

/** One project `p1` edited by user `u1` (login `admin`, password `password`), holding the folder tree. */
export function folderTreeDataset({ folders, subfolders, tasks }: FolderTreeShape): DatasetInput {
  const items: NonNullable<DatasetInput['workItems']> = [];
  for (let f = 0; f < folders; f++) {
    const fid = `F${f}`;
    items.push({ id: fid, projectId: 'p1', parentId: null, order: f, itemTypeId: 'folder', name: fid });
    for (let s = 0; s < subfolders; s++) {
      const sid = `${fid}.${s}`;
      items.push({ id: sid, projectId: 'p1', parentId: fid, order: s, itemTypeId: 'folder', name: sid });
      for (let t = 0; t < tasks; t++) {
        const tid = `${sid}.${t}`;
        items.push({ id: tid, projectId: 'p1', parentId: sid, order: t, itemTypeId: 'task', name: tid, plannedStartDate: '2026-03-01', plannedFinishDate: '2026-03-05' });
      }
    }
  }
  return {
    version: 2,
    organizations: [{ id: 'o1', name: 'Org', parentId: null }],
    users: [{ id: 'u1', name: 'Admin', loginName: 'admin', organizationId: 'o1' }],
    itemTypes: [
      { id: 'folder', name: 'Folder', isFolder: true },
      { id: 'task', name: 'Task', isFolder: false },
    ],
    statusTypes: [{ id: 'st1', name: 'Open' }],
    projects: [{ id: 'p1', name: 'P', allowedDateRange: { min: '2020-01-01', max: '2030-12-31' }, members: [{ userId: 'u1', permission: 'edit' }] }],
    workItems: items,
  };
}

/** The IDs of the top-level folders of a folder tree. */
export function folderIds(folders: number): string[] {
  return Array.from({ length: folders }, (_, f) => `F${f}`);
}

/** Runs per timing (the median is reported). */
export const RUNS = 5;

export function median(samples: readonly number[]): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Median milliseconds of `runs` calls. */
export function timeSync(fn: () => void, runs = RUNS): number {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
  }
  return median(samples);
}

/** Median milliseconds of `runs` calls, one after the other. */
export async function timeAsync(fn: (run: number) => Promise<void>, runs = RUNS): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn(i);
    samples.push(performance.now() - t0);
  }
  return median(samples);
}
