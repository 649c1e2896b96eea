// Preview, Send and undo of request documents, one feature: the preview reads the current
// values of the fields an update touches and shows current → expected per item; Send
// (./send.ts) checks and plans once, reads them again (warning when items changed since
// the preview) and keeps them beside the job's journal before the first request leaves;
// the job runs (./jobs); after a run the values are read once more and the result view
// (./results) shows before → after; "Create Undo Document" writes the change that puts the
// previous values back. Registered from one function. The Before/After view itself
// (preview, reload, its buttons) is PreviewViews (previewView.ts).
import * as vscode from 'vscode';
import type { SharedPacing } from '../api/pacer';
import type { ItemValues } from '../bulk/effects';
import type { ReadValues } from '../bulk/readValues';
import type { JobJournal, JobPlan } from '../bulk';
import type { ConnectionInfo, ConnectionManager } from '../common/connection';
import { itemsText } from '../common/wording';
import { uiFieldLabel } from '../common/changeStrings';
import type { JobSourceInfo, JobsForValues, MarkdownPreviews } from './jobs/values';
import { isCancellation, registerCommand } from '../common/commands';
import { resultTable, type ChangeTable } from '../webview/changeTable';
import type { UserNames } from '../common/model/users';
import { sha256 } from './previewStore';
import { askDrift } from './sent';
import { createUndoDocuments, createUndoDocumentsForJobs, modalUndoPrompts, type UndoOutcome, type UndoPrompts } from './undoCommand';
import { sendAllInOrder, type SendAllOutcome } from './sendAll';
import { errorText, PREVIEW_VIEW_TYPE, PreviewViews, type FieldNameSource } from './previewView';
import { core } from '../core/load';
import { RequestJobs, type JobPrompts } from './jobs';
import { PreviewDocuments } from './markdownPreviews';
import { RESULT_VIEW_TYPE } from './results/resultPanel';
import { previewUpdate, sendUpdate, type SendDeps } from './send';
import { isRequestDocument } from '../common/requestDocument';

export { PREVIEW_VIEW_TYPE, type PreviewButtonOutcome } from './previewView';

export interface ChangesApi {
  /** Reads the current values for a planned document and shows current → expected (Preview). */
  previewValues(doc: vscode.TextDocument, plan: JobPlan, info: ConnectionInfo): Promise<ChangeTable | undefined>;
  /** The table the preview panel shows now (tests). */
  readonly lastPreview: ChangeTable | undefined;
}

class ValuesFeature extends PreviewViews implements ChangesApi, vscode.Disposable {
  /** The question of Create Undo Document (a modal dialog unless replaced: `setPrompts`). */
  private undoPrompts: UndoPrompts = modalUndoPrompts;
  private pruned = false;

  // ---------------------------------------------------------------- send

