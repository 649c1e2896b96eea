// The work item table: a webview editor tab listing work items with chosen columns, sort,
// resize and reorder remembered per project, a filter bar (typed, or built from pickers)
// with named filters, and "Use Filtered Items in a Request Document". Its unsent edits are
// kept per project and service, and the tab comes back after a window reload (its
// serializer). Registration only: nothing is read before a table is opened.
import * as vscode from 'vscode';
import { parse } from 'jsonc-parser';
import { registerCommand, reportError, UserInputError } from '../common/commands';
import { addRow, addSubItem, duplicateRows, pasteNewItems } from './addCommands';
import { activeRequestDocument } from '../common/activeRequestDocument';
import { isRequestDocumentUri } from '../common/requestDocument';
import type { FilterCondition } from './model';
import { addCondition, chooseColumns, pickCondition, pickNamedFilter, saveNamedFilter } from './filterBar';
import type { KeptStore } from './model';
import { TABLE_VIEW_TYPE, TablePanel } from './panel';
import { closeQuestion, modalTablePrompts, unsentEdits, type TablePrompts } from './pending';
import { readViewState } from './protocol';
import { reviewChanges, type ReviewMode } from './review';
import { exportTableFile, importIntoTable, type ExportArgs, type ImportArgs } from './csvCommands';
import type { TableDeps, TableHost, TableSource } from './types';
import type { BarCommand } from './protocol';
import { core } from '../core/load';

export type { TableHost } from './types';
export type { TablePrompts } from './pending';
export { TablePanel } from './panel';

/** Context key: a work item table is the active editor tab. */
export const TABLE_ACTIVE = 'workItemStudio.tableActive';

/** The tab serializer; it answers with the table restored (VS Code ignores the answer, tests take it). */
export interface TableSerializer {
  deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<TablePanel | undefined>;
}

export interface TableFeature {
  /** The table last active (tests). */
  readonly active: TablePanel | undefined;
  readonly panels: ReadonlySet<TablePanel>;
  /** What VS Code calls to restore a table tab after a window reload (tests call it the same way). */
  readonly serializer: TableSerializer;
  /** Answers given replace the dialogs about kept edits; undefined shows the dialogs again. */
  setPrompts(answers: Partial<TablePrompts> | undefined): void;
}

interface ProjectLike { kind: 'project'; projectId: string; rootId?: string; project: { name?: string } }
interface ItemLike { kind: 'workItem'; itemId: string; row: { level: number; name: string } }
const isProject = (a: unknown): a is ProjectLike => typeof a === 'object' && a !== null && (a as { kind?: unknown }).kind === 'project' && typeof (a as ProjectLike).projectId === 'string';
const isItem = (a: unknown): a is ItemLike => typeof a === 'object' && a !== null && (a as { kind?: unknown }).kind === 'workItem' && typeof (a as ItemLike).itemId === 'string';

/** The IDs of a request document's `workItemIds` (strings or numbers), or undefined when it has none. */
export function requestDocumentIds(text: string): string[] | undefined {
  const json = parse(text, [], { allowTrailingComma: true }) as { workItemIds?: unknown } | undefined;
  const ids = json && typeof json === 'object' ? json.workItemIds : undefined;
  if (!Array.isArray(ids)) return undefined;
  return ids.flatMap((v) => (typeof v === 'string' && v.trim() !== '' ? [v.trim()] : typeof v === 'number' && Number.isFinite(v) ? [String(v)] : []));
}

