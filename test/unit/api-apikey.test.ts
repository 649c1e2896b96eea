// API keys (`X-TT-ApiKey: <key>`, no Authorization header) in the client, the
// credential store and the sandbox; and sign-in as real clients send it: the
// sandbox binds the members of POST /auth/token case-insensitively and accepts a
// form-encoded body, while the client keeps sending JSON `loginName`.
import * as assert from 'node:assert/strict';
import { API_KEY_HEADER, ServiceClient, type Credentials } from '../../src/api/client';
import { isServiceError } from '../../src/api/errors';
import { CredentialStore, credentialKey, parseStoredCredential, type SecretStorageLike } from '../../src/common/secrets';
import { createSandbox, DEMO_API_KEYS, DEMO_ORGANIZATIONS, DEMO_PASSWORD, DEMO_SIGN_IN, demoDataset, parseDataset, DatasetError, type Sandbox } from '../../src/sandbox/index';
import { capturingLogger, rejection, startServer, stringifyDeep, type TestServer } from './api-helpers';
import { call } from './sandbox-server-fixtures';

describe('API keys: the client sends X-TT-ApiKey and nothing else', () => {
  let server: TestServer;
  const key = 'k3y-Secret-0123456789';
  before(async () => {
    server = await startServer((req, res) => {
      // Echo the key back in the error, as a careless server might.
      const got = String(req.headers['x-tt-apikey'] ?? '');
      res.writeHead(req.url?.includes('fail') ? 401 : 200, { 'content-type': 'application/json' });
      res.end(req.url?.includes('fail') ? JSON.stringify([{ message: `bad key ${got}`, code: 'UNAUTHORIZED' }]) : '{"totalCount":0,"data":[]}');
    });
  });
  after(async () => server.close());

  it('an apiKey credential is sent as X-TT-ApiKey, with no Authorization header', async () => {
    const log = capturingLogger();
    const client = new ServiceClient({ baseUrl: server.baseUrl, credentials: () => ({ kind: 'apiKey', key }), logger: log });
    try {
      await client.listOrganizationUsers('1');
      const r = server.received.at(-1)!;
      assert.equal(r.headers['x-tt-apikey'], key);
      assert.equal(r.headers.authorization, undefined);
      assert.equal(API_KEY_HEADER.toLowerCase(), 'x-tt-apikey');
      assert.ok(!log.text().includes(key), 'the key is never logged');
    } finally {
      await client.close();
    }
  });

  it('a key echoed back by the server never reaches the error or the log', async () => {
    const log = capturingLogger();
    const client = new ServiceClient({ baseUrl: server.baseUrl, credentials: () => ({ kind: 'apiKey', key }), logger: log });
    try {
      const e = await rejection(() => client.listOrganizationUsers('fail'));
      assert.ok(isServiceError(e));
      assert.equal(e.status, 401);
      assert.ok(!stringifyDeep(e).includes(key), stringifyDeep(e));
      assert.ok(!e.message.includes(key));
      assert.ok(!log.text().includes(key));
    } finally {
      await client.close();
    }
  });

  it('an empty key or one with spaces is refused before sending', async () => {
    const before = server.received.length;
    for (const bad of ['', '   ', 'two words', 'line\nbreak', 'ключ']) {
      const client = new ServiceClient({ baseUrl: server.baseUrl, credentials: () => ({ kind: 'apiKey', key: bad }) as Credentials });
      try {
        const e = await rejection(() => client.listOrganizationUsers('1'));
        assert.ok(isServiceError(e) && e.kind === 'invalid-request', `${JSON.stringify(bad)}: ${stringifyDeep(e)}`);
        if (bad.trim()) assert.ok(!e.message.includes(bad.trim()), 'the key is not quoted');
      } finally {
        await client.close();
      }
    }
    assert.equal(server.received.length, before, 'nothing was sent');
  });
});