  async prepare(source: JobSourceInfo, plan: JobPlan, info: ConnectionInfo, pacing: SharedPacing): Promise<{ write(journal: JobJournal): Promise<void> } | undefined> {
    if (!this.enabled()) return undefined;
    // A preview of this text that was sent since holds the values before that send: no reference for drift any more.
    const sent = await this.sentOf(source.uri);
    const previewSent = sent !== undefined && sent.textHash === sha256(source.text);
    let values: ReadValues | undefined;
    let failure: string | undefined;
    try {
      // A change that only adds names no existing item: nothing to read, and its undo needs no value before.
      // Items a request restores are deleted now: reads leave them out, and their undo deletes them again.
      const restored = new Set(plan.parts.filter((p) => p.update.restore === true).flatMap((p) => p.ids));
      const ids = restored.size === 0 ? plan.ids : plan.ids.filter((id) => !restored.has(id));
      values =
        ids.length === 0
          ? { fields: [], items: new Map(), missing: [], requests: 0 }
          : await this.read(ids, plan, info, pacing, (requests) => vscode.l10n.t('Reading the values before sending ({0})', requests));
      if (values.items.size === 0 && ids.length > 0) failure = vscode.l10n.t('none of the items came back');
    } catch (e) {
      if (isCancellation(e)) throw new vscode.CancellationError();
      failure = errorText(e);
    }
    if (failure !== undefined || !values) {
      this.log.warn(`Send of ${source.name}: the values before the update were not read: ${failure}`);
      const send = vscode.l10n.t('Send Without Undo');
      const openSetting = vscode.l10n.t('Open Setting');
      const text = unreadValuesQuestion(failure ?? '');
      const pick = await vscode.window.showWarningMessage(text.message, { modal: true, detail: text.detail }, send, openSetting);
      if (pick === openSetting) void vscode.commands.executeCommand('workbench.action.openSettings', 'workItemStudio.bulk.readValues');
      if (pick !== send) throw new vscode.CancellationError();
      this.markSent(source);
      return undefined;
    }
    // IDs the service does not know (found by this read, as by the preview): Send says so, with the list, and goes on with the others.
    if (values.missing.length > 0) {
      const shown = values.missing.slice(0, 20).join(', ') + (values.missing.length > 20 ? ' …' : '');
      this.log.warn(`Send of ${source.name}: ${values.missing.length} IDs not found on the service: ${shown}`);
      void vscode.window.showWarningMessage(
        values.missing.length === 1
          ? vscode.l10n.t('Sending {0}: 1 work item was not found on the service and will fail: {1}', source.name, shown)
          : vscode.l10n.t('Sending {0}: {1} work items were not found on the service and will fail: {2}', source.name, values.missing.length, shown),
      );
    }
    // Drift: items changed since the preview of this same document text on this service (best effort: no ETag on the service).
    // (After a send of this very text, the items differ from the preview by that send: no drift question; Send asked about the repeat.)
    const previous = previewSent ? undefined : await this.previewOf(source, plan, info);
    if (previous) {
      const drift = core().findDrift(core().planBodies(plan), previous.values.items, values.items);
      if (drift.length > 0) {
        this.log.warn(`Send of ${source.name}: ${drift.length} items changed since the preview: ${drift.slice(0, 20).map((d) => `${d.id} (${d.gone ? 'gone' : d.fields.map((f) => f.field).join(',')})`).join('; ')}`);
        const catalogue = this.fieldNames?.peekCatalogue()?.fields;
        const shown = drift
          .slice(0, 10)
          .map((d) => (d.gone ? vscode.l10n.t('{0}: not found any more', d.id) : `${d.id}: ${d.fields.map((f) => uiFieldLabel(f.field, catalogue)).join(', ')}`))
          .join('\n');
        const more = drift.length > 10 ? `\n${vscode.l10n.t('and {0} more', drift.length - 10)}` : '';
        const pick = await askDrift(itemsText(drift.length), shown, more);
        if (pick === 'refresh') {
          this.keepPreview({ ...previous, values, plan });
          this.showPreview(source.uri, source.name, info, plan, values, { drifted: drift.length });
          throw new vscode.CancellationError();
        }
        if (pick !== 'send') throw new vscode.CancellationError();
      }
    }
    const taken = values;
    return {
      write: async (journal) => {
        this.markSent(source, journal.id);
        await core().writeSnapshot(journal.file, { kind: 'before', jobId: journal.id, fields: taken.fields, items: taken.items, missing: taken.missing, siblings: taken.siblings });
        this.log.info(`bulk job ${journal.id}: the values of ${taken.items.size} items before the update are kept beside the journal.`);
      },
    };
  }

