// The strings the work item table's webview shows, in the UI's language (sent once with `init`).
import * as vscode from 'vscode';
import type { TableStrings } from './protocol';

export function tableStrings(): TableStrings {
  return {
    filterPlaceholder: vscode.l10n.t('Filter, e.g. status:"In progress" leader:suzuki finish<2026-03-01 overdue'),
    build: vscode.l10n.t('Add Condition…'),
    named: vscode.l10n.t('Named Filters…'),
    save: vscode.l10n.t('Save Filter…'),
    columns: vscode.l10n.t('Columns…'),
    lowestOnly: vscode.l10n.t('Lowest level only'),
    useInRequest: vscode.l10n.t('Use in Request Document'),
    loading: vscode.l10n.t('Reading work items…'),
    matches: vscode.l10n.t('{0} of {1} items match'),
    matchesOne: vscode.l10n.t('{0} of {1} item matches'),
    rows: vscode.l10n.t('{0} items'),
    rowsOne: vscode.l10n.t('{0} item'),
    noRows: vscode.l10n.t('No work items to show.'),
    sortHint: vscode.l10n.t('Click to sort; drag to move; drag the edge to resize'),
    review: vscode.l10n.t('Review Changes'),
    exportCsv: vscode.l10n.t('Export…'),
    importCsv: vscode.l10n.t('Import…'),
    undo: vscode.l10n.t('Undo'),
    redo: vscode.l10n.t('Redo'),
    edits: vscode.l10n.t('{0} edited cells'),
    editsOne: vscode.l10n.t('{0} edited cell'),
    editedBefore: vscode.l10n.t('Edited. Before: {0}'),
    empty: vscode.l10n.t('(empty)'),
    discard: vscode.l10n.t('Discard Edits'),
    sentRow: vscode.l10n.t('Sent. Shown until a filter is applied again.'),
    moreActions: vscode.l10n.t('More Actions'),
    pickDate: vscode.l10n.t('Pick a date'),
    newRow: vscode.l10n.t('New item'),
    newRowTitle: vscode.l10n.t('New item: added when the review is sent.'),
    newRowState: vscode.l10n.t('New item'),
    sentState: vscode.l10n.t('Sent'),
    addRow: vscode.l10n.t('Add Row'),
    addSubItem: vscode.l10n.t('Add Sub-item'),
    duplicateRows: vscode.l10n.t('Duplicate Rows'),
    pasteNewItems: vscode.l10n.t('Paste as New Items'),
  };
}
