// Benchmark: a paced bulk job with the shipped defaults against the floor its
// settings aim at, in one run, several repetitions.
// - 100,000 tasks (100 requests of 1000), default settings: 600 requests a
//   minute (100 ms between starts), concurrency 2, with the journal, as the extension
//   runs it; every PUT answered after 300 ms (the sandbox's latency fault).
// - The floor: the job cannot finish before its last request starts and answers. With
//   n requests, spacing s, concurrency c and latency L: the rate allows no earlier
//   than (n − 1)·s + L, the concurrency no earlier than ⌈n / c⌉·L. The floor is the
//   larger of the two (here the concurrency's: 50 × 300 ms = 15 s).
// - Also 1500 a minute (40 ms) at concurrency 8, where the rate is the bound.
//
// - Each setting on both network paths (bench/network-paths.ts), the rounds alternating: the
//   own undici dispatcher (the client's own Agent) and VS Code's fetch (FetchDispatcher over the
//   global fetch, the default in VS Code; Node's fetch here).
//
// Run: npx tsx bench/pacing.ts   (BENCH_ROUNDS=n; writes bench/results/pacing.md, earlier runs kept below)
import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as readline from 'node:readline';
import { ServiceClient } from '../src/api/client';
import { JobJournal, planJob, runJob } from '../src/bulk';
import { createSandbox, generateDataset } from '../src/sandbox';
import { writeKeepingEarlierRuns } from './history';
import { FETCH_PATH, OWN_PATH, fetchDispatcher } from './network-paths';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ITEMS = 100_000;
const LATENCY_MS = 300;

interface Setting {
  name: string;
  requestsPerMinute: number;
  concurrency: number;
}
const SETTINGS: Setting[] = [
  { name: 'defaults: 600 a minute, concurrency 2', requestsPerMinute: 600, concurrency: 2 },
  { name: '1500 a minute, concurrency 8', requestsPerMinute: 1500, concurrency: 8 },
];

function floorMs(n: number, s: Setting): { rate: number; concurrency: number; floor: number } {
  const spacing = 60_000 / s.requestsPerMinute;
  const rate = (n - 1) * spacing + LATENCY_MS;
  const concurrency = Math.ceil(n / s.concurrency) * LATENCY_MS;
  return { rate, concurrency, floor: Math.max(rate, concurrency) };
}

/** The sandbox in a child process (a separate service, as the real one is): prints its URL and the task IDs. */
async function serve(): Promise<void> {
  const data = generateDataset({ workItems: Math.round(ITEMS * 1.3), users: 20, organizations: 2, processCategories: 0, seed: 5 });
  const sandbox = await createSandbox({ data });
  // Tasks (no children): the update changes each item alone, so the service's own work stays small.
  const ids = sandbox.data.workItems.filter((w) => w.itemTypeId === '42' && !w.isDeleted).map((w) => w.id).slice(0, ITEMS);
  process.stdout.write(`${JSON.stringify({ url: sandbox.url, origin: sandbox.origin, ids })}\n`);
  process.stdin.on('end', () => void sandbox.close().then(() => process.exit(0)));
  process.stdin.resume();
}

