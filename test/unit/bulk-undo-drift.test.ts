import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ServiceClient } from '../../src/api/client';
import { readWorkItems } from '../../src/api/reads';
import { JobJournal, planJob, runJob } from '../../src/bulk';
import { readValues, type WorkItemReader } from '../../src/bulk/readValues';
import { writeSnapshot } from '../../src/bulk/snapshot';
import { checkUndoDrift, compareWithJob, planUndoSkipping } from '../../src/bulk/undoDrift';
import type { UpdateWorkItemsBody } from '../../src/schema/api';
import type { Sandbox } from '../../src/sandbox';
import { addDays, clientFor, scheduledTaskIds, snapshotDates, startSandbox, storedItem } from './bulk-helpers';

// An undo checks for drift like Send does. A job runs against the
// real sandbox over HTTP; another client then changes some of its items; the undo
// lists them (which fields, which values), and skipping them leaves them alone.
const FAST = { requestsPerMinute: Infinity, minIntervalMs: 0, allowAboveServiceLimit: true } as const;

function reader(client: ServiceClient): WorkItemReader {
  return (ids, fields, o) => readWorkItems(client, ids, { fields, signal: o.signal });
}

describe('undo checks for drift', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let dir: string;
  let client: ServiceClient;
  let other: ServiceClient;
  before(async () => {
    sandbox = await startSandbox(200);
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'wis-undo-drift-'));
    client = clientFor(sandbox);
    other = clientFor(sandbox); // another client of the same service
  });
  after(async () => {
    await client.close();
    await other.close();
    await sandbox.close();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  /** Sends a job as Send does: values before on disk, then the requests. */
  async function sendJob(ids: string[], update: UpdateWorkItemsBody): Promise<JobJournal> {
    const plan = planJob({ workItemIds: ids, update, baseUrl: sandbox.url, maxIdsPerRequest: 5 });
    const journal = await JobJournal.create(dir, { source: {}, plan, valuesBefore: 'expected' });
    const v = await readValues(reader(client), plan.ids, plan.parts[0]!.update);
    await writeSnapshot(journal.file, { kind: 'before', jobId: journal.id, fields: v.fields, items: v.items, missing: v.missing });
    const r = await runJob(plan, { client, journal, ...FAST });
    assert.equal(r.outcome, 'succeeded');
    return journal;
  }

  it('an item whose dates another client moved after the job is listed with the fields and values; skipping it leaves it alone while the rest is put back', async () => {
    const ids = scheduledTaskIds(sandbox, 12);
    const before = snapshotDates(sandbox, ids);
    const journal = await sendJob(ids, { moveScheduleDays: 2 });
    const [moved, renamed] = [ids[3]!, ids[7]!];
    // Another client, after the job: moves one item's dates, renames another (a field the job did not touch).
    await other.updateWorkItems([moved], { moveScheduleDays: 5 });
    await other.updateWorkItems([renamed], { fields: { Name: 'Renamed by someone else' } });

    const check = await checkUndoDrift(journal, reader(client));
    assert.equal(check.checked, ids.length);
    assert.deepEqual(check.drift.map((d) => d.id), [moved], 'only the item whose touched fields changed');
    const d = check.drift[0]!;
    assert.deepEqual(
      d.fields.map((f) => [f.field, String(f.expected).slice(0, 10), String(f.now).slice(0, 10)]), // dates as the service writes them, with a time
      [
        ['PlannedStartDate', addDays(before.get(moved)!.plannedStartDate, 2), addDays(before.get(moved)!.plannedStartDate, 7)],
        ['PlannedFinishDate', addDays(before.get(moved)!.plannedFinishDate, 2), addDays(before.get(moved)!.plannedFinishDate, 7)],
      ],
    );

    // Skip (the safe choice): the undo leaves the changed item as the other client left it.
    const undo = planUndoSkipping(journal, check.values, new Set(check.drift.map((x) => x.id)));
    assert.ok(undo.documents.every((doc) => !doc.workItemIds.includes(moved)));
    for (const doc of undo.documents) {
      const r = await runJob(planJob({ workItemIds: doc.workItemIds, update: doc.update, baseUrl: sandbox.url }), { client, ...FAST });
      assert.equal(r.outcome, 'succeeded');
    }
    for (const id of ids) {
      const item = await storedItem(sandbox, id);
      const want = id === moved ? addDays(before.get(id)!.plannedStartDate, 7) : before.get(id)!.plannedStartDate;
      assert.equal(item.plannedStartDate, want, `item ${id}`);
    }
    assert.equal((await storedItem(sandbox, renamed)).name, 'Renamed by someone else', 'the other client’s name is kept');
  });

  it('a name another client wrote after the job is listed (job value → value now), an item that no longer comes back as gone; nothing is listed when nobody changed anything', async () => {
    const ids = scheduledTaskIds(sandbox, 30).slice(20, 26);
    const journal = await sendJob(ids, { fields: { Name: 'Set by the job' } });
    const clean = await checkUndoDrift(journal, reader(client));
    assert.deepEqual(clean.drift, []);

    await other.updateWorkItems([ids[1]!], { fields: { Name: 'Written by another client' } });
    const check = await checkUndoDrift(journal, reader(client));
    assert.deepEqual(check.drift.map((x) => [x.id, x.fields.map((f) => [f.field, f.expected, f.now])]), [[ids[1]!, [['Name', 'Set by the job', 'Written by another client']]]]);
    assert.ok(typeof check.drift[0]!.name === 'string', 'the item’s name before is given for display');
    // An item that no longer comes back (deleted, or not readable) is listed as gone.
    const now = new Map([...(await readWorkItems(client, ids, { fields: ['Id', 'Name'] })).items].filter(([id]) => id !== ids[2]).map(([id, r]) => [id, r.fields]));
    const gone = compareWithJob(check.values, journal.plan.parts[0]!.update, now).filter((x) => x.gone);
    assert.deepEqual(gone.map((x) => x.id), [ids[2]!]);
    // Undo anyway (the user's word): the undo covers every item, the changed one included.
    const all = planUndoSkipping(journal, check.values, new Set());
    assert.ok(all.documents.some((doc) => doc.workItemIds.includes(ids[1]!)));
  });
});
