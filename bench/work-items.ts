// Benchmark: "expand a level with 5,000 work items" in the Work Items view, to its
// first rows, beside a plain undici request + JSON.parse of the same answer, in the
// same run, interleaved.
//
// The expansion runs what WorkItemsTree runs for one level, minus the vscode objects
// (a handful of TreeItems for the first rows): `subItems` with depth = level + 1 and
// TREE_FIELDS through ServiceClient (response checked), the rows built and sorted
// (childRows), the level stored in the index (Hierarchy.setLevel), the top ranges
// (rangeChildren) and the labels of the first rows. Memory is the heap retained while
// the rows are shown (after a full GC): the heap with the result reachable minus the
// heap once it is released, i.e. what the view keeps.
//
// The client-side modes run on both network paths (bench/network-paths.ts): the extension's own
// undici dispatcher and VS Code's fetch (the default in VS Code; Node's fetch here), with a plain
// fetch + JSON.parse beside the plain undici request.
//
// Run: npx tsx --expose-gc bench/work-items.ts   (BENCH_ITEMS=n, BENCH_RUNS=n)
// Writes bench/results/work-items.md (earlier runs kept below).
import { serveUntilStdinEnds, startChildSandbox } from './child-sandbox';
import * as path from 'node:path';
import * as os from 'node:os';
import { Agent, request } from 'undici';
import { ServiceClient } from '../src/api/client';
import { createSandbox, generateDataset } from '../src/sandbox/index';
import { TREE_FIELDS } from '../src/schema/reads';
import { rangeChildren, rangeLabel } from '../src/views/model/ranges';
import { Hierarchy, levelQuery, loadLevel } from '../src/workItems/model/hierarchy';
import { writeKeepingEarlierRuns } from './history';
import { FETCH_PATH, OWN_PATH, fetchDispatcher } from './network-paths';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 5_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const gc = (globalThis as { gc?: () => void }).gc;

function heap(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)]!;

/** Keeps a result reachable while the heap is measured. */
let keep: unknown;

