// Benchmark: the first rows of a 100,000-item project in the work item table, beside a
// plain read and parse of the same items (goal ≤ 1.5×). In one run, interleaved.
//
// "plain":      one undici GET of the project's whole subtree (`subItems` of the root
//               folder, no depth) + JSON.parse: the floor for having every item in memory.
//               Through one undici Agent for the whole run, with the client's own settings
//               (connections, keep-alive), as ServiceClient keeps its pool: connections
//               are reused, not opened per read (the connections each side opened are counted).
// "plain first": the same GET with `depth=1` (the level below the root folder) + JSON.parse:
//               the floor for the first rows, the table's first read.
// "table first": what TablePanel runs until its first `rows` message is ready: the level
//               below the root folder read through ServiceClient (answer checked), flattened
//               to rows (parent paths), the view computed and the first chunk of rows
//               formatted (src/table/model: loadSubtree, computeView, shownRow).
// "table all":  the same until the first chunk of the whole project (its second phase:
//               the whole subtree read through ServiceClient, flattened, the view, the
//               first chunk), and "table every chunk": every chunk of 100,000 rows formatted.
// "table … fetch": the same on VS Code's fetch (the ServiceClient given FetchDispatcher over the
//               global fetch, the default in VS Code; Node's fetch here), beside "plain fetch":
//               the global fetch + JSON.parse of the same reads (bench/network-paths.ts).
// The sandbox runs in a process of its own (bench/child-sandbox.ts). The sides alternate
// which goes first each round, with a full GC before each (neither pays the other's garbage).
//
// Run: npx tsx bench/table-load.ts   (BENCH_RUNS=n, default 7; BENCH_ITEMS=n, default 100000;
//      BENCH_FIRST_RUNS=n, default 31: rounds of the first rows alone beside the plain read of the first level)
// Adds a section to the newest run in bench/results/table.md (above its earlier runs; BENCH_WRITE=0: print only).
import * as diagnostics from 'node:diagnostics_channel';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { Agent, request } from 'undici';
import { DEFAULT_KEEP_ALIVE_MS, DEFAULT_MAX_CONNECTIONS, ServiceClient } from '../src/api/client';
import { createSandbox, generateLargeProject, LARGE_PROJECT } from '../src/sandbox/index';
import {
  DEFAULT_COLUMN_KEYS,
  ROW_CHUNK,
  chunkRanges,
  computeView,
  folderTest,
  folderTypeIds,
  loadSubtree,
  pickColumns,
  shownRow,
  tableColumns,
  type LoadedRow,
} from '../src/table/model';
import { serveUntilStdinEnds, startChildSandbox } from './child-sandbox';
import { appendToNewestRun } from './history';
import { FETCH_PATH, OWN_PATH, fetchDispatcher } from './network-paths';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const ITEMS = Number(process.env.BENCH_ITEMS ?? 100_000);
const FIRST_RUNS = Number(process.env.BENCH_FIRST_RUNS ?? 31);

async function serve(): Promise<void> {
  const sandbox = await createSandbox({ port: 0, data: generateLargeProject({ items: ITEMS }) });
  serveUntilStdinEnds(sandbox);
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)]!;
const num = (n: number) => n.toFixed(n < 100 ? 1 : 0);
const stats = (xs: number[]) => {
  const s = sorted(xs);
  return `${num(s[0]!)} / ${num(median(xs))} / ${num(s[s.length - 1]!)}`;
};
let keep: unknown;

// A full collection between the sides (the flag set at run time: `npx tsx` passes no Node flags).
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/** Connections undici opened (every dispatcher of this process, Node's fetch too: its undici publishes on the same channel). */
let connects = 0;
diagnostics.subscribe('undici:client:connected', () => connects++);

