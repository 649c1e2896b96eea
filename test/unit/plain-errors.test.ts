// The sandbox's plain errors (--plain-errors / plainErrors: true) and the client against them.
// The official help says whether a call fails is a contract, but error codes and messages are
// not (official-reference.md section 1 "Restrictions", section 12): a client must cope with a
// status and `[{"message": "..."}]` only. Real HTTP (undici) against the sandbox throughout.
import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { ServiceClient } from '../../src/api/client';
import { ServiceError } from '../../src/api/errors';
import { missingFromRead, missingIdsOf, planJob, runJob, sameFailureAgain, type JobResult } from '../../src/bulk';
import { isRefusal, readMissingIds, refusedWithoutNamedIds } from '../../src/bulk/missing';
import { renderResultHtml } from '../../src/changes/model/results';
import { createSandbox, PLAIN_ERRORS_ENV, plainErrorBody, plainErrorsFromEnvironment, type Sandbox, type SandboxOptions } from '../../src/sandbox';
import { basic, bearer, call, signIn, type Answer } from './sandbox-server-fixtures';

const ADMIN = { kind: 'basic', loginName: 'admin', password: 'password' } as const;
const FAST = { requestsPerMinute: 1500, concurrency: 1 } as const;

interface Probe {
  name: string;
  send: (sb: Sandbox, token: string) => Promise<Answer>;
}

/** Raw HTTP over a socket (for requests undici will not send): the status and the parsed body. */
function raw(sb: Sandbox, text: string, waitMs = 5000): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const s = net.connect(sb.port, '127.0.0.1');
    let got = '';
    const timer = setTimeout(() => {
      s.destroy();
      reject(new Error(`no answer to ${JSON.stringify(text.slice(0, 40))}`));
    }, waitMs);
    s.on('data', (d) => (got += d.toString('latin1')));
    s.on('error', () => undefined);
    s.on('close', () => {
      clearTimeout(timer);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(got)?.[1] ?? 0);
      const body = got.slice(got.indexOf('\r\n\r\n') + 4);
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      resolve({ status, headers: {}, text: body, json });
    });
    s.on('connect', () => s.write(text));
  });
}

const put = (path: string, body: unknown, headers: Record<string, string> = {}) => (sb: Sandbox, token: string) =>
  call(`${sb.url}${path}`, { method: 'PUT', headers: { ...bearer(token), ...headers }, body });
const get = (path: string) => (sb: Sandbox, token: string) => call(`${sb.url}${path}`, { headers: bearer(token) });
const post = (path: string, body: unknown) => (sb: Sandbox, token: string) => call(`${sb.url}${path}`, { method: 'POST', headers: bearer(token), body });

