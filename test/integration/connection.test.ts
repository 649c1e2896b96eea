// Connection and sign-in inside a real extension host: the sign-in flow (token, Basic,
// pasted token), one prompt for many concurrent 401s, one first-use prompt shared by both
// views (answered, dismissed, replaced by Sign In, closed by another quick input), and
// workspace trust: a workspace setting cannot send the user's token to another host.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { createSandbox, DEMO_API_KEYS, type Sandbox } from '../../src/sandbox/index';
import { describeError } from '../../src/common/messages';
import { ConnectionManager, SignInCancelledError, type SignInMethod, type SignInPrompts } from '../../src/common/connection';
import { readSettings } from '../../src/common/config';
import { credentialKey } from '../../src/common/secrets';
import { isServiceError } from '../../src/api/errors';
import { ServiceClient } from '../../src/api/client';
import { windowSignInPrompts } from '../../src/common/signInPrompts';
import { MessageNode } from '../../src/views/common';
import { OrgNode } from '../../src/organizations/nodes';
import { OrganizationsTree } from '../../src/organizations/tree';
import { CategoryNode, ProcessCategoriesTree } from '../../src/processCategories/tree';
import { activateExtension, waitFor } from './support';
import type { SecretStorageLike } from '../../src/common/secrets';

function memorySecrets(): SecretStorageLike & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, get: async (k) => data.get(k), store: async (k, v) => void data.set(k, v), delete: async (k) => void data.delete(k) };
}

const log = vscode.window.createOutputChannel('Work Item Studio (connection tests)', { log: true });

