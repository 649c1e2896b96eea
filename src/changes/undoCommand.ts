// "Create Undo Document": the request document that puts back the previous values of a
// finished (or partly finished) job, as one change (a change set of the requests that
// put back each kind of value, the last request of the job first), opened for review and
// never sent, and a summary that lists, by item and reason, what cannot be put back.
import * as vscode from 'vscode';
import type { JobJournal } from '../bulk/journal';
import type { UndoDrift } from '../bulk/undoDrift';
import { describeError } from '../common/messages';
import { abortOn } from '../common/abortOn';
import type { UndoKind, UndoPlan } from '../bulk/undo';
import { openNewRequestDocument } from '../common/requestDocuments';
import { itemsText } from '../common/wording';
import type { JobsForValues, MarkdownPreviews } from './jobs/values';
import { documentName } from '../common/requestDocument';
import { UserInputError } from '../common/commands';
import type { Template } from '../schema/render';
import { undoSummary, type UndoSummaryStrings } from './model/undoSummary';
import { reasonText, undoKindText } from '../common/changeStrings';
import { modalSendAllPrompts, type SendAllPrompts } from './sendAll';
import { core } from '../core/load';

export interface UndoOutcome {
  jobId: string;
  plan: UndoPlan;
  /** The undo document opened (none when there is nothing to put back). */
  documents: vscode.Uri[];
  /** Items another client changed since the job (found by the drift check). */
  drift?: UndoDrift[];
  /** Items left out of the undo because they changed since the job (the user chose to skip them). */
  skipped?: string[];
}

/**
 * The question Create Undo Document asks when items changed since the job. The
 * command builds its sentences; `modalUndoPrompts` asks with a modal dialog, and tests
 * install their own answers through the extension's API (`setPrompts`, src/extension.ts).
 */
export interface UndoPrompts {
  /** Skip the changed items, check again, undo anyway; undefined or 'cancel': no undo. */
  drift(q: { message: string; detail: string; drift: readonly UndoDrift[] }): Promise<'skip' | 'refresh' | 'anyway' | 'cancel' | undefined>;
  /** Send All Undo Documents in Order, before each document: this one, this one and the rest without asking, or stop. */
  sendNext: SendAllPrompts['next'];
  /** The jobs to undo when none is given (undefined: the quick pick of the jobs, several at once). */
  pickJobs?: () => Promise<string[] | undefined>;
}

export const modalUndoPrompts: UndoPrompts = {
  async drift(q) {
    const skip = vscode.l10n.t('Skip Changed Items');
    const refresh = vscode.l10n.t('Check Again');
    const anyway = vscode.l10n.t('Undo Anyway');
    const p = await vscode.window.showWarningMessage(q.message, { modal: true, detail: q.detail }, skip, refresh, anyway);
    return p === skip ? 'skip' : p === refresh ? 'refresh' : p === anyway ? 'anyway' : 'cancel';
  },
  sendNext: (q) => modalSendAllPrompts.next(q),
};

const MAX_SHOWN_DRIFT = 10;

