// Benchmark: the sandbox's update engine on a data set of about 100,000 work items.
// One update of 1000 items with propagation to children (every requested item is a
// folder with 9 sub-folders of 10 tasks each: 90,000 leaves receive the value), and
// the same update rejected by its last item (nothing changes). Each time is given as
// a ratio to JSON.stringify of the whole data set in the same run, so results from
// different machines compare.
//
// Run: npx tsx bench/sandbox-update.ts   (results: bench/results/sandbox-update.md)
import { Dataset } from '../src/sandbox/model';
import { applyUpdate } from '../src/sandbox/update';
import { folderIds, folderTreeDataset, timeSync as time } from './sandbox-fixtures';

const FOLDERS = 1000;
const SUBFOLDERS = 9;
const TASKS = 10;

const ids = folderIds(FOLDERS);
const ctx = { callerId: 'u1', edition: 'professional' as const, now: new Date('2026-11-21T10:00:00Z') };
let n = 0;
const data = Dataset.parse(folderTreeDataset({ folders: FOLDERS, subfolders: SUBFOLDERS, tasks: TASKS }));
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
