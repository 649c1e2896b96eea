// Commands of request documents: New Work Item Update, and inserting users and process
// categories at the cursor. Send and Preview are the changes feature's (src/changes/send.ts).
import * as vscode from 'vscode';
import { openNewRequestDocument } from '../common/requestDocuments';
import { expandIdRanges, extractIds, idRanges, idsPreview, looksLikeIdList } from '../common/model/ids';
import { insertionFor, readCategoryArg, readUserArg } from './model/insert';
import type { TemplateId } from '../schema/templates';
import { isRequestDocument } from '../common/requestDocument';
import { UserInputError } from '../common/commands';
import { core } from '../core/load';

// ---------------------------------------------------------------------------
// New Work Item Update
// ---------------------------------------------------------------------------

// The English texts are those of TEMPLATES (src/schema/templates.ts), written out
// because l10n keys must be literals; a unit test keeps each case equal to the table.

/** The template's label in the display language. */
export function templateLabel(id: TemplateId): string {
  switch (id) {
    case 'shiftSchedule':
      return vscode.l10n.t('Shift the schedule');
    case 'clearSchedule':
      return vscode.l10n.t('Clear the schedule');
    case 'complete':
      return vscode.l10n.t('Mark complete');
    case 'reopen':
      return vscode.l10n.t('Reopen (mark incomplete)');
    case 'lockTimeEntry':
      return vscode.l10n.t('Lock time entry');
    case 'unlockTimeEntry':
      return vscode.l10n.t('Unlock time entry');
    case 'addAssignments':
      return vscode.l10n.t('Add assignments');
    case 'updateAssignments':
      return vscode.l10n.t('Update assignments');
    case 'removeAssignments':
      return vscode.l10n.t('Remove assignments');
    case 'removeAssignmentsById':
      return vscode.l10n.t('Remove assignments by ID');
    case 'moveUnderParent':
      return vscode.l10n.t('Move under a parent (at the end)');
    case 'moveUnderParentFirst':
      return vscode.l10n.t('Move under a parent (at the beginning)');
    case 'moveUnderParentAfter':
      return vscode.l10n.t('Move under a parent (after an item)');
    case 'changeItemType':
      return vscode.l10n.t('Change the item type');
    case 'setFields':
      return vscode.l10n.t('Set fields');
    case 'setProgress':
      return vscode.l10n.t('Set progress');
    case 'setPeriod':
      return vscode.l10n.t('Set the period');
    case 'setFieldCalcTypes':
      return vscode.l10n.t('Set field calculation types');
    case 'clearFieldCalcTypes':
      return vscode.l10n.t('Clear field calculation types');
    case 'clearAllFieldCalcTypes':
      return vscode.l10n.t('Clear all field calculation types');
    case 'propagateToChildren':
      return vscode.l10n.t('Propagate fields to children');
    case 'copyAssignments':
      return vscode.l10n.t('Copy assignments from an item');
    case 'restore':
      return vscode.l10n.t('Restore deleted items');
  }
}

