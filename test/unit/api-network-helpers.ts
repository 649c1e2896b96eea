// Test helpers for corporate-network tests: a forwarding proxy on loopback and a
// private certificate authority made with the openssl CLI in a temp directory.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';

export interface TestProxy {
  url: string;
  port: number;
  /** CONNECT tunnels opened, by authority (`host:port`). */
  connects: string[];
  /** Plain-http requests forwarded (absolute URLs). */
  forwards: string[];
  /** Proxy-Authorization headers seen. */
  authorizations: (string | undefined)[];
  close(): Promise<void>;
}

export interface ProxyOptions {
  /** Require `Proxy-Authorization: Basic base64(user:pass)`; answer 407 otherwise. */
  credentials?: { user: string; pass: string };
  /** Answer CONNECT with this status instead of tunnelling. */
  refuseConnectWith?: number;
}

/**
 * A forwarding proxy: CONNECT tunnels and absolute-form requests. Every target
 * host name is sent to 127.0.0.1 (only the port is taken), so a test can address
 * the service by a name such as `service.test` that only the proxy can reach.
 */
export async function startProxy(opts: ProxyOptions = {}): Promise<TestProxy> {
  const connects: string[] = [];
  const forwards: string[] = [];
  const authorizations: (string | undefined)[] = [];
  const sockets = new Set<net.Socket>();
  const expected = opts.credentials ? `Basic ${Buffer.from(`${opts.credentials.user}:${opts.credentials.pass}`).toString('base64')}` : undefined;
  const authorized = (h: string | undefined) => expected === undefined || h === expected;

  const server = http.createServer((req, res) => {
    const auth = req.headers['proxy-authorization'];
    authorizations.push(auth);
    forwards.push(req.url ?? '');
    if (!authorized(auth)) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"', 'content-type': 'text/plain' });
      res.end('Proxy Authentication Required');
      return;
    }
    const target = new URL(req.url ?? '/');
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = http.request(
      { host: '127.0.0.1', port: Number(target.port) || 80, method: req.method, path: `${target.pathname}${target.search}`, headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => {
      res.writeHead(502);
      res.end('Bad Gateway');
    });
    req.pipe(upstream);
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    sockets.add(client);
    client.on('error', () => undefined);
    client.on('close', () => sockets.delete(client));
    const auth = req.headers['proxy-authorization'];
    authorizations.push(auth);
    connects.push(req.url ?? '');
    if (!authorized(auth)) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    if (opts.refuseConnectWith) {
      client.end(`HTTP/1.1 ${opts.refuseConnectWith} Refused\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    const port = Number((req.url ?? '').split(':').pop());
    const upstream = net.connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
  });
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    connects,
    forwards,
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface TestPki {
  dir: string;
  caPem: string;
  /** Leaf signed by the CA, for DNS:localhost and DNS:service.test (not for 127.0.0.1). */
  serverKey: string;
  serverCert: string;
  /** A self-signed leaf for DNS:localhost. */
  selfSignedKey: string;
  selfSignedCert: string;
  cleanup(): void;
}

export function opensslAvailable(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A private CA and two server certificates, made with openssl in a temp directory. */
export function makePki(): TestPki {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wis-pki-'));
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  run('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '3', '-subj', '/CN=Work Item Studio Test CA', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  run('req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost');
  fs.writeFileSync(
    path.join(dir, 'server.ext'),
    'subjectAltName=DNS:localhost,DNS:service.test\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n',
  );
  run('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '3', '-extfile', 'server.ext');
  run('req', '-x509', ...ec, '-keyout', 'self.key', '-out', 'self.pem', '-days', '3', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost');
  const read = (f: string) => fs.readFileSync(path.join(dir, f), 'utf8');
  return {
    dir,
    caPem: read('ca.pem'),
    serverKey: read('server.key'),
    serverCert: read('server.pem'),
    selfSignedKey: read('self.key'),
    selfSignedCert: read('self.pem'),
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** An https server on 127.0.0.1 port 0 answering every request with `body` as JSON. */
export async function startTlsServer(key: string, cert: string, body: unknown): Promise<{ port: number; hits: () => number; close(): Promise<void> }> {
  let hits = 0;
  const sockets = new Set<net.Socket>();
  const server = https.createServer({ key, cert }, (_req, res) => {
    hits++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits: () => hits,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