async function startServer(): Promise<{ url: string; origin: string; ids: string[]; close: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', __filename, '--serve'], { stdio: ['pipe', 'pipe', 'inherit'], env: process.env });
  const rl = readline.createInterface({ input: child.stdout! });
  const info = await new Promise<{ url: string; origin: string; ids: string[] }>((resolve, reject) => {
    rl.on('line', (l) => {
      if (l.startsWith('{')) resolve(JSON.parse(l) as { url: string; origin: string; ids: string[] });
    });
    child.on('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
  return { ...info, close: () => child.stdin!.end() };
}

/**
 * The floor given the service's actual answer times: the same requests, each taking
 * what it took, started as early as the rate and the concurrency allow (a worker
 * starts its next request the moment its answer is in). What the job takes beyond
 * this is the client's own delay: pacing, journal, checks.
 */
function idealMs(durations: number[], s: Setting): number {
  const spacing = 60_000 / s.requestsPerMinute;
  const free = Array<number>(s.concurrency).fill(0);
  let last = -Infinity;
  let end = 0;
  for (const d of durations) {
    let w = 0;
    for (let i = 1; i < free.length; i++) if (free[i]! < free[w]!) w = i;
    const start = Math.max(free[w]!, last + spacing);
    last = start;
    free[w] = start + d;
    end = Math.max(end, free[w]!);
  }
  return end;
}

async function main(): Promise<void> {
  const sandbox = await startServer();
  const ids = sandbox.ids;
  if (ids.length < ITEMS) throw new Error(`only ${ids.length} items`);
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'wis-pacing-'));
  const loadBefore = os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ');
  const credentials = () => ({ kind: 'basic', loginName: 'admin', password: 'password' }) as const;
  const client = new ServiceClient({ baseUrl: sandbox.url, credentials, maxConnections: 10 });
  const fetcher = fetchDispatcher();
  const fetchClient = new ServiceClient({ baseUrl: sandbox.url, dispatcher: fetcher, credentials });
  const paths = [
    { name: OWN_PATH, client },
    { name: "VS Code's fetch", client: fetchClient },
  ];
  const res = await fetch(`${sandbox.origin}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ latencyMs: LATENCY_MS, method: 'PUT', times: 1_000_000 }) });
  if (!res.ok) throw new Error(`fault: ${res.status}`);
  const rows: string[] = [];
  let completed = false;
  try {
    for (const s of SETTINGS) {
      const samples = paths.map(() => [] as number[]);
      const ideals = paths.map(() => [] as number[]);
      let n = 0;
      for (let round = 0; round < ROUNDS; round++) {
        // Both paths each round, which goes first alternating.
        for (const k of round % 2 ? [1, 0] : [0, 1]) {
          const update = { setCompleted: (completed = !completed) };
          const t0 = performance.now();
          const plan = planJob({ workItemIds: ids, update, baseUrl: sandbox.url });
          const journal = await JobJournal.create(dir, { source: { uri: 'untitled:pacing.workitems.json' }, plan });
          const r = await runJob(plan, { client: paths[k]!.client, journal, requestsPerMinute: s.requestsPerMinute, concurrency: s.concurrency });
          samples[k]!.push(performance.now() - t0);
          if (r.outcome !== 'succeeded') throw new Error(`${s.name}: ${r.outcome}`);
          ideals[k]!.push(idealMs(r.requests.map((q) => q.durationMs ?? 0), s));
          n = plan.requests.length;
        }
      }
      const f = floorMs(n, s);
      for (let k = 0; k < paths.length; k++) rows.push(row(s, n, f, paths[k]!.name, samples[k]!, ideals[k]!));
    }
  } finally {
    await client.close();
    await fetchClient.close();
    await fetcher.close();
    sandbox.close();
    await fsp.rm(dir, { recursive: true, force: true });
  }
  function row(s: Setting, n: number, f: ReturnType<typeof floorMs>, pathName: string, samples: number[], ideals: number[]): string {
    const sorted = [...samples].sort((a, b) => a - b);
    const ratio = (x: number) => `${(x / f.floor).toFixed(3)}×`;
    const toIdeal = samples.map((x, i) => x / ideals[i]!).sort((a, b) => a - b);
    const r3 = (x: number) => `${x.toFixed(3)}×`;
    const line =
      `| ${s.name} | ${pathName} | ${n} | ${(f.floor / 1000).toFixed(2)} (rate ${(f.rate / 1000).toFixed(2)}, concurrency ${(f.concurrency / 1000).toFixed(2)}) | ${sorted.map((x) => (x / 1000).toFixed(2)).join(', ')} | ${ratio(sorted[0]!)} / ${ratio(sorted[Math.floor(sorted.length / 2)]!)} / ${ratio(sorted[sorted.length - 1]!)} | ${ideals.map((x) => (x / 1000).toFixed(2)).join(', ')} | ${r3(toIdeal[0]!)} / **${r3(toIdeal[Math.floor(toIdeal.length / 2)]!)}** / ${r3(toIdeal[toIdeal.length - 1]!)} |`;
    process.stdout.write(`${line}\n`);
    return line;
  }
  const md = `# Pacing benchmark

Command: \`npx tsx bench/pacing.ts\` (bench/pacing.ts). ${new Date().toISOString()}; ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'CPU'}, Node ${process.version};
load average at the start ${loadBefore}, at the end ${os.loadavg().map((x) => x.toFixed(2)).join(' / ')}.

A job of ${ITEMS.toLocaleString('en')} work items (tasks, 1000 a request, \`setCompleted\`), with its journal, as the
extension runs it (planning and the journal's creation inside the timed region), against the sandbox
(a child process: a separate service) answering every update after ${LATENCY_MS} ms (its latency fault).
${ROUNDS} runs of each setting on each network path, the two paths alternating which goes first: the **${OWN_PATH}**
(the client's own undici Agent: outside VS Code, and in VS Code with workItemStudio.network.proxy or caFile set) and
**${FETCH_PATH}** (the client given \`new FetchDispatcher(globalThis.fetch)\`, what the extension uses in VS Code by default).

The service's own work on each request (reading 1000 items, applying, answering; slow on this
shared machine) comes on top of the 300 ms, so two floors are shown: with answers of exactly
300 ms, and with each request's actual time as the engine measured it (durationMs: from its
sent mark in the journal to the parsed answer), the same requests started as early as the rate and the
concurrency allow. The second ratio is the client's own delay (pacing, journal, checks).

The floor its settings aim at: with n requests, spacing s = 60000 / rate, concurrency c and
latency L, the job cannot end before max((n − 1)·s + L, ⌈n / c⌉·L). At the defaults the
concurrency is the bound (two requests in flight, each 300 ms): each worker starts its next
request as soon as its answer is in.

| setting | network path | requests | floor s (300 ms answers) | runs s | ratio to that floor: min / median / max | floor with the service's actual answer times s | ratio to it: min / median / max (goal ≤ 1.05× at the defaults) |
|---|---|---:|---|---|---|---|---|
${rows.join('\n')}
`;
  writeKeepingEarlierRuns(path.join(__dirname, 'results', 'pacing.md'), md);
}

(process.argv.includes('--serve') ? serve() : main()).catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