/** The template's description in the display language. */
export function templateDescription(id: TemplateId): string {
  switch (id) {
    case 'shiftSchedule':
      return vscode.l10n.t('Move start and end dates by a number of days (negative: earlier).');
    case 'clearSchedule':
      return vscode.l10n.t('Clear start and end dates and delete the links.');
    case 'complete':
      return vscode.l10n.t('The items and their children get progress 100%.');
    case 'reopen':
      return vscode.l10n.t('The items and their children get progress 0%.');
    case 'lockTimeEntry':
      return vscode.l10n.t('Lock entry of actuals for the items and their descendants.');
    case 'unlockTimeEntry':
      return vscode.l10n.t('Release the time-entry lock.');
    case 'addAssignments':
      return vscode.l10n.t('Assign a user (login name, e-mail address or name) with planned effort.');
    case 'updateAssignments':
      return vscode.l10n.t("Change an assigned user's planned effort.");
    case 'removeAssignments':
      return vscode.l10n.t('Remove users (login name, e-mail address or name) from the assignments.');
    case 'removeAssignmentsById':
      return vscode.l10n.t('Remove users or project groups by ID (several separated by commas).');
    case 'moveUnderParent':
      return vscode.l10n.t('Move the items under another parent item, after its last child.');
    case 'moveUnderParentFirst':
      return vscode.l10n.t('Move the items under another parent item, before its first child.');
    case 'moveUnderParentAfter':
      return vscode.l10n.t('Move the items under another parent item, directly after a given sibling.');
    case 'changeItemType':
      return vscode.l10n.t('Change the items to another item type.');
    case 'setFields':
      return vscode.l10n.t('Set field values (field names are case-sensitive).');
    case 'setProgress':
      return vscode.l10n.t('Set the progress percentage (0 to 100).');
    case 'setPeriod':
      return vscode.l10n.t('Set start and end dates (yyyy-MM-dd).');
    case 'setFieldCalcTypes':
      return vscode.l10n.t("Choose how each field's value is determined.");
    case 'clearFieldCalcTypes':
      return vscode.l10n.t('Clear the determination method of the named fields (separated by commas).');
    case 'clearAllFieldCalcTypes':
      return vscode.l10n.t('Clear the determination method of every field.');
    case 'propagateToChildren':
      return vscode.l10n.t('Copy field values down to the lowest-level sub-items (names separated by commas).');
    case 'copyAssignments':
      return vscode.l10n.t('Copy the assignments of another item.');
    case 'restore':
      return vscode.l10n.t('Restore deleted items into a folder (all other members are ignored).');
  }
}

/** Options for scripted use (tests, other commands): skip the prompts. */
export interface NewUpdateOptions {
  ids?: string[];
  template?: TemplateId;
}

/**
 * Where the IDs come from: the selection in the active editor, the clipboard (only when the user
 * says so: never silently), or an input box. Numeric ranges (`131-140`) are expanded when the user confirms.
 */
async function collectIds(log: vscode.LogOutputChannel): Promise<string[] | undefined> {
  const ids = await collectWrittenIds(log);
  return ids === undefined ? undefined : confirmRanges(ids);
}

async function collectWrittenIds(log: vscode.LogOutputChannel): Promise<string[] | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (editor) {
    const text = editor.selections
      .filter((s) => !s.isEmpty)
      .map((s) => editor.document.getText(s))
      .join('\n');
    if (text) {
      const r = extractIds(text);
      if (r.ids.length > 0) {
        log.info(`New update: ${r.ids.length} IDs from the selection${r.junk.length ? ` (${r.junk.length} other tokens ignored)` : ''}`);
        return r.ids;
      }
    }
  }
  const clip = await vscode.env.clipboard.readText();
  let initial: string | undefined;
  if (looksLikeIdList(clip)) {
    const ids = extractIds(clip).ids;
    const use = { label: vscode.l10n.t('Use These IDs'), detail: idsPreview(ids, 30), choice: 'use' as const };
    const other = { label: vscode.l10n.t('Type Other IDs…'), choice: 'type' as const };
    const picked = await vscode.window.showQuickPick([use, other], {
      title: vscode.l10n.t('New Work Item Update'),
      placeHolder:
        ids.length === 1
          ? vscode.l10n.t('Use 1 ID from the clipboard: {0}?', ids[0]!)
          : vscode.l10n.t('Use {0} IDs from the clipboard: {1}?', ids.length, idsPreview(ids)),
      ignoreFocusOut: true,
    });
    if (!picked) return undefined;
    if (picked.choice === 'use') {
      log.info(`New update: ${ids.length} IDs from the clipboard (confirmed)`);
      return ids;
    }
    initial = ids.join(', ');
  }
  const typed = await vscode.window.showInputBox({
    title: vscode.l10n.t('New Work Item Update'),
    prompt: vscode.l10n.t('Work item IDs, separated by commas, spaces or new lines (leave empty to fill them in later)'),
    placeHolder: '120, 121, 122',
    value: initial,
    ignoreFocusOut: true,
    validateInput: (value) => {
      const r = extractIds(value);
      if (r.junk.length === 0) return undefined;
      return {
        message: vscode.l10n.t('Not IDs, ignored: {0}', r.junk.slice(0, 5).join(' ')),
        severity: vscode.InputBoxValidationSeverity.Warning,
      };
    },
  });
  if (typed === undefined) return undefined;
  return extractIds(typed).ids;
}

