// Localized sentences of the before/after preview, the result view's before → after
// table and the undo documents.
import * as vscode from 'vscode';
import type { EffectNote, EffectProblem } from '../bulk/effects';
import type { NonInvertibleReason, UndoKind } from '../bulk/undo';
import type { ChangeTableStrings } from '../webview/changeTable';
import type { CatalogueNames } from '../schema/field-labels';
import { core } from '../core/load';

/** A field's name in the UI's language (進捗率 for ActualProgress in Japanese); custom fields by the catalogue's name. */
export function uiFieldLabel(systemName: string, catalogue?: CatalogueNames): string {
  return core().fieldLabel(systemName, vscode.env.language, catalogue);
}

/** A member of an item's answer (`actualProgress`) by its field's name in the UI's language; the member itself for what is not a known field. */
export function answerMemberLabel(member: string): string {
  const field = member.charAt(0).toUpperCase() + member.slice(1);
  const label = uiFieldLabel(field);
  return label === field ? member : label;
}

export function noteText(note: EffectNote): string {
  switch (note) {
    case 'children-progress':
      return vscode.l10n.t("the children's progress is set too (not shown)");
    case 'descendants-lock':
      return vscode.l10n.t('the descendants are locked or unlocked too (not shown)');
    case 'propagated-to-children':
      return vscode.l10n.t('the values are copied to the lowest-level sub-items (not shown)');
    case 'links-deleted':
      return vscode.l10n.t("the items' schedule links are deleted");
    case 'cost-permission':
      return vscode.l10n.t('cost fields are ignored when you have no cost permission in the project');
    case 'roll-up':
      return vscode.l10n.t("the parents' roll-up values (dates, times, progress) are recalculated by the service");
  }
}

export function problemText(p: EffectProblem): string {
  const v = p.params ?? {};
  switch (p.code) {
    case 'name-empty':
      return vscode.l10n.t('the name would be empty (the service refuses it)');
    case 'name-too-long':
      return vscode.l10n.t('the name would have {0} characters, more than {1}', v.length ?? '', v.max ?? '');
    case 'code-too-long':
      return vscode.l10n.t('the code would have {0} characters, more than {1}', v.length ?? '', v.max ?? '');
    case 'progress-not-tracked':
      return vscode.l10n.t('the item does not track progress (the service refuses a change to its progress)');
    case 'progress-out-of-range':
      return vscode.l10n.t('progress must be from 0 to 100');
    case 'end-before-start':
      return vscode.l10n.t('the end date {0} would be before the start date {1}', String(v.end ?? ''), String(v.start ?? ''));
    case 'shift-out-of-range':
      return vscode.l10n.t("{0} would be {1}, outside the project's allowed range {2} to {3}", p.field ? uiFieldLabel(p.field) : '', String(v.date ?? ''), String(v.min ?? ''), String(v.max ?? ''));
    case 'missing':
      return vscode.l10n.t('not found on the service (or not visible to you)');
  }
}

export function reasonText(reason: NonInvertibleReason): string {
  switch (reason) {
    case 'not-in-snapshot':
      return vscode.l10n.t('the value before the update was not read');
    case 'links-deleted':
      return vscode.l10n.t('deleted schedule links cannot be created again');
    case 'descendants-not-in-snapshot':
      return vscode.l10n.t("the change also reached sub-items whose previous values were not read");
    case 'restore':
      return vscode.l10n.t('a restored item cannot be deleted again by an update');
    case 'formula':
      return vscode.l10n.t('a Formula calculation type cannot be set through the API');
    case 'parent-unknown':
      return vscode.l10n.t('the previous parent is not known');
    case 'order-unknown':
      return vscode.l10n.t('the previous position is not known: the item goes back to the end of its previous parent');
    case 'add-outcome-unknown':
      return vscode.l10n.t('the outcome of this add is unknown: check the items below this parent, and delete what it added by hand if it did');
    case 'added-ids-unknown':
      return vscode.l10n.t('the service did not say which items this add created, so they are not deleted');
    case 'delete-outcome-unknown':
      return vscode.l10n.t('the outcome of this delete is unknown: if the item is deleted, restore it with "restore": true');
  }
}

export function undoKindText(kind: UndoKind): string {
  switch (kind) {
    case 'lock':
      return vscode.l10n.t('time-entry lock');
    case 'calc-types':
      return vscode.l10n.t('calculation types');
    case 'assignments':
      return vscode.l10n.t('assignments');
    case 'schedule':
      return vscode.l10n.t('schedule');
    case 'fields':
      return vscode.l10n.t('field values');
    case 'item-type':
      return vscode.l10n.t('item type');
    case 'parent':
      return vscode.l10n.t('parent and position');
    case 'delete':
      return vscode.l10n.t('added items (deleted)');
    case 'restore':
      return vscode.l10n.t('deleted items (restored)');
  }
}

/** The sentences and words of the before → after tables; fields by their names in the UI's language (custom fields by `catalogue`'s names). */
export function changeTableStrings(catalogue?: CatalogueNames): ChangeTableStrings {
  return {
    heading: { preview: vscode.l10n.t('Current → expected values'), result: vscode.l10n.t('Before → after') },
    column: {
      id: 'ID',
      name: vscode.l10n.t('Name'),
      remarks: vscode.l10n.t('Remarks'),
      field: vscode.l10n.t('Field'),
      changes: vscode.l10n.t('Change'),
      unchanged: vscode.l10n.t('Unchanged'),
      computed: vscode.l10n.t('Computed by the service'),
      unexpected: vscode.l10n.t('Not as expected'),
    },
    computed: vscode.l10n.t('computed by the service'),
    empty: vscode.l10n.t('(empty)'),
    filter: {
      all: vscode.l10n.t('All items'),
      changed: vscode.l10n.t('Changed items'),
      problems: vscode.l10n.t('Items with problems'),
      unexpected: vscode.l10n.t('Not as expected'),
      search: vscode.l10n.t('Filter by ID or name'),
      show: vscode.l10n.t('Items shown'),
    },
    shown: (n, total) => (total === 1 ? vscode.l10n.t('{0} of 1 item', n) : vscode.l10n.t('{0} of {1} items', n, total)),
    note: (n, items) => (items === 1 ? vscode.l10n.t('1 item: {0}', noteText(n)) : vscode.l10n.t('{0} items: {1}', items, noteText(n))),
    problem: problemText,
    field: (f) => uiFieldLabel(f, catalogue),
    problemCount: (code, items) => (items === 1 ? vscode.l10n.t('1 item: {0}', problemText({ code })) : vscode.l10n.t('{0} items: {1}', items, problemText({ code }))),
    hours: vscode.l10n.t('{0} h'),
    minutes: vscode.l10n.t('{0} min'),
    newItem: vscode.l10n.t('(new)'),
    addedBelow: (parentId) => vscode.l10n.t('added below {0}', parentId),
    toBeDeleted: vscode.l10n.t('deleted by this change'),
  };
}
