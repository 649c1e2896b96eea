// Adds under the faults updates meet, against the real sandbox over HTTP with real undici: a
// slow answer that the client gives up on after the add was applied, a request held before it
// is applied, a connection reset after or before applying, 503 or 500 answered after the add
// was applied (a gateway that forwarded it), 503 before, a trusted retry of a 503, a failed read
// before the add. 100 jobs, half on a sandbox that keeps metadata and half on one that drops it,
// each settled as the user would (Retry Failed, Resume): no add makes its items twice, and each
// is succeeded with exactly the IDs it made or reported unknown with them among its candidates.
import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ServiceClient } from '../../src/api/client';
import { JobJournal, planChange, runJob, type ChangeRequest } from '../../src/bulk';
import { createSandbox, generateDataset, type Sandbox } from '../../src/sandbox';
import { addOf, checkAdds, newTally, parentFolders, settleJob, type AddTally } from './bulk-add-fault-helpers';
import { clientFor, fault } from './bulk-helpers';

/**
 * How long the client waits for an answer in the faulty run (undici's timers tick coarsely: it
 * gives up after about a second); the slow faults take longer.
 */
const CLIENT_WAIT_MS = 300;
const SLOW_MS = 1300;
/**
 * An add of unknown outcome is looked for this long after its attempt: longer than the sandbox
 * may still hold a request the client gave up on; the other faults hold none.
 */
const settleMsOf = (pattern: Pattern): number => (pattern === 'slow-answer-after-apply' || pattern === 'held-before-apply' ? SLOW_MS + 300 : 50);

type Pattern =
  | 'none'
  | 'slow-answer-after-apply'
  | 'held-before-apply'
  | 'reset-after-apply'
  | 'reset-before-apply'
  | '503-after-apply'
  | '503-before-apply'
  | '500-after-apply'
  | 'trusted-503-after-apply'
  | 'read-before-add-fails';

const PATTERNS: readonly Pattern[] = [
  'none',
  'slow-answer-after-apply',
  'held-before-apply',
  'reset-after-apply',
  'reset-before-apply',
  '503-after-apply',
  '503-before-apply',
  '500-after-apply',
  'trusted-503-after-apply',
  'read-before-add-fails',
];

/** The fault of a pattern, on the first POST (or read) below `parent`. */
function faultOf(pattern: Pattern, parent: string): Record<string, unknown> | undefined {
  const post = { method: 'POST', pathContains: `/workItems/${parent}/subItems` };
  switch (pattern) {
    case 'none':
      return undefined;
    case 'slow-answer-after-apply':
      return { ...post, answerDelayMs: SLOW_MS };
    case 'held-before-apply':
      return { ...post, latencyMs: SLOW_MS };
    case 'reset-after-apply':
      return { ...post, dropAfterApply: true };
    case 'reset-before-apply':
      return { ...post, dropBeforeApply: true };
    case '503-after-apply':
    case 'trusted-503-after-apply':
      return { ...post, statusAfterApply: 503 };
    case '503-before-apply':
      return { ...post, status: 503 };
    case '500-after-apply':
      return { ...post, statusAfterApply: 500 };
    case 'read-before-add-fails':
      return { method: 'GET', pathContains: `/workItems/${parent}/subItems`, status: 500 };
  }
}

const FAST = { requestsPerMinute: Infinity, allowAboveServiceLimit: true } as const;

