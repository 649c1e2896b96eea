// The Work Items feature: the view, its commands, and the refresh of the rows an
// update changed. Registration only: nothing is read before the view asks for rows.
import * as vscode from 'vscode';
import type { JobPlan, JobResult } from '../bulk/types';
import type { ConnectionManager } from '../common/connection';
import { readSettings } from '../common/config';
import { describeError } from '../common/messages';
import { describeServiceOf, type DetailsDocuments } from '../views/common';
import { registerWorkItemCommands, type NewUpdateHook } from './commands';
import { appliedIds, parentsToReload } from './model/applied';
import type { UserNames } from './tooltip';
import { WORK_ITEMS_VIEW, WorkItemNode, WorkItemsTree, type WorkItemTreeNode } from './tree';

export interface WorkItemsDeps {
  details: DetailsDocuments;
  /** Fires when an update job ends (RequestJobs.onDidFinishJob). */
  onDidFinishJob: vscode.Event<{ result: JobResult; plan?: JobPlan }>;
  /** Users by ID (src/people's UserDirectory): the leader's name in a row's tooltip. */
  users?: UserNames;
  /** Update Selected Work Items… opens a request document through the request editors (src/editors). */
  newUpdate: NewUpdateHook;
}

export interface WorkItemsFeature {
  tree: WorkItemsTree;
  view: vscode.TreeView<WorkItemTreeNode>;
}

export function registerWorkItems(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, connection: ConnectionManager, deps: WorkItemsDeps): WorkItemsFeature {
  const tree = new WorkItemsTree(connection, log, deps.users);
  const view = vscode.window.createTreeView(WORK_ITEMS_VIEW, {
    treeDataProvider: tree,
    canSelectMany: true,
    showCollapseAll: true,
    manageCheckboxStateManually: true,
  });
  tree.view = view;
  context.subscriptions.push(
    tree,
    view,
    describeServiceOf(view as vscode.TreeView<unknown>, connection),
    view.onDidChangeCheckboxState((e) => {
      const on: string[] = [];
      const off: string[] = [];
      for (const [node, state] of e.items) {
        if (!(node instanceof WorkItemNode)) continue;
        (state === vscode.TreeItemCheckboxState.Checked ? on : off).push(node.itemId);
      }
      if (on.length > 0) tree.setChecked(on, 'add');
      if (off.length > 0) tree.setChecked(off, 'remove');
    }),
    // After a send: the rows of the items the service reported changed show their new values.
    deps.onDidFinishJob(({ result, plan }) => {
      // Items added or brought back: the levels they go in are read again.
      for (const parent of parentsToReload(result, plan, (id) => tree.shows(id))) if (tree.shows(parent) || tree.isLevelRoot(parent)) tree.reloadLevel(parent);
      const ids = appliedIds(result);
      if (ids.length === 0) return;
      tree.refreshItems(ids, readSettings().bulk.maxUrlLength).catch((e: unknown) => log.warn(`Work items: refresh after the update failed: ${describeError(e)}`));
    }),
  );
  registerWorkItemCommands(context, log, tree, view, deps.details, deps.newUpdate);
  return { tree, view };
}
