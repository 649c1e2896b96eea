// Benchmark: the before/after preview of 20,000 work items against the plain reads
// of the same fields, in one run, interleaved.
//
//   plain:   the same GET batches (planWorkItemReads) sent with undici.request on
//            one keep-alive agent and JSON.parse of each answer, nothing else
//            (the floor: request + parse, no checking).
//   reader:  readWorkItems(ids, fields=fieldsToRead(body)) over HTTP against the
//            same in-process sandbox (the project's own reader, for reference).
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
import { Agent, request } from 'undici';
import { authorize } from '../src/api/auth';
import { ServiceClient } from '../src/api/client';
import { planWorkItemReads, readWorkItems } from '../src/api/reads';
import { readQuery } from '../src/api/paths';
import { fieldsToRead } from '../src/bulk/effects';
import { readValues } from '../src/bulk/readValues';
import type { Clock } from '../src/bulk/types';
import { fastChecker } from '../src/schema/fast-check';
import { WorkItemsResponse } from '../src/schema/reads';
import { ENGLISH_CHANGE_TABLE, previewTable, renderChangeTable } from '../src/webview/changeTable';
import { createSandbox, generateDataset } from '../src/sandbox';
import type { UpdateWorkItemsBody } from '../src/schema/api';

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
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
  const batches = planWorkItemReads(client.baseUrl, ids, fields);
  const auth = authorize({ kind: 'basic', loginName: 'admin', password: 'password' }, 'GET', '/workitem/workItems');
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  const base = client.baseUrl.replace(/\/+$/, '');
  const query = readQuery(fields);
  const plain = async (): Promise<number> => {
    let n = 0;
    for (const b of batches) {
      const r = await request(`${base}/workitem/workItems/${b.join(',')}?${query}`, { dispatcher: agent, headers: { authorization: auth.header!, accept: 'application/json' } });
      const text = await r.body.text();
      if (r.statusCode !== 200) throw new Error(`plain read: HTTP ${r.statusCode}`);
      n += (JSON.parse(text) as unknown[]).length;
    }
    return n;
  };
  const reader = async (): Promise<number> => {
    const r = await readWorkItems(client, ids, { fields, clock: virtualClock() });
    return r.items.size;
  };
  const preview = async (): Promise<number> => {
    const clock = virtualClock();
    const values = await readValues((i, f, o) => readWorkItems(client, i, { fields: f, clock, signal: o.signal, onProgress: o.onProgress }), ids, BODY);
    const t0 = performance.now();
    const html = renderChangeTable(previewTable(ids, BODY, values.items, ENGLISH_CHANGE_TABLE), ENGLISH_CHANGE_TABLE);
    tableMs.push(performance.now() - t0);
    return html.length > 0 ? values.items.size : 0;
  };
  const tableMs: number[] = [];
  const runs = { plain, reader, preview } as const;
  type Which = keyof typeof runs;
  const orders: Which[][] = [
    ['plain', 'reader', 'preview'],
    ['preview', 'plain', 'reader'],
    ['reader', 'preview', 'plain'],
  ];
  // Warm-up (JIT, connections), then interleaved repetitions, rotating which goes first.
  await plain();
  await reader();
  await preview();
  const t: Record<Which, number[]> = { plain: [], reader: [], preview: [] };
  const ratios: number[] = [];
  const readerRatios: number[] = [];
  let read = 0;
  let plainCount = 0;
  for (let i = 0; i < RUNS; i++) {
    const times = {} as Record<Which, number>;
    for (const which of orders[i % orders.length]!) {
      const t0 = performance.now();
      const n = await runs[which]();
      times[which] = performance.now() - t0;
      if (which === 'preview') read = n;
      if (which === 'plain') plainCount = n;
    }
    for (const w of Object.keys(times) as Which[]) t[w].push(times[w]);
    ratios.push(times.preview / times.plain);
    readerRatios.push(times.reader / times.plain);
  }
  // The check of one answer alone (the first batch's text as the sandbox sent it), interleaved:
  // JSON.parse; JSON.parse + the compiled checker; JSON.parse + zod (what work-item answers went through before).
  const first = await request(`${base}/workitem/workItems/${batches[0]!.join(',')}?${query}`, { dispatcher: agent, headers: { authorization: auth.header! } });
  const answerText = await first.body.text();
  const check = fastChecker(WorkItemsResponse);
  if (!check) throw new Error('work-item answers have no compiled checker');
  const checks = {
    parse: () => JSON.parse(answerText) as unknown,
    compiled: () => {
      const v = JSON.parse(answerText) as unknown;
      if (!check(v)) throw new Error('refused');
      return v;
    },
    zod: () => WorkItemsResponse.parse(JSON.parse(answerText)),
  };
  const checkMs: Record<keyof typeof checks, number[]> = { parse: [], compiled: [], zod: [] };
  for (let i = 0; i < 10; i++) for (const fn of Object.values(checks)) fn();
  for (let i = 0; i < 60; i++) {
    for (const k of (i % 2 === 0 ? ['parse', 'compiled', 'zod'] : ['zod', 'compiled', 'parse']) as (keyof typeof checks)[]) {
      const t0 = performance.now();
      checks[k]();
      checkMs[k].push(performance.now() - t0);
    }
  }
  await agent.close();
  await client.close();
  await sandbox.close();
  const p = stats(t.plain);
  const q = stats(t.reader);
  const v = stats(t.preview);
  const r = stats(ratios);
  const rr = stats(readerRatios);
  const tb = stats(tableMs.slice(1));
  const f = (n: number) => n.toFixed(0);
  const md = `# Before/after preview vs plain reads + parse

\`npx tsx bench/preview.ts\` (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} CPUs shared with other work (load average ${os.loadavg()[0]!.toFixed(1)} at the end), Node ${process.version}, ${RUNS} interleaved runs after a warm-up, the order rotating).

${read} work items (${plainCount} answered to the plain reads) of a generated data set in an in-process sandbox over HTTP, in ${batches.length} GETs; body
\`${JSON.stringify(BODY)}\`; fields read: \`${fields.join(',')}\`. Pacing off
(virtual clock). *Plain*: the same GET batches with \`undici.request\` and \`JSON.parse\`,
nothing checked (the floor). *Reader*: \`readWorkItems\` (the client: the answer checked by
the compiled checker of work-item answers, src/schema/fast-check.ts). *Preview*: the same
reads through \`readValues\`, the expected value of every item and field and the table's
data (\`previewTable\`, one pass) and its HTML section (\`renderChangeTable\`).

| | min ms | median ms | max ms |
|---|---:|---:|---:|
| plain reads + parse | ${f(p.min)} | ${f(p.median)} | ${f(p.max)} |
| reader (readWorkItems) | ${f(q.min)} | ${f(q.median)} | ${f(q.max)} |
| preview | ${f(v.min)} | ${f(v.median)} | ${f(v.max)} |
| of which the table (previewTable + renderChangeTable) | ${f(tb.min)} | ${f(tb.median)} | ${f(tb.max)} |
| ratio reader / plain (per run) | ${rr.min.toFixed(2)} | ${rr.median.toFixed(2)} | ${rr.max.toFixed(2)} |
| ratio preview / plain (per run) | ${r.min.toFixed(2)} | ${r.median.toFixed(2)} | ${r.max.toFixed(2)} |

One answer of ${batches[0]!.length} records (${(answerText.length / 1024).toFixed(0)} KiB), 60 interleaved repetitions, ms min / median / max:
JSON.parse ${stats(checkMs.parse).min.toFixed(2)} / ${stats(checkMs.parse).median.toFixed(2)} / ${stats(checkMs.parse).max.toFixed(2)};
JSON.parse + compiled checker ${stats(checkMs.compiled).min.toFixed(2)} / ${stats(checkMs.compiled).median.toFixed(2)} / ${stats(checkMs.compiled).max.toFixed(2)};
JSON.parse + zod (before) ${stats(checkMs.zod).min.toFixed(2)} / ${stats(checkMs.zod).median.toFixed(2)} / ${stats(checkMs.zod).max.toFixed(2)}.

Target (issue 25): preview / plain median ≤ 1.2: ${r.median <= 1.2 ? 'met' : 'not met'}. The reads through the
client (the compiled checker of work-item answers instead of zod) are ${rr.median.toFixed(2)}× the plain reads + parse;
the rest of the preview is the table: computed in the extension and rendered as HTML (${f(tb.median)} ms median), which
is the second half of issue 25 item 3 (the table as data the webview paints).
`;
  const out = path.join(__dirname, 'results', 'preview.md');
  // The earlier runs stay below the new one (demoted a heading level).
  const earlier = fs.existsSync(out) ? fs.readFileSync(out, 'utf8').replace(/^# /m, '## Earlier run: ') : '';
  fs.writeFileSync(out, earlier ? `${md.trimEnd()}\n\n${earlier}` : md);
  process.stdout.write(md);
}

void main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