/** Failing requests of every kind the sandbox answers under /api (and outside any route). */
const PROBES: Probe[] = [
  { name: 'no credentials (401)', send: (sb) => call(`${sb.url}/system/processCategories`) },
  { name: 'wrong token (401)', send: (sb) => call(`${sb.url}/system/users/me`, { headers: bearer('nope') }) },
  { name: 'wrong Basic password (401)', send: (sb) => call(`${sb.url}/system/users/me`, { headers: basic('admin', 'wrong') }) },
  { name: 'sign-in with a wrong password (401)', send: (sb) => call(`${sb.url}/auth/token`, { method: 'POST', body: { loginName: 'admin', password: 'wrong' } }) },
  { name: 'sign-in without a body (400)', send: (sb) => call(`${sb.url}/auth/token`, { method: 'POST' }) },
  { name: 'sign-in with a number as login name (400)', send: (sb) => call(`${sb.url}/auth/token`, { method: 'POST', body: { loginName: 5, password: 'x' } }) },
  { name: 'sign-in with a member given twice (400)', send: (sb) => call(`${sb.url}/auth/token`, { method: 'POST', body: '{"loginName":"a","LOGINNAME":"b","password":"x"}' }) },
  { name: 'update of a work item that does not exist (404)', send: put('/workitem/workItems/99999', { setTimeEntryLocked: true }) },
  { name: 'update naming one missing among existing ones (404)', send: put('/workitem/workItems/128,99998,129', { setTimeEntryLocked: true }) },
  { name: 'update with an empty ID (400)', send: put('/workitem/workItems/128,,129', { setTimeEntryLocked: true }) },
  { name: 'update without a body (400)', send: (sb, t) => call(`${sb.url}/workitem/workItems/128`, { method: 'PUT', headers: bearer(t) }) },
  { name: 'update with malformed JSON (400)', send: put('/workitem/workItems/128', '{"setTimeEntryLocked": tru}') },
  { name: 'update nested too deep (400)', send: put('/workitem/workItems/128', `${'['.repeat(70)}${']'.repeat(70)}`) },
  { name: 'update that is not JSON (415)', send: put('/workitem/workItems/128', 'a=b', { 'content-type': 'text/plain' }) },
  { name: 'update body over the limit (413)', send: put('/workitem/workItems/128', { fields: { Description: 'x'.repeat(5000) } }) },
  { name: 'update with an array body (400)', send: put('/workitem/workItems/128', [1]) },
  { name: 'update with an unknown field (old name StartDate, 400)', send: put('/workitem/workItems/128', { fields: { StartDate: '2024-01-01' } }) },
  { name: 'update with a value of the wrong type (400)', send: put('/workitem/workItems/128', { moveScheduleDays: 'soon' }) },
  { name: 'update with a status type that is not available (400, update rule)', send: put('/workitem/workItems/128', { fields: { StatusTypeId: '999' } }) },
  { name: 'update moving under an item that does not exist (update rule)', send: put('/workitem/workItems/128', { moveParentTo: '99999' }) },
  { name: 'update assigning a user that does not exist (update rule)', send: put('/workitem/workItems/128', { assignmentChange: { adds: [{ partyId: '99999', partyType: 'User' }] } }) },
  { name: 'update by a viewer (403)', send: async (sb) => put('/workitem/workItems/128', { setTimeEntryLocked: true })(sb, await signIn(sb.url, 'viewer')) },
  { name: 'read of work items none of which exists (404)', send: get('/workitem/workItems/99999,99998') },
  { name: 'sub-items of an item that does not exist (404)', send: get('/workitem/workItems/99999/subItems') },
  { name: 'read of a project that does not exist (404)', send: get('/project/projects/99999') },
  { name: 'list with a negative limit (400)', send: get('/system/processCategories?limit=-1') },
  { name: 'list with an unknown orderby (400)', send: get('/system/processCategories?orderby=nothing%20sideways') },
  { name: 'route that does not exist under /api (404)', send: get('/workitem/nothing') },
  { name: 'path outside /api and /_sandbox (404)', send: (sb) => call(`${sb.origin}/elsewhere`) },
  { name: 'method not allowed (405)', send: (sb, t) => call(`${sb.url}/workitem/workItems/128`, { method: 'PATCH', headers: bearer(t) }) },
  // Adding, duplicating and deleting work items.
  { name: 'add below an item that does not exist (404)', send: post('/workitem/workItems/99999/subItems', { fields: { ItemTypeId: '42', Name: 'x' } }) },
  { name: 'add without a body (400)', send: (sb, t) => call(`${sb.url}/workitem/workItems/10/subItems`, { method: 'POST', headers: bearer(t) }) },
  { name: 'add without fields (400)', send: post('/workitem/workItems/10/subItems', { subItems: [] }) },
  { name: 'add of an item type that is not available, nested (400, add rule)', send: post('/workitem/workItems/10/subItems', { fields: { ItemTypeId: '41', Name: 'x' }, subItems: [{ fields: { ItemTypeId: '46', Name: 'y' } }] }) },
  { name: 'add assigning a user who is not a member (400, add rule)', send: post('/workitem/workItems/10/subItems', { fields: { ItemTypeId: '42', Name: 'x' }, assignments: [{ partyId: '99999' }] }) },
  { name: 'add by a viewer (403)', send: async (sb) => post('/workitem/workItems/10/subItems', { fields: { ItemTypeId: '42', Name: 'x' } })(sb, await signIn(sb.url, 'viewer')) },
  { name: 'duplicate of an item that does not exist (400)', send: post('/workitem/workItems/10/subItems/duplicate', { fromItemIds: '99999' }) },
  { name: 'duplicate without fromItemIds (400)', send: post('/workitem/workItems/10/subItems/duplicate', {}) },
  { name: 'delete of an item that does not exist (404)', send: (sb, t) => call(`${sb.url}/workitem/workItems/99999`, { method: 'DELETE', headers: bearer(t) }) },
  { name: 'delete of a root folder (400)', send: (sb, t) => call(`${sb.url}/workitem/workItems/10`, { method: 'DELETE', headers: bearer(t) }) },
  { name: 'project read with an unknown includes name (400)', send: get('/project/projects/3001?includes=Members,Budget') },
  { name: 'bad percent-encoding in a path (400)', send: get('/workitem/workItems/%E0%A4%A/subItems') },
  {
    name: 'injected fault (500)',
    send: async (sb, t) => {
      await call(`${sb.origin}/_sandbox/faults`, { method: 'POST', body: { status: 500, method: 'GET', pathContains: '/system/users/me' } });
      return get('/system/users/me')(sb, t);
    },
  },
  {
    name: 'injected 429 with Retry-After',
    send: async (sb, t) => {
      await call(`${sb.origin}/_sandbox/faults`, { method: 'POST', body: { retryAfterSeconds: 1, method: 'GET', pathContains: '/system/users/me' } });
      return get('/system/users/me')(sb, t);
    },
  },
  { name: 'request without a Host header (400)', send: (sb) => raw(sb, 'GET /api/system/users/me HTTP/1.1\r\nConnection: close\r\n\r\n') },
  { name: 'request the HTTP parser refuses (400)', send: (sb) => raw(sb, 'GET /api/system/users/me HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n') },
  { name: 'request headers too large (431)', send: (sb) => raw(sb, `GET /api/system/users/me HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70 * 1024)}\r\n\r\n`) },
  {
    name: 'request body that does not arrive (408)',
    send: (sb, t) => raw(sb, `PUT /api/workitem/workItems/128 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t}\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{`),
  },
];

