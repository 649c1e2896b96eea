// Benchmark: the first rows of a Work Items level of 50 and of 5,000 items, from the view's
// request for them to the rows it gets back, beside a plain undici request + JSON.parse of
// the same answer; in one run, interleaved (goals ≤ 1.2× and ≤ 1.1×).
//
// "view": what WorkItemsTree.getChildren runs for a level, minus the vscode objects: the
// level's load (LoadCell, src/views/model/loadable.ts) read through `within()` (the wait of
// up to FIRST_ROWS_WAIT_MS), loadTreeLevel through ServiceClient (answer checked, the project's
// profile known: it is read once per project), Hierarchy.setLevel, the top ranges and the
// labels of the first rows. "held": the same load with the fixed hold it replaces (the view got
// "Loading…" at once and its rows when announced, no sooner than 100 ms after the start),
// measured to the announcement, for comparison.
//
// "view, fetch", "client part, fetch" and "plain fetch": the same on VS Code's fetch (the ServiceClient
// given FetchDispatcher over the global fetch, the default in VS Code; Node's fetch here) and the
// global fetch + JSON.parse, in the same rounds (bench/network-paths.ts).
//
// Run: npx tsx bench/tree-levels.ts   (BENCH_RUNS=n). Writes bench/results/tree-levels.md.
import { serveUntilStdinEnds, startChildSandbox } from './child-sandbox';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Agent, request } from 'undici';
import { ServiceClient } from '../src/api/client';
import { createSandbox, generateDataset } from '../src/sandbox/index';
import { FIRST_ROWS_WAIT_MS, LoadCell } from '../src/views/model/loadable';
import { rangeChildren, rangeLabel } from '../src/views/model/ranges';
import { TreeFieldPolicy } from '../src/workItems/model/fieldPolicy';
import { Hierarchy, levelQuery } from '../src/workItems/model/hierarchy';
import { PROFILE_INCLUDES, ProjectTypesCache } from '../src/workItems/model/profiles';
import type { WorkItemRow } from '../src/workItems/model/rows';
import { loadTreeLevel } from '../src/workItems/model/treeLevel';
import { FETCH_PATH, OWN_PATH, fetchDispatcher } from './network-paths';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
/** Folders below project 1's root folder "1": the first holds 50 tasks, the second 5,000. */
const LEVELS = [
  { folder: '2000000', items: 50 },
  { folder: '2000001', items: 5_000 },
] as const;
const HOLD_MS = 100;

let keep: unknown;

async function serve(): Promise<void> {
  const data = generateDataset({ users: 50, organizations: 2, workItems: 2, processCategories: 0, seed: 1 });
  const item = (id: string, parentId: string, order: number, itemTypeId: string, name: string) => {
    const start = `2026-${String(1 + (order % 12)).padStart(2, '0')}-${String(1 + (order % 28)).padStart(2, '0')}`;
    return {
      id,
      projectId: '1',
      parentId,
      order,
      itemTypeId,
      name,
      code: `W${id}`,
      plannedStartDate: start,
      plannedFinishDate: start,
      plannedTime: 60 * (1 + (order % 40)),
      managedPlannedTime: 60 * (1 + (order % 40)),
      plannedCost: 0,
      leaderId: '2001',
    } as NonNullable<typeof data.workItems>[number];
  };
  let next = 3_000_000;
  LEVELS.forEach((l, i) => {
    data.workItems!.push(item(l.folder, '1', 1_000 + i, '41', `フォルダー ${l.items}`));
    for (let k = 0; k < l.items; k++) data.workItems!.push(item(String(next++), l.folder, k + 1, '42', `作業 ${k + 1}`));
  });
  const sandbox = await createSandbox({ port: 0, data });
  serveUntilStdinEnds(sandbox);
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)]!;
const stats = (xs: number[], d = 1, suffix = '') => {
  const s = sorted(xs);
  return `${s[0]!.toFixed(d)}${suffix} / ${median(xs).toFixed(d)}${suffix} / ${s[s.length - 1]!.toFixed(d)}${suffix}`;
};

