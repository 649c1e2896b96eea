// Benchmark: expanding an organization of 10,000 to 300,000 users to its first rows,
// beside the plain HTTP request + JSON.parse of the same response, in the same run,
// interleaved; and the peak resident memory of each, against the body's size.
//
// The expansion runs what OrganizationsTree.loadOrg and getChildren run, minus the
// vscode objects (plain objects stand for the TreeItems of the first rows): operation
// 3 through ServiceClient.readOrganizationUsers (the bytes scanned once, every user checked,
// only each user's row kept), sub-organizations from the service's
// subOrganizations (SubOrganizations, as the view; operation 2 only without it), the sort by name (sortByName), the range grouping of the
// top level (rangeChildren) and the first rows' items.
//
// Each client-side kind runs on both network paths (bench/network-paths.ts): the extension's own
// undici dispatcher, and VS Code's fetch (FetchDispatcher over the global fetch, the default in
// VS Code; Node's fetch here), with a plain fetch + JSON.parse beside the plain undici request.
//
// Run: npx tsx bench/views.ts   (BENCH_SIZES=10000,30000, BENCH_RUNS=n, BENCH_RSS_RUNS=n, BENCH_WARM_RUNS=n)
// Writes bench/results/views.md.
import { serveUntilStdinEnds, startChildSandbox } from './child-sandbox';
import { writeKeepingEarlierRuns } from './history';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as os from 'node:os';
import * as v8 from 'node:v8';
import { spawnSync } from 'node:child_process';
import { Agent, request, type Dispatcher } from 'undici';
import { ServiceClient } from '../src/api/client';
import type { FetchDispatcher } from '../src/api/hostFetchDispatcher';
import { FETCH_PATH, OWN_PATH, fetchDispatcher } from './network-paths';
import { createSandbox, generateDataset } from '../src/sandbox/index';

import { belowFold } from '../src/organizations/model/discovery';
import { SubOrganizations } from '../src/organizations/model/serviceTree';
import { rangeChildren, rangeLabel, sortByName } from '../src/views/model/ranges';

/** Keeps a result reachable until the caller drops it. */
let keep: unknown;