const OPTIONS: SandboxOptions = { maxBodyBytes: 4096, bodyTimeoutMs: 300 };

describe('sandbox: plain errors (--plain-errors)', function () {
  this.timeout(60_000);
  let coded: Sandbox;
  let plain: Sandbox;
  let codedToken: string;
  let plainToken: string;

  before(async () => {
    coded = await createSandbox({ ...OPTIONS, plainErrors: false });
    plain = await createSandbox({ ...OPTIONS, plainErrors: true });
    codedToken = await signIn(coded.url);
    plainToken = await signIn(plain.url);
  });
  after(async () => {
    await coded?.close();
    await plain?.close();
  });

  it('answers every failure with the same status and [{"message"}] entries only: no code, params, field or other member (official help: error codes and messages are no contract)', async () => {
    assert.equal(plain.plainErrors, true);
    assert.equal(coded.plainErrors, false);
    for (const probe of PROBES) {
      const a = await probe.send(coded, codedToken);
      const b = await probe.send(plain, plainToken);
      assert.ok(a.status >= 400, `${probe.name}: the detailed sandbox answered ${a.status} ${a.text.slice(0, 200)}`);
      assert.equal(b.status, a.status, `${probe.name}: same status with plain errors`);
      // The detailed answer has more than a message (so this walk can tell the two apart) ...
      assert.ok(Array.isArray(a.json) && (a.json as object[]).some((e) => Object.keys(e).some((k) => k !== 'message')), `${probe.name}: ${a.text.slice(0, 300)}`);
      // ... the plain one has nothing else.
      assert.ok(Array.isArray(b.json) && (b.json as unknown[]).length > 0, `${probe.name}: plain body ${b.text.slice(0, 300)}`);
      for (const e of b.json as Record<string, unknown>[]) {
        assert.deepEqual(Object.keys(e), ['message'], `${probe.name}: ${b.text.slice(0, 300)}`);
        assert.equal(typeof e.message, 'string');
        assert.ok((e.message as string).length > 0, probe.name);
      }
      // One entry per detailed entry, with its message.
      assert.deepEqual(
        (b.json as { message: string }[]).map((e) => e.message).length,
        (a.json as { message: string }[]).length,
        `${probe.name}: as many entries`,
      );
    }
  });

  it('keeps the headers of a failure (WWW-Authenticate, Allow, Retry-After)', async () => {
    const unauthorized = await call(`${plain.url}/system/users/me`);
    assert.match(String(unauthorized.headers['www-authenticate']), /Bearer/);
    const notAllowed = await call(`${plain.url}/workitem/workItems/128`, { method: 'PATCH', headers: bearer(plainToken) });
    assert.equal(notAllowed.headers.allow, 'PUT, GET, DELETE');
    await call(`${plain.origin}/_sandbox/faults`, { method: 'POST', body: { retryAfterSeconds: 2, method: 'GET', pathContains: '/users/me' } });
    const busy = await call(`${plain.url}/system/users/me`, { headers: bearer(plainToken) });
    assert.equal(busy.status, 429);
    assert.equal(busy.headers['retry-after'], '2');
  });

  it('leaves successful answers and the /_sandbox/ control routes as they are', async () => {
    const ok = await call(`${plain.url}/workitem/workItems/128?fields=Name`, { headers: bearer(plainToken) });
    assert.equal(ok.status, 200);
    const control = await call(`${plain.origin}/_sandbox/workitems/99999`);
    assert.equal(control.status, 404);
    assert.equal((control.json as { code?: string }[])[0]!.code, 'WORK_ITEM_NOT_FOUND');
    const badFault = await call(`${plain.origin}/_sandbox/faults`, { method: 'POST', body: { status: 'x' } });
    assert.equal(badFault.status, 400);
    assert.ok((badFault.json as { code?: string }[])[0]!.code);
  });

  it('is on by default when the environment says WIS_SANDBOX_PLAIN_ERRORS=1; an explicit option wins', async () => {
    assert.equal(PLAIN_ERRORS_ENV, 'WIS_SANDBOX_PLAIN_ERRORS');
    assert.equal(plainErrorsFromEnvironment({ WIS_SANDBOX_PLAIN_ERRORS: '1' }), true);
    assert.equal(plainErrorsFromEnvironment({ WIS_SANDBOX_PLAIN_ERRORS: 'true' }), true);
    assert.equal(plainErrorsFromEnvironment({ WIS_SANDBOX_PLAIN_ERRORS: '0' }), false);
    assert.equal(plainErrorsFromEnvironment({}), false);
    const before = process.env[PLAIN_ERRORS_ENV];
    process.env[PLAIN_ERRORS_ENV] = '1';
    try {
      const byEnv = await createSandbox();
      const explicit = await createSandbox({ plainErrors: false });
      try {
        assert.equal(byEnv.plainErrors, true);
        assert.equal(explicit.plainErrors, false);
        const a = await call(`${byEnv.url}/system/users/me`);
        assert.deepEqual(Object.keys((a.json as object[])[0]!), ['message']);
        const b = await call(`${explicit.url}/system/users/me`);
        assert.ok((b.json as { code?: string }[])[0]!.code);
      } finally {
        await byEnv.close();
        await explicit.close();
      }
    } finally {
      if (before === undefined) delete process.env[PLAIN_ERRORS_ENV];
      else process.env[PLAIN_ERRORS_ENV] = before;
    }
  });

  it('reduces any failure body to message entries (arrays, objects, text)', () => {
    assert.deepEqual(plainErrorBody([{ message: 'a', code: 'X', params: { id: 1 } }, { message: 'b', field: 'f' }]), [{ message: 'a' }, { message: 'b' }]);
    assert.deepEqual(plainErrorBody({ message: 'one', code: 'Y' }), [{ message: 'one' }]);
    assert.deepEqual(plainErrorBody('text'), [{ message: 'text' }]);
    assert.deepEqual(plainErrorBody([]), [{ message: 'the request failed' }]);
    assert.deepEqual(plainErrorBody([{ code: 'Z' }]), [{ message: '{"code":"Z"}' }]);
  });
});

