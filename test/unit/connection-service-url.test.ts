// `http://host//api` was accepted and then unusable (every request refused); the base URL
// keeps one slash between segments, and the client can then send to it.
import * as assert from 'node:assert/strict';
import { normalizeServiceUrl } from '../../src/common/serviceUrl';
import { ServiceClient } from '../../src/api/client';
import { createSandbox } from '../../src/sandbox';

describe('connection: a base URL with empty path segments', () => {
  it('http://host//api and http://host/a//b///api/ are read with single slashes', () => {
    assert.deepEqual(normalizeServiceUrl('http://127.0.0.1:8080//api'), { ok: true, baseUrl: 'http://127.0.0.1:8080/api', origin: 'http://127.0.0.1:8080', insecure: false });
    assert.equal((normalizeServiceUrl('https://pm.example.com/a//b///api/') as { baseUrl: string }).baseUrl, 'https://pm.example.com/a/b/api');
  });

  it('the base URL read from http://host//api works against a real sandbox', async () => {
    const sandbox = await createSandbox({});
    const n = normalizeServiceUrl(sandbox.url.replace('/api', '//api'));
    assert.ok(n.ok);
    const client = new ServiceClient({ baseUrl: n.baseUrl, credentials: () => ({ kind: 'basic', loginName: 'admin', password: 'password' }) });
    try {
      const r = await client.listProcessCategories({ limit: 1 });
      assert.equal(typeof r.totalCount, 'number');
    } finally {
      await client.close();
      await sandbox.close();
    }
  });
});