const SIZES = (process.env.BENCH_SIZES ?? '10000,30000,100000,300000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const RSS_RUNS = Number(process.env.BENCH_RSS_RUNS ?? 3);
/** Warm-up runs on the small organization before a warm measurement (1 unless told). */
const WARM_RUNS = Number(process.env.BENCH_WARM_RUNS ?? 1);
/**
 * Small organizations read before a "busy" measurement: a process that has read a few MiB of answers,
 * as an extension host at work has (by then V8 has compiled undici's HTTP parser with TurboFan).
 */
const BUSY_RUNS = Number(process.env.BENCH_BUSY_RUNS ?? 5);

function stats(xs: number[], digits = 0, suffix = ''): string {
  const s = [...xs].sort((a, b) => a - b);
  return `${s[0]!.toFixed(digits)}${suffix} / ${s[Math.floor(s.length / 2)]!.toFixed(digits)}${suffix} / ${s[s.length - 1]!.toFixed(digits)}${suffix}`;
}

/** The sandbox runs in a child process, so its allocations stay out of the measurements. */
async function serve(users: number): Promise<void> {
  const data = generateDataset({ users, organizations: 1, workItems: 2, processCategories: 0, seed: 1 });
  const sandbox = await createSandbox({ port: 0, data });
  serveUntilStdinEnds(sandbox);
}


/** The two ways of sending a run can use: the extension's own undici Agent, and VS Code's fetch. */
interface Net {
  agent: Agent;
  fetcher: FetchDispatcher;
}

type Run = (url: string, token: string, net: Net, code?: string) => Promise<{ rows: number; bytes: number }>;

const usersUrl = (url: string, code?: string) => `${url}/system/organizations/1/users${code ? `?code=${code}` : ''}`;

/** Plain: undici.request + JSON.parse of operation 3. */
async function plain(url: string, token: string, net: Net, code?: string): Promise<{ rows: number; bytes: number }> {
  const res = await request(usersUrl(url, code), { headers: { authorization: `Bearer ${token}` }, dispatcher: net.agent });
  const text = await res.body.text();
  const parsed = JSON.parse(text) as { data: unknown[] };
  keep = parsed;
  return { rows: parsed.data.length, bytes: Buffer.byteLength(text) };
}

/** Plain on the fetch path: the global fetch + JSON.parse of operation 3 (the fetch path's own floor). */
async function plainFetch(url: string, token: string, _net: Net, code?: string): Promise<{ rows: number; bytes: number }> {
  const res = await fetch(usersUrl(url, code), { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  const parsed = JSON.parse(text) as { data: unknown[] };
  keep = parsed;
  return { rows: parsed.data.length, bytes: Buffer.byteLength(text) };
}

/**
 * The floor of any way of reading the answer: the request with its bytes read and dropped
 * (nothing decoded, nothing kept).
 */
async function read(url: string, token: string, net: Net, code?: string): Promise<{ rows: number; bytes: number }> {
  const res = await request(usersUrl(url, code), { headers: { authorization: `Bearer ${token}` }, dispatcher: net.agent });
  let bytes = 0;
  for await (const chunk of res.body) bytes += (chunk as Buffer).length;
  return { rows: 0, bytes };
}

/**
 * A design not taken, measured beside the view: the answer's bytes kept, each user decoded
 * on its own (one JSON.parse per user, cut at \`},{\`) and dropped, only its name, login name,
 * ID and place in the bytes kept (a user would be decoded again when shown).
 */
async function bytesKept(url: string, token: string, net: Net, code?: string): Promise<{ rows: number; bytes: number }> {
  const res = await request(usersUrl(url, code), { headers: { authorization: `Bearer ${token}` }, dispatcher: net.agent });
  const chunks: Buffer[] = [];
  for await (const chunk of res.body) chunks.push(chunk as Buffer);
  const buf = Buffer.concat(chunks);
  chunks.length = 0;
  const names: string[] = [];
  const logins: string[] = [];
  const ids: string[] = [];
  const places: number[] = [];
  const end = buf.lastIndexOf(']');
  for (let at = buf.indexOf('"data":[') + 8; at < end; ) {
    let next = buf.indexOf('},{', at);
    if (next < 0 || next > end) next = end - 1;
    const u = JSON.parse(buf.toString('utf8', at, next + 1)) as { id: string; name: string; loginName?: string };
    names.push(u.name);
    logins.push(u.loginName ?? '');
    ids.push(u.id);
    places.push(at, next + 1);
    at = next + 2;
  }
  keep = { buf, names, logins, ids, places: Int32Array.from(places) };
  return { rows: names.length, bytes: buf.length };
}

/**
 * Expand, as OrganizationsTree.loadOrg and getChildren do it (minus the vscode objects,
 * replaced by plain objects of the same members): operation 3 through ServiceClient
 * (checked), sub-organizations from subOrganizations (as the view), the sort by name with the UI collation, the
 * range grouping and the tree items of the first rows.
 */
async function expandThrough(dispatcher: Dispatcher, url: string, token: string, code?: string): Promise<{ rows: number; bytes: number }> {
  const client = new ServiceClient({ baseUrl: url, dispatcher, credentials: () => ({ kind: 'bearer', token }) });
  // As the view reads sub-organizations: the service's subOrganizations (official help O1),
  // operation 2 only on a service without it (the sandbox has it: checked below).
  const discovery = new SubOrganizations(
    (orgId, depth, signal) => client.getSubOrganizations(orgId, { depth }, { signal }),
    async (orgId, signal) => {
      const fold = belowFold(orgId);
      await client.foldAllAssignedUsers(orgId, {}, fold.start, { signal });
      return fold.below();
    },
    () => undefined,
  );
  const [list, children] = await Promise.all([client.readOrganizationUsers('1', code ? { code } : {}), discovery.childrenOf('1')]);
  if (children.source !== 'service') throw new Error('the sandbox did not answer subOrganizations');
  const subs = children.refs;
  const users = list.rows;
  sortByName(users, 'ja');
  const top = rangeChildren(0, users.length);
  const items = top.map((c) =>
    c.kind === 'range'
      ? { id: `1/${c.start}-${c.end}`, label: rangeLabel(c), description: `${users[c.start]!.name} – ${users[c.end - 1]!.name}`, collapsibleState: 1 }
      : { id: `1/u/${users[c.index]!.id}`, label: users[c.index]!.name, description: users[c.index]!.loginName ?? '', collapsibleState: 0 },
  );
  await client.close();
  keep = { list, users, discovery, subs, items };
  return { rows: items.length + subs.length, bytes: 0 };
}

/** Expand through the extension's own undici dispatcher (outside VS Code, or with the extension's network settings). */
const expand: Run = (url, token, net, code) => expandThrough(net.agent, url, token, code);
/** Expand through VS Code's fetch (FetchDispatcher over the global fetch): what the view does in VS Code by default. */
const expandFetch: Run = (url, token, net, code) => expandThrough(net.fetcher, url, token, code);

/** Peak resident memory of this process so far (VmHWM; it can be reset, see rssChild). */
function peakRss(): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]) * 1024;
  } catch {
    // not Linux: maxRSS cannot be reset, so the warm figure is not measured there
  }
  return process.resourceUsage().maxRSS * 1024;
}

