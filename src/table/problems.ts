// The table model's cell problems (English sentences with a stable code, src/table/model/cells.ts)
// worded in the UI's language: read-only reasons by the kind src/schema/fields.ts gives the field, type, choice and
// user problems by column type, request-document checks by their error code and params.
import * as vscode from 'vscode';
import type { CellProblem, ColumnDef } from './model';
import { core } from '../core/load';

/** Why column `c` is read only, in the UI's language (undefined when it may be edited). */
export function readOnlyText(c: ColumnDef, english: string | undefined): string | undefined {
  if (english === undefined) return undefined;
  switch (core().readOnlyField(c.key)?.kind) {
    case 'id':
      return vscode.l10n.t('The ID of a work item cannot be changed.');
    case 'project':
      return vscode.l10n.t('The project of a work item cannot be changed here.');
    case 'folder':
      return vscode.l10n.t('The folder follows the parent: move the item to another parent (moveParentTo).');
    case 'parent':
      return vscode.l10n.t('The parent is changed by moving the item (moveParentTo), not by editing this cell.');
    case 'itemType':
      return vscode.l10n.t('The type is changed with "change item type" (changeItemTypeTo), not by editing this cell.');
    case 'assignments':
      return vscode.l10n.t('Assignees are changed with the assignment form (assignmentChange), not by editing this cell.');
    case 'actualTime':
      return vscode.l10n.t('Actual time comes from time entries.');
    case 'actualCost':
      return vscode.l10n.t('Actual cost comes from time entries.');
    case 'service':
      return vscode.l10n.t('Set by the service.');
    case undefined:
      break;
  }
  if (english.includes('The service marks this field read only.')) return vscode.l10n.t('The service marks this field read only.');
  return vscode.l10n.t('This field cannot be edited.');
}

function typeName(c: ColumnDef): string {
  switch (c.type) {
    case 'number':
    case 'progress':
      return vscode.l10n.t('a number');
    case 'hours':
      return vscode.l10n.t('a time in hours (e.g. 7.5 or 7:30)');
    case 'date':
      return vscode.l10n.t('a date (yyyy-MM-dd)');
    default:
      return c.field?.dataType === 'Boolean' ? vscode.l10n.t('true or false') : vscode.l10n.t('a value of this column');
  }
}

/** A cell problem in the UI's language, prefixed with the column's header. `text`: what was typed, when known. */
export function problemText(p: CellProblem, c: ColumnDef | undefined, text?: string): string {
  if (!c) {
    if (p.code === 'check' && /outside the table/.test(p.message)) return vscode.l10n.t('A pasted cell falls outside the table.');
    if (p.code === 'control') return vscode.l10n.t('A pasted cell holds a control character (such as NUL); it is not read.');
    return p.message;
  }
  const label = core().columnLabel(c, vscode.env.language);
  switch (p.code) {
    case 'readOnly':
      return `${label}: ${readOnlyText(c, p.message) ?? p.message}`;
    case 'type':
      return text !== undefined ? vscode.l10n.t('{0}: "{1}" is not {2}.', label, core().excerpt(text), typeName(c)) : vscode.l10n.t('{0}: the value is not {1}.', label, typeName(c));
    case 'choice':
      return vscode.l10n.t('{0}: the value is not one of {1}.', label, (c.choices ?? []).map((x) => x.name).join(', '));
    case 'control':
      return vscode.l10n.t('{0}: the pasted cell holds a control character (such as NUL); it is not read.', label);
    case 'user':
      return /no user matches/.test(p.message) ? vscode.l10n.t('{0}: no user matches the text.', label) : vscode.l10n.t('{0}: several users match; write the login name or the ID.', label);
    case 'check': {
      const issue = p.issue;
      if (issue && core().isErrorCode(issue.code) && issue.params) {
        const args = core().localizeParams(issue.params, (key, a) => vscode.l10n.t({ message: key, args: a, comment: [] })) as Record<string, string | number>;
        return `${label}: ${vscode.l10n.t({ message: core().ERROR_CODES[issue.code].message, args, comment: [] })}`;
      }
      return p.message;
    }
  }
}