function prompts(method: SignInMethod | undefined, answers: { loginName?: string; password?: string; token?: string; apiKey?: string } = {}): SignInPrompts & { asked: string[] } {
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
    askApiKey: async () => answers.apiKey,
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
      assert.equal(c.signedInWithApiKey, false);
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
      await c.run((client) => client.listOrganizationUsers('1001'));
      assert.equal(JSON.parse(secrets.data.get(credentialKey(sandbox.origin))!).kind, 'basic');
    } finally {
      c.dispose();
    }
  });

  it('an API key is stored under the origin only and sent as X-TT-ApiKey @errors', async () => {
    const secrets = memorySecrets();
    const c = new ConnectionManager({ secrets, log, prompts: prompts('apiKey', { apiKey: ` ${DEMO_API_KEYS.viewer} ` }), serviceUrl: () => sandbox.url });
    try {
      const r = await c.run((client) => client.listProcessCategories({ limit: 1 }));
      assert.equal(r.data.length, 1);
      assert.deepEqual([...secrets.data.keys()], [credentialKey(sandbox.origin)]);
      assert.deepEqual(JSON.parse(secrets.data.get(credentialKey(sandbox.origin))!), { kind: 'apiKey', key: DEMO_API_KEYS.viewer });
      assert.equal(c.isSignedIn, true);
      // The status bar says how (an API key names no login), not "with a token".
      assert.equal(c.signedInWithApiKey, true);
      assert.equal(c.signedInAs, undefined);
      // The key decides who the caller is: the viewer cannot rename.
      await assert.rejects(
        c.run((client) => client.updateWorkItems(['111'], { fields: { Name: 'x' } })),
        (e: unknown) => isServiceError(e) && e.status === 403,
      );
    } finally {
      c.dispose();
    }
  });

  it('a wrong password fails with the service\'s 401, and nothing is stored @errors', async () => {
    const secrets = memorySecrets();
    const c = new ConnectionManager({ secrets, log, prompts: prompts('token', { password: 'wrong' }), serviceUrl: () => sandbox.url });
    try {
      await assert.rejects(c.signIn('command'), (e: unknown) => {
        // Among the causes: a single sign-on site must allow local authentication for the user.
        const text = describeError(e);
        assert.match(text, /single sign-on/, text);
        assert.match(text, /local authentication/, text);
        return isServiceError(e) && e.status === 401;
      });
      assert.equal(secrets.data.size, 0);
    } finally {
      c.dispose();
    }
  });

  it('many concurrent 401s prompt once, then every read is retried once and succeeds @errors', async () => {
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

  it('when the user declines, the 401 surfaces and is not asked again for the same credentials @errors', async () => {
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

describe('connection: signed-in state follows what is stored', function () {
  this.timeout(60_000);
  let service: Sandbox;
  before(async () => {
    service = await createSandbox({ port: 0 });
  });
  after(async () => service?.close());

  it('after Stop Sandbox, the configured service with stored credentials is signed in', async () => {
    const secrets = memorySecrets();
    await secrets.store(credentialKey(service.origin), JSON.stringify({ kind: 'bearer', token: 'stored', loginName: 'viewer' }));
    const c = new ConnectionManager({ secrets, log, prompts: prompts(undefined), serviceUrl: () => service.url });
    try {
      await c.refreshSignedInState();
      assert.equal(c.signedInAs, 'viewer');
      await c.startSandbox();
      assert.equal(c.current?.isSandbox, true);
      assert.equal(c.signedInAs, 'admin');
      await c.stopSandbox();
      assert.equal(c.current?.origin, service.origin);
      assert.equal(c.isSignedIn, true, 'not "(not signed in)"');
      assert.equal(c.signedInAs, 'viewer');
    } finally {
      c.dispose();
    }
  });

  it('a sign-in or sign-out in another window (a SecretStorage change) is seen by requests and the state', async () => {
    const secrets = memorySecrets();
    const p = prompts(undefined);
    const c = new ConnectionManager({ secrets, log, prompts: p, serviceUrl: () => service.url });
    try {
      await c.refreshSignedInState();
      assert.equal(c.isSignedIn, false);
      // The other window signs in (it shares SecretStorage).
      const otherWindow = new ServiceClient({ baseUrl: service.url });
      const token = await otherWindow.signIn('admin', 'password');
      await otherWindow.close();
      await secrets.store(credentialKey(service.origin), JSON.stringify({ kind: 'bearer', token, loginName: 'admin' }));
      await c.secretsChanged(credentialKey(service.origin));
      assert.equal(c.signedInAs, 'admin');
      const r = await c.run((client) => client.listProcessCategories({ limit: 1 }));
      assert.ok(r.totalCount > 0);
      assert.deepEqual(p.asked, [], 'the stored token was used; nobody was asked');
      // The other window signs out.
      await secrets.delete(credentialKey(service.origin));
      await c.secretsChanged(credentialKey(service.origin));
      assert.equal(c.isSignedIn, false);
      await assert.rejects(c.run((client) => client.listProcessCategories({ limit: 1 })), SignInCancelledError);
      assert.deepEqual(p.asked, [`missing:${service.origin}`], 'the removed token is not used');
    } finally {
      c.dispose();
    }
  });

  it('changing the serviceUrl setting shows the new service\'s signed-in state', async () => {
    await activateExtension();
    const config = () => vscode.workspace.getConfiguration('workItemStudio');
    const other = await recordingServer();
    const secrets = memorySecrets();
    await secrets.store(credentialKey(service.origin), JSON.stringify({ kind: 'bearer', token: 'stored', loginName: 'viewer' }));
    const c = new ConnectionManager({ secrets, log, prompts: prompts(undefined), serviceUrl: () => readSettings().serviceUrl });
    try {
      await config().update('serviceUrl', service.url, vscode.ConfigurationTarget.Global);
      await waitFor('signed in to the configured service', () => (c.signedInAs === 'viewer' ? true : undefined));
      await config().update('serviceUrl', other.url, vscode.ConfigurationTarget.Global);
      await waitFor('the other service, with nothing stored, to show signed out', () => (c.current?.origin === other.origin && !c.isSignedIn ? true : undefined));
      await config().update('serviceUrl', service.url, vscode.ConfigurationTarget.Global);
      await waitFor('signed in again after switching back', () => (c.signedInAs === 'viewer' ? true : undefined));
    } finally {
      c.dispose();
      await config().update('serviceUrl', undefined, vscode.ConfigurationTarget.Global);
      await other.close();
    }
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

/**
 * Prompts a test answers by hand, with VS Code's rule for quick inputs: opening one closes the
 * one still open, which then answers "dismissed" (undefined).
 */
function handPrompts(): SignInPrompts & { asked: string[]; answer(m: SignInMethod | undefined): void } {
  const asked: string[] = [];
  let open: ((m: SignInMethod | undefined) => void) | undefined;
  return {
    asked,
    pickMethod: (info, _p, reason) => {
      open?.(undefined);
      asked.push(`${reason}:${info.origin}`);
      return new Promise((resolve) => {
        open = (m) => {
          open = undefined;
          resolve(m);
        };
      });
    },
    answer(m) {
      assert.ok(open, 'a sign-in prompt is open');
      open(m);
    },
    askLoginName: async () => 'admin',
    askPassword: async () => 'password',
    askToken: async () => undefined,
    askApiKey: async () => undefined,
  };
}

type Rows<N> = { getChildren(n?: N): N[] | Promise<N[]> };

/** The rows once no loading row is left. */
function settledRows<N>(tree: Rows<N>, node?: N): Promise<N[]> {
  return waitFor('rows to finish loading', async () => {
    const rows = await tree.getChildren(node);
    return rows.some((r) => r instanceof MessageNode && r.kind === 'loading') ? undefined : rows;
  });
}

function isNotSignedInRow(rows: unknown[]): boolean {
  return rows.length === 1 && rows[0] instanceof MessageNode && rows[0].kind === 'error' && rows[0].signInRequired;
}

/** Lets pending callbacks and extension-host round trips run (no assertion depends on the duration). */
const settle = () => new Promise((r) => setTimeout(r, 200));

describe('connection: first-use sign-in shared by both views', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await createSandbox({ port: 0 });
  });
  after(async () => sandbox?.close());

  /** Both views of the sidebar on one connection with no stored credentials, both loading. */
  async function openSidebar(p: SignInPrompts) {
    const connection = new ConnectionManager({ secrets: memorySecrets(), log, prompts: p, serviceUrl: () => sandbox.url });
    const orgs = new OrganizationsTree(connection, log, () => ['1001']);
    const cats = new ProcessCategoriesTree(connection, log);
    const root = (await orgs.getChildren())[0] as OrgNode;
    assert.ok((await orgs.getChildren(root))[0] instanceof MessageNode, 'the organization shows a loading row');
    assert.ok(cats.getChildren().some((r) => r instanceof MessageNode && r.kind === 'loading'), 'the categories show a loading row');
    return {
      connection,
      orgs,
      cats,
      root,
      dispose() {
        orgs.dispose();
        cats.dispose();
        connection.dispose();
      },
    };
  }

  it('both views loading at once show ONE prompt; answering it loads both', async () => {
    const p = handPrompts();
    const s = await openSidebar(p);
    try {
      // And two more callers of getClient() at the same moment.
      const clients = [s.connection.getClient(), s.connection.getClient()];
      await waitFor('the sign-in prompt', () => p.asked.length > 0);
      await settle();
      assert.deepEqual(p.asked, [`missing:${sandbox.origin}`], 'exactly one prompt');
      p.answer('token');
      const orgRows = await settledRows(s.orgs, s.root);
      assert.ok(orgRows.some((r) => r instanceof OrgNode && r.orgId === '1002'), 'the organization loaded');
      const catRows = await settledRows(s.cats);
      assert.ok(catRows.some((r) => r instanceof CategoryNode), 'the categories loaded');
      assert.equal(new Set(await Promise.all(clients)).size, 1, 'both callers got the one client');
      assert.equal(p.asked.length, 1, 'still one prompt');
    } finally {
      s.dispose();
    }
  });

  it('dismissing the prompt ends both loads with "Not signed in" + Sign In, and later loads do not ask again', async () => {
    const p = handPrompts();
    const s = await openSidebar(p);
    try {
      const client = s.connection.getClient();
      await waitFor('the sign-in prompt', () => p.asked.length > 0);
      await settle();
      p.answer(undefined);
      await assert.rejects(client, SignInCancelledError);
      const orgRows = await waitFor('the organization to end not signed in', async () => {
        const rows = await s.orgs.getChildren(s.root);
        return isNotSignedInRow(rows) && rows;
      });
      const catRows = await waitFor('the categories to end not signed in', () => {
        const rows = s.cats.getChildren();
        return isNotSignedInRow(rows) && rows;
      });
      for (const [tree, row] of [
        [s.orgs, orgRows[0]],
        [s.cats, catRows[0]],
      ] as const) {
        const item = (tree as vscode.TreeDataProvider<unknown>).getTreeItem(row) as vscode.TreeItem;
        assert.equal(item.label, 'Not signed in');
        assert.equal(item.description, 'Sign In');
        assert.equal(item.command?.command, 'workItemStudio.retryLoad');
        assert.match(item.contextValue ?? '', /\bsignInRequired\b/);
      }
      // Refreshing (or another view loading) does not pop the prompt up again.
      s.orgs.refresh();
      s.cats.refresh();
      await s.orgs.getChildren(await s.orgs.getChildren().then((r) => r[0]));
      await waitFor('the refreshed organization to end not signed in', async () => isNotSignedInRow(await s.orgs.getChildren((await s.orgs.getChildren())[0])));
      await waitFor('the refreshed categories to end not signed in', () => isNotSignedInRow(s.cats.getChildren()));
      assert.equal(p.asked.length, 1, 'no second prompt after a dismissal');
      // The Sign In action asks again; signing in reloads both views.
      const signedIn = s.connection.signIn('command');
      await waitFor('the second prompt', () => p.asked.length === 2);
      p.answer('token');
      assert.equal(await signedIn, true);
      const root = (await s.orgs.getChildren())[0] as OrgNode;
      await waitFor('the organization to load after signing in', () => settledRows(s.orgs, root).then((rows) => rows.some((r) => r instanceof OrgNode)));
      await waitFor('the categories to load after signing in', () => s.cats.getChildren().some((r) => r instanceof CategoryNode));
    } finally {
      s.dispose();
    }
  });

  it('Sign In while the views wait on the prompt replaces it, and the views load with its answer', async () => {
    const p = handPrompts();
    const s = await openSidebar(p);
    try {
      const waiting = s.connection.getClient();
      await waitFor('the sign-in prompt', () => p.asked.length > 0);
      await settle();
      const command = s.connection.signIn('command'); // closes the first prompt (handPrompts does as VS Code)
      await waitFor('the Sign In prompt', () => p.asked.length === 2);
      await settle();
      assert.ok((await s.orgs.getChildren(s.root)).some((r) => r instanceof MessageNode && r.kind === 'loading'), 'the organization still waits (not failed by the closed prompt)');
      assert.ok(s.cats.getChildren().some((r) => r instanceof MessageNode && r.kind === 'loading'), 'the categories still wait');
      p.answer('token');
      assert.equal(await command, true);
      await waiting; // follows the Sign In prompt instead of failing with the closed one
      assert.ok((await settledRows(s.orgs, s.root)).some((r) => r instanceof OrgNode), 'the organization loaded');
      assert.ok((await settledRows(s.cats)).some((r) => r instanceof CategoryNode), 'the categories loaded');
      assert.deepEqual(p.asked, [`missing:${sandbox.origin}`, `command:${sandbox.origin}`]);
    } finally {
      s.dispose();
    }
  });

  it('a load waiting on the prompt is released by its abort signal (refresh); the prompt stays for the others', async () => {
    const p = handPrompts();
    const connection = new ConnectionManager({ secrets: memorySecrets(), log, prompts: p, serviceUrl: () => sandbox.url });
    try {
      const controller = new AbortController();
      const refreshed = connection.run((c) => c.listProcessCategories({ limit: 1 }, { signal: controller.signal }), { signal: controller.signal, background: true });
      const other = connection.run((c) => c.listProcessCategories({ limit: 1 }), { background: true });
      await waitFor('the sign-in prompt', () => p.asked.length > 0);
      controller.abort();
      await assert.rejects(refreshed, (e: unknown) => e instanceof Error && e.name === 'AbortError');
      p.answer('token');
      assert.ok((await other).totalCount > 0);
      assert.equal(p.asked.length, 1);
    } finally {
      connection.dispose();
    }
  });

  it('the real sign-in quick pick, closed by another quick input, ends every waiting load at once', async () => {
    let shown = 0;
    const real: SignInPrompts = {
      ...windowSignInPrompts,
      pickMethod: (...args) => {
        shown++;
        return windowSignInPrompts.pickMethod(...args);
      },
    };
    const connection = new ConnectionManager({ secrets: memorySecrets(), log, prompts: real, serviceUrl: () => sandbox.url });
    let other: Thenable<string | undefined> | undefined;
    try {
      const loads = [connection.getClient(), connection.run((c) => c.listProcessCategories(), { background: true })];
      await waitFor('the sign-in quick pick', () => shown > 0);
      await settle();
      assert.equal(shown, 1, 'one quick pick');
      other = vscode.window.showQuickPick(['another prompt'], { title: 'replaces the sign-in prompt' });
      for (const l of loads) await assert.rejects(l, SignInCancelledError);
      // The same with the sign-in prompt dismissed by the command that closes quick inputs.
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      assert.equal(await other, undefined);
      other = undefined;
      const again = connection.getClient();
      await waitFor('the second sign-in quick pick', () => shown === 2);
      await settle();
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      await assert.rejects(again, SignInCancelledError);
    } finally {
      if (other) await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      connection.dispose();
    }
  });

  it('disposing the connection ends a load waiting on the prompt', async () => {
    const p = handPrompts();
    const connection = new ConnectionManager({ secrets: memorySecrets(), log, prompts: p, serviceUrl: () => sandbox.url });
    const load = connection.getClient();
    await waitFor('the sign-in prompt', () => p.asked.length > 0);
    connection.dispose();
    await assert.rejects(load, SignInCancelledError);
  });
});