  async afterRun(journal: JobJournal, pacing: SharedPacing): Promise<void> {
    if (!this.pruned) {
      this.pruned = true;
      void core().pruneSnapshots(this.jobs.jobsDir).catch(() => undefined);
    }
    const before = await core().readSnapshot(journal.file, 'before');
    if (!before) return;
    // The items changed, and the items the adds created (read so that their undo can tell whether they changed since).
    const changed = journal.requests.filter((r) => r.state === 'succeeded' && core().namesItems(journal.plan, r)).flatMap((r) => r.ids);
    const applied = [...new Set([...changed, ...core().addedIds(journal.plan, journal.requests)])];
    if (applied.length === 0) return;
    const info = this.connections.current;
    if (!info) return;
    const values = await this.read(applied, journal.plan, info, pacing, (requests) => vscode.l10n.t('Reading the values after the update ({0})', requests));
    const earlier = core().snapshotItems(await core().readSnapshot(journal.file, 'after'));
    for (const [id, v] of values.items) earlier.set(id, v);
    await core().writeSnapshot(journal.file, { kind: 'after', jobId: journal.id, fields: values.fields, items: earlier, missing: values.missing });
  }

  async changes(journal: JobJournal): Promise<{ table?: ChangeTable; undo: boolean } | undefined> {
    const { plan: undo, values } = await core().planUndoForJob(journal);
    if (!values.before) return undefined;
    const s = this.tableStrings();
    const rows = core().changeRows(journal, values);
    const { items, affected } = core().responsesOf(journal.requests);
    const remarks = new Map<string, string[]>();
    for (const [id, item] of items) {
      if (item.itemWarnings && item.itemWarnings.length > 0) {
        remarks.set(id, [vscode.l10n.t('warnings from the service: {0}', item.itemWarnings.map((w) => (typeof w === 'string' ? w : JSON.stringify(w))).join('; '))]);
      }
    }
    const before = core().snapshotItems(values.before);
    const deleted = core().deletedIds(journal.plan);
    for (const id of values.applied) {
      if (deleted.has(id)) remarks.set(id, [...(remarks.get(id) ?? []), vscode.l10n.t('deleted')]);
      else if (!before.has(id)) remarks.set(id, [...(remarks.get(id) ?? []), vscode.l10n.t('not read before sending')]);
    }
    for (const a of values.added) for (const id of a.ids) remarks.set(id, [vscode.l10n.t('added below {0}', a.parentId)]);
    const lines: ChangeTable['lines'] = [];
    if (!values.afterRead) lines.push({ text: vscode.l10n.t('The values after come from the service’s answer (they were not read again).'), level: 'info' });
    if (affected.size > 0) {
      const ids = [...affected.keys()];
      lines.push({ text: vscode.l10n.t('{0} not in the document changed too (roll-up by the service): {1}', itemsText(ids.length), ids.slice(0, 20).join(', ') + (ids.length > 20 ? ' …' : '')), level: 'warning' });
    }
    for (const a of values.added) {
      if (a.state === 'unknown' || a.state === 'cancelled') {
        const candidates = journal.requests[a.request]?.candidates ?? [];
        lines.push({
          text:
            candidates.length > 0
              ? vscode.l10n.t(
                  'The outcome of the add below {0} is unknown; these items below it may be what it created: {1}. Resend Unknown… lets you mark one as what it created, or send it again.',
                  a.parentId,
                  candidates.map((c) => `${c.id} (${c.name})`).join(', '),
                )
              : vscode.l10n.t('The outcome of the add below {0} is unknown: Look for Added Items reads below it and sends the add only if its items are not there.', a.parentId),
          level: 'warning',
        });
      } else if (a.idsUnknown) {
        lines.push({ text: vscode.l10n.t('The service did not say which items the add below {0} created.', a.parentId), level: 'warning' });
      }
    }
    if (values.uncertain.length > 0) {
      const n = values.uncertain.length;
      lines.push({ text: n === 1 ? vscode.l10n.t('1 item of unknown outcome is not shown.') : vscode.l10n.t('{0} items of unknown outcome are not shown.', n), level: 'warning' });
    }
    if (undo.nonInvertible.length > 0) {
      const itemsLost = new Set(undo.nonInvertible.map((n) => n.id)).size;
      lines.push({ text: vscode.l10n.t('An undo cannot put back every change of {0} (Create Undo Document lists them).', itemsText(itemsLost)), level: 'warning' });
    }
    const table = resultTable(rows, core().touchedFieldsOfAll(core().planBodies(journal.plan)), remarks, s, lines);
    table.people = this.namesFor(table);
    return { table, undo: undo.documents.length > 0 || undo.nonInvertible.length > 0 };
  }

