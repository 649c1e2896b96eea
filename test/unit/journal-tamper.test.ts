// A journal edited on disk cannot send a request elsewhere: the path a request is sent to
// must be the one its work item IDs make (each checked as when the job was planned).
// A path with `%2F..%2F` inside, or a request whose path or IDs differ from its plan's, is
// read as damaged, and nothing is sent.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { JobJournal, JournalError, planJob } from '../../src/bulk';

describe('job journal: a tampered request path is refused on reading', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wis-tamper-'));
  });
  afterEach(async () => fs.rm(dir, { recursive: true, force: true }));

  async function journalWith(edit: (json: Record<string, any>) => void): Promise<string> {
    const plan = planJob({ workItemIds: ['101', '102', '103'], update: { fields: { Name: 'x' } }, baseUrl: 'http://127.0.0.1:9/api', maxIdsPerRequest: 2 });
    const journal = await JobJournal.create(dir, { source: {}, plan });
    const json = JSON.parse(await fs.readFile(journal.file, 'utf8')) as Record<string, any>;
    edit(json);
    await fs.writeFile(journal.file, JSON.stringify(json));
    return journal.file;
  }

  it('an untouched journal reads back', async () => {
    const file = await journalWith(() => undefined);
    const j = await JobJournal.load(file);
    assert.deepEqual(j.requests.map((r) => r.path), ['/workitem/workItems/101,102', '/workitem/workItems/103']);
  });

  for (const [label, tampered] of [
    ['"%2F..%2F" inside the path', '/workitem/workItems/101%2F..%2F..%2Fsystem%2Fusers,102'],
    ['a dot segment', '/workitem/workItems/../../system/users'],
    ['another operation', '/system/organizations/1001/users'],
  ] as const) {
    it(`a plan request whose path is ${label} is damaged`, async () => {
      const file = await journalWith((j) => {
        j.plan.requests[0].path = tampered;
      });
      await assert.rejects(JobJournal.load(file), (e: unknown) => e instanceof JournalError && e.code === 'corrupt' && /damaged/.test(e.message));
    });
  }

  it('a request record whose path differs from its plan request is damaged', async () => {
    const file = await journalWith((j) => {
      j.requests[1].path = '/workitem/workItems/103%2F..%2F104';
    });
    await assert.rejects(JobJournal.load(file), (e: unknown) => e instanceof JournalError && e.code === 'corrupt' && /request #2/.test(e.message));
  });

  it('IDs written out beside a path that is not theirs are damaged', async () => {
    const file = await journalWith((j) => {
      j.plan.requests[1].ids = ['103'];
      delete j.plan.requests[1].n;
      j.plan.requests[1].path = '/workitem/workItems/999';
    });
    await assert.rejects(JobJournal.load(file), /request #2: its path is not the one/);
  });
});
