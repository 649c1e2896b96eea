// Continuing existing update jobs: Resume (what was never sent; an add of unknown outcome is
// looked for below its parent first, and sent only when it is not there), Retry Failed
// (asking first when requests can only fail the same way again), Remove Missing IDs
// and Send the Rest (finding unnamed missing IDs by reading them), and Resend
// Unknown… (only after an explicit confirmation). Every question goes through the
// runner's `prompts` (./prompts.ts).
import * as vscode from 'vscode';
import type { AddCandidate, missingIdsOf, JobJournal, JobResult } from '../../bulk';
import { abortOn } from '../../common/abortOn';
import { readSettings } from '../../common/config';
import { describeError } from '../../common/messages';
import { documentName } from '../../common/requestDocument';
import { decideUnknown } from '../../common/unknownChoice';
import { itemsText, workItemsText } from '../../common/wording';
import { idsPreview, removeIdsFromDocumentText } from '../../common/model/ids';
import { chooseRequests, itemCount, pickJob } from './picking';
import type { JobRunner } from './running';
import { core } from '../../core/load';

/** Resumes a job: sends what was never sent, after looking for its adds of unknown outcome. */
export async function resume(jobs: JobRunner, jobId?: string): Promise<JobResult | undefined> {
  let id = jobId;
  if (!id) {
    const unfinished = await core().listUnfinishedJobs(jobs.jobsDir);
    if (unfinished.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No update job is waiting to be resumed.'));
      return undefined;
    }
    const ids = new Set(unfinished.map((s) => s.jobId));
    id = await pickJob(jobs.jobsDir, (s) => ids.has(s.jobId), vscode.l10n.t('Pick an unfinished update job'));
    if (!id) return undefined;
  }
  const journal = await jobs.load(id);
  const pending = journal.indexesIn('pending');
  // Adds of unknown outcome are looked for below their parent (and sent only when they are not there).
  const looked = core().unknownAddIndexes(journal);
  if (pending.length === 0 && looked.length === 0) {
    await jobs.showJob(id);
    return undefined;
  }
  const info = jobs.connectionFor(journal);
  const items = itemCount(journal, pending);
  const values = await journal.valuesBeforeState();
  // Killed between its journal and its values before: nothing has left, so they can be read again now.
  const reread = values === 'missing' && !!jobs.valueHooks && readSettings().bulk.readValues && journal.requests.every((r) => r.state === 'pending');
  const withoutUndo = values === 'missing' && !reread;
  const detail = [vscode.l10n.t('Requests that were already sent are not sent again; those of unknown outcome are listed in the results.')];
  if (looked.length > 0) detail.push(lookForAddsText());
  if (reread) detail.push(vscode.l10n.t('The values before the update were not kept (the window closed before they were written): they are read again before the first request, so the job can be undone.'));
  else if (values === 'missing' || values === 'unrecorded') detail.push(vscode.l10n.t('This job cannot be undone: the values before the update were not kept.'));
  const pick = await jobs.prompts.resume({
    message:
      pending.length === 0
        ? looked.length === 1
          ? vscode.l10n.t('Look for the items of the add of unknown outcome of this job on {0}, and send it only if it did not happen?', info.label)
          : vscode.l10n.t('Look for the items of the {0} adds of unknown outcome of this job on {1}, and send only those that did not happen?', looked.length, info.label)
        : pending.length === 1
          ? vscode.l10n.t('Send the 1 request ({0}) of this job that was never sent to {1}?', itemsText(items), info.label)
          : vscode.l10n.t('Send the {0} requests ({1}) of this job that were never sent to {2}?', pending.length, itemsText(items), info.label),
    detail: detail.join('\n\n'),
    withoutUndo,
  });
  if (pick === 'discard') {
    await journal.markFinished();
    jobs.log.info(`bulk job ${journal.id}: discarded by the user`);
    return undefined;
  }
  if (pick !== 'send') return undefined;
  let readValuesBefore: ((j: JobJournal) => Promise<void>) | undefined;
  let resumeWithoutUndo = withoutUndo;
  if (reread) {
    const source = journal.data.source;
    const name = documentName(source.uri);
    const prepared = await jobs.valueHooks!.prepare(
      { uri: source.uri ? vscode.Uri.parse(source.uri) : vscode.Uri.from({ scheme: 'untitled', path: name }), text: source.text ?? '', description: source.description, name },
      journal.plan,
      info,
      new (core().SharedPacing)(),
    ); // asks "Send Without Undo" itself when they cannot be read; a cancellation stops here
    if (prepared) readValuesBefore = (j) => prepared.write(j);
    else resumeWithoutUndo = true;
  }
  if (resumeWithoutUndo) jobs.log.warn(`bulk job ${journal.id}: resumed without its values before; it cannot be undone`);
  return jobs.rerun(journal, info, 'resume', (opts) => core().resumeJob(journal, { ...opts, readValuesBefore, withoutUndo: resumeWithoutUndo }));
}

