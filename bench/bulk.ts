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
// Every variant must answer 200 for every request; the sandbox's state is checked.
//
// Run: npm run bench:bulk   (writes bench/results/bulk.md)
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { ServiceClient } from '../src/api/client';
import { workItemsPath } from '../src/api/paths';
import { JobJournal, planJob, runJob } from '../src/bulk';
import { createSandbox, generateDataset, type Sandbox } from '../src/sandbox';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
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

async function main(): Promise<void> {
  const loadAtStart = os.loadavg();
  const data = generateDataset({ workItems: 20_002, users: 50, organizations: 5, processCategories: 0, seed: 42 });
  const sandbox = await createSandbox({ data });
  const allIds = sandbox.data.workItems.filter((w) => w.parentId !== null && !w.isDeleted).map((w) => w.id);
  const token = await signIn(sandbox);
  const journalDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'wis-bench-'));
  const agent = new Agent({ connections: 6, keepAliveTimeout: 4000 });
  const client = new ServiceClient({ baseUrl: sandbox.url, dispatcher: agent, credentials: () => ({ kind: 'bearer', token }) });
  // Alternate true/false so that every run really changes every item.
  let completed = false;
  const sections: string[] = [];
  try {
    for (const shape of SHAPES) {
      const ids = allIds.slice(0, shape.items);
      if (ids.length < shape.items) throw new Error(`the generated data set has only ${ids.length} items`);
      const run = async (v: Variant): Promise<number> => {
        const update = { setCompleted: (completed = !completed) };
        const t0 = performance.now();
        if (v === 'plain') await plainLoop(sandbox, token, agent, ids, shape.perRequest, update);
        else {
          const plan = planJob({ workItemIds: ids, update, baseUrl: sandbox.url, maxIdsPerRequest: shape.perRequest });
          const journal = v === 'journal' ? await JobJournal.create(journalDir, { source: { uri: 'untitled:bench.workitems.json', text: JSON.stringify({ workItemIds: ids, update }) }, plan }) : undefined;
          const r = await runJob(plan, { client, journal, concurrency: CONCURRENCY, requestsPerMinute: Infinity, minIntervalMs: 0, allowAboveServiceLimit: true });
          if (r.outcome !== 'succeeded') throw new Error(`${v}: ${r.outcome}: ${JSON.stringify(r.totals.requestsByState)} ${r.requests.find((q) => q.error)?.error?.message ?? ''}`);
        }
        const ms = performance.now() - t0;
        checkState(sandbox, ids, completed);
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
      process.stdout.write(`${sections[sections.length - 1]}\n`);
    }
  } finally {
    await client.close();
    await agent.close();
    await sandbox.close();
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
- Service: the sandbox (createSandbox, same process, 127.0.0.1), generated data set of 20,002 work items (seed 42).
- Update: \`{"setCompleted": true|false}\` alternately, so every run changes every item (checked after each run).
- Like with like: the same requests, **concurrency 2** in every variant (two workers on
  one queue), **one shared undici Agent**, planning inside the timed region (the engine's
  planJob; the plain loop builds the same paths), pacing off. The engine parses and checks
  each response's known members and records every state; the plain loop only
  JSON.parses the body.
- "+ journal" is what the extension runs: the job file is created (written, fsynced) inside
  the timed region; each request is on disk as \`sent\` (change log, fdatasync) before it
  leaves: a 1000-item request by its own mark, one-item requests by a mark ahead covering
  up to 32 items, renewed (its fdatasync under way) while earlier marked ones leave; each
  outcome is appended with the next line and fsynced with the next mark; at the end the
  log is fdatasynced and hard-linked as the job's responses file (the responses are not
  serialized again) and the job file is rewritten (fsync, rename, fsync of the directory).
- Journal directory: ${os.tmpdir()} on the machine's disk (ext4 / virtio).

${sections.join('\n\n')}
`;
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
    `## ${shape.name} (${(shape.items / shape.perRequest).toLocaleString('en')} requests)`,
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
async function plainLoop(sandbox: Sandbox, token: string, agent: Agent, ids: readonly string[], perRequest: number, update: object): Promise<void> {
  const paths: string[] = [];
  for (let i = 0; i < ids.length; i += perRequest) paths.push(workItemsPath(ids.slice(i, i + perRequest)));
  const body = JSON.stringify(update);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < paths.length) {
      const p = paths[next++]!;
      const res = await request(`${sandbox.url}${p}`, {
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

async function signIn(sandbox: Sandbox): Promise<string> {
  const client = new ServiceClient({ baseUrl: sandbox.url });
  try {
    return await client.signIn('admin', 'password');
  } finally {
    await client.close();
  }
}

function checkState(sandbox: Sandbox, ids: readonly string[], completed: boolean): void {
  const want = new Set(ids);
  const wrong = sandbox.data.workItems.filter((w) => want.has(w.id) && w.tracksProgress && w.actualProgress !== (completed ? 100 : 0));
  if (wrong.length > 0) throw new Error(`${wrong.length} item(s) do not have the expected progress after the run (e.g. ${wrong[0]!.id})`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
