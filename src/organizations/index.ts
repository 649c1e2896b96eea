// The Organizations feature: the view of the configured root organizations, their
// sub-organizations and users, and its commands. Registration only: nothing is read
// before the view asks for rows.
import * as vscode from 'vscode';
import type { ConnectionManager } from '../common/connection';
import { describeServiceOf, type DetailsDocuments } from '../views/common';
import { registerOrganizationCommands } from './commands';
import { rootChoices } from './model/rootChoices';
import type { OrgTreeNode } from './nodes';
import { ORGANIZATIONS_VIEW_ID, OrganizationsTree } from './tree';

export interface OrganizationsFeature {
  tree: OrganizationsTree;
  view: vscode.TreeView<OrgTreeNode>;
  /** The top organizations of the signed-in user's tree (no sign-in prompt; empty where the service cannot say). */
  topOrganizations(): Promise<string[]>;
}

export function registerOrganizations(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, connection: ConnectionManager, details: DetailsDocuments): OrganizationsFeature {
  const tree = new OrganizationsTree(connection, log);
  const view = vscode.window.createTreeView(ORGANIZATIONS_VIEW_ID, {
    treeDataProvider: tree,
    canSelectMany: true,
    showCollapseAll: true,
  });
  tree.view = view;
  context.subscriptions.push(tree, view, tree.trackExpansion(view), describeServiceOf(view as vscode.TreeView<unknown>, connection));
  registerOrganizationCommands(context, log, tree, view as vscode.TreeView<unknown>, details);
  const topOrganizations = async (): Promise<string[]> => {
    if (!connection.current) return [];
    const r = await connection.run((c) => rootChoices(c, [], { depth: 0 }), { background: true });
    return r.choices.filter((c) => c.level === 0).map((c) => c.id);
  };
  return { tree, view, topOrganizations };
}
