// Where the bulk journal's time goes: the same jobs as bench/bulk.ts (the engine with
// and without its journal, concurrency 2, one shared agent, the service in a process of
// its own), with the journal's fdatasyncs counted and timed and the time the requests
// waited for their `sent` marks summed. The counting wraps the calls, so the times here
// are not the benchmark's (bench/bulk.ts has no instrumentation): read the breakdown.
//
// BENCH_PARTS=1 adds two variants that switch parts of the journal off (for diagnosis
// only: such a journal is not crash safe): "no fdatasync" (the fdatasyncs and fsyncs
// answer at once without reaching the disk) and "no fdatasync, no writes" (the writes to
// its files are skipped too). Every variant also records the CPU time the whole machine
// spent during the job (all cores, from /proc/stat on Linux): on a machine whose cores
// the client and the service already keep busy, work added anywhere (also in the
// kernel, for a flush to the disk) shows as time.
//
// Run: npx tsx bench/journal-costs.ts   (BENCH_SHAPE=1|1000, BENCH_ROUNDS=12, BENCH_PARTS=1;
// BENCH_TIMELINE=1 also prints the last job's timeline: each mark, outcome and fdatasync,
// in ms from its start)
// Prints a table; results are quoted in bench/results/bulk.md.
import * as fs from 'node:fs';
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

type Variant = 'engine' | 'journal' | 'noSync' | 'noWrite';
const LABEL: Record<Variant, string> = { engine: 'engine', journal: 'engine + journal', noSync: 'journal, no fdatasync', noWrite: 'journal, no fdatasync, no writes' };
const VARIANTS: Variant[] = process.env.BENCH_PARTS ? ['engine', 'journal', 'noSync', 'noWrite'] : ['engine', 'journal'];
/** The parts switched off in the current job (BENCH_PARTS). */
const off = { sync: false, write: false };
/** The fdatasyncs and mark waits are counted in the rounds of 'journal' after the first. */
let counting = false;
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
    if (off.sync) return void setImmediate(() => cb(null));
    const t0 = performance.now();
    original(fd, (e) => {
      if (!counting) return cb(e);
      counted.fsyncs++;
      counted.fsyncMs += performance.now() - t0;
      note(t0, `fdatasync, ${(performance.now() - t0).toFixed(2)} ms`);
      cb(e);
    });
  };
}

/** BENCH_PARTS: the journal's fsyncs and writes go through node:fs's shared module object; these switch them off. */
function switchableParts(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const m = require('node:fs') as {
    fsync: (fd: number, cb: (e: NodeJS.ErrnoException | null) => void) => void;
    writevSync: (fd: number, views: readonly NodeJS.ArrayBufferView[]) => number;
    writeSync: (fd: number, data: NodeJS.ArrayBufferView, ...rest: unknown[]) => number;
  };
  const { fsync, writevSync, writeSync } = m;
  m.fsync = (fd, cb) => (off.sync ? void setImmediate(() => cb(null)) : fsync(fd, cb));
  m.writevSync = (fd, views) => (off.write ? views.reduce((n, v) => n + v.byteLength, 0) : writevSync(fd, views));
  m.writeSync = (fd, data, ...rest) => (off.write && typeof data !== 'string' ? data.byteLength : writeSync(fd, data, ...rest));
}

/** Busy CPU time of the whole machine so far, ms (user, nice, system, irq, softirq of every core); undefined off Linux. */
function machineBusyMs(): number | undefined {
  try {
    const f = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
    const tick = 10; // USER_HZ is 100 on Linux
    return ((f[0] ?? 0) + (f[1] ?? 0) + (f[2] ?? 0) + (f[5] ?? 0) + (f[6] ?? 0)) * tick;
  } catch {
    return undefined;
  }
}

