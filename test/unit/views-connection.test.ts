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
  it('a damaged entry reads as absent', () => {
    assert.equal(parseStoredCredential('{'), undefined);
    assert.equal(parseStoredCredential('{"kind":"bearer","token":""}'), undefined);
    assert.deepEqual(parseStoredCredential('{"kind":"basic","loginName":"a","password":"b"}'), { kind: 'basic', loginName: 'a', password: 'b' });
  });
});
