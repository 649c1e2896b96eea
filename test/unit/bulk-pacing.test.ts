import * as assert from 'node:assert/strict';
import { ServiceError } from '../../src/api/errors';
import { SharedPacing } from '../../src/api/pacer';
import { intervalFor, Pacer, planJob, runJob, type BulkClient } from '../../src/bulk';
import type { UpdateWorkItemsResponse } from '../../src/schema/api';
import { FakeClock } from './bulk-helpers';

// Pacing is asserted on an injected clock (sleep advances fake time), never on
// wall-clock timing.

const ok = (ids: readonly string[]): UpdateWorkItemsResponse => ({ items: ids.map((id) => ({ id })), affectedItems: [], addedTimeEntryIds: [], addedScheduleDependencyIds: [] });

function plan(n: number, perRequest = 1) {
  return planJob({ workItemIds: Array.from({ length: n }, (_, i) => String(i + 1)), update: { setCompleted: true }, baseUrl: 'http://127.0.0.1:1/api', maxIdsPerRequest: perRequest });
}

/** A client on the fake clock: records start times; each call "takes" `latencyMs` of fake time. */
function fakeClient(clock: FakeClock, behaviour: (call: number, ids: readonly string[]) => UpdateWorkItemsResponse | ServiceError = (_c, ids) => ok(ids), latencyMs = 0) {
  const starts: number[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const client: BulkClient = {
    async updateWorkItems(ids) {
      const call = starts.length;
      starts.push(clock.now());
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        // "In flight" for latencyMs of fake time (or a few microtask turns).
        if (latencyMs) await clock.sleep(latencyMs);
        else for (let i = 0; i < 5; i++) await Promise.resolve();
        const r = behaviour(call, ids);
        if (r instanceof ServiceError) throw r;
        return r;
      } finally {
        inFlight--;
      }
    },
  };
  return { client, starts, get maxInFlight() { return maxInFlight; } };
}

const gaps = (ts: number[]) => ts.slice(1).map((t, i) => t - ts[i]!);

