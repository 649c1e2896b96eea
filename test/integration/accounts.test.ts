// Service profiles and VS Code's Accounts menu in the real extension host: two sandboxes named
// 本番 and 検証 in workItemStudio.services, switched with Switch Service Profile; each keeps its own
// sign-in, which VS Code lists as an account (vscode.authentication.getAccounts); the status bar
// names the profile; Sign Out removes that account only; a document for one profile's service is
// refused, by the profile's name, while the other is in use.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';
import type { SignInPrompts } from '../../src/common/connection';
import type { WorkItemStudioApi } from '../../src/extension';
import { refuseOtherService } from '../../src/changes/jobs/running';
import { activateExtension, answering, closeUntitledDocuments, waitFor } from './support';

const PROVIDER = 'workItemStudio';

/** Sign-in answers: Login Name and Password as `login`; `asked` counts the prompts shown. */
function signInAs(login: string, asked: string[]): Partial<SignInPrompts> {
  return {
    pickMethod: async (info, _preferred, reason) => {
      asked.push(`${reason}:${info.label}`);
      return 'token';
    },
    askLoginName: async () => login,
    askPassword: async () => 'password',
  };
}

async function accounts(): Promise<string[]> {
  return (await vscode.authentication.getAccounts(PROVIDER)).map((a) => a.label).sort();
}

describe('service profiles and the Accounts menu', function () {
  this.timeout(120_000);
  let prod: Sandbox;
  let staging: Sandbox;
  let api: WorkItemStudioApi;
  const config = () => vscode.workspace.getConfiguration('workItemStudio');
  let serviceUrlBefore: string | undefined;

  before(async () => {
    api = (await activateExtension()).exports as WorkItemStudioApi;
    prod = await createSandbox({ port: 0 });
    staging = await createSandbox({ port: 0 });
    serviceUrlBefore = config().inspect<string>('serviceUrl')?.globalValue;
    await config().update('serviceUrl', undefined, vscode.ConfigurationTarget.Global);
    await config().update(
      'services',
      [
        { name: '本番', url: `${prod.url}` },
        { name: '検証', url: `${staging.url}` },
      ],
      vscode.ConfigurationTarget.Global,
    );
  });

  after(async () => {
    // Signed out of both, so no other suite finds these sign-ins.
    for (const name of ['本番', '検証']) {
      await answering({ signIn: { pickMethod: async () => undefined } }, () => vscode.commands.executeCommand('workItemStudio.switchServiceProfile', name)).catch(() => undefined);
      await vscode.commands.executeCommand('workItemStudio.signOut').then(undefined, () => undefined);
    }
    await config().update('services', undefined, vscode.ConfigurationTarget.Global);
    await config().update('serviceUrl', serviceUrlBefore, vscode.ConfigurationTarget.Global);
    await closeUntitledDocuments();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await prod.close();
    await staging.close();
  });

  it('each profile keeps its own sign-in, listed in the Accounts menu as login @ profile, and the status bar names the profile', async () => {
    const asked: string[] = [];
    await answering({ signIn: signInAs('admin', asked) }, () => vscode.commands.executeCommand('workItemStudio.switchServiceProfile', '本番'));
    assert.deepEqual(asked.slice(-1), ['missing:本番'], 'a profile without a sign-in asks for one');
    assert.equal(asked.length, 1, 'once');
    await waitFor('the 本番 sign-in as an account', async () => (await accounts()).includes('admin @ 本番'));
    await waitFor('the status bar signed in to 本番', () => api.connectionStatus().endsWith('@本番'));

    await answering({ signIn: signInAs('viewer', asked) }, () => vscode.commands.executeCommand('workItemStudio.switchServiceProfile', '検証'));
    assert.deepEqual(asked, ['missing:本番', 'missing:検証'], 'one prompt for 検証, shared by the views and the switch');
    await waitFor('both sign-ins as accounts', async () => JSON.stringify(await accounts()) === JSON.stringify(['admin @ 本番', 'viewer @ 検証']));
    await waitFor('the status bar signed in to 検証', () => api.connectionStatus().endsWith('@検証'));

    // Back to 本番: its sign-in is still there, nothing is asked.
    await answering({ signIn: signInAs('nobody', asked) }, () => vscode.commands.executeCommand('workItemStudio.switchServiceProfile', '本番'));
    assert.equal(asked.length, 2, 'switching back asks nothing');
    await waitFor('the status bar signed in to 本番', () => api.connectionStatus().endsWith('@本番'));
  });

  it('a document for the service of 検証 is refused by that name while 本番 is in use, and nothing is sent', async () => {
    const item = staging.data.workItems.find((w) => !w.isDeleted && w.name) ?? staging.data.workItems[0]!;
    const name = item.name;
    const text = JSON.stringify({ service: staging.url, workItemIds: [String(item.id)], update: { fields: { Name: 'never sent' } } }, null, 2);
    // What Send checks first, with the profiles as the settings give them.
    assert.throws(
      () => refuseOtherService({ text, name: 'undo-a.workitems.json' }, { baseUrl: prod.url, label: '本番' }, [{ name: '本番', baseUrl: prod.url }, { name: '検証', baseUrl: staging.url }]),
      (e: Error) => e.message.includes('undo-a.workitems.json is for 検証 only') && e.message.includes('but 本番 is in use') && e.message.includes('Switch to 検証'),
    );
    // The real Send of such a document (its refusal is a notification, not awaited here) leaves 検証 as it was.
    const doc = await vscode.workspace.openTextDocument({ language: 'json', content: text });
    await vscode.window.showTextDocument(doc);
    void vscode.commands.executeCommand('workItemStudio.sendUpdate');
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(staging.data.workItems.find((w) => w.id === item.id)?.name, name, 'nothing reached 検証');
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('Sign Out removes the account of the profile in use only', async () => {
    await vscode.commands.executeCommand('workItemStudio.signOut');
    await waitFor('only the 検証 account', async () => JSON.stringify(await accounts()) === JSON.stringify(['viewer @ 検証'])).catch(async (e: Error) => assert.fail(`${e.message}: ${(await accounts()).join(', ')}`));
    await waitFor('the status bar signed out of 本番', () => api.connectionStatus().includes('本番') && !api.connectionStatus().includes('@本番'));
  });
});
