import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ServiceClient } from '../../src/api/client';
import { readWorkItems } from '../../src/api/reads';
import { JobJournal, JournalError, listUnfinishedJobs, planJob, resumeJob, runJob, type BulkClient } from '../../src/bulk';
import { planUndoForJob } from '../../src/bulk/jobValues';
import { readValues } from '../../src/bulk/readValues';
import { writeSnapshot } from '../../src/bulk/snapshot';
import type { Sandbox } from '../../src/sandbox';
import { addDays, clientFor, fault, scheduledTaskIds, snapshotDates, startSandbox, storedItem } from './bulk-helpers';

// Every resumable job can be undone or says why not. A Send is
// killed (SIGKILL) after it created the job's journal and before it wrote the values
// before beside it; the job is then offered for resumption.
const FAST = { requestsPerMinute: Infinity, minIntervalMs: 0, allowAboveServiceLimit: true } as const;

/** Reads the values before of a job again (over HTTP) and writes them beside its journal, as Send does. */
function rereader(client: ServiceClient): (journal: JobJournal) => Promise<void> {
  return async (journal) => {
    const v = await readValues((ids, fields, o) => readWorkItems(client, ids, { fields, signal: o.signal }), journal.plan.ids, journal.plan.parts[0]!.update);
    await writeSnapshot(journal.file, { kind: 'before', jobId: journal.id, fields: v.fields, items: v.items, missing: v.missing });
  };
}

/** Records each update call and whether the values before were on disk when it left. */
function watching(client: BulkClient, journalFile: () => string): BulkClient & { calls: { ids: string[]; valuesOnDisk: boolean }[] } {
  const calls: { ids: string[]; valuesOnDisk: boolean }[] = [];
  return {
    calls,
    updateWorkItems(ids, body, o) {
      calls.push({ ids: [...ids], valuesOnDisk: fs.existsSync(`${journalFile()}.before`) });
      return client.updateWorkItems(ids, body, o);
    },
  };
}

