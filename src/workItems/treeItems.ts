// How the Work Items view draws its rows (vscode.TreeItem): a project and a work item, with
// their icons, descriptions, tooltips, checkboxes and context values (the menus' `when`).
import * as vscode from 'vscode';
import type { ProjectNode, WorkItemNode } from './nodes';
import { isCompleted, itemKind, type WorkItemRow } from './model/rows';
import type { ProjectTypes } from './model/types';
import { appendLines, escapeMd, period, workItemTooltip, type UserNames } from './tooltip';

/** What a work item's row needs of the tree. */
export interface WorkItemRowSource {
  readonly checked: ReadonlySet<string>;
  readonly users?: UserNames;
  isExpandable(r: WorkItemRow): boolean;
  typesOf(itemId: string): ProjectTypes;
  nameOf(id: string): string | undefined;
}

/** The row of a project: name, code, finished or deleted, and a tooltip of its fields. */
export function projectTreeItem(node: ProjectNode): vscode.TreeItem {
  const p = node.project;
  const item = new vscode.TreeItem(p.name, vscode.TreeItemCollapsibleState.Collapsed);
  item.id = node.id;
  item.iconPath = new vscode.ThemeIcon('project', p.isFinished ? new vscode.ThemeColor('disabledForeground') : undefined);
  item.description = [p.code || undefined, p.isFinished ? vscode.l10n.t('finished') : undefined, p.isDeleted ? vscode.l10n.t('deleted') : undefined]
    .filter(Boolean)
    .join(' · ');
  const md = new vscode.MarkdownString(undefined, false);
  md.appendMarkdown(`**${escapeMd(p.name)}**\n\n`);
  const lines: [string, string | undefined][] = [
    [vscode.l10n.t('Code'), p.code ?? undefined],
    [vscode.l10n.t('Project ID'), node.projectId],
    [vscode.l10n.t('Root folder'), node.rootId],
    [vscode.l10n.t('Manager'), p.managerName ?? undefined],
    [vscode.l10n.t('Planned period'), period(p.plannedStartDate, p.plannedFinishDate)],
    [vscode.l10n.t('Organization'), p.organizationName ?? undefined],
    [vscode.l10n.t('Finished'), p.isFinished ? vscode.l10n.t('yes') : undefined],
  ];
  appendLines(md, lines);
  item.tooltip = md;
  item.contextValue = `project${p.isFinished ? ' finished' : ''}${node.rootId ? ' container' : ''}`;
  return item;
}

/** The row of a work item: icon by kind and state, code and progress, its tooltip, its checkbox. */
export function workItemTreeItem(node: WorkItemNode, tree: WorkItemRowSource): vscode.TreeItem {
  const r = node.row;
  const expandable = tree.isExpandable(r);
  const item = new vscode.TreeItem(r.name, expandable ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
  item.id = node.id;
  const done = isCompleted(r);
  const types = tree.typesOf(r.id);
  const folder = types.isFolder(r);
  const kind = itemKind(r, types);
  const icon = r.isDeleted ? 'trash' : kind === 'folder' ? 'folder' : kind === 'milestone' ? 'milestone' : done ? 'pass' : 'circle-large-outline';
  const color = r.isDeleted ? new vscode.ThemeColor('disabledForeground') : done ? new vscode.ThemeColor('testing.iconPassed') : undefined;
  item.iconPath = new vscode.ThemeIcon(icon, color);
  const progress = r.progress !== undefined ? `${r.progress}%` : undefined;
  item.description = [
    r.code,
    progress,
    done ? vscode.l10n.t('completed') : undefined,
    r.isDeleted ? vscode.l10n.t('deleted') : undefined,
  ]
    .filter(Boolean)
    .join(' · ');
  item.tooltip = workItemTooltip(r, { types, users: tree.users, folder, nameOf: (id) => tree.nameOf(id) });
  item.checkboxState = tree.checked.has(r.id) ? vscode.TreeItemCheckboxState.Checked : vscode.TreeItemCheckboxState.Unchecked;
  item.contextValue = `workItem ${expandable ? 'container' : 'leaf'}${folder ? ' folder' : ''}${r.isDeleted ? ' deleted' : ''}${done ? ' completed' : ''}`;
  item.accessibilityInformation = {
    label: [r.name, r.code, progress, done ? vscode.l10n.t('completed') : undefined, r.isDeleted ? vscode.l10n.t('deleted') : undefined].filter(Boolean).join(', '),
  };
  return item;
}
