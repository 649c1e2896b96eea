// Benchmark: Send as shipped against its paced floor, in one run, interleaved.
//
//   floor: the calls that must happen before the result view, and nothing else: the
//          GET batches of the values before, then the PUTs of the update, one after
//          another under ONE pacer at the configured rate (600 a minute: 100 ms apart),
//          with undici.request and JSON.parse (nothing checked, nothing kept).
//   send:  what Send does up to the result view, on ONE SharedPacing as
//          src/changes/jobs/running.ts runs it (every call of the Send takes its turn on
//          one pacer): the values before through readValues (one read: the drift check
//          compares this same read with the preview's), the journal created and the
//          snapshot of the values before written (on disk before the first update), then
//          runJob with its journal. The reads after are not waited for: the result view
//          shows first and the values after fill it in.
//   send + after: the same, then the reads of the values after on the same pacing (the
//          whole Send), for reference.
// Every call's start is recorded at the client: the closest two starts of a Send are reported.
//
// The sandbox runs in a process of its own (bench/bulk-server.ts), as a service elsewhere.
// 20 × 1000 items by default (BENCH_ITEMS, BENCH_RUNS).
//
// Run: npx tsx bench/send.ts   (writes bench/results/send.md, earlier runs kept below)
import * as fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { authorize } from '../src/api/auth';
import { ServiceClient } from '../src/api/client';
import { DEFAULT_REQUESTS_PER_MINUTE } from '../src/api/limits';
import { Pacer, SharedPacing, intervalFor, systemClock } from '../src/api/pacer';
import { readQuery, workItemsPath } from '../src/api/paths';
import { planWorkItemReads, readWorkItems } from '../src/api/reads';
import { JobJournal, planJob, runJob } from '../src/bulk';
import { fieldsToRead } from '../src/bulk/effects';
import { readValues, type WorkItemReader } from '../src/bulk/readValues';
import { sendCalls } from '../src/bulk/sendCalls';
import { writeSnapshot } from '../src/bulk/snapshot';
import { ownProcess } from './bulk-data';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 20_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const RPM = DEFAULT_REQUESTS_PER_MINUTE;
const CREDS = { kind: 'basic', loginName: 'admin', password: 'password' } as const;

function stats(xs: number[]): { min: number; median: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0]!, median: s[Math.floor(s.length / 2)]!, max: s[s.length - 1]! };
}