describe('bulk adds under faults: 0 duplicates, 0 unknown left unreported (100 jobs, metadata kept and dropped)', function () {
  this.timeout(180_000);
  const JOBS_PER_PATTERN_AND_MODE = 5;
  const POOL = 10;
  let dir: string;
  const sandboxes: Record<'kept' | 'dropped', Sandbox | undefined> = { kept: undefined, dropped: undefined };
  const clients: ServiceClient[] = [];
  before(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'wis-add-faults-'));
    const data = () => generateDataset({ workItems: 200, users: 10, organizations: 2, processCategories: 0, seed: 7 });
    sandboxes.kept = await createSandbox({ data: data() });
    sandboxes.dropped = await createSandbox({ data: data(), keepMetadata: false });
  });
  after(async () => {
    for (const c of clients) await c.close();
    await sandboxes.kept?.close();
    await sandboxes.dropped?.close();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  /** One job: one or two adds below `parent`, the pattern's fault on the first one, then settled and checked. */
  async function job(sandbox: Sandbox, faulty: ServiceClient, steady: ServiceClient, parent: string, pattern: Pattern, n: number, tally: AddTally): Promise<void> {
    const label = `job ${n} (${pattern}, metadata ${sandbox.keepMetadata ? 'kept' : 'dropped'})`;
    const requests: ChangeRequest[] = [addOf(parent, `F${n} first`, n % 3)];
    if (n % 2 === 0) requests.push(addOf(parent, `F${n} second`, 1));
    const plan = planChange({ requests, baseUrl: sandbox.url });
    const journal = await JobJournal.create(dir, { source: { uri: `untitled:faults-${n}.workitems.json`, text: '{}' }, plan });
    const spec = faultOf(pattern, parent);
    if (spec) await fault(sandbox, spec);
    await runJob(plan, { client: faulty, journal, ...FAST, addSettleMs: settleMsOf(pattern), retryRefusedUpdates: pattern === 'trusted-503-after-apply' });
    await settleJob(journal.file, { client: steady, ...FAST, addSettleMs: settleMsOf(pattern) });
    await checkAdds(sandbox, journal.file, tally, label);
  }

  async function runMode(mode: 'kept' | 'dropped', first: number): Promise<AddTally> {
    const sandbox = sandboxes[mode]!;
    const faulty = clientFor(sandbox, { headersMs: CLIENT_WAIT_MS });
    const steady = clientFor(sandbox, { headersMs: 5000 });
    clients.push(faulty, steady);
    const parents = parentFolders(sandbox).slice(0, POOL);
    assert.equal(parents.length, POOL, 'enough folders to add below');
    const work = PATTERNS.flatMap((pattern) => Array.from({ length: JOBS_PER_PATTERN_AND_MODE }, () => pattern));
    const tally = newTally();
    let next = 0;
    // A few jobs at a time, each below a folder of its own (its fault goes to its own POST).
    await Promise.all(
      parents.map(async (parent) => {
        for (let k = next++; k < work.length; k = next++) await job(sandbox, faulty, steady, parent, work[k]!, first + k, tally);
      }),
    );
    assert.equal(tally.duplicates, 0, 'no add made its items twice');
    assert.deepEqual(tally.unreported, [], 'every add is succeeded with its IDs, or unknown with what it made among its candidates');
    return tally;
  }

  it('metadata kept: every add ends succeeded with exactly its IDs (those of unknown outcome found by their key), none twice', async () => {
    const tally = await runMode('kept', 0);
    assert.equal(tally.adds, PATTERNS.length * JOBS_PER_PATTERN_AND_MODE * 1.5, JSON.stringify(tally));
    assert.equal(tally.undecided, 0, 'where metadata is kept nothing is left to the user');
    assert.ok(tally.foundByKey >= 10, `adds of unknown outcome found by their key: ${JSON.stringify(tally)}`);
    assert.ok(tally.answered >= 20, JSON.stringify(tally));
  });

  it('metadata dropped: found again by parent, name and what is new since; what cannot be told is reported with the real item as a candidate; none twice', async () => {
    const tally = await runMode('dropped', 1000);
    assert.equal(tally.adds, PATTERNS.length * JOBS_PER_PATTERN_AND_MODE * 1.5, JSON.stringify(tally));
    assert.equal(tally.foundByKey, 0, 'a sandbox that drops metadata shows no key');
    assert.ok(tally.undecided >= 10, `adds reported unknown with candidates: ${JSON.stringify(tally)}`);
    assert.ok(tally.answered >= 20, JSON.stringify(tally));
  });
});
