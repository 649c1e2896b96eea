// The sub-item reads a preview or a Send makes for a move or for completing/locking items
// (src/bulk/readValues.ts through src/changes/reader.ts) take their turns on the configured
// pacing, like the work-item reads: counted as they leave for the sandbox (over real HTTP), on a
// virtual clock, every call of the reads starts at least one interval after the one before it.
import * as assert from 'node:assert/strict';
import { Agent, type Dispatcher } from 'undici';
import { ServiceClient } from '../../src/api/client';
import { SharedPacing, type Clock } from '../../src/api/pacer';
import { readWorkItems } from '../../src/api/reads';
import { pacedSubItems, readValues, type SubItemReader, type WorkItemReader } from '../../src/bulk/readValues';
import type { Sandbox } from '../../src/sandbox';
import { ADMIN, scheduledTaskIds, startSandbox, virtualClock } from './bulk-helpers';

/** The client's connection to the sandbox, recording each request's path as it leaves, on `clock`. */
function timingAgent(clock: () => Clock): { agent: Agent; calls: { path: string; at: number }[] } {
  const calls: { path: string; at: number }[] = [];
  class Timing extends Agent {
    override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
      calls.push({ path: String(options.path).split('?')[0]!, at: clock().now() });
      return super.dispatch(options, handler);
    }
  }
  return { agent: new Timing(), calls };
}

describe('changes: sub-item reads on the configured pacing (counted on the sandbox)', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let clock: Clock;
  let proxy: ReturnType<typeof timingAgent>;
  let client: ServiceClient;

  before(async () => {
    sandbox = await startSandbox(400);
    proxy = timingAgent(() => clock);
    client = new ServiceClient({ baseUrl: sandbox.url, dispatcher: proxy.agent, credentials: () => ADMIN });
  });
  after(async () => {
    await client.close();
    await proxy.agent.close();
    await sandbox.close();
  });

  /** The reads of a preview of `setCompleted` on `ids` at 600 calls a minute, on one pacing; the calls as the sandbox saw them. */
  async function previewReads(ids: string[], subItems: (clock: Clock, pacing: SharedPacing) => SubItemReader): Promise<{ path: string; at: number }[]> {
    clock = virtualClock();
    const pacing = new SharedPacing(clock);
    const reader: WorkItemReader = (i, f, o) => readWorkItems(client, i, { fields: f, requestsPerMinute: 600, maxUrlLength: 250, signal: o.signal, onBatch: o.onBatch, pacing });
    const start = proxy.calls.length;
    const batches: string[][] = [];
    const values = await readValues(reader, ids, { setCompleted: true }, { subItems: subItems(clock, pacing), onItems: (b, items) => batches.push(b.filter((id) => typeof items.get(id)?.Id === 'string')) });
    assert.equal(values.missing.length, 0);
    // Each batch's values (fields, not records) handed on as it came back, every ID once, in order.
    assert.ok(batches.length >= 2, `${batches.length} batches`);
    assert.deepEqual(batches.flat(), ids);
    assert.equal(typeof values.items.get(ids[0]!)?.Name, 'string');
    return proxy.calls.slice(start);
  }

  const getSubItems: SubItemReader = (id, q, o) => client.getSubItems(id, q, o);

  it('every call of the reads (work items, levels of the parents, sub-items) starts at least 100 ms after the one before at 600 a minute', async () => {
    const ids = scheduledTaskIds(sandbox, 120);
    const calls = await previewReads(ids, (c, p) => pacedSubItems(getSubItems, 600, c, p));
    const sub = calls.filter((c) => c.path.endsWith('/subItems'));
    assert.ok(sub.length >= 2, `sub-item reads of several parents (${sub.length})`);
    assert.ok(calls.length - sub.length >= 2, `batches of work-item reads and the levels of the parents (${calls.map((c) => c.path).join(' ')})`);
    const gaps = calls.slice(1).map((c, i) => c.at - calls[i]!.at);
    assert.ok(Math.min(...gaps) >= 100, `the closest two call starts are ${Math.min(...gaps)} ms apart (${gaps.join(', ')})`);
    const total = calls.at(-1)!.at - calls[0]!.at;
    assert.ok(total >= (calls.length - 1) * 100, `${calls.length} calls over ${total} ms`);
  });

  it('without the pacer the sub-item reads go back to back (what the pacing prevents)', async () => {
    const ids = scheduledTaskIds(sandbox, 120);
    const calls = await previewReads(ids, () => getSubItems);
    const sub = calls.filter((c) => c.path.endsWith('/subItems'));
    assert.ok(sub.length >= 2);
    const gaps = sub.slice(1).map((c, i) => c.at - sub[i]!.at);
    assert.equal(Math.max(...gaps), 0, 'no time between them');
  });

  it('a cancelled read waiting for its turn rejects at once and makes no call', async () => {
    clock = virtualClock();
    const paced = pacedSubItems(getSubItems, 600, clock);
    const parent = sandbox.data.workItems.find((w) => w.parentId !== null && !w.isDeleted)!.parentId!;
    const start = proxy.calls.length;
    await paced(parent, { fields: ['Id'] }, {});
    const abort = new AbortController();
    abort.abort();
    await assert.rejects(paced(parent, { fields: ['Id'] }, { signal: abort.signal }));
    assert.equal(proxy.calls.length - start, 1);
  });
});
