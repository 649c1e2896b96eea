// Commands of the Work Items view: act on the selected (or checked) work items,
// take a folder's items at once, and find a request document's items in the tree.
import * as vscode from 'vscode';
import { askTextFilter, targets } from '../views/common';
import { abortOn } from '../common/abortOn';
import { registerCommand, UserInputError } from '../common/commands';
import { readSettings } from '../common/config';
import { workItemsText } from '../common/wording';
import { activeRequestDocument } from '../common/activeRequestDocument';
import { isRequestDocument } from '../common/requestDocument';
import type { TemplateId } from '../schema/templates';
import type { DetailsDocuments } from '../views/common';
import { findPaths, flattenSubtree, learnSubtree, lowestLevel, type Ancestry } from './model/hierarchy';
import { PROJECT_FILTER_FIELDS } from './model/projects';
import { appendIds, documentIds } from './model/requestIds';
import { idText } from './model/rows';
import { ProjectNode, WorkItemNode, WORK_ITEMS_VIEW, type LevelOwner, type WorkItemsTree, type WorkItemTreeNode } from './tree';
import { core } from '../core/load';

/** Options for scripted use (tests, other commands). */
export interface WorkItemCommandOptions {
  template?: TemplateId;
  /** Select Subtree: only items without sub-items (not folders). */
  lowestOnly?: boolean;
  /** Reveal Work Items: these IDs instead of the active request document's. */
  ids?: string[];
}

function optionsOf(args: unknown[]): WorkItemCommandOptions {
  for (const a of args) {
    if (a && typeof a === 'object' && !Array.isArray(a) && !(a instanceof vscode.Uri) && ('template' in a || 'lowestOnly' in a || 'ids' in a)) {
      return a as WorkItemCommandOptions;
    }
  }
  return {};
}

const isNode = (a: unknown): a is WorkItemTreeNode => !!a && typeof a === 'object' && 'id' in a && 'kind' in a;

/**
 * The work items a command acts on: the checked items when some are checked and the
 * command was not started on an unchecked row; otherwise the selected rows (or the
 * clicked one). Each ID once, in order.
 */
export function targetIds(tree: WorkItemsTree, view: vscode.TreeView<WorkItemTreeNode> | undefined, clicked?: unknown, selected?: unknown): string[] {
  const c = isNode(clicked) ? clicked : undefined;
  const sel = Array.isArray(selected) ? selected.filter(isNode) : undefined;
  if (tree.checked.size > 0 && (!c || (c instanceof WorkItemNode && tree.checked.has(c.itemId)))) return [...tree.checked];
  const nodes = targets<WorkItemTreeNode>(c, sel, view?.selection ?? []);
  return [...new Set(nodes.filter((n): n is WorkItemNode => n instanceof WorkItemNode).map((n) => n.itemId))];
}

function nothingSelected(): void {
  void vscode.window.showInformationMessage(vscode.l10n.t('Select or check work items in the Work Items view first.'));
}

/** New Work Item Update of the request editors (src/editors), passed in by src/extension.ts: opens a new request document for `ids`. */
export type NewUpdateHook = (options: { ids: string[]; template?: TemplateId }) => Promise<unknown>;

