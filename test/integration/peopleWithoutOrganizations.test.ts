// Names of users with no organization configured: the people directory reads the users of
// the signed-in user's top organizations (found from GET /system/users/me and
// subOrganizations), so a new user's work item table shows leaders by name, not as IDs.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TablePanel } from '../../src/table/panel';
import type { WorkItemNode, WorkItemTreeNode } from '../../src/workItems/tree';
import { activateExtension } from './support';

describe('people by name with no organization configured (extension, sandbox)', function () {
  this.timeout(180_000);
  const config = () => vscode.workspace.getConfiguration('workItemStudio');
  let organizationsBefore: string[] | undefined;

  before(async () => {
    await activateExtension();
    organizationsBefore = config().inspect<string[]>('organizations')?.globalValue;
    await config().update('organizations', [], vscode.ConfigurationTarget.Global);
    // A sandbox of its own (a new port, so nothing read for another service is reused).
    await vscode.commands.executeCommand('workItemStudio.stopSandbox');
    await vscode.commands.executeCommand('workItemStudio.startSandbox');
  });

  after(async () => {
    await config().update('organizations', organizationsBefore, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('the table names leaders read from the top organization of the signed-in user when workItemStudio.organizations is empty', async () => {
    assert.deepEqual(config().get<string[]>('organizations'), []);
    await vscode.commands.executeCommand('workItemStudio.workItems.focus');
    const node = ((await vscode.commands.executeCommand('workItemStudio.revealWorkItems', { ids: ['121'] })) as WorkItemNode[])[0]!;
    const projects = (await node.tree.getChildren()) as WorkItemTreeNode[];
    const p = projects.find((n) => n.kind === 'project' && n.projectId === '3001');
    assert.ok(p, 'project 3001 in the Work Items view');
    const table = (await vscode.commands.executeCommand('workItemStudio.openWorkItemTable', p)) as TablePanel;
    await table.whenLoaded();
    await table.namesSettled();
    const leaders = new Set(table.allRows().map((r) => r.fields['LeaderId']).filter((v): v is string => typeof v === 'string' && v !== '0'));
    assert.ok(leaders.size > 0, 'the project has leaders');
    for (const id of leaders) {
      const name = table.userName(id);
      assert.ok(name && name !== id, `leader ${id} is shown by name (got ${String(name)})`);
    }
  });
});
