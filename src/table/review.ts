// "Review Changes" (issue 24 §4): the table's pending edits grouped into the fewest update
// requests (src/table/model/group.ts) and opened as ordinary request documents, or
// straight in the Before/After view (the request documents' Preview). From there the
// existing Preview, Send, journal, result view and Create Undo Document apply unchanged.
import * as vscode from 'vscode';
import { UserInputError } from '../common/commands';
import { openNewRequestDocument } from '../common/requestDocuments';
import type { Template } from '../schema/render';
import type { UpdateWorkItemsBody } from '../schema/api';
import { idValue } from '../schema/reads';
import { groupEdits } from './model';
import type { TablePanel } from './panel';

export type ReviewMode = 'documents' | 'preview';

/** A document's description, in the UI's language. */
function describe(update: UpdateWorkItemsBody, count: number): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(update.fields ?? {})) parts.push(`${k} = ${JSON.stringify(v)}`);
  if (update.moveScheduleDays !== undefined) parts.push(vscode.l10n.t('shift the schedule by {0} days', update.moveScheduleDays));
  return count === 1 ? vscode.l10n.t('Table edits: {0} (1 work item)', parts.join(', ')) : vscode.l10n.t('Table edits: {0} ({1} work items)', parts.join(', '), count);
}

async function pickMode(count: number, edits: number): Promise<ReviewMode | undefined> {
  const items: (vscode.QuickPickItem & { mode: ReviewMode })[] = [
    { label: vscode.l10n.t('Preview Before/After'), detail: vscode.l10n.t('Open the request documents and show the values before and after each change.'), mode: 'preview' },
    { label: vscode.l10n.t('Open as Request Documents'), detail: vscode.l10n.t('Open the request documents to read or change before Preview and Send.'), mode: 'documents' },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Review Changes'),
    placeHolder: count === 1 ? vscode.l10n.t('{0} edited cells make 1 update request.', edits) : vscode.l10n.t('{0} edited cells make {1} update requests.', edits, count),
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
    return !!row && row.hasChildren !== true && !panel.isFolderType(idValue(row.fields['ItemTypeId']));
  };
  const groups = groupEdits(edits.all(), { canShift, describe });
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
