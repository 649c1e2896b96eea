// Forms for the common changes: shift schedule, set status, set
// leader, add / remove assignees, complete, lock time entry — each a short multi-step
// form on the selected (or checked) work items that opens the same request document
// the templates write, with the IDs and the values filled in. The user previews and
// sends it as usual. Registration only: nothing is read before a form runs.
import * as vscode from 'vscode';
import type { ConnectionManager } from '../common/connection';
import { registerCommand, UserInputError } from '../common/commands';
import { readSettings } from '../common/config';
import type { KnownUser } from '../common/model/users';
import { openNewRequestDocument } from '../common/requestDocuments';
import type { ProjectProfile } from '../schema/catalogue';
import type { UpdateTemplateBody } from '../schema/templates';
import { FORM_TITLES, runForm, type FormContext } from './forms';
import { FORM_IDS, formDocument, userChoices, type FormId } from './model';
import { FormInput, type ScriptedAnswers } from './steps';
import { readUsers } from './users';
import { core } from '../core/load';

/** The command of each form. */
export const FORM_COMMANDS: Record<FormId, string> = {
  shiftSchedule: 'workItemStudio.shiftScheduleForm',
  setStatus: 'workItemStudio.setStatusForm',
  setLeader: 'workItemStudio.setLeaderForm',
  addAssignees: 'workItemStudio.addAssigneesForm',
  removeAssignees: 'workItemStudio.removeAssigneesForm',
  setCompleted: 'workItemStudio.setCompletedForm',
  setTimeEntryLocked: 'workItemStudio.setTimeEntryLockedForm',
};

/** A row of the Work Items view as the forms see it (WorkItemNode: `kind: 'workItem'`, `itemId`). */
interface ItemLike {
  kind: string;
  itemId?: string;
}

/** What src/extension.ts passes in. */
export interface FormsHost {
  connection: ConnectionManager;
  /** The Work Items view: its checked items, selection, and the project of a loaded item. */
  workItems: {
    tree: { checked: ReadonlySet<string>; projectIdOf(id: string): string | undefined };
    view: { selection: readonly unknown[] };
  };
  /** The project profile (statuses) of the connected service (src/editors FieldCatalogueService). */
  catalogue: { profile(projectId: string): Promise<ProjectProfile | undefined> };
  /** Users loaded in the Organizations view. */
  knownUsers(): Iterable<KnownUser>;
}

/** Scripted use (tests, automation): the IDs instead of the view's selection, and each step's answer instead of a person. */
export interface FormCommandOptions {
  ids?: string[];
  answers?: ScriptedAnswers;
}

const isItem = (a: unknown): a is ItemLike & { itemId: string } =>
  typeof a === 'object' && a !== null && (a as ItemLike).kind === 'workItem' && typeof (a as ItemLike).itemId === 'string';

function optionsOf(args: unknown[]): FormCommandOptions {
  for (const a of args) if (a && typeof a === 'object' && !Array.isArray(a) && ('answers' in a || 'ids' in a) && !isItem(a)) return a as FormCommandOptions;
  return {};
}

/** The checked items when some are checked and the command was not started on an unchecked row; else the clicked and selected rows. */
export function formTargets(host: FormsHost, clicked: unknown, selected: unknown): string[] {
  const checked = host.workItems.tree.checked;
  const c = isItem(clicked) ? clicked : undefined;
  if (checked.size > 0 && (!c || checked.has(c.itemId))) return [...checked];
  const sel = Array.isArray(selected) ? selected.filter(isItem) : host.workItems.view.selection.filter(isItem);
  const rows = c && !sel.some((s) => s.itemId === c.itemId) ? [c] : sel.length > 0 ? sel : c ? [c] : [];
  return [...new Set(rows.map((r) => r.itemId))];
}