async function main(): Promise<void> {
  const loadBefore = os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ');
  const sandbox = await startChildSandbox(__filename, [], ['--max-old-space-size=4096']);
  const bare = new ServiceClient({ baseUrl: sandbox.url });
  const token = await bare.signIn('admin', 'password');
  await bare.close();
  const client = new ServiceClient({ baseUrl: sandbox.url, credentials: () => ({ kind: 'bearer', token }) });
  const fetcher = fetchDispatcher();
  const fetchClient = new ServiceClient({ baseUrl: sandbox.url, dispatcher: fetcher, credentials: () => ({ kind: 'bearer', token }) });
  const root = LARGE_PROJECT.rootFolderId;
  const profile = await client.getProjectProfile(LARGE_PROJECT.id);
  const columns = pickColumns(tableColumns([], profile), DEFAULT_COLUMN_KEYS);
  const isFolder = folderTest(folderTypeIds(profile));

  // The plain side's pool: one Agent for every read, with the client's own settings.
  const agent = new Agent({ connections: DEFAULT_MAX_CONNECTIONS, keepAliveTimeout: DEFAULT_KEEP_ALIVE_MS, keepAliveMaxTimeout: DEFAULT_KEEP_ALIVE_MS * 4 });
  let retried = 0;
  const get = async (query: string, viaFetch = false) => {
    const t0 = performance.now();
    const url = `${sandbox.url}/workitem/workItems/${root}/subItems${query}`;
    const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
    const once = async () => (viaFetch ? (await fetch(url, { headers })).text() : (await request(url, { dispatcher: agent, headers })).body.text());
    let text: string;
    try {
      text = await once();
    } catch (e) {
      // A pooled socket the server closed as the request went out: a GET is sent again once (as the client does).
      const code = (e as { code?: string; cause?: { code?: string } }).code ?? (e as { cause?: { code?: string } }).cause?.code;
      if (code !== 'UND_ERR_SOCKET' && code !== 'ECONNRESET') throw e;
      retried++;
      text = await once();
    }
    const json = JSON.parse(text) as unknown[];
    const ms = performance.now() - t0;
    keep = json;
    return ms;
  };
  // The whole subtree; the level below the root folder only (what the table's first rows need).
  const plain = () => get('');
  const plainFirst = () => get('?depth=1');
  const plainFetch = () => get('', true);
  const plainFirstFetch = () => get('?depth=1', true);

  const table = async (client: ServiceClient) => {
    const t0 = performance.now();
    let first = 0;
    let all = 0;
    let every = 0;
    let n = 0;
    const firstChunk = (rows: LoadedRow[]) => {
      const view = computeView(rows, { lowestOnly: false, isFolder });
      const out = [];
      for (let i = 0; i < Math.min(ROW_CHUNK, view.length); i++) out.push(shownRow(view[i]!, columns, {}));
      keep = out;
      return view;
    };
    let last: LoadedRow[] = [];
    await loadSubtree(client, root, 0, {
      onRows: (rows) => {
        last = firstChunk(rows);
        if (first === 0) first = performance.now() - t0;
        else all = performance.now() - t0;
      },
    });
    const t1 = performance.now();
    for (const [s, e] of chunkRanges(last.length)) {
      const out = [];
      for (let i = s; i < e; i++) out.push(shownRow(last[i]!, columns, {}));
      keep = out;
    }
    every = all + (performance.now() - t1);
    n = last.length;
    return { first, all, every, n };
  };

  // The first rows alone (the read of the whole subtree cancelled once they are there), for more rounds than the whole load.
  const tableFirst = async (client: ServiceClient) => {
    const t0 = performance.now();
    const stop = new AbortController();
    let first = 0;
    await loadSubtree(client, root, 0, {
      signal: stop.signal,
      onRows: (rows) => {
        const view = computeView(rows, { lowestOnly: false, isFolder });
        const out = [];
        for (let i = 0; i < Math.min(ROW_CHUNK, view.length); i++) out.push(shownRow(view[i]!, columns, {}));
        keep = out;
        first = performance.now() - t0;
        stop.abort();
      },
    });
    return first;
  };

  // Warm-up of every side.
  await plain();
  await plainFirst();
  await plainFetch();
  await plainFirstFetch();
  await tableFirst(client);
  await tableFirst(fetchClient);
  await table(client);
  await table(fetchClient);
  const p: number[] = [];
  const pf: number[] = [];
  const pfe: number[] = [];
  const tf: number[] = [];
  const ta: number[] = [];
  const te: number[] = [];
  const tfe: number[] = [];
  const tae: number[] = [];
  const tee: number[] = [];
  const opened = { plain: 0, table: 0, 'plain fetch': 0, 'table, fetch': 0 };
  let rows = 0;
  const counted = async <T>(side: keyof typeof opened, run: () => Promise<T>): Promise<T> => {
    keep = undefined;
    gc();
    const before = connects;
    const out = await run();
    opened[side] += connects - before;
    return out;
  };
  const sides: (() => Promise<void>)[] = [
    async () => void p.push(await counted('plain', plain)),
    async () => void pf.push(await counted('plain', plainFirst)),
    async () => void pfe.push(await counted('plain fetch', plainFetch)),
    async () => {
      const b = await counted('table', () => table(client));
      tf.push(b.first);
      ta.push(b.all);
      te.push(b.every);
      rows = b.n;
    },
    async () => {
      const b = await counted('table, fetch', () => table(fetchClient));
      tfe.push(b.first);
      tae.push(b.all);
      tee.push(b.every);
    },
  ];
  // Each round runs every side once, the order turned by one each round and reversed every other round.
  for (let i = 0; i < RUNS; i++) {
    const order = sides.map((_, k) => sides[(i + k) % sides.length]!);
    if (i % 2) order.reverse();
    for (const side of order) await side();
  }
  // The first rows against the plain read of the same level: FIRST_RUNS more rounds (each a few ms), both paths.
  const pf2: number[] = [];
  const tf2: number[] = [];
  const pfe2: number[] = [];
  const tfe2: number[] = [];
  const firsts: (() => Promise<void>)[] = [
    async () => void pf2.push(await plainFirst()),
    async () => void tf2.push(await tableFirst(client)),
    async () => void pfe2.push(await plainFirstFetch()),
    async () => void tfe2.push(await tableFirst(fetchClient)),
  ];
  for (let i = 0; i < FIRST_RUNS; i++) {
    const order = firsts.map((_, k) => firsts[(i + k) % firsts.length]!);
    if (i % 2) order.reverse();
    for (const f of order) await f();
  }
  const per = (a: number[], b: number[]) => a.map((x, i) => x / b[i]!);
  await agent.close();
  await client.close();
  await fetchClient.close();
  await fetcher.close();
  sandbox.close();
  void keep;

  const loadAfter = os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ');
  const spread = (xs: number[]) => `${median(xs).toFixed(2)}× (${sorted(xs)[0]!.toFixed(2)}–${sorted(xs)[xs.length - 1]!.toFixed(2)})`;
  const text = `
## First rows of a ${ITEMS.toLocaleString('en')}-item project in the table (goal ≤ 1.5× a plain read and parse)

Command: \`npx tsx bench/table-load.ts\` (\`BENCH_RUNS\`=${RUNS}, \`BENCH_ITEMS\`=${ITEMS}). ${new Date().toISOString()}; ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}; load average before ${loadBefore}, after ${loadAfter} (shared machine).
Sandbox (generated large project, ${rows.toLocaleString('en')} rows below the root folder, 16 levels) in a process of its own; times in ms, min / median / max, after one warm-up of each side, the sides interleaved (the order turned by one each round and reversed every other round, a full GC before each); ratio = median of per-run ratios (min–max in brackets). Both sides read through a pool kept for the whole run (the plain side one undici Agent with the client's settings, the table its ServiceClient): connections opened in the ${RUNS} timed rounds, ${Object.entries(opened)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')} (the pools close a socket idle for ${DEFAULT_KEEP_ALIVE_MS / 1000} s, Node's fetch after 4 s, the server after 5 s; a GET on a socket the server had just closed is sent again once on both sides, as the client does: the plain side did so ${retried === 1 ? 'once' : `${retried} times`}).
Two network paths for the table's ServiceClient, in the same run: the **${OWN_PATH}** (its own undici Agent: outside VS Code, and in VS Code with workItemStudio.network.proxy or caFile set) and **${FETCH_PATH}** ("fetch" below: the ServiceClient given \`new FetchDispatcher(globalThis.fetch)\`, what the table uses in VS Code by default); plain fetch: the global fetch + JSON.parse of the same GET.

| what | ms | ratio to plain |
|---|---|---:|
| plain: one GET of the whole subtree + JSON.parse | ${stats(p)} | 1.00× |
| plain: one GET of the level below the root folder (\`depth=1\`, what the first rows need) + JSON.parse | ${stats(pf)} | |
| plain fetch: the global fetch of the whole subtree + JSON.parse | ${stats(pfe)} | ${spread(per(pfe, p))} |
| table, first rows (first level read, checked, flattened, view, first chunk of ${ROW_CHUNK} formatted), ${OWN_PATH} | ${stats(tf)} | to the plain read of the first level: ${spread(per(tf, pf))}; to the plain read of the whole subtree: ${spread(per(tf, p))} |
| table, first rows, fetch | ${stats(tfe)} | to the plain read of the first level: ${spread(per(tfe, pf))}; to the plain read of the whole subtree: ${spread(per(tfe, p))} |
| ${FIRST_RUNS} more rounds of the first rows alone (the table's read of the whole subtree cancelled once they are there) beside the plain read of the first level, interleaved, ${OWN_PATH} | table ${stats(tf2)}, plain ${stats(pf2)} | ${spread(per(tf2, pf2))} |
| the same rounds, fetch (beside the plain read and the plain fetch of the first level) | table ${stats(tfe2)}, plain fetch ${stats(pfe2)} | to plain: ${spread(per(tfe2, pf2))}; to plain fetch: ${spread(per(tfe2, pfe2))} |
| table, first chunk of all ${rows.toLocaleString('en')} rows (both phases: first level, then the whole subtree read, checked, flattened, view, first chunk), ${OWN_PATH} | ${stats(ta)} | ${spread(per(ta, p))} |
| table, first chunk of all rows, fetch | ${stats(tae)} | ${spread(per(tae, p))}; to plain fetch: ${spread(per(tae, pfe))} |
| table, every chunk of all rows formatted for the webview, ${OWN_PATH} | ${stats(te)} | ${spread(per(te, p))} |
| table, every chunk of all rows, fetch | ${stats(tee)} | ${spread(per(tee, p))} |
`;
  // A section of the newest run of bench/table.ts (above its earlier runs).
  if (process.env.BENCH_WRITE !== '0') appendToNewestRun(path.join(__dirname, 'results', 'table.md'), text);
  process.stdout.write(text);
}

if (process.argv.includes('--serve')) void serve();
else
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