describe('bulk pacing', () => {
  it('spaces request starts by 60000/rpm across parallel workers', async () => {
    const clock = new FakeClock();
    const f = fakeClient(clock);
    const result = await runJob(plan(12), { client: f.client, clock, concurrency: 3, requestsPerMinute: 300, minIntervalMs: 0 });
    assert.equal(result.outcome, 'succeeded');
    assert.equal(f.starts.length, 12);
    for (const g of gaps(f.starts)) assert.ok(g >= 200, `gap ${g} < 200 ms`);
    // No more waiting than needed: the first starts at once, each later one exactly one interval later.
    assert.deepEqual(gaps(f.starts), Array(11).fill(200));
  });

  it('obeys the rate from 1 to 1500 requests a minute (the 100 ms advice is the default, not a floor)', async () => {
    for (const [rpm, gap] of [[1500, 40], [1200, 50], [600, 100], [60, 1000], [1, 60_000]] as const) {
      const clock = new FakeClock();
      const f = fakeClient(clock);
      await runJob(plan(4), { client: f.client, clock, concurrency: 2, requestsPerMinute: rpm });
      assert.deepEqual(gaps(f.starts), [gap, gap, gap], `${rpm} a minute`);
    }
    assert.equal(intervalFor(1500, 0), 40);
    assert.equal(intervalFor(600, 0), 100);
    // An explicit minimum spacing is still honoured when a caller asks for one.
    assert.equal(intervalFor(1500, 100), 100);
    const clock = new FakeClock();
    const f = fakeClient(clock);
    await runJob(plan(3), { client: f.client, clock, requestsPerMinute: 1500, minIntervalMs: 100 });
    assert.deepEqual(gaps(f.starts), [100, 100]);
  });

  it('defaults to 600 requests a minute with 100 ms spacing and 2 in parallel', async () => {
    const clock = new FakeClock();
    const f = fakeClient(clock, undefined, 1000); // slow requests: parallelism shows
    await runJob(plan(8), { client: f.client, clock });
    for (const g of gaps(f.starts)) assert.ok(g >= 100);
    assert.equal(f.maxInFlight, 2);
  });

  it('with responses slower than the spacing, each worker starts its next request as soon as its answer is in', async () => {
    const clock = new FakeClock();
    const f = fakeClient(clock, undefined, 300);
    const r = await runJob(plan(8), { client: f.client, clock, concurrency: 2 });
    assert.equal(r.outcome, 'succeeded');
    // 100 ms spacing, 300 ms answers: both workers stay busy (the floor of 2 in flight), never idle.
    assert.deepEqual(f.starts.map((t) => t - f.starts[0]!), [0, 100, 300, 400, 600, 700, 900, 1000]);
    assert.equal(f.maxInFlight, 2);
  });

  it('never runs more than `concurrency` requests at once', async () => {
    const clock = new FakeClock();
    const f = fakeClient(clock, undefined, 5000);
    await runJob(plan(20), { client: f.client, clock, concurrency: 4, requestsPerMinute: 1500 });
    assert.ok(f.maxInFlight <= 4 && f.maxInFlight >= 2, `max in flight ${f.maxInFlight}`);
  });

  it('refuses a rate above the service limit unless explicitly allowed', async () => {
    const clock = new FakeClock();
    const f = fakeClient(clock);
    await assert.rejects(runJob(plan(2), { client: f.client, clock, requestsPerMinute: 1501 }), /above the service's limit of 1500/);
    await assert.rejects(runJob(plan(2), { client: f.client, clock, concurrency: 0 }), RangeError);
    await assert.rejects(runJob(plan(2), { client: f.client, clock, retryBudget: -1 }), RangeError);
    const r = await runJob(plan(3), { client: f.client, clock, requestsPerMinute: Infinity, minIntervalMs: 0, allowAboveServiceLimit: true });
    assert.equal(r.outcome, 'succeeded');
    assert.deepEqual(gaps(f.starts), [0, 0]);
  });

  it('a Retry-After holds every worker, not only the one that got the 429', async () => {
    const clock = new FakeClock();
    let throttledAt = 0;
    const f = fakeClient(clock, (call, ids) => {
      if (call === 1) {
        throttledAt = clock.now();
        return new ServiceError({ kind: 'http', method: 'PUT', path: '/workitem/workItems/x', status: 429, retryAfterMs: 5000, messages: ['slow down'] });
      }
      return ok(ids);
    });
    const r = await runJob(plan(6), { client: f.client, clock, concurrency: 3, requestsPerMinute: 600, retryRefusedUpdates: true });
    assert.equal(r.outcome, 'succeeded');
    assert.equal(r.totals.retries, 1);
    assert.equal(f.starts.length, 7);
    for (const t of f.starts.slice(2)) assert.ok(t >= throttledAt + 5000, `a request started at +${t - throttledAt} ms, inside the Retry-After`);
    for (const g of gaps(f.starts)) assert.ok(g >= 100);
  });

  it('the pacer grants slots in order and gives up a slot when cancelled', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer(250, clock);
    const grants: number[] = [];
    await Promise.all([0, 1, 2, 3].map(async () => { await pacer.acquire(); grants.push(clock.now()); }));
    assert.deepEqual(gaps(grants), [250, 250, 250]);
    const ac = new AbortController();
    ac.abort(new Error('stop'));
    await assert.rejects(pacer.acquire(ac.signal), /stop/);
    pacer.holdUntil(clock.now() + 10_000);
    const before = clock.now();
    await pacer.acquire();
    assert.equal(clock.now() - before, 10_000);
  });

  it('a turn waits until the previous call started (or gave its turn back), and comes one interval after that start', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer(100, clock);
    const first = await pacer.slot();
    let secondAt: number | undefined;
    const second = pacer.slot().then((s) => ((secondAt = clock.now()), s));
    await clock.sleep(30); // the first call's journal mark takes 30 ms before it leaves
    assert.equal(secondAt, undefined, 'no turn while the previous one has not started');
    const started = clock.now();
    first.start();
    (await second).start();
    assert.equal(secondAt! - started, 100, 'spaced from the start, not from the grant');
    // A turn given back (nothing left) lets the next one go without waiting for it.
    const third = await pacer.slot();
    third.release();
    third.start(); // no effect once given back
    const t0 = clock.now();
    await pacer.acquire();
    assert.equal(clock.now() - t0, 0);
  });

  it('every Pacer made with one SharedPacing takes its turns on one schedule; without, each has its own', async () => {
    const clock = new FakeClock();
    const starts: number[] = [];
    const calls = async (pacer: Pacer, n: number) => {
      for (let i = 0; i < n; i++) {
        await pacer.acquire();
        starts.push(clock.now());
      }
    };
    // Two reads of 3 calls each at once (as reads before and updates would be): one time line of 6 calls.
    const pacing = new SharedPacing(clock);
    await Promise.all([calls(new Pacer(100, clock, pacing), 3), calls(new Pacer(100, clock, pacing), 3)]);
    starts.sort((a, b) => a - b);
    assert.deepEqual(gaps(starts), [100, 100, 100, 100, 100]);
    starts.length = 0;
    await Promise.all([calls(new Pacer(100, clock), 3), calls(new Pacer(100, clock), 3)]);
    starts.sort((a, b) => a - b);
    assert.ok(gaps(starts).includes(0), 'two pacers of their own start together');
  });
});