export function registerForms(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, host: FormsHost): void {
  const maxUrlLength = (): number => readSettings().bulk.maxUrlLength;
  const readFields = async (ids: readonly string[], fields: string[]) =>
    vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Reading work items') }, () =>
      host.connection.run((c) => core().readWorkItems(c, ids, { fields, maxUrlLength: maxUrlLength() })),
    );
  let usersRead: { service: string | undefined; roots: string; users: Promise<KnownUser[]> } | undefined;

  const ctxFor = (ids: string[]): FormContext => ({
    ids,
    projectsOf: async (list) => {
      const out = new Map<string, string>();
      const unknown: string[] = [];
      for (const id of list) {
        const p = host.workItems.tree.projectIdOf(id);
        if (p) out.set(id, p);
        else unknown.push(id);
      }
      if (unknown.length > 0) {
        const r = await readFields(unknown, ['Id', 'ProjectId']);
        for (const [id, rec] of r.items) {
          const p = rec.fields['ProjectId'];
          if ((typeof p === 'string' && p !== '' && p !== '0') || typeof p === 'number') out.set(id, String(p));
        }
      }
      return out;
    },
    profile: (projectId) => host.catalogue.profile(projectId),
    users: async () => {
      const roots = readSettings().organizations;
      const service = host.connection.current?.baseUrl;
      const key = roots.join(',');
      if (!usersRead || usersRead.service !== service || usersRead.roots !== key) {
        const users = Promise.resolve(
          vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Reading users') }, () =>
            readUsers((read) => host.connection.run(read), roots),
          ),
        );
        usersRead = { service, roots: key, users };
      }
      const pending = usersRead.users;
      try {
        return userChoices([...host.knownUsers(), ...(await pending)]);
      } catch (e) {
        // A failed read is tried again next time.
        if (usersRead?.users === pending) usersRead = undefined;
        throw e;
      }
    },
    plannedStart: async (id) => {
      const r = await readFields([id], ['Id', 'PlannedStartDate']);
      const rec = r.items.get(id);
      if (!rec) throw new UserInputError(vscode.l10n.t('Work item {0} was not found (deleted, or not visible to you).', id));
      const v = rec.fields['PlannedStartDate'];
      return typeof v === 'string' && v !== '' ? v : undefined;
    },
  });

  for (const id of FORM_IDS) {
    registerCommand(context, log, FORM_COMMANDS[id], async (...args: unknown[]) => {
      const options = optionsOf(args);
      if (!options.answers) return run(id, options, args);
      // Scripted: a refused answer comes back as the problem (no message waits for a person to close it).
      try {
        return await run(id, options, args);
      } catch (e) {
        if (!(e instanceof UserInputError)) throw e;
        log.warn(`Form ${id}: ${e.message}`);
        return { problem: e.message };
      }
    });
  }

  async function run(id: FormId, options: FormCommandOptions, args: unknown[]): Promise<unknown> {
    const ids = options.ids ?? formTargets(host, args[0], args[1]);
    if (ids.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Select or check work items in the Work Items view first.'));
      return undefined;
    }
    if (!host.connection.current) throw new UserInputError(vscode.l10n.t('Connect to a service first (Work Item Studio: Connect).'));
    const input = new FormInput(FORM_TITLES[id](), options.answers);
    const outcome = await runForm(id, input, ctxFor(ids));
    if (!outcome) return undefined;
    const doc = formDocument(ids, outcome.body, outcome.description);
    if (doc.errors.length > 0) {
      // The forms check what is typed: a document they built with errors is a bug, reported rather than opened.
      log.error(`Form ${id}: the document has errors: ${doc.errors.map((e) => e.message).join('; ')}`);
      throw new UserInputError(vscode.l10n.t('The form built a request document with errors: {0}', doc.errors.map((e) => e.message).join('; ')));
    }
    const editor = await openNewRequestDocument(core().documentTemplate(outcome.body as UpdateTemplateBody, ids, outcome.description), outcome.baseName);
    log.info(`Form ${id}: request document ${editor.document.uri.path} for ${ids.length} work items.`);
    return editor;
  }
}
