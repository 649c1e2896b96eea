// "Review Changes": the table's pending edits grouped into the fewest update requests
// (src/table/model/group.ts) and opened as one request
// document (a change set when there are several requests), or straight in the
// Before/After view (the document's Preview). From there Preview, Send, the journal, the
// result view and Create Undo Document take the change as one.
import * as vscode from 'vscode';
import { UserInputError } from '../common/commands';
import { workItemsText } from '../common/wording';
import { openNewRequestDocument } from '../common/requestDocuments';
import type { Template } from '../schema/render';
import type { UpdateWorkItemsBody } from '../schema/api';
import type { ColumnDef, KnownUser } from './model';
import type { NewRowProblem } from './model/newRows';
import { editDescriptionParts } from './model/editDescription';
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

/** "1 edited cell makes 1 update request." / "3 edited cells make 2 update requests.", and the new rows. */
function editedCellsText(edits: number, requests: number, rows: number): string {
  if (rows > 0) {
    const what = rows === 1 ? vscode.l10n.t('1 new row') : vscode.l10n.t('{0} new rows', rows);
    const cells = edits === 0 ? what : `${what}, ${edits === 1 ? vscode.l10n.t('1 cell') : vscode.l10n.t('{0} cells', edits)}`;
    return requests === 1 ? vscode.l10n.t('{0}: 1 request.', cells) : vscode.l10n.t('{0}: {1} requests.', cells, requests);
  }
  if (edits === 1) return vscode.l10n.t('1 edited cell makes 1 update request.');
  return requests === 1 ? vscode.l10n.t('{0} edited cells make 1 update request.', edits) : vscode.l10n.t('{0} edited cells make {1} update requests.', edits, requests);
}

/** The description of a change set of the table's edits. */
function changeDescription(edits: number, items: number, rows: number): string {
  const cells = vscode.l10n.t('Table edits: {0} in {1}', edits === 1 ? vscode.l10n.t('1 cell') : vscode.l10n.t('{0} cells', edits), workItemsText(items));
  if (rows === 0) return cells;
  const added = rows === 1 ? vscode.l10n.t('Table: 1 new item') : vscode.l10n.t('Table: {0} new items', rows);
  return edits === 0 ? added : `${added}; ${cells}`;
}

async function pickMode(count: number, edits: number, rows: number): Promise<ReviewMode | undefined> {
  const items: (vscode.QuickPickItem & { mode: ReviewMode })[] = [
    { label: vscode.l10n.t('Preview Before/After'), detail: vscode.l10n.t('Open the request document and show the values before and after the change.'), mode: 'preview' },
    { label: vscode.l10n.t('Open as Request Document'), detail: vscode.l10n.t('Open the request document to read or change before Preview and Send.'), mode: 'documents' },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Review Changes'),
    placeHolder: editedCellsText(edits, count, rows),
  });
  return picked?.mode;
}

/** New rows the review cannot add: each named by where it goes, with what it lacks. */
function newRowProblems(problems: readonly NewRowProblem[], columns: readonly ColumnDef[]): string {
  const label = (f: string) => {
    const c = columns.find((x) => x.key === f);
    return c ? core().columnLabel(c, vscode.env.language) : f;
  };
  const lines = problems.slice(0, 5).map((p) => vscode.l10n.t('a new row below {0} has no {1}', p.path === '' ? vscode.l10n.t('the top level') : `"${p.path}"`, p.missing.map(label).join(', ')));
  if (problems.length > lines.length) lines.push(vscode.l10n.t('({0} more)', problems.length - lines.length));
  return vscode.l10n.t('Nothing was opened: {0}. Fill these cells, or undo the rows.', lines.join('; '));
}

/** The description of an add of new rows. */
function addDescription(rows: number, under: string): string {
  return rows === 1 ? vscode.l10n.t('Table: add 1 new item below {0}', under) : vscode.l10n.t('Table: add {0} new items below {1}', rows, under);
}

/** Groups the panel's edits and opens them as one document; returns it (in a list, empty when the user cancelled). */
export async function reviewChanges(panel: TablePanel, log: vscode.LogOutputChannel, mode?: ReviewMode): Promise<vscode.TextDocument[]> {
  const all = panel.editing.edits;
  const added = core().newRowAdds(panel.allRows(), all);
  const edits = core().existingEdits(all);
  if (edits.length === 0 && added.count === 0) throw new UserInputError(vscode.l10n.t('The table has no edits to review: edit some cells first.'));
  if (added.problems.length > 0) throw new UserInputError(newRowProblems(added.problems, panel.allColumns()));
  // Items whose dates follow their children (folders, containers) are never shifted with moveScheduleDays.
  const canShift = (id: string): boolean => {
    const row = panel.editing.row(id);
    return !!row && row.hasChildren !== true && !panel.isFolderType(core().idValue(row.fields['ItemTypeId']));
  };
  const columns = panel.allColumns();
  const users = panel.knownUsers();
  const groups = core().groupEdits(edits, { canShift, wholeRequests: true, describe: (update, count) => describeTableEdits(update, count, columns, users) });
  const requests = groups.length + added.adds.length;
  const chosen = mode ?? (await pickMode(requests, edits.length, added.count));
  if (!chosen) return [];
  const items = new Set(groups.flatMap((g) => g.document.workItemIds)).size;
  const under = (id: string): string => {
    const row = panel.editing.row(id);
    const name = row ? panel.editing.edits.fieldsOf(row)['Name'] : undefined;
    return typeof name === 'string' && name !== '' ? `"${name}" (#${id})` : `#${id}`;
  };
  const document = core().createChangeDocument(
    [
      ...groups.map((g) => ({ workItemIds: g.document.workItemIds, update: g.document.update, ...(g.document.description !== undefined ? { description: g.document.description } : {}) })),
      ...added.adds.map((add, i) => ({ kind: 'add' as const, add, workItemIds: [], update: {}, description: addDescription(added.rowsOf[i]!.length, under(add.parentId)) })),
    ],
    requests > 1 ? { description: changeDescription(edits.length, items, added.count) } : {},
  );
  panel.additions.reviewed(added);
  const editor = await openNewRequestDocument(document as unknown as Template, 'table-edits');
  log.info(`Work item table ${panel.source.title}: ${edits.length} edits and ${added.count} new rows → 1 request document of ${requests} request(s) (${chosen})`);
  if (chosen === 'preview') await vscode.commands.executeCommand('workItemStudio.previewUpdate', editor.document.uri);
  return [editor.document];
}
