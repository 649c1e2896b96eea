// Where the table makes new rows: Add Row (a sibling of the selected row), Add Sub-item
// (below it), Duplicate Rows (copies of the selected rows beside them) and Paste as New
// Items (an outline copied from a spreadsheet, as a tree below the selected row). Nothing
// is added to the service here: the new rows go into the table's review with its edits.
import * as vscode from 'vscode';
import { UserInputError } from '../common/commands';
import type { ColumnDef, LoadedRow } from './model';
import type { NewItemDraft } from './model/drafts';
import type { TablePanel } from './panel';
import { problemsMarkdown } from './importSummary';
import { core } from '../core/load';

/**
 * The item types a new row takes by default: a leaf type, and a folder type for rows with
 * children; each the type the table's rows use most (a project's root folder has a type of
 * its own, never a row's), else the profile's first.
 */
export function defaultItemTypes(panel: TablePanel): { leaf?: string; folder?: string } {
  const types = panel.allColumns().find((c: ColumnDef) => c.key === 'ItemTypeId')?.choices ?? [];
  const ids = types.flatMap((t) => (typeof t.id === 'string' ? [t.id] : []));
  const used = new Map<string, number>();
  for (const r of panel.allRows()) {
    const t = core().idValue(r.fields['ItemTypeId']);
    if (t !== undefined && ids.includes(t)) used.set(t, (used.get(t) ?? 0) + 1);
  }
  const most = (folder: boolean): string | undefined => {
    const of = ids.filter((id) => panel.isFolderType(id) === folder);
    return of.reduce<string | undefined>((best, id) => ((used.get(id) ?? 0) > (best === undefined ? 0 : (used.get(best) ?? 0)) ? id : best), undefined) ?? of[0];
  };
  return { leaf: most(false), folder: most(true) };
}

const parentOf = (row: LoadedRow): string | undefined => core().idValue(row.fields['ParentId']);

/** The row the action starts from: the selected cell's row (the first selected). */
function anchorRow(panel: TablePanel): LoadedRow | undefined {
  return panel.selectedRows()[0];
}

/** Add Row: a new row beside the selected one (the end of its parent's children), or below the table's folder. */
export function addRow(panel: TablePanel): string[] {
  const row = anchorRow(panel);
  const parent = row ? parentOf(row) : panel.source.rootId;
  if (parent === undefined) throw new UserInputError(vscode.l10n.t('Select a row of the table first: the new row goes beside it.'));
  return addBelow(panel, parent);
}

/** Add Sub-item: a new row below the selected one. */
export function addSubItem(panel: TablePanel): string[] {
  const row = anchorRow(panel);
  if (!row) throw new UserInputError(vscode.l10n.t('Select a row of the table first: the new row goes below it.'));
  return addBelow(panel, row.id);
}

function addBelow(panel: TablePanel, parentId: string): string[] {
  const type = defaultItemTypes(panel).leaf;
  const ids = panel.additions.add([{ parent: { id: parentId }, fields: type !== undefined ? { ItemTypeId: type } : {} }]);
  if (ids[0]) panel.additions.select(ids[0], 'Name');
  return ids;
}

/** Duplicate Rows: each selected row copied as a new row below the same parent (its values with edits; status, progress and actuals not copied). */
export function duplicateRows(panel: TablePanel): string[] {
  const rows = panel.selectedRows();
  if (rows.length === 0) throw new UserInputError(vscode.l10n.t('Select the rows to duplicate first.'));
  const ctx = panel.editing.context();
  const drafts: NewItemDraft[] = [];
  for (const row of rows) {
    const parent = parentOf(row);
    if (parent === undefined) continue;
    drafts.push({ parent: { id: parent }, fields: core().copiedFields(panel.editing.edits.fieldsOf(row), panel.allColumns(), (c) => core().readOnlyReason(c, ctx) === undefined) });
  }
  if (drafts.length === 0) throw new UserInputError(vscode.l10n.t('The selected rows name no parent: they cannot be duplicated here.'));
  const ids = panel.additions.add(drafts);
  if (ids[0]) panel.additions.select(ids[0], 'Name');
  return ids;
}

/** Paste as New Items: an outline copied from a spreadsheet, as a tree of new rows below the selected row (the table's folder without one). */
export async function pasteNewItems(panel: TablePanel, log: vscode.LogOutputChannel, text?: string): Promise<string[]> {
  const row = anchorRow(panel);
  const parentId = row?.id ?? panel.source.rootId;
  const place = parentId === undefined ? undefined : panel.additions.placeOf(parentId);
  if (parentId === undefined || !place) throw new UserInputError(vscode.l10n.t('Select the row the new items go below first.'));
  const block = text ?? (await vscode.env.clipboard.readText());
  if (block.trim() === '') throw new UserInputError(vscode.l10n.t('The clipboard holds no text to paste as new items: copy the outline in the spreadsheet first.'));
  const types = defaultItemTypes(panel);
  const r = core().parseOutline(block, {
    ...panel.editing.context(),
    userName: (id) => panel.userName(id),
    parentId,
    maxDepth: core().MAX_HIERARCHY_DEPTH - place.level,
    columns: panel.allColumns(),
    defaultItemTypes: { ...(types.folder !== undefined ? { folder: types.folder } : {}), ...(types.leaf !== undefined ? { task: types.leaf } : {}) },
  });
  const under = place.childPath === '' ? panel.source.title : place.childPath;
  if (r.problems.length > 0 || r.drafts.length === 0) {
    log.info(`Work item table ${panel.source.title}: outline of ${r.lineCount} lines refused (${r.problems.length} problems); nothing added`);
    const summary = r.problems.length === 0
      ? vscode.l10n.t('The pasted text holds no line to add.')
      : vscode.l10n.t('Nothing was added: {0} of the pasted outline. The list is open beside the table.', problemsText(r.problems.length));
    const content = problemsMarkdown(vscode.l10n.t('Paste as New Items into {0}: problems', panel.source.title), r.problems, { recordCount: r.lineCount, badRecordCount: r.lineCount, problemsOmitted: r.problemsOmitted }, panel.allColumns(), summary);
    if (r.problems.length > 0) await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ language: 'markdown', content }), { preview: true, viewColumn: vscode.ViewColumn.Beside });
    void vscode.window.showWarningMessage(summary);
    return [];
  }
  const ids = panel.additions.add(r.drafts);
  // The first new row in sight and selected (an outline below a folder may go below many rows).
  if (ids[0]) panel.additions.select(ids[0], 'Name');
  log.info(`Work item table ${panel.source.title}: outline (${r.layout.kind}${r.layout.header ? ', with a header' : ''}) → ${ids.length} new rows below ${parentId}`);
  void vscode.window.showInformationMessage(
    ids.length === 1
      ? vscode.l10n.t('1 new row below {0}. Nothing is added until Review Changes is sent.', under)
      : vscode.l10n.t('{0} new rows below {1}. Nothing is added until Review Changes is sent.', ids.length, under),
  );
  return ids;
}

const problemsText = (n: number): string => (n === 1 ? vscode.l10n.t('1 problem') : vscode.l10n.t('{0} problems', n));