/** Lets the event loop read what arrived (a socket the server closed meanwhile is dropped from the pool). */
const settle = () => new Promise((r) => setTimeout(r, 10));

/**
 * One run in a fresh process (`--rss <mode> <url> <token> <cold|warm>`): the peak resident memory
 * of the run and the process's memory before it. cold: the first run of the process. warm: after
 * one run of the same kind on a small organization (999 users) whose result is dropped, a full GC
 * and a reset of the peak (/proc/self/clear_refs 5), as in an extension host that has run the code
 * and loaded the collation before.
 */
async function rssChild(mode: string, url: string, token: string, warmth: string): Promise<void> {
  const net: Net = { agent: new Agent({ connections: 1, keepAliveTimeout: 1000 }), fetcher: fetchDispatcher() };
  const run = ({ plain, plainFetch, expand, expandFetch, read, bytesKept } as Record<string, Run>)[mode];
  if (!run) throw new Error(`unknown mode ${mode}`);
  if (warmth === 'warm' || warmth === 'busy') {
    // A small organization first: the 999 users whose code contains U0000 (BENCH_WARM_RUNS times; busy: BENCH_BUSY_RUNS).
    for (let w = 0; w < (warmth === 'busy' ? BUSY_RUNS : WARM_RUNS); w++) {
      await run(url, token, net, 'U0000');
      keep = undefined;
    }
    await settle();
    (globalThis as { gc?: () => void }).gc?.();
    fs.writeFileSync('/proc/self/clear_refs', '5');
  }
  const before = process.memoryUsage().rss;
  const youngBefore = youngGeneration();
  const heapBefore = process.memoryUsage().heapUsed;
  await run(url, token, net);
  const peak = peakRss();
  // What the growth is made of: the young generation's growth (committed), and the heap the
  // result keeps (heap in use after a full GC, the result still held).
  const young = youngGeneration() - youngBefore;
  (globalThis as { gc?: () => void }).gc?.();
  const kept = process.memoryUsage().heapUsed - heapBefore;
  process.stdout.write(JSON.stringify({ before, peak, young, kept }));
  await net.agent.close();
  await net.fetcher.close();
}

/** Memory committed to V8's young generation (new space and its large-object space). */
function youngGeneration(): number {
  return v8
    .getHeapSpaceStatistics()
    .filter((s) => s.space_name === 'new_space' || s.space_name === 'new_large_object_space')
    .reduce((n, s) => n + s.space_size, 0);
}

/**
 * warm-liftoff: warm, in a process whose WebAssembly stays on V8's baseline compiler (`--liftoff-only`):
 * undici's HTTP parser (llhttp, WebAssembly) is then not compiled again by TurboFan. That compilation
 * happens once in a process, when the parser has become hot (here: during the first large answer),
 * in a V8 worker thread, and its compiler memory (about 22-37 MiB, mostly register allocation of
 * llhttp's state machine) counts in the peak of whatever runs meanwhile. A diagnosis beside the
 * goal's figure, not the goal's figure.
 */
