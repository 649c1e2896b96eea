// Benchmark: the bulk engine against a plain undici loop sending the same requests,
// like with like, in one run:
// - the same requests (same paths and body), the same concurrency (2 workers
//   pulling from one queue), one shared undici Agent (keep-alive, same pool);
// - planning (ID checks, batching, URLs) inside the timed region of every variant;
// - the engine as the extension runs it: with its journal (created inside the timed
//   region, every state change on disk before the next request leaves), and without;
// - pacing off in these three (the pacing bench is bench/pacing.ts);
// - rounds interleaved (plain, engine, engine + journal, plain, …), and the ratio
//   of each variant to the plain loop of the same round; min / median / max.
// Two shapes: 20 requests of 1000 items (20,000 items), 2,000 requests of one item.
// Two placements of the service, each measured the same way in the same run: the
// sandbox in this process (as the extension's built-in sandbox runs: the service's
// work and the client's share one thread, so every millisecond of the client
// counts), and the sandbox in a process of its own (as a service elsewhere: the
// client's work overlaps the service's).
// Every variant must answer 200 for every request; the sandbox's state is checked.
// The engine runs on both network paths (bench/network-paths.ts): the own undici dispatcher
// (the shared Agent) and VS Code's fetch (FetchDispatcher over the global fetch, the default in
// VS Code; Node's fetch here), beside a plain loop on the global fetch.
//
// Run: npm run bench:bulk   (writes bench/results/bulk.md, earlier runs kept below)
// BENCH_ROUNDS (15), and to try one case without writing the results:
// BENCH_ONLY=same|own (placement) and BENCH_SHAPE=1000|1 (IDs per request).
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { ServiceClient } from '../src/api/client';
import { workItemsPath } from '../src/api/paths';
import { JobJournal, planJob, runJob } from '../src/bulk';
import { createSandbox, generateDataset } from '../src/sandbox';
import { BENCH_DATASET, benchIds, ownProcess, wrongProgress, type Service } from './bulk-data';
import { writeKeepingEarlierRuns } from './history';
import { FETCH_PATH, OWN_PATH, fetchDispatcher } from './network-paths';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const ONLY = process.env.BENCH_ONLY;
const ONLY_SHAPE = process.env.BENCH_SHAPE;
const CONCURRENCY = 2;

interface Shape {
  name: string;
  items: number;
  perRequest: number;
}
const SHAPES: Shape[] = [
  { name: '20 × 1000 items', items: 20_000, perRequest: 1000 },
  { name: '2,000 × 1 item', items: 2000, perRequest: 1 },
];

type Variant = 'plain' | 'engine' | 'journal' | 'plainFetch' | 'engineFetch' | 'journalFetch';
const VARIANTS: { key: Variant; name: string }[] = [
  { key: 'plain', name: 'plain undici loop (same requests, concurrency 2, shared agent)' },
  { key: 'engine', name: `bulk engine, no journal, ${OWN_PATH}` },
  { key: 'journal', name: `bulk engine + journal (as the extension runs it), ${OWN_PATH}` },
  { key: 'plainFetch', name: 'plain fetch loop (the same with the global fetch)' },
  { key: 'engineFetch', name: "bulk engine, no journal, VS Code's fetch" },
  { key: 'journalFetch', name: "bulk engine + journal (as the extension runs it), VS Code's fetch" },
];
const VIA_FETCH: Partial<Record<Variant, true>> = { plainFetch: true, engineFetch: true, journalFetch: true };

const PLACEMENTS: { key: string; name: string; start: () => Promise<Service> }[] = [
  { key: 'same', name: 'Service in the same process (as the built-in sandbox runs)', start: inProcess },
  { key: 'own', name: 'Service in a process of its own (as a service elsewhere)', start: ownProcess },
];

async function inProcess(): Promise<Service> {
  const sandbox = await createSandbox({ data: generateDataset(BENCH_DATASET) });
  return {
    url: sandbox.url,
    ids: benchIds(sandbox),
    check: async (ids, completed) => {
      const wrong = wrongProgress(sandbox, ids, completed);
      if (wrong !== undefined) throw new Error(wrong);
    },
    close: () => sandbox.close(),
  };
}

