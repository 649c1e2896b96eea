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
// The floor and both Sends run on each network path (bench/network-paths.ts): the extension's own
// undici dispatcher, and VS Code's fetch (the default in VS Code; Node's fetch here).
//
// The sandbox runs in a process of its own (bench/bulk-server.ts), as a service elsewhere.
// 20 × 1000 items by default (BENCH_ITEMS, BENCH_RUNS).
//
// Run: npx tsx bench/send.ts   (writes bench/results/send.md, earlier runs kept below)
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
import { writeKeepingEarlierRuns } from './history';
import { FETCH_PATH, OWN_PATH, fetchDispatcher } from './network-paths';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 20_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const RPM = DEFAULT_REQUESTS_PER_MINUTE;
const CREDS = { kind: 'basic', loginName: 'admin', password: 'password' } as const;

function stats(xs: number[]): { min: number; median: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0]!, median: s[Math.floor(s.length / 2)]!, max: s[s.length - 1]! };
}

async function main(): Promise<void> {
  const loadBefore = os.loadavg()[0]!;
  const service = await ownProcess();
  const ids = service.ids.slice(0, ITEMS);
  const fetcher = fetchDispatcher();
  const clients = {
    own: new ServiceClient({ baseUrl: service.url, credentials: () => CREDS }),
    fetch: new ServiceClient({ baseUrl: service.url, dispatcher: fetcher, credentials: () => CREDS }),
  };
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

  /** One plain call: undici.request on the agent, or the global fetch; the answer parsed, nothing checked. */
  const plainCall = async (viaFetch: boolean, url: string, init: { method?: 'PUT'; headers: Record<string, string>; body?: string }): Promise<void> => {
    let status: number;
    let text: string;
    if (viaFetch) {
      const r = await fetch(url, init);
      status = r.status;
      text = await r.text();
    } else {
      const r = await request(url, { ...init, dispatcher: agent });
      status = r.statusCode;
      text = await r.body.text();
    }
    if (status !== 200) throw new Error(`floor: ${init.method ?? 'GET'} answered ${status}: ${text.slice(0, 200)}`);
    JSON.parse(text);
  };
  const floor = async (viaFetch: boolean): Promise<number> => {
    const pacer = new Pacer(intervalFor(RPM, 0), systemClock);
    const t0 = performance.now();
    for (const b of readBatches) {
      await pacer.acquire();
      await plainCall(viaFetch, `${base}/workitem/workItems/${b.join(',')}?${query}`, { headers: { authorization: auth.header! } });
    }
    const plan = planJob({ workItemIds: ids, update: body(), baseUrl: service.url });
    for (const req of plan.requests) {
      await pacer.acquire();
      await plainCall(viaFetch, `${base}${workItemsPath(req.ids)}`, {
        method: 'PUT',
        headers: { authorization: auth.header!, 'content-type': 'application/json' },
        body: JSON.stringify(plan.parts[0]!.update),
      });
    }
    return performance.now() - t0;
  };

  /** Send on one client, with every call's start recorded (the pacer's clock, Date.now). */
  const sendOn = (client: ServiceClient) => {
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
    return { send, minGaps };
  };
  const own = sendOn(clients.own);
  const viaFetch = sendOn(clients.fetch);

  // Warm-up of each, then rounds turning the order.
  await floor(false);
  await floor(true);
  await own.send(false);
  await viaFetch.send(false);
  const kinds = {
    floor: () => floor(false),
    floorFetch: () => floor(true),
    send: async () => (await own.send(false)).toResult,
    sendFetch: async () => (await viaFetch.send(false)).toResult,
    sendAfter: async () => (await own.send(true)).total,
    sendAfterFetch: async () => (await viaFetch.send(true)).total,
  };
  type Kind = keyof typeof kinds;
  const names = Object.keys(kinds) as Kind[];
  const t = Object.fromEntries(names.map((k) => [k, [] as number[]])) as Record<Kind, number[]>;
  for (let i = 0; i < RUNS; i++) {
    // The order turns by one each round and runs backwards every other round.
    const order = names.map((_, k) => names[(i + k) % names.length]!);
    if (i % 2) order.reverse();
    for (const which of order) {
      round++;
      t[which].push(await kinds[which]());
    }
  }
  await clients.own.close();
  await clients.fetch.close();
  await fetcher.close();
  await agent.close();
  await service.close();
  await fsp.rm(dir, { recursive: true, force: true });

  const f = (n: number) => n.toFixed(0);
  const row = (name: string, xs: number[]) => {
    const s = stats(xs);
    return `| ${name} | ${f(s.min)} | ${f(s.median)} | ${f(s.max)} |`;
  };
  const ratio = (a: Kind, b: Kind) => stats(t[a].map((x, i) => x / t[b][i]!));
  const ratioRow = (name: string, a: Kind, b: Kind) => {
    const r = ratio(a, b);
    return `| ${name} | ${r.min.toFixed(2)} | ${r.median.toFixed(2)} | ${r.max.toFixed(2)} |`;
  };
  const gaps = (g: number[]) => `min ${Math.min(...g)} ms, median ${stats(g).median} ms`;
  const met = (a: Kind) => (ratio(a, 'floor').median <= 1.1 ? 'met' : 'not met');
  const md = `# Send as shipped vs its paced floor

\`npx tsx bench/send.ts\` (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} CPUs shared with other work (load average ${loadBefore.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end), Node ${process.version}, ${RUNS} interleaved rounds after a warm-up of each, the order turning by one each round and reversed every other round).

${ids.length} work items, body \`{"fields":{"Description":…}}\`, ${RPM} calls a minute (${intervalFor(RPM, 0)} ms apart); the sandbox in a
process of its own. The confirmation announces ${calls.total} calls (${calls.readsBefore} reads before, ${calls.updates} updates,
${calls.readsAfter} reads after), about ${(calls.pacedMs / 1000).toFixed(1)} s, the results after about ${(calls.toResultMs / 1000).toFixed(1)} s.

Two network paths for the Send, in the same run: the **${OWN_PATH}** (the ServiceClient's own undici Agent:
outside VS Code, and in VS Code with workItemStudio.network.proxy or caFile set) and **${FETCH_PATH}**:
the ServiceClient given \`new FetchDispatcher(globalThis.fetch)\`, what Send uses in VS Code by default.

- *floor*: the ${calls.readsBefore} reads that must come first, then the ${calls.updates} updates, under one pacer, undici + JSON.parse
  (the baseline of the target, as before); *floor, fetch*: the same calls with the global fetch + JSON.parse.
- *send*: Send up to its result view, every call on one pacer (SharedPacing, as the extension runs it): the values before
  (readValues; the drift check uses this same read), the journal and the snapshot on disk, runJob with its journal, at the
  same rate. The reads after come once the view shows.
- *send + reads after*: the same followed by the reads of the values after on the same pacer (the whole Send: ${calls.total} calls,
  announced as about ${(calls.pacedMs / 1000).toFixed(1)} s).
- Calls counted at the client in every Send round: as many as announced. Closest two call starts within a Send (Date.now,
  the pacer's clock; the interval is ${intervalFor(RPM, 0)} ms): ${OWN_PATH} ${gaps(own.minGaps)}; VS Code's fetch ${gaps(viaFetch.minGaps)}.

| ms | min | median | max |
|---|---:|---:|---:|
${row('floor (undici)', t.floor)}
${row('floor, fetch', t.floorFetch)}
${row(`send (to the result view), ${OWN_PATH}`, t.send)}
${row("send (to the result view), VS Code's fetch", t.sendFetch)}
${row(`send + reads after, ${OWN_PATH}`, t.sendAfter)}
${row("send + reads after, VS Code's fetch", t.sendAfterFetch)}
${ratioRow(`ratio send / floor (per round), ${OWN_PATH}`, 'send', 'floor')}
${ratioRow("ratio send / floor (per round), VS Code's fetch", 'sendFetch', 'floor')}
${ratioRow("ratio send / floor, fetch (per round), VS Code's fetch", 'sendFetch', 'floorFetch')}
${ratioRow(`ratio send + reads after / floor, ${OWN_PATH}`, 'sendAfter', 'floor')}
${ratioRow("ratio send + reads after / floor, VS Code's fetch", 'sendAfterFetch', 'floor')}
${ratioRow('ratio floor, fetch / floor', 'floorFetch', 'floor')}

Target: send / floor median ≤ 1.1: ${OWN_PATH} ${met('send')}; VS Code's fetch ${met('sendFetch')}.
`;
  writeKeepingEarlierRuns(path.join(__dirname, 'results', 'send.md'), md);
  process.stdout.write(md);
}

void main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
