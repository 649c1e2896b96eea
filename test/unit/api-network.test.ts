import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { X509Certificate } from 'node:crypto';
import { ServiceClient } from '../../src/api/client';
import {
  bypassesProxy,
  certificateAuthorities,
  createDispatcher,
  describeRoute,
  dispatcherInfo,
  isLoopbackHost,
  isPlainHttpNonLoopback,
  loadCaFile,
  NetworkConfigError,
  noProxyEntries,
  redactUrl,
  resolveProxies,
  systemCertificatesSupported,
  toPemList,
} from '../../src/api/dispatcher';
import { ServiceError, isServiceError } from '../../src/api/errors';
import { capturingLogger, closedPort, json, rejection, startServer, stringifyDeep, type TestServer } from './api-helpers';
import { makePki, opensslAvailable, startProxy, startTlsServer, type TestPki, type TestProxy } from './api-network-helpers';

const LIST = { totalCount: 0, data: [] };

function asServiceError(e: unknown): ServiceError {
  assert.ok(isServiceError(e), `expected a ServiceError, got ${stringifyDeep(e)}`);
  return e;
}

describe('api network: proxy resolution (pure)', () => {
  it('the explicit setting wins over the environment, for both schemes', () => {
    const r = resolveProxies({ proxyUrl: 'http://p.corp:8080' }, { HTTPS_PROXY: 'http://env:1' });
    assert.equal(r.source, 'setting');
    assert.equal(r.http?.host, 'p.corp:8080');
    assert.equal(r.https?.host, 'p.corp:8080');
  });

  it('reads lower-case variables before upper-case ones, https falling back to http', () => {
    const r = resolveProxies({}, { https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:2', HTTP_PROXY: 'http://plain:3' });
    assert.equal(r.https?.host, 'lower:1');
    assert.equal(r.http?.host, 'plain:3');
    const r2 = resolveProxies({}, { HTTP_PROXY: 'plain:3' });
    assert.equal(r2.https?.href, 'http://plain:3/');
    assert.equal(resolveProxies({}, {}).source, 'none');
    assert.equal(resolveProxies({ proxyUrl: '  ' }, {}).source, 'none');
  });

  it('refuses unsupported or broken proxy URLs without echoing credentials', () => {
    assert.throws(() => resolveProxies({ proxyUrl: 'socks5://u:secretpw@h:1080' }, {}), (e: unknown) => e instanceof NetworkConfigError && e.code === 'PROXY_PROTOCOL_UNSUPPORTED' && !e.message.includes('secretpw'));
    assert.throws(() => resolveProxies({}, { HTTPS_PROXY: 'http://u:secretpw@[bad' }), (e: unknown) => e instanceof NetworkConfigError && e.code === 'PROXY_URL_INVALID' && /HTTPS_PROXY/.test(e.message) && !e.message.includes('secretpw'));
  });

  it('redacts credentials for logs', () => {
    assert.equal(redactUrl(new URL('http://user:p%40ss@proxy:8080')), 'http://***@proxy:8080');
    assert.equal(redactUrl(new URL('http://proxy:8080')), 'http://proxy:8080');
  });

  it('merges the setting and NO_PROXY', () => {
    assert.deepEqual(noProxyEntries('a.corp, .b.corp', { no_proxy: 'C.corp 10.0.0.0/8' }), ['a.corp', '.b.corp', 'c.corp', '10.0.0.0/8']);
  });

  const bypass: [string, number, string[], boolean][] = [
    ['pm.corp', 443, [], false],
    ['pm.corp', 443, ['pm.corp'], true],
    ['a.pm.corp', 443, ['pm.corp'], true],
    ['xpm.corp', 443, ['pm.corp'], false],
    ['a.pm.corp', 443, ['.pm.corp'], true],
    ['a.pm.corp', 443, ['*.pm.corp'], true],
    ['pm.corp', 443, ['pm.corp:8443'], false],
    ['pm.corp', 8443, ['pm.corp:8443'], true],
    ['10.1.2.3', 80, ['10.0.0.0/8'], true],
    ['11.1.2.3', 80, ['10.0.0.0/8'], false],
    ['fe80::1', 80, ['[fe80::1]'], true],
    ['fe80::1', 80, ['fe80::1'], true],
    ['anything', 1, ['*'], true],
    ['localhost', 80, [], true],
    ['127.0.0.1', 80, [], true],
    ['127.9.9.9', 80, [], true],
    ['::1', 80, [], true],
    ['sandbox.localhost', 80, [], true],
  ];
  for (const [host, port, entries, expected] of bypass) {
    it(`${host}:${port} with NO_PROXY=${entries.join(',') || '(none)'} → ${expected ? 'direct' : 'proxy'}`, () => {
      assert.equal(bypassesProxy(host, port, entries), expected);
    });
  }

  it('isPlainHttpNonLoopback: warns for http to a network host only', () => {
    assert.equal(isPlainHttpNonLoopback('http://pm.corp/api'), true);
    assert.equal(isPlainHttpNonLoopback('http://10.0.0.5:8080/api'), true);
    assert.equal(isPlainHttpNonLoopback('https://pm.corp/api'), false);
    assert.equal(isPlainHttpNonLoopback('http://127.0.0.1:3000/api'), false);
    assert.equal(isPlainHttpNonLoopback('http://localhost:3000/api'), false);
    assert.equal(isPlainHttpNonLoopback('http://[::1]:3000/api'), false);
    assert.equal(isPlainHttpNonLoopback('not a url'), false);
    assert.equal(isLoopbackHost('[::1]'), true);
    assert.equal(isLoopbackHost('128.0.0.1'), false);
  });
});

describe('api network: certificates (pure)', () => {
  it('keeps Node defaults when nothing is added', () => {
    const r = certificateAuthorities([], false);
    assert.equal(r.ca, undefined);
    assert.equal(r.systemCertificates, 'off');
  });

  it('reports whether system certificates could be added (feature-detected)', () => {
    const r = certificateAuthorities([], true);
    assert.equal(r.systemCertificates, systemCertificatesSupported() ? 'added' : 'unavailable');
  });

  it('refuses text that holds no certificate, naming it', () => {
    assert.throws(() => toPemList('hello', 'CA certificate #1'), (e: unknown) => e instanceof NetworkConfigError && e.code === 'CA_INVALID' && /CA certificate #1 holds no certificate/.test(e.message));
    assert.throws(() => toPemList('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----', 'x'), /not a valid PEM certificate/);
  });

  it('reports an unreadable CA file with its path and the system code', async () => {
    const e = await rejection(() => loadCaFile('/nonexistent/ca.pem'));
    assert.ok(e instanceof NetworkConfigError);
    assert.equal(e.code, 'CA_FILE_UNREADABLE');
    assert.match(e.message, /\/nonexistent\/ca\.pem cannot be read \(ENOENT\)/);
  });
});

describe('api network: real proxy and private CA on loopback', function () {
  let pki: TestPki | undefined;
  const cleanups: (() => Promise<void> | void)[] = [];

  before(function () {
    if (!opensslAvailable()) {
      // The Debian image has openssl; say so clearly if a machine lacks it.
      this.skip();
    }
    pki = makePki();
  });
  after(() => pki?.cleanup());
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  function track<T extends { close(): Promise<void> }>(x: T): T {
    cleanups.push(() => x.close());
    return x;
  }
  function client(baseUrl: string, dispatcher = createDispatcher({ useSystemCertificates: false }), extra: { logger?: ReturnType<typeof capturingLogger> } = {}): ServiceClient {
    cleanups.push(() => dispatcher.close());
    const c = new ServiceClient({ baseUrl, dispatcher, logger: extra.logger });
    cleanups.push(() => c.close());
    return c;
  }

  describe('TLS with a private CA', () => {
    it('the CA file is read and parsed (PEM and DER)', async () => {
      const pem = await loadCaFile(path.join(pki!.dir, 'ca.pem'));
      assert.equal(pem.length, 1);
      const der = new X509Certificate(pki!.caPem).raw;
      fs.writeFileSync(path.join(pki!.dir, 'ca.der'), der);
      assert.deepEqual(await loadCaFile(path.join(pki!.dir, 'ca.der')), pem);
    });

    it('succeeds with the CA given', async () => {
      const srv = track(await startTlsServer(pki!.serverKey, pki!.serverCert, LIST));
      const d = createDispatcher({ caCertificates: [pki!.caPem], useSystemCertificates: false });
      const r = await client(`https://localhost:${srv.port}/api`, d).listProcessCategories();
      assert.equal(r.totalCount, 0);
      assert.equal(dispatcherInfo(d)?.extraCertificates, 1);
    });

    it('fails without the CA, naming an unknown certificate authority', async () => {
      const srv = track(await startTlsServer(pki!.serverKey, pki!.serverCert, LIST));
      const e = asServiceError(await rejection(() => client(`https://localhost:${srv.port}/api`).listProcessCategories()));
      assert.equal(e.kind, 'connect');
      assert.equal(e.reason, 'tls-unknown-ca');
      assert.equal(e.code, 'UNABLE_TO_VERIFY_LEAF_SIGNATURE');
      assert.equal(e.safeToRetry, true);
      assert.match(e.message, /issued by an unknown certificate authority/);
      assert.equal(srv.hits(), 0);
    });

    it('fails for a self-signed certificate, saying so', async () => {
      const srv = track(await startTlsServer(pki!.selfSignedKey, pki!.selfSignedCert, LIST));
      const e = asServiceError(await rejection(() => client(`https://localhost:${srv.port}/api`).listProcessCategories()));
      assert.equal(e.reason, 'tls-self-signed');
      assert.equal(e.code, 'DEPTH_ZERO_SELF_SIGNED_CERT');
      assert.match(e.message, /self-signed/);
    });

    it('fails when the certificate does not match the host name', async () => {
      const srv = track(await startTlsServer(pki!.serverKey, pki!.serverCert, LIST));
      const d = createDispatcher({ caCertificates: [pki!.caPem], useSystemCertificates: false });
      const e = asServiceError(await rejection(() => client(`https://127.0.0.1:${srv.port}/api`, d).listProcessCategories()));
      assert.equal(e.reason, 'tls-hostname-mismatch');
      assert.equal(e.code, 'ERR_TLS_CERT_ALTNAME_INVALID');
      assert.match(e.message, /does not match the host name/);
    });

    it('https to a plain-http port fails with a TLS protocol cause', async () => {
      const plain = track(await startServer((_q, res) => json(res, 200, LIST)));
      const e = asServiceError(await rejection(() => client(`https://localhost:${plain.port}/site/api`).listProcessCategories()));
      assert.equal(e.kind, 'connect');
      assert.equal(e.reason, 'tls-protocol');
    });

    it('strictSSL false accepts an untrusted certificate', async () => {
      const srv = track(await startTlsServer(pki!.selfSignedKey, pki!.selfSignedCert, LIST));
      const d = createDispatcher({ strictSSL: false, useSystemCertificates: false });
      assert.equal((await client(`https://localhost:${srv.port}/api`, d).listProcessCategories()).totalCount, 0);
      assert.equal(dispatcherInfo(d)?.strictSSL, false);
    });
  });

  describe('forwarding proxy', () => {
    let service: TestServer;
    beforeEach(async () => {
      service = track(await startServer((_q, res) => json(res, 200, LIST)));
    });

    it('sends plain-http requests through the proxy (the service name is only reachable through it)', async () => {
      const proxy = track(await startProxy());
      const d = createDispatcher({ proxyUrl: proxy.url });
      await client(`http://service.test:${service.port}/site/api`, d).listProcessCategories();
      assert.deepEqual(proxy.forwards, [`http://service.test:${service.port}/site/api/system/processCategories`]);
      assert.equal(service.received.length, 1);
      assert.equal(dispatcherInfo(d)?.proxySource, 'setting');
    });

    it('tunnels https through CONNECT and verifies the service with the private CA', async () => {
      const srv = track(await startTlsServer(pki!.serverKey, pki!.serverCert, LIST));
      const proxy = track(await startProxy());
      const d = createDispatcher({ env: { HTTPS_PROXY: proxy.url }, caCertificates: [pki!.caPem], useSystemCertificates: false });
      assert.equal((await client(`https://service.test:${srv.port}/api`, d).listProcessCategories()).totalCount, 0);
      assert.deepEqual(proxy.connects, [`service.test:${srv.port}`]);
      assert.equal(srv.hits(), 1);
      assert.equal(dispatcherInfo(d)?.proxySource, 'environment');
    });

    it('through the tunnel, a missing CA still fails with the TLS cause', async () => {
      const srv = track(await startTlsServer(pki!.serverKey, pki!.serverCert, LIST));
      const proxy = track(await startProxy());
      const d = createDispatcher({ env: { HTTPS_PROXY: proxy.url }, useSystemCertificates: false });
      const e = asServiceError(await rejection(() => client(`https://service.test:${srv.port}/api`, d).listProcessCategories()));
      assert.equal(e.reason, 'tls-unknown-ca');
      assert.equal(proxy.connects.length, 1);
    });

    it('sends the proxy credentials from the proxy URL, and never logs them', async () => {
      const srv = track(await startTlsServer(pki!.serverKey, pki!.serverCert, LIST));
      const proxy = track(await startProxy({ credentials: { user: 'corp\\alice', pass: 'Pr0xy:Secret!' } }));
      const proxyUrl = proxy.url.replace('://', `://${encodeURIComponent('corp\\alice')}:${encodeURIComponent('Pr0xy:Secret!')}@`);
      const log = capturingLogger();
      const d = createDispatcher({ proxyUrl, caCertificates: [pki!.caPem], useSystemCertificates: false });
      await client(`https://service.test:${srv.port}/api`, d, { logger: log }).listProcessCategories();
      assert.equal(proxy.authorizations[0], `Basic ${Buffer.from('corp\\alice:Pr0xy:Secret!').toString('base64')}`);
      const info = JSON.stringify(dispatcherInfo(d));
      assert.ok(!info.includes('Secret') && !log.text().includes('Secret'), info + log.text());
      assert.match(info, /http:\/\/\*\*\*@127\.0\.0\.1/);
    });

    it('407 at CONNECT → connect error naming proxy authentication, without the password', async () => {
      const srv = track(await startTlsServer(pki!.serverKey, pki!.serverCert, LIST));
      const proxy = track(await startProxy({ credentials: { user: 'alice', pass: 'right-one' } }));
      const d = createDispatcher({ proxyUrl: proxy.url.replace('://', '://alice:wrong-one@'), caCertificates: [pki!.caPem], useSystemCertificates: false });
      const e = asServiceError(await rejection(() => client(`https://service.test:${srv.port}/api`, d).updateWorkItems(['1'], {})));
      assert.equal(e.kind, 'connect');
      assert.equal(e.reason, 'proxy-auth-required');
      assert.equal(e.sent, false);
      assert.equal(e.outcomeUnknown, false);
      assert.match(e.message, /the proxy requires authentication \(407\)/);
      assert.ok(!stringifyDeep(e).includes('wrong-one'));
      assert.equal(srv.hits(), 0);
    });

    it('407 for a plain-http request → connect error naming proxy authentication', async () => {
      const proxy = track(await startProxy({ credentials: { user: 'alice', pass: 'right-one' } }));
      const d = createDispatcher({ proxyUrl: proxy.url });
      const e = asServiceError(await rejection(() => client(`http://service.test:${service.port}/site/api`, d).listProcessCategories()));
      assert.equal(e.kind, 'connect');
      assert.equal(e.reason, 'proxy-auth-required');
      assert.equal(e.outcomeUnknown, false);
      assert.equal(proxy.forwards.length, 1); // not retried: a 407 is no network failure
      assert.equal(service.received.length, 0);
    });

    it('a proxy that refuses the tunnel → connect error naming the proxy', async () => {
      const proxy = track(await startProxy({ refuseConnectWith: 403 }));
      const d = createDispatcher({ proxyUrl: proxy.url, useSystemCertificates: false });
      const e = asServiceError(await rejection(() => client(`https://service.test:443/api`, d).listProcessCategories()));
      assert.equal(e.kind, 'connect');
      assert.equal(e.reason, 'proxy-refused');
      assert.match(e.message, /the proxy refused to connect to the service/);
    });

    it('a proxy that cannot be reached → connect error naming the proxy', async () => {
      const port = await closedPort();
      const d = createDispatcher({ proxyUrl: `http://127.0.0.1:${port}` });
      const e = asServiceError(await rejection(() => client(`http://service.test:${service.port}/site/api`, d).listProcessCategories()));
      assert.equal(e.kind, 'connect');
      assert.equal(e.code, 'ECONNREFUSED');
      assert.equal(e.reason, 'proxy-unreachable');
      assert.match(e.message, /the proxy could not be reached/);
    });

    it('loopback services bypass the proxy (the sandbox never goes through it)', async () => {
      const proxy = track(await startProxy());
      const d = createDispatcher({ proxyUrl: proxy.url });
      await client(service.baseUrl, d).listProcessCategories();
      assert.equal(service.received.length, 1);
      assert.equal(proxy.forwards.length + proxy.connects.length, 0);
    });

    it('NO_PROXY and http.noProxy entries bypass the proxy (route only: no traffic leaves loopback)', async () => {
      const proxy: TestProxy = track(await startProxy());
      const d = createDispatcher({ env: { HTTP_PROXY: proxy.url, NO_PROXY: 'service.test' }, noProxy: '.corp.example' });
      cleanups.push(() => d.close());
      assert.deepEqual(describeRoute(d, 'http://service.test:8080/api'), { via: 'direct' });
      assert.deepEqual(describeRoute(d, 'https://pm.corp.example/api'), { via: 'direct' });
      assert.deepEqual(describeRoute(d, 'http://127.0.0.1:3000/api'), { via: 'direct' });
      assert.deepEqual(describeRoute(d, 'http://other.test/api'), { via: 'proxy', proxy: proxy.url });
      assert.deepEqual(describeRoute(d, 'https://other.test/api'), { via: 'proxy', proxy: proxy.url });
      assert.deepEqual(describeRoute(createDispatcher({ env: {} }), 'https://other.test/api'), { via: 'direct' });
    });
  });
});
