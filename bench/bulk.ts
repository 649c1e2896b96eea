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
//
// Run: npm run bench:bulk   (writes bench/results/bulk.md)
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

type Variant = 'plain' | 'engine' | 'journal';
const VARIANTS: { key: Variant; name: string }[] = [
  { key: 'plain', name: 'plain undici loop (same requests, concurrency 2, shared agent)' },
  { key: 'engine', name: 'bulk engine, no journal' },
  { key: 'journal', name: 'bulk engine + journal (as the extension runs it)' },
];

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
      // Alternate true/false so that every run really changes every item.
      let completed = false;
      try {
        for (const shape of SHAPES.filter((sh) => !ONLY_SHAPE || sh.perRequest === Number(ONLY_SHAPE))) {
          const ids = service.ids.slice(0, shape.items);
          if (ids.length < shape.items) throw new Error(`the generated data set has only ${ids.length} items`);
          const run = async (v: Variant): Promise<number> => {
            const update = { setCompleted: (completed = !completed) };
            const t0 = performance.now();
            if (v === 'plain') await plainLoop(service.url, token, agent, ids, shape.perRequest, update);
            else {
              const plan = planJob({ workItemIds: ids, update, baseUrl: service.url, maxIdsPerRequest: shape.perRequest });
              const journal = v === 'journal' ? await JobJournal.create(journalDir, { source: { uri: 'untitled:bench.workitems.json', text: JSON.stringify({ workItemIds: ids, update }) }, plan }) : undefined;
              const r = await runJob(plan, { client, journal, concurrency: CONCURRENCY, requestsPerMinute: Infinity, minIntervalMs: 0, allowAboveServiceLimit: true });
              if (r.outcome !== 'succeeded') throw new Error(`${v}: ${r.outcome}: ${JSON.stringify(r.totals.requestsByState)} ${r.requests.find((q) => q.error)?.error?.message ?? ''}`);
            }
            const ms = performance.now() - t0;
            await service.check(ids, completed);
            return ms;
          };
          // Warm-up (JIT, connections): one round, not counted.
          for (const v of VARIANTS) await run(v.key);
          const samples: Record<Variant, number[]> = { plain: [], engine: [], journal: [] };
          for (let round = 0; round < ROUNDS; round++) {
            // Rotate the order each round so that no variant always runs first.
            const order = VARIANTS.map((_, i) => VARIANTS[(i + round) % VARIANTS.length]!);
            for (const v of order) samples[v.key].push(await run(v.key));
          }
          await fsp.rm(journalDir, { recursive: true, force: true });
          await fsp.mkdir(journalDir, { recursive: true });
          sections.push(section(shape, samples));
          process.stdout.write(`${sections[sections.length - 1]}\n\n`);
        }
      } finally {
        await client.close();
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
after one warm-up round, interleaved (the order rotates each round); the ratio is
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

${sections.join('\n\n')}
`;
  if (ONLY || ONLY_SHAPE) return; // a partial run is not recorded
  await fsp.mkdir(path.join(__dirname, 'results'), { recursive: true });
  await fsp.writeFile(path.join(__dirname, 'results', 'bulk.md'), md);
}

function section(shape: Shape, samples: Record<Variant, number[]>): string {
  const rows = VARIANTS.map((v) => {
    const ms = samples[v.key];
    const ratios = ms.map((x, i) => x / samples.plain[i]!);
    return `| ${v.name} | ${stats(ms, 0)} | ${v.key === 'plain' ? '1.00×' : statsX(ratios)} | ${ms.map((x) => x.toFixed(0)).join(', ')} |`;
  });
  return [
    `### ${shape.name} (${(shape.items / shape.perRequest).toLocaleString('en')} requests)`,
    '',
    '| variant | time ms: min / median / max | ratio to the plain loop, same round: min / median / max | samples (ms) |',
    '|---|---:|---:|---|',
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
async function plainLoop(url: string, token: string, agent: Agent, ids: readonly string[], perRequest: number, update: object): Promise<void> {
  const paths: string[] = [];
  for (let i = 0; i < ids.length; i += perRequest) paths.push(workItemsPath(ids.slice(i, i + perRequest)));
  const body = JSON.stringify(update);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < paths.length) {
      const p = paths[next++]!;
      const res = await request(`${url}${p}`, {
        method: 'PUT',
        dispatcher: agent,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
        body,
      });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`plain loop: ${res.statusCode} ${text.slice(0, 200)}`);
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
