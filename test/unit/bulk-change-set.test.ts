// A change set: one job of several requests, each with its own items and body. Planned
// as one plan (batches in the requests' order), sent in that order, journaled once,
// read back from journals of the one-body format, and undone as one change.
import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { ServiceClient } from '../../src/api/client';
import { readWorkItems } from '../../src/api/reads';
import { JobJournal, PlanError, planChange, planJob, retryFailed, runJob, type BulkClient } from '../../src/bulk';
import { sameFieldValue, touchedFields } from '../../src/bulk/effects';
import { planUndoForJob } from '../../src/bulk/jobValues';
import { readValues } from '../../src/bulk/readValues';
import { writeSnapshot } from '../../src/bulk/snapshot';
import { checkUndoDrift } from '../../src/bulk/undoDrift';
import { createSandbox, type Sandbox } from '../../src/sandbox';
import { createChangeDocument, validateRequestDocument } from '../../src/schema/document';
import type { UpdateWorkItemsBody, UpdateWorkItemsResponse } from '../../src/schema/api';
import { addDays, clientFor, fault, scheduledTaskIds, skippingClock, snapshotDates, startSandbox, storedItem } from './bulk-helpers';
import { bodyArb, dataset, TASKS, virtualClock } from './undo-fixtures';

const BASE = 'https://pm.example.com/api';

describe('bulk change set: plan', () => {
  it('each request is planned with its own batches, in order, each batch naming its part', () => {
    const plan = planChange({
      requests: [
        { workItemIds: ['1', '2', '3'], update: { moveScheduleDays: 1 } },
        { workItemIds: ['4'], update: { clearSchedule: true }, description: 'clear' },
      ],
      baseUrl: BASE,
      maxIdsPerRequest: 2,
    });
    assert.deepEqual(plan.ids, ['1', '2', '3', '4']);
    assert.deepEqual(
      plan.requests.map((r) => [r.index, r.part, r.ids]),
      [
        [0, 0, ['1', '2']],
        [1, 0, ['3']],
        [2, 1, ['4']],
      ],
    );
    assert.deepEqual(plan.parts, [
      { ids: ['1', '2', '3'], update: { moveScheduleDays: 1 } },
      { ids: ['4'], update: { clearSchedule: true }, description: 'clear' },
    ]);
  });

  it('a document of one request plans as planJob does', () => {
    const one = planChange({ requests: [{ workItemIds: ['1', '1', '2'], update: { moveScheduleDays: 1 } }], baseUrl: BASE });
    assert.deepEqual(one, planJob({ workItemIds: ['1', '1', '2'], update: { moveScheduleDays: 1 }, baseUrl: BASE }));
  });

  it('a field of an item changed by two requests is refused, naming both and the field', () => {
    assert.throws(
      () => planChange({ requests: [{ workItemIds: ['1', '2'], update: { moveScheduleDays: 1 } }, { workItemIds: ['2'], update: { clearSchedule: true } }], baseUrl: BASE }),
      (e: unknown) => e instanceof PlanError && e.problems.some((p) => p.code === 'id-in-two-requests' && /request 2: work item "2" is already in request 1, which changes PlannedStartDate too/.test(p.message)),
    );
  });

  it('an item may be in two requests that change different fields of it', () => {
    const plan = planChange({ requests: [{ workItemIds: ['1', '2'], update: { moveScheduleDays: 1 } }, { workItemIds: ['2'], update: { fields: { Name: 'n' } } }], baseUrl: BASE });
    assert.deepEqual(plan.ids, ['1', '2']);
    assert.deepEqual(plan.parts.map((p) => p.ids), [['1', '2'], ['2']]);
  });

  it("every request's problems are listed, each with its request's number", () => {
    assert.throws(
      () => planChange({ requests: [{ workItemIds: [], update: {} }, { workItemIds: ['a/b'], update: {} }], baseUrl: BASE }),
      (e: unknown) => e instanceof PlanError && /^request 1: /.test(e.problems[0]!.message) && e.problems.some((p) => /^request 2: /.test(p.message)),
    );
  });
});

