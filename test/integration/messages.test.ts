// How service failures read to a person, through the real vscode.l10n (English locale here).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadCaFile, NetworkConfigError, resolveProxies } from '../../src/api/dispatcher';
import { NETWORK_REASON_TEXT, ServiceError } from '../../src/api/errors';
import { JobJournal, JournalError } from '../../src/bulk/journal';
import { describeError, serviceErrorDetails } from '../../src/common/messages';
import { requestErrorSummary } from '../../src/changes/results/resultPanel';
import type { RequestError } from '../../src/bulk/types';

describe('messages: service failures as sentences @errors', () => {
  it('a request of the result view that was not retried says why, after what the service answered', () => {
    const answered503: RequestError = { kind: 'http', status: 503, messages: ['busy'], codes: [], message: 'PUT /workitem/workItems/1,2 answered 503: busy' };
    const plain = requestErrorSummary(answered503);
    assert.ok(plain.includes('503'), plain);
    assert.ok(!/Not retried/.test(plain), plain);
    const refused = requestErrorSummary({ ...answered503, note: 'refused-update-not-retried' });
    assert.ok(refused.startsWith(plain), refused);
    assert.match(refused, /Not retried: a 429 or 503 answer does not prove that the update was not applied/);
    assert.match(requestErrorSummary({ ...answered503, status: 429, note: 'retry-wait-too-long' }), /Not retried: the service asked to wait longer than a retry waits\./);
    assert.match(requestErrorSummary({ kind: 'connect', messages: [], codes: [], code: 'ECONNREFUSED', message: 'refused', note: 'retry-budget-exhausted' }), /Not retried: the job's retries were used up\./);
  });

  it('a connect failure names its cause (TLS) instead of a bare error code', () => {
    const e = new ServiceError({ kind: 'connect', method: 'GET', path: '/system/processCategories', code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', reason: 'tls-unknown-ca' });
    const text = describeError(e);
    assert.ok(text.includes(NETWORK_REASON_TEXT['tls-unknown-ca']), text);
  });

  it('a proxy asking for credentials (407) says so', () => {
    const e = new ServiceError({ kind: 'http', method: 'GET', path: '/x', status: 407, reason: 'proxy-auth-required' });
    assert.ok(describeError(e).includes('407'), describeError(e));
    assert.ok(describeError(e).includes(NETWORK_REASON_TEXT['proxy-auth-required']), describeError(e));
  });

  it('a timeout keeps its summary and adds the reason', () => {
    const e = new ServiceError({ kind: 'timeout', method: 'PUT', path: '/workitem/workItems/1', reason: 'headers-timeout' });
    const text = describeError(e);
    assert.ok(text.includes(NETWORK_REASON_TEXT['headers-timeout']), text);
  });

  it('a known error code with its params becomes a sentence naming the item and the rule', () => {
    const message = 'Work item 112: The name (fields.Name) is 257 characters long; at most 256 are allowed. (error 2)';
    const e = new ServiceError({
      kind: 'http',
      method: 'PUT',
      path: '/workitem/workItems/112',
      status: 400,
      messages: [message],
      codes: ['NAME_TOO_LONG'],
      entries: [{ message, code: 'NAME_TOO_LONG', params: { length: 257, max: 256 }, itemId: '112', rule: 2 }],
    });
    const [detail] = serviceErrorDetails(e);
    assert.ok(detail.startsWith('Work item 112: '), detail);
    assert.ok(detail.endsWith('(error 2)'), detail);
  });

  it('an unknown code keeps the service text as it was', () => {
    const e = new ServiceError({ kind: 'http', method: 'PUT', path: '/x', status: 409, messages: ['Locked by another user'], codes: ['X'], entries: [{ message: 'Locked by another user', code: 'X' }] });
    assert.deepEqual(serviceErrorDetails(e), ['Locked by another user']);
  });
});

describe('messages: configuration and job-file failures as sentences @errors', () => {
  async function rejection(f: () => Promise<unknown>): Promise<unknown> {
    try {
      await f();
    } catch (e) {
      return e;
    }
    assert.fail('expected a rejection');
  }

  it('an unreadable CA file names the caFile setting and the file, not the whole path', async () => {
    const e = await rejection(() => loadCaFile(path.join(os.tmpdir(), 'wis-missing-dir', 'corp-ca.pem')));
    assert.ok(e instanceof NetworkConfigError && e.code === 'CA_FILE_UNREADABLE', String(e));
    const text = describeError(e);
    assert.ok(text.includes('workItemStudio.network.caFile'), text);
    assert.ok(text.includes('corp-ca.pem'), text);
    assert.ok(!text.includes('wis-missing-dir'), text);
  });

  it('an invalid proxy URL in the setting names http.proxy', () => {
    let e: unknown;
    try {
      resolveProxies({ proxyUrl: 'http://u:secretpw@[bad' }, {});
    } catch (err) {
      e = err;
    }
    assert.ok(e instanceof NetworkConfigError && e.code === 'PROXY_URL_INVALID', String(e));
    const text = describeError(e);
    assert.ok(text.includes('http.proxy'), text);
    assert.ok(!text.includes('secretpw'), text);
  });

  it('an invalid proxy URL from the environment names the variable', () => {
    let e: unknown;
    try {
      resolveProxies({}, { HTTPS_PROXY: 'http://[bad' });
    } catch (err) {
      e = err;
    }
    assert.ok(e instanceof NetworkConfigError && e.code === 'PROXY_URL_INVALID', String(e));
    assert.ok(describeError(e).includes('HTTPS_PROXY'), describeError(e));
  });

  it('a damaged job journal names the job file', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wis-journal-'));
    try {
      const file = path.join(dir, 'job-42.json');
      await fs.writeFile(file, '{ not json');
      const e = await rejection(() => JobJournal.load(file));
      assert.ok(e instanceof JournalError && e.code === 'corrupt', String(e));
      const text = describeError(e);
      assert.ok(text.includes('job-42.json'), text);
      assert.ok(!text.includes(dir), text);
      assert.notEqual(text, e.message);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