async function main(): Promise<void> {
  const service = await ownProcess();
  const ids = service.ids.slice(0, ITEMS);
  const client = new ServiceClient({ baseUrl: service.url, credentials: () => CREDS });
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  const auth = authorize(CREDS, 'GET', '/workitem/workItems');
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'bench-send-'));
  const base = service.url.replace(/\/+$/, '');
  let round = 0;
  const body = () => ({ fields: { Description: `send ${round}` } });
  const plan0 = planJob({ workItemIds: ids, update: body(), baseUrl: service.url });
  const fields = fieldsToRead(plan0.parts[0]!.update);
  const readBatches = planWorkItemReads(service.url, ids, fields);
  const query = readQuery(fields);
  const calls = sendCalls(plan0, { readValues: true, requestsPerMinute: RPM });

  const floor = async (): Promise<number> => {
    const pacer = new Pacer(intervalFor(RPM, 0), systemClock);
    const t0 = performance.now();
    for (const b of readBatches) {
      await pacer.acquire();
      const r = await request(`${base}/workitem/workItems/${b.join(',')}?${query}`, { dispatcher: agent, headers: { authorization: auth.header! } });
      JSON.parse(await r.body.text());
    }
    const plan = planJob({ workItemIds: ids, update: body(), baseUrl: service.url });
    for (const req of plan.requests) {
      await pacer.acquire();
      const r = await request(`${base}${workItemsPath(req.ids)}`, {
        method: 'PUT',
        dispatcher: agent,
        headers: { authorization: auth.header!, 'content-type': 'application/json' },
        body: JSON.stringify(plan.parts[0]!.update),
      });
      const text = await r.body.text();
      if (r.statusCode !== 200) throw new Error(`floor: PUT answered ${r.statusCode}: ${text.slice(0, 200)}`);
      JSON.parse(text);
    }
    return performance.now() - t0;
  };

  // The client with every call's start recorded (the pacer's clock, Date.now).
  let starts: number[] = [];
  const timed = Object.create(client) as ServiceClient;
  timed.getWorkItems = (...a) => (starts.push(Date.now()), client.getWorkItems(...a));
  timed.updateWorkItems = (...a) => (starts.push(Date.now()), client.updateWorkItems(...a));
  const minGaps: number[] = [];
  let pacing = new SharedPacing();
  const reader: WorkItemReader = (i, f, o) => readWorkItems(timed, i, { fields: f, requestsPerMinute: RPM, signal: o.signal, pacing });
  const send = async (withAfter: boolean): Promise<{ toResult: number; total: number }> => {
    starts = [];
    const t0 = performance.now();
    pacing = new SharedPacing(); // one time line for this Send's reads and updates
    const r = await (async () => {
      const plan = planJob({ workItemIds: ids, update: body(), baseUrl: service.url });
      const before = await readValues(reader, plan.ids, plan.parts[0]!.update);
      const journal = await JobJournal.create(dir, { source: { uri: 'bench:send', text: '' }, plan, valuesBefore: 'expected' });
      await writeSnapshot(journal.file, { kind: 'before', jobId: journal.id, fields: before.fields, items: before.items, missing: before.missing });
      const result = await runJob(plan, { client: timed, journal, requestsPerMinute: RPM, pacing });
      if (result.outcome !== 'succeeded') throw new Error(`send: ${result.outcome}`);
      const toResult = performance.now() - t0;
      if (withAfter) {
        const applied = result.requests.filter((x) => x.state === 'succeeded').flatMap((x) => x.ids);
        await readValues(reader, applied, plan.parts[0]!.update);
      }
      return { toResult, total: performance.now() - t0 };
    })();
    if (starts.length !== (withAfter ? calls.total : calls.readsBefore + calls.updates)) throw new Error(`send: ${starts.length} calls, ${calls.total} announced`);
    minGaps.push(Math.min(...starts.slice(1).map((x, i) => x - starts[i]!)));
    return r;
  };

  // Warm-up, then rounds rotating the order.
  await floor();
  await send(false);
  const t = { floor: [] as number[], send: [] as number[], sendAfter: [] as number[] };
  const ratios: number[] = [];
  const orders = [
    ['floor', 'send', 'sendAfter'],
    ['send', 'sendAfter', 'floor'],
    ['sendAfter', 'floor', 'send'],
  ] as const;
  for (let i = 0; i < RUNS; i++) {
    const times: Record<string, number> = {};
    for (const which of orders[i % orders.length]!) {
      round++;
      if (which === 'floor') times.floor = await floor();
      else if (which === 'send') times.send = (await send(false)).toResult;
      else times.sendAfter = (await send(true)).total;
    }
    t.floor.push(times.floor!);
    t.send.push(times.send!);
    t.sendAfter.push(times.sendAfter!);
    ratios.push(times.send! / times.floor!);
  }
  await client.close();
  await agent.close();
  await service.close();
  await fsp.rm(dir, { recursive: true, force: true });

  const f = (n: number) => n.toFixed(0);
  const row = (name: string, xs: number[]) => {
    const s = stats(xs);
    return `| ${name} | ${f(s.min)} | ${f(s.median)} | ${f(s.max)} |`;
  };
  const r = stats(ratios);
  const ra = stats(t.sendAfter.map((x, i) => x / t.floor[i]!));
  const md = `# Send as shipped vs its paced floor

\`npx tsx bench/send.ts\` (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} CPUs shared with other work (load average ${os.loadavg()[0]!.toFixed(1)} at the end), Node ${process.version}, ${RUNS} interleaved rounds after a warm-up, the order rotating).

${ids.length} work items, body \`{"fields":{"Description":…}}\`, ${RPM} calls a minute (${intervalFor(RPM, 0)} ms apart); the sandbox in a
process of its own. The confirmation announces ${calls.total} calls (${calls.readsBefore} reads before, ${calls.updates} updates,
${calls.readsAfter} reads after), about ${(calls.pacedMs / 1000).toFixed(1)} s, the results after about ${(calls.toResultMs / 1000).toFixed(1)} s.

- *floor*: the ${calls.readsBefore} reads that must come first, then the ${calls.updates} updates, under one pacer, undici + JSON.parse.
- *send*: Send up to its result view, every call on one pacer (SharedPacing, as the extension runs it): the values before
  (readValues; the drift check uses this same read), the journal and the snapshot on disk, runJob with its journal, at the
  same rate. The reads after come once the view shows.
- *send + reads after*: the same followed by the reads of the values after on the same pacer (the whole Send: ${calls.total} calls,
  announced as about ${(calls.pacedMs / 1000).toFixed(1)} s).
- Calls counted at the client in every Send round: as many as announced. Closest two call starts within a Send (Date.now,
  the pacer's clock): min ${Math.min(...minGaps)} ms, median ${stats(minGaps).median} ms (the interval is ${intervalFor(RPM, 0)} ms).

| ms | min | median | max |
|---|---:|---:|---:|
${row('floor', t.floor)}
${row('send (to the result view)', t.send)}
${row('send + reads after', t.sendAfter)}
| ratio send / floor (per round) | ${r.min.toFixed(2)} | ${r.median.toFixed(2)} | ${r.max.toFixed(2)} |
| ratio send + reads after / floor | ${ra.min.toFixed(2)} | ${ra.median.toFixed(2)} | ${ra.max.toFixed(2)} |

Target: send / floor median ≤ 1.1: ${r.median <= 1.1 ? 'met' : 'not met'}.
`;
  const out = path.join(__dirname, 'results', 'send.md');
  const earlier = fs.existsSync(out) ? fs.readFileSync(out, 'utf8').replace(/^# /m, '## Earlier run: ') : '';
  fs.writeFileSync(out, earlier ? `${md.trimEnd()}\n\n${earlier}` : md);
  process.stdout.write(md);
}

void main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
