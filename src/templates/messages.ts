// The sentences of the template model's problems, localized (one vscode.l10n.t per
// message, so the bundles carry each).
import * as vscode from 'vscode';
import type { TemplateMessage, TemplateProblem } from './model';

const TEXTS: Record<TemplateMessage, (a: string[]) => string> = {
  '"{0}" is not a date (yyyy-MM-dd).': (a) => vscode.l10n.t('"{0}" is not a date (yyyy-MM-dd).', a[0]!),
  '{0} is not a day of the calendar.': (a) => vscode.l10n.t('{0} is not a day of the calendar.', a[0]!),
  '"{0}" (ID {1}) and the items below it have no planned dates: leave the start date empty.': (a) =>
    vscode.l10n.t('"{0}" (ID {1}) and the items below it have no planned dates: leave the start date empty.', a[0]!, a[1]!),
  'Too many items for one add: the copy of "{0}" has {1}, the service adds at most {2} in one request. Copy its sub-folders one at a time.': (a) =>
    vscode.l10n.t('Too many items for one add: the copy of "{0}" has {1}, the service adds at most {2} in one request. Copy its sub-folders one at a time.', a[0]!, a[1]!, a[2]!),
  'The copy of "{0}" is {1} levels deep: below "{2}" (level {3}) the service allows {4} levels, so at most {5} fit.': (a) =>
    vscode.l10n.t('The copy of "{0}" is {1} levels deep: below "{2}" (level {3}) the service allows {4} levels, so at most {5} fit.', a[0]!, a[1]!, a[2]!, a[3]!, a[4]!, a[5]!),
  '"{0}" (ID {1}) is on level {2}, the deepest the service allows ({2} levels): nothing can be added below it.': (a) =>
    vscode.l10n.t('"{0}" (ID {1}) is on level {2}, the deepest the service allows ({2} levels): nothing can be added below it.', a[0]!, a[1]!, a[2]!),
  'The item type "{0}" (ID {1}) of "{2}" (ID {3}) cannot be used in the destination project {4}.': (a) =>
    vscode.l10n.t('The item type "{0}" (ID {1}) of "{2}" (ID {3}) cannot be used in the destination project {4}.', a[0]!, a[1]!, a[2]!, a[3]!, a[4]!),
  'The item type "{0}" (ID {1}) of "{2}" (ID {3}) is not in the profile of the destination project {4}.': (a) =>
    vscode.l10n.t('The item type "{0}" (ID {1}) of "{2}" (ID {3}) is not in the profile of the destination project {4}.', a[0]!, a[1]!, a[2]!, a[3]!, a[4]!),
  '"{0}" (ID {1}) has no item type in what the service answered.': (a) => vscode.l10n.t('"{0}" (ID {1}) has no item type in what the service answered.', a[0]!, a[1]!),
  '"{0}" is a folder and "{1}" (ID {2}) is not: a folder can only be added below a folder.': (a) =>
    vscode.l10n.t('"{0}" is a folder and "{1}" (ID {2}) is not: a folder can only be added below a folder.', a[0]!, a[1]!, a[2]!),
  'A copy cannot go below the item it copies or below one of its sub-items: "{0}" (ID {1}) is in the subtree of "{2}".': (a) =>
    vscode.l10n.t('A copy cannot go below the item it copies or below one of its sub-items: "{0}" (ID {1}) is in the subtree of "{2}".', a[0]!, a[1]!, a[2]!),
  '"{0}" (ID {1}) is deleted.': (a) => vscode.l10n.t('"{0}" (ID {1}) is deleted.', a[0]!, a[1]!),
};

export function problemText(p: TemplateProblem): string {
  return TEXTS[p.message](p.args);
}
