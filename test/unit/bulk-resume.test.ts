import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { confirmUnknown, JobJournal, listUnfinishedJobs, resendUnknown, resumeJob } from '../../src/bulk';
import type { Sandbox } from '../../src/sandbox';
import { addDays, clientFor, fault, recording, scheduledTaskIds, snapshotDates, startSandbox, storedItem } from './bulk-helpers';

// A job runs in a child process against the sandbox (with latency), is killed
// with SIGKILL mid-job, and is resumed here from its journal.
describe('bulk resumption after the process is killed', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let dir: string;
  before(async () => {
    sandbox = await startSandbox(200);
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'wis-kill-'));
  });
  after(async () => {
    await sandbox.close();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  async function killAndResume(mode: 'one' | 'change'): Promise<void> {
    const ids = scheduledTaskIds(sandbox, 40);
    const before = snapshotDates(sandbox, ids);
    const DAYS = 4;
    // A change: the first half of the items by DAYS, the second by twice as many.
    const daysOf = (id: string): number => (mode === 'change' && ids.indexOf(id) >= Math.ceil(ids.length / 2) ? 2 * DAYS : DAYS);
    // Every PUT takes 400 ms in the sandbox; the child runs one request at a time.
    await fault(sandbox, { latencyMs: 400, method: 'PUT', times: 1000 });

    const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'bulk-child.ts'), sandbox.url, dir, JSON.stringify(ids), String(DAYS), '5', ...(mode === 'change' ? ['change'] : [])], {
      cwd: path.join(__dirname, '..', '..'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
    const file = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const nl = out.indexOf('\n');
        if (nl >= 0) resolve(out.slice(0, nl));
      });
      child.on('exit', () => reject(new Error(`child ended early: ${stderr}`)));
    });

    // Kill it once two requests have succeeded and the third is on its way.
    for (;;) {
      // What a reload would read now: a request on disk as sent reads back as interrupted.
      const onDisk = await JobJournal.load(file, { responses: false });
      const states = onDisk.requests.map((r) => (r.error?.kind === 'interrupted' ? 'sent' : r.state));
      if (states.filter((s) => s === 'succeeded').length >= 2 && states.includes('sent')) break;
      if (states.every((s) => s === 'succeeded')) assert.fail('the child finished before it could be killed');
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill('SIGKILL');
    assert.equal(await exited, 'SIGKILL');

    // Let the sandbox finish the request that was in flight (it applies it).
    await new Promise((r) => setTimeout(r, 800));
    await fetch(`${sandbox.origin}/_sandbox/faults`, { method: 'DELETE' });

    // After a "reload": the job is offered for resumption.
    const unfinished = await listUnfinishedJobs(dir);
    assert.equal(unfinished.length, 1);
    const journal = await JobJournal.load(unfinished[0]!.file);
    const states = journal.requests.map((r) => r.state);
    assert.equal(states.length, 8);
    const interrupted = journal.indexesIn('unknown');
    assert.equal(interrupted.length, 1, `states after the kill: ${states.join(',')}`);
    assert.equal(journal.requests[interrupted[0]!]!.error!.kind, 'interrupted');
    const neverSent = journal.indexesIn('pending');
    assert.ok(neverSent.length >= 1);

    const client = clientFor(sandbox);
    try {
      const rec = recording(client);
      const result = await resumeJob(journal, { client: rec, concurrency: 2 });
      // Only the never-sent requests were sent, once each.
      assert.deepEqual(
        rec.calls.map((c) => c.ids),
        neverSent.map((i) => journal.plan.requests[i]!.ids),
      );
      assert.equal(result.requests[interrupted[0]!]!.state, 'unknown');
      for (const i of neverSent) assert.equal(result.requests[i]!.state, 'succeeded');

      // The user checks the interrupted request on the service and decides.
      const unknownIds = journal.plan.requests[interrupted[0]!]!.ids;
      const probe = await storedItem(sandbox, unknownIds[0]!);
      if (probe.plannedStartDate === addDays(before.get(unknownIds[0]!)!.plannedStartDate, daysOf(unknownIds[0]!))) await confirmUnknown(journal, interrupted);
      else await resendUnknown(journal, interrupted, { client });

      for (const id of ids) {
        const item = await storedItem(sandbox, id);
        assert.equal(item.plannedStartDate, addDays(before.get(id)!.plannedStartDate, daysOf(id)), `item ${id} start`);
        assert.equal(item.plannedFinishDate, addDays(before.get(id)!.plannedFinishDate, daysOf(id)), `item ${id} end`);
      }
      const final = await JobJournal.load(journal.file);
      assert.ok(final.requests.every((r) => r.state === 'succeeded'));
      assert.ok(final.isFinished);
      assert.deepEqual(await listUnfinishedJobs(dir), []);
    } finally {
      await client.close();
    }
  }

  it('sends only never-sent requests; every item is shifted exactly once', () => killAndResume('one'));

  it('a change of two requests: resumed from its one journal, each item shifted once by its own request, none twice, none lost', () => killAndResume('change'));
});
