// Connection and sign-in inside a real extension host: the sign-in flow (token, Basic,
// pasted token), one prompt for many concurrent 401s, and workspace trust: a workspace
// setting cannot send the user's token to another host.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';
import { ConnectionManager, SignInCancelledError, type SignInMethod, type SignInPrompts } from '../../src/common/connection';
import { readSettings } from '../../src/common/config';
import { credentialKey } from '../../src/common/secrets';
import { isServiceError } from '../../src/api/errors';
import { activateExtension } from './support';
import type { SecretStorageLike } from '../../src/common/secrets';

function memorySecrets(): SecretStorageLike & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, get: async (k) => data.get(k), store: async (k, v) => void data.set(k, v), delete: async (k) => void data.delete(k) };
}

const log = vscode.window.createOutputChannel('Work Item Studio (connection tests)', { log: true });

function prompts(method: SignInMethod | undefined, answers: { loginName?: string; password?: string; token?: string } = {}): SignInPrompts & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    pickMethod: async (info, _p, reason) => {
      asked.push(`${reason}:${info.origin}`);
      return method;
    },
    askLoginName: async () => answers.loginName ?? 'admin',
    askPassword: async () => answers.password ?? 'password',
    askToken: async () => answers.token,
  };
}

/** A server that records the Authorization header of every request and answers an empty list. */
async function recordingServer(): Promise<{ url: string; origin: string; seen: (string | undefined)[]; close: () => Promise<void> }> {
  const seen: (string | undefined)[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.headers.authorization);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"totalCount":0,"data":[]}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: `${origin}/api`, origin, seen, close: () => new Promise((r) => server.close(() => r())) };
}

describe('connection: sign-in (sandbox)', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await createSandbox({ port: 0 });
  });
  after(async () => sandbox?.close());

  it('login name and password get a token, stored under the origin only', async () => {
    const secrets = memorySecrets();
    const p = prompts('token');
    const c = new ConnectionManager({ secrets, log, prompts: p, serviceUrl: () => sandbox.url });
    try {
      const r = await c.run((client) => client.listProcessCategories({ limit: 1 }));
      assert.ok(r.totalCount > 0);
      assert.deepEqual(p.asked, [`missing:${sandbox.origin}`]);
      assert.deepEqual([...secrets.data.keys()], [credentialKey(sandbox.origin)]);
      const stored = JSON.parse(secrets.data.get(credentialKey(sandbox.origin))!);
      assert.equal(stored.kind, 'bearer');
      assert.equal(stored.loginName, 'admin');
      assert.equal('password' in stored, false, 'the password is not kept for token sign-in');
      assert.equal(c.isSignedIn, true);
      assert.equal(c.signedInAs, 'admin');
      await c.signOut();
      assert.equal(secrets.data.size, 0);
      assert.equal(c.isSignedIn, false);
    } finally {
      c.dispose();
    }
  });

  it('Basic stores login name and password and sends them', async () => {
    const secrets = memorySecrets();
    const c = new ConnectionManager({ secrets, log, prompts: prompts('basic', { loginName: 'viewer' }), serviceUrl: () => sandbox.url });
    try {
      await c.run((client) => client.listOrganizationUsers('org-root'));
      assert.equal(JSON.parse(secrets.data.get(credentialKey(sandbox.origin))!).kind, 'basic');
    } finally {
      c.dispose();
    }
  });

  it('a wrong password fails with the service\'s 401, and nothing is stored', async () => {
    const secrets = memorySecrets();
    const c = new ConnectionManager({ secrets, log, prompts: prompts('token', { password: 'wrong' }), serviceUrl: () => sandbox.url });
    try {
      await assert.rejects(c.signIn('command'), (e: unknown) => isServiceError(e) && e.status === 401);
      assert.equal(secrets.data.size, 0);
    } finally {
      c.dispose();
    }
  });

  it('many concurrent 401s prompt once, then every read is retried once and succeeds', async () => {
    const secrets = memorySecrets();
    await secrets.store(credentialKey(sandbox.origin), JSON.stringify({ kind: 'bearer', token: 'expired-token' }));
    const p = prompts('token');
    const c = new ConnectionManager({ secrets, log, prompts: p, serviceUrl: () => sandbox.url });
    try {
      const results = await Promise.all(Array.from({ length: 6 }, () => c.run((client) => client.listProcessCategories({ limit: 1 }))));
      assert.equal(results.length, 6);
      assert.deepEqual(p.asked, [`unauthorized:${sandbox.origin}`], 'exactly one prompt');
    } finally {
      c.dispose();
    }
  });

  it('when the user declines, the 401 surfaces and is not asked again for the same credentials', async () => {
    const secrets = memorySecrets();
    await secrets.store(credentialKey(sandbox.origin), JSON.stringify({ kind: 'bearer', token: 'expired-token' }));
    const p = prompts(undefined);
    const c = new ConnectionManager({ secrets, log, prompts: p, serviceUrl: () => sandbox.url });
    try {
      await assert.rejects(c.run((client) => client.listProcessCategories()), (e: unknown) => isServiceError(e) && e.status === 401);
      await assert.rejects(c.run((client) => client.listProcessCategories()), (e: unknown) => isServiceError(e) && e.status === 401);
      assert.equal(p.asked.length, 1);
    } finally {
      c.dispose();
    }
  });

  it('the Start Sandbox command runs a sandbox without touching settings, and Stop Sandbox ends it', async () => {
    await activateExtension();
    const before = vscode.workspace.getConfiguration('workItemStudio').inspect('serviceUrl');
    await vscode.commands.executeCommand('workItemStudio.startSandbox');
    await vscode.commands.executeCommand('workItemStudio.stopSandbox');
    const after = vscode.workspace.getConfiguration('workItemStudio').inspect('serviceUrl');
    assert.deepEqual(after, before);
  });
});