describe('API keys: stored per origin like the other credentials', () => {
  function memory(): SecretStorageLike & { data: Map<string, string> } {
    const data = new Map<string, string>();
    return { data, get: async (k) => data.get(k), store: async (k, v) => void data.set(k, v), delete: async (k) => void data.delete(k) };
  }

  it('an apiKey credential round-trips through SecretStorage under its origin only', async () => {
    const secrets = memory();
    const store = new CredentialStore(secrets);
    await store.set('https://a.example:8443/TimeTrackerNX/api', { kind: 'apiKey', key: 'abc-123' });
    assert.deepEqual([...secrets.data.keys()], [credentialKey('https://a.example:8443')]);
    const fresh = new CredentialStore(secrets);
    assert.deepEqual(await fresh.get('https://a.example:8443'), { kind: 'apiKey', key: 'abc-123' });
    assert.equal(await fresh.get('https://b.example'), undefined, 'another origin gets nothing');
  });

  it('a damaged apiKey entry reads as absent', () => {
    assert.equal(parseStoredCredential('{"kind":"apiKey"}'), undefined);
    assert.equal(parseStoredCredential('{"kind":"apiKey","key":""}'), undefined);
    assert.equal(parseStoredCredential('{"kind":"apiKey","key":5}'), undefined);
  });
});

describe('API keys: the sandbox accepts per-user keys from the data set', function () {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await createSandbox({});
  });
  after(async () => sandbox.close());

  const withKey = (k: string) => ({ 'X-TT-ApiKey': k });

  it('a demo user\'s key is accepted on every authenticated route (and no Authorization is needed)', async () => {
    const routes: [string, 'GET' | 'PUT', unknown?][] = [
      [`/system/organizations/${DEMO_ORGANIZATIONS.root}/allassignedusers`, 'GET'],
      [`/system/organizations/${DEMO_ORGANIZATIONS.root}/users`, 'GET'],
      ['/system/processCategories?limit=1', 'GET'],
      ['/workitem/workItems/111', 'PUT', { fields: { Name: 'renamed with an API key' } }],
      // The read operations.
      ['/project/projects', 'GET'],
      ['/project/projects/3001', 'GET'],
      ['/system/users/me', 'GET'],
      ['/workitem/workItems/111,112', 'GET'],
      ['/workitem/workItems/110/subItems', 'GET'],
    ];
    for (const [path, method, body] of routes) {
      const r = await call(`${sandbox.url}${path}`, { method, headers: withKey(DEMO_API_KEYS.admin), body });
      assert.equal(r.status, 200, `${method} ${path}: ${r.text}`);
    }
    const item = await call(`${sandbox.origin}/_sandbox/workitems/111`);
    assert.equal((item.json as { updatedBy: string }).updatedBy, '2001', 'the update is made as the key\'s user');
  });

  it('the key decides who the caller is: the viewer\'s key cannot rename', async () => {
    const r = await call(`${sandbox.url}/workitem/workItems/111`, { method: 'PUT', headers: withKey(DEMO_API_KEYS.viewer), body: { fields: { Name: 'x' } } });
    assert.equal(r.status, 403, r.text);
  });

  it('an unknown key, an empty key and a deleted user\'s key are 401s that do not quote the key', async () => {
    for (const [k, reason] of [
      ['no-such-key', 'bad-api-key'],
      ['', 'bad-api-key'],
      [DEMO_API_KEYS.retired, 'deleted'],
    ] as const) {
      const r = await call(`${sandbox.url}/system/processCategories`, { headers: withKey(k) });
      assert.equal(r.status, 401, r.text);
      assert.equal((r.json as { params: { reason: string } }[])[0]!.params.reason, reason);
      if (k) assert.ok(!r.text.includes(k), r.text);
    }
  });

  it('keys are never returned by the API', async () => {
    const r = await call(`${sandbox.url}/system/organizations/${DEMO_ORGANIZATIONS.root}/users`, { headers: withKey(DEMO_API_KEYS.admin) });
    assert.equal(r.status, 200);
    assert.ok(!r.text.includes('apiKeys') && !r.text.includes(DEMO_API_KEYS.admin), 'no key in a user list');
  });

  it('the client signs in with the demo key against the sandbox', async () => {
    const client = new ServiceClient({ baseUrl: sandbox.url, credentials: () => ({ kind: 'apiKey', key: DEMO_API_KEYS.nocost }) });
    try {
      const r = await client.listProcessCategories({ limit: 2 });
      assert.equal(r.data.length, 2);
    } finally {
      await client.close();
    }
  });

  it('a data set with the same key for two users is refused without showing the key', () => {
    const d = demoDataset();
    d.users![1] = { ...d.users![1]!, apiKeys: [DEMO_API_KEYS.admin] };
    assert.throws(
      () => parseDataset(d),
      (e: unknown) => e instanceof DatasetError && e.problems.some((p) => /users\[1\]\.apiKeys\[0\]: the same API key is also a key of users\[0\]/.test(p)) && !e.message.includes(DEMO_API_KEYS.admin),
    );
  });
});

