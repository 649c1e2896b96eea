// A change with an add runs in a child process against the sandbox (with latency), is
// killed with SIGKILL while its POST is under way, and is resumed here from its journal:
// the add reads back as of unknown outcome and is never sent again by the resumption, the
// requests never sent are sent once each, and the sandbox holds exactly one copy of the
// added items once the user has said what happened.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { confirmUnknown, JobJournal, listUnfinishedJobs, resendUnknown, resumeJob, type BulkClient } from '../../src/bulk';
import type { Sandbox } from '../../src/sandbox';
import { addDays, clientFor, fault, scheduledTaskIds, snapshotDates, startSandbox, storedItem } from './bulk-helpers';

describe('bulk resumption of a change with an add after the process is killed', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let dir: string;
  before(async () => {
    sandbox = await startSandbox(200);
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'wis-kill-add-'));
  });
  after(async () => {
    await sandbox.close();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it('killed while its POST is out: the add is unknown, never re-sent by the resumption; one copy in the end; every item shifted once', async () => {
    const ids = scheduledTaskIds(sandbox, 20);
    const before = snapshotDates(sandbox, ids);
    const DAYS = 3;
    const NAME = `Killed add ${process.pid}`;
    const parent = sandbox.data.workItems.find((w) => w.itemTypeId === '41' && w.parentId !== null && !w.isDeleted)!.id;
    const copies = () => sandbox.data.workItems.filter((w) => !w.isDeleted && w.name === NAME).length;
    // Every write takes 400 ms in the sandbox; the child runs one request at a time.
    await fault(sandbox, { latencyMs: 400, times: 1000, pathContains: '/workitem/workItems/' });

    const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'bulk-add-child.ts'), sandbox.url, dir, JSON.stringify(ids), String(DAYS), parent, NAME], {
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
    // The add is request #2 (two batches of five before it): kill once it has left.
    const ADD = 2;
    for (;;) {
      const onDisk = await JobJournal.load(file, { responses: false });
      const r = onDisk.requests[ADD]!;
      if (r.error?.kind === 'interrupted' || r.state === 'sent') break;
      if (r.state === 'succeeded') assert.fail('the add finished before the child could be killed');
      await new Promise((res) => setTimeout(res, 10));
    }
    // Marked sent before it leaves: a moment later it is in the sandbox, inside its 400 ms.
    await new Promise((res) => setTimeout(res, 150));
    child.kill('SIGKILL');
    assert.equal(await exited, 'SIGKILL');
    // The sandbox finishes the POST that was under way (it applies it), then answers no one.
    await new Promise((r) => setTimeout(r, 800));
    await fetch(`${sandbox.origin}/_sandbox/faults`, { method: 'DELETE' });

    const unfinished = await listUnfinishedJobs(dir);
    assert.equal(unfinished.length, 1);
    const journal = await JobJournal.load(unfinished[0]!.file);
    assert.equal(journal.requests[ADD]!.state, 'unknown', journal.requests.map((r) => r.state).join(','));
    assert.equal(journal.requests[ADD]!.error!.kind, 'interrupted');
    assert.deepEqual(journal.plan.parts[1]!.add!.parentId, parent, 'the add is in the journal, with its body');

    const client = clientFor(sandbox);
    try {
      const calls: string[] = [];
      const counting: BulkClient = {
        updateWorkItems: (i, b, o) => (calls.push(`PUT ${i.join(',')}`), client.updateWorkItems(i, b, o)),
        addSubItems: (p, b, o) => (calls.push(`POST ${p}`), client.addSubItems(p, b, o)),
        deleteWorkItems: (i, o) => (calls.push(`DELETE ${i.join(',')}`), client.deleteWorkItems(i, o)),
      };
      const pending = journal.indexesIn('pending');
      const result = await resumeJob(journal, { client: counting, withoutUndo: true });
      assert.ok(!calls.some((c) => c.startsWith('POST')), `the add is not sent again by the resumption: ${calls.join('; ')}`);
      assert.equal(calls.length, pending.length);
      assert.equal(result.requests[ADD]!.state, 'unknown');
      assert.ok(copies() <= 1, `never two copies (${copies()})`);

      // The user looks at the service and says what happened.
      if (copies() === 1) await confirmUnknown(journal, [ADD]);
      else await resendUnknown(journal, [ADD], { client });
      assert.equal(copies(), 1, 'exactly one copy');
      for (const id of ids) assert.equal((await storedItem(sandbox, id)).plannedStartDate, addDays(before.get(id)!.plannedStartDate, DAYS), `item ${id} shifted once`);
      assert.ok((await JobJournal.load(journal.file)).isFinished);
    } finally {
      await client.close();
    }
  });
});
