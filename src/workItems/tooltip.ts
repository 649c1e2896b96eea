// The tooltip of a work item row: its main fields, with the names of its item
// type and status from the project's profile, its leader's name from the users the
// extension knows, and its period from PlannedStartDate/PlannedFinishDate.
import * as vscode from 'vscode';
import { fieldText, hoursOf, idText, period, type WorkItemRow } from './model/rows';
import type { ProjectTypes } from './model/types';

/** Users by ID, as far as known (src/people's UserDirectory, passed in by extension.ts). */
export interface UserNames {
  lookup(id: string): { name: string; loginName?: string | null } | undefined;
  /** Makes the IDs known when a read can; true when some became known. */
  resolve?(ids: Iterable<string>): Promise<boolean>;
}

export interface TooltipContext {
  types: ProjectTypes;
  users?: UserNames;
  /** Whether the row is a folder (ProjectTypes.isFolder, with what the tree loaded). */
  folder: boolean;
  /** The name of a work item the tree has loaded (the item's folder, named by FolderId). */
  nameOf?: (id: string) => string | undefined;
}

/** A name and its ID, or the ID alone: `作業 (42)`, `42`. */
function named(name: string | undefined, id: string | undefined): string | undefined {
  if (id === undefined) return undefined;
  return name ? `${name} (${id})` : id;
}

/** The work item's leader's user ID ("0" is none). */
export function leaderIdOf(r: WorkItemRow): string | undefined {
  return idText(r.fields['LeaderId']);
}

export { period };

/** The tooltip of a work item: its main fields. */
export function workItemTooltip(r: WorkItemRow, ctx: TooltipContext): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, false);
  md.supportHtml = false;
  md.appendMarkdown(`**${escapeMd(r.name)}**${r.isDeleted ? ` ${escapeMd(vscode.l10n.t('(deleted)'))}` : ''}\n\n`);
  const f = r.fields;
  const planned = hoursOf(f['PlannedTime']);
  const actual = hoursOf(f['ActualTime']);
  const typeId = idText(f['ItemTypeId']);
  const statusId = idText(f['StatusTypeId']);
  const leaderId = leaderIdOf(r);
  const leader = leaderId ? ctx.users?.lookup(leaderId) : undefined;
  const folderId = idText(f['FolderId']);
  const folderName = fieldText(f['FolderName']) ?? (folderId !== undefined && folderId !== r.id ? ctx.nameOf?.(folderId) : undefined);
  appendLines(md, [
    [vscode.l10n.t('ID'), r.id],
    [vscode.l10n.t('Code'), r.code],
    [vscode.l10n.t('Type'), named(ctx.types.itemTypeName(typeId), typeId) ?? (ctx.folder ? vscode.l10n.t('folder') : undefined)],
    [vscode.l10n.t('Period'), period(f['PlannedStartDate'], f['PlannedFinishDate'])],
    [vscode.l10n.t('Progress'), r.progress !== undefined ? `${r.progress}%` : undefined],
    [vscode.l10n.t('Planned time'), planned !== undefined ? vscode.l10n.t('{0} h', planned) : undefined],
    [vscode.l10n.t('Actual time'), actual !== undefined ? vscode.l10n.t('{0} h', actual) : undefined],
    [vscode.l10n.t('Leader'), named(leader?.name, leaderId)],
    [vscode.l10n.t('Status'), named(ctx.types.statusName(statusId), statusId)],
    [vscode.l10n.t('Folder'), folderName],
    [vscode.l10n.t('Project'), fieldText(f['ProjectName'])],
    [vscode.l10n.t('Level'), String(r.level)],
  ]);
  return md;
}

export function appendLines(md: vscode.MarkdownString, lines: [string, string | undefined][]): void {
  const shown = lines.filter((l): l is [string, string] => l[1] !== undefined && l[1] !== '');
  if (shown.length === 0) return;
  md.appendMarkdown(`| | |\n|---|---|\n`);
  for (const [k, v] of shown) md.appendMarkdown(`| ${escapeMd(k)} | ${escapeMd(v)} |\n`);
}

export function escapeMd(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, '\\$&').replace(/\r?\n/g, ' ');
}
