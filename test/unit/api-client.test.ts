import * as assert from 'node:assert/strict';
import { Agent } from 'undici';
import { ServiceClient, type ClientOptions, type Credentials } from '../../src/api/client';
import { ServiceError, isServiceError } from '../../src/api/errors';
import {
  capturingLogger,
  closedPort,
  json,
  rejection,
  silentTcpServer,
  startServer,
  stringifyDeep,
  until,
  type Handler,
  type TestServer,
} from './api-helpers';

// Fixture builders (only the members a test is about; the rest default).
function user(id: string, extra: Record<string, unknown> = {}) {
  return { id, name: `User ${id}`, loginName: `user${id}`, createdAt: '2025-01-01T00:00:00Z', ...extra };
}
function category(id: string, extra: Record<string, unknown> = {}) {
  return { id, name: `Category ${id}`, code: `C${id}`, color: '#ff0000', displayOrder: 1, isDeleted: false, ...extra };
}
function updateResponse(ids: string[]) {
  return { items: ids.map((id) => ({ id, updatedAt: '2026-01-05T09:00:00', updatedBy: 'u1' })), affectedItems: [], addedTimeEntryIds: [], addedScheduleDependencyIds: [] };
}

function asServiceError(e: unknown): ServiceError {
  assert.ok(isServiceError(e), `expected a ServiceError, got ${stringifyDeep(e)}`);
  return e;
}