async function main(): Promise<void> {
  const loadAtStart = os.loadavg();
  const journalDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'wis-bench-'));
  const sections: string[] = [];
  try {
    for (const placement of PLACEMENTS.filter((p) => !ONLY || p.key === ONLY)) {
      sections.push(`## ${placement.name}`);
      process.stdout.write(`${sections[sections.length - 1]}\n\n`);
      const service = await placement.start();
      const token = await signIn(service.url);
      const agent = new Agent({ connections: 6, keepAliveTimeout: 4000 });
      const client = new ServiceClient({ baseUrl: service.url, dispatcher: agent, credentials: () => ({ kind: 'bearer', token }) });
      const fetcher = fetchDispatcher();
      const fetchClient = new ServiceClient({ baseUrl: service.url, dispatcher: fetcher, credentials: () => ({ kind: 'bearer', token }) });
      // Alternate true/false so that every run really changes every item.
      let completed = false;
      try {
        for (const shape of SHAPES.filter((sh) => !ONLY_SHAPE || sh.perRequest === Number(ONLY_SHAPE))) {
          const ids = service.ids.slice(0, shape.items);
          if (ids.length < shape.items) throw new Error(`the generated data set has only ${ids.length} items`);
          const run = async (v: Variant): Promise<number> => {
            const update = { setCompleted: (completed = !completed) };
            const t0 = performance.now();
            if (v === 'plain' || v === 'plainFetch') await plainLoop(service.url, token, v === 'plain' ? agent : undefined, ids, shape.perRequest, update);
            else {
              const plan = planJob({ workItemIds: ids, update, baseUrl: service.url, maxIdsPerRequest: shape.perRequest });
              const journal = v === 'journal' || v === 'journalFetch' ? await JobJournal.create(journalDir, { source: { uri: 'untitled:bench.workitems.json', text: JSON.stringify({ workItemIds: ids, update }) }, plan }) : undefined;
              const r = await runJob(plan, { client: VIA_FETCH[v] ? fetchClient : client, journal, concurrency: CONCURRENCY, requestsPerMinute: Infinity, minIntervalMs: 0, allowAboveServiceLimit: true });
              if (r.outcome !== 'succeeded') throw new Error(`${v}: ${r.outcome}: ${JSON.stringify(r.totals.requestsByState)} ${r.requests.find((q) => q.error)?.error?.message ?? ''}`);
            }
            const ms = performance.now() - t0;
            await service.check(ids, completed);
            return ms;
          };
          // Warm-up (JIT, connections): one round, not counted.
          for (const v of VARIANTS) await run(v.key);
          const samples = Object.fromEntries(VARIANTS.map((v) => [v.key, [] as number[]])) as Record<Variant, number[]>;
          for (let round = 0; round < ROUNDS; round++) {
            // Rotate the order each round so that no variant always runs first, backwards every other round.
            const order = VARIANTS.map((_, i) => VARIANTS[(i + round) % VARIANTS.length]!);
            if (round % 2) order.reverse();
            for (const v of order) samples[v.key].push(await run(v.key));
          }
          await fsp.rm(journalDir, { recursive: true, force: true });
          await fsp.mkdir(journalDir, { recursive: true });
          sections.push(section(shape, samples));
          process.stdout.write(`${sections[sections.length - 1]}\n\n`);
        }
      } finally {
        await client.close();
        await fetchClient.close();
        await fetcher.close();
        await agent.close();
        await service.close();
      }
    }
  } finally {
    await fsp.rm(journalDir, { recursive: true, force: true });
  }

  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const md = `# Bulk update benchmark

Command: \`npm run bench:bulk\` (bench/bulk.ts). All variants in one run, ${ROUNDS} rounds
after one warm-up round, interleaved (the order rotates each round and runs backwards every other round); the ratio is
each variant's time over the plain loop's time **of the same round**, then
min / median / max over the rounds.

- Date: ${new Date().toISOString()}
- Machine: ${cpu}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, ${os.platform()} ${os.release()}, Node ${process.version};
  load average at the start ${loadAtStart.map((x) => x.toFixed(2)).join(' / ')}, at the end ${os.loadavg().map((x) => x.toFixed(2)).join(' / ')} (1/5/15 min; other processes share the machine, so compare ratios)
- Service: the sandbox (createSandbox on 127.0.0.1), generated data set of 20,002 work items (seed 42),
  placed two ways (sections below): in the benchmark's process, as the extension's built-in
  sandbox runs (the service's work and the client's share one thread: every millisecond of
  the client counts), and in a process of its own, as a service elsewhere would be.
- Update: \`{"setCompleted": true|false}\` alternately, so every run changes every item (checked after each run).
- Like with like: the same requests, **concurrency 2** in every variant (two workers on
  one queue), **one shared undici Agent**, planning inside the timed region (the engine's
  planJob; the plain loop builds the same paths), pacing off. The engine parses and checks
  each response's known members and records every state; the plain loop only
  JSON.parses the body.
- "+ journal" is what the extension runs: the job file is created (written, fsynced) inside
  the timed region; each request is on disk as \`sent\` (change log, fdatasync) before it
  leaves: each mark also marks the next request in the queue (and one-item requests up to
  32 items), renewed (its fdatasync under way) while earlier marked ones leave, and every
  request writes its own \`sent\` line as it leaves; each outcome is appended with the next
  line (a 1000-item answer as the bytes that arrived) and fsynced with the next mark; at the
  end the log is fdatasynced and hard-linked as the job's responses file (the responses are
  not serialized again) and the job file is rewritten (fsync, rename, fsync of the directory).
- Journal directory: ${os.tmpdir()} on the machine's disk (ext4 / virtio).
- Two network paths for the engine's ServiceClient, in the same rounds: the **${OWN_PATH}** (the shared undici
  Agent: outside VS Code, and in VS Code with workItemStudio.network.proxy or caFile set) and **${FETCH_PATH}**
  (the ServiceClient given \`new FetchDispatcher(globalThis.fetch)\`, what the extension uses in VS Code by default),
  beside a plain loop on the global fetch (the same requests, fetch + JSON.parse; Node's fetch has its own pool).

${sections.join('\n\n')}
`;
  if (ONLY || ONLY_SHAPE) return; // a partial run is not recorded
  writeKeepingEarlierRuns(path.join(__dirname, 'results', 'bulk.md'), md);
}

