// A Send makes exactly the calls its confirmation announces (src/bulk/sendCalls.ts),
// counted on the wire: a counting proxy in front of the sandbox sees the reads of the
// values before (one read: the values to undo and the drift check share it), the
// updates, and the reads of the values after, over real HTTP (undici).
import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { ServiceClient } from '../../src/api/client';
import { SharedPacing, type Clock } from '../../src/api/pacer';
import { readWorkItems } from '../../src/api/reads';
import { JobJournal, planChange, planJob, runJob } from '../../src/bulk';
import { readValues, type WorkItemReader } from '../../src/bulk/readValues';
import { sendCalls } from '../../src/bulk/sendCalls';
import { writeSnapshot } from '../../src/bulk/snapshot';
import type { Sandbox } from '../../src/sandbox';
import type { UpdateWorkItemsBody } from '../../src/schema/api';
import { ADMIN, scheduledTaskIds, skippingClock, startSandbox, virtualClock } from './bulk-helpers';

const FAST = { requestsPerMinute: Infinity, minIntervalMs: 0, allowAboveServiceLimit: true } as const;

interface Counting {
  url: string;
  calls: { method: string; path: string }[];
  close(): Promise<void>;
}

/** A proxy that forwards every request to the sandbox and records its method and path. */
async function countingProxy(sandbox: Sandbox): Promise<Counting> {
  const target = new URL(sandbox.origin);
  const calls: { method: string; path: string }[] = [];
  const server = http.createServer((req, res) => {
    calls.push({ method: req.method ?? '', path: (req.url ?? '').split('?')[0]! });
    const out = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}${new URL(sandbox.url).pathname}`;
  return {
    url,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The client with the start of every read and update recorded on `clock` (as the call is made). */
function timed(client: ServiceClient, clock: Clock): { client: ServiceClient; starts: { method: 'GET' | 'PUT'; at: number }[] } {
  const starts: { method: 'GET' | 'PUT'; at: number }[] = [];
  const wrapped = Object.create(client) as ServiceClient;
  wrapped.getWorkItems = (...a) => {
    starts.push({ method: 'GET', at: clock.now() });
    return client.getWorkItems(...a);
  };
  wrapped.updateWorkItems = (...a) => {
    starts.push({ method: 'PUT', at: clock.now() });
    return client.updateWorkItems(...a);
  };
  return { client: wrapped, starts };
}

describe('bulk: a Send makes the calls it announces (counted on the sandbox)', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let proxy: Counting;
  let client: ServiceClient;

  before(async () => {
    sandbox = await startSandbox(3000);
    proxy = await countingProxy(sandbox);
    client = new ServiceClient({ baseUrl: proxy.url, credentials: () => ADMIN });
  });
  after(async () => {
    await client.close();
    await proxy.close();
    await sandbox.close();
  });

  /** Send as the extension runs it, minus the UI: values before (one read), the updates, the values after of the items applied. */
  async function send(ids: string[], update: UpdateWorkItemsBody, maxUrlLength: number): Promise<{ before: number; updates: number; after: number; announced: ReturnType<typeof sendCalls> }> {
    const plan = planJob({ workItemIds: ids, update, baseUrl: proxy.url, maxUrlLength });
    const announced = sendCalls(plan, { readValues: true, requestsPerMinute: 600 });
    const reader: WorkItemReader = (i, f, o) => readWorkItems(client, i, { fields: f, maxUrlLength, requestsPerMinute: 1500, clock: skippingClock(), signal: o.signal });
    const subItems = (id: string, q: { fields?: readonly string[]; depth?: number }, o: { signal?: AbortSignal }) => client.getSubItems(id, q, o);
    const count = (): number => proxy.calls.length;
    const start = count();
    const values = await readValues(reader, plan.ids, plan.parts[0]!.update, { subItems });
    assert.equal(values.missing.length, 0);
    const before = count() - start;
    const result = await runJob(plan, { client, ...FAST, clock: skippingClock() });
    assert.equal(result.outcome, 'succeeded');
    const updates = count() - start - before;
    const applied = result.requests.filter((r) => r.state === 'succeeded').flatMap((r) => r.ids);
    await readValues(reader, applied, plan.parts[0]!.update, { subItems });
    const after = count() - start - before - updates;
    const puts = proxy.calls.slice(start).filter((c) => c.method === 'PUT').length;
    assert.equal(puts, updates, 'the updates are the PUTs');
    return { before, updates, after, announced };
  }

  it('2,200 items in several batches: reads before, updates and reads after, each exactly as announced', async () => {
    const ids = scheduledTaskIds(sandbox, 2200);
    // A small URL budget: several batches of each, the reads (their URLs carry `fields=`) at least as many as the updates.
    const r = await send(ids, { fields: { Description: 'counted' }, moveScheduleDays: 1 }, 1500);
    assert.ok(r.announced.exact);
    assert.ok(r.announced.updates > 3 && r.announced.readsBefore >= r.announced.updates, `${r.announced.readsBefore} reads, ${r.announced.updates} updates`);
    assert.equal(r.before, r.announced.readsBefore, 'reads before');
    assert.equal(r.updates, r.announced.updates, 'updates');
    assert.equal(r.after, r.announced.readsAfter, 'reads after');
    assert.equal(r.before + r.updates + r.after, r.announced.total);
    // Paced at 600 a minute: 100 ms between call starts; the result view waits for the reads before and the updates only.
    assert.equal(r.announced.intervalMs, 100);
    assert.equal(r.announced.pacedMs, (r.announced.total - 1) * 100);
    assert.equal(r.announced.toResultMs, (r.announced.readsBefore + r.announced.updates - 1) * 100);
  });

  it('one item: one read before, one update, one read after', async () => {
    const [id] = scheduledTaskIds(sandbox, 1);
    const r = await send([id!], { moveScheduleDays: 1 }, 8000);
    assert.deepEqual([r.before, r.updates, r.after, r.announced.total], [1, 1, 1, 3]);
  });

  it('a body that reads sub-items announces a floor, and makes at least that many calls', async () => {
    const ids = scheduledTaskIds(sandbox, 30);
    const r = await send(ids, { setCompleted: true }, 8000);
    assert.equal(r.announced.exact, false);
    assert.ok(r.before + r.updates + r.after >= r.announced.total, `${r.before + r.updates + r.after} calls, at least ${r.announced.total} announced`);
    assert.equal(r.updates, r.announced.updates);
  });

  /**
   * Send as src/changes/jobs/running.ts runs it, on one SharedPacing: the values before (one
   * read: the drift check compares this same read with the preview's), the journal and the
   * snapshot on disk, the updates with their journal, the result, then the reads after.
   */
  async function pacedSend(ids: string[], shared: boolean): Promise<{ starts: { method: 'GET' | 'PUT'; at: number }[]; wire: number; toResult: number; announced: ReturnType<typeof sendCalls> }> {
    const clock = virtualClock();
    const t = timed(client, clock);
    const maxUrlLength = 1500;
    const plan = planJob({ workItemIds: ids, update: { fields: { Description: 'paced' } }, baseUrl: proxy.url, maxUrlLength });
    const announced = sendCalls(plan, { readValues: true, requestsPerMinute: 600 });
    // One pacing for the whole Send, given to every read and to the job (none: each paces alone).
    const pacing = shared ? new SharedPacing(clock) : undefined;
    const reader: WorkItemReader = (i, f, o) => readWorkItems(t.client, i, { fields: f, maxUrlLength, requestsPerMinute: 600, clock, signal: o.signal, ...(pacing ? { pacing } : {}) });
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'send-paced-'));
    const wire0 = proxy.calls.length;
    const run = async (): Promise<number> => {
      const t0 = clock.now();
      const before = await readValues(reader, plan.ids, plan.parts[0]!.update);
      const journal = await JobJournal.create(dir, { source: { uri: 'test:send', text: '' }, plan, valuesBefore: 'expected' });
      await writeSnapshot(journal.file, { kind: 'before', jobId: journal.id, fields: before.fields, items: before.items, missing: before.missing });
      const result = await runJob(plan, { client: t.client, journal, requestsPerMinute: 600, clock, ...(pacing ? { pacing } : {}) });
      assert.equal(result.outcome, 'succeeded');
      const toResult = clock.now() - t0;
      await readValues(reader, result.requests.flatMap((r) => r.ids), plan.parts[0]!.update);
      return toResult;
    };
    try {
      const toResult = await run();
      return { starts: t.starts, wire: proxy.calls.length - wire0, toResult, announced };
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  }

  it('every call of a Send (reads before, updates, reads after) goes through one pacer: starts never closer than the interval, as many calls as announced, the result at the paced floor', async () => {
    const r = await pacedSend(scheduledTaskIds(sandbox, 2500), true);
    const a = r.announced;
    assert.ok(a.exact && a.readsBefore > 1 && a.updates > 1, `${a.readsBefore} reads, ${a.updates} updates`);
    // Counted on the wire (the proxy) and at the client: exactly what the confirmation announces, in its order.
    assert.equal(r.wire, a.total, 'calls on the wire');
    assert.deepEqual(
      r.starts.map((s) => s.method),
      [...Array<string>(a.readsBefore).fill('GET'), ...Array<string>(a.updates).fill('PUT'), ...Array<string>(a.readsAfter).fill('GET')],
    );
    // 600 a minute: no two calls start closer than 100 ms, the seams between reads and updates included.
    const gaps = r.starts.slice(1).map((s, i) => s.at - r.starts[i]!.at);
    assert.ok(gaps.every((g) => g >= a.intervalMs), `gaps ${gaps.join(', ')}`);
    // The whole Send takes what it announces, and the result comes after the reads before and the updates, paced.
    assert.equal(r.starts.at(-1)!.at - r.starts[0]!.at, a.pacedMs, 'first to last start');
    const floor = (a.readsBefore + a.updates - 1) * a.intervalMs;
    assert.equal(a.toResultMs, floor);
    assert.ok(r.toResult >= floor && r.toResult <= 1.1 * floor, `result after ${r.toResult} ms, paced floor ${floor} ms`);
  });

  it('without the shared pacing the reads and the updates are paced apart, and their seams come too close (what SharedPacing prevents)', async () => {
    const r = await pacedSend(scheduledTaskIds(sandbox, 2500), false);
    const gaps = r.starts.slice(1).map((s, i) => s.at - r.starts[i]!.at);
    assert.ok(gaps.some((g) => g < r.announced.intervalMs), `gaps ${gaps.join(', ')}`);
  });

  it('with reading values off, a Send is its updates alone', () => {
    const plan = planJob({ workItemIds: ['1', '2', '3'], update: { moveScheduleDays: 1 }, baseUrl: proxy.url });
    const c = sendCalls(plan, { readValues: false, requestsPerMinute: 1500 });
    assert.deepEqual([c.readsBefore, c.updates, c.readsAfter, c.total, c.exact, c.intervalMs, c.pacedMs], [0, 1, 0, 1, true, 40, 0]);
  });

  it('each add reads its parent\'s sub-items before it is sent: counted among the reads before, a floor (its parent\'s level is read too)', () => {
    const add = (parentId: string) => ({ workItemIds: [], update: {}, kind: 'add' as const, add: { parentId, item: { fields: { ItemTypeId: '41', Name: 'n' } } } });
    const plan = planChange({ requests: [add('10'), add('11')], baseUrl: proxy.url });
    const c = sendCalls(plan, { readValues: false, requestsPerMinute: 1500 });
    assert.deepEqual([c.readsBefore, c.updates, c.readsAfter, c.total, c.exact], [2, 2, 0, 4, false]);
  });
});
