import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { confirmUnknown, JobJournal, planJob, resendUnknown, resultFromJournal, runJob } from '../../src/bulk';
import { renderResultHtml } from '../../src/changes/model/results';
import { decideUnknown, type UnknownAnswer } from '../../src/common/unknownChoice';
import type { Sandbox } from '../../src/sandbox';
import { addDays, clientFor, fault, scheduledTaskIds, snapshotDates, startSandbox, storedItem } from './bulk-helpers';

describe('requests of unknown outcome: the user decides per request', () => {
  it('decides for all of them when the user answers at once; "choose" is offered only with several', async () => {
    const offered: boolean[] = [];
    const d = await decideUnknown([2, 0], async (_s, canChoose) => (offered.push(canChoose), 'resend'), async () => assert.fail('not asked'));
    assert.deepEqual(d, { action: 'resend', indexes: [0, 2] });
    const one = await decideUnknown([3], async (_s, canChoose) => (offered.push(canChoose), 'choose'), async () => assert.fail('not asked'));
    assert.equal(one, undefined, '"choose" cannot be answered with a single request');
    assert.deepEqual(offered, [true, false]);
  });

  it('after "Choose Requests…", asks again about the chosen subset only (never about other requests)', async () => {
    const asked: number[][] = [];
    const answers: UnknownAnswer[] = ['choose', 'applied'];
    const d = await decideUnknown(
      [0, 1, 3],
      async (s) => (asked.push([...s]), answers.shift()),
      async () => [3, 7 /* not unknown: ignored */, 1],
    );
    assert.deepEqual(asked, [[0, 1, 3], [1, 3]]);
    assert.deepEqual(d, { action: 'applied', indexes: [1, 3] });
  });

  it('cancelling the modal or picking nothing decides nothing', async () => {
    assert.equal(await decideUnknown([0, 1], async () => undefined, async () => [0]), undefined);
    assert.equal(await decideUnknown([0, 1], async () => 'choose', async () => []), undefined);
    assert.equal(await decideUnknown([0, 1], async () => 'choose', async () => undefined), undefined);
  });

  describe('against the sandbox: one unknown request applied, one not', function () {
    this.timeout(60_000);
    let sandbox: Sandbox;
    let dir: string;
    before(async () => {
      sandbox = await startSandbox(200);
      dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'wis-unknown-'));
    });
    after(async () => {
      await sandbox.close();
      await fsp.rm(dir, { recursive: true, force: true });
    });

    it('marking the applied one and re-sending the other shifts every item exactly once', async () => {
      const ids = scheduledTaskIds(sandbox, 30);
      const before = snapshotDates(sandbox, ids);
      const plan = planJob({ workItemIds: ids, update: { moveScheduleDays: 3 }, baseUrl: sandbox.url, maxIdsPerRequest: 10 });
      assert.equal(plan.requests.length, 3);
      const journal = await JobJournal.create(dir, { source: {}, plan });
      const client = clientFor(sandbox);
      try {
        // Request #0 fails with a 500 (not applied), request #1 is applied but its answer is lost.
        await fault(sandbox, { status: 500, method: 'PUT', times: 1 });
        await fault(sandbox, { dropAfterApply: true, method: 'PUT', times: 1 });
        await runJob(plan, { client, journal, concurrency: 1, minIntervalMs: 0 });
        assert.deepEqual(journal.requests.map((r) => r.state), ['unknown', 'unknown', 'succeeded']);

        const answers: UnknownAnswer[] = ['choose', 'applied'];
        const marked = await decideUnknown(journal.indexesIn('unknown', 'cancelled'), async () => answers.shift(), async () => [1]);
        assert.deepEqual(marked, { action: 'applied', indexes: [1] });
        await confirmUnknown(journal, marked.indexes);
        // The result view tells a request the user marked from one the service confirmed.
        const html = renderResultHtml({ result: resultFromJournal(journal), serviceLabel: 's', documentName: 'd', nonce: 'n', cspSource: 'c' });
        assert.match(html, /<tr class="st-succeeded"><td>2<\/td><td>marked as applied by you<\/td>/);
        assert.match(html, /<tr class="st-succeeded"><td>3<\/td><td>succeeded<\/td>/);
        const resent = await decideUnknown(journal.indexesIn('unknown', 'cancelled'), async (_s, canChoose) => (assert.equal(canChoose, false), 'resend'), async () => undefined);
        assert.deepEqual(resent, { action: 'resend', indexes: [0] });
        const result = await resendUnknown(journal, resent.indexes, { client, concurrency: 1, minIntervalMs: 0 });
        assert.equal(result.outcome, 'succeeded');
      } finally {
        await client.close();
      }
      for (const id of ids) {
        const stored = await storedItem(sandbox, id);
        assert.equal(stored.plannedStartDate, addDays(before.get(id)!.plannedStartDate, 3), `item ${id} must be shifted exactly once`);
      }
    });
  });
});
