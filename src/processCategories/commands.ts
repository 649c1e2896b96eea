// Commands of the Process Categories view.
import * as vscode from 'vscode';
import { registerCommand, UserInputError } from '../common/commands';
import type { ProcessCategoriesTree } from './tree';
import { CATEGORY_FILTER_FIELDS, type DeletedMode } from '../views/model/filters';
import { askTextFilter } from '../views/common';
import { parseSortText, sortText, type SortOrder } from '../views/model/sort';
import { core } from '../core/load';

/** "Code, ascending": a field and a direction as a person reads them. */
export function sortLabel(order: SortOrder): string {
  const field = sortFieldLabel(order.field);
  return order.direction === 'asc' ? vscode.l10n.t('{0}, ascending', field) : vscode.l10n.t('{0}, descending', field);
}

function sortFieldLabel(field: string): string {
  switch (field) {
    case 'id':
      return vscode.l10n.t('ID');
    case 'name':
      return vscode.l10n.t('Name');
    case 'code':
      return vscode.l10n.t('Code');
    case 'description':
      return vscode.l10n.t('Description');
    case 'groupId':
      return vscode.l10n.t('Group ID');
    case 'displayOrder':
      return vscode.l10n.t('Display order');
    case 'isDeleted':
      return vscode.l10n.t('Deleted');
    case 'createdAt':
      return vscode.l10n.t('Created at');
    case 'createdBy':
      return vscode.l10n.t('Created by');
    case 'updatedAt':
      return vscode.l10n.t('Updated at');
    case 'updatedBy':
      return vscode.l10n.t('Updated by');
    default:
      return field;
  }
}

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

  registerCommand(context, log, 'workItemStudio.sortProcessCategories', async (typed?: unknown) => {
    interface SortItem extends vscode.QuickPickItem {
      order?: SortOrder;
    }
    const current = tree.state.orderBy;
    const items: SortItem[] = [{ label: vscode.l10n.t('Service Default Order'), picked: !current }];
    for (const field of core().PROCESS_CATEGORY_ORDER_FIELDS) {
      for (const direction of ['asc', 'desc'] as const) {
        const order = { field, direction };
        items.push({ label: sortLabel(order), description: sortText(order), order });
      }
    }
    const apply = (order: SortOrder | undefined): void => {
      tree.state.orderBy = order;
      tree.queryChanged();
    };
    // Scripted use (tests, keybindings): the order as typed, e.g. "code asc".
    if (typeof typed === 'string') {
      const order = parseSortText(typed, core().PROCESS_CATEGORY_ORDER_FIELDS);
      if (!order) throw new UserInputError(vscode.l10n.t('"{0}" names no field to sort by.', typed));
      apply(order);
      return sortLabel(order);
    }
    const active = items.find((i) => (current ? i.order?.field === current.field && i.order.direction === current.direction : !i.order));
    const qp = vscode.window.createQuickPick<SortItem>();
    qp.title = vscode.l10n.t('Sort Process Categories');
    qp.placeholder = active ? vscode.l10n.t('Current: {0}. Type a field and a direction, e.g. "code asc".', active.label) : vscode.l10n.t('Type a field and a direction, e.g. "code asc".');
    qp.items = items;
    qp.matchOnDescription = true;
    if (active) qp.activeItems = [active];
    const picked = await new Promise<SortItem | undefined | 'typed'>((resolve) => {
      qp.onDidAccept(() => {
        const item = qp.selectedItems[0] ?? qp.activeItems[0];
        if (item) resolve(item);
        else if (parseSortText(qp.value, core().PROCESS_CATEGORY_ORDER_FIELDS)) resolve('typed');
      });
      qp.onDidHide(() => resolve(undefined));
      qp.show();
    });
    const value = qp.value;
    qp.dispose();
    if (!picked) return undefined;
    const order = picked === 'typed' ? parseSortText(value, core().PROCESS_CATEGORY_ORDER_FIELDS) : picked.order;
    apply(order);
    return order ? sortLabel(order) : undefined;
  });

  registerCommand(context, log, 'workItemStudio.filterProcessCategories', async () => {
    const filter = await askTextFilter(vscode.l10n.t('Filter Process Categories'), CATEGORY_FILTER_FIELDS, tree.state.filter, 'name:Design code:D');
    if (!filter) return;
    tree.state.filter = filter;
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
