// Copy Folder as Template: a folder (or any work item with sub-items) read with its
// subtree and written as ONE request document holding one add, the copy nested below
// the destination, its planned dates moved to start on the date asked. The document
// opens with its Preview (Before/After, "(new)" rows); the person sends it as one
// change and can undo it like any add. The copy is built from the read rather than
// with the service's duplicate so that every field it gets is in the document and the
// Before/After (docs/request-documents.md). Registration only: nothing is read before
// the command runs.
import * as vscode from 'vscode';
import type { CatalogueState } from '../api/catalogue';
import type { ConnectionManager } from '../common/connection';
import { registerCommand, UserInputError } from '../common/commands';
import { openNewRequestDocument } from '../common/requestDocuments';
import { workItemsText } from '../common/wording';
import type { ProjectProfile } from '../schema/catalogue';
import type { Project, SubItemNode } from '../schema/reads';
import type { Template } from '../schema/render';
import { buildTemplate, destinationOf, earliestPlannedDate, FOLDER_FIELDS, readStartDate, type Parties, type TemplateDestination, type WorkItemTemplate } from './model';
import { problemText } from './messages';
import { askSourceId, askStartDate, pickDestination, type PickerReads } from './pick';
import { core } from '../core/load';

export const COPY_AS_TEMPLATE = 'workItemStudio.copyAsTemplate';

/** A row of the Work Items view as this command sees it (WorkItemNode: `kind: 'workItem'`, `itemId`). */
interface ItemLike {
  kind: string;
  itemId?: string;
}

/** What src/extension.ts passes in. */
export interface TemplatesHost {
  connection: ConnectionManager;
  /** The Work Items view: its checked and selected items, the levels and projects it has loaded. */
  workItems: {
    tree: { checked: ReadonlySet<string>; projectIdOf(id: string): string | undefined; levelOf(id: string): number | undefined; readonly loadedProjects: readonly Project[] };
    view: { selection: readonly unknown[] };
  };
  /** Project profiles and the service's field catalogue (src/editors FieldCatalogueService). */
  catalogue: { profile(projectId: string): Promise<ProjectProfile | undefined>; get(): Promise<CatalogueState | undefined> };
}

/** Scripted use (tests, automation): the item to copy, the destination and the start date ('' for none) instead of the questions. */
export interface CopyAsTemplateOptions {
  sourceId?: string;
  destinationId?: string;
  startDate?: string;
}

const isItem = (a: unknown): a is ItemLike & { itemId: string } =>
  typeof a === 'object' && a !== null && (a as ItemLike).kind === 'workItem' && typeof (a as ItemLike).itemId === 'string';

function optionsOf(args: unknown[]): CopyAsTemplateOptions | undefined {
  for (const a of args) if (a && typeof a === 'object' && !Array.isArray(a) && !isItem(a) && ('sourceId' in a || 'destinationId' in a || 'startDate' in a)) return a as CopyAsTemplateOptions;
  return undefined;
}

const signed = (n: number): string => (n > 0 ? `+${n}` : String(n));

/** The document's description: what is copied where, how the dates moved, what was left out. */
function describe(t: WorkItemTemplate, dest: TemplateDestination): string {
  const parts = [vscode.l10n.t('Copy of "{0}" (ID {1}) below "{2}" (ID {3}): {4}.', t.sourceName, t.sourceId, dest.name, dest.id, workItemsText(t.count))];
  if (t.shiftDays !== 0 && t.start) {
    parts.push(
      Math.abs(t.shiftDays) === 1
        ? vscode.l10n.t('Planned dates moved by {0} day to start on {1}.', signed(t.shiftDays), t.start)
        : vscode.l10n.t('Planned dates moved by {0} days to start on {1}.', signed(t.shiftDays), t.start),
    );
  }
  if (t.leftOut.leaders + t.leftOut.assignments > 0) {
    parts.push(vscode.l10n.t('Left out as not members of project {0}: leaders {1}, assignments {2}.', dest.projectId, String(t.leftOut.leaders), String(t.leftOut.assignments)));
  }
  return parts.join(' ');
}

