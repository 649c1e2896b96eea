// The fetch dispatcher (src/api/hostFetchDispatcher.ts) driven by the ServiceClient and
// `exchange` against real local servers: answers, streamed lists, the size cap, cancelling,
// both timeouts, and whether a failed request may have reached the service. The fetch
// function is Node's global fetch (what VS Code patches in its extension host), or undici's
// fetch through a ProxyAgent, as VS Code's patched fetch sends a request to a proxy.
import * as assert from 'node:assert/strict';
import { ProxyAgent, fetch as undiciFetch } from 'undici';
import { ServiceClient, type ClientOptions } from '../../src/api/client';
import { ServiceError, isServiceError } from '../../src/api/errors';
import { NetworkConfigError, proxyEndpointsFor, resolveProxies } from '../../src/api/dispatcher';
import { FetchDispatcher, provesNotSent, type FetchFunction } from '../../src/api/hostFetchDispatcher';
import { exchange } from '../../src/api/transport';
import { capturingLogger, closedPort, json, rejection, silentTcpServer, startServer, stringifyDeep, until, type Handler, type TestServer } from './api-helpers';
import { makePki, opensslAvailable, startProxy, startTlsServer } from './api-network-helpers';

const globalFetch: FetchFunction = (url, init) => fetch(url, init);

function asServiceError(e: unknown): ServiceError {
  assert.ok(isServiceError(e), `expected a ServiceError, got ${stringifyDeep(e)}`);
  return e;
}

type ErrorFields = Partial<Pick<ServiceError, 'kind' | 'code' | 'reason' | 'sent' | 'outcomeUnknown' | 'safeToRetry'>>;

/** A failure: how the server behaves, the call made, what the error says, and how many requests reached the server. */
interface Failure {
  name: string;
  handler: Handler;
  opts?: Partial<ClientOptions>;
  call: (c: ServiceClient) => Promise<unknown>;
  expect: ErrorFields;
  received?: number;
}

function expectFields(e: ServiceError, expected: ErrorFields): void {
  for (const [k, v] of Object.entries(expected)) assert.equal(e[k as keyof ErrorFields], v, `${k} of ${e.message}`);
}

