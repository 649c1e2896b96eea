// The sidebar: both tree views, their commands and the read-only details documents.
import * as vscode from 'vscode';
import type { ConnectionManager } from '../common/connection';
import { registerCategoryCommands } from '../commands/categories';
import { registerOrganizationCommands } from '../commands/organizations';
import { DetailsDocuments } from './common';
import { OrganizationsTree, type OrgTreeNode } from './organizationsTree';
import { ProcessCategoriesTree, type CategoryTreeNode } from './processCategoriesTree';

export interface Sidebar {
  organizations: OrganizationsTree;
  processCategories: ProcessCategoriesTree;
  organizationsView: vscode.TreeView<OrgTreeNode>;
  processCategoriesView: vscode.TreeView<CategoryTreeNode>;
  /** The read-only JSON documents of "Show Details" (one content provider for every view). */
  details: DetailsDocuments;
}

/** Registers the views (no request is made until a view asks for its rows). */
export function registerSidebar(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, connection: ConnectionManager): Sidebar {
  const details = new DetailsDocuments();
  const organizations = new OrganizationsTree(connection, log);
  const processCategories = new ProcessCategoriesTree(connection, log);
  const organizationsView = vscode.window.createTreeView('workItemStudio.organizations', {
    treeDataProvider: organizations,
    canSelectMany: true,
    showCollapseAll: true,
  });
  const processCategoriesView = vscode.window.createTreeView('workItemStudio.processCategories', {
    treeDataProvider: processCategories,
    canSelectMany: true,
  });
  organizations.view = organizationsView;
  context.subscriptions.push(organizations.trackExpansion(organizationsView));
  processCategories.view = processCategoriesView;
  context.subscriptions.push(details, organizations, processCategories, organizationsView, processCategoriesView);
  registerOrganizationCommands(context, log, organizations, organizationsView as vscode.TreeView<unknown>, details);
  registerCategoryCommands(context, log, processCategories);
  return { organizations, processCategories, organizationsView, processCategoriesView, details };
}
