// Where the table makes new rows: Add Row (a sibling of the selected row), Add Sub-item
// (below it), Duplicate Rows (copies of the selected rows beside them) and Paste as New
// Items (an outline copied from a spreadsheet, as a tree below the selected row). Nothing
// is added to the service here: the new rows go into the table's review with its edits.
import * as vscode from 'vscode';
import { UserInputError } from '../common/commands';
import type { ColumnDef, LoadedRow } from './model';
import type { NewItemDraft } from './model/drafts';
import type { TablePanel } from './panel';
import { core } from '../core/load';

/** The item types a new row takes by default: a leaf type, and a folder type for rows with children. */
export function defaultItemTypes(panel: TablePanel): { leaf?: string; folder?: string } {
  const types = panel.allColumns().find((c: ColumnDef) => c.key === 'ItemTypeId')?.choices ?? [];
  const ids = types.flatMap((t) => (typeof t.id === 'string' ? [t.id] : []));
  return { leaf: ids.find((id) => !panel.isFolderType(id)), folder: ids.find((id) => panel.isFolderType(id)) };
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
  return panel.additions.add(drafts);
}

/** Paste as New Items: an outline copied from a spreadsheet, as a tree of new rows below the selected row. */
export async function pasteNewItems(panel: TablePanel, log: vscode.LogOutputChannel, text?: string): Promise<string[]> {
  void panel;
  void log;
  void text;
  throw new UserInputError('not built yet');
}