function shownValue(v: unknown): string {
  if (v === undefined || v === null || v === '') return vscode.l10n.t('(empty)');
  const text = typeof v === 'string' ? v.replace(/T00:00:00(\.0+)?Z?$/, '') : JSON.stringify(v);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/** One line per changed item: which fields, the value the job left → the value now. */
export function driftLines(drift: readonly UndoDrift[]): string {
  const lines = drift.slice(0, MAX_SHOWN_DRIFT).map((d) => {
    const who = d.name ? `${d.id} (${d.name})` : d.id;
    if (d.gone) return vscode.l10n.t('{0}: not found any more', who);
    const parts = d.fields.map((f) => vscode.l10n.t('{0} {1} → now {2}', f.field, shownValue(f.expected), shownValue(f.now)));
    if (d.childrenSince?.length) parts.push(vscode.l10n.t('items added below it since: {0}', d.childrenSince.slice(0, 10).join(', ') + (d.childrenSince.length > 10 ? ' …' : '')));
    return `${who}: ${parts.join('; ')}`;
  });
  if (drift.length > MAX_SHOWN_DRIFT) lines.push(vscode.l10n.t('and {0} more', drift.length - MAX_SHOWN_DRIFT));
  return lines.join('\n');
}

/**
 * Reads the job's items now and, when another client changed some since the job, asks
 * what to do with them: skip them (the default), check again, or undo anyway. The items
 * to leave out, or undefined when the user cancelled.
 */
async function askAboutDrift(jobs: JobsForValues, log: vscode.LogOutputChannel, journal: JobJournal, prompts: UndoPrompts): Promise<{ skip: Set<string>; drift: UndoDrift[] } | undefined> {
  const read = jobs.readerFor(journal);
  for (;;) {
    let drift: UndoDrift[];
    try {
      const check = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Checking whether the items of this job changed since it ran…'), cancellable: true },
        async (_p, token) => {
          const abort = abortOn(token);
          try {
            return await core().checkUndoDrift(journal, read, { signal: abort.signal }, jobs.subtreesFor?.(journal));
          } finally {
            abort.dispose();
          }
        },
      );
      drift = check.drift;
      log.info(`Undo of job ${journal.id}: ${check.checked} items checked in ${check.requests} read requests; ${drift.length} changed since the job`);
    } catch (e) {
      if ((e as { kind?: string }).kind === 'cancelled' || (e as { name?: string }).name === 'AbortError') return undefined;
      throw new UserInputError(vscode.l10n.t('Could not check whether the items of this job changed since it ran, so no undo was made: {0}', describeError(e)));
    }
    if (drift.length === 0) return { skip: new Set(), drift };
    log.warn(
      `Undo of job ${journal.id}: ${drift.length} items changed since the job: ${drift
        .slice(0, 20)
        .map((d) => `${d.id} (${d.gone ? 'gone' : d.fields.map((f) => f.field).join(',')})`)
        .join('; ')}`,
    );
    const pick =
      (await prompts.drift({
        message: vscode.l10n.t('{0} changed since this job ran (by another client or another job).', itemsText(drift.length)),
        detail: `${driftLines(drift)}\n\n${vscode.l10n.t('Skip Changed Items leaves them as they are now and undoes the rest. Undo Anyway overwrites their current values with the values before the job. The check is best effort: the service has no conditional update, so a change right after it is not seen.')}`,
        drift,
      })) ?? 'cancel';
    log.info(`Undo of job ${journal.id}: ${drift.length} changed items: ${pick}`);
    if (pick === 'refresh') continue;
    if (pick === 'skip') return { skip: new Set(drift.map((d) => d.id)), drift };
    if (pick === 'anyway') return { skip: new Set(), drift };
    return undefined;
  }
}

function summaryStrings(document: string): UndoSummaryStrings {
  return {
    title: (name, jobId) => vscode.l10n.t('Undo of {0} (job {1})', name, jobId),
    notSent: vscode.l10n.t('Nothing has been sent. Review {0}, then send it: its requests are sent in this order, as one change.', document),
    documents: vscode.l10n.t('Requests of {0}', document),
    document: (kind, items) => undoRequestText(kind, items),
    cannot: vscode.l10n.t('What the undo cannot put back'),
    column: { id: 'ID', member: vscode.l10n.t('Change'), reason: vscode.l10n.t('Reason') },
    partly: vscode.l10n.t('(put back in part)'),
    reason: reasonText,
    nothing: vscode.l10n.t('Every change of this job can be put back.'),
    more: (n) => vscode.l10n.t('and {0} more', n),
    deleteNote: vscode.l10n.t(
      'A delete can itself be undone: the deleted items stay on the service, marked deleted, and Create Undo Document of that send writes "restore": true for them, which brings them back with the items below them.',
    ),
  };
}

/** What one request of an undo document does, after its name. */
function undoRequestText(kind: UndoKind, items: number): string {
  if (kind === 'delete') return vscode.l10n.t('deletes {0} that the job added (with the items below them)', itemsText(items));
  if (kind === 'restore') return vscode.l10n.t('restores {0} that the job deleted', itemsText(items));
  return vscode.l10n.t('puts back the {0} of {1}', undoKindText(kind), itemsText(items));
}

/** The description of an undo request in the document. */
function undoDescription(kind: UndoKind): string {
  if (kind === 'delete') return vscode.l10n.t('deletes what the job added');
  if (kind === 'restore') return vscode.l10n.t('restores what the job deleted');
  return vscode.l10n.t('puts back the {0}', undoKindText(kind));
}

/**
 * The name of a job's undo document: `undo-<document>-<job>`, from the name of the
 * document the job was sent from and the random part of the job's ID, so the undo
 * documents of different jobs never share a name (and a session never reuses one).
 */
export function undoDocumentName(sourceName: string, jobId: string): string {
  const base = sourceName.replace(/\.workitems\.json$/i, '').replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'update';
  const tail = jobId.split('-').pop() || jobId;
  return `undo-${base.replace(/^undo-/, '')}-${tail}`;
}

/**
 * Create Undo Document for jobs picked together (or the one given): one undo document
 * per job, the latest job's first, since that is the order to send them in. The outcome
 * of each, in that order; undefined when the user cancelled the pick.
 */
