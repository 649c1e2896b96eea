// A Send makes exactly the calls its confirmation announces (src/bulk/sendCalls.ts),
// counted on the wire: a counting proxy in front of the sandbox sees the reads of the
// values before (one read: the values to undo and the drift check share it), the
// updates, and the reads of the values after, over real HTTP (undici).
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ServiceClient } from '../../src/api/client';
import { readWorkItems } from '../../src/api/reads';
import { planJob, runJob } from '../../src/bulk';
import { readValues, type WorkItemReader } from '../../src/bulk/readValues';
import { sendCalls } from '../../src/bulk/sendCalls';
import type { Sandbox } from '../../src/sandbox';
import type { UpdateWorkItemsBody } from '../../src/schema/api';
import { ADMIN, scheduledTaskIds, skippingClock, startSandbox } from './bulk-helpers';

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
    const values = await readValues(reader, plan.ids, plan.update, { subItems });
    assert.equal(values.missing.length, 0);
    const before = count() - start;
    const result = await runJob(plan, { client, ...FAST, clock: skippingClock() });
    assert.equal(result.outcome, 'succeeded');
    const updates = count() - start - before;
    const applied = result.requests.filter((r) => r.state === 'succeeded').flatMap((r) => r.ids);
    await readValues(reader, applied, plan.update, { subItems });
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

  it('with reading values off, a Send is its updates alone', () => {
    const plan = planJob({ workItemIds: ['1', '2', '3'], update: { moveScheduleDays: 1 }, baseUrl: proxy.url });
    const c = sendCalls(plan, { readValues: false, requestsPerMinute: 1500 });
    assert.deepEqual([c.readsBefore, c.updates, c.readsAfter, c.total, c.exact, c.intervalMs, c.pacedMs], [0, 1, 0, 1, true, 40, 0]);
  });
});