/** Sums how long each `sent` mark kept its request waiting. */
function countMarkWaits(): void {
  const proto = JobJournal.prototype as unknown as { updateRequest: (index: number, patch: { state?: string }, ...rest: unknown[]) => Promise<void> };
  const original = proto.updateRequest;
  proto.updateRequest = function (this: JobJournal, index, patch, ...rest) {
    const t0 = performance.now();
    const p = original.call(this, index, patch, ...rest);
    if (!counting) return p;
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
  const times = Object.fromEntries(VARIANTS.map((v) => [v, [] as number[]])) as Record<Variant, number[]>;
  const ratios = Object.fromEntries(VARIANTS.map((v) => [v, [] as number[]])) as Record<Variant, number[]>;
  const busy = Object.fromEntries(VARIANTS.map((v) => [v, [] as number[]])) as Record<Variant, number[]>;
  let completed = false;
  if (process.env.BENCH_PARTS) switchableParts();
  try {
    for (let round = 0; round <= ROUNDS; round++) {
      const order = VARIANTS.map((_, k) => VARIANTS[(k + round) % VARIANTS.length]!); // rotates each round
      const thisRound: Partial<Record<Variant, number>> = {};
      for (const variant of order) {
        const update = { setCompleted: (completed = !completed) };
        counting = round > 0 && variant === 'journal'; // round 0 warms up
        off.sync = variant === 'noSync' || variant === 'noWrite';
        off.write = variant === 'noWrite';
        const cpu0 = machineBusyMs();
        const t0 = performance.now();
        if (variant === 'journal') {
          jobStart = t0;
          timeline.length = 0;
        }
        try {
          const plan = planJob({ workItemIds: ids, update, baseUrl: service.url, maxIdsPerRequest: PER_REQUEST });
          const journal = variant !== 'engine' ? await JobJournal.create(dir, { source: { uri: 'untitled:bench.workitems.json', text: JSON.stringify({ workItemIds: ids, update }) }, plan }) : undefined;
          const r = await runJob(plan, { client, journal, concurrency: 2, requestsPerMinute: Infinity, minIntervalMs: 0, allowAboveServiceLimit: true });
          if (r.outcome !== 'succeeded') throw new Error(`${variant}: ${r.outcome}`);
        } finally {
          counting = false;
          off.sync = off.write = false;
        }
        const ms = performance.now() - t0;
        const cpu1 = machineBusyMs();
        if (round > 0) {
          times[variant].push(ms);
          thisRound[variant] = ms;
          if (cpu0 !== undefined && cpu1 !== undefined) busy[variant].push(cpu1 - cpu0);
        }
        await service.check(ids, completed);
      }
      if (round > 0) for (const v of VARIANTS) ratios[v].push(thisRound[v]! / thisRound.engine!);
    }
  } finally {
    await client.close();
    await agent.close();
    await service.close();
    await fsp.rm(dir, { recursive: true, force: true });
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const perJob = (n: number): string => (n / ROUNDS).toFixed(1);
  const cpu = (v: Variant): string => (busy[v].length > 0 ? median(busy[v]).toFixed(0) : 'n/a');
  process.stdout.write(
    [
      `${ITEMS / PER_REQUEST} × ${PER_REQUEST} item(s), service in its own process, ${ROUNDS} rounds (medians; instrumented)`,
      '',
      '| engine ms | engine + journal ms | difference ms | fdatasyncs a job | their mean ms | their sum ms a job | `sent` marks a job | requests waiting on them, ms a job |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|',
      `| ${median(times.engine).toFixed(0)} | ${median(times.journal).toFixed(0)} | ${(median(times.journal) - median(times.engine)).toFixed(0)} | ${perJob(counted.fsyncs)} | ${(counted.fsyncMs / Math.max(1, counted.fsyncs)).toFixed(2)} | ${perJob(counted.fsyncMs)} | ${perJob(counted.marks)} | ${perJob(counted.markWaitMs)} |`,
      '',
      '| variant | time ms: min / median / max | ratio to the engine, same round: min / median / max | busy CPU of the machine, ms a job (median) |',
      '|---|---:|---:|---:|',
      ...VARIANTS.map(
        (v) =>
          `| ${LABEL[v]} | ${Math.min(...times[v]).toFixed(0)} / ${median(times[v]).toFixed(0)} / ${Math.max(...times[v]).toFixed(0)} | ${Math.min(...ratios[v]).toFixed(2)}× / **${median(ratios[v]).toFixed(2)}×** / ${Math.max(...ratios[v]).toFixed(2)}× | ${cpu(v)} |`,
      ),
      '',
      ...(process.env.BENCH_TIMELINE ? ['The last job (engine + journal) from its start, ms:', '', ...timeline.sort((a, b) => a.at - b.at).map((e) => `    ${e.at.toFixed(1).padStart(7)}  ${e.what}`), ''] : []),
    ].join('\n'),
  );
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