export function registerWorkItemCommands(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  tree: WorkItemsTree,
  view: vscode.TreeView<WorkItemTreeNode>,
  details: DetailsDocuments,
  newUpdate: NewUpdateHook,
): void {
  const cmd = (id: string, handler: (...args: any[]) => unknown) => registerCommand(context, log, id, handler);

  cmd('workItemStudio.refreshWorkItems', (clicked?: unknown) => {
    tree.refresh(clicked instanceof ProjectNode || clicked instanceof WorkItemNode ? clicked : undefined);
  });
  cmd('workItemStudio.loadMoreProjects', () => tree.loadMore());

  cmd('workItemStudio.filterProjects', async () => {
    const filter = await askTextFilter(vscode.l10n.t('Filter Projects'), PROJECT_FILTER_FIELDS, tree.state.filter, 'name:Web code:P01');
    if (!filter) return;
    tree.state.filter = filter;
    tree.queryChanged();
  });
  cmd('workItemStudio.clearProjectFilter', () => {
    tree.state.filter = {};
    tree.state.hideFinished = false;
    tree.queryChanged();
  });
  cmd('workItemStudio.hideFinishedProjects', () => {
    tree.state.hideFinished = true;
    tree.queryChanged();
  });
  cmd('workItemStudio.showFinishedProjects', () => {
    tree.state.hideFinished = false;
    tree.queryChanged();
  });

  // ---------------------------------------------------------------------------
  // Acting on the selection
  // ---------------------------------------------------------------------------

  cmd('workItemStudio.updateSelectedWorkItems', async (...args: unknown[]) => {
    // Checked items win for every entry point: the view title passes the focused row as a context menu passes the clicked one.
    const ids = tree.checked.size > 0 ? [...tree.checked] : targetIds(tree, view, args[0], args[1]);
    if (ids.length === 0) return nothingSelected();
    const options = optionsOf(args);
    if (options.template && !core().templateById(options.template)) throw new UserInputError(vscode.l10n.t('Unknown template "{0}".', String(options.template)));
    return newUpdate({ ids, template: options.template });
  });

  cmd('workItemStudio.addToRequestDocument', async (clicked?: unknown, selected?: unknown) => {
    const ids = targetIds(tree, view, clicked, selected);
    if (ids.length === 0) return nothingSelected();
    const doc = await pickRequestDocument();
    if (!doc) return undefined;
    const editor = vscode.window.visibleTextEditors.find((e) => e.document === doc);
    const eol = doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
    const insertSpaces = editor ? editor.options.insertSpaces !== false : true;
    const tabSize = editor && typeof editor.options.tabSize === 'number' ? editor.options.tabSize : 2;
    const r = appendIds(doc.getText(), ids, { eol, insertSpaces, tabSize });
    const name = doc.uri.path.split('/').pop() ?? doc.uri.toString();
    if (!r.ok) {
      throw new UserInputError(
        r.problem === 'ids-not-array'
          ? vscode.l10n.t('{0}: workItemIds is not a list, so the IDs cannot be added. Fix the document first.', name)
          : vscode.l10n.t('{0} is not a valid JSON object, so the IDs cannot be added. Fix the document first.', name),
        doc.uri,
      );
    }
    if (r.added.length > 0) {
      const edit = new vscode.WorkspaceEdit();
      for (const e of r.edits) edit.replace(doc.uri, new vscode.Range(doc.positionAt(e.offset), doc.positionAt(e.offset + e.length)), e.content);
      if (!(await vscode.workspace.applyEdit(edit))) throw new UserInputError(vscode.l10n.t('{0} could not be edited.', name), doc.uri);
    }
    await vscode.window.showTextDocument(doc, { preview: false, preserveFocus: true });
    const one = r.added.length === 1;
    const message =
      r.present > 0
        ? one
          ? vscode.l10n.t('Added 1 work item ID to {0} ({1} already listed).', name, String(r.present))
          : vscode.l10n.t('Added {0} work item IDs to {1} ({2} already listed).', String(r.added.length), name, String(r.present))
        : one
          ? vscode.l10n.t('Added 1 work item ID to {0}.', name)
          : vscode.l10n.t('Added {0} work item IDs to {1}.', String(r.added.length), name);
    vscode.window.setStatusBarMessage(message, 5000);
    log.info(`Add to request document ${name}: ${r.added.length} added, ${r.present} already listed.`);
    return { document: doc.uri.toString(), added: r.added, present: r.present };
  });

  cmd('workItemStudio.copyWorkItemIds', async (clicked?: unknown, selected?: unknown) => {
    const ids = targetIds(tree, view, clicked, selected);
    if (ids.length === 0) return nothingSelected();
    await vscode.env.clipboard.writeText(ids.join('\n'));
    vscode.window.setStatusBarMessage(vscode.l10n.t('Copied {0} ID(s).', String(ids.length)), 3000);
    return ids;
  });

  cmd('workItemStudio.showWorkItemDetails', async (clicked?: unknown, selected?: unknown) => {
    const c = isNode(clicked) ? clicked : undefined;
    if (c instanceof ProjectNode) {
      const d = c.details();
      return details.show(d.title, d.value);
    }
    const ids = targetIds(tree, view, clicked, selected);
    if (ids.length === 0) return nothingSelected();
    const r = await vscode.window.withProgress(
      { location: { viewId: WORK_ITEMS_VIEW }, title: vscode.l10n.t('Reading work items') },
      () => tree.connection.run((cl) => core().readWorkItems(cl, ids, { maxUrlLength: readSettings().bulk.maxUrlLength }), {}),
    );
    const values = ids.map((id) => r.items.get(id)).filter((v) => v !== undefined);
    if (values.length === 0) throw new UserInputError(ids.length === 1 ? vscode.l10n.t('Work item {0} does not exist any more.', ids[0]!) : vscode.l10n.t('None of the {0} work items exists any more.', String(ids.length)));
    if (r.missing.length > 0) void vscode.window.showWarningMessage(vscode.l10n.t('Not found (deleted, or not visible to you): {0}', r.missing.join(', ')));
    return details.show(values.length === 1 ? `workitem-${ids[0]}` : `workitems-${ids[0]}-and-${values.length - 1}-more`, values.length === 1 ? values[0] : values);
  });

  // ---------------------------------------------------------------------------
  // Taking a folder's items at once
  // ---------------------------------------------------------------------------

  const ownerOf = (clicked: unknown): LevelOwner | undefined => {
    if (clicked instanceof ProjectNode || clicked instanceof WorkItemNode) return clicked;
    const s = view.selection.find((n): n is LevelOwner => n instanceof ProjectNode || n instanceof WorkItemNode);
    return s;
  };

  cmd('workItemStudio.selectChildren', async (clicked?: unknown) => {
    const owner = ownerOf(clicked);
    if (!owner) return nothingSelected();
    const rows = await tree.loadChildren(owner);
    const ids = rows.filter((r) => !r.isDeleted).map((r) => r.id);
    tree.setChecked(ids, 'add');
    void view.reveal(owner, { expand: true, select: false, focus: false }).then(undefined, () => undefined);
    vscode.window.setStatusBarMessage(vscode.l10n.t('Checked {0}.', workItemsText(ids.length)), 5000);
    return ids;
  });

  cmd('workItemStudio.selectSubtree', async (...args: unknown[]) => {
    const owner = ownerOf(args[0]);
    if (!owner) return nothingSelected();
    let lowestOnly = optionsOf(args).lowestOnly;
    if (lowestOnly === undefined) {
      const all = { label: vscode.l10n.t('All Items in the Subtree'), lowest: false };
      const lowest = { label: vscode.l10n.t('Lowest-Level Items Only'), detail: vscode.l10n.t('Items without sub-items (no folders)'), lowest: true };
      const pick = await vscode.window.showQuickPick([all, lowest], { title: vscode.l10n.t('Select Subtree') });
      if (!pick) return undefined;
      lowestOnly = pick.lowest;
    }
    const id = owner instanceof ProjectNode ? owner.rootId : owner.itemId;
    if (!id) return [];
    const level = owner instanceof ProjectNode ? 0 : owner.row.level;
    const projectId = owner instanceof ProjectNode ? owner.projectId : tree.projectIdOf(owner.itemId);
    const entries = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Reading the subtree'), cancellable: true },
      async (_p, token) => {
        const abort = abortOn(token);
        try {
          // The whole subtree of this one item (no depth): the user asked for all of it. The project's
          // profile (read once) says which items are folders; without it, the subtree's shape does.
          const [types, node] = await Promise.all([
            tree.types.load(projectId, abort.signal),
            tree.fieldPolicy.read(tree.fieldPolicy.fieldsFor(tree.types.known(projectId)), (fields) =>
              tree.reads((c) => c.getSubItems(id, { fields }, { signal: abort.signal }), abort.signal),
            ),
          ]);
          const flat = flattenSubtree(node, level);
          learnSubtree(types, node, level, flat);
          return { flat, types };
        } finally {
          abort.dispose();
        }
      },
    );
    const { flat, types } = entries;
    const rows = lowestOnly ? lowestLevel(flat, (r) => types.isFolder(r)) : flat.map((e) => e.row).filter((r) => !r.isDeleted);
    const ids = rows.map((r) => r.id);
    tree.setChecked(ids, 'add');
    vscode.window.setStatusBarMessage(vscode.l10n.t('Checked {0}.', workItemsText(ids.length)), 5000);
    log.info(`Select subtree of ${id}: ${ids.length} of ${flat.length} items checked${lowestOnly ? ' (lowest level only)' : ''}.`);
    return ids;
  });

  cmd('workItemStudio.clearCheckedWorkItems', () => tree.setChecked([], 'replace'));

  // ---------------------------------------------------------------------------
  // From a request document: its items in the tree
  // ---------------------------------------------------------------------------

  cmd('workItemStudio.revealWorkItems', async (...args: unknown[]) => {
    const options = optionsOf(args);
    let ids = options.ids;
    if (!ids) {
      const uri = args.find((a): a is vscode.Uri => a instanceof vscode.Uri);
      const doc = uri ? await vscode.workspace.openTextDocument(uri) : await activeRequestDocument();
      if (!doc || !isRequestDocument(doc)) throw new UserInputError(vscode.l10n.t('Open a request document (*.workitems.json) whose work items to reveal.'));
      ids = documentIds(doc.getText());
      if (!ids) throw new UserInputError(vscode.l10n.t('The document has no workItemIds list.'), doc.uri);
    }
    ids = [...new Set(ids)];
    if (ids.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('The document lists no work item IDs.'));
      return [];
    }
    if (!tree.connection.current) return vscode.commands.executeCommand('workItemStudio.connect');
    return vscode.window.withProgress({ location: { viewId: WORK_ITEMS_VIEW } }, () => revealIds(tree, view, ids!, log));
  });
}