  /** Answers the undo question with `answers` where given (tests, automation); undefined: the modal dialog again. */
  setPrompts(answers: Partial<UndoPrompts> | undefined): void {
    this.undoPrompts = { ...modalUndoPrompts, ...answers };
  }

  /**
   * Create Undo Document: for `jobId`, its one undo document; without, for the jobs the user
   * picks (several at once), one each, the latest job's first. The outcome of the first.
   */
  async createUndo(jobId?: string): Promise<UndoOutcome | undefined> {
    const outcomes = jobId
      ? [await createUndoDocuments(this.jobs, this.log, this.documents, jobId, this.undoPrompts)].filter((o): o is UndoOutcome => o !== undefined)
      : await createUndoDocumentsForJobs(this.jobs, this.log, this.documents, this.undoPrompts);
    if (!outcomes || outcomes.length === 0) return undefined;
    for (const outcome of outcomes) {
      if (outcome.documents.length === 0) continue;
      this.undoDocuments.delete(outcome.jobId);
      this.undoDocuments.set(outcome.jobId, outcome.documents);
    }
    const made = outcomes.flatMap((o) => o.documents);
    if (made.length > 0) this.lastUndo = made;
    return outcomes[0];
  }

  /** The undo documents made in this window, by job (the latest last). */
  private readonly undoDocuments = new Map<string, vscode.Uri[]>();
  /** The documents of the latest Create Undo Document, in the order to send them (one per job picked). */
  private lastUndo: vscode.Uri[] = [];

  /** Sends the undo document of `jobId` (else those of the latest Create Undo Document, in order), each previewed first. */
  async sendAllUndo(jobId?: string): Promise<SendAllOutcome | undefined> {
    const uris = jobId ? this.undoDocuments.get(jobId) : this.lastUndo;
    if (!uris || uris.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No undo documents to send: use Create Undo Document in the result view of a job first.'));
      return undefined;
    }
    // The question before each document is one of the undo prompts (setPrompts replaces it in tests).
    return sendAllInOrder(uris, { next: (q) => this.undoPrompts.sendNext(q) }, this.log);
  }
}

/** What the other features and the activation get of Preview, Send and undo. */
export interface ChangesFeature {
  /** The update jobs: their end is announced (the views read their items again). */
  jobs: RequestJobs;
  createUndo(jobId?: string): Promise<UndoOutcome | undefined>;
  /** Answers the questions of the jobs and of Create Undo Document instead of a person (tests). */
  setPrompts(answers: { jobs?: Partial<JobPrompts>; undo?: Partial<UndoPrompts> } | undefined): void;
  readonly values: ChangesApi;
}

/**
 * Preview, Send and undo, one pipeline: Send checks and plans a document once
 * (./send.ts), reads the values before (ValuesFeature.prepare), runs the job with its
 * journal (./jobs), reads the values after (afterRun), shows the result view with before
 * → after (changes); Create Undo Document writes the change that puts them back. The jobs
 * are made here with the values steps they run, on one pacing per Send.
 */
