import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ServiceError } from '../../src/api/errors';
import {
  confirmUnknown,
  JobJournal,
  JournalError,
  JOURNAL_VERSION,
  listJobs,
  listUnfinishedJobs,
  planJob,
  pruneJobs,
  resendUnknown,
  resultFromJournal,
  resumeJob,
  retryFailed,
  runJob,
  startingRetryBudget,
  type BulkClient,
  type JobPlan,
  type JobProgress,
} from '../../src/bulk';
import type { UpdateWorkItemsResponse } from '../../src/schema/api';
import { skippingClock } from './bulk-helpers';

const ok = (ids: readonly string[]): UpdateWorkItemsResponse => ({ items: ids.map((id) => ({ id })), affectedItems: [], addedTimeEntryIds: [], addedScheduleDependencyIds: [] });
const FAST = { requestsPerMinute: Infinity, minIntervalMs: 0, allowAboveServiceLimit: true } as const;

function makePlan(n = 6, per = 2): JobPlan {
  return planJob({ workItemIds: Array.from({ length: n }, (_, i) => `W${i + 1}`), update: { moveScheduleDays: 1 }, baseUrl: 'http://127.0.0.1:1/api', maxIdsPerRequest: per });
}

/** A client that answers per request (by its first ID) and records what it was asked. */
function scripted(answer: (ids: readonly string[]) => UpdateWorkItemsResponse | Error = ok): BulkClient & { sent: string[][] } {
  const sent: string[][] = [];
  return {
    sent,
    async updateWorkItems(ids) {
      sent.push([...ids]);
      await Promise.resolve();
      const a = answer(ids);
      if (a instanceof Error) throw a;
      return a;
    },
  };
}

const http = (status: number, msg: string) => new ServiceError({ kind: 'http', method: 'PUT', path: '/workitem/workItems/x', status, messages: [msg] });