/**
 * Re-sends the failed requests. When some of them can only fail the same way again (the service
 * refused them for what they say, e.g. work items that do not exist), asks first and says why.
 */
export async function retryFailedRequests(jobs: JobRunner, jobId?: string): Promise<JobResult | undefined> {
  const id = jobId ?? (await pickJob(jobs.jobsDir, (s) => (s.failed ?? 0) > 0, vscode.l10n.t('Pick a job whose failed requests to send again')));
  if (!id) return undefined;
  const journal = await jobs.load(id);
  const failed = journal.indexesIn('failed');
  if (failed.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('This job has no failed requests.'));
    return undefined;
  }
  const info = jobs.connectionFor(journal);
  const result = core().resultFromJournal(journal);
  const same = failed.map((i) => core().sameFailureAgain(result.requests[i]?.error)).filter((w) => w !== undefined);
  if (same.length > 0) {
    const missing = core().missingIdsOf(result);
    // Refused without a code naming missing work items (whatever the status or body): which are missing is found by reading them.
    const unnamedIndexes = new Set(core().unnamedNotFound(result));
    const unnamed = unnamedIndexes.size > 0;
    const unnamed404 = failed.some((i) => unnamedIndexes.has(i) && result.requests[i]?.error?.status === 404);
    const why = same.includes('missing-ids')
      ? vscode.l10n.t('The service refused them because work items they name do not exist ({0}); sent again unchanged, they fail the same way.', idsPreview(missing.missing))
      : unnamed404
        ? vscode.l10n.t('The service answered "not found" without saying which work items do not exist; sent again unchanged, they fail the same way. Removing the missing IDs reads the work items first to find them.')
        : vscode.l10n.t('The service refused them for what they ask (for example a value it does not accept); sent again unchanged, they fail the same way unless something changed on the service.');
    const pick = await jobs.prompts.sameFailure({
      message:
        same.length === failed.length
          ? failed.length === 1
            ? vscode.l10n.t('Retry the failed request that will most likely fail again?')
            : vscode.l10n.t('Retry {0} failed requests that will most likely fail again?', failed.length)
          : vscode.l10n.t('{0} of the {1} failed requests will most likely fail again. Retry all of them?', same.length, failed.length),
      detail: why,
      canRemoveMissing: missing.remaining.length > 0 || unnamed,
    });
    jobs.log.info(`bulk job ${journal.id}: retry of ${failed.length} failed requests (${same.length} refused for what they ask): ${pick ?? 'cancelled'}`);
    if (pick === 'removeMissing') return sendWithoutMissing(jobs, journal.id);
    if (pick !== 'retry') return undefined;
  }
  return jobs.rerun(journal, info, 'retry', (opts) => core().retryFailed(journal, opts));
}

/**
 * "Remove Missing IDs and Send the Rest": a new job with the same update for the other IDs of the
 * requests refused because work items they name do not exist. The request document loses the
 * missing IDs only when the user says so.
 */
