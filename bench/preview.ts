// Benchmark: the before/after preview of 20,000 work items against the plain reads
// of the same fields, in one run, interleaved.
//
// The sandbox runs in a child process (bench/child-sandbox.ts), as the service is remote in
// real use: the service's work (building and sending 20 answers) then takes no time of the
// process that reads, and what the preview does while a read is on its way can overlap it.
// (Until 2026-11-26 12:09 the sandbox ran in the bench's own process: there, no work of the
// preview could overlap the service's; those figures are kept below as history.)
//
//   plain:   the same GET batches (planWorkItemReads) sent with undici.request on
//            one keep-alive agent and JSON.parse of each answer, nothing else
//            (the floor: request + parse, no checking).
//   reader:  readWorkItems(ids, fields=fieldsToRead(body)) over HTTP against the
//            same child sandbox (the project's own reader, for reference).
//   preview: what Preview does for the same document in the extension host: the same
//            reads (readValues), and as each answer comes back (while the next read is on
//            its way) the expected values of its items and their rows (PreviewTableBuilder)
//            and the rows posted as UTF-8 JSON bytes (the first batch with the page and the
//            table's settings); after the last read, the rows left, the counts and lines
//            (the summary message), the user IDs it shows (for names). Each message is
//            serialized as VS Code's webview.postMessage does in the extension host
//            (JSON.stringify with a replacer that takes typed arrays out as buffers).
//            Timed to the first rows posted and to the whole table posted.
//   plain, answers kept: plain, with every parsed answer kept until the end of the run
//            (as a preview must keep what it read); for reference, not the goal's floor.
//   reads only: the preview's reads (readValues, the answers checked and kept) with no
//            table at all: the room the table has under the goal.
//   rows in a worker: a design measured, not taken: plain GETs and JSON.parse on this
//            thread (the values kept), each answer's bytes handed to a worker thread
//            (bench/preview-worker.ts) that parses them again, makes the rows and posts their
//            bytes back; timed to the last rows back. (No answer check: a floor for it.)
//
//   preview, fetch / plain fetch: the preview with its ServiceClient on VS Code's fetch (FetchDispatcher
//            over the global fetch, the default in VS Code; Node's fetch here), and the plain reads with
//            the global fetch + JSON.parse, in the same rounds (bench/network-paths.ts); the other sides
//            run on the own undici dispatcher.
//
// Pacing is off in both (a virtual clock: the pacer's waits take no time), so the
// ratio is the preview's own cost over the reads, not the service's rate limit.
// Bodies: one with several members (fields, a shift, completion, assignments).
//
// Run: npx tsx bench/preview.ts   (BENCH_RUNS=n, default 7; BENCH_ITEMS=n, default 20000)
// Writes bench/results/preview.md.
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { Agent, request } from 'undici';
import { serveUntilStdinEnds, startChildSandbox } from './child-sandbox';
import { writeKeepingEarlierRuns } from './history';
import { renderChangesPage } from '../src/changes/model/page';
import { PreviewBatches } from '../src/changes/previewBatches';
import { authorize } from '../src/api/auth';
import { ServiceClient } from '../src/api/client';
import { planWorkItemReads, readWorkItems } from '../src/api/reads';
import { readQuery } from '../src/api/paths';
import { fieldsToRead } from '../src/bulk/effects';
import { readValues } from '../src/bulk/readValues';
import type { Clock } from '../src/bulk/types';
import { fastChecker } from '../src/schema/fast-check';
import { WorkItemsResponse } from '../src/schema/reads';
import { changeTableSection, ENGLISH_CHANGE_TABLE, PreviewTableBuilder, userIdsInTable } from '../src/webview/changeTable';
import { PostedTable } from '../src/webview/changeTableData';
import { createSandbox, generateDataset } from '../src/sandbox';
import type { FromWorker, ToWorker } from './preview-worker';
import type { UpdateWorkItemsBody } from '../src/schema/api';
import { FETCH_PATH, OWN_PATH, fetchDispatcher } from './network-paths';

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