export function registerTable(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, host: TableHost): TableFeature {
  const panels = new Set<TablePanel>();
  let active: TablePanel | undefined;
  const setActive = (p: TablePanel | undefined): void => {
    active = p;
    void vscode.commands.executeCommand('setContext', TABLE_ACTIVE, p !== undefined && p.panel.active);
  };

  let prompts: TablePrompts = modalTablePrompts;
  // Made when the first table opens (the model is the core's, loaded on first use, not at activation). Without a
  // workspace, workspaceState is not kept for the next window: the user's globalState then.
  let store: KeptStore | undefined;
  const kept = (): KeptStore =>
    (store ??= new (core().KeptStore)(() => (vscode.workspace.workspaceFolders?.length ? context.workspaceState : context.globalState), {
      onError: (key, e) => log.warn(`Work item table: the unsent edits were not written (${key}): ${e instanceof Error ? e.message : String(e)}`),
    }));
  context.subscriptions.push({ dispose: () => void store?.dispose() });
  const deps: TableDeps = {
    log,
    extensionUri: context.extensionUri,
    state: context.workspaceState,
    kept,
    prompts: () => prompts,
    connection: host.connection,
    catalogue: host.catalogue,
    users: host.users,
    // A button of the bar: its errors are shown as the palette command's would be.
    onCommand: (panel, name) => barCommand(panel, name).catch((e: unknown) => reportError(log, e)),
  };

  const barCommand = async (panel: TablePanel, name: BarCommand): Promise<void> => {
    switch (name) {
      case 'build':
        await addConditionTo(panel);
        return;
      case 'named': {
        const f = await pickNamedFilter(log);
        if (f) panel.applyFilterText(core().formatFilterText(f.filter));
        return;
      }
      case 'save':
        await saveNamedFilter(panel);
        return;
      case 'columns':
        await chooseColumns(panel);
        return;
      case 'useInRequest':
        await useInRequest(panel);
        return;
      case 'review':
        await reviewChanges(panel, log);
        return;
      case 'export': {
        const picked = await vscode.window.showQuickPick(
          [
            { label: vscode.l10n.t('Export Table as CSV…'), format: 'csv' as const },
            { label: vscode.l10n.t('Export Table as TSV…'), format: 'tsv' as const },
          ],
          { title: vscode.l10n.t('Export Table') },
        );
        if (picked) await exportTableFile(panel, log, { format: picked.format });
        return;
      }
      case 'import':
        await importIntoTable(panel, log, {}, context.workspaceState);
        return;
      case 'discard':
        await discardEdits(panel);
        return;
      case 'addRow':
        addRow(panel);
        return;
      case 'addSubItem':
        addSubItem(panel);
        return;
      case 'duplicateRows':
        duplicateRows(panel);
        return;
      case 'pasteNewItems':
        await pasteNewItems(panel, log);
        return;
    }
  };

  const discardEdits = async (panel: TablePanel): Promise<number> => {
    const count = panel.keeper.count;
    if (count === 0) throw new UserInputError(vscode.l10n.t('The table has no unsent edits to discard.'));
    const message = vscode.l10n.t('Discard {0} of {1}? Undo brings the edits back while the table is open.', unsentEdits(count), panel.source.title);
    if (!(await prompts.discardEdits({ count, message }))) return 0;
    log.info(`Work item table ${panel.source.title}: ${count} unsent edits discarded`);
    return panel.keeper.discard();
  };

  /** A tab closed by the user with unsent edits: they are written already; then asked what to do with them. */
  const closed = async (panel: TablePanel): Promise<void> => {
    const count = panel.keeper.count;
    await panel.keeper.flush();
    if (count === 0) return;
    const answer = await prompts.closeWithEdits({ title: panel.source.title, count, ...closeQuestion(panel.source.title, count) });
    log.info(`Work item table ${panel.source.title} closed with ${count} unsent edits: ${answer ?? 'dismissed'} (${answer === 'discard' ? 'discarded' : 'kept'})`);
    if (answer === 'discard') await panel.keeper.forget();
    else if (answer === 'reopen') await open(panel.source);
  };

  const addConditionTo = async (panel: TablePanel, condition?: FilterCondition): Promise<string | undefined> => {
    const c = await pickCondition(panel, condition ? { condition } : undefined);
    if (!c) return undefined;
    const text = addCondition(panel.currentFilterText, c);
    panel.applyFilterText(text);
    return text;
  };

  const useInRequest = async (panel: TablePanel, template?: string): Promise<unknown> => {
    const ids = panel.matchingIds();
    if (ids.length === 0) throw new UserInputError(vscode.l10n.t('No work item matches the filter: there is nothing to put in a request document.'));
    log.info(`Work item table ${panel.source.title}: ${ids.length} matching items to a new request document`);
    return host.newRequestDocument(ids, template);
  };

  const open = async (source: TableSource, restored?: ConstructorParameters<typeof TablePanel>[2]): Promise<TablePanel> => {
    const panel = new TablePanel(deps, source, restored);
    panels.add(panel);
    setActive(panel);
    context.subscriptions.push(panel);
    panel.panel.onDidChangeViewState((e) => {
      if (e.webviewPanel.active) setActive(panel);
      else if (active === panel) void vscode.commands.executeCommand('setContext', TABLE_ACTIVE, false);
    });
    panel.onDidDispose(() => {
      panels.delete(panel);
      if (active === panel) setActive(undefined);
    });
    panel.onDidClose(() => {
      panel.closing = closed(panel).catch((e: unknown) => reportError(log, e));
    });
    log.info(`Work item table opened: ${source.title}${source.rootId ? ` (subtree of ${source.rootId})` : ` (${source.ids?.length ?? 0} IDs)`}`);
    // Rows arrive while the tab is open; errors are reported by the command wrapper of the caller.
    void panel.start().catch((e: unknown) => reportError(log, e));
    return panel;
  };

  const selectedIds = (clicked?: unknown, selected?: unknown): string[] => {
    const wi = host.workItems;
    if (!wi) return [];
    const c = isItem(clicked) ? clicked : undefined;
    if (wi.tree.checked.size > 0 && (!c || wi.tree.checked.has(c.itemId))) return [...wi.tree.checked];
    const nodes = Array.isArray(selected) && selected.length > 0 ? selected : c ? [c] : wi.view.selection;
    return [...new Set(nodes.filter(isItem).map((n) => n.itemId))];
  };

  const openIds = (ids: string[], title: string): Promise<TablePanel> => {
    if (ids.length === 0) throw new UserInputError(vscode.l10n.t('Select or check work items in the Work Items view first, or open a request document with workItemIds.'));
    const projectId = host.workItems?.tree.projectIdOf?.(ids[0]!);
    return open({ title, ids, ...(projectId ? { projectId } : {}) });
  };

  const fromDocument = (doc: vscode.TextDocument): Promise<TablePanel> => {
    const ids = requestDocumentIds(doc.getText());
    if (!ids || ids.length === 0) throw new UserInputError(vscode.l10n.t('{0} has no workItemIds to show in a table.', vscode.workspace.asRelativePath(doc.uri)));
    const name = doc.uri.path.split('/').pop() ?? '';
    return openIds(ids, vscode.l10n.t('Table: {0}', name));
  };

  registerCommand(context, log, 'workItemStudio.openWorkItemTable', async (arg?: unknown, selected?: unknown) => {
    if (isProject(arg)) {
      if (!arg.rootId) throw new UserInputError(vscode.l10n.t("The service did not name this project's root folder (workItemRootFolderId)."));
      return open({ title: vscode.l10n.t('Table: {0}', arg.project.name ?? arg.projectId), projectId: arg.projectId, rootId: arg.rootId, level: 0, basePath: '' });
    }
    if (isItem(arg) && !(Array.isArray(selected) && selected.length > 1)) {
      const projectId = host.workItems?.tree.projectIdOf?.(arg.itemId);
      return open({ title: vscode.l10n.t('Table: {0}', arg.row.name), rootId: arg.itemId, level: arg.row.level, basePath: arg.row.name, ...(projectId ? { projectId } : {}) });
    }
    if (arg instanceof vscode.Uri && isRequestDocumentUri(arg)) return fromDocument(await vscode.workspace.openTextDocument(arg));
    const doc = arg ? undefined : await activeRequestDocument();
    if (doc) return fromDocument(doc);
    return openIds(selectedIds(arg, selected), vscode.l10n.t('Table: selected work items'));
  });
  registerCommand(context, log, 'workItemStudio.openSelectedInTable', (clicked?: unknown, selected?: unknown) => openIds(selectedIds(clicked, selected), vscode.l10n.t('Table: selected work items')));

  const requireActive = (): TablePanel => {
    if (!active) throw new UserInputError(vscode.l10n.t('Open a work item table first (Open Work Item Table).'));
    return active;
  };
  registerCommand(context, log, 'workItemStudio.useFilteredItemsInRequest', (template?: unknown) => useInRequest(requireActive(), typeof template === 'string' ? template : undefined));
  registerCommand(context, log, 'workItemStudio.addTableFilterCondition', (condition?: unknown) =>
    addConditionTo(requireActive(), typeof condition === 'object' && condition !== null ? (condition as FilterCondition) : undefined),
  );
  registerCommand(context, log, 'workItemStudio.applyNamedTableFilter', async () => {
    const panel = requireActive();
    const f = await pickNamedFilter(log);
    return f ? panel.applyFilterText(core().formatFilterText(f.filter)) : undefined;
  });
  registerCommand(context, log, 'workItemStudio.saveTableFilter', (answers?: unknown) =>
    saveNamedFilter(requireActive(), typeof answers === 'object' && answers !== null ? (answers as { name: string; target: 'workspace' | 'user' }) : undefined),
  );
  registerCommand(context, log, 'workItemStudio.chooseTableColumns', () => chooseColumns(requireActive()));
  const objectArg = <T>(a: unknown): T | undefined => (typeof a === 'object' && a !== null && !(a instanceof vscode.Uri) ? (a as T) : undefined);
  registerCommand(context, log, 'workItemStudio.reviewTableChanges', (mode?: unknown) =>
    reviewChanges(requireActive(), log, mode === 'documents' || mode === 'preview' ? (mode as ReviewMode) : undefined),
  );
  registerCommand(context, log, 'workItemStudio.exportTableCsv', (args?: unknown) => exportTableFile(requireActive(), log, { ...objectArg<ExportArgs>(args), format: 'csv' }));
  registerCommand(context, log, 'workItemStudio.exportTableTsv', (args?: unknown) => exportTableFile(requireActive(), log, { ...objectArg<ExportArgs>(args), format: 'tsv' }));
  registerCommand(context, log, 'workItemStudio.importIntoTable', (args?: unknown) => importIntoTable(requireActive(), log, objectArg<ImportArgs>(args) ?? {}, context.workspaceState));
  // Keys of the table's webview (keybindings with an activeWebviewPanelId clause): the page decides,
  // since a key in an open cell editor belongs to the editor's text.
  registerCommand(context, log, 'workItemStudio.undoTableEdit', () => requireActive().key('undo'));
  registerCommand(context, log, 'workItemStudio.redoTableEdit', () => requireActive().key('redo'));
  registerCommand(context, log, 'workItemStudio.fillDownTable', () => requireActive().key('fillDown'));
  registerCommand(context, log, 'workItemStudio.discardTableEdits', () => discardEdits(requireActive()));
  registerCommand(context, log, 'workItemStudio.addTableRow', () => addRow(requireActive()));
  registerCommand(context, log, 'workItemStudio.addTableSubItem', () => addSubItem(requireActive()));
  registerCommand(context, log, 'workItemStudio.duplicateTableRows', () => duplicateRows(requireActive()));
  registerCommand(context, log, 'workItemStudio.pasteTableNewItems', (text?: unknown) => pasteNewItems(requireActive(), log, typeof text === 'string' ? text : undefined));
  registerCommand(context, log, 'workItemStudio.refreshTableItems', () => {
    const panel = requireActive();
    return panel.reloadItems(panel.allRows().map((r) => r.id));
  });

  // After a send (or an undo document), the tables re-read the items the job touched: new
  // values shown, edits that now match what the service holds dropped.
  if (host.onDidFinishJob) {
    context.subscriptions.push(
      host.onDidFinishJob(({ result, plan }) => {
        const ids = [...new Set(result.requests.flatMap((r) => r.ids))];
        for (const panel of panels) {
          // New rows whose adds were sent give way to the items created, with their IDs.
          const sent = plan ? panel.additions.sentBy(plan, result.requests) : undefined;
          const reread = panel.reloadItems(ids, { afterSend: true });
          panel.reloading = (sent ? reread.then(async (n) => n + (await panel.additions.replace(sent.rows, sent.created))) : reread).catch((e: unknown) => {
            log.warn(`Work item table ${panel.source.title}: reading the items again failed: ${e instanceof Error ? e.message : String(e)}`);
            return 0;
          });
        }
      }),
    );
  }

  // A table tab restored with the window: the same source read again, its filter, selection and kept edits back.
  const serializer: TableSerializer = {
    deserializeWebviewPanel: async (webviewPanel, raw) => {
      const state = readViewState(raw);
      if (!state) {
        log.info('Work item table: a restored tab named no table; closed');
        webviewPanel.dispose();
        return undefined;
      }
      log.info(`Work item table restored: ${state.source.title}`);
      return open(state.source, { panel: webviewPanel, state });
    },
  };
  context.subscriptions.push(vscode.window.registerWebviewPanelSerializer(TABLE_VIEW_TYPE, { deserializeWebviewPanel: async (p, state) => void (await serializer.deserializeWebviewPanel(p, state)) }));

  return {
    get active() {
      return active;
    },
    panels,
    serializer,
    setPrompts: (answers) => {
      prompts = { ...modalTablePrompts, ...answers };
    },
  };
}