/** Asks before numeric ranges (`131-140`) become the IDs they stand for; kept as written otherwise. */
async function confirmRanges(ids: string[]): Promise<string[] | undefined> {
  const ranges = idRanges(ids);
  if (ranges.length === 0) return ids;
  const count = ranges.reduce((n, r) => n + r.ids.length, 0);
  const expand = { label: vscode.l10n.t('Expand the Ranges'), detail: idsPreview(expandIdRanges(ids), 30), expand: true };
  const keep = { label: vscode.l10n.t('Keep as Written'), detail: vscode.l10n.t('Each range is one work item ID, as written.'), expand: false };
  const picked = await vscode.window.showQuickPick([expand, keep], {
    title: vscode.l10n.t('New Work Item Update'),
    placeHolder:
      ranges.length === 1
        ? vscode.l10n.t('Expand {0} into the {1} IDs {2} to {3}?', ranges[0]!.text, count, ranges[0]!.ids[0]!, ranges[0]!.ids.at(-1)!)
        : vscode.l10n.t('Expand the ranges {0} into {1} IDs?', ranges.map((r) => r.text).join(', '), count),
    ignoreFocusOut: true,
  });
  if (!picked) return undefined;
  return picked.expand ? expandIdRanges(ids) : ids;
}

async function pickTemplate(ids: number): Promise<TemplateId | undefined> {
  const picked = await vscode.window.showQuickPick(
    core().TEMPLATES.map((t) => ({ label: templateLabel(t.id), description: Object.keys(t.update).join(', '), detail: templateDescription(t.id), id: t.id })),
    {
      title: vscode.l10n.t('New Work Item Update'),
      placeHolder: ids > 1 ? vscode.l10n.t('What should change on the {0} work items?', ids) : ids === 1 ? vscode.l10n.t('What should change on the work item?') : vscode.l10n.t('What should change?'),
      matchOnDescription: true,
      matchOnDetail: true,
    },
  );
  return picked?.id;
}

export async function newUpdate(log: vscode.LogOutputChannel, options: NewUpdateOptions = {}): Promise<vscode.TextEditor | undefined> {
  const ids = options.ids ?? (await collectIds(log));
  if (ids === undefined) return undefined;
  const id = options.template ?? (await pickTemplate(ids.length));
  if (!id) return undefined;
  const template = core().templateById(id);
  if (!template) throw new UserInputError(vscode.l10n.t('Unknown template "{0}".', String(id)));
  const editor = await openNewRequestDocument(core().documentTemplate(template.update, ids, templateLabel(id)), 'update');
  log.info(`New update ${editor.document.uri.path}: template ${id}, ${ids.length} IDs`);
  return editor;
}

// ---------------------------------------------------------------------------
// Insert a user / process category at the cursor
// ---------------------------------------------------------------------------

export async function insertAtCursor(arg: unknown, kind: 'user' | 'category'): Promise<string | undefined> {
  const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors.find((e) => isRequestDocument(e.document));
  if (!editor) throw new UserInputError(vscode.l10n.t('Open a request document (*.workitems.json) and place the cursor where the value goes.'));
  const item =
    kind === 'user'
      ? (() => {
          const user = readUserArg(arg);
          return user ? { user } : undefined;
        })()
      : (() => {
          const category = readCategoryArg(arg);
          return category ? { category } : undefined;
        })();
  if (!item) throw new UserInputError(kind === 'user' ? vscode.l10n.t('Pick a user in the Organizations view to insert.') : vscode.l10n.t('Pick a process category in its view to insert.'));
  const text = editor.document.getText();
  const inserted: string[] = [];
  await editor.edit((b) => {
    for (const sel of editor.selections) {
      const ins = insertionFor(text, editor.document.offsetAt(sel.active), item);
      inserted.push(ins.value);
      b.replace(sel, ins.text);
    }
  });
  await vscode.window.showTextDocument(editor.document, editor.viewColumn);
  return inserted[0];
}