/**
 * A webview message as VS Code's extension host serializes it for webview.postMessage
 * (serializeWebviewMessage with serializeBuffersForPostMessage: JSON.stringify with a
 * replacer that takes ArrayBuffers and typed arrays out as buffers sent as they are).
 */
function postedMessage(message: unknown): { json: string; buffers: ArrayBufferLike[] } {
  const buffers: ArrayBufferLike[] = [];
  const json = JSON.stringify(message, (_key, value: unknown) => {
    if (value instanceof ArrayBuffer) return { $$vscode_array_buffer_reference$$: true, index: buffers.push(value) - 1 };
    if (ArrayBuffer.isView(value)) {
      return { $$vscode_array_buffer_reference$$: true, index: buffers.push(value.buffer) - 1, view: { type: 1, byteLength: value.byteLength, byteOffset: value.byteOffset } };
    }
    return value;
  });
  return { json, buffers };
}

function stats(xs: number[]): { min: number; median: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0]!, median: s[Math.floor(s.length / 2)]!, max: s[s.length - 1]! };
}

const dataset = () => generateDataset({ workItems: ITEMS, users: 20, organizations: 3, processCategories: 0, seed: 11 });

/** The child's side: the sandbox of the generated data set, until stdin ends. */
async function serve(): Promise<void> {
  serveUntilStdinEnds(await createSandbox({ port: 0, data: dataset() }));
}

