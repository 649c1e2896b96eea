// Benchmark: the sandbox's update engine on a data set of about 100,000 work items.
// One update of 1000 items with propagation to children (every requested item is a
// folder with 9 sub-folders of 10 tasks each: 90,000 leaves receive the value), and
// the same update rejected by its last item (nothing changes). Each time is given as
// a ratio to JSON.stringify of the whole data set in the same run, so results from
// different machines compare.
//
// Run: npx tsx bench/sandbox-update.ts   (results: bench/results/sandbox-update.md)
import { performance } from 'node:perf_hooks';
import { Dataset, type DatasetInput } from '../src/sandbox/model';
import { applyUpdate } from '../src/sandbox/update';

const FOLDERS = 1000;
const SUBFOLDERS = 9;
const TASKS = 10;

function build(): Dataset {
  const items: NonNullable<DatasetInput['workItems']> = [];
  for (let f = 0; f < FOLDERS; f++) {
    const fid = `F${f}`;
    items.push({ id: fid, projectId: 'p1', parentId: null, order: f, itemTypeId: 'folder', name: fid });
    for (let s = 0; s < SUBFOLDERS; s++) {
      const sid = `${fid}.${s}`;
      items.push({ id: sid, projectId: 'p1', parentId: fid, order: s, itemTypeId: 'folder', name: sid });
      for (let t = 0; t < TASKS; t++) {
        const tid = `${sid}.${t}`;
        items.push({ id: tid, projectId: 'p1', parentId: sid, order: t, itemTypeId: 'task', name: tid, startDate: '2026-03-01', endDate: '2026-03-05' });
      }
    }
  }
  return Dataset.parse({
    version: 1,
    organizations: [{ id: 'o1', name: 'Org', parentId: null }],
    users: [{ id: 'u1', name: 'Admin', loginName: 'admin', organizationId: 'o1' }],
    itemTypes: [
      { id: 'folder', name: 'Folder', isFolder: true },
      { id: 'task', name: 'Task', isFolder: false },
    ],
    statusTypes: [{ id: 'st1', name: 'Open' }],
    projects: [{ id: 'p1', name: 'P', allowedDateRange: { min: '2020-01-01', max: '2030-12-31' }, members: [{ userId: 'u1', permission: 'edit' }] }],
    workItems: items,
  });
}

function time(fn: () => void, runs = 5): number {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]!;
}

const ids = Array.from({ length: FOLDERS }, (_, f) => `F${f}`);
const ctx = { callerId: 'u1', edition: 'professional' as const, now: new Date('2026-11-21T10:00:00Z') };
let n = 0;
const data = build();
const stringifyMs = time(() => void JSON.stringify(data));
const acceptedMs = time(() => {
  const outcome = applyUpdate(data, ids, { fields: { Description: `d${n++}`, StatusTypeId: 'st1' }, propagateToChildren: { fields: 'Description,StatusTypeId' } }, ctx);
  if (!outcome.ok || outcome.response.affectedItems.length !== FOLDERS * SUBFOLDERS * TASKS) throw new Error('unexpected outcome');
});
const rejectedMs = time(() => {
  const outcome = applyUpdate(data, [...ids.slice(1), 'F0.0.0'], { fields: { Description: 'x' }, moveScheduleDays: 10_000, propagateToChildren: { fields: 'Description' } }, ctx);
  if (outcome.ok) throw new Error('expected a rejection');
});

const lines = [
  `work items: ${data.workItems.length}; requested items: ${FOLDERS}; leaves receiving propagated values: ${FOLDERS * SUBFOLDERS * TASKS}`,
  `JSON.stringify(data set): ${stringifyMs.toFixed(1)} ms (the unit)`,
  `update accepted, 1000 items + propagation: ${acceptedMs.toFixed(1)} ms = ${(acceptedMs / stringifyMs).toFixed(2)} x stringify`,
  `update rejected by its last item: ${rejectedMs.toFixed(1)} ms = ${(rejectedMs / stringifyMs).toFixed(2)} x stringify`,
];
console.log(lines.join('\n'));