export function registerChanges(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  connections: ConnectionManager,
  o: {
    people?: UserNames;
    /** The service's field catalogue: the checks before sending and the names of custom fields. */
    fields?: SendDeps['fields'] & FieldNameSource;
    /** The commands for tests (pressBeforeAfterButton) are registered only with the test hooks on. */
    testHooks?: boolean;
  } = {},
): ChangesFeature {
  const jobs = new RequestJobs(context, log, connections, o.people);
  const previews = new PreviewDocuments();
  const feature = new ValuesFeature(log, connections, jobs, previews, o.people, o.fields);
  // The steps of a Send around its job: the values before, after, and the before → after of its result view.
  jobs.valueHooks = {
    prepare: (source, plan, info, pacing) => feature.prepare(source, plan, info, pacing),
    afterRun: (journal, pacing) => feature.afterRun(journal, pacing),
    changes: (journal) => feature.changes(journal),
  };
  context.subscriptions.push(
    jobs,
    previews,
    feature,
    vscode.window.registerWebviewPanelSerializer(PREVIEW_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state) => feature.restorePreview(panel, state),
    }),
    // Result views come back after a window reload (the journal is read then, not now).
    vscode.window.registerWebviewPanelSerializer(RESULT_VIEW_TYPE, { deserializeWebviewPanel: (panel, state) => jobs.restoreResultView(panel, state) }),
  );
  const send: SendDeps = { log, connections, jobs, previews, ...(o.fields ? { fields: o.fields } : {}), values: feature };
  registerCommand(context, log, 'workItemStudio.sendUpdate', (arg?: unknown, many?: unknown) => sendUpdate(send, arg, many));
  registerCommand(context, log, 'workItemStudio.previewUpdate', (arg?: unknown, many?: unknown) => previewUpdate(send, arg, many));
  const jobArg = (a: unknown): string | undefined => (typeof a === 'string' ? a : undefined);
  registerCommand(context, log, 'workItemStudio.resumeJobs', (a?: unknown) => jobs.resume(jobArg(a)));
  registerCommand(context, log, 'workItemStudio.retryFailed', (a?: unknown) => jobs.retryFailed(jobArg(a)));
  registerCommand(context, log, 'workItemStudio.sendWithoutMissing', (a?: unknown) => jobs.sendWithoutMissing(jobArg(a)));
  registerCommand(context, log, 'workItemStudio.resendUnknown', (a?: unknown) => jobs.resendUnknown(jobArg(a)));
  registerCommand(context, log, 'workItemStudio.showJobs', (a?: unknown) => jobs.showJob(jobArg(a)));
  // Not in the manifest, tests only: presses a button of the open Before/After view as a click does, or reports its state.
  if (o.testHooks) registerCommand(context, log, 'workItemStudio.pressBeforeAfterButton', (command?: unknown) => feature.pressButton(command ?? 'state'));
  registerCommand(context, log, 'workItemStudio.createUndoDocument', (a?: unknown) => feature.createUndo(jobArg(a)));
  registerCommand(context, log, 'workItemStudio.sendAllUndoDocuments', (a?: unknown) => feature.sendAllUndo(jobArg(a)));

  // The once-per-session offer to resume unfinished jobs, at first use of a request document.
  context.subscriptions.push(
    vscode.workspace.onDidOpenTextDocument((d) => {
      if (isRequestDocument(d)) void jobs.offerResumption();
    }),
  );
  if (vscode.workspace.textDocuments.some(isRequestDocument)) {
    // A request document restored with the window: look for unfinished jobs after activation, not during it.
    const timer = setTimeout(() => void jobs.offerResumption(), 1500);
    context.subscriptions.push({ dispose: () => clearTimeout(timer) });
  }
  return {
    jobs,
    values: feature,
    createUndo: (jobId) => feature.createUndo(jobId),
    setPrompts: (answers) => {
      jobs.setPrompts(answers?.jobs);
      feature.setPrompts(answers?.undo);
    },
  };
}

export type { ItemValues };
export type { UndoPrompts } from './undoCommand';
export type { SendAllPrompts, SendAllOutcome } from './sendAll';

/** What Send asks when the values before the update could not be read (`failure` says why). */
export function unreadValuesQuestion(failure: string): { message: string; detail: string } {
  return {
    message: vscode.l10n.t('The values before the update could not be read: {0}', failure),
    detail: vscode.l10n.t(
      'Without them the update cannot be undone from the result view. On a service that does not offer reading work items, turn off the setting workItemStudio.bulk.readValues and Send no longer reads or asks.',
    ),
  };
}