function section(shape: Shape, samples: Record<Variant, number[]>): string {
  const rows = VARIANTS.map((v) => {
    const ms = samples[v.key];
    const ratios = ms.map((x, i) => x / samples.plain[i]!);
    const toFetch = VIA_FETCH[v.key] && v.key !== 'plainFetch' ? statsX(ms.map((x, i) => x / samples.plainFetch[i]!)) : '';
    return `| ${v.name} | ${stats(ms, 0)} | ${v.key === 'plain' ? '1.00×' : statsX(ratios)} | ${toFetch} | ${ms.map((x) => x.toFixed(0)).join(', ')} |`;
  });
  return [
    `### ${shape.name} (${(shape.items / shape.perRequest).toLocaleString('en')} requests)`,
    '',
    '| variant | time ms: min / median / max | ratio to the plain (undici) loop, same round: min / median / max | ratio to the plain fetch loop, same round | samples (ms) |',
    '|---|---:|---:|---:|---|',
    ...rows,
  ].join('\n');
}

function sorted(xs: number[]): number[] {
  return [...xs].sort((a, b) => a - b);
}
function stats(xs: number[], digits: number): string {
  const s = sorted(xs);
  return `${s[0]!.toFixed(digits)} / ${s[Math.floor(s.length / 2)]!.toFixed(digits)} / ${s[s.length - 1]!.toFixed(digits)}`;
}
function statsX(xs: number[]): string {
  const s = sorted(xs);
  return `${s[0]!.toFixed(2)}× / **${s[Math.floor(s.length / 2)]!.toFixed(2)}×** / ${s[s.length - 1]!.toFixed(2)}×`;
}

/** The same requests, two at a time from one queue, through the shared agent; only JSON.parse of each body. */
/** Without an agent: the same with the global fetch. */
async function plainLoop(url: string, token: string, agent: Agent | undefined, ids: readonly string[], perRequest: number, update: object): Promise<void> {
  const paths: string[] = [];
  for (let i = 0; i < ids.length; i += perRequest) paths.push(workItemsPath(ids.slice(i, i + perRequest)));
  const body = JSON.stringify(update);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < paths.length) {
      const p = paths[next++]!;
      const init = { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' }, body } as const;
      let status: number;
      let text: string;
      if (agent) {
        const res = await request(`${url}${p}`, { ...init, dispatcher: agent });
        status = res.statusCode;
        text = await res.body.text();
      } else {
        const res = await fetch(`${url}${p}`, init);
        status = res.status;
        text = await res.text();
      }
      if (status !== 200) throw new Error(`plain loop: ${status} ${text.slice(0, 200)}`);
      JSON.parse(text);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

async function signIn(url: string): Promise<string> {
  const client = new ServiceClient({ baseUrl: url });
  try {
    return await client.signIn('admin', 'password');
  } finally {
    await client.close();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
