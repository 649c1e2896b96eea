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
// Run: npx tsx bench/views.ts   (BENCH_SIZES=10000,30000, BENCH_RUNS=n, BENCH_RSS_RUNS=n, BENCH_WARM_RUNS=n)
// Writes bench/results/views.md.
import { serveUntilStdinEnds, startChildSandbox } from './child-sandbox';
import { writeKeepingEarlierRuns } from './history';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as os from 'node:os';
import * as v8 from 'node:v8';
import { spawnSync } from 'node:child_process';
import { Agent, request } from 'undici';
import { ServiceClient } from '../src/api/client';
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


/** Plain: undici.request + JSON.parse of operation 3. */
async function plain(url: string, token: string, agent: Agent, code?: string): Promise<{ rows: number; bytes: number }> {
  const res = await request(`${url}/system/organizations/1/users${code ? `?code=${code}` : ''}`, { headers: { authorization: `Bearer ${token}` }, dispatcher: agent });
  const text = await res.body.text();
  const parsed = JSON.parse(text) as { data: unknown[] };
  keep = parsed;
  return { rows: parsed.data.length, bytes: Buffer.byteLength(text) };
}

/**
 * The floor of any way of reading the answer: the request with its bytes read and dropped
 * (nothing decoded, nothing kept).
 */
async function read(url: string, token: string, agent: Agent, code?: string): Promise<{ rows: number; bytes: number }> {
  const res = await request(`${url}/system/organizations/1/users${code ? `?code=${code}` : ''}`, { headers: { authorization: `Bearer ${token}` }, dispatcher: agent });
  let bytes = 0;
  for await (const chunk of res.body) bytes += (chunk as Buffer).length;
  return { rows: 0, bytes };
}

/**
 * A design not taken, measured beside the view: the answer's bytes kept, each user decoded
 * on its own (one JSON.parse per user, cut at \`},{\`) and dropped, only its name, login name,
 * ID and place in the bytes kept (a user would be decoded again when shown).
 */
async function bytesKept(url: string, token: string, agent: Agent, code?: string): Promise<{ rows: number; bytes: number }> {
  const res = await request(`${url}/system/organizations/1/users${code ? `?code=${code}` : ''}`, { headers: { authorization: `Bearer ${token}` }, dispatcher: agent });
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
async function expand(url: string, token: string, agent: Agent, code?: string): Promise<{ rows: number; bytes: number }> {
  const client = new ServiceClient({ baseUrl: url, dispatcher: agent, credentials: () => ({ kind: 'bearer', token }) });
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
  const agent = new Agent({ connections: 1, keepAliveTimeout: 1000 });
  const run = { plain, expand, read, bytesKept }[mode];
  if (!run) throw new Error(`unknown mode ${mode}`);
  if (warmth === 'warm' || warmth === 'busy') {
    // A small organization first: the 999 users whose code contains U0000 (BENCH_WARM_RUNS times; busy: BENCH_BUSY_RUNS).
    for (let w = 0; w < (warmth === 'busy' ? BUSY_RUNS : WARM_RUNS); w++) {
      await run(url, token, agent, 'U0000');
      keep = undefined;
    }
    await settle();
    (globalThis as { gc?: () => void }).gc?.();
    fs.writeFileSync('/proc/self/clear_refs', '5');
  }
  const before = process.memoryUsage().rss;
  const youngBefore = youngGeneration();
  const heapBefore = process.memoryUsage().heapUsed;
  await run(url, token, agent);
  const peak = peakRss();
  // What the growth is made of: the young generation's growth (committed), and the heap the
  // result keeps (heap in use after a full GC, the result still held).
  const young = youngGeneration() - youngBefore;
  (globalThis as { gc?: () => void }).gc?.();
  const kept = process.memoryUsage().heapUsed - heapBefore;
  process.stdout.write(JSON.stringify({ before, peak, young, kept }));
  await agent.close();
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

async function benchSize(users: number): Promise<{ time: string; rss: string; parts: string }> {
  const sandbox = await startChildSandbox(__filename, [String(users)], ['--max-old-space-size=8192']);
  try {
    const agent = new Agent({ connections: 1, keepAliveTimeout: 1000 });
    const bare = new ServiceClient({ baseUrl: sandbox.url });
    const token = await bare.signIn('admin', 'password');
    await bare.close();
    const time = async (f: typeof plain) => {
      // Outside the timed region: a pooled socket the sandbox closed while this process was busy
      // (its keep-alive is 5 s; a 300,000-user parse under load takes longer) is dropped first.
      await settle();
      const t0 = performance.now();
      const r = await f(sandbox.url, token, agent);
      const ms = performance.now() - t0;
      keep = undefined;
      return { ...r, ms };
    };
    await time(plain);
    await time(expand);
    const p: number[] = [];
    const e: number[] = [];
    let bytes = 0;
    let rows = 0;
    for (let i = 0; i < RUNS; i++) {
      // Alternate which goes first.
      const first = i % 2 ? expand : plain;
      const second = i % 2 ? plain : expand;
      const a = await time(first);
      const b = await time(second);
      const [pr, er] = i % 2 ? [b, a] : [a, b];
      p.push(pr.ms);
      e.push(er.ms);
      bytes = pr.bytes;
      rows = er.rows;
    }
    await agent.close();
    // Peak RSS: RSS_RUNS rounds of the four kinds, each in a fresh process, the order turning.
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
    ] as const;
    const growth = new Map<string, number[]>(kinds.map(([m, w]) => [`${m} ${w}`, []]));
    const peaks: number[] = [];
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
        if (mode === 'expand' && warmth === 'cold') peaks.push(r.peak / 2 ** 20);
      }
    }
    const ratios = e.map((x, i) => x / p[i]!);
    const mb = (n: number) => (n / 2 ** 20).toFixed(1);
    const g = (key: string) => stats(growth.get(key)!, 2, '×');
    const made = (key: string) => {
      const q = parts.get(key)!;
      return `${stats(q.growth, 1)} | ${stats(q.young, 1)} | ${stats(q.kept, 1)}`;
    };
    return {
      parts: `| ${users.toLocaleString('en')} | ${mb(bytes)} | ${made('expand cold')} | ${made('expand warm')} |`,
      time: `| ${users.toLocaleString('en')} | ${mb(bytes)} | ${stats(p)} | ${stats(e)} | ${stats(ratios, 2, '×')} | ${rows} |`,
      rss: `| ${users.toLocaleString('en')} | ${mb(bytes)} | ${g('plain cold')} | ${g('expand cold')} | ${g('plain warm')} | ${g('expand warm')} | ${g('read warm')} | ${g('bytesKept warm')} | ${g('plain busy')} | ${g('expand busy')} | ${g('plain warm-liftoff')} | ${g('expand warm-liftoff')} | ${stats(peaks)} |`,
    };
  } finally {
    sandbox.close();
  }
}

