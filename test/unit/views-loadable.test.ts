// The load of a tree level (src/views/model/loadable.ts) as the view reads it, against the
// sandbox over HTTP: a level ready within the wait is returned without a placeholder and
// nothing is announced; a slower one (sandbox latency) is a placeholder, announced once
// when it ends; failures likewise; a refresh drops a load in flight.
import * as assert from 'node:assert/strict';
import { ServiceClient } from '../../src/api/client';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';
import { FIRST_ROWS_WAIT_MS, LoadCell } from '../../src/views/model/loadable';
import { loadLevel } from '../../src/workItems/model/hierarchy';
import type { WorkItemRow } from '../../src/workItems/model/rows';
import { signedInClient } from './sandbox-client';

describe('views: a level ready within the wait', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let client: ServiceClient;

  before(async () => {
    sandbox = await createSandbox({});
    client = await signedInClient(sandbox);
  });
  after(async () => {
    await client.close();
    await sandbox.close();
  });
  afterEach(async () => {
    await fetch(`${sandbox.origin}/_sandbox/faults`, { method: 'DELETE' });
  });

  async function fault(spec: Record<string, unknown>): Promise<void> {
    const r = await fetch(`${sandbox.origin}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(spec) });
    assert.ok(r.ok, `fault not queued: ${r.status}`);
  }

  /** Level 1 of project 3001 (below its root folder 10), read as the tree reads it. */
  function level(): { cell: LoadCell<WorkItemRow[]>; announced: () => number; requests: () => number } {
    let announced = 0;
    let requests = 0;
    const cell = new LoadCell<WorkItemRow[]>(
      (signal) => {
        requests++;
        return loadLevel(client, { id: '10', level: 0 }, signal);
      },
      () => announced++,
    );
    return { cell, announced: () => announced, requests: () => requests };
  }

  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('a level ready within the wait is returned without a placeholder, and no change is announced', async () => {
    const { cell, announced, requests } = level();
    const st = await cell.within();
    assert.equal(st.kind, 'loaded', 'the rows, not a "Loading…" row');
    assert.equal(st.kind === 'loaded' && st.value[0]?.id, '100');
    await sleep(FIRST_ROWS_WAIT_MS + 100);
    assert.equal(announced(), 0, 'nothing announced: the view never showed a placeholder');
    assert.equal(requests(), 1);
    // Asked again: the same rows at once, no new request.
    assert.equal((await cell.within()).kind, 'loaded');
    assert.equal(requests(), 1);
  });

  it('a load that ends during the wait tells the caller before the rows are returned (the owner\'s own row), once', async () => {
    const { cell } = level();
    const order: string[] = [];
    const st = await cell.within(undefined, (now) => order.push(`arrived ${now.kind}`));
    order.push('returned');
    await sleep(20);
    assert.equal(st.kind, 'loaded');
    assert.deepEqual(order, ['arrived loaded', 'returned']);
    await cell.within(undefined, () => order.push('arrived again'));
    await sleep(20);
    assert.deepEqual(order, ['arrived loaded', 'returned'], 'already loaded: nothing arrives');
  });

  it('the wait ends as soon as the level arrives (no fixed hold)', async () => {
    const { cell } = level();
    await cell.within(); // warm: connection and JIT
    cell.reset();
    const t0 = performance.now();
    const st = await cell.within(10_000);
    const ms = performance.now() - t0;
    assert.equal(st.kind, 'loaded');
    // The old hold made every level wait 100 ms; a local level takes a few.
    assert.ok(ms < 90, `returned ${ms.toFixed(1)} ms after the request`);
  });

  it('a level slower than the wait (sandbox latency) is a placeholder, announced once when loaded', async () => {
    await fault({ latencyMs: 800, times: 1, pathContains: '/subItems' });
    const { cell, announced } = level();
    const t0 = Date.now();
    const st = await cell.within();
    const waited = Date.now() - t0;
    assert.equal(st.kind, 'loading', 'a "Loading…" row after the wait');
    assert.ok(waited >= FIRST_ROWS_WAIT_MS - 5 && waited < 700, `waited ${waited} ms`);
    assert.equal(announced(), 0, 'nothing announced while loading');
    await cell.settled();
    assert.equal(cell.state.kind, 'loaded');
    assert.equal(announced(), 1, 'announced once when loaded');
    assert.equal((await cell.within()).kind, 'loaded', 'the rows when the view asks again');
    await sleep(100);
    assert.equal(announced(), 1);
  });

  it('a failure within the wait is returned as it is; a slower failure is announced', async () => {
    await fault({ status: 500, times: 3, pathContains: '/subItems' });
    const quick = level();
    const st = await quick.cell.within();
    assert.equal(st.kind, 'failed', 'the failure row directly');
    assert.equal(quick.announced(), 0);
    await fetch(`${sandbox.origin}/_sandbox/faults`, { method: 'DELETE' });
    await fault({ status: 500, latencyMs: 600, times: 3, pathContains: '/subItems' });
    const slow = level();
    assert.equal((await slow.cell.within()).kind, 'loading');
    await slow.cell.settled();
    assert.equal(slow.cell.state.kind, 'failed');
    assert.equal(slow.announced(), 1, 'the failure of a load shown as "Loading…" is announced');
  });

  it('a level read without waiting (reveal, Select Children) is announced only if the view was given a placeholder', async () => {
    const a = level();
    a.cell.ensure();
    await a.cell.settled();
    assert.equal(a.cell.state.kind, 'loaded');
    assert.equal(a.announced(), 0, 'no placeholder was shown: nothing to announce');
    await fault({ latencyMs: 600, times: 1, pathContains: '/subItems' });
    const b = level();
    b.cell.ensure();
    assert.equal(b.cell.shown().kind, 'loading', 'the view is given "Loading…" now');
    await b.cell.settled();
    assert.equal(b.announced(), 1);
  });

  it('a refresh drops the load in flight: its answer is not announced, the next load is', async () => {
    await fault({ latencyMs: 600, times: 1, pathContains: '/subItems' });
    const { cell, announced, requests } = level();
    assert.equal((await cell.within()).kind, 'loading');
    cell.reset();
    const st = await cell.within();
    assert.equal(st.kind, 'loaded', 'the new load arrives within the wait');
    await sleep(800);
    assert.equal(announced(), 0, 'neither the dropped load nor the quick one is announced');
    assert.equal(requests(), 2);
  });
});
