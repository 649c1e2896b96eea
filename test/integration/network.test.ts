// Which network the service client uses inside a real extension host: by default VS Code's
// (the extension host's patched global fetch, here with VS Code's `http.proxy`), and the
// extension's own dispatcher once `workItemStudio.network.proxy` is set. The service is
// addressed by a host name only the test proxies resolve (they send everything to
// 127.0.0.1), so a request that bypasses the proxy fails instead of passing unseen.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import * as fs from 'node:fs/promises';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as tls from 'node:tls';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';
import { ConnectionManager, type SignInPrompts } from '../../src/common/connection';
import type { SecretStorageLike } from '../../src/common/secrets';
import { networkDispatcher } from '../../src/connection/network';
import { describeError } from '../../src/common/messages';
import { OrgNode } from '../../src/organizations/nodes';
import { OrganizationsTree } from '../../src/organizations/tree';
import { MessageNode } from '../../src/views/common';
import { activateExtension, waitFor } from './support';

const HOST = 'wis-sandbox.test';

function memorySecrets(): SecretStorageLike {
  const data = new Map<string, string>();
  return { get: async (k) => data.get(k), store: async (k, v) => void data.set(k, v), delete: async (k) => void data.delete(k) };
}

function signInPrompts(): SignInPrompts {
  return {
    pickMethod: async () => 'token',
    askLoginName: async () => 'admin',
    askPassword: async () => 'password',
    askToken: async () => undefined,
    askApiKey: async () => undefined,
  };
}

interface RecordingProxy {
  url: string;
  port: number;
  /** `METHOD path` of every request carried, tunnelled (CONNECT) or forwarded (absolute form). */
  requests: string[];
  /** `CONNECT host:port` and `FORWARD host:port` of every tunnel and absolute-form request. */
  routes: string[];
  proxyAuthorizations: (string | undefined)[];
  close(): Promise<void>;
}

/**
 * An HTTP proxy on loopback: absolute-form requests and CONNECT tunnels, whose HTTP requests it
 * reads and records too. Every target goes to 127.0.0.1 at the target's port.
 */
async function recordingProxy(): Promise<RecordingProxy> {
  const requests: string[] = [];
  const routes: string[] = [];
  const proxyAuthorizations: (string | undefined)[] = [];
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
  };
  const forward = (req: http.IncomingMessage, res: http.ServerResponse, port: number, path: string) => {
    requests.push(`${req.method} ${path}`);
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const up = http.request({ host: '127.0.0.1', port, method: req.method, path, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    up.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(up);
  };
  // The HTTP inside a tunnel: each request goes to the tunnel's port.
  const tunnelled = http.createServer((req, res) => {
    const port = (req.socket as net.Socket & { wisPort?: number }).wisPort ?? 0;
    forward(req, res, port, req.url ?? '/');
  });
  const server = http.createServer((req, res) => {
    proxyAuthorizations.push(req.headers['proxy-authorization']);
    const target = new URL(req.url ?? '/');
    routes.push(`FORWARD ${target.host}`);
    forward(req, res, Number(target.port) || 80, `${target.pathname}${target.search}`);
  });
  server.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    track(socket);
    proxyAuthorizations.push(req.headers['proxy-authorization']);
    routes.push(`CONNECT ${req.url}`);
    const port = Number((req.url ?? '').split(':').pop());
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    (socket as net.Socket & { wisPort?: number }).wisPort = port;
    if (head.length > 0) socket.unshift(head);
    tunnelled.emit('connection', socket);
  });
  server.on('connection', track);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    routes,
    proxyAuthorizations,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        tunnelled.close();
        server.close(() => resolve());
      }),
  };
}