/** The request document to add to: the active one (also while its file is being read), the only one open, or the one the user picks. */
async function pickRequestDocument(): Promise<vscode.TextDocument | undefined> {
  const active = await activeRequestDocument();
  if (active) return active;
  const visible = vscode.window.visibleTextEditors.map((e) => e.document).filter(isRequestDocument);
  const open = [...new Set([...visible, ...vscode.workspace.textDocuments.filter((d) => !d.isClosed && isRequestDocument(d))])];
  if (open.length === 1) return open[0];
  if (open.length === 0) {
    const create = vscode.l10n.t('Update Selected Work Items…');
    const pick = await vscode.window.showInformationMessage(
      vscode.l10n.t('No request document (*.workitems.json) is open. Open one to add the IDs to, or create one from the selection.'),
      create,
    );
    if (pick === create) await vscode.commands.executeCommand('workItemStudio.updateSelectedWorkItems');
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(
    open.map((d) => ({ label: d.uri.path.split('/').pop() ?? d.uri.toString(), description: d.isDirty ? vscode.l10n.t('unsaved') : undefined, doc: d })),
    { title: vscode.l10n.t('Add to Request Document'), placeHolder: vscode.l10n.t('Which request document gets the IDs?') },
  );
  return pick?.doc;
}

/** At most this many items are revealed one by one (all are checked). */
const MAX_REVEALED = 25;

/**
 * Checks the items in the tree and reveals them: reads the ParentId chain of each
 * (one batched GET per level, for all of them together), loads the levels on the
 * way down, then reveals. Returns the nodes found.
 */
export async function revealIds(tree: WorkItemsTree, view: vscode.TreeView<WorkItemTreeNode> | undefined, ids: string[], log: vscode.LogOutputChannel): Promise<WorkItemNode[]> {
  const maxUrlLength = readSettings().bulk.maxUrlLength;
  const roots = (): Set<string> => new Set(tree.loadedProjects.map((p) => (p.workItemRootFolderId == null ? '' : String(p.workItemRootFolderId))).filter(Boolean));
  await tree.projectsSettled();
  let rootIds = roots();
  const read = async (ask: string[]): Promise<Map<string, Ancestry>> => {
    const r = await tree.connection.run((c) => core().readWorkItems(c, ask, { fields: ['Id', 'ParentId', 'ProjectId'], maxUrlLength }), {});
    const out = new Map<string, Ancestry>();
    // "0" is no parent (the project's root folder) and no project.
    for (const [id, rec] of r.items) out.set(id, { parentId: idText(rec.fields['ParentId']), projectId: idText(rec.fields['ProjectId']) });
    return out;
  };
  const found = await findPaths(ids, read, (id) => !!tree.hierarchy.locate(id) || rootIds.has(id));
  const nodes: WorkItemNode[] = [];
  const failed: string[] = [];
  for (const id of ids) {
    const path = found.paths.get(id);
    if (!path) continue;
    try {
      // The top of the path: a loaded item, or the project's root folder.
      let owner: LevelOwner | undefined = tree.hierarchy.locate(path[0]!) ? tree.nodeOf(path[0]!) : tree.ownerOf(path[0]!);
      if (!owner) {
        const projectId = found.projects.get(id);
        const project = projectId ? await tree.ensureProject(projectId) : undefined;
        rootIds = roots();
        if (project?.rootId) rootIds.add(project.rootId);
        owner = project && project.rootId === path[0] ? project : undefined;
      }
      if (!owner) {
        failed.push(id);
        continue;
      }
      // Load each level on the way down (path[0] is the owner already).
      for (let i = 1; i < path.length; i++) {
        await tree.loadChildren(owner);
        const next = tree.nodeOf(path[i]!);
        if (!next) break;
        owner = next;
      }
      const node = tree.nodeOf(id);
      if (node) nodes.push(node);
      else failed.push(id);
    } catch (e) {
      log.warn(`Reveal ${id}: ${e instanceof Error ? e.message : String(e)}`);
      failed.push(id);
    }
  }
  tree.setChecked(
    nodes.map((n) => n.itemId),
    'replace',
  );
  if (view) {
    for (const n of nodes.slice(0, MAX_REVEALED).reverse()) {
      await view.reveal(n, { select: n === nodes[0], focus: n === nodes[0], expand: false }).then(undefined, (e: unknown) => log.warn(`Reveal: ${String(e)}`));
    }
  }
  const notFound = [...found.missing, ...failed];
  log.info(`Reveal work items: ${nodes.length} of ${ids.length} found (${found.reads} GET for the paths).`);
  if (notFound.length > 0) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t('Not found in the tree ({0} of {1}): {2}', String(notFound.length), workItemsText(ids.length), notFound.slice(0, 10).join(', ') + (notFound.length > 10 ? ' …' : '')),
    );
  }
  return nodes;
}