export async function sendWithoutMissing(jobs: JobRunner, jobId?: string): Promise<JobResult | undefined> {
  const id = jobId ?? (await pickJob(jobs.jobsDir, (s) => (s.failed ?? 0) > 0, vscode.l10n.t('Pick a job whose failed requests to send again')));
  if (!id) return undefined;
  const journal = await jobs.load(id);
  const result = core().resultFromJournal(journal);
  let m = core().missingIdsOf(result);
  const unnamed = core().unnamedNotFound(result);
  if (m.missing.length === 0 && unnamed.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('The service did not say that a work item of this job does not exist.'));
    return undefined;
  }
  const info = jobs.connectionFor(journal);
  if (unnamed.length > 0) {
    // Refused without a code naming missing work items (any status, any body): read their work items to find the missing ones.
    const found = await findMissing(jobs, result, unnamed);
    if (!found) return undefined;
    m = { missing: [...m.missing, ...found.missing], requests: [...m.requests, ...found.requests], remaining: [...m.remaining, ...found.remaining] };
    if (m.missing.length === 0) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Every work item of the refused requests exists on {0}: the service refused them for another reason (see the results).', info.label),
      );
      return undefined;
    }
  }
  const name = documentName(journal.data.source.uri);
  const canEdit = !!journal.data.source.uri;
  const pick = await jobs.prompts.sendWithoutMissing({
    message: vscode.l10n.t('Send the update to the other work items of the refused requests ({0}), without those that do not exist ({1})?', workItemsText(m.remaining.length), workItemsText(m.missing.length)),
    detail: vscode.l10n.t('Missing: {0}. A new update job on {1} sends the rest; {2} changes only if you choose to remove them from it.', idsPreview(m.missing, 20), info.label, name),
    canEdit,
  });
  if (!pick || pick === 'cancel') return undefined;
  if (pick === 'sendAndRemove') await removeFromDocument(jobs, journal, m.missing);
  if (m.remaining.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No other work item is left to send.'));
    return undefined;
  }
  const remaining = new Set(m.remaining);
  const plan = core().planChange({
    requests: journal.plan.parts
      // A delete stays a delete; an add names no item (its parent, when missing, is not added below).
      .map((p) => ({
        workItemIds: p.ids.filter((id) => remaining.has(id)),
        update: p.update,
        ...(p.kind === 'delete' ? { kind: p.kind } : {}),
        ...(p.description !== undefined ? { description: p.description } : {}),
      }))
      .filter((p) => p.workItemIds.length > 0),
    baseUrl: info.baseUrl,
    maxIdsPerRequest: journal.plan.maxIdsPerRequest,
    maxUrlLength: journal.plan.maxUrlLength,
  });
  const source = journal.data.source;
  jobs.log.info(`bulk job ${journal.id}: sending ${m.remaining.length} items again without ${m.missing.length} missing ones`);
  return jobs.runNew(
    {
      uri: source.uri ? vscode.Uri.parse(source.uri) : vscode.Uri.from({ scheme: 'untitled', path: name }),
      text: source.text ?? '',
      description: source.description,
      name,
    },
    plan,
    info,
  );
}

/** What a resumption does with an add of unknown outcome. */
function lookForAddsText(): string {
  return vscode.l10n.t(
    'An add of unknown outcome is looked for below its parent first: found (by the key its items carry), it is marked as succeeded and not sent again; not there, it is sent once; when that cannot be told, the items that may be it are listed in the results.',
  );
}

/** The adds among `selected`. */
function addsOf(journal: JobJournal, selected: readonly number[]): number[] {
  return selected.filter((i) => core().kindOfRequest(journal.plan, journal.plan.requests[i] ?? {}) === 'add');
}

/**
 * For requests of unknown outcome that add: they are looked for before they are sent again, and
 * the items a look found that may be what they created (an add sent again adds its items a second time).
 */
function addsNote(journal: JobJournal, selected: readonly number[]): string {
  const adds = addsOf(journal, selected);
  if (adds.length === 0) return '';
  const lines = [
    vscode.l10n.t('An add is looked for below its parent before it is sent again: found by the key its items carry, it is marked as succeeded and not sent.'),
  ];
  for (const i of adds) {
    const candidates = journal.requests[i]?.candidates ?? [];
    if (candidates.length === 0) continue;
    const parent = journal.plan.requests[i]!.ids[0]!;
    lines.push(
      candidates.length === 1
        ? vscode.l10n.t('Below {0}, item {1} is named like the add and is new since it was sent: it may be what the add created. Mark as Applied takes it as the add’s item; Resend adds another.', parent, candidateText(candidates[0]!))
        : vscode.l10n.t('Below {0}, these items are named like the add and are new since it was sent: {1}. One may be what the add created: Mark as Applied asks which; Resend adds another.', parent, candidates.map(candidateText).join(', ')),
    );
  }
  return `\n\n${lines.join('\n\n')}`;
}

/** "123 (Release)". */
function candidateText(c: AddCandidate): string {
  return `${c.id} (${c.name})`;
}

/**
 * Mark as Applied of the adds among `selected` that a look left undecided: the candidate each
 * created (the only one, or the one the user picks). Undefined when the user cancels.
 */
async function chosenCandidates(jobs: JobRunner, journal: JobJournal, selected: readonly number[]): Promise<Map<number, string> | undefined> {
  const chosen = new Map<number, string>();
  for (const i of addsOf(journal, selected)) {
    const candidates = journal.requests[i]?.candidates ?? [];
    if (candidates.length === 1) chosen.set(i, candidates[0]!.id);
    else if (candidates.length > 1) {
      const pick = await jobs.prompts.pickCandidate({ parentId: journal.plan.requests[i]!.ids[0]!, candidates });
      if (pick === undefined) return undefined;
      if (pick !== 'none') chosen.set(i, pick);
    }
  }
  return chosen;
}

/**
 * Which IDs of the requests `indexes` do not exist, found by reading them (paced, in
 * batches, cancellable), for a refusal that does not name them by a code (codes are no
 * contract). Undefined when the read is cancelled or fails (the failure is shown).
 */