describe('connection: workspace trust', function () {
  this.timeout(60_000);
  let good: Sandbox;
  let evil: Awaited<ReturnType<typeof recordingServer>>;
  const config = () => vscode.workspace.getConfiguration('workItemStudio');

  before(async () => {
    await activateExtension();
    good = await createSandbox({ port: 0 });
    evil = await recordingServer();
    await config().update('serviceUrl', good.url, vscode.ConfigurationTarget.Global);
    await config().update('serviceUrl', evil.url, vscode.ConfigurationTarget.Workspace);
  });
  after(async () => {
    await config().update('serviceUrl', undefined, vscode.ConfigurationTarget.Workspace);
    await config().update('serviceUrl', undefined, vscode.ConfigurationTarget.Global);
    await evil?.close();
    await good?.close();
  });

  it('an untrusted workspace cannot override the service URL (user value wins)', () => {
    assert.equal(readSettings(false).serviceUrl, good.url);
    assert.equal(readSettings(true).serviceUrl, evil.url, 'in a trusted workspace, the workspace value applies');
  });

  it('the manifest restricts every setting that could redirect credentials', async () => {
    const ext = await activateExtension();
    const caps = (ext.packageJSON as { capabilities?: { untrustedWorkspaces?: { supported: unknown; restrictedConfigurations?: string[] } } }).capabilities;
    assert.equal(caps?.untrustedWorkspaces?.supported, 'limited');
    for (const k of ['workItemStudio.serviceUrl', 'workItemStudio.authMethod', 'workItemStudio.network.caFile']) {
      assert.ok(caps?.untrustedWorkspaces?.restrictedConfigurations?.includes(k), `${k} is restricted`);
    }
  });

  it('even where the workspace value applies, the token of the user\'s service never reaches the workspace\'s host', async () => {
    const secrets = memorySecrets();
    await secrets.store(credentialKey(good.origin), JSON.stringify({ kind: 'bearer', token: 'users-real-token', loginName: 'admin' }));
    const p = prompts(undefined);
    // No serviceUrl override: the manager reads the settings as the extension does.
    const c = new ConnectionManager({ secrets, log, prompts: p, serviceUrl: () => readSettings(true).serviceUrl });
    try {
      assert.equal(c.current?.origin, evil.origin);
      await assert.rejects(c.run((client) => client.listProcessCategories()), SignInCancelledError);
      assert.deepEqual(p.asked, [`missing:${evil.origin}`], 'the user is asked to sign in to the other host, by name');
      assert.deepEqual(evil.seen, [], 'nothing was sent to the other host');
    } finally {
      c.dispose();
    }
    // And in an untrusted workspace the user's own service is used, with the user's token.
    const c2 = new ConnectionManager({ secrets, log, prompts: p, serviceUrl: () => readSettings(false).serviceUrl });
    try {
      assert.equal(c2.current?.origin, good.origin);
    } finally {
      c2.dispose();
    }
  });
});