/** Answers 200 and the start of a list, then nothing more. */
const stall: Handler = (_q, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"totalCount": 1, "data": [');
};

function users(n: number, from = 0) {
  return Array.from({ length: n }, (_, i) => ({ id: `u${from + i}`, name: `User ${from + i}`, loginName: `user${from + i}`, createdAt: '2025-01-01T00:00:00Z' }));
}

describe('api fetch dispatcher: through fetch against a real HTTP server', function () {
  this.timeout(20_000);
  let server: TestServer | undefined;
  let handler: Handler = (_req, res) => json(res, 200, {});
  const dispatchers: FetchDispatcher[] = [];
  const clients: ServiceClient[] = [];

  function client(baseUrl: string, opts: Partial<ClientOptions> = {}, fetchFn: FetchFunction = globalFetch): ServiceClient {
    const dispatcher = new FetchDispatcher(fetchFn);
    dispatchers.push(dispatcher);
    const c = new ServiceClient({ baseUrl, dispatcher, credentials: () => ({ kind: 'bearer', token: 'tok-1234' }), ...opts });
    clients.push(c);
    return c;
  }

  async function setup(h: Handler, opts: Partial<ClientOptions> = {}): Promise<{ server: TestServer; client: ServiceClient }> {
    handler = h;
    server ??= await startServer((req, res, body) => handler(req, res, body));
    return { server, client: client(server.baseUrl, opts) };
  }

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await Promise.all(dispatchers.splice(0).map((d) => d.destroy()));
    await server?.close();
    server = undefined;
  });

  describe('answers', () => {
    it('sends the method, path, headers and body, and reads a 2xx answer', async () => {
      const { server, client } = await setup((_q, res) => json(res, 200, { items: [{ id: '1', updatedAt: '2026-01-05T09:00:00', updatedBy: 'u1' }] }));
      const r = await client.updateWorkItems(['1'], { setCompleted: true });
      assert.equal(r.items[0].id, '1');
      assert.equal(server.received.length, 1);
      const got = server.received[0];
      assert.equal(got.method, 'PUT');
      assert.equal(got.url, '/site/api/workitem/workItems/1');
      assert.equal(got.headers.authorization, 'Bearer tok-1234');
      assert.equal(got.headers['content-type'], 'application/json; charset=utf-8');
      assert.deepEqual(JSON.parse(got.body), { setCompleted: true });
    });

    it('a non-2xx answer is an http error with its status and messages; a 407 answer is a failure of unknown outcome', async () => {
      const { client } = await setup((req, res) =>
        req.url?.includes('processCategories') ? json(res, 404, [{ message: 'no such thing' }]) : json(res, 407, { message: 'sign in to the proxy' }),
      );
      const e = asServiceError(await rejection(() => client.listProcessCategories()));
      assert.equal(e.kind, 'http');
      assert.equal(e.status, 404);
      assert.deepEqual(e.messages, ['no such thing']);
      // fetch turns a 407 answer into "fetch failed" without saying why (a proxy's 407 to CONNECT is named: see below).
      const p = asServiceError(await rejection(() => client.updateWorkItems(['1'], {})));
      assert.equal(p.kind, 'network');
      assert.equal(p.outcomeUnknown, true);
    });

    it('a redirect is the answer, not followed (redirect: manual)', async () => {
      const { server, client } = await setup((req, res) => {
        if (req.url?.includes('elsewhere')) return json(res, 200, { totalCount: 0, data: [] });
        res.writeHead(302, { location: '/site/api/elsewhere' });
        res.end();
      });
      const e = asServiceError(await rejection(() => client.listProcessCategories()));
      assert.equal(e.kind, 'http');
      assert.equal(e.status, 302);
      assert.equal(server.received.length, 1, 'the Location was not fetched');
    });

    it('every header of the answer reaches exchange, repeated ones as a list', async () => {
      const { server } = await setup((_q, res) => {
        res.setHeader('set-cookie', ['a=1', 'b=2']);
        res.setHeader('x-thing', 'yes');
        json(res, 200, { ok: true });
      });
      const d = new FetchDispatcher(globalFetch);
      dispatchers.push(d);
      const r = await exchange(d, { url: new URL(`${server.baseUrl}/x`), method: 'GET', headers: {}, payload: undefined, maxBytes: 1024, headersMs: 5000, bodyMs: 5000 });
      assert.equal(r.status, 200);
      assert.deepEqual(r.headers['set-cookie'], ['a=1', 'b=2']);
      assert.equal(r.headers['x-thing'], 'yes');
      assert.deepEqual(JSON.parse(r.body.toString('utf8')), { ok: true });
      assert.equal(r.size, r.body.length);
    });

    it('a list sent in many chunks is decoded while it arrives, and folded without being kept', async () => {
      const all = users(3000);
      const text = JSON.stringify({ totalCount: all.length, data: all });
      const { client } = await setup(async (_q, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        for (let i = 0; i < text.length; i += 7_000) {
          res.write(text.slice(i, i + 7_000));
          await new Promise((r) => setImmediate(r));
        }
        res.end();
      });
      const listed = await client.listOrganizationUsers('1001');
      assert.equal(listed.data.length, 3000);
      assert.equal(listed.data[2999].id, 'u2999');
      const rows = await client.readOrganizationUsers('1001');
      assert.equal(rows.totalCount, 3000);
      assert.equal(rows.rows.length, 3000);
      assert.equal(rows.rows[2999].id, 'u2999');
    });
  });

  describe('the size cap', () => {
    it('an answer over maxResponseBytes fails as too large and is not read to its end', async () => {
      let written = 0;
      let closed = false;
      const { client } = await setup(async (_q, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.on('close', () => (closed = true));
        res.write('{"totalCount": 1, "data": [');
        const chunk = `${JSON.stringify({ id: 'p', name: 'x'.repeat(1000), code: 'c' })},`;
        while (!closed && written < 50 * 1024 * 1024) {
          if (!res.write(chunk)) {
            await new Promise<void>((resolve) => {
              const done = () => {
                res.off('drain', done).off('close', done);
                resolve();
              };
              res.on('drain', done).on('close', done);
            });
          }
          written += chunk.length;
        }
        res.end();
      }, { maxResponseBytes: 64 * 1024 });
      const e = asServiceError(await rejection(() => client.listProjects()));
      assert.equal(e.reason, 'response-too-large');
      assert.equal(e.limitBytes, 64 * 1024);
      await until(() => closed, 'the server to see the connection closed');
      assert.ok(written < 50 * 1024 * 1024, `the client stopped reading (server wrote ${written} bytes)`);
    });
  });

  describe('cancelling and a slow answer', () => {
    it('an already aborted signal sends nothing', async () => {
      const { server, client } = await setup((_q, res) => json(res, 200, {}));
      const ac = new AbortController();
      ac.abort();
      const e = asServiceError(await rejection(() => client.updateWorkItems(['1'], {}, { signal: ac.signal })));
      assert.equal(e.kind, 'cancelled');
      assert.equal(e.sent, false);
      assert.equal(server.received.length, 0);
    });

    /** Starts a call, aborts it once the server has the request (and `ms` later), and returns the error. */
    async function abortedOnceReceived(server: TestServer, call: (signal: AbortSignal) => Promise<unknown>, ms = 0): Promise<ServiceError> {
      const ac = new AbortController();
      const pending = rejection(() => call(ac.signal));
      await until(() => server.received.length === 1, 'the server to receive the request');
      await new Promise((r) => setTimeout(r, ms));
      ac.abort();
      return asServiceError(await pending);
    }

    it('aborting while the server works → cancelled, of unknown outcome; the connection is closed', async () => {
      let closed = false;
      const { server, client } = await setup((req) => void req.socket.on('close', () => (closed = true)));
      const e = await abortedOnceReceived(server, (signal) => client.updateWorkItems(['1'], { setCompleted: true }, { signal }));
      expectFields(e, { kind: 'cancelled', sent: true, outcomeUnknown: true });
      await until(() => closed, 'fetch to close the connection');
    });

    it('aborting while the body streams in → cancelled', async () => {
      const { server, client } = await setup(stall);
      const e = await abortedOnceReceived(server, (signal) => client.listProcessCategories({}, { signal }), 30);
      assert.equal(e.kind, 'cancelled');
    });

    it('a slow answer whose chunks keep coming is not a body timeout', async () => {
      const { client } = await setup(async (_q, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const parts = ['{"totalCount": 0,', ' "data"', ': [', ']}'];
        for (const p of parts) {
          res.write(p);
          await new Promise((r) => setTimeout(r, 150));
        }
        res.end();
      }, { timeouts: { bodyMs: 400 } });
      assert.equal((await client.listProcessCategories()).totalCount, 0);
    });
  });

  describe('timeouts and failures: sent or not sent', () => {
    const update = (c: ServiceClient) => c.updateWorkItems(['1'], { setCompleted: true });
    const failures: Failure[] = [
      {
        name: 'headers timeout (server accepts, never answers) → timeout, outcome unknown',
        handler: () => undefined,
        opts: { timeouts: { headersMs: 300 } },
        call: update,
        expect: { kind: 'timeout', code: 'UND_ERR_HEADERS_TIMEOUT', reason: 'headers-timeout', sent: true, outcomeUnknown: true },
        received: 1,
      },
      {
        name: 'body timeout (server stalls in the middle of the body) → timeout',
        handler: stall,
        opts: { timeouts: { bodyMs: 300 } },
        call: (c) => c.listProcessCategories(),
        expect: { kind: 'timeout', code: 'UND_ERR_BODY_TIMEOUT', reason: 'body-timeout' },
      },
      {
        name: 'server closes the connection after reading an update → network, outcome unknown, not retried',
        handler: (req) => void req.socket.destroy(),
        call: update,
        expect: { kind: 'network', sent: true, outcomeUnknown: true, safeToRetry: false },
        received: 1,
      },
    ];
    for (const f of failures) {
      it(f.name, async () => {
        const { server, client } = await setup(f.handler, f.opts);
        expectFields(asServiceError(await rejection(() => f.call(client))), f.expect);
        if (f.received !== undefined) assert.equal(server.received.length, f.received);
      });
    }

    it('connection refused → connect, not sent, safe to retry', async () => {
      const c = client(`http://127.0.0.1:${await closedPort()}/api`);
      const e = asServiceError(await rejection(() => update(c)));
      expectFields(e, { kind: 'connect', code: 'ECONNREFUSED', reason: 'connection-refused', sent: false, safeToRetry: true, outcomeUnknown: false });
    });

    it('https to a plain-http server (the TLS handshake fails) → connect, tls-protocol, not sent', async () => {
      const { server } = await setup((_q, res) => json(res, 200, {}));
      const c = client(`https://127.0.0.1:${server.port}/site/api`);
      expectFields(asServiceError(await rejection(() => update(c))), { kind: 'connect', reason: 'tls-protocol', sent: false });
      assert.equal(server.received.length, 0);
    });

    it('a port fetch refuses to use (the fetch standard\'s bad ports) → not sent', async () => {
      const c = client('http://127.0.0.1:10080/api');
      expectFields(asServiceError(await rejection(() => update(c))), { kind: 'connect', sent: false, outcomeUnknown: false });
    });

    it('a GET whose connection is closed is retried once', async () => {
      let n = 0;
      const { server, client } = await setup((req, res) => (++n === 1 ? void req.socket.destroy() : json(res, 200, { totalCount: 0, data: [] })));
      assert.equal((await client.listProcessCategories()).totalCount, 0);
      assert.equal(server.received.length, 2);
    });

    it('a TLS handshake that never completes → timeout of unknown outcome, never "not sent"', async () => {
      // fetch does not say whether the handshake or the answer timed out: the request may have left.
      const silent = await silentTcpServer();
      try {
        const c = client(`https://127.0.0.1:${silent.port}/api`, { timeouts: { headersMs: 400 } });
        const e = asServiceError(await rejection(() => c.updateWorkItems(['1'], {})));
        assert.equal(e.kind, 'timeout');
        assert.equal(e.sent, true);
      } finally {
        await silent.close();
      }
    });

    it('a self-signed server certificate → connect, tls-self-signed, not sent', async function () {
      if (!opensslAvailable()) this.skip();
      const pki = makePki();
      const tls = await startTlsServer(pki.selfSignedKey, pki.selfSignedCert, { totalCount: 0, data: [] });
      try {
        const c = client(`https://localhost:${tls.port}/api`);
        const e = asServiceError(await rejection(() => c.updateWorkItems(['1'], {})));
        assert.equal(e.kind, 'connect');
        assert.equal(e.reason, 'tls-self-signed');
        assert.equal(e.sent, false);
        assert.equal(tls.hits(), 0);
      } finally {
        await tls.close();
        pki.cleanup();
      }
    });

    it('a refused request is never handed to fetch when the dispatcher is closed', async () => {
      let calls = 0;
      const d = new FetchDispatcher(async (url, init) => {
        calls++;
        return fetch(url, init);
      });
      await d.close();
      const c = new ServiceClient({ baseUrl: 'http://127.0.0.1:9/api', dispatcher: d });
      clients.push(c);
      const e = asServiceError(await rejection(() => c.updateWorkItems(['1'], {})));
      assert.equal(e.sent, false);
      assert.equal(calls, 0);
    });

    it('which errors prove that nothing left', () => {
      const sys = (code: string, syscall?: string) => new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code, syscall }) });
      assert.equal(provesNotSent(sys('ECONNREFUSED', 'connect')), true);
      assert.equal(provesNotSent(new TypeError('fetch failed', { cause: new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]) })), true);
      assert.equal(provesNotSent(sys('ENOTFOUND', 'getaddrinfo')), true);
      assert.equal(provesNotSent(sys('EAI_AGAIN', 'getaddrinfo')), true);
      assert.equal(provesNotSent(sys('ETIMEDOUT', 'connect')), true);
      assert.equal(provesNotSent(sys('UNABLE_TO_VERIFY_LEAF_SIGNATURE')), true);
      assert.equal(provesNotSent(sys('ERR_TLS_CERT_ALTNAME_INVALID')), true);
      assert.equal(provesNotSent(sys('ERR_SSL_WRONG_VERSION_NUMBER')), true);
      assert.equal(provesNotSent(sys('UND_ERR_CONNECT_TIMEOUT')), true);
      assert.equal(provesNotSent(new TypeError('fetch failed', { cause: new Error('Proxy response (407) ?.== 200 when HTTP Tunneling') })), true);
      assert.equal(provesNotSent(new TypeError('fetch failed', { cause: new Error('Proxy response (502) !== 200 when HTTP Tunneling') })), true);
      // fetch refuses some ports outright (the fetch standard's list of bad ports).
      assert.equal(provesNotSent(new TypeError('fetch failed', { cause: new Error('bad port') })), true);
      // Anything that can come after the request was written may have reached the service.
      assert.equal(provesNotSent(sys('ECONNRESET', 'read')), false);
      assert.equal(provesNotSent(sys('ETIMEDOUT', 'read')), false);
      assert.equal(provesNotSent(sys('UND_ERR_SOCKET')), false);
      assert.equal(provesNotSent(new TypeError('fetch failed')), false);
      assert.equal(provesNotSent(new Error('something else')), false);
    });
  });

  describe('through a proxy (undici fetch with a ProxyAgent, as VS Code sends it)', () => {
    function viaProxy(proxyUrl: string): { fetchFn: FetchFunction; agent: ProxyAgent } {
      const agent = new ProxyAgent({ uri: proxyUrl });
      return { agent, fetchFn: (url, init) => undiciFetch(url, { ...init, dispatcher: agent }) as unknown as ReturnType<FetchFunction> };
    }

    it('reaches a host only the proxy knows, through a tunnel', async () => {
      const { server } = await setup((_q, res) => json(res, 200, { totalCount: 0, data: [] }));
      const proxy = await startProxy();
      const { agent, fetchFn } = viaProxy(proxy.url);
      try {
        const c = client(`http://service.test:${server.port}/site/api`, {}, fetchFn);
        assert.equal((await c.listProcessCategories()).totalCount, 0);
        assert.deepEqual(proxy.connects, [`service.test:${server.port}`]);
      } finally {
        await agent.close();
        await proxy.close();
      }
    });

    it('a proxy that wants sign-in (407 to CONNECT) → connect, proxy-auth-required, not sent', async () => {
      const { server } = await setup((_q, res) => json(res, 200, {}));
      const proxy = await startProxy({ credentials: { user: 'u', pass: 'p' } });
      const { agent, fetchFn } = viaProxy(proxy.url);
      try {
        const c = client(`http://service.test:${server.port}/site/api`, {}, fetchFn);
        const e = asServiceError(await rejection(() => c.updateWorkItems(['1'], { setCompleted: true })));
        assert.equal(e.kind, 'connect');
        assert.equal(e.reason, 'proxy-auth-required');
        assert.equal(e.sent, false);
        assert.equal(server.received.length, 0);
      } finally {
        await agent.close();
        await proxy.close();
      }
    });

    it('a proxy that is not there is named, when the dispatcher knows the proxy', async () => {
      const port = await closedPort();
      const { agent, fetchFn } = viaProxy(`http://127.0.0.1:${port}`);
      try {
        const d = new FetchDispatcher(fetchFn, { proxies: [{ host: '127.0.0.1', port }] });
        dispatchers.push(d);
        const logger = capturingLogger();
        const c = new ServiceClient({ baseUrl: 'http://service.test:8080/api', dispatcher: d, logger });
        clients.push(c);
        const e = asServiceError(await rejection(() => c.updateWorkItems(['1'], {})));
        assert.equal(e.kind, 'connect');
        assert.equal(e.reason, 'proxy-unreachable');
        assert.equal(e.sent, false);
      } finally {
        await agent.close();
      }
    });
  });

  describe('closing', () => {
    it('close waits for the request under way; destroy stops it', async () => {
      let release: (() => void) | undefined;
      const { server } = await setup((_q, res) => {
        release = () => json(res, 200, { totalCount: 0, data: [] });
      });
      const d = new FetchDispatcher(globalFetch);
      const c = new ServiceClient({ baseUrl: server.baseUrl, dispatcher: d });
      clients.push(c);
      const first = c.listProcessCategories();
      await until(() => release !== undefined, 'the request');
      let closed = false;
      const closing = d.close().then(() => (closed = true));
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(closed, false);
      release!();
      assert.equal((await first).totalCount, 0);
      await closing;

      const d2 = new FetchDispatcher(globalFetch);
      const c2 = new ServiceClient({ baseUrl: server.baseUrl, dispatcher: d2 });
      clients.push(c2);
      release = undefined;
      const second = rejection(() => c2.updateWorkItems(['1'], {}));
      await until(() => release !== undefined, 'the request');
      await d2.destroy();
      const e = asServiceError(await second);
      assert.equal(e.sent, true, 'stopped after it was handed over: of unknown outcome');
    });
  });
});