async function main(): Promise<void> {
  const loadBefore = os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ');
  const sandbox = await startChildSandbox(__filename, []);
  const agent = new Agent({ connections: 1, keepAliveTimeout: 1000 });
  const bare = new ServiceClient({ baseUrl: sandbox.url });
  const token = await bare.signIn('admin', 'password');
  await bare.close();
  const client = new ServiceClient({ baseUrl: sandbox.url, dispatcher: agent, credentials: () => ({ kind: 'bearer', token }) });
  const fetcher = fetchDispatcher();
  const fetchClient = new ServiceClient({ baseUrl: sandbox.url, dispatcher: fetcher, credentials: () => ({ kind: 'bearer', token }) });
  // As WorkItemsTree: one field policy and one profile cache for the view's life.
  const fieldPolicy = new TreeFieldPolicy(() => undefined);
  const types = new ProjectTypesCache((projectId, signal) => client.getProjectProfile(projectId, PROFILE_INCLUDES, { signal }), () => undefined);
  const hierarchy = new Hierarchy();

  /** The level's rows as the view's getChildren returns them (ranges and first-row labels). */
  const firstRows = (parentId: string, rows: WorkItemRow[]) => {
    hierarchy.setLevel(parentId, rows);
    return rangeChildren(0, rows.length).map((c) => (c.kind === 'range' ? `${rangeLabel(c)} ${rows[c.start]!.name} – ${rows[c.end - 1]!.name}` : rows[c.index]!.name));
  };
  const cell = (parentId: string, changed: () => void = () => undefined, c: ServiceClient = client) =>
    new LoadCell<WorkItemRow[]>(async (signal) => (await loadTreeLevel(c, { types, fields: fieldPolicy }, { id: parentId, level: 1 }, '1', signal)).rows, changed);

  /** How many of the view's requests got "Loading…" (the load took longer than the wait), by parent (and path). */
  const placeholders = new Map<string, number>();
  /** The view: getChildren's wait, then the rows; a load slower than the wait: "Loading…", then its announcement and the rows. */
  const view = async (parentId: string, on: ServiceClient = client) => {
    const t0 = performance.now();
    let announced!: () => void;
    const done = new Promise<void>((r) => (announced = r));
    const c = cell(parentId, () => announced(), on);
    let st = await c.within();
    if (st.kind === 'loading') {
      const key = on === client ? parentId : `fetch ${parentId}`;
      placeholders.set(key, (placeholders.get(key) ?? 0) + 1);
      await done;
      st = await c.within();
    }
    if (st.kind !== 'loaded') throw new Error(`the level was ${st.kind}`);
    const labels = firstRows(parentId, st.value);
    const ms = performance.now() - t0;
    keep = labels;
    return { ms, items: st.value.length, rows: labels.length };
  };

  /** The hold it replaces: rows at the announcement, no sooner than HOLD_MS after the start. */
  const held = async (parentId: string) => {
    const t0 = performance.now();
    let announced!: () => void;
    const done = new Promise<void>((r) => (announced = r));
    const c = cell(parentId, () => announced());
    c.shown(); // "Loading…" at once, as the view was answered before
    await c.settled();
    const left = HOLD_MS - (performance.now() - t0);
    if (left > 0) await new Promise((r) => setTimeout(r, left));
    announced();
    await done;
    const st = c.state;
    if (st.kind !== 'loaded') throw new Error(`the level was ${st.kind}`);
    const labels = firstRows(parentId, st.value);
    const ms = performance.now() - t0;
    keep = labels;
    return { ms, items: st.value.length, rows: labels.length };
  };

  await view(LEVELS[0].folder); // the profile, once per project (as the view)
  const fields = fieldPolicy.fieldsFor(types.known('1'));
  const plainVia = async (parentId: string, viaFetch: boolean) => {
    const q = levelQuery(1, fields);
    const url = new URL(`${sandbox.url}/workitem/workItems/${parentId}/subItems`);
    url.searchParams.set('fields', q.fields.join(','));
    url.searchParams.set('depth', String(q.depth));
    const t0 = performance.now();
    const headers = { authorization: `Bearer ${token}` };
    const text = viaFetch ? await (await fetch(url, { headers })).text() : await (await request(url, { headers, dispatcher: agent })).body.text();
    const parsed = JSON.parse(text) as { fields: { SubItems?: unknown[] } } | { fields: { SubItems?: unknown[] } }[];
    const ms = performance.now() - t0;
    keep = parsed;
    const node = Array.isArray(parsed) ? parsed[0]! : parsed;
    return { ms, items: node.fields.SubItems?.length ?? 0, rows: 0, bytes: Buffer.byteLength(text) };
  };

  /** The client's part alone: the same GET through ServiceClient (answer checked), nothing built. */
  const clientOnly = async (parentId: string, on: ServiceClient = client) => {
    const t0 = performance.now();
    const node = await on.getSubItems(parentId, levelQuery(1, fields));
    const ms = performance.now() - t0;
    keep = node;
    return { ms, items: (node.fields.SubItems ?? []).length, rows: 0 };
  };

  const lines: string[] = [];
  const fetchLines: string[] = [];
  const settle = () => new Promise((r) => setTimeout(r, 10));
  for (const level of LEVELS) {
    const modes = {
      plain: (id: string) => plainVia(id, false),
      plainFetch: (id: string) => plainVia(id, true),
      view: (id: string) => view(id),
      viewFetch: (id: string) => view(id, fetchClient),
      held,
      client: (id: string) => clientOnly(id),
      clientFetch: (id: string) => clientOnly(id, fetchClient),
    } as const;
    type Mode = keyof typeof modes;
    const names = Object.keys(modes) as Mode[];
    const times = Object.fromEntries(names.map((m) => [m, [] as number[]])) as Record<Mode, number[]>;
    /** This process's CPU time (user + system, µs) per round: the work each side does, whatever the machine's load does to the wall clock. */
    const cpu = Object.fromEntries(names.map((m) => [m, [] as number[]])) as Record<Mode, number[]>;
    let bytes = 0;
    for (const m of Object.values(modes)) await m(level.folder); // warm-up
    placeholders.delete(level.folder);
    placeholders.delete(`fetch ${level.folder}`);
    for (let i = 0; i < RUNS; i++) {
      // The order turns by one each round and runs backwards every other round.
      const order = names.map((_, k, a) => a[(i + k) % a.length]!);
      if (i % 2) order.reverse();
      for (const name of order) {
        await settle();
        const c0 = process.cpuUsage();
        const r = await modes[name](level.folder);
        const c1 = process.cpuUsage(c0);
        cpu[name].push(c1.user + c1.system);
        if (r.items !== level.items) throw new Error(`${name}: expected ${level.items} items, got ${r.items}`);
        times[name].push(r.ms);
        if ('bytes' in r) bytes = r.bytes as number;
      }
    }
    const ratio = times.view.map((v, i) => v / times.plain[i]!);
    const heldRatio = times.held.map((v, i) => v / times.plain[i]!);
    const goal = level.items <= 50 ? 1.2 : 1.1;
    const med = median(times.view) / median(times.plain);
    lines.push(
      `| ${level.items.toLocaleString('en')} | ${(bytes / 1024).toFixed(0)} KiB | ${stats(times.plain)} | ${stats(times.view)} | ${stats(ratio, 2, '×')} | **${med.toFixed(2)}×** (goal ≤ ${goal}×: ${med <= goal ? 'met' : 'NOT met'}) | ${placeholders.get(level.folder) ?? 0} of ${RUNS} | ${stats(times.held)} | ${stats(heldRatio, 2, '×')} | ${stats(times.client)} | ${(median(times.client) / median(times.plain)).toFixed(2)}× | ${median(cpu.plain).toFixed(0)} / ${median(cpu.view).toFixed(0)} µs: ${(median(cpu.view) / median(cpu.plain)).toFixed(2)}× |`,
    );
    const perRound = (a: Mode, b: Mode) => stats(times[a].map((v, i) => v / times[b][i]!), 2, '×');
    const medFetch = median(times.viewFetch) / median(times.plain);
    fetchLines.push(
      `| ${level.items.toLocaleString('en')} | ${(bytes / 1024).toFixed(0)} KiB | ${stats(times.plainFetch)} | ${stats(times.viewFetch)} | ${perRound('viewFetch', 'plain')} | **${medFetch.toFixed(2)}×** (goal ≤ ${goal}×: ${medFetch <= goal ? 'met' : 'NOT met'}) | ${perRound('viewFetch', 'plainFetch')}; medians ${(median(times.viewFetch) / median(times.plainFetch)).toFixed(2)}× | ${perRound('viewFetch', 'view')} | ${placeholders.get(`fetch ${level.folder}`) ?? 0} of ${RUNS} | ${stats(times.clientFetch)} | ${(median(times.clientFetch) / median(times.plain)).toFixed(2)}× | ${median(cpu.plain).toFixed(0)} / ${median(cpu.viewFetch).toFixed(0)} µs: ${(median(cpu.viewFetch) / median(cpu.plain)).toFixed(2)}× |`,
    );
    process.stdout.write(`${lines.at(-1)}\n${fetchLines.at(-1)}\n`);
  }
  await client.close();
  await fetchClient.close();
  await fetcher.close();
  await agent.close();
  sandbox.close();

  const cpu = os.cpus();
  const md = `# tree levels benchmark: first rows of a Work Items level, with no fixed delay

Command: \`npx tsx bench/tree-levels.ts\` (\`BENCH_RUNS\`). ${new Date().toISOString()}; ${cpu.length} × ${cpu[0]?.model.trim() ?? 'CPU'}, Node ${process.version};
load average at the start ${loadBefore}, at the end ${os.loadavg().map((x) => x.toFixed(2)).join(' / ')} (shared machine: compare ratios within a row).
Sandbox in a child process on loopback (project 1: a folder of 50 tasks and a folder of 5,000 tasks below its root folder), one shared agent.

- plain: \`undici.request\` + \`JSON.parse\` of the level's request (\`GET /workitem/workItems/{folder}/subItems\`, the view's \`fields=\` and depth).
- view: the view's request for the level's rows to the rows returned, as \`WorkItemsTree.getChildren\` runs it without vscode:
  \`LoadCell.within()\` (waits up to ${FIRST_ROWS_WAIT_MS} ms for the load) around \`loadTreeLevel\` through ServiceClient (answer checked; the
  project's profile already read, as after the first level of a project), \`Hierarchy.setLevel\`, the top ranges and the first rows' labels.
- A view round whose load took longer than the wait got "Loading…" and its rows at the announcement (when the
  view asks again): counted in the "Loading…" column, timed to the rows all the same.
- held (for comparison, what this replaces): the same load with the former fixed hold: "Loading…" at once, the rows at the
  announcement no sooner than ${HOLD_MS} ms after the start.
- client part: the same GET through \`ServiceClient.getSubItems\` alone (answer checked, no rows built): what of the view's time
  is the client's request path and check (src/api), the rest being the rows, the index and the ranges (src/workItems/model).
- ${RUNS} rounds after a warm-up, the order of the seven turning by one each round and reversed every other round; ratio = mode / plain of the same round; min / median / max.
- CPU: this process's CPU time (user + system) per round, medians, plain / view: the work the view adds on the client side
  (the sandbox runs in its own process), which the machine's load does not stretch as it stretches the wall clock.

- Two network paths for the view's ServiceClient, in the same rounds: the **${OWN_PATH}** (the shared undici Agent: outside
  VS Code, and in VS Code with workItemStudio.network.proxy or caFile set; the first table) and **${FETCH_PATH}**
  (the ServiceClient given \`new FetchDispatcher(globalThis.fetch)\`, what the view uses in VS Code by default; the second
  table, beside plain fetch: the global fetch + \`JSON.parse\` of the same request). Both tables' goal ratios are to plain (undici).

${OWN_PATH}:

| items | body | plain ms | view ms | view / plain | ratio of medians | view rounds with "Loading…" | held ms | held / plain | client part ms | client part / plain (medians) | CPU plain / view |
|---:|---:|---|---|---|---|---:|---|---|---|---|---|
${lines.join('\n')}

VS Code's fetch:

| items | body | plain fetch ms | view, fetch ms | view, fetch / plain | ratio of medians | view, fetch / plain fetch | view, fetch / view, own | view rounds with "Loading…" | client part, fetch ms | client part, fetch / plain (medians) | CPU plain / view, fetch |
|---:|---:|---|---|---|---|---|---|---:|---|---|---|
${fetchLines.join('\n')}
`;
  fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
  const file = path.join(__dirname, 'results', 'tree-levels.md');
  const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').replace(/^# [^\n]*\n/, '') : '';
  fs.writeFileSync(file, md + (before ? `\n## Earlier run\n${before.replace(/^## Earlier run\n/gm, '### Earlier run\n')}` : ''));
  process.stdout.write(md);
}

(process.argv.includes('--serve') ? serve() : main()).catch((e) => {
  console.error(e);
  process.exit(1);
});
