// The Organizations feature: the view of the configured root organizations, their
// sub-organizations and users, and its commands. Registration only: nothing is read
// before the view asks for rows.
import * as vscode from 'vscode';
import type { ConnectionManager } from '../common/connection';
import type { DetailsDocuments } from '../views/common';
import { registerOrganizationCommands } from './commands';
import { ORGANIZATIONS_VIEW_ID, OrganizationsTree, type OrgTreeNode } from './tree';

export interface OrganizationsFeature {
  tree: OrganizationsTree;
  view: vscode.TreeView<OrgTreeNode>;
}

export function registerOrganizations(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, connection: ConnectionManager, details: DetailsDocuments): OrganizationsFeature {
  const tree = new OrganizationsTree(connection, log);
  const view = vscode.window.createTreeView(ORGANIZATIONS_VIEW_ID, {
    treeDataProvider: tree,
    canSelectMany: true,
    showCollapseAll: true,
  });
  tree.view = view;
  context.subscriptions.push(tree, view, tree.trackExpansion(view));
  registerOrganizationCommands(context, log, tree, view as vscode.TreeView<unknown>, details);
  return { tree, view };
}