describe('bulk journal', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'wis-journal-'));
  });
  afterEach(async () => {
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it('creates one JSON file per job and reads it back', async () => {
    const plan = makePlan();
    const j = await JobJournal.create(dir, { source: { uri: 'file:///a.workitems.json', text: '{"workItemIds":[1]}' }, plan });
    assert.equal(path.dirname(j.file), dir);
    assert.match(path.basename(j.file), /^job-.*\.json$/);
    const back = await JobJournal.load(j.file);
    assert.equal(back.id, j.id);
    assert.deepEqual(back.plan, plan);
    assert.deepEqual(back.data.source, { uri: 'file:///a.workitems.json', text: '{"workItemIds":[1]}' });
    assert.deepEqual(back.requests.map((r) => r.state), ['pending', 'pending', 'pending']);
    assert.deepEqual((await fsp.readdir(dir)).filter((f) => f.endsWith('.tmp')), []);
  });

  it('marks a request sent on disk before it is sent, then records the response', async () => {
    const plan = makePlan(4, 2);
    const j = await JobJournal.create(dir, { source: {}, plan });
    const seenOnDisk: string[] = [];
    const client: BulkClient = {
      async updateWorkItems(ids) {
        // What a reload would read at this moment (the process could be killed now).
        const onDisk = await JobJournal.load(j.file, { responses: false });
        const r = onDisk.requests.find((q) => q.ids[0] === ids[0])!;
        seenOnDisk.push(r.error?.kind === 'interrupted' ? 'sent' : r.state);
        return ok(ids);
      },
    };
    const r = await runJob(plan, { client, journal: j, ...FAST, concurrency: 1, clock: skippingClock() });
    assert.deepEqual(seenOnDisk, ['sent', 'sent']);
    assert.equal(r.jobId, j.id);
    const back = await JobJournal.load(j.file);
    assert.deepEqual(back.requests.map((q) => q.state), ['succeeded', 'succeeded']);
    assert.deepEqual(back.requests[0]!.response!.items.map((i) => i.id), ['W1', 'W2']);
    assert.ok(back.isFinished, 'nothing left to send: finished');
    assert.equal(back.data.runs.length, 1);
    assert.equal(back.data.runs[0]!.outcome, 'succeeded');
    await assert.rejects(runJob(plan, { client, journal: back, ...FAST }), /already run/);
  });

  it('keeps responses in side files, written once; a lost side file keeps the state', async () => {
    const plan = makePlan(4, 2);
    const j = await JobJournal.create(dir, { source: {}, plan });
    const response = { ...ok(['W1', 'W2']), items: [{ id: 'W1', response: 'a field named response' }, { id: 'W2' }] };
    await j.updateRequest(0, { state: 'succeeded', response });
    await j.updateRequest(1, { state: 'failed' });
    // Before compaction the response is in the change log: a reload has it.
    assert.deepEqual((await JobJournal.load(j.file)).requests[0]!.response, response);
    await j.markFinished(); // compaction
    await assert.rejects(fsp.access(j.logFile), 'the change log is folded into the journal file');
    const main = JSON.parse(await fsp.readFile(j.file, 'utf8')) as { requests: { response?: unknown; responseFile?: string }[] };
    assert.equal(main.requests[0]!.response, undefined, 'the main file stays small');
    // The log itself, linked (its response line is not written a second time).
    assert.match(main.requests[0]!.responseFile!, new RegExp(`^${path.basename(j.responsesDir).replace(/[.]/g, '\\.')}/\\d+\\.log#0$`));
    assert.deepEqual((await fsp.readdir(j.responsesDir)).filter((f) => !f.endsWith('.log')), []);
    const back0 = await JobJournal.load(j.file);
    assert.deepEqual(back0.requests[0]!.response, response);
    assert.equal(back0.requests[1]!.state, 'failed');
    await fsp.rm(path.join(path.dirname(j.file), main.requests[0]!.responseFile!.split('#')[0]!));
    const back = await JobJournal.load(j.file);
    assert.equal(back.requests[0]!.state, 'succeeded');
    assert.equal(back.requests[0]!.responseMissing, true);
    await back.delete();
    assert.deepEqual(await fsp.readdir(dir), []);
  });

  it('writes the responses out when the change log cannot be linked, or when its copy of a response could not be made durable', async () => {
    const plan = makePlan(4, 2);
    const j = await JobJournal.create(dir, { source: {}, plan });
    const nodeFs = require('node:fs') as typeof fs; // the module object itself (the journal calls through it)
    const link = nodeFs.linkSync;
    nodeFs.linkSync = () => {
      throw Object.assign(new Error('operation not permitted'), { code: 'EPERM' });
    };
    try {
      await j.updateRequest(0, { state: 'succeeded', response: ok(['W1', 'W2']) });
      await j.markFinished();
    } finally {
      nodeFs.linkSync = link;
    }
    const main = JSON.parse(await fsp.readFile(j.file, 'utf8')) as { requests: { responseFile?: string }[] };
    assert.match(main.requests[0]!.responseFile!, /\/\d+\.json#0$/);
    // A line torn by a crash: the next process starts its lines on a line of their own, and the linked log reads without it.
    await j.updateRequest(1, { state: 'succeeded', response: ok(['W3', 'W4']) });
    await fsp.appendFile(j.logFile, '{"n":99,"t":"x","i":1,"p":{"response":{"ite');
    const next = await JobJournal.load(j.file);
    await next.updateRequest(1, { state: 'succeeded', response: ok(['W3']) });
    await next.markFinished();
    const back = await JobJournal.load(j.file);
    assert.deepEqual(back.requests[0]!.response, ok(['W1', 'W2']));
    assert.deepEqual(back.requests[1]!.response, ok(['W3']), 'the last response of the request in the linked log');
    assert.deepEqual(back.requests.map((r) => [r.ids, r.path]), plan.requests.map((r) => [r.ids, r.path]), 'ids and paths come from the plan');
  });

  for (const [n, per] of [
    [120, 1],
    [12, 40],
  ] as const) {
  it(`marks ahead are renewed while marked requests leave (group commit); at every departure a power cut reads each request that left as unknown (${n} requests of ${per} item(s)), and at most the next request, or 32 items, besides those under way that had not left`, async () => {
    const plan = makePlan(n * per, per);
    const j = await JobJournal.create(dir, { source: {}, plan });
    // What is durable: the length of the log when the last completed fdatasync started.
    const nodeFs = require('node:fs') as typeof fs; // the module object itself (the journal calls through it)
    const fdatasync = nodeFs.fdatasync;
    let durable = 0;
    let syncs = 0;
    nodeFs.fdatasync = ((fd: number, cb: (e: NodeJS.ErrnoException | null) => void) => {
      const size = nodeFs.fstatSync(fd).size;
      fdatasync(fd, (e) => {
        if (!e) {
          durable = Math.max(durable, size);
          syncs++;
        }
        cb(e);
      });
    }) as typeof fs.fdatasync;
    const copy = path.join(dir, 'power-cut');
    await fsp.mkdir(copy);
    const left: number[] = [];
    const client: BulkClient = {
      async updateWorkItems(ids) {
        left.push((Number(ids[0]!.slice(1)) - 1) / ids.length);
        // The machine loses power now: only the fsynced part of the log survives, read after a reboot.
        // (Taken now: the other worker may send more while this one reads.)
        const leftNow = [...left];
        const durableNow = durable;
        const file = path.join(copy, `job-${left.length}.json`); // one copy per departure (two workers)
        const log = (await fsp.readFile(j.logFile)).subarray(0, durableNow).toString('utf8');
        await fsp.copyFile(j.file, file);
        await fsp.writeFile(`${file}.log`, log.replace(/"k":"[^"]*"/, '"k":"id:another-boot"'));
        const after = await JobJournal.load(file, { responses: false });
        for (const i of leftNow) assert.equal(after.requests[i]!.state === 'pending', false, `request #${i} left but a power cut reads it as never sent`);
        // Marked ahead but not gone: unknown after the power cut although never sent (the price of not waiting for an fsync per request).
        const notGone = after.requests.filter((q) => q.state !== 'pending' && !leftNow.includes(q.index) && q.state !== 'succeeded');
        const inFlight = 1; // the other worker's request may be about to leave
        if (per === 1) assert.ok(notGone.length <= 32 + inFlight, `${notGone.length} requests read as unknown without having left`);
        else assert.ok(notGone.length <= 1 + inFlight, `${notGone.map((q) => q.index).join(', ')} read as unknown without having left`);
        return ok(ids);
      },
    };
    try {
      const r = await runJob(plan, { client, journal: j, ...FAST, concurrency: 2, clock: skippingClock() });
      assert.equal(r.outcome, 'succeeded', r.requests.find((q) => q.error)?.error?.message);
    } finally {
      nodeFs.fdatasync = fdatasync;
    }
    assert.equal(left.length, n);
    if (per === 1) assert.ok(syncs < n / 4, `one fsync covers several requests (${syncs} fsyncs for ${n} requests)`);
    const back = await JobJournal.load(j.file);
    assert.deepEqual(new Set(back.requests.map((q) => q.state)), new Set(['succeeded']));
  });
  }

  for (const [n, per] of [
    [120, 1],
    [12, 40],
  ] as const) {
  it(`at every departure a kill -9 (the same boot: everything written is kept) reads each request that left as unknown, never as unsent, and every other one as unsent (${n} requests of ${per} item(s))`, async () => {
    const plan = makePlan(n * per, per);
    const j = await JobJournal.create(dir, { source: {}, plan });
    const copy = path.join(dir, 'killed');
    await fsp.mkdir(copy);
    const left: number[] = [];
    const client: BulkClient = {
      async updateWorkItems(ids) {
        left.push((Number(ids[0]!.slice(1)) - 1) / ids.length);
        // The process is killed now: what it wrote so far is kept (same boot).
        const leftNow = [...left];
        const file = path.join(copy, `job-${left.length}.json`);
        const log = fs.readFileSync(j.logFile, 'utf8');
        fs.copyFileSync(j.file, file);
        fs.writeFileSync(`${file}.log`, log);
        const after = await JobJournal.load(file, { responses: false });
        for (const i of leftNow) assert.equal(after.requests[i]!.state === 'pending', false, `request #${i} left but a kill -9 reads it as never sent`);
        // Marked ahead without having left: unsent (sent on resuming), at most the other worker's request about to leave excepted.
        const notGone = after.requests.filter((q) => q.state !== 'pending' && !leftNow.includes(q.index) && q.state !== 'succeeded');
        assert.ok(notGone.length <= 1, `${notGone.map((q) => q.index).join(', ')} read as unknown without having left`);
        return ok(ids);
      },
    };
    const r = await runJob(plan, { client, journal: j, ...FAST, concurrency: 2, clock: skippingClock() });
    assert.equal(r.outcome, 'succeeded', r.requests.find((q) => q.error)?.error?.message);
    assert.equal(left.length, n);
  });
  }

  it('an outcome written later reaches the log before the next sent mark, or at flush; killed before, its request reads back as unknown', async () => {
    const j = await JobJournal.create(dir, { source: {}, plan: makePlan(4, 2) });
    await j.updateRequest(0, { state: 'sent', attempts: 1 });
    await j.updateRequest(0, { state: 'succeeded', response: ok(['W1', 'W2']) }, undefined, { later: true });
    // The process is killed now: what the log holds at this moment.
    const logNow = fs.readFileSync(j.logFile, 'utf8');
    const copy = path.join(dir, 'job-killed.json');
    await fsp.copyFile(j.file, copy);
    await fsp.writeFile(`${copy}.log`, logNow);
    const killed = await JobJournal.load(copy);
    assert.equal(killed.requests[0]!.state, 'unknown', 'sent, outcome not yet written: unknown, never unsent');
    await j.updateRequest(1, { state: 'sent', attempts: 1 });
    const next = await JobJournal.load(j.file);
    assert.deepEqual(next.requests.map((r) => r.state), ['succeeded', 'unknown']);
    assert.deepEqual(next.requests[0]!.response, ok(['W1', 'W2']));
    await j.updateRequest(1, { state: 'failed' }, undefined, { later: true });
    await j.flush();
    assert.deepEqual((await JobJournal.load(j.file)).requests.map((r) => r.state), ['succeeded', 'failed']);
  });

  it('a change log line torn by a crash is ignored; lines the snapshot holds are not applied twice', async () => {
    const j = await JobJournal.create(dir, { source: {}, plan: makePlan(6, 2) });
    await j.beginRun('run', [0, 1, 2], new Date(), 7);
    await j.updateRequest(0, { state: 'sent', attempts: 1 });
    await j.updateRequest(0, { state: 'succeeded', response: ok(['W1', 'W2']) }, 6);
    await j.updateRequest(1, { state: 'sent', attempts: 1 });
    const log = await fsp.readFile(j.logFile, 'utf8');
    // A crash in the middle of the next line: half of it reached the disk.
    await fsp.appendFile(j.logFile, '{"n":99,"t":"2026-01-01T00:00:00.000Z","i":2,"p":{"state":"se');
    const back = await JobJournal.load(j.file);
    assert.deepEqual(back.requests.map((r) => r.state), ['succeeded', 'unknown', 'pending']);
    assert.equal(back.retryBudgetLeft, 6);
    assert.equal(back.data.runs.length, 1);
    // A compaction that was not followed by the log's removal (crash in between): the log is skipped.
    await fsp.writeFile(j.logFile, log);
    await j.endRun('partial');
    await fsp.writeFile(j.logFile, log);
    const again = await JobJournal.load(j.file);
    assert.equal(again.data.runs.length, 1, 'the run is not added twice');
    assert.deepEqual(again.requests.map((r) => r.state), ['succeeded', 'unknown', 'pending']);
    assert.deepEqual(again.requests[0]!.response, ok(['W1', 'W2']));
  });

  it('requests marked ahead with one fsync read back as never sent in the same boot, as unknown after a restart of the machine', async () => {
    const j = await JobJournal.create(dir, { source: {}, plan: makePlan(6, 1) });
    await j.beginRun('run', [0, 1, 2, 3, 4, 5]);
    // Request 0 is marked sent, and 1 and 2 with it (one fsync); 1 then leaves too.
    await j.updateRequest(0, { state: 'sent', attempts: 1 }, undefined, { reserveAhead: [1, 2] });
    await j.updateRequest(1, { state: 'sent', attempts: 1 });
    const same = await JobJournal.load(j.file);
    assert.deepEqual(same.requests.map((r) => r.state), ['unknown', 'unknown', 'pending', 'pending', 'pending', 'pending']);
    // The same log read after a reboot: lines after the last fsync may be lost, so 2 may have left.
    const log = await fsp.readFile(j.logFile, 'utf8');
    assert.match(log, /"k":"/);
    await fsp.writeFile(j.logFile, log.replace(/"k":"[^"]*"/, '"k":"id:another-boot"'));
    const rebooted = await JobJournal.load(j.file);
    assert.deepEqual(rebooted.requests.map((r) => r.state), ['unknown', 'unknown', 'unknown', 'pending', 'pending', 'pending']);
    assert.equal(rebooted.requests[2]!.error!.kind, 'interrupted');
  });

  it('holds each ID once in the plan (in its request path) and reads the plan back equal; IDs that encoding changes and plans made otherwise are written out; a path that does not hold its IDs is a damaged journal', async () => {
    const plan = makePlan(9, 4);
    const j = await JobJournal.create(dir, { source: {}, plan });
    const text = await fsp.readFile(j.file, 'utf8');
    assert.equal(JSON.parse(text).version, JOURNAL_VERSION);
    assert.equal(text.split('"W7"').length + text.split(',W7,').length - 2, 1, `W7 is written once: ${text}`);
    assert.deepEqual((await JobJournal.load(j.file)).plan, plan);
    // IDs percent-encoded in the path (ä), and a plan whose list is not its requests' IDs in order.
    const odd = planJob({ workItemIds: ['ä1', 'W2', 'W3'], update: { setCompleted: true }, baseUrl: 'http://127.0.0.1:1/api', maxIdsPerRequest: 2 });
    const reordered = { ...makePlan(4, 2), ids: ['W2', 'W1', 'W3', 'W4'] };
    for (const p of [odd, reordered]) {
      const k = await JobJournal.create(dir, { source: {}, plan: p });
      assert.deepEqual((await JobJournal.load(k.file)).plan, p);
    }
    const data = JSON.parse(text) as { plan: { requests: { n?: number }[] } };
    data.plan.requests[1]!.n = 5;
    await fsp.writeFile(j.file, JSON.stringify(data));
    await assert.rejects(JobJournal.load(j.file), (e: unknown) => e instanceof JournalError && e.code === 'corrupt' && /path does not hold its IDs/.test(e.message));
  });

  it('reads a journal of version 2 (every ID also in the lists) and rewrites it in the current version when it runs again', async () => {
    const plan = makePlan(6, 2);
    const j = await JobJournal.create(dir, { source: {}, plan });
    const v2 = JSON.parse(await fsp.readFile(j.file, 'utf8')) as Record<string, unknown>;
    await fsp.writeFile(j.file, JSON.stringify({ ...v2, version: 2, plan }));
    const old = await JobJournal.load(j.file);
    assert.deepEqual(old.plan, plan);
    const client = scripted();
    assert.equal((await resumeJob(old, { client, ...FAST, clock: skippingClock() })).outcome, 'succeeded');
    assert.equal(client.sent.length, 3);
    const now = JSON.parse(await fsp.readFile(j.file, 'utf8')) as { version: number; plan: { ids?: unknown } };
    assert.equal(now.version, JOURNAL_VERSION);
    assert.equal(now.plan.ids, undefined);
    assert.deepEqual((await JobJournal.load(j.file)).plan, plan);
  });

  it('reads a journal of version 1 (no change log, one response per file) and rewrites it in the current version when it runs again', async () => {
    const j = await JobJournal.create(dir, { source: {}, plan: makePlan(4, 2) });
    const v1 = JSON.parse(await fsp.readFile(j.file, 'utf8')) as Record<string, unknown> & { requests: Record<string, unknown>[] };
    v1.version = 1;
    delete v1.seq;
    await fsp.mkdir(j.responsesDir, { recursive: true });
    await fsp.writeFile(path.join(j.responsesDir, '0.json'), JSON.stringify(ok(['W1', 'W2'])));
    Object.assign(v1.requests[0]!, { state: 'succeeded', attempts: 1, responseFile: `${path.basename(j.responsesDir)}/0.json` });
    await fsp.writeFile(j.file, JSON.stringify(v1));
    const old = await JobJournal.load(j.file);
    assert.deepEqual(old.requests.map((r) => r.state), ['succeeded', 'pending']);
    assert.deepEqual(old.requests[0]!.response, ok(['W1', 'W2']));
    const client = scripted();
    const r = await resumeJob(old, { client, ...FAST, clock: skippingClock() });
    assert.equal(r.outcome, 'succeeded');
    assert.deepEqual(client.sent, [['W3', 'W4']]);
    const now = JSON.parse(await fsp.readFile(j.file, 'utf8')) as { version: number };
    assert.equal(now.version, JOURNAL_VERSION);
    const back = await JobJournal.load(j.file);
    assert.deepEqual(back.requests[0]!.response, ok(['W1', 'W2']));
    assert.deepEqual(back.requests[1]!.response, ok(['W3', 'W4']));
  });

  it('serializes concurrent writes: every version on disk is complete, the last one wins', async () => {
    const j = await JobJournal.create(dir, { source: { text: 'x'.repeat(200_000) }, plan: makePlan(200, 1) });
    let reading = true;
    let reads = 0;
    const reader = (async () => {
      while (reading) {
        await JobJournal.load(j.file); // throws if a write were torn or the file and log disagreed
        reads++;
      }
    })();
    await Promise.all(Array.from({ length: 200 }, (_, i) => j.updateRequest(i, { state: i % 2 ? 'failed' : 'succeeded', attempts: i })));
    reading = false;
    await reader;
    assert.ok(reads > 0);
    const back = await JobJournal.load(j.file);
    back.requests.forEach((r, i) => {
      assert.equal(r.state, i % 2 ? 'failed' : 'succeeded');
      assert.equal(r.attempts, i);
    });
    assert.deepEqual((await fsp.readdir(dir)).filter((f) => f.endsWith('.tmp')), []);
  });

  it('a request left "sent" (process ended) reads back as unknown, interrupted, and is not resumed', async () => {
    const plan = makePlan(6, 2);
    const j = await JobJournal.create(dir, { source: {}, plan });
    await j.updateRequest(0, { state: 'succeeded', response: ok(['W1', 'W2']) });
    await j.updateRequest(1, { state: 'sent', attempts: 1 });
    const back = await JobJournal.load(j.file);
    assert.equal(back.requests[1]!.state, 'unknown');
    assert.equal(back.requests[1]!.error!.kind, 'interrupted');
    assert.match(back.requests[1]!.error!.message, /outcome is unknown/);
    const unfinished = await listUnfinishedJobs(dir);
    assert.deepEqual(unfinished.map((s) => s.jobId), [j.id]);
    assert.equal(unfinished[0]!.unsent, 1);
    assert.equal(unfinished[0]!.outcomeUnknown, 1);

    const client = scripted();
    const r = await resumeJob(back, { client, ...FAST, clock: skippingClock() });
    assert.deepEqual(client.sent, [['W5', 'W6']]);
    assert.deepEqual(r.requests.map((q) => q.state), ['succeeded', 'unknown', 'succeeded']);
    assert.equal(r.outcome, 'partial');
    assert.deepEqual(await listUnfinishedJobs(dir), []);

    // The user's word: resend the unknown one, or confirm it was applied.
    await assert.rejects(resendUnknown(back, [0], { client, ...FAST }), /not of unknown outcome/);
    await confirmUnknown(back, [1]);
    const after = await JobJournal.load(j.file);
    assert.equal(after.requests[1]!.state, 'succeeded');
    assert.equal(after.requests[1]!.confirmedByUser, true);
    assert.equal(resultFromJournal(after).outcome, 'succeeded');
  });

  it('resendUnknown sends exactly the chosen unknown requests', async () => {
    const plan = makePlan(6, 2);
    const j = await JobJournal.create(dir, { source: {}, plan });
    let first = true;
    const flaky = scripted((ids) => (ids[0] === 'W3' && first ? ((first = false), http(502, 'Bad gateway')) : ok(ids)));
    const r = await runJob(plan, { client: flaky, journal: j, ...FAST, concurrency: 1, clock: skippingClock() });
    assert.deepEqual(r.requests.map((q) => q.state), ['succeeded', 'unknown', 'succeeded']);
    const client = scripted();
    await resendUnknown(j, [1], { client, ...FAST, clock: skippingClock() });
    assert.deepEqual(client.sent, [['W3', 'W4']]);
    assert.equal(j.requests[1]!.state, 'succeeded');
    assert.equal(j.requests[1]!.attempts, 2);
  });

  it('retryFailed re-sends only the failed requests', async () => {
    const plan = makePlan(6, 2);
    const j = await JobJournal.create(dir, { source: {}, plan });
    const first = scripted((ids) => (ids[0] === 'W1' ? http(409, 'locked') : ids[0] === 'W3' ? http(500, 'boom') : ok(ids)));
    const r = await runJob(plan, { client: first, journal: j, ...FAST, clock: skippingClock() });
    assert.deepEqual(r.requests.map((q) => q.state), ['failed', 'unknown', 'succeeded']);
    assert.equal(r.requests[0]!.error!.messages[0], 'locked');
    // Failing again still counts as done in the progress of a retry run.
    const stillFailing = await retryFailed(j, { client: scripted(() => http(409, 'still locked')), ...FAST, clock: skippingClock(), onProgress: (p) => assert.equal(p.itemsDone, p.itemsTotal) });
    assert.equal(stillFailing.requests[0]!.error!.messages[0], 'still locked');
    const again = scripted();
    const progress: [number, number][] = [];
    const r2 = await retryFailed(await JobJournal.load(j.file), { client: again, ...FAST, clock: skippingClock(), onProgress: (p) => progress.push([p.itemsDone, p.itemsTotal]) });
    assert.deepEqual(progress, [[2, 2]]);
    assert.deepEqual(again.sent, [['W1', 'W2']]);
    assert.deepEqual(r2.requests.map((q) => q.state), ['succeeded', 'unknown', 'succeeded']);
    assert.equal(r2.requests[0]!.attempts, 3);
    assert.equal(r2.requests[0]!.error, undefined);
  });

  it('keeps one retry budget per job in the journal: a resumption continues from what is left, Retry Failed starts afresh', async () => {
    const plan = makePlan(6, 2);
    const j = await JobJournal.create(dir, { source: {}, plan });
    const busy = () => new ServiceError({ kind: 'http', method: 'PUT', path: '/workitem/workItems/x', status: 429, retryAfterMs: 0, messages: ['busy'] });
    const refusals = (times: Record<string, number>) => scripted((ids) => ((times[ids[0]!] ?? 0) > 0 ? (times[ids[0]!]!--, busy()) : ok(ids)));
    const settings = { ...FAST, concurrency: 1, retryBudget: 3, retryRefusedUpdates: true };

    // Run: W1 is refused twice (2 of 3 retries used), then the user cancels.
    const stop = new AbortController();
    const onProgress = (p: JobProgress) => p.requestsDone === 1 && stop.abort();
    const r1 = await runJob(plan, { client: refusals({ W1: 2 }), journal: j, ...settings, clock: skippingClock(), signal: stop.signal, onProgress });
    assert.equal(r1.outcome, 'cancelled');
    assert.deepEqual([r1.totals.retries, r1.totals.retryBudgetLeft], [2, 1]);
    const loaded = await JobJournal.load(j.file);
    assert.equal(loaded.retryBudgetLeft, 1, 'what is left is on disk');

    // Resume: 1 retry left, not 3; W3 and W5 keep being refused.
    const resumed = refusals({ W3: 9, W5: 9 });
    const r2 = await resumeJob(loaded, { client: resumed, ...settings, clock: skippingClock() });
    assert.deepEqual(resumed.sent.map((ids) => ids[0]), ['W3', 'W3', 'W5']);
    assert.deepEqual(r2.requests.map((q) => q.state), ['succeeded', 'failed', 'failed']);
    assert.equal(r2.requests[2]!.error!.note, 'retry-budget-exhausted');
    assert.deepEqual([r2.totals.retries, r2.totals.retryBudgetLeft], [1, 0]);
    assert.equal(resultFromJournal(await JobJournal.load(j.file)).totals.retryBudgetLeft, 0);

    // Retry Failed is the user's explicit request: the configured budget again.
    const retried = refusals({ W3: 1, W5: 1 });
    const r3 = await retryFailed(await JobJournal.load(j.file), { client: retried, ...settings, clock: skippingClock() });
    assert.equal(r3.outcome, 'succeeded');
    assert.deepEqual([r3.totals.retries, r3.totals.retryBudgetLeft], [2, 1]);
    assert.equal((await JobJournal.load(j.file)).retryBudgetLeft, 1);
  });

  it('a resumption never starts with more than the configured budget, and a journal without one gets it', () => {
    assert.equal(startingRetryBudget('resume', 10, 4), 4);
    assert.equal(startingRetryBudget('resume', 2, 4), 2);
    assert.equal(startingRetryBudget('resend-unknown', 10, 0), 0);
    assert.equal(startingRetryBudget('resume', 10, undefined), 10);
    assert.equal(startingRetryBudget('retry-failed', 10, 0), 10);
    assert.equal(startingRetryBudget('run', 10, undefined), 10);
  });

  for (const per of [2, 40]) {
    it(`stops when the journal cannot be written, sending no request that was not marked on disk before (requests of ${per} items)`, async () => {
      const sub = path.join(dir, 'jobs');
      const plan = makePlan(per * 20, per);
      const j = await JobJournal.create(sub, { source: {}, plan });
      const sent: string[][] = [];
      let logBefore = '';
      const client: BulkClient & { sent: string[][] } = {
        sent,
        async updateWorkItems(ids) {
          sent.push([...ids]);
          if (sent.length === 1) {
            // Before the answer is recorded, the job directory becomes a file: nothing can be written there.
            logBefore = fs.readFileSync(j.logFile, 'utf8');
            await fsp.rm(sub, { recursive: true, force: true });
            await fsp.writeFile(sub, 'not a directory');
          }
          return ok(ids);
        },
      };
      await assert.rejects(runJob(plan, { client, journal: j, ...FAST, concurrency: 1, clock: skippingClock() }), (e: unknown) => e instanceof JournalError && e.code === 'write-failed');
      // What was on disk when the journal went: the first request's mark, and the requests it marked ahead.
      const marked = new Set<number>();
      for (const line of logBefore.split('\n').filter((l) => l !== '')) {
        const e = JSON.parse(line) as { i?: number; p?: { state?: string }; r?: number[] };
        if (e.p?.state === 'sent' && e.i !== undefined) marked.add(e.i);
        for (const i of e.r ?? []) marked.add(i);
      }
      const sentIndexes = sent.map((ids) => plan.requests.findIndex((r) => r.ids[0] === ids[0]));
      assert.ok(sentIndexes.every((i) => marked.has(i)), `sent ${sentIndexes.join(', ')}; marked on disk ${[...marked].join(', ')}`);
      assert.ok(sent.length < plan.requests.length, 'the job stopped');
    });
  }

  it('a corrupt or foreign journal is a clear JournalError; listing shows it without throwing', async () => {
    const good = await JobJournal.create(dir, { source: {}, plan: makePlan() });
    const bad = path.join(dir, 'job-broken.json');
    await fsp.writeFile(bad, '{"format": "workitem-studio.bulk-job", "version": 1, "jobId": "x", "requ');
    await assert.rejects(JobJournal.load(bad), (e: unknown) => e instanceof JournalError && e.code === 'corrupt' && e.message.includes(bad) && /not valid JSON/.test(e.message));
    const wrongShape = path.join(dir, 'job-shape.json');
    const data = JSON.parse(await fsp.readFile(good.file, 'utf8'));
    data.requests[1].state = 'exploded';
    await fsp.writeFile(wrongShape, JSON.stringify(data));
    await assert.rejects(JobJournal.load(wrongShape), (e: unknown) => e instanceof JournalError && e.code === 'corrupt' && /requests\.1\.state/.test(e.message));
    const newer = path.join(dir, 'job-newer.json');
    await fsp.writeFile(newer, JSON.stringify({ ...data, version: 99 }));
    await assert.rejects(JobJournal.load(newer), (e: unknown) => e instanceof JournalError && e.code === 'unsupported');
    await assert.rejects(JobJournal.load(path.join(dir, 'job-missing.json')), (e: unknown) => e instanceof JournalError && e.code === 'unreadable');

    const all = await listJobs(dir);
    assert.equal(all.length, 4);
    assert.equal(all.filter((s) => s.error).length, 3);
    assert.ok(all.filter((s) => s.error).every((s) => s.error instanceof JournalError));
    assert.deepEqual((await listUnfinishedJobs(dir)).map((s) => s.jobId), [good.id]);
    assert.deepEqual(await listJobs(path.join(dir, 'nothing-here')), []);
  });

  it('one runner per job: a live lock refuses, a stale lock (dead process) is taken over', async () => {
    const plan = makePlan();
    const j = await JobJournal.create(dir, { source: {}, plan });
    await j.acquireLock();
    const other = await JobJournal.load(j.file);
    await assert.rejects(resumeJob(other, { client: scripted(), ...FAST }), (e: unknown) => e instanceof JournalError && e.code === 'locked');
    assert.equal((await listJobs(dir))[0]!.locked, true);
    assert.deepEqual(await listUnfinishedJobs(dir), []);
    await j.releaseLock();
    await fsp.writeFile(`${j.file}.lock`, JSON.stringify({ pid: 2 ** 22 + 12345, host: os.hostname(), at: new Date().toISOString() }));
    const client = scripted();
    const r = await resumeJob(other, { client, ...FAST, clock: skippingClock() });
    assert.equal(r.outcome, 'succeeded');
    assert.equal(client.sent.length, 3);
    await assert.rejects(fsp.access(`${j.file}.lock`), 'the lock is released after the run');
  });

  it('prunes old finished jobs only; markFinished and delete', async () => {
    const a = await JobJournal.create(dir, { source: {}, plan: makePlan() });
    const b = await JobJournal.create(dir, { source: {}, plan: makePlan() });
    await a.markFinished();
    assert.deepEqual((await listUnfinishedJobs(dir)).map((s) => s.jobId), [b.id]);
    assert.deepEqual(await pruneJobs(dir, { maxAgeMs: 60_000 }), []);
    const later = Date.now() + 3_600_000;
    assert.deepEqual(await pruneJobs(dir, { maxAgeMs: 60_000, now: () => later }), [a.file]);
    assert.equal((await listJobs(dir)).length, 1);
    await b.delete();
    assert.deepEqual(await listJobs(dir), []);
  });
});
