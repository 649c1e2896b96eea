import * as assert from 'node:assert/strict';
import { effectiveRestrictedValue, isLoopbackHost, normalizeServiceUrl, serviceLabel } from '../../src/common/serviceUrl';
import { CredentialStore, credentialKey, parseStoredCredential, type SecretStorageLike } from '../../src/common/secrets';

function memorySecrets(): SecretStorageLike & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    get: async (k) => data.get(k),
    store: async (k, v) => void data.set(k, v),
    delete: async (k) => void data.delete(k),
  };
}

describe('connection: service URL rules', () => {
  it('normalizes a base URL and keeps its path', () => {
    assert.deepEqual(normalizeServiceUrl(' https://pm.example.com/TimeTrackerNX/api/ '), {
      ok: true,
      baseUrl: 'https://pm.example.com/TimeTrackerNX/api',
      origin: 'https://pm.example.com',
      insecure: false,
    });
  });
  it('rejects empty, non-http, user info and queries with a problem code', () => {
    assert.deepEqual(normalizeServiceUrl(''), { ok: false, problem: 'empty' });
    assert.deepEqual(normalizeServiceUrl('not a url'), { ok: false, problem: 'invalid' });
    assert.deepEqual(normalizeServiceUrl('ftp://h/api'), { ok: false, problem: 'scheme' });
    assert.deepEqual(normalizeServiceUrl('https://u:p@h/api'), { ok: false, problem: 'credentials' });
    assert.deepEqual(normalizeServiceUrl('https://h/api?x=1'), { ok: false, problem: 'query' });
  });
  it('flags plain http only off loopback', () => {
    assert.equal((normalizeServiceUrl('http://pm.example.com/api') as { insecure: boolean }).insecure, true);
    assert.equal((normalizeServiceUrl('http://127.0.0.1:8080/api') as { insecure: boolean }).insecure, false);
    assert.equal((normalizeServiceUrl('http://[::1]:8080/api') as { insecure: boolean }).insecure, false);
    assert.equal((normalizeServiceUrl('http://localhost/api') as { insecure: boolean }).insecure, false);
    assert.equal(isLoopbackHost('127.0.0.1.evil.example'), false);
  });
  it('labels a service by host, and path when it is not just /api', () => {
    assert.equal(serviceLabel('https://pm.example.com/api'), 'pm.example.com');
    assert.equal(serviceLabel('https://pm.example.com/TimeTrackerNX/api'), 'pm.example.com/TimeTrackerNX');
  });
});

describe('connection: workspace trust', () => {
  const inspected = { defaultValue: '', globalValue: 'https://good.example/api', workspaceValue: 'https://evil.example/api' };
  it('an untrusted workspace cannot override the service URL', () => {
    assert.equal(effectiveRestrictedValue(inspected, false, ''), 'https://good.example/api');
  });
  it('a trusted workspace can', () => {
    assert.equal(effectiveRestrictedValue(inspected, true, ''), 'https://evil.example/api');
  });
  it('an untrusted workspace with no user value falls back to the default', () => {
    assert.equal(effectiveRestrictedValue({ defaultValue: '', workspaceFolderValue: 'https://evil.example/api' }, false, 'x'), '');
  });
});

describe('connection: credentials keyed by origin', () => {
  it('a credential stored for one origin is not found for another, whatever the path', async () => {
    const secrets = memorySecrets();
    const store = new CredentialStore(secrets);
    await store.set('https://good.example', { kind: 'bearer', token: 't1', loginName: 'admin' });
    assert.deepEqual(await store.get('https://good.example/other/api'.replace(/\/other\/api$/, '')), { kind: 'bearer', token: 't1', loginName: 'admin' });
    assert.equal(await new CredentialStore(secrets).get('https://evil.example'), undefined);
    assert.equal(await new CredentialStore(secrets).get('https://good.example:8443'), undefined);
    assert.equal(await new CredentialStore(secrets).get('http://good.example'), undefined);
    assert.deepEqual([...secrets.data.keys()], [credentialKey('https://good.example')]);
  });
  it('session-only credentials never reach the secret storage', async () => {
    const secrets = memorySecrets();
    const store = new CredentialStore(secrets);
    await store.set('http://127.0.0.1:1234', { kind: 'bearer', token: 's' }, { sessionOnly: true });
    assert.equal(secrets.data.size, 0);
    assert.deepEqual(await store.get('http://127.0.0.1:1234'), { kind: 'bearer', token: 's' });
    await store.delete('http://127.0.0.1:1234');
    assert.equal(await store.get('http://127.0.0.1:1234'), undefined);
  });
  it('a sign-in or sign-out in another window is seen once the key is invalidated', async () => {
    const secrets = memorySecrets();
    const store = new CredentialStore(secrets);
    const origin = 'https://good.example';
    const other = 'https://other.example';
    assert.equal(await store.get(origin), undefined, 'read (and cached) before the other window signs in');
    await new CredentialStore(secrets).set(origin, { kind: 'bearer', token: 't2', loginName: 'viewer' });
    await new CredentialStore(secrets).set(other, { kind: 'bearer', token: 'o' });
    assert.equal(await store.get(origin), undefined, 'the cache still answers until told');
    store.invalidate(credentialKey(origin));
    assert.deepEqual(await store.get(origin), { kind: 'bearer', token: 't2', loginName: 'viewer' });
    assert.deepEqual(await store.get(other), { kind: 'bearer', token: 'o' });
    await new CredentialStore(secrets).delete(origin);
    await new CredentialStore(secrets).delete(other);
    store.invalidate(credentialKey(other));
    assert.deepEqual(await store.get(origin), { kind: 'bearer', token: 't2', loginName: 'viewer' }, 'only the changed key is forgotten');
    assert.equal(await store.get(other), undefined);
    store.invalidate();
    assert.equal(await store.get(origin), undefined, 'invalidate() forgets every key');
  });
  it('a read in flight when the key is invalidated is not cached', async () => {
    const secrets = memorySecrets();
    const origin = 'https://good.example';
    for (const key of [credentialKey(origin), undefined]) {
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const store = new CredentialStore({ ...secrets, get: async (k) => {
        const v = secrets.data.get(k);
        await held;
        return v;
      } });
      secrets.data.delete(credentialKey(origin));
      const reading = store.get(origin);
      await new CredentialStore(secrets).set(origin, { kind: 'bearer', token: 'new' });
      store.invalidate(key);
      release();
      assert.deepEqual(await reading, { kind: 'bearer', token: 'new' }, `the stale read is retried (invalidate ${key ?? 'all'})`);
    }
  });
  it('session-only credentials survive invalidate()', async () => {
    const store = new CredentialStore(memorySecrets());
    await store.set('http://127.0.0.1:1234', { kind: 'bearer', token: 's' }, { sessionOnly: true });
    store.invalidate();
    assert.deepEqual(await store.get('http://127.0.0.1:1234'), { kind: 'bearer', token: 's' });
  });
  it('a damaged entry reads as absent', () => {
    assert.equal(parseStoredCredential('{'), undefined);
    assert.equal(parseStoredCredential('{"kind":"bearer","token":""}'), undefined);
    assert.deepEqual(parseStoredCredential('{"kind":"basic","loginName":"a","password":"b"}'), { kind: 'basic', loginName: 'a', password: 'b' });
  });
});
