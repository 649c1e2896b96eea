// Start Sandbox asks whether the configured URL is already a sandbox (src/connection/sandboxProbe.ts):
// a real sandbox over real HTTP answers yes; another server, a closed port and a remote URL answer no.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSandbox } from '../../src/sandbox';
import { answersAsSandbox } from '../../src/connection/sandboxProbe';
import { freePort } from '../runners/code-server';

describe('Start Sandbox: is a sandbox already serving the configured URL?', () => {
  it('a running sandbox answers as a sandbox at its base URL (GET /_sandbox/faults, no sign-in)', async () => {
    const sandbox = await createSandbox({ host: '127.0.0.1', port: 0 });
    try {
      assert.equal(await answersAsSandbox(sandbox.url), true);
      assert.equal(await answersAsSandbox(`${sandbox.url}/`), true);
    } finally {
      await sandbox.close();
    }
  });

  it('a sandbox with plain errors still answers as a sandbox (its control routes keep their answers)', async () => {
    const sandbox = await createSandbox({ host: '127.0.0.1', port: 0, plainErrors: true });
    try {
      assert.equal(await answersAsSandbox(sandbox.url), true);
    } finally {
      await sandbox.close();
    }
  });

  it('another service on loopback (404, or 200 with something else) is not a sandbox', async () => {
    let answer = { status: 404, body: '[{"message":"not found"}]' };
    const requests: string[] = [];
    const server = http.createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
    try {
      assert.equal(await answersAsSandbox(base), false);
      answer = { status: 200, body: '{"totalCount":0,"data":[]}' };
      assert.equal(await answersAsSandbox(base), false);
      answer = { status: 200, body: '<html>sign in</html>' };
      assert.equal(await answersAsSandbox(base), false);
      assert.deepEqual(requests, ['GET /_sandbox/faults', 'GET /_sandbox/faults', 'GET /_sandbox/faults']);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('a closed port, a remote URL and a bad URL are not a sandbox (a remote service is never asked)', async () => {
    assert.equal(await answersAsSandbox(`http://127.0.0.1:${await freePort()}/api`), false);
    assert.equal(await answersAsSandbox('https://pm.example.com/TimeTrackerNX/api', 200), false);
    assert.equal(await answersAsSandbox('not a url'), false);
  });
});
