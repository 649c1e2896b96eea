// "Review Changes": the table's pending edits grouped into the fewest update
// requests (src/table/model/group.ts) and opened as ordinary request documents, or
// straight in the Before/After view (the request documents' Preview). From there the
// existing Preview, Send, journal, result view and Create Undo Document apply unchanged.
import * as vscode from 'vscode';
import { UserInputError } from '../common/commands';
import { openNewRequestDocument } from '../common/requestDocuments';
import type { Template } from '../schema/render';
import type { UpdateWorkItemsBody } from '../schema/api';
import type { ColumnDef, KnownUser } from './model';
import type { TablePanel } from './panel';
import { core } from '../core/load';

export type ReviewMode = 'documents' | 'preview';

/** A document's description in the UI's language: each field by the table's header, each value as the table shows it. */
export function describeTableEdits(update: UpdateWorkItemsBody, count: number, columns: readonly ColumnDef[], users: readonly KnownUser[] = []): string {
  const parts = core().editDescriptionParts(update, columns, {
    language: vscode.env.language,
    empty: vscode.l10n.t('(empty)'),
    shiftDays: (days) => (Math.abs(days) === 1 ? vscode.l10n.t('shift the schedule by {0} day', days) : vscode.l10n.t('shift the schedule by {0} days', days)),
    format: { userName: core().userNames(users) },
  }).join(', ');
  return count === 1 ? vscode.l10n.t('Table edits: {0} (1 work item)', parts) : vscode.l10n.t('Table edits: {0} ({1} work items)', parts, count);
}

/** "1 edited cell makes 1 update request." / "3 edited cells make 2 update requests." */
function editedCellsText(edits: number, requests: number): string {
  if (edits === 1) return vscode.l10n.t('1 edited cell makes 1 update request.');
  return requests === 1 ? vscode.l10n.t('{0} edited cells make 1 update request.', edits) : vscode.l10n.t('{0} edited cells make {1} update requests.', edits, requests);
}

async function pickMode(count: number, edits: number): Promise<ReviewMode | undefined> {
  const items: (vscode.QuickPickItem & { mode: ReviewMode })[] = [
    { label: vscode.l10n.t('Preview Before/After'), detail: vscode.l10n.t('Open the request documents and show the values before and after each change.'), mode: 'preview' },
    { label: vscode.l10n.t('Open as Request Documents'), detail: vscode.l10n.t('Open the request documents to read or change before Preview and Send.'), mode: 'documents' },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Review Changes'),
    placeHolder: editedCellsText(edits, count),
  });
  return picked?.mode;
}

/** Groups the panel's edits and opens them; returns the request documents opened. */
export async function reviewChanges(panel: TablePanel, log: vscode.LogOutputChannel, mode?: ReviewMode): Promise<vscode.TextDocument[]> {
  const edits = panel.editing.edits;
  if (edits.size === 0) throw new UserInputError(vscode.l10n.t('The table has no edits to review: edit some cells first.'));
  // Items whose dates follow their children (folders, containers) are never shifted with moveScheduleDays.
  const canShift = (id: string): boolean => {
    const row = panel.editing.row(id);
    return !!row && row.hasChildren !== true && !panel.isFolderType(core().idValue(row.fields['ItemTypeId']));
  };
  const columns = panel.allColumns();
  const users = panel.knownUsers();
  const groups = core().groupEdits(edits.all(), { canShift, describe: (update, count) => describeTableEdits(update, count, columns, users) });
  const chosen = mode ?? (await pickMode(groups.length, edits.size));
  if (!chosen) return [];
  const docs: vscode.TextDocument[] = [];
  for (const g of groups) {
    const editor = await openNewRequestDocument(g.document as unknown as Template, 'table-edits');
    docs.push(editor.document);
  }
  log.info(`Work item table ${panel.source.title}: ${edits.size} edits → ${groups.length} request documents (${chosen})`);
  if (chosen === 'preview' && docs.length > 0) {
    await vscode.commands.executeCommand('workItemStudio.previewUpdate', docs[0]!.uri, docs.map((d) => d.uri));
  }
  return docs;
}
