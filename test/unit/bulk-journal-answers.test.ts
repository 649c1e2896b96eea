// The job journal writes each answer as the client read it: a large answer as the service's
// own JSON text (its bytes kept by the client), the others serialized, and every one reads
// back equal to what the job got. Against a tiny HTTP server over real HTTP.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ServiceClient } from '../../src/api/client';
import { rawJsonOf } from '../../src/api/rawJson';
import { JobJournal, planJob, runJob } from '../../src/bulk';
import { startServer } from './api-helpers';

const FAST = { requestsPerMinute: Infinity, minIntervalMs: 0, allowAboveServiceLimit: true } as const;

describe('bulk journal: answers written as the client read them', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'wis-journal-raw-'));
  });
  afterEach(async () => {
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it('a large answer is logged as its own JSON text (spacing kept); one with a line break, a filled-in default or a small one is serialized; every one reads back equal', async () => {
    // Request 0: a large answer, spaced JSON on one line (kept as is). Request 1: JSON over two
    // lines (serialized). Request 2: no affectedItems (the check fills in [], so the text is not
    // the answer: serialized). Request 3: a small spaced answer (serializing it costs less).
    const pad = 'x'.repeat(5000);
    const bodies = [
      `{ "items" : [ { "id" : "W1", "updatedBy" : "u-1" } ], "affectedItems" : [ ], "addedTimeEntryIds" : [ ], "addedScheduleDependencyIds" : [ ], "extra" : { "note" : "τ", "pad" : "${pad}" } }`,
      `{"items":[{"id":"W2"}],\n"affectedItems":[],"addedTimeEntryIds":[],"addedScheduleDependencyIds":[],"pad":"${pad}"}`,
      `{"items":[{"id":"W3"}],"addedTimeEntryIds":[],"addedScheduleDependencyIds":[],"pad":"${pad}"}`,
      '{ "items" : [ { "id" : "W4" } ], "affectedItems" : [ ], "addedTimeEntryIds" : [ ], "addedScheduleDependencyIds" : [ ] }',
    ];
    const server = await startServer((req, res) => {
      const id = decodeURIComponent((req.url ?? '').split('/').pop() ?? '');
      res.writeHead(200, { 'content-type': 'application/json' });
      // The first answer ends with a line break (left out of the kept bytes, as any whitespace around the value).
      res.end(id === 'W1' ? `  ${bodies[0]}\r\n` : bodies[Number(id.slice(1)) - 1]);
    });
    const client = new ServiceClient({ baseUrl: server.baseUrl, credentials: () => ({ kind: 'bearer', token: 't' }) });
    try {
      const plan = planJob({ workItemIds: ['W1', 'W2', 'W3', 'W4'], update: { setCompleted: true }, baseUrl: server.baseUrl, maxIdsPerRequest: 1 });
      const journal = await JobJournal.create(dir, { source: { uri: 'untitled:x.workitems.json', text: '{}' }, plan });
      // The change log, read while the job runs (the run's end folds it into the job file).
      let logText = '';
      const result = await runJob(plan, {
        client,
        journal,
        concurrency: 1,
        ...FAST,
        onProgress: () => {
          for (const f of fs.readdirSync(dir)) if (f.includes('.log')) logText = fs.readFileSync(path.join(dir, f), 'utf8');
        },
      });
      assert.equal(result.outcome, 'succeeded');
      assert.ok(logText.includes(bodies[0]!), `the first answer is in the log as the service wrote it: ${logText.slice(0, 400)}`);
      assert.ok(!logText.includes('{"items":[{"id":"W2"}],\n'), 'an answer with a line break is not written as it is');
      assert.equal(rawJsonOf(result.requests[3]!.response), undefined, 'a small answer keeps no text: it is serialized');
      assert.equal(Buffer.from(rawJsonOf(result.requests[0]!.response)!).toString('utf8'), bodies[0], 'a large one keeps the bytes it was read from');
      assert.ok(logText.split('\n').filter((l) => l !== '').every((l) => JSON.parse(l) !== undefined), 'every line of the log is one JSON value');
      const back = await JobJournal.load(journal.file, { responses: true });
      assert.deepEqual(back.requests[0]!.response, JSON.parse(bodies[0]!));
      assert.deepEqual(back.requests[1]!.response, JSON.parse(bodies[1]!));
      assert.deepEqual(back.requests[2]!.response, { ...JSON.parse(bodies[2]!), affectedItems: [] }, 'the default the check filled in is kept');
      assert.deepEqual(back.requests[3]!.response, JSON.parse(bodies[3]!));
      assert.deepEqual(back.requests.map((r) => r.response), result.requests.map((r) => r.response));
    } finally {
      await client.close();
      await server.close();
    }
  });
});