async function findMissing(jobs: JobRunner, result: JobResult, indexes: readonly number[]): Promise<ReturnType<typeof missingIdsOf> | undefined> {
  const wanted = new Set(indexes);
  const ids = [...new Set(result.requests.filter((r) => wanted.has(r.index)).flatMap((r) => r.ids))];
  const b = readSettings().bulk;
  try {
    const read = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: ids.length === 1 ? vscode.l10n.t('Checking whether work item {0} exists…', ids[0]!) : vscode.l10n.t('Checking which of {0} work items exist…', ids.length), cancellable: true },
      async (_progress, token) => {
        const abort = abortOn(token);
        try {
          return await jobs.connections.run(
            (c) => core().readMissingIds(c, ids, { maxUrlLength: b.maxUrlLength, requestsPerMinute: b.requestsPerMinute, signal: abort.signal }),
            { signal: abort.signal },
          );
        } finally {
          abort.dispose();
        }
      },
    );
    jobs.log.info(`Read ${ids.length} work items of ${indexes.length} refused requests in ${read.requests} requests: ${read.missing.length} do not exist`);
    return core().missingFromRead(result, indexes, read.missing);
  } catch (e) {
    if (core().isServiceError(e) && e.kind === 'cancelled') return undefined;
    void vscode.window.showErrorMessage(vscode.l10n.t('Could not check which work items exist: {0}', describeError(e)));
    return undefined;
  }
}

/** Removes IDs from the job's request document (an edit the user can undo and must save). */
async function removeFromDocument(jobs: JobRunner, journal: JobJournal, ids: readonly string[]): Promise<void> {
  const uri = journal.data.source.uri ? vscode.Uri.parse(journal.data.source.uri) : undefined;
  if (!uri) return;
  const doc = await vscode.workspace.openTextDocument(uri);
  const text = removeIdsFromDocumentText(doc.getText(), ids);
  if (text === undefined || text === doc.getText()) {
    void vscode.window.showWarningMessage(vscode.l10n.t('{0} no longer lists the missing work items; it was left unchanged.', documentName(uri)));
    return;
  }
  const edit = new vscode.WorkspaceEdit();
  edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text);
  await vscode.workspace.applyEdit(edit);
  jobs.log.info(`Removed ${ids.length} missing work item IDs from ${documentName(uri)} (not saved).`);
}

/** Re-sends requests of unknown outcome, only after an explicit confirmation (an add is looked for first, by the engine). */
export async function resendUnknownRequests(jobs: JobRunner, jobId?: string): Promise<JobResult | undefined> {
  const id = jobId ?? (await pickJob(jobs.jobsDir, (s) => (s.outcomeUnknown ?? 0) > 0, vscode.l10n.t('Pick a job with requests of unknown outcome')));
  if (!id) return undefined;
  const journal = await jobs.load(id);
  const unknown = journal.indexesIn('unknown', 'cancelled');
  if (unknown.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('This job has no requests of unknown outcome.'));
    return undefined;
  }
  const info = jobs.connectionFor(journal);
  // Requests of unknown outcome often differ (one was applied, another was not):
  // with several, the user can pick which ones the decision is about.
  const decision = await decideUnknown(
    unknown,
    async (selected, canChoose) => {
      const pick = await jobs.prompts.resendUnknown({
        message:
          selected.length === 1
            ? vscode.l10n.t('Send 1 request ({0}) of unknown outcome to {1} again?', itemsText(itemCount(journal, selected)), info.label)
            : vscode.l10n.t('Send {0} requests ({1}) of unknown outcome to {2} again?', selected.length, itemsText(itemCount(journal, selected)), info.label),
        detail: vscode.l10n.t(
          'The service may already have applied them. Sending them again can apply the change twice (for example, shift dates twice). Check the items on the service first. Choose "Mark as Applied" if they were applied.',
        ) + addsNote(journal, selected),
        selected,
        canChoose,
      });
      return pick === 'cancel' ? undefined : pick;
    },
    (selected) => chooseRequests(journal, selected),
  );
  if (!decision) return undefined;
  const selected = decision.indexes;
  if (decision.action === 'applied') {
    const chosen = await chosenCandidates(jobs, journal, selected);
    if (!chosen) return undefined;
    await core().confirmUnknown(journal, selected, chosen);
    jobs.log.info(`bulk job ${journal.id}: ${selected.length} requests of unknown outcome marked as applied by the user`);
    await jobs.showJob(journal.id);
    return undefined;
  }
  return jobs.rerun(journal, info, 'resend', (opts) => core().resendUnknown(journal, selected, opts));
}

