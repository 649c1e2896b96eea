// Where the bulk journal's time goes: the same jobs as bench/bulk.ts (the engine with
// and without its journal, concurrency 2, one shared agent, the service in a process of
// its own), with the journal's fdatasyncs counted and timed and the time the requests
// waited for their `sent` marks summed. The counting wraps the calls, so the times here
// are not the benchmark's (bench/bulk.ts has no instrumentation): read the breakdown.
//
// Run: npx tsx bench/journal-costs.ts   (BENCH_SHAPE=1|1000, BENCH_ROUNDS=12; BENCH_TIMELINE=1
// also prints the last job's timeline: each mark, outcome and fdatasync, in ms from its start)
// Prints a table; results are quoted in bench/results/bulk.md.
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Agent } from 'undici';
import { ServiceClient } from '../src/api/client';
import { JobJournal, planJob, runJob } from '../src/bulk';
import { ownProcess } from './bulk-data';

const PER_REQUEST = Number(process.env.BENCH_SHAPE ?? 1);
const ITEMS = PER_REQUEST === 1 ? 2000 : 20_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 12);

const counted = { fsyncs: 0, fsyncMs: 0, marks: 0, markWaitMs: 0 };
/** The current job's events (BENCH_TIMELINE), in ms from its start. */
const timeline: { at: number; what: string }[] = [];
let jobStart = 0;
const note = (at: number, what: string): void => void (process.env.BENCH_TIMELINE && timeline.push({ at: at - jobStart, what }));

/** Counts the journal's fdatasyncs (it calls `fs.fdatasync` from node:fs's shared module object). */
function countFsyncs(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fsModule = require('node:fs') as { fdatasync: (fd: number, cb: (e: NodeJS.ErrnoException | null) => void) => void };
  const original = fsModule.fdatasync;
  fsModule.fdatasync = (fd, cb) => {
    const t0 = performance.now();
    original(fd, (e) => {
      counted.fsyncs++;
      counted.fsyncMs += performance.now() - t0;
      note(t0, `fdatasync, ${(performance.now() - t0).toFixed(2)} ms`);
      cb(e);
    });
  };
}

/** Sums how long each `sent` mark kept its request waiting. */
function countMarkWaits(): void {
  const proto = JobJournal.prototype as unknown as { updateRequest: (index: number, patch: { state?: string }, ...rest: unknown[]) => Promise<void> };
  const original = proto.updateRequest;
  proto.updateRequest = function (this: JobJournal, index, patch, ...rest) {
    const t0 = performance.now();
    const p = original.call(this, index, patch, ...rest);
    if (patch.state === 'sent') {
      void p.then(() => {
        counted.marks++;
        counted.markWaitMs += performance.now() - t0;
        note(t0, `request ${index} marked sent, waited ${(performance.now() - t0).toFixed(2)} ms`);
      });
    } else note(t0, `request ${index} ${String(patch.state)}`);
    return p;
  };
}

async function main(): Promise<void> {
  countFsyncs();
  countMarkWaits();
  const service = await ownProcess();
  const bare = new ServiceClient({ baseUrl: service.url });
  const token = await bare.signIn('admin', 'password');
  await bare.close();
  const agent = new Agent({ connections: 6, keepAliveTimeout: 4000 });
  const client = new ServiceClient({ baseUrl: service.url, dispatcher: agent, credentials: () => ({ kind: 'bearer', token }) });
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'wis-journal-costs-'));
  const ids = service.ids.slice(0, ITEMS);
  const times: Record<'engine' | 'journal', number[]> = { engine: [], journal: [] };
  let completed = false;
  try {
    for (let round = 0; round <= ROUNDS; round++) {
      for (const variant of round % 2 ? (['engine', 'journal'] as const) : (['journal', 'engine'] as const)) {
        const update = { setCompleted: (completed = !completed) };
        if (round === 1 && variant === 'journal') Object.assign(counted, { fsyncs: 0, fsyncMs: 0, marks: 0, markWaitMs: 0 }); // round 0 warms up
        const t0 = performance.now();
        if (variant === 'journal') {
          jobStart = t0;
          timeline.length = 0;
        }
        const plan = planJob({ workItemIds: ids, update, baseUrl: service.url, maxIdsPerRequest: PER_REQUEST });
        const journal = variant === 'journal' ? await JobJournal.create(dir, { source: { uri: 'untitled:bench.workitems.json', text: JSON.stringify({ workItemIds: ids, update }) }, plan }) : undefined;
        const r = await runJob(plan, { client, journal, concurrency: 2, requestsPerMinute: Infinity, minIntervalMs: 0, allowAboveServiceLimit: true });
        if (r.outcome !== 'succeeded') throw new Error(`${variant}: ${r.outcome}`);
        if (round > 0) times[variant].push(performance.now() - t0);
        await service.check(ids, completed);
      }
    }
  } finally {
    await client.close();
    await agent.close();
    await service.close();
    await fsp.rm(dir, { recursive: true, force: true });
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const perJob = (n: number): string => (n / ROUNDS).toFixed(1);
  process.stdout.write(
    [
      `${ITEMS / PER_REQUEST} × ${PER_REQUEST} item(s), service in its own process, ${ROUNDS} rounds (medians; instrumented)`,
      '',
      '| engine ms | engine + journal ms | difference ms | fdatasyncs a job | their mean ms | their sum ms a job | `sent` marks a job | requests waiting on them, ms a job |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|',
      `| ${median(times.engine).toFixed(0)} | ${median(times.journal).toFixed(0)} | ${(median(times.journal) - median(times.engine)).toFixed(0)} | ${perJob(counted.fsyncs)} | ${(counted.fsyncMs / Math.max(1, counted.fsyncs)).toFixed(2)} | ${perJob(counted.fsyncMs)} | ${perJob(counted.marks)} | ${perJob(counted.markWaitMs)} |`,
      '',
      ...(process.env.BENCH_TIMELINE ? ['The last job (engine + journal) from its start, ms:', '', ...timeline.sort((a, b) => a.at - b.at).map((e) => `    ${e.at.toFixed(1).padStart(7)}  ${e.what}`), ''] : []),
    ].join('\n'),
  );
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