export function registerTemplates(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, host: TemplatesHost): void {
  const { connection, workItems, catalogue } = host;
  const readItem = async (id: string): Promise<Record<string, unknown> | undefined> => {
    try {
      const [record] = await connection.run((c) => c.getWorkItems([id], ['Id', 'Name', 'ItemTypeId', 'ProjectId', 'ParentId']));
      return record?.fields;
    } catch (e) {
      // A GET of one ID fails only when it does not exist (or cannot be seen).
      if (core().isServiceError(e) && e.kind === 'http' && e.status === 404) return undefined;
      throw e;
    }
  };
  const destinationById = async (id: string): Promise<TemplateDestination> => {
    const dest = await destinationOf(id, readItem, workItems.tree.levelOf(id));
    if (!dest) throw new UserInputError(vscode.l10n.t('Work item {0} was not found (deleted, or not visible to you).', id));
    return dest;
  };
  const readerFor = (sourceId: string): PickerReads => ({
    projects: async () => (workItems.tree.loadedProjects.length > 0 ? workItems.tree.loadedProjects : (await connection.run((c) => c.listProjects({ limit: 100 }))).data),
    tree: (rootId) => connection.run((c) => c.getSubItems(rootId, { fields: [...FOLDER_FIELDS] })),
    profile: (projectId) => catalogue.profile(projectId),
    // One checked item (the row right-clicked is the source, so the destination is checked rather than selected).
    chosenInView: async () => {
      const checked = [...workItems.tree.checked].filter((id) => id !== sourceId);
      return checked.length === 1 ? destinationOf(checked[0]!, readItem, workItems.tree.levelOf(checked[0]!)) : undefined;
    },
  });
  /** The members of another project, as the parties a copy may keep (undefined: not known, all are kept). */
  const partiesOf = async (projectId: string): Promise<Parties | undefined> => {
    try {
      const m = await connection.run((c) => c.readProjectMembers(projectId));
      if (!m.members) return undefined;
      return { users: new Set(m.members.filter((u) => u.isDeleted !== true).map((u) => u.id)), groups: new Set((m.userGroups ?? []).map((g) => g.id)) };
    } catch (e) {
      log.warn(`Copy as template: the members of project ${projectId} could not be read (leaders and assignees are copied as they are): ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    }
  };

  async function run(args: unknown[], options: CopyAsTemplateOptions | undefined): Promise<unknown> {
    if (!connection.current) throw new UserInputError(vscode.l10n.t('Connect to a service first (Work Item Studio: Connect).'));
    const clicked = isItem(args[0]) ? args[0].itemId : undefined;
    const selected = workItems.view.selection.filter(isItem);
    const sourceId = options?.sourceId ?? clicked ?? (selected.length > 0 ? selected[0]!.itemId : options ? undefined : await askSourceId());
    if (!sourceId) return undefined;
    const source: SubItemNode = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Reading the subtree'), cancellable: true }, (_p, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      // Every field of every item below it: the copy takes what an add can set.
      return connection.run((c) => c.getSubItems(sourceId, {}, { signal: abort.signal }), { signal: abort.signal }).finally(() => sub.dispose());
    });
    const sourceProjectId = core().idValue(source.fields.ProjectId) ?? workItems.tree.projectIdOf(sourceId);
    const dest = options?.destinationId ? await destinationById(options.destinationId) : await pickDestination(readerFor(sourceId), { id: sourceId, projectId: sourceProjectId });
    if (!dest) return undefined;
    let startDate: string | undefined;
    const earliest = earliestPlannedDate(source);
    if (options && 'startDate' in options) {
      const r = readStartDate(options.startDate ?? '');
      if (!r.ok) throw new UserInputError(problemText(r.problem));
      startDate = r.date;
    } else if (earliest) {
      const typed = await askStartDate(earliest);
      if (typed === undefined) return undefined;
      startDate = typed || undefined;
    }
    const otherProject = dest.projectId !== sourceProjectId;
    const [profile, sourceProfile, fields, parties] = await Promise.all([
      catalogue.profile(dest.projectId),
      otherProject && sourceProjectId ? catalogue.profile(sourceProjectId) : undefined,
      catalogue.get(),
      otherProject ? partiesOf(dest.projectId) : undefined,
    ]);
    if (!profile) log.info(`Copy as template: project ${dest.projectId} has no profile to read; the item types are left to the service to check.`);
    const built = buildTemplate(source, {
      destination: dest,
      ...(startDate ? { startDate } : {}),
      ...(profile ? { profile } : {}),
      ...(sourceProfile ? { sourceProfile } : {}),
      ...(fields?.kind === 'service' ? { fieldTypes: fields.catalogue.fields } : {}),
      ...(parties ? { parties } : {}),
    });
    if (!built.ok) throw new UserInputError(problemText(built.problem));
    const t = built.template;
    const document = core().createChangeDocument([{ kind: 'add', add: { parentId: dest.id, item: t.item }, workItemIds: [], update: {} }], {
      description: describe(t, dest),
      service: connection.current!.baseUrl,
    });
    const editor = await openNewRequestDocument(document as unknown as Template, `template-${t.sourceId}`);
    log.info(`Copy as template: ${t.count} items of ${t.sourceId} below ${dest.id} (project ${dest.projectId}), dates moved by ${t.shiftDays} days, in ${editor.document.uri.path}.`);
    await vscode.commands.executeCommand('workItemStudio.previewUpdate', editor.document.uri);
    return { document: editor.document.uri.toString(), count: t.count, shiftDays: t.shiftDays, destinationId: dest.id, leftOut: t.leftOut };
  }

  registerCommand(context, log, COPY_AS_TEMPLATE, async (...args: unknown[]) => {
    const options = optionsOf(args);
    if (!options) return run(args, undefined);
    // Scripted: a refusal comes back as the problem (no message waits for a person to close it).
    try {
      return await run(args, options);
    } catch (e) {
      if (!(e instanceof UserInputError)) throw e;
      log.warn(`Copy as template: ${e.message}`);
      return { problem: e.message };
    }
  });
}