async function main(): Promise<void> {
  // The same data set as the child's (the same seed): the IDs to read.
  const loadBefore = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
  const ids = (dataset().workItems ?? []).filter((w) => !w.isDeleted && w.parentId !== null).map((w) => w.id).slice(0, ITEMS);
  const sandbox = await startChildSandbox(__filename, []);
  const client = new ServiceClient({ baseUrl: sandbox.url, credentials: () => ({ kind: 'basic', loginName: 'admin', password: 'password' }) });
  const fetcher = fetchDispatcher();
  const fetchClient = new ServiceClient({ baseUrl: sandbox.url, dispatcher: fetcher, credentials: () => ({ kind: 'basic', loginName: 'admin', password: 'password' }) });
  const fields = fieldsToRead(BODY);
  const batches = planWorkItemReads(client.baseUrl, ids, fields);
  const auth = authorize({ kind: 'basic', loginName: 'admin', password: 'password' }, 'GET', '/workitem/workItems');
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  const base = client.baseUrl.replace(/\/+$/, '');
  const query = readQuery(fields);
  const plainReads = async (keep: boolean, viaFetch = false): Promise<number> => {
    let n = 0;
    const kept: unknown[][] = [];
    for (const b of batches) {
      const url = `${base}/workitem/workItems/${b.join(',')}?${query}`;
      const headers = { authorization: auth.header!, accept: 'application/json' };
      let status: number;
      let text: string;
      if (viaFetch) {
        const r = await fetch(url, { headers });
        status = r.status;
        text = await r.text();
      } else {
        const r = await request(url, { dispatcher: agent, headers });
        status = r.statusCode;
        text = await r.body.text();
      }
      if (status !== 200) throw new Error(`plain read: HTTP ${status}`);
      const answer = JSON.parse(text) as unknown[];
      n += answer.length;
      if (keep) kept.push(answer);
    }
    return kept.length >= 0 ? n : 0;
  };
  const plain = (): Promise<number> => plainReads(false);
  const plainFetch = (): Promise<number> => plainReads(false, true);
  const readsOnly = async (): Promise<number> => {
    const values = await readValues((i, f, o) => readWorkItems(client, i, { fields: f, clock: virtualClock(), signal: o.signal, onProgress: o.onProgress, onBatch: o.onBatch }), ids, BODY);
    return values.items.size;
  };
  const worker = new Worker(path.join(__dirname, 'preview-worker.ts'), { workerData: { ids, body: BODY }, execArgv: ['--require', 'tsx/cjs'] });
  const toWorker = (m: ToWorker, transfer: ArrayBuffer[] = []): void => worker.postMessage(m, transfer);
  let workerBytes = 0;
  const inWorker = async (): Promise<number> => {
    toWorker({ reset: true });
    let bytes = 0;
    const done = new Promise<void>((resolve) => {
      const on = (m: FromWorker): void => {
        bytes += m.rows.byteLength;
        if (!m.done) return;
        worker.off('message', on);
        resolve();
      };
      worker.on('message', on);
    });
    const kept: unknown[][] = [];
    let n = 0;
    for (const b of batches) {
      const r = await request(`${base}/workitem/workItems/${b.join(',')}?${query}`, { dispatcher: agent, headers: { authorization: auth.header!, accept: 'application/json' } });
      const body = await r.body.arrayBuffer();
      if (r.statusCode !== 200) throw new Error(`worker read: HTTP ${r.statusCode}`);
      const answer = JSON.parse(Buffer.from(body).toString('utf8')) as unknown[];
      n += answer.length;
      kept.push(answer);
      toWorker({ batch: [...b], bytes: body }, [body]);
    }
    toWorker({ finish: true });
    await done;
    workerBytes = bytes;
    return kept.length > 0 ? n : 0;
  };
  const plainKept = (): Promise<number> => plainReads(true);
  const reader = async (): Promise<number> => {
    const r = await readWorkItems(client, ids, { fields, clock: virtualClock() });
    return r.items.size;
  };
  const S = ENGLISH_CHANGE_TABLE;
  const previewOn = async (on: ServiceClient): Promise<number> => {
    const own = on === client;
    const clock = virtualClock();
    const builder = new PreviewTableBuilder(ids, BODY, S);
    let posted: PostedTable | undefined;
    let bytes = 0;
    let html = 0;
    let batchMs = 0;
    const post = (m: ReturnType<PostedTable['head']>): void => {
      const out = postedMessage(m);
      bytes += out.json.length + out.buffers.reduce((n, b) => n + b.byteLength, 0);
    };
    // As src/changes/previewView.ts: each batch's rows once the next read has left, the first with the page.
    const batches = new PreviewBatches(builder, (from) => {
      const b0 = performance.now();
      if (!posted) {
        html += renderChangesPage({ title: 'T', lines: ['a', 'b', 'c'], status: 'reading', section: changeTableSection(builder.table, S, 'posted', true), buttons: [], nonce: 'n', cspSource: 'c', page: 'bench' }).length;
        posted = new PostedTable('bench', builder.table, S, {}, ids.length);
        const more = posted.more(from);
        post(posted.head());
        post(more);
        firstRowsAt = performance.now();
      } else post(posted.more(from));
      batchMs += performance.now() - b0;
    });
    const values = await readValues((i, f, o) => readWorkItems(on, i, { fields: f, clock, signal: o.signal, onProgress: o.onProgress, onBatch: o.onBatch }), ids, BODY, {
      onItems: (batch, items) => {
        const b0 = performance.now();
        batches.onItems(batch, items);
        batchMs += performance.now() - b0;
      },
    });
    batches.flush();
    const t0 = performance.now();
    const made = builder.made;
    const table = builder.finish(values.items, []);
    const people = userIdsInTable(table);
    html += changeTableSection(table, S, 'posted').length;
    if (!posted) {
      posted = new PostedTable('bench', table, S, {}, ids.length);
      post(posted.head());
      firstRowsAt = performance.now();
    }
    if (table.rows.length > made) post(posted.more(made));
    post(posted.summary({ counts: table.counts, lines: table.lines, status: 'read' }));
    const t1 = performance.now();
    if (own) {
      duringMs.push(batchMs);
      tailMs.push(t1 - t0);
    }
    rowBytes = bytes;
    return bytes > 0 && html > 0 && people.size >= 0 ? values.items.size : 0;
  };
  const duringMs: number[] = [];
  const tailMs: number[] = [];
  let firstRowsAt = 0;
  let rowBytes = 0;
  const preview = (): Promise<number> => previewOn(client);
  const previewFetch = (): Promise<number> => previewOn(fetchClient);
  const runs = { plain, plainFetch, plainKept, reader, readsOnly, preview, previewFetch, inWorker } as const;
  type Which = keyof typeof runs;
  const names = Object.keys(runs) as Which[];
  // The order turns by one each run and runs backwards every other run.
  const orders: Which[][] = names.map((_, i) => {
    const order = names.map((_n, k) => names[(i + k) % names.length]!);
    return i % 2 ? order.reverse() : order;
  });
  // Warm-up (JIT, connections), then interleaved repetitions, rotating which goes first.
  for (const w of names) await runs[w]();
  const t = Object.fromEntries(names.map((w) => [w, [] as number[]])) as Record<Which, number[]>;
  /** This process's CPU time (user + system, ms) per run of each side: its own work, whatever the load does to the wall clock. */
  const cpu = Object.fromEntries(names.map((w) => [w, [] as number[]])) as Record<Which, number[]>;
  const firstRows: number[] = [];
  const firstRowsFetch: number[] = [];
  const ratios: number[] = [];
  const firstRatios: number[] = [];
  const keptRatios: number[] = [];
  const readerRatios: number[] = [];
  const readsOnlyRatios: number[] = [];
  const workerRatios: number[] = [];
  let read = 0;
  let plainCount = 0;
  for (let i = 0; i < RUNS; i++) {
    const times = {} as Record<Which, number>;
    let first = 0;
    let firstFetch = 0;
    for (const which of orders[i % orders.length]!) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const n = await runs[which]();
      times[which] = performance.now() - t0;
      const c1 = process.cpuUsage(c0);
      cpu[which].push((c1.user + c1.system) / 1000);
      if (which === 'preview') {
        read = n;
        first = firstRowsAt - t0;
      }
      if (which === 'previewFetch') firstFetch = firstRowsAt - t0;
      if (which === 'plain') plainCount = n;
    }
    for (const w of Object.keys(times) as Which[]) t[w].push(times[w]);
    firstRows.push(first);
    firstRowsFetch.push(firstFetch);
    ratios.push(times.preview / times.plain);
    firstRatios.push(first / times.plain);
    keptRatios.push(times.plainKept / times.plain);
    readerRatios.push(times.reader / times.plain);
    readsOnlyRatios.push(times.readsOnly / times.plain);
    workerRatios.push(times.inWorker / times.plain);
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
  await worker.terminate();
  await agent.close();
  await client.close();
  await fetchClient.close();
  await fetcher.close();
  sandbox.close();
  const perRun = (a: number[], b: number[]) => stats(a.map((x, i) => x / b[i]!));
  const ratioRow = (name: string, a: number[], b: number[]) => {
    const x = perRun(a, b);
    return `| ${name} | ${x.min.toFixed(2)} | ${x.median.toFixed(2)} | ${x.max.toFixed(2)} |`;
  };
  const timeRow = (name: string, xs: number[]) => {
    const x = stats(xs);
    return `| ${name} | ${x.min.toFixed(0)} | ${x.median.toFixed(0)} | ${x.max.toFixed(0)} |`;
  };
  const rf = perRun(t.previewFetch, t.plain);
  const rf1 = perRun(firstRowsFetch, t.plain);
  const p = stats(t.plain);
  const pk = stats(t.plainKept);
  const q = stats(t.reader);
  const v = stats(t.preview);
  const fr = stats(firstRows);
  const r = stats(ratios);
  const r1 = stats(firstRatios);
  const rk = stats(keptRatios);
  const rr = stats(readerRatios);
  const ro = stats(readsOnlyRatios);
  const rwk = stats(workerRatios);
  const o = stats(t.readsOnly);
  const wk = stats(t.inWorker);
  const cw = stats(cpu.inWorker);
  const tb = stats(duringMs.slice(1));
  const rw = stats(tailMs.slice(1));
  const f = (n: number) => n.toFixed(0);
  const list = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(', ');
  const ms = (xs: number[]) => `${stats(xs).min.toFixed(2)} / ${stats(xs).median.toFixed(2)} / ${stats(xs).max.toFixed(2)}`;
  const cp = stats(cpu.plain);
  const cv = stats(cpu.preview);
  const md = `# Before/after preview vs plain reads + parse (sandbox in a child process, table built batch by batch)

\`npx tsx bench/preview.ts\` (${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${os.cpus().length} CPUs shared with other work, load average ${loadBefore} at the start, ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')} (1 / 5 / 15 min) at the end, Node ${process.version}, ${RUNS} interleaved runs after a warm-up, the order rotating).

${read} work items (${plainCount} answered to the plain reads) of a generated data set in a sandbox in a child process (as the service is remote in
real use: its work takes no time of the reading process, so the preview's work on one answer can overlap the
next read; the runs before 12:10 had it in the bench's own process, where nothing could overlap: kept below as
history), over HTTP on the loopback, in ${batches.length} GETs; body
\`${JSON.stringify(BODY)}\`; fields read: \`${fields.join(',')}\`. Pacing off
(virtual clock). The sub-item reads a real preview of \`setCompleted\` adds (paced, one per parent) are left out on
both sides (service time only). *Plain*: the same GET batches with \`undici.request\` and \`JSON.parse\`,
nothing checked, nothing kept (the floor of the goal). *Plain, answers kept*: the same, every parsed answer
kept until the end of the run (a preview must keep what it read; for reference). *Reader*: \`readWorkItems\`
(the client: every answer checked by the compiled checker of work-item answers, src/schema/fast-check.ts).
*Reads only*: the preview's reads (\`readValues\`: every answer checked and kept) and no table: the room the
table has under the goal. *Rows in a worker thread* (a design measured, not taken): the plain GETs and \`JSON.parse\`
on the main thread (the values kept, not checked), each answer's bytes transferred to a worker thread
(bench/preview-worker.ts) that parses them again, makes the rows and posts their bytes back.
*Preview*: what the extension host does (src/changes/previewView.ts): the same reads through \`readValues\`, and
as each answer comes back (while the next read is on its way) its items' expected values and rows
(\`PreviewTableBuilder\`) posted to the page as UTF-8 JSON bytes (the first batch with the page's HTML and the table's
settings); after the last read, the counts and lines (summary message) and the user IDs (for names);
${(rowBytes / 1024 / 1024).toFixed(1)} MiB of messages in all, each serialized as VS Code's \`webview.postMessage\`
does in the extension host; the page paints the rows itself and appends each batch (src/webview/web/grid.ts).
The preview runs on two network paths in the same rounds: the **${OWN_PATH}** (the rows without a path below; outside
VS Code, and in VS Code with workItemStudio.network.proxy or caFile set) and **${FETCH_PATH}**
(its ServiceClient given \`new FetchDispatcher(globalThis.fetch)\`, what Preview uses in VS Code by default), beside
*plain fetch*: the same GET batches with the global fetch + \`JSON.parse\`. Every ratio is to *plain* (undici) unless it says otherwise.

| | min ms | median ms | max ms |
|---|---:|---:|---:|
| plain reads + parse | ${f(p.min)} | ${f(p.median)} | ${f(p.max)} |
| plain, answers kept | ${f(pk.min)} | ${f(pk.median)} | ${f(pk.max)} |
| reader (readWorkItems) | ${f(q.min)} | ${f(q.median)} | ${f(q.max)} |
| reads only (readValues, no table) | ${f(o.min)} | ${f(o.median)} | ${f(o.max)} |
| rows in a worker thread (design not taken), to the last rows back | ${f(wk.min)} | ${f(wk.median)} | ${f(wk.max)} |
| preview, to the first rows posted | ${f(fr.min)} | ${f(fr.median)} | ${f(fr.max)} |
| preview, to the whole table posted | ${f(v.min)} | ${f(v.median)} | ${f(v.max)} |
| of which rows and messages while reading (all batches) | ${f(tb.min)} | ${f(tb.median)} | ${f(tb.max)} |
| of which after the last read (last rows, counts, lines, user IDs, summary) | ${f(rw.min)} | ${f(rw.median)} | ${f(rw.max)} |
| CPU of this process, plain (per run) | ${f(cp.min)} | ${f(cp.median)} | ${f(cp.max)} |
| CPU of this process, preview (per run) | ${f(cv.min)} | ${f(cv.median)} | ${f(cv.max)} |
| CPU of this process, rows in a worker (both threads, per run) | ${f(cw.min)} | ${f(cw.median)} | ${f(cw.max)} |
| ratio plain kept / plain (per run) | ${rk.min.toFixed(2)} | ${rk.median.toFixed(2)} | ${rk.max.toFixed(2)} |
| ratio reader / plain (per run) | ${rr.min.toFixed(2)} | ${rr.median.toFixed(2)} | ${rr.max.toFixed(2)} |
| ratio reads only / plain (per run): the preview with no table | ${ro.min.toFixed(2)} | ${ro.median.toFixed(2)} | ${ro.max.toFixed(2)} |
| ratio rows in a worker / plain (per run) | ${rwk.min.toFixed(2)} | ${rwk.median.toFixed(2)} | ${rwk.max.toFixed(2)} |
| ratio preview to the first rows / plain (per run) | ${r1.min.toFixed(2)} | ${r1.median.toFixed(2)} | ${r1.max.toFixed(2)} |
| **ratio preview, whole table / plain (per run)** | ${r.min.toFixed(2)} | **${r.median.toFixed(2)}** | ${r.max.toFixed(2)} |
${timeRow('plain fetch: the same reads with fetch + parse', t.plainFetch)}
${timeRow("preview, VS Code's fetch, to the first rows posted", firstRowsFetch)}
${timeRow("preview, VS Code's fetch, to the whole table posted", t.previewFetch)}
${ratioRow('ratio plain fetch / plain (per run)', t.plainFetch, t.plain)}
${ratioRow("ratio preview, VS Code's fetch, to the first rows / plain (per run)", firstRowsFetch, t.plain)}
| **ratio preview, VS Code's fetch, whole table / plain (per run)** | ${rf.min.toFixed(2)} | **${rf.median.toFixed(2)}** | ${rf.max.toFixed(2)} |
${ratioRow("ratio preview, VS Code's fetch, whole table / plain fetch (per run)", t.previewFetch, t.plainFetch)}
${ratioRow(`ratio preview, VS Code's fetch / preview, ${OWN_PATH} (per run)`, t.previewFetch, t.preview)}

Per-run ratios, in run order: preview / plain ${list(ratios)}; to the first rows ${list(firstRatios)}; reader / plain ${list(readerRatios)}; reads only / plain ${list(readsOnlyRatios)}; rows in a worker / plain ${list(workerRatios)}.
The worker's rows: ${(workerBytes / 1024 / 1024).toFixed(1)} MiB (the preview's row messages: ${(rowBytes / 1024 / 1024).toFixed(1)} MiB with the page and the summary).

