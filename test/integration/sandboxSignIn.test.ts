// The built-in sandbox signs in as the demo user admin by itself, until the user chose
// otherwise: after Sign Out (or a sign-in by hand, e.g. as `viewer`) the next request asks
// instead of silently becoming admin again.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ConnectionManager, SignInCancelledError, type SignInPrompts } from '../../src/common/connection';
import type { SecretStorageLike } from '../../src/common/secrets';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';
import { ConnectionStatusBar } from '../../src/common/statusBar';
import { startSandbox } from '../../src/connection/sandbox';
import { waitFor, workspaceFolder } from './support';

function memorySecrets(): SecretStorageLike {
  const data = new Map<string, string>();
  return { get: async (k) => data.get(k), store: async (k, v) => void data.set(k, v), delete: async (k) => void data.delete(k) };
}

const log = vscode.window.createOutputChannel('Work Item Studio (sandbox sign-in tests)', { log: true });

describe('connection: signing out of the sandbox', function () {
  this.timeout(60_000);

  function manager(answers: { method?: 'token'; loginName?: string }): { c: ConnectionManager; asked: string[] } {
    const asked: string[] = [];
    const prompts: SignInPrompts = {
      pickMethod: async (_info, _preferred, reason) => {
        asked.push(reason);
        return answers.method;
      },
      askLoginName: async () => answers.loginName ?? 'admin',
      askPassword: async () => 'password',
      askToken: async () => undefined,
      askApiKey: async () => undefined,
    };
    const c = new ConnectionManager({ secrets: memorySecrets(), log, prompts, serviceUrl: () => '', startSandbox: () => createSandbox({ port: 0 }) });
    return { c, asked };
  }

  it('starts signed in as admin without asking', async () => {
    const { c, asked } = manager({});
    try {
      await c.startSandbox();
      assert.equal(c.signedInAs, 'admin');
      await c.getClient();
      assert.deepEqual(asked, []);
    } finally {
      await c.stopSandbox();
      c.dispose();
    }
  });

  it('after Sign Out, the next request asks instead of signing in as admin again', async () => {
    const { c, asked } = manager({});
    try {
      await c.startSandbox();
      await c.signOut();
      await assert.rejects(c.getClient(), SignInCancelledError);
      assert.deepEqual(asked, ['missing'], 'the sign-in prompt was shown');
      assert.equal(c.isSignedIn, false, 'still signed out');
    } finally {
      await c.stopSandbox();
      c.dispose();
    }
  });

  it('after Sign Out and a sign-in as viewer, a lost token asks again rather than becoming admin', async () => {
    const { c, asked } = manager({ method: 'token', loginName: 'viewer' });
    try {
      await c.startSandbox();
      await c.signOut();
      assert.equal(await c.signIn('command'), true);
      assert.equal(c.signedInAs, 'viewer');
      assert.equal(await c.handleUnauthorized(), true);
      assert.deepEqual(asked, ['command', 'unauthorized']);
      assert.equal(c.signedInAs, 'viewer');
    } finally {
      await c.stopSandbox();
      c.dispose();
    }
  });
});

