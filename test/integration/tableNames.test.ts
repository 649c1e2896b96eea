// The work item table inside a real extension host, against the demo sandbox: users by
// name through the people directory (the one the Before/After tables use) — never bare
// user IDs once the directory read them — and "leader is" by a name learned that way;
// a table opened on a folder has the parent paths of the project's table (the folder's
// ancestors first).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TablePanel } from '../../src/table/panel';
import type { WorkItemNode, WorkItemTreeNode } from '../../src/workItems/tree';
import { activateExtension, waitFor } from './support';

describe('work item table: people by name and folder paths (extension, sandbox)', function () {
  this.timeout(180_000);
  const config = () => vscode.workspace.getConfiguration('workItemStudio');
  let organizationsBefore: string[] | undefined;
  let project: TablePanel;
  let node121: WorkItemNode;

  before(async () => {
    await activateExtension();
    await vscode.commands.executeCommand('workItemStudio.startSandbox');
    organizationsBefore = config().inspect<string[]>('organizations')?.globalValue;
    await config().update('organizations', ['1001'], vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workItemStudio.workItems.focus');
    node121 = ((await vscode.commands.executeCommand('workItemStudio.revealWorkItems', { ids: ['121'] })) as WorkItemNode[])[0]!;
    const projects = (await node121.tree.getChildren()) as WorkItemTreeNode[];
    const p = projects.find((n) => n.kind === 'project' && n.projectId === '3001');
    assert.ok(p);
    project = (await vscode.commands.executeCommand('workItemStudio.openWorkItemTable', p)) as TablePanel;
    await project.whenLoaded();
  });

  after(async () => {
    await config().update('organizations', organizationsBefore, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('leaders and assignees are shown by name (read through the people directory), and "leader is" takes a name learned that way', async () => {
    await project.namesSettled();
    const rows = project.allRows();
    const leaders = new Set(rows.map((r) => r.fields['LeaderId']).filter((v): v is string => typeof v === 'string' && v !== '0'));
    const parties = new Set(rows.flatMap((r) => (Array.isArray(r.fields['Assignments']) ? (r.fields['Assignments'] as { partyId: string }[]).map((a) => a.partyId) : [])));
    assert.ok(leaders.size > 0 && parties.size > 0);
    for (const id of [...leaders, ...parties]) assert.ok(project.userName(id) && project.userName(id) !== id, `user ${id} has a name in the table`);
    const someLeader = [...leaders][0]!;
    const count = project.setFilterText(`leader:"${project.userName(someLeader)!}"`, true);
    assert.deepEqual(count.errors, []);
    assert.equal(count.matches, rows.filter((r) => r.fields['LeaderId'] === someLeader).length);
    await waitFor('the filtered view', async () => (project.viewRows().length === count.matches ? true : undefined));
    project.setFilterText('', true);
  });

  it('a table opened on a level-2 folder shows the parent paths of the project table (the folder\'s ancestors first)', async () => {
    let folder: WorkItemTreeNode | undefined = node121.tree.getParent(node121);
    while (folder && folder.kind !== 'workItem') folder = node121.tree.getParent(folder);
    assert.ok(folder && folder.kind === 'workItem' && folder.row.level >= 2, 'the parent of 121 is a work item on level 2 or below');
    const table = (await vscode.commands.executeCommand('workItemStudio.openWorkItemTable', folder)) as TablePanel;
    await table.whenLoaded();
    const inProject = new Map(project.allRows().map((r) => [r.id, r.fields['ParentName']]));
    assert.ok(table.allRows().length > 0);
    for (const r of table.allRows()) assert.equal(r.fields['ParentName'], inProject.get(r.id), `row ${r.id}`);
    assert.ok(String(table.allRows()[0]!.fields['ParentName']).includes(' / '), 'the path starts above the folder');
  });
});