function rssOf(mode: string, url: string, token: string, warmth: 'cold' | 'warm' | 'busy' | 'warm-liftoff'): { before: number; peak: number; young: number; kept: number } {
  const flags = warmth === 'warm-liftoff' ? ['--liftoff-only'] : [];
  const child = warmth === 'warm-liftoff' ? 'warm' : warmth;
  const r = spawnSync(process.execPath, ['--expose-gc', ...flags, '--import', 'tsx', __filename, '--rss', mode, url, token, child], { encoding: 'utf8', env: process.env, timeout: 600_000 });
  if (r.status !== 0) throw new Error(`rss child: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as { before: number; peak: number; young: number; kept: number };
}

interface SizeRows {
  time: string;
  ratios: string;
  rss: string;
  rssFetch: string;
  parts: string[];
}

async function benchSize(users: number): Promise<SizeRows> {
  const sandbox = await startChildSandbox(__filename, [String(users)], ['--max-old-space-size=8192']);
  try {
    const net: Net = { agent: new Agent({ connections: 1, keepAliveTimeout: 1000 }), fetcher: fetchDispatcher() };
    const bare = new ServiceClient({ baseUrl: sandbox.url });
    const token = await bare.signIn('admin', 'password');
    await bare.close();
    const time = async (f: Run) => {
      // Outside the timed region: a pooled socket the sandbox closed while this process was busy
      // (its keep-alive is 5 s; a 300,000-user parse under load takes longer) is dropped first.
      await settle();
      const t0 = performance.now();
      const r = await f(sandbox.url, token, net);
      const ms = performance.now() - t0;
      keep = undefined;
      return { ...r, ms };
    };
    const timedKinds: [string, Run][] = [
      ['plain', plain],
      ['plainFetch', plainFetch],
      ['expand', expand],
      ['expandFetch', expandFetch],
    ];
    for (const [, f] of timedKinds) await time(f);
    const ms = new Map<string, number[]>(timedKinds.map(([k]) => [k, []]));
    let bytes = 0;
    let rows = 0;
    for (let i = 0; i < RUNS; i++) {
      // The order turns by one each round and runs backwards every other round, so no kind
      // always goes first or always follows the same other kind.
      const order = timedKinds.map((_, k) => timedKinds[(i + k) % timedKinds.length]!);
      if (i % 2) order.reverse();
      for (const [kind, f] of order) {
        const r = await time(f);
        ms.get(kind)!.push(r.ms);
        if (kind === 'plain') bytes = r.bytes;
        if (kind === 'expand') rows = r.rows;
      }
    }
    await net.agent.close();
    await net.fetcher.close();
    // Peak RSS: RSS_RUNS rounds of the kinds, each in a fresh process, the order turning.
    const kinds = [
      ['plain', 'cold'],
      ['expand', 'cold'],
      ['plain', 'warm'],
      ['expand', 'warm'],
      ['read', 'warm'],
      ['bytesKept', 'warm'],
      ['plain', 'busy'],
      ['expand', 'busy'],
      ['plain', 'warm-liftoff'],
      ['expand', 'warm-liftoff'],
      ['plainFetch', 'cold'],
      ['expandFetch', 'cold'],
      ['plainFetch', 'warm'],
      ['expandFetch', 'warm'],
      ['plainFetch', 'busy'],
      ['expandFetch', 'busy'],
    ] as const;
    const growth = new Map<string, number[]>(kinds.map(([m, w]) => [`${m} ${w}`, []]));
    const peaks = new Map<string, number[]>([
      ['expand', []],
      ['expandFetch', []],
    ]);
    const parts = new Map<string, { young: number[]; kept: number[]; growth: number[] }>(kinds.map(([m, w]) => [`${m} ${w}`, { young: [], kept: [], growth: [] }]));
    for (let i = 0; i < RSS_RUNS; i++) {
      for (let k = 0; k < kinds.length; k++) {
        const [mode, warmth] = kinds[(k + i) % kinds.length]!;
        const r = rssOf(mode, sandbox.url, token, warmth);
        growth.get(`${mode} ${warmth}`)!.push((r.peak - r.before) / bytes);
        const part = parts.get(`${mode} ${warmth}`)!;
        part.growth.push((r.peak - r.before) / 2 ** 20);
        part.young.push(r.young / 2 ** 20);
        part.kept.push(r.kept / 2 ** 20);
        if (warmth === 'cold') peaks.get(mode)?.push(r.peak / 2 ** 20);
      }
    }
    const t = (k: string) => ms.get(k)!;
    const ratio = (a: string, b: string) => stats(t(a).map((x, i) => x / t(b)[i]!), 2, '×');
    const mb = (n: number) => (n / 2 ** 20).toFixed(1);
    const g = (key: string) => stats(growth.get(key)!, 2, '×');
    const made = (key: string) => {
      const q = parts.get(key)!;
      return `${stats(q.growth, 1)} | ${stats(q.young, 1)} | ${stats(q.kept, 1)}`;
    };
    const head = `| ${users.toLocaleString('en')} | ${mb(bytes)} |`;
    return {
      time: `${head} ${stats(t('plain'))} | ${stats(t('plainFetch'))} | ${stats(t('expand'))} | ${stats(t('expandFetch'))} | ${rows} |`,
      ratios: `${head} ${ratio('expand', 'plain')} | ${ratio('expandFetch', 'plain')} | ${ratio('expandFetch', 'plainFetch')} | ${ratio('expandFetch', 'expand')} | ${ratio('plainFetch', 'plain')} |`,
      parts: [`${head} ${OWN_PATH} | ${made('expand cold')} | ${made('expand warm')} |`, `${head} VS Code's fetch | ${made('expandFetch cold')} | ${made('expandFetch warm')} |`],
      rss: `${head} ${g('plain cold')} | ${g('expand cold')} | ${g('plain warm')} | ${g('expand warm')} | ${g('read warm')} | ${g('bytesKept warm')} | ${g('plain busy')} | ${g('expand busy')} | ${g('plain warm-liftoff')} | ${g('expand warm-liftoff')} | ${stats(peaks.get('expand')!)} |`,
      rssFetch: `${head} ${g('plainFetch cold')} | ${g('expandFetch cold')} | ${g('plainFetch warm')} | ${g('expandFetch warm')} | ${g('plainFetch busy')} | ${g('expandFetch busy')} | ${stats(peaks.get('expandFetch')!)} |`,
    };
  } finally {
    sandbox.close();
  }
}