describe('sign-in binding: POST /auth/token as real clients send it', function () {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await createSandbox({});
  });
  after(async () => sandbox.close());

  async function tokenFrom(r: { status: number; text: string; json: unknown }): Promise<string> {
    assert.equal(r.status, 200, r.text);
    const token = (r.json as { token: string }).token;
    const check = await call(`${sandbox.url}/system/processCategories?limit=1`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(check.status, 200);
    return token;
  }

  it('members are bound case-insensitively: loginname, LOGINNAME, Password', async () => {
    await tokenFrom(await call(`${sandbox.url}/auth/token`, { method: 'POST', body: { loginname: DEMO_SIGN_IN.admin, password: DEMO_PASSWORD } }));
    await tokenFrom(await call(`${sandbox.url}/auth/token`, { method: 'POST', body: { LOGINNAME: DEMO_SIGN_IN.viewer, Password: DEMO_PASSWORD } }));
  });

  it('a form-encoded body is accepted', async () => {
    const headers = { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' };
    await tokenFrom(await call(`${sandbox.url}/auth/token`, { method: 'POST', headers, body: `loginName=${DEMO_SIGN_IN.admin}&password=${DEMO_PASSWORD}` }));
    await tokenFrom(await call(`${sandbox.url}/auth/token`, { method: 'POST', headers, body: `loginname=${DEMO_SIGN_IN.nocost}&password=${DEMO_PASSWORD}` }));
  });

  it('a wrong password in a form is a 401; a member given twice is a 400 naming it', async () => {
    const headers = { 'content-type': 'application/x-www-form-urlencoded' };
    const wrong = await call(`${sandbox.url}/auth/token`, { method: 'POST', headers, body: 'loginName=admin&password=nope' });
    assert.equal(wrong.status, 401);
    const twiceForm = await call(`${sandbox.url}/auth/token`, { method: 'POST', headers, body: 'loginName=admin&loginname=admin&password=password' });
    assert.equal(twiceForm.status, 400, twiceForm.text);
    assert.match(twiceForm.text, /loginName: the member is given twice/);
    const twiceJson = await call(`${sandbox.url}/auth/token`, { method: 'POST', body: '{"loginName":"admin","LoginName":"admin","password":"password"}' });
    assert.equal(twiceJson.status, 400, twiceJson.text);
    assert.match(twiceJson.text, /given twice \(as \\"loginName\\" and \\"LoginName\\"\)/);
  });

  it('the client keeps sending JSON with "loginName"', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"token":"t0ken-value"}');
    });
    const client = new ServiceClient({ baseUrl: server.baseUrl });
    try {
      assert.equal(await client.signIn('someone', 'pw'), 't0ken-value');
      const r = server.received.at(-1)!;
      assert.match(String(r.headers['content-type']), /^application\/json/);
      assert.deepEqual(JSON.parse(r.body), { loginName: 'someone', password: 'pw' });
    } finally {
      await client.close();
      await server.close();
    }
  });
});