describe('bulk change set: one job against the sandbox', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let dir: string;
  before(async () => {
    sandbox = await startSandbox(200);
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'wis-change-'));
  });
  after(async () => {
    await sandbox.close();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  /** A client that records when each call starts and ends, and with which body. */
  function timed(client: BulkClient): BulkClient & { calls: { ids: string[]; body: UpdateWorkItemsBody; start: number; end: number }[] } {
    let tick = 0;
    const calls: { ids: string[]; body: UpdateWorkItemsBody; start: number; end: number }[] = [];
    return {
      calls,
      async updateWorkItems(ids, body, o): Promise<UpdateWorkItemsResponse> {
        const call = { ids: [...ids], body, start: tick++, end: -1 };
        calls.push(call);
        try {
          return await client.updateWorkItems(ids, body, o);
        } finally {
          call.end = tick++;
        }
      },
    };
  }

  it('each batch is sent with its own request\'s body, and a request starts only after the earlier ones finished', async () => {
    const ids = scheduledTaskIds(sandbox, 12);
    const before = snapshotDates(sandbox, ids);
    await fault(sandbox, { latencyMs: 30, method: 'PUT', times: 100 });
    const plan = planChange({
      requests: [
        { workItemIds: ids.slice(0, 6), update: { moveScheduleDays: 2 } },
        { workItemIds: ids.slice(6), update: { moveScheduleDays: -3 } },
      ],
      baseUrl: sandbox.url,
      maxIdsPerRequest: 2,
    });
    const client = clientFor(sandbox);
    try {
      const rec = timed(client);
      const result = await runJob(plan, { client: rec, concurrency: 4, requestsPerMinute: Infinity, allowAboveServiceLimit: true });
      assert.equal(result.outcome, 'succeeded');
      assert.equal(rec.calls.length, 6);
      const first = rec.calls.filter((c) => c.body.moveScheduleDays === 2);
      const second = rec.calls.filter((c) => c.body.moveScheduleDays === -3);
      assert.deepEqual(first.flatMap((c) => c.ids).sort(), ids.slice(0, 6).sort());
      assert.deepEqual(second.flatMap((c) => c.ids).sort(), ids.slice(6).sort());
      // The batches of one request go side by side (concurrency 4), the next request waits for them.
      assert.ok(Math.max(...first.map((c) => c.end)) < Math.min(...second.map((c) => c.start)), JSON.stringify(rec.calls));
      assert.ok(first.some((c, i) => i > 0 && c.start < first[i - 1]!.end), 'batches of one request overlap');
      for (const [i, id] of ids.entries()) {
        const days = i < 6 ? 2 : -3;
        assert.equal((await storedItem(sandbox, id)).plannedStartDate, addDays(before.get(id)!.plannedStartDate, days), id);
      }
    } finally {
      await fetch(`${sandbox.origin}/_sandbox/faults`, { method: 'DELETE' });
      await client.close();
    }
  });

  it('a refused request does not stop the others; Retry Failed sends only it', async () => {
    const ids = scheduledTaskIds(sandbox, 4);
    const plan = planChange({
      requests: [
        { workItemIds: [ids[0]!], update: { fields: { Name: 'x'.repeat(300) } } }, // over the Name limit: refused (400)
        { workItemIds: ids.slice(1), update: { fields: { Description: 'second request' } } },
      ],
      baseUrl: sandbox.url,
    });
    const client = clientFor(sandbox);
    try {
      const journal = await JobJournal.create(dir, { source: { uri: 'untitled:change.workitems.json', text: '{}' }, plan });
      const result = await runJob(plan, { client, journal });
      assert.deepEqual(result.requests.map((r) => r.state), ['failed', 'succeeded']);
      for (const id of ids.slice(1)) assert.equal((await storedItem(sandbox, id)).description, 'second request');
      const rec = timed(client);
      const again = await retryFailed(await JobJournal.load(journal.file), { client: rec });
      assert.deepEqual(rec.calls.map((c) => c.ids), [[ids[0]]]);
      assert.equal(again.requests[1]!.attempts, 1, 'the succeeded request is not sent again');
    } finally {
      await client.close();
    }
  });

  it('faults in a change: a dropped answer is unknown and never re-sent, a 429 is retried once trusted; every other item shifted once by its own request', async () => {
    const ids = scheduledTaskIds(sandbox, 60).slice(30);
    const before = snapshotDates(sandbox, ids);
    const client = clientFor(sandbox);
    try {
      // The first batch of the second request is applied, then its connection dropped; two 429s before that.
      await fault(sandbox, { status: 429, retryAfterSeconds: 1, method: 'PUT', times: 2 });
      await fault(sandbox, { dropAfterApply: true, method: 'PUT', pathContains: encodeURIComponent(ids[15]!) });
      const plan = planChange({
        requests: [
          { workItemIds: ids.slice(0, 15), update: { moveScheduleDays: 3 } },
          { workItemIds: ids.slice(15), update: { moveScheduleDays: -2 } },
        ],
        baseUrl: sandbox.url,
        maxIdsPerRequest: 5,
      });
      const rec = timed(client);
      const result = await runJob(plan, { client: rec, concurrency: 2, requestsPerMinute: Infinity, allowAboveServiceLimit: true, clock: skippingClock(), retryBudget: 5, retryRefusedUpdates: true });
      const states = result.requests.map((r) => r.state);
      assert.deepEqual(states, ['succeeded', 'succeeded', 'succeeded', 'unknown', 'succeeded', 'succeeded'], JSON.stringify(states));
      assert.equal(rec.calls.filter((c) => c.ids.includes(ids[15]!)).length, 1, 'the unknown batch is sent once');
      assert.equal(result.totals.retries, 2);
      for (const [i, id] of ids.entries()) {
        const item = await storedItem(sandbox, id);
        assert.equal(item.plannedStartDate, addDays(before.get(id)!.plannedStartDate, i < 15 ? 3 : -2), `${id} shifted once, by its own request`);
      }
    } finally {
      await fetch(`${sandbox.origin}/_sandbox/faults`, { method: 'DELETE' });
      await client.close();
    }
  });

  it('the journal keeps the parts: loaded again, each request has its body', async () => {
    const plan = planChange({
      requests: [
        { workItemIds: ['10', '11'], update: { moveScheduleDays: 1 } },
        { workItemIds: ['12'], update: { setCompleted: true }, description: 'done' },
      ],
      baseUrl: sandbox.url,
    });
    const journal = await JobJournal.create(dir, { source: { uri: 'untitled:keep.workitems.json', text: '{}' }, plan });
    const loaded = await JobJournal.load(journal.file);
    assert.deepEqual(loaded.plan.parts, plan.parts);
    assert.deepEqual(loaded.plan.requests.map((r) => r.part), [0, 1]);
    // Each part's IDs are held once, in the paths.
    const text = await fsp.readFile(journal.file, 'utf8');
    assert.equal(text.split('"10"').length - 1, 0, 'the IDs are not repeated in the parts');
  });

  it('a journal of the one-body format (version 3: one update for every request) reads as one part', async () => {
    const plan = planJob({ workItemIds: ['20', '21'], update: { moveScheduleDays: 5 }, baseUrl: sandbox.url });
    const journal = await JobJournal.create(dir, { source: { uri: 'untitled:old.workitems.json', text: '{}' }, plan });
    const json = JSON.parse(await fsp.readFile(journal.file, 'utf8')) as { version: number; plan: Record<string, unknown> };
    json.version = 3;
    delete json.plan.parts;
    json.plan.update = { moveScheduleDays: 5 };
    await fsp.writeFile(journal.file, JSON.stringify(json));
    await fsp.rm(journal.logFile, { force: true });
    const loaded = await JobJournal.load(journal.file);
    assert.deepEqual(loaded.plan.parts, [{ ids: ['20', '21'], update: { moveScheduleDays: 5 } }]);
    assert.equal((loaded.plan as { update?: unknown }).update, undefined);
  });

  it('a journal whose batch names a part its plan lacks is damaged, and says so', async () => {
    const plan = planJob({ workItemIds: ['30'], update: { moveScheduleDays: 1 }, baseUrl: sandbox.url });
    const journal = await JobJournal.create(dir, { source: { uri: 'untitled:bad.workitems.json', text: '{}' }, plan });
    const json = JSON.parse(await fsp.readFile(journal.file, 'utf8')) as { plan: { requests: { part?: number }[] } };
    json.plan.requests[0]!.part = 3;
    await fsp.writeFile(journal.file, JSON.stringify(json));
    await fsp.rm(journal.logFile, { force: true });
    await assert.rejects(JobJournal.load(journal.file), /damaged: request #1 names part 4 of a plan of 1/);
  });
});

describe('bulk change set: undo property test against the sandbox', function () {
  this.timeout(180_000);
  let sandbox: Sandbox;
  let client: ServiceClient;
  let dir: string;
  const initial = dataset();
  before(async () => {
    sandbox = await createSandbox({ data: initial });
    client = new ServiceClient({ baseUrl: sandbox.url, credentials: () => ({ kind: 'basic', loginName: 'admin', password: 'password' }) });
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'wis-change-undo-'));
  });
  after(async () => {
    await client?.close();
    await sandbox?.close();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  const reader = (i: readonly string[], fields: readonly string[], o: { signal?: AbortSignal }) => readWorkItems(client, i, { fields, clock: virtualClock(), signal: o.signal });
  const subItems = (id: string, q: { fields?: readonly string[]; depth?: number }, o: { signal?: AbortSignal }) => client.getSubItems(id, { fields: q.fields, depth: q.depth }, o);

  /** Up to three requests over distinct items, each with a random invertible body. */
  const changeArb = fc
    .tuple(fc.shuffledSubarray(TASKS, { minLength: 2 }), fc.array(bodyArb, { minLength: 1, maxLength: 3 }))
    .map(([items, bodies]) => {
      const n = Math.min(bodies.length, items.length);
      const size = Math.ceil(items.length / n);
      return bodies.slice(0, n).map((update, k) => ({ workItemIds: items.slice(k * size, (k + 1) * size), update })).filter((r) => r.workItemIds.length > 0);
    });

  it('send a change as one job, then its one undo: every field each request touched is back (150 runs)', async () => {
    let applied = 0;
    await fc.assert(
      fc.asyncProperty(changeArb, async (requests) => {
        const res = await fetch(`${sandbox.origin}/_sandbox/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(initial) });
        assert.equal(res.status, 200);
        const plan = planChange({ requests, baseUrl: sandbox.url });
        const bodies = plan.parts.map((p) => p.update);
        const taken = await readValues(reader, plan.ids, bodies, { subItems });
        const journal = await JobJournal.create(dir, { source: { uri: 'untitled:p.workitems.json', text: '{}' }, plan });
        await writeSnapshot(journal.file, { kind: 'before', jobId: journal.id, fields: taken.fields, items: taken.items, siblings: taken.siblings });
        const result = await runJob(plan, { client, journal, requestsPerMinute: Infinity, allowAboveServiceLimit: true });
        if (!result.requests.some((r) => r.state === 'succeeded')) return; // every request refused by a rule: nothing to undo
        applied++;
        // As Send does: the values after are read again and kept beside the journal.
        const after = await readValues(reader, plan.ids, bodies, { subItems });
        await writeSnapshot(journal.file, { kind: 'after', jobId: journal.id, fields: after.fields, items: after.items });
        const drift = await checkUndoDrift(journal, reader);
        assert.deepEqual(drift.drift, [], 'nothing changed since the job');
        const { plan: undo } = await planUndoForJob(journal);
        assert.deepEqual(undo.nonInvertible, []);
        // One undo, as Create Undo Document writes it: a document that passes the document's own checks,
        // sent as one job (its requests in order: the last request of the change put back first).
        const written = validateRequestDocument(JSON.parse(JSON.stringify(createChangeDocument(undo.documents.map((d) => ({ workItemIds: d.workItemIds, update: d.update }))))));
        assert.ok(written.ok && written.document, `the undo document is valid: ${JSON.stringify(written.issues.filter((i) => i.severity === 'error'))}`);
        const back = await runJob(planChange({ requests: written.document.requests, baseUrl: sandbox.url }), { client, requestsPerMinute: Infinity, allowAboveServiceLimit: true });
        assert.equal(back.outcome, 'succeeded', JSON.stringify(back.requests.map((r) => [r.path, r.state, r.error?.message])));
        const now = (await readValues(reader, plan.ids, bodies, { subItems })).items;
        for (const [k, part] of plan.parts.entries()) {
          if (plan.requests.filter((r) => (r.part ?? 0) === k).every((r) => result.requests[r.index]!.state !== 'succeeded')) continue;
          for (const id of part.ids) {
            for (const f of touchedFields(part.update)) {
              const b = taken.items.get(id)![f];
              const a = now.get(id)![f];
              assert.ok(sameFieldValue(f, b, a), `${id}.${f}: ${JSON.stringify(b)} before, ${JSON.stringify(a)} after the undo; change ${JSON.stringify(requests)}`);
            }
          }
        }
      }),
      { numRuns: 150, seed: 20261201 },
    );
    assert.ok(applied > 60, `most generated changes are accepted (${applied} of 150)`);
  });

  it('the undo joins requests that put back the same values (one request for the items of several)', async () => {
    const res = await fetch(`${sandbox.origin}/_sandbox/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(initial) });
    assert.equal(res.status, 200);
    // T2 and T6 have the same status before (Open); the second request also shifts T6's dates.
    const plan = planChange({
      requests: [
        { workItemIds: ['T2'], update: { fields: { StatusTypeId: '53' } } },
        { workItemIds: ['T6'], update: { fields: { StatusTypeId: '53' }, moveScheduleDays: 1 } },
      ],
      baseUrl: sandbox.url,
    });
    const taken = await readValues(reader, plan.ids, plan.parts.map((p) => p.update), { subItems });
    const journal = await JobJournal.create(dir, { source: { uri: 'untitled:j.workitems.json', text: '{}' }, plan });
    await writeSnapshot(journal.file, { kind: 'before', jobId: journal.id, fields: taken.fields, items: taken.items });
    await runJob(plan, { client, journal, requestsPerMinute: Infinity, allowAboveServiceLimit: true });
    const { plan: undo } = await planUndoForJob(journal);
    const status = undo.documents.filter((d) => JSON.stringify(d.update) === JSON.stringify({ fields: { StatusTypeId: '51' } }));
    assert.equal(status.length, 1, JSON.stringify(undo.documents));
    // The request sent last is put back first: its items come first in the joined request.
    assert.deepEqual(status[0]!.workItemIds, ['T6', 'T2']);
    assert.equal(undo.documents.length, 2, JSON.stringify(undo.documents));
  });
});
