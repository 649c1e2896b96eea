import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ServiceClient } from '../../src/api/client';
import { planJob, runJob } from '../../src/bulk';
import type { Sandbox } from '../../src/sandbox';
import { ADMIN, addDays, scheduledTaskIds, skippingClock, snapshotDates, startSandbox, storedItem } from './bulk-helpers';

// A 429/503 answered to an update is a trust assumption about
// the server. A real HTTP gateway stands between the client and the sandbox: it
// forwards a PUT, lets the sandbox apply it, and then answers 503 itself.
const FAST = { requestsPerMinute: Infinity, minIntervalMs: 0, allowAboveServiceLimit: true } as const;

interface Gateway {
  url: string;
  /** PUTs the sandbox received through the gateway. */
  forwarded: number;
  /** PUTs answered 503/429 by the gateway. */
  refused: number;
  close(): Promise<void>;
}

/**
 * A real HTTP gateway in front of the sandbox. For the first `refuse` PUTs it answers
 * `status` (with `Retry-After: 0` when `retryAfter`) — after forwarding the PUT to the
 * sandbox and waiting for its answer when `forwardFirst`, else without forwarding.
 */
async function startGateway(sandbox: Sandbox, o: { refuse: number; status: 503 | 429; retryAfter: boolean; forwardFirst: boolean }): Promise<Gateway> {
  const target = new URL(sandbox.origin);
  const g = { forwarded: 0, refused: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const isPut = req.method === 'PUT';
      const refuse = isPut && g.refused < o.refuse;
      const answerRefusal = (): void => {
        g.refused++;
        res.writeHead(o.status, { 'content-type': 'text/plain', ...(o.retryAfter ? { 'retry-after': '0' } : {}) });
        res.end(o.status === 503 ? 'Service Unavailable (gateway)' : 'Too Many Requests (gateway)');
      };
      if (refuse && !o.forwardFirst) return answerRefusal();
      const headers = { ...req.headers, host: target.host, 'content-length': String(body.length) };
      const up = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (ur) => {
        const upChunks: Buffer[] = [];
        ur.on('data', (c: Buffer) => upChunks.push(c));
        ur.on('end', () => {
          if (isPut) g.forwarded++;
          if (refuse) return answerRefusal();
          const h = { ...ur.headers };
          delete h['transfer-encoding'];
          res.writeHead(ur.statusCode ?? 502, h);
          res.end(Buffer.concat(upChunks));
        });
      });
      up.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      up.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const base = new URL(sandbox.url);
  return {
    url: `http://127.0.0.1:${port}${base.pathname}`.replace(/\/$/, ''),
    get forwarded() {
      return g.forwarded;
    },
    get refused() {
      return g.refused;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe('bulk updates answered 429/503: retried only when the service is trusted for it', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox(300);
  });
  after(async () => {
    await sandbox.close();
  });

  async function shiftedBy(ids: readonly string[], before: ReturnType<typeof snapshotDates>): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const id of ids) {
      const item = await storedItem(sandbox, id);
      const was = before.get(id)!;
      let days = -1;
      for (let d = 0; d <= 10; d++) if (item.plannedStartDate === addDays(was.plannedStartDate, d)) days = d;
      out.set(id, days);
    }
    return out;
  }

  for (const variant of [
    { status: 503 as const, retryAfter: true },
    { status: 503 as const, retryAfter: false },
    { status: 429 as const, retryAfter: true },
  ]) {
    it(`a gateway that forwards a PUT and then answers ${variant.status}${variant.retryAfter ? ' with Retry-After' : ' without Retry-After'}: outcome unknown, not retried, 0 items applied twice`, async () => {
      const offset = variant.status === 429 ? 60 : variant.retryAfter ? 0 : 30;
      const ids = scheduledTaskIds(sandbox, offset + 30).slice(offset, offset + 30);
      const before = snapshotDates(sandbox, ids);
      const gw = await startGateway(sandbox, { refuse: 2, status: variant.status, retryAfter: variant.retryAfter, forwardFirst: true });
      const client = new ServiceClient({ baseUrl: gw.url, credentials: () => ADMIN });
      try {
        const plan = planJob({ workItemIds: ids, update: { moveScheduleDays: 2 }, baseUrl: gw.url, maxIdsPerRequest: 10 });
        const r = await runJob(plan, { client, ...FAST, clock: skippingClock(), concurrency: 1, retryBudget: 10 });
        assert.deepEqual(r.requests.map((q) => q.state), ['unknown', 'unknown', 'succeeded']);
        for (const q of r.requests.slice(0, 2)) {
          assert.equal(q.status, variant.status);
          assert.equal(q.attempts, 1, 'not retried');
          assert.equal(q.error!.note, 'refused-update-not-retried');
          assert.match(q.error!.message, /does not prove it was not applied/);
        }
        assert.equal(r.totals.retries, 0);
        assert.deepEqual(r.refusedUpdates, { trusted: false, requests: 2, retries: 0 });
        assert.equal(gw.forwarded, 3, 'each request reached the sandbox once');
        const shifted = await shiftedBy(ids, before);
        const twice = [...shifted].filter(([, d]) => d !== 2);
        assert.deepEqual(twice, [], 'every item shifted exactly once (0 double-applied)');
      } finally {
        await client.close();
        await gw.close();
      }
    });
  }

  it('with retryRefusedUpdates on, a 503 from a service that did not apply the PUT is retried, applied once, and the result says the service was trusted', async () => {
    const ids = scheduledTaskIds(sandbox, 120).slice(90, 120);
    const before = snapshotDates(sandbox, ids);
    const gw = await startGateway(sandbox, { refuse: 2, status: 503, retryAfter: true, forwardFirst: false });
    const client = new ServiceClient({ baseUrl: gw.url, credentials: () => ADMIN });
    try {
      const plan = planJob({ workItemIds: ids, update: { moveScheduleDays: 3 }, baseUrl: gw.url, maxIdsPerRequest: 10 });
      const r = await runJob(plan, { client, ...FAST, clock: skippingClock(), concurrency: 1, retryBudget: 10, retryRefusedUpdates: true });
      assert.equal(r.outcome, 'succeeded');
      assert.equal(r.requests[0]!.attempts, 3);
      assert.equal(r.totals.retries, 2);
      assert.deepEqual(r.refusedUpdates, { trusted: true, requests: 2, retries: 2 });
      assert.equal(gw.forwarded, 3);
      const shifted = await shiftedBy(ids, before);
      assert.deepEqual([...shifted].filter(([, d]) => d !== 3), []);
    } finally {
      await client.close();
      await gw.close();
    }
  });

  it('with retryRefusedUpdates on, a 503 without Retry-After is retried after a backoff', async () => {
    const ids = scheduledTaskIds(sandbox, 140).slice(120, 140);
    const before = snapshotDates(sandbox, ids);
    const gw = await startGateway(sandbox, { refuse: 1, status: 503, retryAfter: false, forwardFirst: false });
    const client = new ServiceClient({ baseUrl: gw.url, credentials: () => ADMIN });
    try {
      const plan = planJob({ workItemIds: ids, update: { moveScheduleDays: 1 }, baseUrl: gw.url, maxIdsPerRequest: 10 });
      const clock = skippingClock();
      const r = await runJob(plan, { client, ...FAST, clock, concurrency: 1, retryRefusedUpdates: true });
      assert.equal(r.outcome, 'succeeded');
      assert.deepEqual(r.refusedUpdates, { trusted: true, requests: 1, retries: 1 });
      assert.ok(clock.slept.some((ms) => ms >= 500), `a backoff was waited (slept ${clock.slept.join(', ')})`);
      const shifted = await shiftedBy(ids, before);
      assert.deepEqual([...shifted].filter(([, d]) => d !== 1), []);
    } finally {
      await client.close();
      await gw.close();
    }
  });
});