/** A log channel for the test that keeps every line (and shows them in its own output channel). */
function capturingLog(): { log: vscode.LogOutputChannel; lines: string[] } {
  const channel = vscode.window.createOutputChannel('Work Item Studio (network tests)', { log: true });
  const lines: string[] = [];
  const log = new Proxy(channel, {
    get: (target, key) => {
      if (key === 'info' || key === 'warn' || key === 'error') {
        return (m: string, ...rest: unknown[]) => {
          lines.push(m);
          (target[key] as (m: string, ...r: unknown[]) => void)(m, ...rest);
        };
      }
      const v: unknown = Reflect.get(target, key, target);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { log, lines };
}

async function setGlobal(section: string, key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration(section).update(key, value, vscode.ConfigurationTarget.Global);
  await waitFor(`${section}.${key} to be ${String(value)}`, () => vscode.workspace.getConfiguration(section).get(key) === (value ?? vscode.workspace.getConfiguration(section).inspect(key)?.defaultValue), 10_000);
}

/** The rows of a tree node once nothing is loading. */
async function settled(tree: OrganizationsTree, node?: OrgNode): Promise<unknown[]> {
  return waitFor('rows to finish loading', async () => {
    const rows: unknown[] = await tree.getChildren(node);
    return rows.some((r) => r instanceof MessageNode && r.kind === 'loading') ? undefined : rows;
  });
}

describe('network: VS Code\'s proxy support and the extension\'s override', function () {
  this.timeout(120_000);
  let sandbox: Sandbox;
  let vscodeProxy: RecordingProxy;
  let ownProxy: RecordingProxy;
  let serviceUrl: string;
  const saved: { section: string; key: string; value: unknown }[] = [];
  const disposables: { dispose(): void }[] = [];

  before(async () => {
    sandbox = await createSandbox({ port: 0 });
    vscodeProxy = await recordingProxy();
    ownProxy = await recordingProxy();
    serviceUrl = `http://${HOST}:${new URL(sandbox.url).port}/api`;
    for (const [section, key] of [
      ['http', 'proxy'],
      ['workItemStudio', 'network.proxy'],
      ['workItemStudio', 'network.caFile'],
    ] as const) {
      saved.push({ section, key, value: vscode.workspace.getConfiguration(section).inspect(key)?.globalValue });
    }
  });

  afterEach(() => {
    for (const d of disposables.splice(0)) d.dispose();
  });

  after(async () => {
    for (const s of saved) await vscode.workspace.getConfiguration(s.section).update(s.key, s.value, vscode.ConfigurationTarget.Global);
    await vscodeProxy?.close();
    await ownProxy?.close();
    await sandbox?.close();
  });

  function manager(log: vscode.LogOutputChannel): ConnectionManager {
    const c = new ConnectionManager({ secrets: memorySecrets(), log, prompts: signInPrompts(), serviceUrl: () => serviceUrl, dispatcher: () => networkDispatcher(log) });
    disposables.push(c);
    return c;
  }

  it('the extension host\'s global fetch is the one VS Code patched with its network support', () => {
    const g = globalThis as { __vscodeOriginalFetch?: unknown; __vscodePatchedFetch?: unknown };
    assert.equal(typeof globalThis.fetch, 'function');
    assert.ok(g.__vscodeOriginalFetch !== undefined, 'VS Code kept the original fetch aside, so it patched the global one');
    assert.notEqual(globalThis.fetch, g.__vscodeOriginalFetch);
  });

  it('by default the organizations view loads through VS Code\'s http.proxy, and the log says VS Code\'s network is used', async () => {
    await setGlobal('workItemStudio', 'network.proxy', undefined);
    await setGlobal('http', 'proxy', vscodeProxy.url);
    const { log, lines } = capturingLog();
    const connection = manager(log);
    const tree = new OrganizationsTree(connection, log, () => ['1001']);
    disposables.push(tree);
    const roots = await tree.getChildren();
    assert.equal(roots.length, 1);
    const rows = await settled(tree, roots[0] as OrgNode);
    assert.ok(rows.some((r) => r instanceof OrgNode), `the root's sub-organizations are listed: ${rows.length} rows`);
    assert.ok(vscodeProxy.routes.some((r) => r.endsWith(`${HOST}:${new URL(sandbox.url).port}`)), `VS Code's proxy carried the requests: ${vscodeProxy.routes.join(', ')}`);
    assert.ok(vscodeProxy.requests.some((r) => r.startsWith('POST /api/auth/token')), `the sign-in went through the proxy: ${vscodeProxy.requests.join(', ')}`);
    assert.ok(vscodeProxy.requests.some((r) => r.startsWith('GET /api/')), `the reads went through the proxy: ${vscodeProxy.requests.join(', ')}`);
    assert.deepEqual(ownProxy.requests, []);
    assert.ok(lines.some((l) => l.startsWith("Network: VS Code's")), lines.join('\n'));
  });

  it('workItemStudio.network.proxy sends the requests through that proxy instead, and the log holds no password', async () => {
    await setGlobal('http', 'proxy', vscodeProxy.url);
    await setGlobal('workItemStudio', 'network.proxy', `http://proxyuser:s3cret-pw@127.0.0.1:${ownProxy.port}`);
    const before = vscodeProxy.requests.length;
    const { log, lines } = capturingLog();
    const connection = manager(log);
    const r = await connection.run((client) => client.listProcessCategories({ limit: 1 }));
    assert.ok(r.totalCount > 0);
    assert.ok(ownProxy.requests.some((q) => q.startsWith('GET /api/') && q.includes('processCategories')), `the override proxy carried the read: ${ownProxy.requests.join(', ')}`);
    assert.ok(ownProxy.proxyAuthorizations.includes(`Basic ${Buffer.from('proxyuser:s3cret-pw').toString('base64')}`), 'the credentials of the URL went to that proxy');
    assert.equal(vscodeProxy.requests.length, before, 'VS Code\'s proxy carried nothing more');
    const network = lines.find((l) => l.startsWith('Network:')) ?? '';
    assert.match(network, /the extension's own \(workItemStudio\.network\.proxy set\)/);
    assert.ok(!lines.join('\n').includes('s3cret-pw'), lines.join('\n'));
  });

  it('workItemStudio.network.caFile alone also switches to the extension\'s own connection, which still honours http.proxy', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wis-network-'));
    const caFile = path.join(dir, 'corp-ca.pem');
    await fs.writeFile(caFile, tls.rootCertificates[0]);
    try {
      await setGlobal('workItemStudio', 'network.proxy', undefined);
      await setGlobal('workItemStudio', 'network.caFile', caFile);
      await setGlobal('http', 'proxy', vscodeProxy.url);
      const routes = vscodeProxy.routes.length;
      const { log, lines } = capturingLog();
      const connection = manager(log);
      assert.ok((await connection.run((client) => client.listProcessCategories({ limit: 1 }))).totalCount > 0);
      // The own dispatcher sends plain http to the proxy in absolute form; VS Code's opens a tunnel.
      assert.ok(vscodeProxy.routes.slice(routes).some((r) => r.startsWith('FORWARD ')), vscodeProxy.routes.slice(routes).join(', '));
      assert.match(lines.find((l) => l.startsWith('Network:')) ?? '', /the extension's own \(workItemStudio\.network\.caFile set\): proxy http:\/\/127\.0\.0\.1:\d+ \(setting\).*extra CAs 1/);
    } finally {
      await setGlobal('workItemStudio', 'network.caFile', undefined);
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('the installed extension signs in to its sandbox through the extension host\'s fetch, and not once the override is set', async () => {
    await activateExtension();
    await setGlobal('http', 'proxy', undefined);
    const seen: string[] = [];
    const original = globalThis.fetch;
    globalThis.fetch = (input: string | URL | Request, init?: RequestInit) => {
      seen.push(`${init?.method ?? 'GET'} ${String(input)} redirect=${init?.redirect ?? ''}`);
      return original(input, init);
    };
    try {
      await setGlobal('workItemStudio', 'network.proxy', undefined);
      await vscode.commands.executeCommand('workItemStudio.stopSandbox');
      await vscode.commands.executeCommand('workItemStudio.startSandbox');
      assert.ok(seen.some((x) => /^POST http:\/\/127\.0\.0\.1:\d+\/.*auth\/token redirect=manual$/.test(x)), `the sign-in went through fetch: ${seen.join(', ')}`);
      await vscode.commands.executeCommand('workItemStudio.stopSandbox');

      // The override: the extension's own dispatcher (the sandbox on loopback is reached directly).
      await setGlobal('workItemStudio', 'network.proxy', ownProxy.url);
      seen.length = 0;
      await vscode.commands.executeCommand('workItemStudio.startSandbox');
      assert.deepEqual(seen.filter((x) => x.includes('auth/token')), []);
      await vscode.commands.executeCommand('workItemStudio.stopSandbox');
    } finally {
      globalThis.fetch = original;
      await setGlobal('workItemStudio', 'network.proxy', undefined);
    }
  });

  it('an unusable workItemStudio.network.proxy is named in the message, without its password', async () => {
    await setGlobal('workItemStudio', 'network.proxy', 'socks5://proxyuser:s3cret-pw@127.0.0.1:1080');
    try {
      const { log } = capturingLog();
      const connection = manager(log);
      const e = await connection.run((client) => client.listProcessCategories({ limit: 1 })).then(
        () => assert.fail('expected the proxy setting to be refused'),
        (err: unknown) => err,
      );
      const text = describeError(e);
      assert.ok(text.includes('workItemStudio.network.proxy'), text);
      assert.ok(!text.includes('s3cret-pw'), text);
    } finally {
      await setGlobal('workItemStudio', 'network.proxy', undefined);
    }
  });

  it('without a proxy a host only the proxies know cannot be reached: the tests above would fail if a proxy were bypassed', async () => {
    await setGlobal('workItemStudio', 'network.proxy', undefined);
    await setGlobal('http', 'proxy', undefined);
    const { log } = capturingLog();
    const connection = manager(log);
    await assert.rejects(connection.run((client) => client.listProcessCategories({ limit: 1 })), (e: unknown) => {
      assert.equal((e as { kind?: string }).kind, 'connect', String(e));
      return true;
    });
  });
});
