// The Process Categories feature: the paged, filtered and ordered list of process
// categories, and its commands. Registration only: nothing is read before the view
// asks for rows.
import * as vscode from 'vscode';
import type { ConnectionManager } from '../common/connection';
import { registerCategoryCommands } from './commands';
import { describeServiceOf } from '../views/common';
import { ProcessCategoriesTree, type CategoryTreeNode, type CategoryUsers } from './tree';

export interface ProcessCategoriesFeature {
  tree: ProcessCategoriesTree;
  view: vscode.TreeView<CategoryTreeNode>;
}

export function registerProcessCategories(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  connection: ConnectionManager,
  users?: CategoryUsers,
): ProcessCategoriesFeature {
  const tree = new ProcessCategoriesTree(connection, log, undefined, users);
  const view = vscode.window.createTreeView('workItemStudio.processCategories', {
    treeDataProvider: tree,
    canSelectMany: true,
  });
  tree.view = view;
  context.subscriptions.push(tree, view, describeServiceOf(view as vscode.TreeView<unknown>, connection));
  registerCategoryCommands(context, log, tree);
  return { tree, view };
}