describe('api client: against a real HTTP server', function () {
  let server: TestServer | undefined;
  const clients: ServiceClient[] = [];
  let handler: Handler = (_req, res) => json(res, 200, {});

  async function setup(h: Handler, opts: Partial<ClientOptions> = {}): Promise<{ server: TestServer; client: ServiceClient }> {
    handler = h;
    server ??= await startServer((req, res, body) => handler(req, res, body));
    const client = new ServiceClient({ baseUrl: server.baseUrl, ...opts });
    clients.push(client);
    return { server, client };
  }

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await server?.close();
    server = undefined;
  });

  describe('paths and addressing', () => {
    it('sends several IDs comma-joined in one segment under the configured path prefix', async () => {
      const { server, client } = await setup((_q, res) => json(res, 200, updateResponse(['120', '121', '122'])));
      const r = await client.updateWorkItems(['120', '121', '122'], { setCompleted: true });
      assert.deepEqual(r.items.map((i) => i.id), ['120', '121', '122']);
      assert.equal(server.received.length, 1);
      assert.equal(server.received[0].method, 'PUT');
      assert.equal(server.received[0].url, '/site/api/workitem/workItems/120,121,122');
      assert.deepEqual(JSON.parse(server.received[0].body), { setCompleted: true });
      assert.match(String(server.received[0].headers['content-type']), /^application\/json/);
    });

    it('encodes unicode and reserved characters so the server gets the IDs back exactly', async () => {
      const ids = ['日本語', 'a+b', 'x&y=z', 'é😀', 'a.b'];
      const { server, client } = await setup((req, res) => {
        const segment = new URL(req.url ?? '', 'http://x').pathname.split('/').pop() ?? '';
        json(res, 200, updateResponse(segment.split(',').map(decodeURIComponent)));
      });
      const r = await client.updateWorkItems(ids, {});
      assert.deepEqual(r.items.map((i) => i.id), ids);
      assert.ok(server.received[0].url.startsWith('/site/api/workitem/workItems/'));
    });

    const adversarial: [string, string[]][] = [
      ['..', ['..']],
      ['.', ['.']],
      ['/', ['/']],
      ['../../admin', ['../../admin']],
      ['%2e', ['%2e']],
      ['%2e%2e', ['%2e%2e']],
      ['%2F', ['1%2F2']],
      ['empty', ['']],
      ['10,000 characters', ['9'.repeat(10_000)]],
      ['comma inside an ID', ['1,2']],
      ['backslash', ['..\\x']],
      ['newline (header injection attempt)', ['1\r\nX-Evil: 1']],
      ['no IDs', []],
    ];
    for (const [name, ids] of adversarial) {
      it(`refuses ${name} before anything is sent`, async () => {
        const { server, client } = await setup((_q, res) => json(res, 200, updateResponse(['1'])));
        const e = asServiceError(await rejection(() => client.updateWorkItems(ids, {})));
        assert.equal(e.kind, 'invalid-request');
        assert.equal(e.sent, false);
        assert.equal(e.outcomeUnknown, false);
        assert.ok(e.messages.length > 0 && e.messages[0].length < 300, e.messages.join());
        assert.equal(server.received.length, 0);
      });
    }

    it('validates and encodes organization IDs', async () => {
      const { server, client } = await setup((_q, res) => json(res, 200, { totalCount: 0, data: [] }));
      await client.listOrganizationUsers('org-ä');
      assert.equal(server.received[0].url, '/site/api/system/organizations/org-%C3%A4/users');
      const e = asServiceError(await rejection(() => client.listAllAssignedUsers('../x')));
      assert.equal(e.kind, 'invalid-request');
      assert.match(e.message, /organization ID/);
      assert.equal(server.received.length, 1);
    });

    it('keeps the path prefix even when the base URL ends in a slash', async () => {
      const { server } = await setup((_q, res) => json(res, 200, { totalCount: 0, data: [] }));
      const client = new ServiceClient({ baseUrl: `${server.baseUrl}/` });
      clients.push(client);
      assert.equal(client.baseUrl, server.baseUrl);
      assert.equal(client.origin, server.origin);
      await client.listProcessCategories();
      assert.equal(server.received[0].url, '/site/api/system/processCategories');
    });

    it('refuses a base URL with credentials in it', () => {
      assert.throws(() => new ServiceClient({ baseUrl: 'http://u:p@127.0.0.1:1/api' }), /must not contain a user name or password/);
    });
  });

  describe('queries and bodies', () => {
    it('sends the list queries encoded, skipping absent members', async () => {
      const { server, client } = await setup((_q, res) => json(res, 200, { totalCount: 0, data: [] }));
      await client.listProcessCategories({ keyword: 'a&b=c 日本', limit: 50, offset: 100, orderby: 'name desc', includeDeleted: true, isDeleted: false });
      const url = new URL(server.received[0].url, 'http://x');
      assert.equal(url.pathname, '/site/api/system/processCategories');
      assert.deepEqual(Object.fromEntries(url.searchParams), { keyword: 'a&b=c 日本', limit: '50', offset: '100', orderby: 'name desc', includeDeleted: 'true', isDeleted: 'false' });
      await client.listAllAssignedUsers('o1', { keyword: 'suzuki', name: undefined });
      assert.equal(server.received[1].url, '/site/api/system/organizations/o1/allassignedusers?keyword=suzuki');
      await client.listOrganizationUsers('o1');
      assert.equal(server.received[2].url, '/site/api/system/organizations/o1/users');
    });

    it('refuses a bad query before sending, naming the member', async () => {
      const { server, client } = await setup((_q, res) => json(res, 200, { totalCount: 0, data: [] }));
      const e = asServiceError(await rejection(() => client.listProcessCategories({ limit: -1 })));
      assert.equal(e.kind, 'invalid-request');
      assert.match(e.messages[0], /^query\.limit: /);
      const e2 = asServiceError(await rejection(() => client.listProcessCategories({ orderby: 'name; drop' })));
      assert.match(e2.messages[0], /^query\.orderby: orderby must be a field name/);
      const e3 = asServiceError(await rejection(() => client.listOrganizationUsers('o', { keyword: 'x' } as never)));
      assert.match(e3.messages[0], /^query: .*keyword/);
      assert.equal(server.received.length, 0);
    });

    it('refuses a body of the wrong shape before sending, naming the member', async () => {
      const { server, client } = await setup((_q, res) => json(res, 200, updateResponse(['1'])));
      const e = asServiceError(await rejection(() => client.updateWorkItems(['1'], { moveScheduleDays: 1.5 } as never)));
      assert.equal(e.kind, 'invalid-request');
      assert.match(e.messages[0], /^body\.moveScheduleDays: /);
      const e2 = asServiceError(await rejection(() => client.updateWorkItems(['1'], { assignmentChange: { adds: [{ plannedTime: 'x' }] } } as never)));
      assert.match(e2.messages[0], /^body\.assignmentChange\.adds\[0\]\.plannedTime: /);
      const e3 = asServiceError(await rejection(() => client.updateWorkItems(['1'], { setComplete: true } as never)));
      assert.match(e3.messages[0], /setComplete/);
      assert.equal(server.received.length, 0);
    });
  });

  describe('typed results', () => {
    it('returns users and keeps unknown members', async () => {
      const { client } = await setup((_q, res) => json(res, 200, { totalCount: 2, data: [user('1', { futureMember: { a: 1 } }), user('2')], extra: true }));
      const r = await client.listAllAssignedUsers('o1');
      assert.equal(r.totalCount, 2);
      assert.equal(r.data[0].createdAt, '2025-01-01T00:00:00Z');
      assert.deepEqual((r.data[0] as Record<string, unknown>).futureMember, { a: 1 });
      assert.equal((r as Record<string, unknown>).extra, true);
    });

    it('returns process categories with a color string or object', async () => {
      const { client } = await setup((_q, res) => json(res, 200, { totalCount: 2, data: [category('1'), category('2', { color: { r: 1, g: 2, b: 3 } })] }));
      const r = await client.listProcessCategories();
      assert.equal(r.data[0].color, '#ff0000');
      assert.deepEqual(r.data[1].color, { r: 1, g: 2, b: 3 });
    });

    it('defaults missing empty lists of an update response', async () => {
      const { client } = await setup((_q, res) => json(res, 200, { items: [{ id: '1', itemWarnings: ['w'] }] }));
      const r = await client.updateWorkItems(['1'], {});
      assert.deepEqual(r.affectedItems, []);
      assert.deepEqual(r.addedTimeEntryIds, []);
      assert.deepEqual(r.items[0].itemWarnings, ['w']);
    });

    const wrong: [string, unknown, RegExp][] = [
      ['a missing list', { totalCount: 1 }, /^response\.data: /],
      ['a wrong element member', { totalCount: 2, data: [user('1'), user('2', { name: 42 })] }, /^response\.data\[1\]\.name: /],
      ['a negative count', { totalCount: -1, data: [] }, /^response\.totalCount: /],
      ['an array instead of an object', [user('1')], /^response: /],
    ];
    for (const [name, body, message] of wrong) {
      it(`rejects a 200 response with ${name}, naming the member path`, async () => {
        const { client } = await setup((_q, res) => json(res, 200, body));
        const e = asServiceError(await rejection(() => client.listOrganizationUsers('o1')));
        assert.equal(e.kind, 'invalid-response');
        assert.equal(e.status, 200);
        assert.match(e.messages[0], message);
        assert.match(e.message, /returned a response of an unexpected shape: response/);
      });
    }

    it('rejects a 200 response that is not JSON or is empty', async () => {
      const { client } = await setup((req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(req.url?.includes('users') ? '<html>login page</html>' : '');
      });
      const e = asServiceError(await rejection(() => client.listOrganizationUsers('o1')));
      assert.equal(e.kind, 'invalid-response');
      assert.match(e.messages[0], /the body is not JSON: <html>login page/);
      const e2 = asServiceError(await rejection(() => client.listProcessCategories()));
      assert.match(e2.messages[0], /the body is empty/);
    });
  });

  describe('authentication', () => {
    it('signs in with POST /auth/token and returns the token, without sending an Authorization header', async () => {
      const { server, client } = await setup((_q, res) => json(res, 200, { token: 'T-123456789' }), {
        credentials: () => ({ kind: 'bearer', token: 'OLD-TOKEN-0000' }),
      });
      assert.equal(await client.signIn('admin', 'password'), 'T-123456789');
      assert.equal(server.received[0].method, 'POST');
      assert.equal(server.received[0].url, '/site/api/auth/token');
      assert.deepEqual(JSON.parse(server.received[0].body), { loginName: 'admin', password: 'password' });
      assert.equal(server.received[0].headers.authorization, undefined);
    });

    it('reports a failed sign-in with the status and the messages', async () => {
      const { client } = await setup((_q, res) => json(res, 401, [{ message: 'Login name or password is wrong.' }]));
      const e = asServiceError(await rejection(() => client.signIn('admin', 'nope')));
      assert.equal(e.kind, 'http');
      assert.equal(e.status, 401);
      assert.deepEqual(e.messages, ['Login name or password is wrong.']);
    });

    it('rejects a sign-in answer without a token, without quoting the body', async () => {
      const { client } = await setup((_q, res) => json(res, 200, { tokn: 'LEAKY-TOKEN-1' }));
      const e = asServiceError(await rejection(() => client.signIn('admin', 'password')));
      assert.equal(e.kind, 'invalid-response');
      assert.match(e.messages[0], /^response\.token: /);
      assert.doesNotMatch(stringifyDeep(e), /LEAKY/);
    });

    it('sends a Bearer token', async () => {
      const { server, client } = await setup((_q, res) => json(res, 200, { totalCount: 0, data: [] }), {
        credentials: async () => ({ kind: 'bearer', token: 'abc.DEF-123' }),
      });
      await client.listProcessCategories();
      assert.equal(server.received[0].headers.authorization, 'Bearer abc.DEF-123');
    });

    it('sends Basic credentials as base64 of loginName:password (UTF-8)', async () => {
      const { server, client } = await setup((_q, res) => json(res, 200, { totalCount: 0, data: [] }), {
        credentials: () => ({ kind: 'basic', loginName: '山田', password: 'pä:ss' }),
      });
      await client.listProcessCategories();
      const h = String(server.received[0].headers.authorization);
      assert.match(h, /^Basic /);
      assert.equal(Buffer.from(h.slice(6), 'base64').toString('utf8'), '山田:pä:ss');
    });

    it('refuses a login name with a colon for Basic, before sending', async () => {
      const { server, client } = await setup((_q, res) => json(res, 200, { totalCount: 0, data: [] }), {
        credentials: () => ({ kind: 'basic', loginName: 'dom:user', password: 'pw' }),
      });
      const e = asServiceError(await rejection(() => client.listProcessCategories()));
      assert.equal(e.kind, 'invalid-request');
      assert.equal(e.code, 'CREDENTIALS_COLON');
      assert.match(e.messages[0], /login name contains ":"/);
      assert.equal(server.received.length, 0);
    });

    it('refuses an empty token or one with a line break, before sending', async () => {
      let token = '';
      const { server, client } = await setup((_q, res) => json(res, 200, { totalCount: 0, data: [] }), { credentials: () => ({ kind: 'bearer', token }) });
      assert.equal(asServiceError(await rejection(() => client.listProcessCategories())).code, 'CREDENTIALS_EMPTY');
      token = 'abc\r\nX-Evil: 1';
      const e = asServiceError(await rejection(() => client.listProcessCategories()));
      assert.equal(e.code, 'CREDENTIALS_INVALID');
      assert.doesNotMatch(stringifyDeep(e), /abc/);
      assert.equal(server.received.length, 0);
    });

    it('sends no Authorization header without credentials', async () => {
      const { server, client } = await setup((_q, res) => json(res, 200, { totalCount: 0, data: [] }));
      await client.listProcessCategories();
      assert.equal(server.received[0].headers.authorization, undefined);
    });

    it('asks for the credentials on every request (a refreshed token is used)', async () => {
      let n = 0;
      const { server, client } = await setup((_q, res) => json(res, 200, { totalCount: 0, data: [] }), { credentials: () => ({ kind: 'bearer', token: `tok-${++n}xx` }) });
      await client.listProcessCategories();
      await client.listProcessCategories();
      assert.deepEqual(server.received.map((r) => r.headers.authorization), ['Bearer tok-1xx', 'Bearer tok-2xx']);
    });
  });

  describe('secrets', () => {
    const TOKEN = 'SECRET-TOKEN-7f3a9c';
    const PASSWORD = 'pw-Secret-42x';

    it('never logs or returns a token, password, Authorization header or request body', async () => {
      const log = capturingLogger();
      const echo: Handler = (req, res, body) =>
        json(res, req.url?.includes('auth') ? 401 : 400, [{ message: `you sent ${req.headers.authorization} with ${body}` }], { 'x-echo': String(req.headers.authorization) });
      const { client } = await setup(echo, { credentials: () => ({ kind: 'bearer', token: TOKEN }), logger: log });
      const errors: unknown[] = [];
      errors.push(await rejection(() => client.signIn('admin', PASSWORD)));
      errors.push(await rejection(() => client.updateWorkItems(['1'], { fields: { Name: 'BODY-MARKER-1' } })));
      const basic = new ServiceClient({ baseUrl: client.baseUrl, credentials: () => ({ kind: 'basic', loginName: 'admin', password: PASSWORD }), logger: log });
      clients.push(basic);
      errors.push(await rejection(() => basic.listProcessCategories()));
      const basicHeader = Buffer.from(`admin:${PASSWORD}`).toString('base64');
      const everything = `${log.text()}\n${errors.map(stringifyDeep).join('\n')}`;
      for (const secret of [TOKEN, PASSWORD, basicHeader]) assert.ok(!everything.includes(secret), `a secret leaked: ${everything}`);
      assert.doesNotMatch(log.text(), /BODY-MARKER|Bearer|Basic /);
      // The messages are still there, with the secrets scrubbed.
      assert.match((errors[1] as ServiceError).messages[0], /you sent Bearer \*\*\* with/);
    });

    it('logs method, path, status, duration and request size', async () => {
      const log = capturingLogger();
      const { client } = await setup((_q, res) => json(res, 200, updateResponse(['1', '2'])), { logger: log });
      await client.updateWorkItems(['1', '2'], { setCompleted: true });
      assert.match(log.lines[0], /^info PUT \/workitem\/workItems\/1,2 → 200 in \d+ ms \[request 21 B, response \d+ B\]$/);
    });

    it('shortens the path of a request with many IDs in the log', async () => {
      const log = capturingLogger();
      const ids = Array.from({ length: 400 }, (_, i) => String(1000 + i));
      const { client } = await setup((_q, res) => json(res, 200, updateResponse(ids)), { logger: log });
      await client.updateWorkItems(ids, {});
      assert.match(log.lines[0], /^info PUT \/workitem\/workItems\/1000,1001,1002,… \(400 IDs\) → 200/);
    });

    for (const [what, ids, shown] of [
      ['three short IDs: the whole path', ['1', '2', '3'], '/workitem/workItems/1,2,3 '],
      ['four IDs: the first three and the count', ['1', '2', '3', '4'], '/workitem/workItems/1,2,3,… (4 IDs) '],
      ['three IDs over 200 characters: the three and the count', ['a'.repeat(90), 'b'.repeat(90), 'c'.repeat(90)], `/workitem/workItems/${'a'.repeat(90)},${'b'.repeat(90)},${'c'.repeat(90)},… (3 IDs) `],
    ] as const) {
      it(`logs ${what}`, async () => {
        const log = capturingLogger();
        const { client } = await setup((_q, res) => json(res, 200, updateResponse([...ids])), { logger: log });
        await client.updateWorkItems([...ids], {});
        assert.ok(log.lines[0]!.startsWith(`info PUT ${shown}→ 200`), log.lines[0]);
      });
    }
  });

  describe('error responses', () => {
    const shapes: [string, number, string, string | undefined, string[], string[]][] = [
      ['the documented array', 400, '[{"message":"The name is empty.","code":"NAME_EMPTY"},{"message":"The user does not exist."}]', 'application/json', ['The name is empty.', 'The user does not exist.'], ['NAME_EMPTY']],
      ['one object', 404, '{"message":"Work item 9 was not found."}', 'application/json', ['Work item 9 was not found.'], []],
      ['Message', 500, '{"Message":"An error has occurred."}', 'application/json; charset=utf-8', ['An error has occurred.'], []],
      ['errors list', 409, '{"errors":[{"message":"conflict A"},{"message":"conflict B"}]}', 'application/json', ['conflict A', 'conflict B'], []],
      ['nested arrays', 400, '[[{"message":"inner"}]]', 'application/json', ['inner'], []],
      ['plain text', 503, 'Service Unavailable', 'text/plain', ['Service Unavailable'], []],
      ['HTML', 502, '<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>', 'text/html', ['502 Bad Gateway — Bad Gateway'], []],
      ['JSON without messages', 500, '{"status":500}', 'application/json', ['{"status":500}'], []],
      ['an empty body', 403, '', undefined, [], []],
    ];
    for (const [name, status, body, type, messages, codes] of shapes) {
      it(`${status} with ${name}: status and every message`, async () => {
        const { client } = await setup((_q, res) => {
          res.writeHead(status, type ? { 'content-type': type } : {});
          res.end(body);
        });
        const e = asServiceError(await rejection(() => client.updateWorkItems(['1', '2'], { setCompleted: true })));
        assert.equal(e.kind, 'http');
        assert.equal(e.status, status);
        assert.equal(e.method, 'PUT');
        assert.equal(e.path, '/workitem/workItems/1,2');
        assert.deepEqual(e.messages, messages);
        assert.deepEqual(e.codes, codes);
        assert.equal(e.outcomeUnknown, status >= 500, 'every 5xx without Retry-After leaves the outcome unknown');
        for (const m of messages) assert.ok(e.message.includes(m));
      });
    }

    it('reads Retry-After (seconds and HTTP date) into retryAfterMs', async () => {
      let header = '7';
      const { client } = await setup((_q, res) => json(res, 429, [{ message: 'Too many requests' }], { 'retry-after': header }));
      const e = asServiceError(await rejection(() => client.listProcessCategories()));
      assert.equal(e.retryAfterMs, 7000);
      assert.equal(e.safeToRetry, true);
      header = new Date(Date.now() + 60_000).toUTCString();
      const e2 = asServiceError(await rejection(() => client.listProcessCategories()));
      assert.ok(e2.retryAfterMs !== undefined && e2.retryAfterMs > 0 && e2.retryAfterMs <= 60_000);
    });
  });

  describe('transport failures', () => {
    it('connection refused → connect, ECONNREFUSED, safe to retry', async () => {
      const port = await closedPort();
      const client = new ServiceClient({ baseUrl: `http://127.0.0.1:${port}/api` });
      clients.push(client);
      const e = asServiceError(await rejection(() => client.updateWorkItems(['1'], {})));
      assert.equal(e.kind, 'connect');
      assert.equal(e.code, 'ECONNREFUSED');
      assert.equal(e.reason, 'connection-refused');
      assert.equal(e.sent, false);
      assert.equal(e.safeToRetry, true);
      assert.equal(e.outcomeUnknown, false);
      assert.match(e.message, /could not connect \(ECONNREFUSED\): the server refused the connection/);
    });

    it('connect timeout (a TLS handshake that never completes) → connect, UND_ERR_CONNECT_TIMEOUT', async () => {
      const silent = await silentTcpServer();
      try {
        const client = new ServiceClient({ baseUrl: `https://127.0.0.1:${silent.port}/api`, timeouts: { connectMs: 300 } });
        clients.push(client);
        const e = asServiceError(await rejection(() => client.updateWorkItems(['1'], {})));
        assert.equal(e.kind, 'connect');
        assert.equal(e.code, 'UND_ERR_CONNECT_TIMEOUT');
        assert.equal(e.reason, 'connect-timeout');
        assert.equal(e.safeToRetry, true);
      } finally {
        await silent.close();
      }
    });

    it('headers timeout (server accepts, never answers) → timeout, outcome unknown', async () => {
      const { server, client } = await setup(() => undefined, { timeouts: { headersMs: 300 } });
      const e = asServiceError(await rejection(() => client.updateWorkItems(['1'], { setCompleted: true })));
      assert.equal(e.kind, 'timeout');
      assert.equal(e.code, 'UND_ERR_HEADERS_TIMEOUT');
      assert.equal(e.reason, 'headers-timeout');
      assert.equal(e.outcomeUnknown, true);
      assert.equal(e.safeToRetry, false);
      assert.equal(server.received.length, 1);
    });

    it('body timeout (server stalls in the middle of the body) → timeout', async () => {
      const { client } = await setup((_q, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"totalCount": 1, "data": [');
      }, { timeouts: { bodyMs: 300 } });
      const e = asServiceError(await rejection(() => client.listProcessCategories()));
      assert.equal(e.kind, 'timeout');
      assert.equal(e.code, 'UND_ERR_BODY_TIMEOUT');
      assert.equal(e.reason, 'body-timeout');
    });

    it('server closes the connection after receiving an update → network, outcome unknown, not retried', async () => {
      const { server, client } = await setup((req) => void req.socket.destroy());
      const e = asServiceError(await rejection(() => client.updateWorkItems(['1'], { setCompleted: true })));
      assert.equal(e.kind, 'network');
      assert.ok(e.code === 'UND_ERR_SOCKET' || e.code === 'ECONNRESET', e.code);
      assert.equal(e.sent, true);
      assert.equal(e.outcomeUnknown, true);
      assert.equal(e.safeToRetry, false);
      assert.equal(server.received.length, 1);
    });

    it('a GET whose connection is closed is retried once on a fresh connection', async () => {
      let n = 0;
      const { server, client } = await setup((req, res) => (++n === 1 ? void req.socket.destroy() : json(res, 200, { totalCount: 0, data: [] })));
      const r = await client.listProcessCategories();
      assert.equal(r.totalCount, 0);
      assert.equal(server.received.length, 2);
    });

    it('a GET that keeps failing reports network after the one retry', async () => {
      const { server, client } = await setup((req) => void req.socket.destroy());
      const e = asServiceError(await rejection(() => client.listProcessCategories()));
      assert.equal(e.kind, 'network');
      assert.equal(server.received.length, 2);
    });
  });

  describe('cancellation', () => {
    it('an already aborted signal sends nothing', async () => {
      const { server, client } = await setup((_q, res) => json(res, 200, updateResponse(['1'])));
      const ac = new AbortController();
      ac.abort();
      const e = asServiceError(await rejection(() => client.updateWorkItems(['1'], {}, { signal: ac.signal })));
      assert.equal(e.kind, 'cancelled');
      assert.equal(e.sent, false);
      assert.equal(e.outcomeUnknown, false);
      assert.equal(server.received.length, 0);
    });

    it('aborting while the server works → cancelled; an update sent is of unknown outcome', async () => {
      const { server, client } = await setup(() => undefined);
      const ac = new AbortController();
      const pending = rejection(() => client.updateWorkItems(['1'], { setCompleted: true }, { signal: ac.signal }));
      await until(() => server.received.length === 1, 'the server to receive the request');
      ac.abort();
      const e = asServiceError(await pending);
      assert.equal(e.kind, 'cancelled');
      assert.equal(e.sent, true);
      assert.equal(e.outcomeUnknown, true);
      assert.match(e.message, /was cancelled after the request was sent/);
    });

    it('aborting while the body streams in → cancelled', async () => {
      const { server, client } = await setup((_q, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"totalCount": 1, "data": [');
      });
      const ac = new AbortController();
      const pending = rejection(() => client.listProcessCategories({}, { signal: ac.signal }));
      await until(() => server.received.length === 1, 'the server to receive the request');
      await new Promise((r) => setTimeout(r, 20));
      ac.abort();
      assert.equal(asServiceError(await pending).kind, 'cancelled');
    });

    it('aborting while connecting → cancelled, not sent', async () => {
      const silent = await silentTcpServer();
      try {
        const client = new ServiceClient({ baseUrl: `https://127.0.0.1:${silent.port}/api`, timeouts: { connectMs: 60_000 } });
        clients.push(client);
        const ac = new AbortController();
        const pending = rejection(() => client.updateWorkItems(['1'], {}, { signal: ac.signal }));
        setTimeout(() => ac.abort(), 50);
        const e = asServiceError(await pending);
        assert.equal(e.kind, 'cancelled');
        assert.equal(e.sent, false);
      } finally {
        await silent.close();
      }
    });
  });

  describe('connections', () => {
    it('caps connections to the origin and reuses them', async () => {
      const pending: (() => void)[] = [];
      const { server } = await setup((_q, res) => {
        pending.push(() => json(res, 200, { totalCount: 0, data: [] }));
      });
      const client = new ServiceClient({ baseUrl: server.baseUrl, maxConnections: 2 });
      clients.push(client);
      const calls = Array.from({ length: 8 }, () => client.listProcessCategories());
      // Release answers as they arrive; never more than 2 are in flight.
      let answered = 0;
      while (answered < 8) {
        await until(() => pending.length > 0, 'a request');
        pending.shift()?.();
        answered++;
      }
      await Promise.all(calls);
      assert.ok(server.maxOpenSockets() <= 2, `at most 2 sockets, saw ${server.maxOpenSockets()}`);
      assert.ok(server.sockets() <= 2, `sockets reused, saw ${server.sockets()}`);
    });

    it('uses an injected dispatcher and leaves it open on close', async () => {
      const { server } = await setup((_q, res) => json(res, 200, { totalCount: 0, data: [] }));
      const agent = new Agent({ connections: 1 });
      try {
        const client = new ServiceClient({ baseUrl: server.baseUrl, dispatcher: agent });
        await client.listProcessCategories();
        await client.close();
        assert.equal(agent.closed, false);
        const e = asServiceError(await rejection(() => client.listProcessCategories()));
        assert.equal(e.code, 'CLIENT_CLOSED');
      } finally {
        await agent.close();
      }
    });
  });

  it('types: Credentials covers none, bearer and basic', () => {
    const all: Credentials[] = [{ kind: 'none' }, { kind: 'bearer', token: 't' }, { kind: 'basic', loginName: 'a', password: 'b' }];
    assert.equal(all.length, 3);
  });
});
