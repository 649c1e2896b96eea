// Changes of four adds run in a child process against the real sandbox (their POSTs answered
// late, after they were applied) and are killed with SIGKILL at random points: between the
// reads before an add and its POST, while the POST is out, after the sandbox applied it and
// before the answer came, after the answer and before the journal kept it. Each is resumed
// here from its journal as after a reload, on a sandbox that keeps metadata and on one that
// drops it: no add makes its items twice, and every item made is known to the journal (an add
// succeeded with exactly its IDs, or reported unknown with the real item among its candidates).
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ServiceClient } from '../../src/api/client';
import { JobJournal, listUnfinishedJobs, type ChangeRequest } from '../../src/bulk';
import { createSandbox, generateDataset, type Sandbox } from '../../src/sandbox';
import { addOf, checkAdds, newTally, parentFolders, settleJob, type AddTally } from './bulk-add-fault-helpers';
import { clientFor, fault } from './bulk-helpers';

/** A small seeded generator (mulberry32): the same kill points on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const RUNS_PER_MODE = 6;
const ANSWER_DELAY_MS = 150;

describe('bulk adds killed at random points (kill -9) and resumed: 0 duplicates, no item the journal does not know', function () {
  this.timeout(180_000);
  let dir: string;
  const sandboxes: Sandbox[] = [];
  const clients: ServiceClient[] = [];
  before(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'wis-add-kill-'));
  });
  after(async () => {
    for (const c of clients) await c.close();
    for (const s of sandboxes) await s.close();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  /** Runs `requests` in a child, kills it `afterMs` after its journal exists (unless it ended first); the journal's path. */
  async function runAndKill(sandbox: Sandbox, sub: string, requests: ChangeRequest[], afterMs: number): Promise<{ file: string; killed: boolean }> {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'bulk-add-kill-child.ts'), sandbox.url, sub, JSON.stringify(requests)], {
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
      child.on('exit', () => reject(new Error(`child ended before its journal: ${stderr}`)));
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), afterMs);
    const end = await exited;
    clearTimeout(timer);
    if (end !== 'SIGKILL') assert.equal(end, 0, stderr);
    return { file, killed: end === 'SIGKILL' };
  }

  async function runMode(keepMetadata: boolean, seed: number): Promise<{ tally: AddTally; interrupted: number; killed: number }> {
    const sandbox = await createSandbox({ data: generateDataset({ workItems: 200, users: 10, organizations: 2, processCategories: 0, seed: 7 }), keepMetadata });
    sandboxes.push(sandbox);
    const steady = clientFor(sandbox, { headersMs: 5000 });
    clients.push(steady);
    const [p1, p2] = parentFolders(sandbox);
    const next = random(seed);
    const tally = newTally();
    let interrupted = 0;
    let killed = 0;
    for (let run = 0; run < RUNS_PER_MODE; run++) {
      const name = (k: number) => `K${seed}-${run}-${k}`;
      const requests = [addOf(p1!, name(0), 1), addOf(p2!, name(1), 0), addOf(p1!, name(2), 2), addOf(p2!, name(3), 1)];
      // Every POST is applied, then answered late; the reads below the parents take a little while.
      for (const p of [p1!, p2!]) {
        await fault(sandbox, { method: 'POST', pathContains: `/workItems/${p}/subItems`, answerDelayMs: ANSWER_DELAY_MS, times: 10 });
        await fault(sandbox, { method: 'GET', pathContains: `/workItems/${p}/subItems`, latencyMs: 20, times: 10 });
      }
      const sub = path.join(dir, `${keepMetadata ? 'kept' : 'dropped'}-${run}`);
      const { file, killed: wasKilled } = await runAndKill(sandbox, sub, requests, Math.round(next() * 1400));
      if (wasKilled) killed++;
      // What the sandbox was doing when the child died ends (a held answer, a read), then the faults go.
      await new Promise((r) => setTimeout(r, ANSWER_DELAY_MS + 150));
      await fetch(`${sandbox.origin}/_sandbox/faults`, { method: 'DELETE' });
      // After a "reload": the journal as on disk; a request it holds as sent reads back as interrupted.
      const onDisk = await JobJournal.load(file);
      interrupted += onDisk.requests.filter((r) => r.error?.kind === 'interrupted').length;
      if (wasKilled && onDisk.requests.some((r) => r.state !== 'succeeded')) assert.equal((await listUnfinishedJobs(sub)).length, 1, 'the killed job is offered for resumption');
      await settleJob(file, { client: steady, requestsPerMinute: Infinity, allowAboveServiceLimit: true, addSettleMs: 200 });
      await checkAdds(sandbox, file, tally, `run ${run} (metadata ${keepMetadata ? 'kept' : 'dropped'})`);
    }
    assert.equal(tally.duplicates, 0, 'no add made its items twice');
    assert.deepEqual(tally.unreported, [], 'every item made is known to the journal');
    return { tally, interrupted, killed };
  }

  it('metadata kept: each add ends succeeded with exactly its IDs, those interrupted found by their key', async () => {
    const { tally, interrupted, killed } = await runMode(true, 11);
    assert.equal(tally.adds, RUNS_PER_MODE * 4);
    assert.equal(tally.undecided, 0, JSON.stringify(tally));
    assert.ok(killed >= RUNS_PER_MODE - 2, `most runs were killed before they ended (${killed})`);
    assert.ok(interrupted >= 1 && tally.foundByKey >= 1, `some add was interrupted and then found (${interrupted} interrupted, ${JSON.stringify(tally)})`);
  });

  it('metadata dropped: each add ends succeeded with exactly its IDs or reported with the real item among its candidates', async () => {
    const { tally, interrupted, killed } = await runMode(false, 23);
    assert.equal(tally.adds, RUNS_PER_MODE * 4);
    assert.equal(tally.foundByKey, 0);
    assert.ok(killed >= RUNS_PER_MODE - 2, `most runs were killed before they ended (${killed})`);
    assert.ok(interrupted >= 1, `some add was interrupted (${interrupted}, ${JSON.stringify(tally)})`);
  });
});