async function main(): Promise<void> {
  const loadBefore = os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ');
  const rows: SizeRows[] = [];
  for (const n of SIZES) {
    rows.push(await benchSize(n));
    const r = rows[rows.length - 1]!;
    process.stdout.write(`${r.time}\n${r.ratios}\n${r.rss}\n${r.rssFetch}\n`);
  }
  const cpu = os.cpus();
  const md = `# views benchmark: expanding a large organization to its first rows

Command: \`npx tsx bench/views.ts\` (\`BENCH_SIZES\`, \`BENCH_RUNS\`, \`BENCH_RSS_RUNS\`, \`BENCH_WARM_RUNS\` = ${WARM_RUNS}). ${new Date().toISOString()}; ${cpu.length} × ${cpu[0]?.model.trim() ?? 'CPU'}, Node ${process.version};
load average at the start ${loadBefore}, at the end ${os.loadavg().map((x) => x.toFixed(2)).join(' / ')} (shared machine: compare ratios).
Sandbox in a child process (generated data set: one organization with all the users as direct users), loopback.

Two network paths, in the same run: the **${OWN_PATH}** (one shared undici Agent: outside VS Code, and in
VS Code with workItemStudio.network.proxy or caFile set) and **${FETCH_PATH}**: the ServiceClient given
\`new FetchDispatcher(globalThis.fetch)\`, what the view uses in VS Code by default; Node's fetch is its bundled undici.

- plain: \`undici.request\` + \`JSON.parse\` of operation 3 (the baseline of the goal, as before).
- plain fetch: the global \`fetch\` + \`res.text()\` + \`JSON.parse\` (the fetch path's own floor).
- expand: what the Organizations view does to show the first rows, all inside the timed region:
  operation 3 through ServiceClient.readOrganizationUsers (the answer's bytes scanned once: every user
  checked against the User schema, only each user's row kept: ID, name, login name, deleted, place
  in the bytes), the sub-organizations from subOrganizations (as the view reads them now),
  the sort by name with the UI collation (\`ja\`), the range grouping and one tree item (plain object
  with id, label, description, state) per first row; on the own undici dispatcher.
- expand, fetch: the same with the ServiceClient on VS Code's fetch.
- ${RUNS} rounds after a warm-up of each, the four kinds in each round, the order turning by one
  each round and reversed every other round; ratios are per round (the two kinds of the same round).
- Before each timed call (outside the timed region) the event loop runs for 10 ms, so a pooled
  socket that the sandbox closed after its 5 s keep-alive while this process was busy is dropped
  instead of being written to (that gave UND_ERR_SOCKET at 300,000 users under load).
- Peak RSS: ${RSS_RUNS} rounds; in each, one run of each kind below in a fresh process (the order
  turning), its peak RSS (VmHWM) less the process's RSS before the request, over the body's size
  (the goal: growth ≤ 5× the body). cold: the first run of the process (the JIT, the heap's
  growth and the \`ja\` collation data are counted); warm: after ${WARM_RUNS} run(s) of the same kind on a
  small organization (the 999 users whose code contains \`U0000\`), its result dropped, a full
  GC and the peak reset (\`/proc/self/clear_refs\`), as in an extension host that has expanded a
  small organization before; busy: the same after ${BUSY_RUNS} runs on the small organization (a few MiB of
  answers read, as in an extension host at work: by then V8 has compiled the HTTP parser, see below).
  The fetch path's warm-up runs are on the fetch path too (Node's fetch has its own copy of undici and of its parser).

| users | body MiB | plain ms: min / median / max | plain fetch ms | expand (${OWN_PATH}) ms | expand (VS Code's fetch) ms | rows |
|---:|---:|---|---|---|---|---:|
${rows.map((r) => r.time).join('\n')}

Ratios per round, min / median / max (goal: expand ≤ 1.5× plain):

| users | body MiB | expand, own / plain | expand, fetch / plain | expand, fetch / plain fetch | expand, fetch / expand, own | plain fetch / plain |
|---:|---:|---|---|---|---|---|
${rows.map((r) => r.ratios).join('\n')}

RSS growth over the body on the **${OWN_PATH}**, min / median / max (goal for expand ≤ 5×). Beside them, warm: read
(the request with the answer's bytes read and dropped: the floor of any decoding) and bytes kept
(a design not taken: the bytes kept, each user decoded on its own and dropped, only name, login
name, ID and place kept). Last, a diagnosis (not the goal's figure): warm in a process started with
\`--liftoff-only\`, where V8 does not compile undici's HTTP parser (llhttp, WebAssembly) again with
TurboFan. That compilation happens once per process, in a V8 worker thread, when the parser has
become hot (in these fresh processes: during the large answer); its compiler memory (22-37 MiB,
measured with heaptrack: zone segments of the register allocator for llhttp's state machine)
counts in the peak of whatever runs meanwhile, the plain path's too. V8 starts it when the parser
has run through its tiering budget (\`--wasm-tiering-budget\`, about 1.8 million bytes of code executed):
in a process that has read a few MiB of answers (busy) it is over before the large answer.

| users | body MiB | cold: plain | cold: expand | warm: plain | warm: expand | warm: read | warm: bytes kept | busy: plain | busy: expand | warm, Liftoff only: plain | warm, Liftoff only: expand | cold: expand peak RSS MiB |
|---:|---:|---|---|---|---|---|---|---|---|---|---|---|
${rows.map((r) => r.rss).join('\n')}

RSS growth over the body on **${FETCH_PATH}**, min / median / max, in the same rounds (goal for expand ≤ 5×):

| users | body MiB | cold: plain fetch | cold: expand | warm: plain fetch | warm: expand | busy: plain fetch | busy: expand | cold: expand peak RSS MiB |
|---:|---:|---|---|---|---|---|---|---|
${rows.map((r) => r.rssFetch).join('\n')}

What the expansion's growth is made of, MiB, min / median / max: the peak RSS growth; the
growth of the memory committed to V8's young generation (new space, its large objects) during
the run; the heap the result keeps (in use after a full GC with the result still held, less
before the run). Whatever part of the growth is neither is transient (strings and buffers of
the batches, the old generation's growth before its next collection, the collation data cold).

| users | body MiB | path | cold: growth | cold: young generation | cold: kept | warm: growth | warm: young generation | warm: kept |
|---:|---:|---|---|---|---|---|---|---|
${rows.flatMap((r) => r.parts).join('\n')}
`;
  // The earlier runs stay below the new one (demoted a heading level).
  writeKeepingEarlierRuns(path.join(__dirname, 'results', 'views.md'), md);
  process.stdout.write(md);
}

const argv = process.argv;
(argv.includes('--serve') ? serve(Number(argv[argv.indexOf('--serve') + 1])) : argv.includes('--rss') ? rssChild(argv[argv.indexOf('--rss') + 1]!, argv[argv.indexOf('--rss') + 2]!, argv[argv.indexOf('--rss') + 3]!, argv[argv.indexOf('--rss') + 4]!) : main()).catch((e) => {
  console.error(e);
  process.exit(1);
});
