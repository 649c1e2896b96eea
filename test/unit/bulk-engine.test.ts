import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { planJob, runJob, type JobResult, type RequestResult } from '../../src/bulk';
import type { Sandbox } from '../../src/sandbox';
import { addDays, clientFor, fault, skippingClock, recording, scheduledTaskIds, snapshotDates, startSandbox, storedItem } from './bulk-helpers';

// The engine against the real sandbox over real HTTP, with injected faults.
// Pacing is turned off here (it has its own tests on a fake clock).
const FAST = { requestsPerMinute: Infinity, minIntervalMs: 0, allowAboveServiceLimit: true } as const;

describe('bulk engine against the sandbox', function () {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox(400);
  });
  after(async () => {
    await sandbox.close();
  });
  afterEach(async () => {
    await fetch(`${sandbox.origin}/_sandbox/faults`, { method: 'DELETE' });
  });

  async function assertShiftedOnce(ids: readonly string[], before: ReturnType<typeof snapshotDates>, days: number): Promise<void> {
    for (const id of ids) {
      const item = await storedItem(sandbox, id);
      const was = before.get(id)!;
      assert.equal(item.plannedStartDate, addDays(was.plannedStartDate, days), `item ${id}: start ${was.plannedStartDate} → ${item.plannedStartDate}, expected a shift of ${days} day(s)`);
      assert.equal(item.plannedFinishDate, addDays(was.plannedFinishDate, days), `item ${id}: end ${was.plannedFinishDate} → ${item.plannedFinishDate}`);
    }
  }

  it('updates every item once and reports each request with its response', async () => {
    const ids = scheduledTaskIds(sandbox, 30);
    const before = snapshotDates(sandbox, ids);
    const client = clientFor(sandbox);
    const progress: number[] = [];
    try {
      const plan = planJob({ workItemIds: [...ids, ids[0]!], update: { moveScheduleDays: 2 }, baseUrl: sandbox.url, maxIdsPerRequest: 7 });
      const r = await runJob(plan, { client, ...FAST, clock: skippingClock(), concurrency: 3, onProgress: (p) => progress.push(p.itemsDone) });
      assert.equal(r.outcome, 'succeeded');
      assert.equal(r.requests.length, 5);
      assert.equal(r.totals.itemsByState.succeeded, 30);
      assert.equal(r.totals.changedItems, 30);
      for (const req of r.requests) {
        assert.equal(req.state, 'succeeded');
        assert.equal(req.status, 200);
        assert.equal(req.attempts, 1);
        assert.ok(typeof req.durationMs === 'number');
        assert.deepEqual(req.response!.items.map((i) => i.id).sort(), [...req.ids].sort());
        assert.ok(Array.isArray(req.response!.affectedItems));
      }
      assert.equal(progress[progress.length - 1], 30);
      await assertShiftedOnce(ids, before, 2);
    } finally {
      await client.close();
    }
  });

  it('partial failure: one batch refused (4xx), the others applied; the report has both', async () => {
    const ids = scheduledTaskIds(sandbox, 59).slice(30); // 29 items: batches of 10, 9 + a bad ID, 10
    const before = snapshotDates(sandbox, ids);
    const client = clientFor(sandbox);
    try {
      // The second batch names an item that does not exist: the service refuses the whole request.
      const input = [...ids.slice(0, 10), ...ids.slice(10, 19), 'no-such-item', ...ids.slice(19)];
      const plan = planJob({ workItemIds: input, update: { moveScheduleDays: -1 }, baseUrl: sandbox.url, maxIdsPerRequest: 10 });
      const r = await runJob(plan, { client, ...FAST });
      assert.equal(r.outcome, 'partial');
      assert.deepEqual(r.requests.map((q) => q.state), ['succeeded', 'failed', 'succeeded']);
      const failed = r.requests[1]!;
      assert.ok(failed.status! >= 400 && failed.status! < 500, `status ${failed.status}`);
      assert.equal(failed.error!.kind, 'http');
      assert.ok(failed.error!.messages.length > 0);
      assert.ok(failed.error!.messages.some((m) => m.includes('no-such-item')), failed.error!.messages.join(' | '));
      assert.ok(failed.error!.codes.length > 0);
      assert.equal(r.totals.itemsByState.failed, 10);
      assert.equal(r.totals.itemsByState.succeeded, 20);
      await assertShiftedOnce([...ids.slice(0, 10), ...ids.slice(19)], before, -1);
      await assertShiftedOnce(ids.slice(10, 19), before, 0); // atomic: nothing of the refused batch applied
    } finally {
      await client.close();
    }
  });

  it('a dropped connection after an applied moveScheduleDays is "unknown" and never shifts dates twice', async () => {
    const ids = scheduledTaskIds(sandbox, 80).slice(60);
    const before = snapshotDates(sandbox, ids);
    const client = clientFor(sandbox);
    try {
      await fault(sandbox, { dropAfterApply: true, method: 'PUT', pathContains: encodeURIComponent(ids[0]!) });
      const plan = planJob({ workItemIds: ids, update: { moveScheduleDays: 5 }, baseUrl: sandbox.url, maxIdsPerRequest: 10 });
      const rec = recording(client);
      const r = await runJob(plan, { client: rec, ...FAST, clock: skippingClock(), retryBudget: 10 });
      assert.equal(r.requests[0]!.state, 'unknown');
      assert.deepEqual(r.requests[0]!.ids, ids.slice(0, 10));
      assert.equal(r.requests[0]!.error!.kind, 'network');
      assert.match(r.requests[0]!.error!.message, /outcome is unknown/);
      assert.equal(r.requests[0]!.attempts, 1);
      assert.equal(r.requests[1]!.state, 'succeeded');
      assert.equal(r.outcome, 'partial');
      assert.equal(r.totals.itemsByState.unknown, 10);
      assert.equal(rec.calls.length, 2, 'the unknown request was not re-sent');
      assert.equal(r.totals.retries, 0);
      await assertShiftedOnce(ids, before, 5); // the sandbox applied it exactly once
    } finally {
      await client.close();
    }
  });

  it('a 5xx is "unknown" (not retried); 503 with Retry-After is retried when the service is trusted for it', async () => {
    const ids = scheduledTaskIds(sandbox, 100).slice(80);
    const before = snapshotDates(sandbox, ids);
    const client = clientFor(sandbox);
    try {
      await fault(sandbox, { status: 500, method: 'PUT', pathContains: encodeURIComponent(ids[0]!) });
      await fault(sandbox, { status: 503, retryAfterSeconds: 0, method: 'PUT', pathContains: encodeURIComponent(ids[10]!) });
      const plan = planJob({ workItemIds: ids, update: { moveScheduleDays: 1 }, baseUrl: sandbox.url, maxIdsPerRequest: 10 });
      const r = await runJob(plan, { client, ...FAST, clock: skippingClock(), concurrency: 1, retryRefusedUpdates: true });
      assert.equal(r.requests[0]!.state, 'unknown');
      assert.equal(r.requests[0]!.status, 500);
      assert.deepEqual(r.refusedUpdates, { trusted: true, requests: 1, retries: 1 });
      assert.deepEqual(r.requests[0]!.error!.messages, ['injected fault: status 500']);
      assert.equal(r.requests[1]!.state, 'succeeded');
      assert.equal(r.requests[1]!.attempts, 2);
      assert.equal(r.totals.retries, 1);
      await assertShiftedOnce(ids.slice(0, 10), before, 0); // the injected 500 applied nothing; it is still not replayed
      await assertShiftedOnce(ids.slice(10), before, 1);
    } finally {
      await client.close();
    }
  });

  it('429 with Retry-After is retried within the budget and applied once when the service is trusted for it', async () => {
    const ids = scheduledTaskIds(sandbox, 130).slice(100);
    const before = snapshotDates(sandbox, ids);
    const client = clientFor(sandbox);
    try {
      await fault(sandbox, { status: 429, retryAfterSeconds: 1, method: 'PUT', times: 2 });
      const plan = planJob({ workItemIds: ids, update: { moveScheduleDays: 3 }, baseUrl: sandbox.url, maxIdsPerRequest: 10 });
      const clock = skippingClock();
      const r = await runJob(plan, { client, ...FAST, concurrency: 1, retryBudget: 3, clock, retryRefusedUpdates: true });
      assert.equal(r.outcome, 'succeeded');
      assert.equal(r.totals.retries, 2);
      assert.equal(r.totals.retryBudgetLeft, 1);
      assert.equal(r.requests[0]!.attempts, 3);
      assert.ok(clock.slept.filter((ms) => ms > 900).length >= 2, `Retry-After of 1 s honoured (slept ${clock.slept.join(', ')})`);
      await assertShiftedOnce(ids, before, 3);
    } finally {
      await client.close();
    }
  });

  it('retry budget exhausted → failed with the 429, nothing applied; the budget is one per job', async () => {
    const ids = scheduledTaskIds(sandbox, 160).slice(130);
    const before = snapshotDates(sandbox, ids);
    const client = clientFor(sandbox);
    try {
      await fault(sandbox, { status: 429, retryAfterSeconds: 0, method: 'PUT', times: 100 });
      const plan = planJob({ workItemIds: ids, update: { moveScheduleDays: 3 }, baseUrl: sandbox.url, maxIdsPerRequest: 10 });
      const rec = recording(client);
      const r = await runJob(plan, { client: rec, ...FAST, clock: skippingClock(), concurrency: 1, retryBudget: 4, retryRefusedUpdates: true });
      assert.equal(r.outcome, 'partial');
      assert.deepEqual(r.requests.map((q) => q.state), ['failed', 'failed', 'failed']);
      assert.equal(rec.calls.length, 3 + 4, 'one attempt per request plus the job budget of 4, not 4 per request');
      assert.equal(r.totals.retries, 4);
      assert.equal(r.totals.retryBudgetLeft, 0);
      for (const q of r.requests) {
        assert.equal(q.status, 429);
        assert.equal(q.error!.note, 'retry-budget-exhausted');
        assert.deepEqual(q.error!.messages, ['injected fault: status 429']);
      }
      await assertShiftedOnce(ids, before, 0);
    } finally {
      await client.close();
    }
  });

  it('cancellation mid-job: in-flight aborted, nothing sent after the abort, unsent stay pending', async () => {
    const ids = scheduledTaskIds(sandbox, 220).slice(160);
    const before = snapshotDates(sandbox, ids);
    const client = clientFor(sandbox);
    try {
      await fault(sandbox, { latencyMs: 300, method: 'PUT', times: 100 });
      const plan = planJob({ workItemIds: ids, update: { moveScheduleDays: 7 }, baseUrl: sandbox.url, maxIdsPerRequest: 10 });
      const ac = new AbortController();
      const rec = recording(client, ac.signal);
      const r = await runJob(plan, {
        client: rec,
        ...FAST,
        clock: skippingClock(),
        concurrency: 2,
        signal: ac.signal,
        onProgress: (p) => {
          if (p.current?.state === 'succeeded') ac.abort();
        },
      });
      assert.equal(r.outcome, 'cancelled');
      assert.ok(rec.calls.every((c) => !c.abortedBefore), 'a request was sent after the abort');
      assert.equal(rec.calls.length, 2);
      const states = r.requests.map((q) => q.state);
      assert.equal(states.filter((s) => s === 'succeeded').length, 1);
      // The other in-flight request was aborted after it was sent: its outcome is unknown.
      const inFlight = r.requests.find((q) => q.state === 'cancelled');
      assert.ok(inFlight, `states ${states.join(',')}`);
      assert.equal(inFlight.error!.kind, 'cancelled');
      assert.deepEqual(states.slice(2), ['pending', 'pending', 'pending', 'pending']);
      assert.equal(r.totals.itemsByState.pending, 40);
      // Never-sent requests changed nothing.
      const pendingIds = r.requests.filter((q) => q.state === 'pending').flatMap((q) => q.ids);
      await new Promise((res) => setTimeout(res, 400)); // let the sandbox finish the aborted one
      await assertShiftedOnce(pendingIds, before, 0);
    } finally {
      await client.close();
    }
  });

  it('an abort before the job starts sends nothing', async () => {
    const client = clientFor(sandbox);
    try {
      const plan = planJob({ workItemIds: scheduledTaskIds(sandbox, 3), update: { moveScheduleDays: 1 }, baseUrl: sandbox.url, maxIdsPerRequest: 1 });
      const ac = new AbortController();
      ac.abort();
      const rec = recording(client);
      const r = await runJob(plan, { client: rec, ...FAST, clock: skippingClock(), signal: ac.signal });
      assert.equal(r.outcome, 'cancelled');
      assert.equal(rec.calls.length, 0);
      assert.deepEqual(r.requests.map((q) => q.state), ['pending', 'pending', 'pending']);
    } finally {
      await client.close();
    }
  });
});