describe('client against a plain server (codes are no contract)', function () {
  this.timeout(60_000);
  let sb: Sandbox;
  let client: ServiceClient;
  const locked = async (id: string) => ((await call(`${sb.origin}/_sandbox/workitems/${id}`)).json as { timeEntryLocked?: boolean }).timeEntryLocked;

  beforeEach(async () => {
    sb = await createSandbox({ plainErrors: true });
    client = new ServiceClient({ baseUrl: sb.url, credentials: () => ADMIN });
  });
  afterEach(async () => {
    await client?.close();
    await sb?.close();
  });

  const send = (ids: string[], maxIdsPerRequest = 1000): Promise<JobResult> =>
    runJob(planJob({ workItemIds: ids, update: { setTimeEntryLocked: true }, baseUrl: sb.url, maxIdsPerRequest }), { client, ...FAST });

  it('missing IDs are found by reading them when the answer has no code (plain server); the job without them is offered and succeeds', async () => {
    const first = await send(['128', '99999', '129', '99998']);
    const refused = first.requests[0]!;
    assert.equal(refused.state, 'failed');
    assert.equal(refused.error?.status, 404);
    assert.deepEqual(refused.error?.codes, [], 'the plain answer carries no code');
    assert.ok((refused.error?.messages.length ?? 0) > 0, 'the service messages are kept');
    assert.notEqual(await locked('128'), true, 'nothing was applied');
    // No code names them ...
    assert.deepEqual(missingIdsOf(first).missing, []);
    // ... so the refused request is one whose IDs are read.
    const unnamed = refusedWithoutNamedIds(first);
    assert.deepEqual(unnamed, [0]);
    const read = await readMissingIds(client, refused.ids, { requestsPerMinute: 1500 });
    assert.deepEqual(read.missing, ['99999', '99998']);
    const m = missingFromRead(first, unnamed, read.missing);
    assert.deepEqual(m, { missing: ['99999', '99998'], requests: [0], remaining: ['128', '129'] });
    // The result view offers to find them (the count is known only after the read).
    const html = renderResultHtml({ result: first, serviceLabel: 's', documentName: 'd', nonce: 'n', cspSource: 'c' });
    assert.match(html, /<button data-command="sendWithoutMissing">Find Missing IDs and Send the Rest…<\/button>/);
    // The rest is sent as a new job.
    const rest = await send(m.remaining);
    assert.equal(rest.outcome, 'succeeded');
    assert.equal(await locked('128'), true);
    assert.equal(await locked('129'), true);
  });

  it('missing IDs are found by reading them whatever the status of the refusal (a plain 400, 403 or 409 instead of 404)', async () => {
    for (const status of [400, 403, 409]) {
      await call(`${sb.origin}/_sandbox/faults`, { method: 'POST', body: { status, method: 'PUT', pathContains: '/workitem/workItems/' } });
      const r = await send(['130', '99997']);
      assert.equal(r.requests[0]!.state, 'failed', String(status));
      assert.equal(r.requests[0]!.error?.status, status);
      assert.ok(isRefusal(r.requests[0]!.error), String(status));
      assert.deepEqual(refusedWithoutNamedIds(r), [0], String(status));
      assert.deepEqual((await readMissingIds(client, r.requests[0]!.ids)).missing, ['99997'], String(status));
    }
    // Not about the items: sign-in, timeout, rate limit (and 5xx, whose outcome is unknown).
    for (const status of [401, 407, 408, 429, 500]) assert.equal(isRefusal({ kind: 'http', status }), false, String(status));
  });

  it('a refusal whose items all exist is found to be about something else (plain server)', async () => {
    const r = await runJob(planJob({ workItemIds: ['128', '129'], update: { fields: { StatusTypeId: '999' } }, baseUrl: sb.url }), { client, ...FAST });
    assert.equal(r.requests[0]!.state, 'failed');
    assert.equal(r.requests[0]!.error?.status, 400);
    assert.deepEqual(r.requests[0]!.error?.codes, []);
    assert.equal(sameFailureAgain(r.requests[0]!.error), 'refused', 'a retry fails the same way, known from the status alone');
    assert.deepEqual(refusedWithoutNamedIds(r), [0]);
    assert.deepEqual((await readMissingIds(client, ['128', '129'])).missing, [], 'every item exists: the refusal was for another reason');
  });

  it('a read refused with a status other than 404 and no code is split until each refused ID stands alone', async () => {
    // A server that answers 400 where the help only says "fails" (none of the IDs exists).
    await call(`${sb.origin}/_sandbox/faults`, { method: 'POST', body: { status: 400, method: 'GET', pathContains: '99996', times: 10 } });
    const read = await readMissingIds(client, ['137', '99996', '138', '139'], { requestsPerMinute: 1500 });
    assert.deepEqual(read.missing, ['99996']);
    assert.ok(read.requests >= 3, `${read.requests} reads`);
  });

  it('a read that fails for another reason (sign-in, 5xx) is not taken for missing items', async () => {
    await call(`${sb.origin}/_sandbox/faults`, { method: 'POST', body: { status: 500, method: 'GET', pathContains: '/workitem/workItems/' } });
    await assert.rejects(readMissingIds(client, ['128', '99999']), (e: unknown) => e instanceof ServiceError && e.status === 500);
    const stranger = new ServiceClient({ baseUrl: sb.url, credentials: () => ({ kind: 'basic', loginName: 'admin', password: 'wrong' }) });
    try {
      await assert.rejects(readMissingIds(stranger, ['128']), (e: unknown) => e instanceof ServiceError && e.status === 401);
    } finally {
      await stranger.close();
    }
  });

  it('a cancelled read ends as a cancel', async () => {
    const abort = new AbortController();
    abort.abort();
    await assert.rejects(readMissingIds(client, ['128', '99999'], { signal: abort.signal }), (e: unknown) => e instanceof ServiceError && e.kind === 'cancelled');
  });

  it('a wrong password is told by its status alone (plain server)', async () => {
    const e = await client.signIn('admin', 'wrong').then(
      () => undefined,
      (x: unknown) => x,
    );
    assert.ok(e instanceof ServiceError);
    assert.equal(e.status, 401);
    assert.deepEqual(e.codes, []);
    assert.ok(e.messages.length > 0);
  });

  it('the service messages of a plain refusal are shown as they are (no code to translate)', async () => {
    const e = await client.updateWorkItems(['99999'], { setTimeEntryLocked: true }).then(
      () => undefined,
      (x: unknown) => x,
    );
    assert.ok(e instanceof ServiceError);
    assert.equal(e.status, 404);
    assert.deepEqual(e.codes, []);
    assert.ok(e.entries.every((en) => en.code === undefined && en.params === undefined && en.itemId === undefined));
    assert.match(e.messages.join(' '), /99999/);
  });
});