describe('a job killed between its journal and its values before', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let dir: string;
  before(async () => {
    sandbox = await startSandbox(200);
  });
  beforeEach(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'wis-values-'));
  });
  afterEach(async () => {
    await fetch(`${sandbox.origin}/_sandbox/faults`, { method: 'DELETE' });
    await fsp.rm(dir, { recursive: true, force: true });
  });
  after(async () => {
    await sandbox.close();
  });

  it('kill -9 before the values before are written: the job is offered as missing them, not resumed silently; read again before its first request, it sends each item once and can be undone', async () => {
    const ids = scheduledTaskIds(sandbox, 20);
    const before = snapshotDates(sandbox, ids);
    const DAYS = 3;
    // The reads of the values before take long: the child is killed while it reads them.
    await fault(sandbox, { latencyMs: 20_000, method: 'GET', pathContains: '/workitem/workItems/', times: 100 });
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'bulk-child-values.ts'), sandbox.url, dir, JSON.stringify(ids), String(DAYS)], {
      cwd: path.join(__dirname, '..', '..'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
    const file = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        const nl = stdout.indexOf('\n');
        if (nl >= 0) resolve(stdout.slice(0, nl));
      });
      child.on('exit', () => reject(new Error(`child ended early: ${stderr}`)));
    });
    await new Promise((r) => setTimeout(r, 300)); // inside the read of the values before
    child.kill('SIGKILL');
    assert.equal(await exited, 'SIGKILL');
    assert.ok(!stdout.includes('values written'), 'killed before the values were written');
    await fetch(`${sandbox.origin}/_sandbox/faults`, { method: 'DELETE' });

    // After a "reload": the job is offered, and says it has no values before.
    const unfinished = await listUnfinishedJobs(dir);
    assert.equal(unfinished.length, 1);
    assert.equal(unfinished[0]!.file, file);
    assert.equal(unfinished[0]!.valuesBefore, 'missing');
    assert.equal(unfinished[0]!.unsent, 4);
    const journal = await JobJournal.load(file);
    assert.equal(await journal.valuesBeforeState(), 'missing');

    const client = clientFor(sandbox);
    try {
      // Resumed as if nothing were wrong: refused, nothing sent.
      const idle = watching(client, () => file);
      await assert.rejects(resumeJob(journal, { client: idle, ...FAST }), (e: unknown) => e instanceof JournalError && e.code === 'no-values-before' && /could not be undone/.test(e.message));
      assert.equal(idle.calls.length, 0);
      for (const id of ids) assert.equal((await storedItem(sandbox, id)).plannedStartDate, before.get(id)!.plannedStartDate);

      // Read again before its first request: every request leaves with the values on disk.
      const rec = watching(client, () => file);
      const result = await resumeJob(journal, { client: rec, ...FAST, readValuesBefore: rereader(client) });
      assert.equal(result.outcome, 'succeeded');
      assert.equal(rec.calls.length, 4);
      assert.ok(rec.calls.every((c) => c.valuesOnDisk), 'the values before were on disk before the first request left');
      assert.equal(await journal.valuesBeforeState(), 'present');
      for (const id of ids) assert.equal((await storedItem(sandbox, id)).plannedStartDate, addDays(before.get(id)!.plannedStartDate, DAYS), `item ${id} shifted once`);

      // And it can be undone: the undo puts every date back.
      const { plan: undo } = await planUndoForJob(await JobJournal.load(file));
      assert.deepEqual(undo.nonInvertible, []);
      assert.equal(undo.items, ids.length);
      for (const doc of undo.documents) {
        const r = await runJob(planJob({ workItemIds: doc.workItemIds, update: doc.update, baseUrl: sandbox.url }), { client, ...FAST });
        assert.equal(r.outcome, 'succeeded');
      }
      for (const id of ids) {
        const item = await storedItem(sandbox, id);
        assert.equal(item.plannedStartDate, before.get(id)!.plannedStartDate, `item ${id} start put back`);
        assert.equal(item.plannedFinishDate, before.get(id)!.plannedFinishDate, `item ${id} end put back`);
      }
    } finally {
      await client.close();
    }
  });

  it('a job without values before is resumed without undo only when asked so, and says it cannot be undone', async () => {
    const ids = scheduledTaskIds(sandbox, 40).slice(20, 30);
    const plan = planJob({ workItemIds: ids, update: { moveScheduleDays: 1 }, baseUrl: sandbox.url, maxIdsPerRequest: 5 });
    const journal = await JobJournal.create(dir, { source: {}, plan, valuesBefore: 'expected' });
    const client = clientFor(sandbox);
    const lines: string[] = [];
    const logger = { info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m), error: (m: string) => lines.push(m), debug: () => undefined, trace: () => undefined };
    try {
      const r = await resumeJob(journal, { client, ...FAST, withoutUndo: true, logger: logger as never });
      assert.equal(r.outcome, 'succeeded');
      assert.ok(lines.some((l) => /without its values before: it cannot be undone/.test(l)), lines.join('\n'));
      assert.equal(await journal.valuesBeforeState(), 'missing');
      const { values } = await planUndoForJob(journal);
      assert.equal(values.before, undefined, 'nothing to undo from, as said');
    } finally {
      await client.close();
    }
  });

  it('a job some of whose requests left is never given values read afterwards: only "resume without undo" is offered', async () => {
    const ids = scheduledTaskIds(sandbox, 60).slice(40, 50);
    const plan = planJob({ workItemIds: ids, update: { moveScheduleDays: 1 }, baseUrl: sandbox.url, maxIdsPerRequest: 5 });
    const journal = await JobJournal.create(dir, { source: {}, plan, valuesBefore: 'expected' });
    await journal.updateRequest(0, { state: 'succeeded', attempts: 1 });
    let reread = 0;
    const client = clientFor(sandbox);
    try {
      await assert.rejects(
        resumeJob(journal, { client, ...FAST, readValuesBefore: async () => void reread++ }),
        (e: unknown) => e instanceof JournalError && e.code === 'no-values-before' && /resume it without undo/.test(e.message),
      );
      assert.equal(reread, 0);
    } finally {
      await client.close();
    }
  });

  it('a job sent without values by choice (off) resumes as before, an older journal without them is listed as unrecorded, and one whose values are on disk as present', async () => {
    const ids = scheduledTaskIds(sandbox, 80).slice(60, 70);
    const plan = planJob({ workItemIds: ids, update: { moveScheduleDays: 1 }, baseUrl: sandbox.url, maxIdsPerRequest: 5 });
    const off = await JobJournal.create(dir, { source: {}, plan, valuesBefore: 'off' });
    const kept = await JobJournal.create(dir, { source: {}, plan, valuesBefore: 'expected' });
    const older = await JobJournal.create(dir, { source: {}, plan });
    await writeSnapshot(kept.file, { kind: 'before', jobId: kept.id, fields: ['PlannedStartDate'], items: new Map(ids.map((id) => [id, { PlannedStartDate: null }])) });
    const listed = new Map((await listUnfinishedJobs(dir)).map((s) => [s.jobId, s.valuesBefore]));
    assert.equal(listed.get(off.id), 'off');
    assert.equal(listed.get(kept.id), 'present');
    assert.equal(listed.get(older.id), 'unrecorded');
    const client = clientFor(sandbox);
    try {
      assert.equal((await resumeJob(off, { client, ...FAST })).outcome, 'succeeded');
    } finally {
      await client.close();
    }
  });
});