/** The sandbox runs in a child process, so its allocations stay out of the measured heap. */
async function serve(): Promise<void> {
  const data = generateDataset({ users: 50, organizations: 2, workItems: 2, processCategories: 0, seed: 1 });
  // ITEMS tasks directly below project p-1's root folder "1": one level of ITEMS items.
  for (let i = 0; i < ITEMS; i++) {
    const id = String(1_000_000 + i);
    const start = `2026-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;
    data.workItems!.push({
      id,
      projectId: '1',
      parentId: '1',
      order: i + 1,
      itemTypeId: '42',
      name: `作業 ${i + 1}`,
      code: `W${String(i + 1).padStart(7, '0')}`,
      plannedStartDate: start,
      plannedFinishDate: start,
      plannedTime: 60 * (1 + (i % 40)),
      managedPlannedTime: 60 * (1 + (i % 40)),
      plannedCost: 0,
      leaderId: '2001',
    } as NonNullable<typeof data.workItems>[number]);
  }
  const sandbox = await createSandbox({ port: 0, data });
  serveUntilStdinEnds(sandbox);
}


async function main(): Promise<void> {
  if (!gc) console.warn('run with --expose-gc for memory figures');
  const loadBefore = os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ');
  const sandbox = await startChildSandbox(__filename, []);
  const agent = new Agent({ connections: 1, keepAliveTimeout: 1000 });
  const bare = new ServiceClient({ baseUrl: sandbox.url });
  const token = await bare.signIn('admin', 'password');
  await bare.close();
  const auth = { authorization: `Bearer ${token}` };
  const q = levelQuery(0);
  const url = new URL(`${sandbox.url}/workitem/workItems/1/subItems`);
  url.searchParams.set('fields', q.fields.join(','));
  url.searchParams.set('depth', String(q.depth));

  const plainVia = async (viaFetch: boolean) => {
    const t0 = performance.now();
    const text = viaFetch ? await (await fetch(url, { headers: auth })).text() : await (await request(url, { headers: auth, dispatcher: agent })).body.text();
    const parsed = JSON.parse(text) as { fields: { SubItems: unknown[] } }[];
    const ms = performance.now() - t0;
    keep = parsed;
    return { ms, rows: 0, bytes: Buffer.byteLength(text), items: parsed[0]!.fields.SubItems.length };
  };

  const fetcher = fetchDispatcher();
  const ownClient = new ServiceClient({ baseUrl: sandbox.url, credentials: () => ({ kind: 'bearer', token }) });
  const fetchClient = new ServiceClient({ baseUrl: sandbox.url, dispatcher: fetcher, credentials: () => ({ kind: 'bearer', token }) });
  const expandOn = async (client: ServiceClient) => {
    const t0 = performance.now();
    const hierarchy = new Hierarchy();
    const rows = await loadLevel(client, { id: '1', level: 0 });
    hierarchy.setLevel('1', rows);
    const top = rangeChildren(0, rows.length);
    const labels = top.map((c) => (c.kind === 'range' ? `${rangeLabel(c)} ${rows[c.start]!.name} – ${rows[c.end - 1]!.name}` : rows[c.index]!.name));
    const ms = performance.now() - t0;
    keep = { hierarchy, labels };
    return { ms, rows: labels.length, bytes: 0, items: rows.length };
  };

  /** The client's part alone: the same GET through ServiceClient (checked), nothing built. */
  const clientOnlyOn = async (client: ServiceClient) => {
    const t0 = performance.now();
    const node = await client.getSubItems('1', q);
    const ms = performance.now() - t0;
    keep = node;
    return { ms, rows: 0, bytes: 0, items: (node.fields.SubItems ?? []).length };
  };

  const modes = {
    plain: () => plainVia(false),
    plainFetch: () => plainVia(true),
    expand: () => expandOn(ownClient),
    expandFetch: () => expandOn(fetchClient),
    clientOnly: () => clientOnlyOn(ownClient),
    clientOnlyFetch: () => clientOnlyOn(fetchClient),
  };
  type Mode = keyof typeof modes;
  const names = Object.keys(modes) as Mode[];
  const measure = async (mode: Mode) => {
    const r = await modes[mode]();
    const withResult = heap();
    keep = undefined;
    const retained = withResult - heap();
    return { ...r, retained };
  };

  // Warm up every mode once, then rounds of all of them.
  for (const m of names) await measure(m);
  const runs = Object.fromEntries(names.map((m) => [m, [] as Awaited<ReturnType<typeof measure>>[]])) as Record<Mode, Awaited<ReturnType<typeof measure>>[]>;
  for (let i = 0; i < RUNS; i++) {
    // The order turns by one each run and runs backwards every other run, so no mode always
    // runs first or right after the same other mode.
    const order = names.map((_, k) => names[(i + k) % names.length]!);
    if (i % 2) order.reverse();
    for (const m of order) runs[m].push(await measure(m));
  }
  await ownClient.close();
  await fetchClient.close();
  await fetcher.close();
  sandbox.close();
  await agent.close();
  const { plain: p, plainFetch: pfe, expand: e, expandFetch: efe, clientOnly: c, clientOnlyFetch: cfe } = runs;
  for (const m of names) if (runs[m][0]!.items !== ITEMS) throw new Error(`expected ${ITEMS} items, got ${runs[m][0]!.items} (${m})`);

  const stats = (xs: number[]) => {
    const s = sorted(xs);
    return { min: s[0]!, median: median(xs), max: s[s.length - 1]! };
  };
  const mb = (n: number) => (n / 1024 / 1024).toFixed(2);
  const f = (n: number) => n.toFixed(1);
  type Run = Awaited<ReturnType<typeof measure>>;
  const row = (what: string, xs: Run[], rows: string) => {
    const t = stats(xs.map((x) => x.ms));
    return `| ${what} | ${f(t.min)} | ${f(t.median)} | ${f(t.max)} | ${mb(median(xs.map((x) => x.retained)))} | ${rows} |`;
  };
  const med = (xs: Run[]) => median(xs.map((x) => x.ms));
  const perRun = (a: Run[], b: Run[]) => {
    const r = stats(a.map((x, i) => x.ms / b[i]!.ms));
    return `min ${r.min.toFixed(2)}, median ${r.median.toFixed(2)}, max ${r.max.toFixed(2)}`;
  };
  const ofMedians = (a: Run[], b: Run[]) => (med(a) / med(b)).toFixed(2);
  const goal = (a: Run[]) => (med(a) / med(p) <= 1.5 ? 'met' : 'NOT met');
  const all = (xs: Run[]) => xs.map((x) => x.ms.toFixed(0)).join(', ');
  const cpu = os.cpus();
  const md = `# work items benchmark: expanding a level with ${ITEMS.toLocaleString('en')} items

Machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'CPU'}, Node ${process.version}, ${new Date().toISOString()}; load average ${loadBefore} at the start, ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ')} at the end.
Sandbox (createSandbox in a child process; project p-1 with ${ITEMS.toLocaleString('en')} tasks directly below its root folder) on loopback.
Request: \`GET /workitem/workItems/1/subItems?fields=<TREE_FIELDS>&depth=1\` (the project node's expansion), response body ${mb(p[0]!.bytes)} MB.
${RUNS} runs each, interleaved (the order of the six turns by one every run and is reversed every other run), after one warm-up of each.

Two network paths for the ServiceClient, in the same run: the **${OWN_PATH}** (its own undici Agent: outside VS Code,
and in VS Code with workItemStudio.network.proxy or caFile set) and **${FETCH_PATH}**: the ServiceClient
given \`new FetchDispatcher(globalThis.fetch)\`, what the view uses in VS Code by default.

| what | min ms | median ms | max ms | heap kept by the result (MB, median) | rows shown |
|---|---:|---:|---:|---:|---:|
${row('plain: undici.request + JSON.parse', p, '—')}
${row('plain fetch: the global fetch + JSON.parse', pfe, '—')}
${row(`expand, ${OWN_PATH}: ServiceClient.getSubItems (checked) + rows + sort + index + ranges + first-row labels`, e, String(e[0]!.rows))}
${row("expand, VS Code's fetch: the same", efe, String(efe[0]!.rows))}
${row(`(its client part alone: ServiceClient.getSubItems, checked), ${OWN_PATH}`, c, '—')}
${row("(its client part alone), VS Code's fetch", cfe, '—')}

| ratio | per run (neighbouring runs of one round) | of the medians |
|---|---|---:|
| expand, ${OWN_PATH} / plain | ${perRun(e, p)} | **${ofMedians(e, p)}** (goal ≤ 1.5: ${goal(e)}) |
| expand, VS Code's fetch / plain | ${perRun(efe, p)} | **${ofMedians(efe, p)}** (goal ≤ 1.5: ${goal(efe)}) |
| expand, VS Code's fetch / plain fetch | ${perRun(efe, pfe)} | ${ofMedians(efe, pfe)} |
| expand, VS Code's fetch / expand, ${OWN_PATH} | ${perRun(efe, e)} | ${ofMedians(efe, e)} |
| plain fetch / plain | ${perRun(pfe, p)} | ${ofMedians(pfe, p)} |

All runs (ms): plain ${all(p)}; plain fetch ${all(pfe)}; expand ${all(e)}; expand, fetch ${all(efe)}; client part ${all(c)}; client part, fetch ${all(cfe)}.
The view's own work (rows, sort, index, ranges, labels) is the difference between expand and its client part: about ${f(Math.max(0, med(e) - med(c)))} ms of the median (${f(Math.max(0, med(efe) - med(cfe)))} ms on the fetch path).

## Reading

- Where the time goes: the client part rows are the same GET through ServiceClient alone. What the view
  adds on top of the client (rows, sort, index, ranges, labels) is the gap between expand and its
  client part; the gap between plain and the client part is the client's own request path (its
  dispatcher, the response read into one buffer under the size cap, the check of the answer),
  shared by every read of the extension; plain fetch beside plain is what the fetch path itself costs.
- The first rows of the level are ${e[0]!.rows} range nodes (\`[0..99]\` …), never ${ITEMS.toLocaleString('en')} tree items;
  a range is a pair of indexes over the one array of rows the level keeps.
- The expansion reads exactly one level (depth = level + 1): the request does not grow with the
  size of the tree below.
- The view keeps rows (a few fields each plus the field map that came back) instead of the raw
  parse tree: the retained figures compare what each path holds while the rows are shown.
- The view adds a few TreeItems per visible row on top (not measured here: this runs in
  plain Node, without the extension host). The machine is shared and noisy: read the
  medians next to every run.
- Run: \`npx tsx --expose-gc bench/work-items.ts\` (\`BENCH_ITEMS\`, \`BENCH_RUNS\`).
`;
  writeKeepingEarlierRuns(path.join(__dirname, 'results', 'work-items.md'), md);
  process.stdout.write(md);
}

(process.argv.includes('--serve') ? serve() : main()).catch((e) => {
  console.error(e);
  process.exit(1);
});