One answer of ${batches[0]!.length} records (${(answerText.length / 1024).toFixed(0)} KiB), 60 interleaved repetitions, ms min / median / max:
JSON.parse ${ms(checkMs.parse)}; JSON.parse + compiled checker ${ms(checkMs.compiled)}; JSON.parse + zod (before) ${ms(checkMs.zod)}.

Target: preview / plain median ≤ 1.2: ${OWN_PATH}: to the whole table posted ${r.median <= 1.2 ? 'met' : 'not met'} (${r.median.toFixed(2)}); to the first rows posted ${r1.median <= 1.2 ? 'met' : 'not met'} (${r1.median.toFixed(2)}). VS Code's fetch: to the whole table posted ${rf.median <= 1.2 ? 'met' : 'not met'} (${rf.median.toFixed(2)}); to the first rows posted ${rf1.median <= 1.2 ? 'met' : 'not met'} (${rf1.median.toFixed(2)}).
`;
  if (process.env.BENCH_WRITE === '0') {
    process.stdout.write(md);
    return;
  }
  // The earlier runs stay below the new one (demoted a heading level).
  writeKeepingEarlierRuns(path.join(__dirname, 'results', 'preview.md'), md);
  process.stdout.write(md);
}

void (process.argv.includes('--serve') ? serve() : main()).catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