async function main(): Promise<void> {
  const rows: { time: string; rss: string; parts: string }[] = [];
  for (const n of SIZES) {
    rows.push(await benchSize(n));
    process.stdout.write(`${rows[rows.length - 1]!.time}\n${rows[rows.length - 1]!.rss}\n`);
  }
  const cpu = os.cpus();
  const md = `# views benchmark: expanding a large organization to its first rows

Command: \`npx tsx bench/views.ts\` (\`BENCH_SIZES\`, \`BENCH_RUNS\`, \`BENCH_RSS_RUNS\`, \`BENCH_WARM_RUNS\` = ${WARM_RUNS}). ${new Date().toISOString()}; ${cpu.length} × ${cpu[0]?.model.trim() ?? 'CPU'}, Node ${process.version};
load average at the end ${os.loadavg().map((x) => x.toFixed(2)).join(' / ')} (shared machine: compare ratios).
Sandbox in a child process (generated data set: one organization with all the users as direct users), loopback, one shared agent.

- plain: \`undici.request\` + \`JSON.parse\` of operation 3.
- expand: what the Organizations view does to show the first rows, all inside the timed region:
  operation 3 through ServiceClient.readOrganizationUsers (the answer's bytes scanned once: every user
  checked against the User schema, only each user's row kept: ID, name, login name, deleted, place
  in the bytes), the sub-organizations from subOrganizations (as the view reads them now),
  the sort by name with the UI collation (\`ja\`), the range grouping and one tree item (plain object
  with id, label, description, state) per first row.
- ${RUNS} rounds after a warm-up, the order alternating; ratio = expand / plain of the same round.
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
  answers read, as in an extension host at work: by then V8 has compiled undici's HTTP parser, see below).

| users | body MiB | plain ms: min / median / max | expand ms: min / median / max | ratio: min / median / max (goal ≤ 1.5×) | rows |
|---:|---:|---|---|---|---:|
${rows.map((r) => r.time).join('\n')}

RSS growth over the body, min / median / max (goal for expand ≤ 5×). Beside them, warm: read
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

What the expansion's growth is made of, MiB, min / median / max: the peak RSS growth; the
growth of the memory committed to V8's young generation (new space, its large objects) during
the run; the heap the result keeps (in use after a full GC with the result still held, less
before the run). Whatever part of the growth is neither is transient (strings and buffers of
the batches, the old generation's growth before its next collection, the collation data cold).

| users | body MiB | cold: growth | cold: young generation | cold: kept | warm: growth | warm: young generation | warm: kept |
|---:|---:|---|---|---|---|---|---|
${rows.map((r) => r.parts).join('\n')}
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