describe('api network: the proxy settings as the fetch dispatcher and the messages see them', () => {
  it('the proxies VS Code may use are known from http.proxy, else the environment, credentials dropped', () => {
    assert.deepEqual(proxyEndpointsFor('http://u:secretpw@proxy.corp:3128', { HTTPS_PROXY: 'http://env:1' }), [
      { host: 'proxy.corp', port: 3128 },
      { host: 'proxy.corp', port: 3128 },
    ]);
    assert.deepEqual(proxyEndpointsFor(undefined, { HTTPS_PROXY: 'https://env.corp' }), [{ host: 'env.corp', port: 443 }]);
    assert.deepEqual(proxyEndpointsFor(undefined, {}), []);
    assert.deepEqual(proxyEndpointsFor('socks5://x:1', {}), [], 'an unusable one names none (VS Code reports it itself)');
  });

  it('a bad proxy URL names the setting it came from, without its password', () => {
    assert.throws(
      () => resolveProxies({ proxyUrl: 'socks5://u:secretpw@h:1080', proxySetting: 'workItemStudio.network.proxy' }, {}),
      (e: unknown) => e instanceof NetworkConfigError && e.origin.setting === 'workItemStudio.network.proxy' && e.message.includes('workItemStudio.network.proxy') && !e.message.includes('secretpw'),
    );
    assert.throws(
      () => resolveProxies({ proxyUrl: 'http://[bad' }, {}),
      (e: unknown) => e instanceof NetworkConfigError && e.origin.setting === undefined && e.origin.variable === undefined,
    );
  });
});
