// The built-in sandbox signs in as the demo user admin by itself, until the user chose
// otherwise: after Sign Out (or a sign-in by hand, e.g. as `viewer`) the next request asks
// instead of silently becoming admin again.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ConnectionManager, SignInCancelledError, type SignInPrompts } from '../../src/common/connection';
import type { SecretStorageLike } from '../../src/common/secrets';
import { createSandbox } from '../../src/sandbox/index';

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
