// A change with an add runs in a child process against the sandbox (with latency), is
// killed with SIGKILL while its POST is under way, and is resumed here from its journal:
// the add reads back as of unknown outcome; the resumption reads below its parent, finds
// its items by their key and never sends it again, the requests never sent are sent once
// each, and the sandbox holds exactly one copy of the added items. A client that cannot
// read there leaves the add to the user's word, as before.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { addedItems, JobJournal, listUnfinishedJobs, resumeJob, type BulkClient } from '../../src/bulk';
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

  it('killed while its POST is out: the add is unknown, found by its key on resumption and never re-sent; one copy; every item shifted once', async () => {
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
      // Without reads below the parent, the add waits for the user's word (it is not even looked for).
      const blind = await resumeJob(await JobJournal.load(journal.file), { client: counting, withoutUndo: true });
      assert.equal(blind.requests[ADD]!.state, 'unknown');
      assert.equal(calls.length, pending.length, calls.join('; '));
      assert.ok(!calls.some((c) => c.startsWith('POST')), `the add is not sent again by the resumption: ${calls.join('; ')}`);
      // Killed once its mark was on disk: the POST was under way (applied) or had not left yet.
      const landed = copies();
      assert.ok(landed <= 1, `never two copies (${landed})`);

      const reading: BulkClient = { ...counting, getSubItems: (i, q, o) => client.getSubItems(i, q, o), getWorkItems: (i, f, o) => client.getWorkItems(i, f, o) };
      const again = await JobJournal.load(journal.file);
      const result = await resumeJob(again, { client: reading, withoutUndo: true, addSettleMs: 0 });
      // Found by its key when it had landed (never sent again); sent once when it had not.
      assert.equal(calls.filter((c) => c.startsWith('POST')).length, 1 - landed, calls.join('; '));
      assert.equal(result.requests[ADD]!.state, 'succeeded');
      assert.equal(result.requests[ADD]!.matched, landed === 1 ? 'key' : undefined);
      const [added] = addedItems(again.plan, again.requests);
      const made = sandbox.data.workItems.filter((w) => !w.isDeleted && (w.name === NAME || w.name.startsWith(`${NAME} `))).map((w) => w.id);
      assert.deepEqual([...added!.ids].sort(), made.sort(), 'the IDs of the add are exactly the items it made');
      assert.equal(copies(), 1, 'exactly one copy');
      for (const id of ids) assert.equal((await storedItem(sandbox, id)).plannedStartDate, addDays(before.get(id)!.plannedStartDate, DAYS), `item ${id} shifted once`);
      assert.ok((await JobJournal.load(journal.file)).isFinished);
    } finally {
      await client.close();
    }
  });
});
