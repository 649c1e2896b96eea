// Benchmark: the before/after preview of 20,000 work items against the plain reads
// of the same fields, in one run, interleaved.
//
//   plain:   readWorkItems(ids, fields=fieldsToRead(body)) over HTTP against an
//            in-process sandbox (the reads the preview needs, nothing else).
//   preview: what Preview does for the same document: the same reads (readValues),
//            the expected value of every item and field (computeEffects), the table
//            data and its HTML section (previewTable + renderChangeTable).
//
// Pacing is off in both (a virtual clock: the pacer's waits take no time), so the
// ratio is the preview's own cost over the reads, not the service's rate limit.
// Bodies: one with several members (fields, a shift, completion, assignments).
//
// Run: npx tsx bench/preview.ts   (BENCH_RUNS=n, default 7; BENCH_ITEMS=n, default 20000)
// Writes bench/results/preview.md.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ServiceClient } from '../src/api/client';
import { readWorkItems } from '../src/api/reads';
import { fieldsToRead } from '../src/bulk/effects';
import { readValues } from '../src/bulk/readValues';
import type { Clock } from '../src/bulk/types';
import { ENGLISH_CHANGE_TABLE, previewTable, renderChangeTable } from '../src/webview/changeTable';
import { createSandbox, generateDataset } from '../src/sandbox';
import type { UpdateWorkItemsBody } from '../src/schema/api';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const ITEMS = Number(process.env.BENCH_ITEMS ?? 20_000);
const BODY: UpdateWorkItemsBody = {
  fields: { Description: 'checked', StatusTypeId: null },
  moveScheduleDays: 7,
  setCompleted: true,
  assignmentChange: { removes: '10005' },
};

/** Pacing off: the pacer's waits advance a virtual time and return at once. */
function virtualClock(): Clock {
  let t = 0;
  return { now: () => t, sleep: async (ms) => void (t += Math.max(0, ms)) };
}

function stats(xs: number[]): { min: number; median: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0]!, median: s[Math.floor(s.length / 2)]!, max: s[s.length - 1]! };
}

async function main(): Promise<void> {
  const data = generateDataset({ workItems: ITEMS, users: 20, organizations: 3, processCategories: 0, seed: 11 });
  const ids = (data.workItems ?? []).filter((w) => !w.isDeleted && w.parentId !== null).map((w) => w.id).slice(0, ITEMS);
  const sandbox = await createSandbox({ data });
  const client = new ServiceClient({ baseUrl: sandbox.url, credentials: () => ({ kind: 'basic', loginName: 'admin', password: 'password' }) });
  const fields = fieldsToRead(BODY);
  const plain = async (): Promise<number> => {
    const r = await readWorkItems(client, ids, { fields, clock: virtualClock() });
    return r.items.size;
  };
  const preview = async (): Promise<number> => {
    const clock = virtualClock();
    const values = await readValues((i, f, o) => readWorkItems(client, i, { fields: f, clock, signal: o.signal, onProgress: o.onProgress }), ids, BODY);
    const html = renderChangeTable(previewTable(ids, BODY, values.items, ENGLISH_CHANGE_TABLE), ENGLISH_CHANGE_TABLE);
    return html.length > 0 ? values.items.size : 0;
  };
  // Warm-up (JIT, connections), then interleaved repetitions, alternating which goes first.
  await plain();
  await preview();
  const tPlain: number[] = [];
  const tPreview: number[] = [];
  const ratios: number[] = [];
  let read = 0;
  for (let i = 0; i < RUNS; i++) {
    const order = i % 2 === 0 ? (['plain', 'preview'] as const) : (['preview', 'plain'] as const);
    const times: Record<string, number> = {};
    for (const which of order) {
      const t0 = performance.now();
      read = which === 'plain' ? await plain() : await preview();
      times[which] = performance.now() - t0;
    }
    tPlain.push(times.plain!);
    tPreview.push(times.preview!);
    ratios.push(times.preview! / times.plain!);
  }
  await client.close();
  await sandbox.close();
  const p = stats(tPlain);
  const v = stats(tPreview);
  const r = stats(ratios);
  const f = (n: number) => n.toFixed(0);
  const md = `# Before/after preview vs plain reads

\`npx tsx bench/preview.ts\` (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} CPUs shared with other work (load average ${os.loadavg()[0]!.toFixed(1)} at the end), Node ${process.version}, ${RUNS} interleaved runs after a warm-up).

${read} work items of a generated data set in an in-process sandbox over HTTP; body
\`${JSON.stringify(BODY)}\`; fields read: \`${fields.join(',')}\`. Pacing off in both
(virtual clock). *Plain*: \`readWorkItems\` of those fields. *Preview*: the same reads
through \`readValues\`, the expected value of every item and field and the table's data
(\`previewTable\`, one pass) and its HTML section (\`renderChangeTable\`).

| | min ms | median ms | max ms |
|---|---:|---:|---:|
| plain reads | ${f(p.min)} | ${f(p.median)} | ${f(p.max)} |
| preview | ${f(v.min)} | ${f(v.median)} | ${f(v.max)} |
| ratio preview / plain (per run) | ${r.min.toFixed(2)} | ${r.median.toFixed(2)} | ${r.max.toFixed(2)} |

Target: median ratio ≤ 1.2. ${r.median <= 1.2 ? 'Met.' : 'Not met.'}
`;
  const out = path.join(__dirname, 'results', 'preview.md');
  fs.writeFileSync(out, md);
  process.stdout.write(md);
}

void main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