export async function createUndoDocumentsForJobs(
  jobs: JobsForValues,
  log: vscode.LogOutputChannel,
  previews: MarkdownPreviews,
  prompts: UndoPrompts = modalUndoPrompts,
): Promise<UndoOutcome[] | undefined> {
  const ids = prompts.pickJobs
    ? await prompts.pickJobs()
    : await jobs.pickJobIds((s) => (s.requestsByState?.succeeded ?? 0) + (s.outcomeUnknown ?? 0) > 0, vscode.l10n.t('Pick the update jobs to undo (the latest is undone first)'));
  if (!ids || ids.length === 0) return undefined;
  const out: UndoOutcome[] = [];
  // The latest job first, whatever order they were picked in (by when each was made, to the millisecond).
  const made = new Map<string, string>();
  for (const id of ids) made.set(id, (await jobs.loadJob(id)).data.createdAt);
  for (const id of [...ids].sort((a, b) => made.get(b)!.localeCompare(made.get(a)!) || ids.indexOf(b) - ids.indexOf(a))) {
    const one = await createUndoDocuments(jobs, log, previews, id, prompts);
    if (!one) break; // cancelled at a question: the rest are not made
    out.push(one);
  }
  return out;
}

/** Create Undo Document for one job: one document, a change set of the requests that put back its values (see the file header). */
export async function createUndoDocuments(
  jobs: JobsForValues,
  log: vscode.LogOutputChannel,
  previews: MarkdownPreviews,
  jobId?: string,
  prompts: UndoPrompts = modalUndoPrompts,
): Promise<UndoOutcome | undefined> {
  const id =
    jobId ??
    (await jobs.pickJobId((s) => (s.requestsByState?.succeeded ?? 0) + (s.outcomeUnknown ?? 0) > 0, vscode.l10n.t('Pick the update job to undo')));
  if (!id) return undefined;
  const journal = await jobs.loadJob(id);
  const planned = await core().planUndoForJob(journal);
  const { values } = planned;
  let plan = planned.plan;
  if (!values.before) {
    throw new UserInputError(
      vscode.l10n.t('This job has no values from before sending (it was sent with workItemStudio.bulk.readValues off, or by an earlier version), so it cannot be undone here.'),
    );
  }
  // Like Send: items changed since the job are listed, and skipped unless the user says otherwise.
  let drift: UndoDrift[] = [];
  let skipped: string[] = [];
  if (plan.documents.length > 0) {
    const checked = await askAboutDrift(jobs, log, journal, prompts);
    if (!checked) return undefined;
    drift = checked.drift;
    if (checked.skip.size > 0) {
      skipped = [...checked.skip];
      plan = core().planUndoSkipping(journal, values, checked.skip);
    }
  }
  const name = documentName(journal.data.source.uri);
  if (plan.documents.length === 0 && plan.nonInvertible.length === 0) {
    void vscode.window.showInformationMessage(
      skipped.length > 0
        ? vscode.l10n.t('Nothing to undo: every item this job changed was changed again since, and was skipped.')
        : vscode.l10n.t('Nothing to undo: no item of this job was changed.'),
    );
    return { jobId: id, plan, documents: [], drift, skipped };
  }
  // The document carries the job's service: Send refuses it while another service is in use.
  const service = journal.data.service ? core().serviceBaseUrl(journal.data.service) : journal.plan.baseUrl.replace(/\/+$/, '');
  const requests = plan.documents.map((d) => ({
    workItemIds: d.workItemIds,
    update: d.update,
    description: undoDescription(d.kind),
    ...(d.kind === 'delete' ? { kind: 'delete' as const } : {}),
  }));
  const docName = undoDocumentName(name, id);
  const uris: vscode.Uri[] = [];
  if (requests.length > 0) {
    // Its description names the service profile the job was sent to, as the status bar calls it.
    const where = journal.data.service?.label ?? service;
    const doc = core().createChangeDocument(requests, { description: vscode.l10n.t('Undo of {0} (job {1}) on {2}', name, id, where), service });
    const summary = undoSummary({ name, jobId: id, plan, documents: plan.documents.map((_, i) => vscode.l10n.t('Request {0}', i + 1)) }, summaryStrings(`${docName}.workitems.json`));
    // The summary first (beside), then the document, so it is the active editor.
    await previews.show(vscode.Uri.from({ scheme: 'untitled', path: `/undo-${id}.workitems.json` }), summary);
    await vscode.commands.executeCommand('workbench.action.focusFirstEditorGroup');
    const editor = await openNewRequestDocument(doc as unknown as Template, docName, true);
    uris.push(editor.document.uri);
  } else {
    const summary = undoSummary({ name, jobId: id, plan, documents: [] }, summaryStrings(''));
    await previews.show(vscode.Uri.from({ scheme: 'untitled', path: `/undo-${id}.workitems.json` }), summary);
  }
  log.info(`Undo of job ${id}: 1 document of ${requests.length} requests for ${plan.items} items; ${plan.nonInvertible.length} changes cannot be put back; ${skipped.length} changed since the job were skipped.`);
  if (skipped.length > 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('{0} changed since the job and are left out of the undo: {1}', itemsText(skipped.length), skipped.slice(0, 20).join(', ') + (skipped.length > 20 ? ' …' : '')),
    );
  }
  return { jobId: id, plan, documents: uris, drift, skipped };
}
