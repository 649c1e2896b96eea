// Commands of the Process Categories view.
import * as vscode from 'vscode';
import { registerCommand } from './register';
import { PROCESS_CATEGORY_ORDER_FIELDS } from '../schema/api';
import type { ProcessCategoriesTree } from '../views/processCategoriesTree';
import { CATEGORY_FILTER_FIELDS, formatFilter, parseFilter, type CategoryFilterField, type DeletedMode, type SortDirection } from '../views/model/filters';
import { filterProblem } from './organizations';

export function registerCategoryCommands(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, tree: ProcessCategoriesTree): void {
  registerCommand(context, log, 'workItemStudio.refreshProcessCategories', () => tree.refresh());
  registerCommand(context, log, 'workItemStudio.loadMoreProcessCategories', () => tree.loadMore());

  registerCommand(context, log, 'workItemStudio.loadAllProcessCategories', async () => {
    if (!tree.connection.current) return vscode.commands.executeCommand('workItemStudio.connect');
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Loading all process categories'), cancellable: true },
      async (progress, token) => {
        let last = tree.loadedCount;
        await tree.loadAll(token, (loaded, total) => {
          const increment = total ? ((loaded - last) / total) * 100 : undefined;
          last = loaded;
          progress.report({ message: total !== undefined ? vscode.l10n.t('{0} of {1}', String(loaded), String(total)) : String(loaded), increment });
        });
      },
    );
  });

  registerCommand(context, log, 'workItemStudio.sortProcessCategories', async () => {
    interface SortItem extends vscode.QuickPickItem {
      order?: { field: string; direction: SortDirection };
    }
    const current = tree.state.orderBy;
    const items: SortItem[] = [{ label: vscode.l10n.t('Service Default Order'), picked: !current }];
    for (const field of PROCESS_CATEGORY_ORDER_FIELDS) {
      for (const direction of ['asc', 'desc'] as const) {
        items.push({
          label: `${direction === 'asc' ? '$(arrow-up)' : '$(arrow-down)'} ${field}`,
          description: direction === 'asc' ? vscode.l10n.t('ascending') : vscode.l10n.t('descending'),
          order: { field, direction },
        });
      }
    }
    const active = items.find((i) => (current ? i.order?.field === current.field && i.order.direction === current.direction : !i.order));
    const pick = await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('Sort Process Categories'),
      placeHolder: active ? vscode.l10n.t('Current: {0} {1}', active.label, active.description ?? '') : undefined,
    });
    if (!pick) return;
    tree.state.orderBy = pick.order;
    tree.queryChanged();
  });

  registerCommand(context, log, 'workItemStudio.filterProcessCategories', async () => {
    const value = await vscode.window.showInputBox({
      title: vscode.l10n.t('Filter Process Categories'),
      prompt: vscode.l10n.t('name:…, code:…, keyword:… (text without a field is a keyword: name or code contains it). Empty clears the filter.'),
      value: formatFilter(tree.state.filter, CATEGORY_FILTER_FIELDS),
      placeHolder: 'name:Design code:D',
      validateInput: (v) => filterProblem(parseFilter<CategoryFilterField>(v, CATEGORY_FILTER_FIELDS, 'keyword')),
    });
    if (value === undefined) return;
    const parsed = parseFilter<CategoryFilterField>(value, CATEGORY_FILTER_FIELDS, 'keyword');
    if (!parsed.ok) return;
    tree.state.filter = parsed.filter;
    tree.queryChanged();
  });

  registerCommand(context, log, 'workItemStudio.clearProcessCategoryFilter', () => tree.clearFilter());

  registerCommand(context, log, 'workItemStudio.showDeletedProcessCategories', async () => {
    interface DeletedItem extends vscode.QuickPickItem {
      mode: DeletedMode;
    }
    const items: DeletedItem[] = [
      { mode: 'hide', label: vscode.l10n.t('Hide Deleted Categories'), description: vscode.l10n.t('default') },
      { mode: 'include', label: vscode.l10n.t('Include Deleted Categories'), description: 'includeDeleted=true' },
      { mode: 'only', label: vscode.l10n.t('Only Deleted Categories'), description: 'includeDeleted=true&isDeleted=true' },
    ];
    for (const i of items) if (i.mode === tree.state.deleted) i.label = `$(check) ${i.label}`;
    const pick = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Deleted Process Categories') });
    if (!pick) return;
    tree.state.deleted = pick.mode;
    tree.queryChanged();
  });
}