// One sandbox at a time, one name everywhere (status bar, views' messages, the result
// view's "Service:" line all show ConnectionInfo.label): "Sandbox (this window)" for Start
// Sandbox, "Sandbox (started by npm start)" for the configured sandbox of the workspace
// `npm start` writes (its workspace setting workItemStudio.sandboxLabel is "npm start").
describe('connection: the sandbox is named the same way everywhere', function () {
  this.timeout(60_000);
  const settingsFile = () => vscode.Uri.joinPath(workspaceFolder().uri, '.vscode', 'settings.json');
  let original: Uint8Array | undefined;
  let service: Sandbox;

  async function setMarker(value: string | undefined): Promise<void> {
    let settings: Record<string, unknown> = {};
    try {
      settings = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(settingsFile()))) as Record<string, unknown>;
    } catch {
      // no settings yet
    }
    if (value === undefined) delete settings['workItemStudio.sandboxLabel'];
    else settings['workItemStudio.sandboxLabel'] = value;
    // Not a contributed setting (nobody sets it by hand), so it is written as npm start writes it: into the file.
    await vscode.workspace.fs.writeFile(settingsFile(), new TextEncoder().encode(JSON.stringify(settings, null, 2)));
    await waitFor(`workItemStudio.sandboxLabel ${value ?? 'removed'}`, () => vscode.workspace.getConfiguration('workItemStudio').get('sandboxLabel') === value, 10_000);
  }

  function manager(serviceUrl: string): { c: ConnectionManager; bar: ConnectionStatusBar } {
    const prompts: SignInPrompts = {
      pickMethod: async () => 'basic',
      askLoginName: async () => 'admin',
      askPassword: async () => 'password',
      askToken: async () => undefined,
      askApiKey: async () => undefined,
    };
    const c = new ConnectionManager({ secrets: memorySecrets(), log, prompts, serviceUrl: () => serviceUrl, startSandbox: () => createSandbox({ port: 0 }) });
    return { c, bar: new ConnectionStatusBar(c) };
  }

  before(async () => {
    service = await createSandbox({ port: 0 });
    try {
      original = await vscode.workspace.fs.readFile(settingsFile());
    } catch {
      original = undefined;
    }
  });
  after(async () => {
    if (original) await vscode.workspace.fs.writeFile(settingsFile(), original);
    else await setMarker(undefined);
    await service?.close();
  });

  it('Start Sandbox: "Sandbox (this window)" in the connection, the status bar and a job\'s service', async () => {
    const { c, bar } = manager('');
    try {
      await c.startSandbox();
      assert.equal(c.current?.label, 'Sandbox (this window)');
      assert.equal(c.current?.isSandbox, true);
      assert.match(bar.text, /^\$\(beaker\) [^@]+@Sandbox \(this window\)$/);
      assert.equal((await c.jobServiceFor(c.current!)).label, 'Sandbox (this window)');
    } finally {
      await c.stopSandbox();
      bar.dispose();
      c.dispose();
    }
  });

  it('the workspace of npm start: its configured sandbox is "Sandbox (started by npm start)"; without the marker, or for a remote URL, the service keeps its own name', async () => {
    await setMarker('npm start');
    const { c, bar } = manager(service.url);
    const remote = manager('https://pm.example.com/TimeTrackerNX/api');
    try {
      assert.equal(c.current?.label, 'Sandbox (started by npm start)');
      assert.equal(c.current?.startedSandbox, true);
      assert.equal(c.current?.isSandbox, false, 'not this window\'s sandbox: no silent sign-in as admin');
      assert.equal(bar.text, '$(beaker) Sandbox (started by npm start) (not signed in)');
      assert.equal(remote.c.current?.label, 'pm.example.com/TimeTrackerNX', 'a workspace cannot name a remote service a sandbox');
      assert.equal(remote.c.current?.startedSandbox, undefined);
      await setMarker('anything else');
      assert.equal(c.current?.label, new URL(service.url).host);
      await setMarker(undefined);
      assert.equal(c.current?.label, new URL(service.url).host);
      await waitFor('the status bar follows the setting', () => bar.text.includes(new URL(service.url).host), 5_000);
    } finally {
      bar.dispose();
      c.dispose();
      remote.bar.dispose();
      remote.c.dispose();
    }
  });

  it('Start Sandbox while the configured sandbox serves the workspace: says so, offers to use it, and starts no second sandbox', async () => {
    await setMarker('npm start');
    const { c, bar } = manager(service.url);
    const asked: string[] = [];
    try {
      // Dismissed: nothing happens.
      await startSandbox(c, async (m) => (asked.push(m), undefined));
      assert.deepEqual(asked, [`Sandbox (started by npm start) is already serving this workspace at ${service.url}. Use it instead of starting another sandbox?`]);
      assert.equal(c.sandboxUrl, undefined);
      assert.equal(c.isSignedIn, false);
      // Use It: the configured sandbox stays in use, signed in (here as admin through the prompts).
      await startSandbox(c, async (_m, ...items) => items.find((i) => i.title === 'Use It'));
      assert.equal(c.sandboxUrl, undefined, 'no second sandbox');
      assert.equal(c.current?.baseUrl, service.url);
      assert.equal(c.signedInAs, 'admin');
      assert.match(bar.text, /^\$\(beaker\) [^@]+@Sandbox \(started by npm start\)$/);
    } finally {
      bar.dispose();
      c.dispose();
    }
  });

  it('Start Sandbox with a configured service that is not a sandbox starts "Sandbox (this window)" without asking', async () => {
    await setMarker(undefined);
    const other = manager('https://pm.example.com/TimeTrackerNX/api');
    const asked: string[] = [];
    try {
      await startSandbox(other.c, async (m) => (asked.push(m), undefined));
      assert.deepEqual(asked, []);
      assert.ok(other.c.sandboxUrl);
      assert.equal(other.c.current?.label, 'Sandbox (this window)');
    } finally {
      await other.c.stopSandbox();
      other.bar.dispose();
      other.c.dispose();
    }
  });
});
