// Credentials never echo into errors: a server that sends the request's
// Authorization (or X-TT-ApiKey) header back in every place of its error body
// (message, params, code, item, any other member, member names, plain text, HTML,
// JSON escapes) must leave no trace of the token, password or key in the error
// object, the log, or a job's journal files. And a 503 answered to an update leaves
// a bulk request's outcome unknown (the safe reading), as the README says.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { ServiceClient, type Credentials } from '../../src/api/client';
import { isServiceError } from '../../src/api/errors';
import { JobJournal, planJob, runJob } from '../../src/bulk';
import { capturingLogger, rejection, startServer, stringifyDeep, type TestServer } from './api-helpers';
import { clientFor, fault, scheduledTaskIds, snapshotDates, startSandbox, storedItem } from './bulk-helpers';

const TOKEN = 'tok3n-Abc/Def+Ghi==';
const PASSWORD = 'pa55/word+secret';
const API_KEY = 'apik3y-0123456789/abcdef';

const CREDENTIALS: [string, Credentials, string[]][] = [
  ['Bearer', { kind: 'bearer', token: TOKEN }, [TOKEN]],
  ['Basic', { kind: 'basic', loginName: 'someone', password: PASSWORD }, [PASSWORD, Buffer.from(`someone:${PASSWORD}`).toString('base64')]],
  ['API key', { kind: 'apiKey', key: API_KEY }, [API_KEY]],
];

/** The credential the request carried, as the server received it. */
function echoed(headers: Record<string, string | string[] | undefined>): string {
  return String(headers.authorization ?? headers['x-tt-apikey'] ?? '');
}

/** Error bodies that put the echoed header everywhere. */
const BODIES: Record<string, (h: string) => { type: string; body: string }> = {
  'every member of an error array': (h) => ({
    type: 'application/json',
    body: JSON.stringify([
      {
        message: `denied for ${h}`,
        code: `BAD_${h}`,
        itemId: h,
        params: { header: h, nested: { deeper: h }, list: [h], [h]: 'as a member name' },
        detail: h,
        extra: { anything: h },
      },
    ]),
  }),
  'nested errors and a validation map': (h) => ({
    type: 'application/json',
    body: JSON.stringify({ title: h, errors: { Authorization: [`got ${h}`] }, error: { message: `inner ${h}`, code: h, data: { h } } }),
  }),
  'no message at all (raw JSON fallback)': (h) => ({ type: 'application/json', body: JSON.stringify({ status: 401, header: h }) }),
  'JSON escapes of the header': (h) => ({
    type: 'application/json',
    body: `[{"message":"escaped ${h.replace(/\//g, '\\/')}","params":{"u":"${[...h].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"}}]`,
  }),
  'percent-encoded in a message': (h) => ({ type: 'application/json', body: JSON.stringify([{ message: `see /login?auth=${encodeURIComponent(h)}` }]) }),
  'plain text': (h) => ({ type: 'text/plain', body: `Unauthorized: ${h}` }),
  HTML: (h) => ({ type: 'text/html', body: `<html><head><title>401 ${h}</title></head><body><p>${h}</p></body></html>` }),
};

function assertClean(where: string, text: string, secrets: readonly string[]): void {
  for (const s of secrets) {
    assert.ok(!text.includes(s), `${where} contains a secret: ${text}`);
    assert.ok(!text.includes(encodeURIComponent(s)), `${where} contains an encoded secret: ${text}`);
  }
}