describe('bulk engine: every error shape reaches the result readably', () => {
  // One raw HTTP server answering with whatever a case needs.
  let server: http.Server;
  let base: string;
  let answer: (req: http.IncomingMessage, res: http.ServerResponse) => void = () => undefined;
  before(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => answer(req, res));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  async function runOne(headersMs?: number): Promise<{ result: JobResult; req: RequestResult }> {
    const client = clientFor({ url: base }, { headersMs });
    try {
      const plan = planJob({ workItemIds: ['1', '2'], update: { setCompleted: true }, baseUrl: base });
      const result = await runJob(plan, { client, ...FAST, clock: skippingClock(), retryBudget: 1 });
      return { result, req: result.requests[0]! };
    } finally {
      await client.close();
    }
  }

  const json = (status: number, body: unknown, headers: Record<string, string> = {}) => (_q: http.IncomingMessage, res: http.ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

  it('400 with [{message, code}]: failed, status, every message and code', async () => {
    answer = json(400, [{ message: 'The name is empty.', code: 'NAME_EMPTY' }, { message: 'The end date is earlier than the start date.', code: 'END_BEFORE_START' }]);
    const { req } = await runOne();
    assert.equal(req.state, 'failed');
    assert.equal(req.status, 400);
    assert.deepEqual(req.error!.messages, ['The name is empty.', 'The end date is earlier than the start date.']);
    assert.deepEqual(req.error!.codes, ['NAME_EMPTY', 'END_BEFORE_START']);
    assert.match(req.error!.message, /400/);
    assert.match(req.error!.message, /The name is empty/);
  });

  it('a 4xx with a plain-text body: the raw text is the message', async () => {
    answer = (_q, res) => {
      res.writeHead(409, { 'content-type': 'text/plain' });
      res.end('Conflict: the item is locked by another user');
    };
    const { req } = await runOne();
    assert.equal(req.state, 'failed');
    assert.equal(req.status, 409);
    assert.ok(req.error!.messages.some((m) => m.includes('locked by another user')), req.error!.messages.join(' | '));
  });

  it('403 with an unknown JSON shape is still readable', async () => {
    answer = json(403, { error: { detail: 'no edit permission on project P' } });
    const { req } = await runOne();
    assert.equal(req.state, 'failed');
    assert.equal(req.status, 403);
    assert.ok(req.error!.messages.join(' ').includes('no edit permission'), req.error!.messages.join(' | '));
  });

  it('500: unknown outcome with status and messages', async () => {
    answer = json(500, [{ message: 'Internal error' }]);
    const { req, result } = await runOne();
    assert.equal(req.state, 'unknown');
    assert.equal(req.status, 500);
    assert.deepEqual(req.error!.messages, ['Internal error']);
    assert.equal(result.totals.itemsByState.unknown, 2);
  });

  it('a timeout after sending: unknown, kind timeout', async () => {
    answer = () => undefined; // never answers
    const { req } = await runOne(300);
    assert.equal(req.state, 'unknown');
    assert.equal(req.error!.kind, 'timeout');
    assert.match(req.error!.message, /timed out/);
  });

  it('a 200 whose body has the wrong shape: applied (succeeded) with the problem attached, never re-sent', async () => {
    answer = json(200, { items: 'nope' });
    const { req } = await runOne();
    assert.equal(req.state, 'succeeded');
    assert.equal(req.error!.kind, 'invalid-response');
    assert.ok(req.error!.messages.length > 0);
  });

  it('connection refused: retried within the budget, then failed with kind connect', async () => {
    const dead = http.createServer();
    await new Promise<void>((r) => dead.listen(0, '127.0.0.1', r));
    const port = (dead.address() as AddressInfo).port;
    await new Promise<void>((r) => dead.close(() => r()));
    const url = `http://127.0.0.1:${port}/api`;
    const client = clientFor({ url });
    try {
      const plan = planJob({ workItemIds: ['1'], update: { setCompleted: true }, baseUrl: url });
      const r = await runJob(plan, { client, ...FAST, clock: skippingClock(), retryBudget: 2 });
      const q = r.requests[0]!;
      assert.equal(q.state, 'failed');
      assert.equal(q.error!.kind, 'connect');
      assert.equal(q.error!.note, 'retry-budget-exhausted');
      assert.equal(q.attempts, 3);
      assert.ok(q.error!.message.length > 0);
    } finally {
      await client.close();
    }
  });
});