describe('redaction: credentials echoed back in an error body', () => {
  let server: TestServer;
  let shape = '';
  before(async () => {
    server = await startServer((req, res) => {
      const { type, body } = BODIES[shape]!(echoed(req.headers));
      res.writeHead(req.method === 'PUT' ? 400 : 401, { 'content-type': type });
      res.end(body);
    });
  });
  after(async () => server.close());

  for (const [label, creds, secrets] of CREDENTIALS) {
    for (const name of Object.keys(BODIES)) {
      it(`${label}: ${name} — nothing in the error object or the log`, async () => {
        shape = name;
        const log = capturingLogger();
        const client = new ServiceClient({ baseUrl: server.baseUrl, credentials: () => creds, logger: log });
        try {
          const e = await rejection(() => client.listProcessCategories({ limit: 1 }));
          assert.ok(isServiceError(e) && e.kind === 'http', stringifyDeep(e));
          // The server did receive the secret, so the test is not vacuous.
          assert.ok(secrets.some((s) => echoed(server.received.at(-1)!.headers).includes(s)));
          assert.ok(e.messages.length > 0, 'the error still says something');
          assertClean('the error', `${stringifyDeep(e)} ${e.message} ${e.stack ?? ''}`, secrets);
          assertClean('the log', log.text(), secrets);
        } finally {
          await client.close();
        }
      });
    }
  }

  it('a journal file of a refused bulk request holds no secret', async () => {
    shape = 'every member of an error array';
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wis-redact-'));
    try {
      for (const [label, creds, secrets] of CREDENTIALS) {
        const log = capturingLogger();
        const client = new ServiceClient({ baseUrl: server.baseUrl, credentials: () => creds, logger: log });
        try {
          const plan = planJob({ workItemIds: ['1', '2'], update: { fields: { Name: 'x' } }, baseUrl: server.baseUrl });
          const journal = await JobJournal.create(dir, { source: {}, plan });
          const r = await runJob(plan, { client, journal, logger: log, minIntervalMs: 0 });
          assert.equal(r.requests[0]!.state, 'failed', label);
          assert.equal(r.requests[0]!.error!.entries!.length, 1);
          assertClean(`${label}: the result`, stringifyDeep(r), secrets);
          assertClean(`${label}: the log`, log.text(), secrets);
        } finally {
          await client.close();
        }
        const files = await fs.readdir(dir, { recursive: true });
        let all = '';
        for (const f of files) {
          const p = path.join(dir, f);
          if ((await fs.stat(p)).isFile()) all += await fs.readFile(p, 'utf8');
        }
        assert.ok(all.includes('denied for'), 'the journal holds the error');
        assertClean(`${label}: the journal`, all, secrets);
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('503 to an update: outcome unknown unless the service is trusted', function () {
  it('a bulk request answered 503, with or without Retry-After, is "unknown" and not retried (a gateway may have forwarded it); applied nothing twice', async () => {
    const sandbox = await startSandbox(120);
    const client = clientFor(sandbox);
    try {
      const ids = scheduledTaskIds(sandbox, 20);
      const before = snapshotDates(sandbox, ids);
      await fault(sandbox, { status: 503, method: 'PUT', pathContains: encodeURIComponent(ids[0]!) });
      await fault(sandbox, { status: 503, retryAfterSeconds: 0, method: 'PUT', pathContains: encodeURIComponent(ids[10]!) });
      const plan = planJob({ workItemIds: ids, update: { moveScheduleDays: 1 }, baseUrl: sandbox.url, maxIdsPerRequest: 10 });
      const r = await runJob(plan, { client, concurrency: 1, minIntervalMs: 0 });
      for (const i of [0, 1]) {
        assert.equal(r.requests[i]!.state, 'unknown');
        assert.equal(r.requests[i]!.status, 503);
        assert.equal(r.requests[i]!.attempts, 1, 'never replayed');
      }
      // The injected 503s applied nothing.
      assert.equal((await storedItem(sandbox, ids[0]!)).plannedStartDate, before.get(ids[0]!)!.plannedStartDate);
      assert.equal((await storedItem(sandbox, ids[10]!)).plannedStartDate, before.get(ids[10]!)!.plannedStartDate);
    } finally {
      await client.close();
      await sandbox.close();
    }
  });

  it('with retryRefusedUpdates (the service trusted to refuse only what it did not apply), a 503 with Retry-After is retried and applied once', async () => {
    const sandbox = await startSandbox(120);
    const client = clientFor(sandbox);
    try {
      const ids = scheduledTaskIds(sandbox, 10);
      const before = snapshotDates(sandbox, ids);
      await fault(sandbox, { status: 503, retryAfterSeconds: 0, method: 'PUT', pathContains: encodeURIComponent(ids[0]!) });
      const plan = planJob({ workItemIds: ids, update: { moveScheduleDays: 1 }, baseUrl: sandbox.url, maxIdsPerRequest: 10 });
      const r = await runJob(plan, { client, concurrency: 1, minIntervalMs: 0, retryRefusedUpdates: true });
      assert.equal(r.requests[0]!.state, 'succeeded');
      assert.equal(r.requests[0]!.attempts, 2);
      assert.notEqual((await storedItem(sandbox, ids[0]!)).plannedStartDate, before.get(ids[0]!)!.plannedStartDate);
    } finally {
      await client.close();
      await sandbox.close();
    }
  });
});
