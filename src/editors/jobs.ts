// Running bulk jobs from the editor: progress with cancel, the job journal in the
// extension's global storage (created lazily, never at activation), resumption of
// unfinished jobs, "Retry Failed", "Resend Unknown…" (with explicit confirmation)
// and the result view.
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  confirmUnknown,
  JobJournal,
  listJobs,
  listUnfinishedJobs,
  missingFromRead,
  missingIdsOf,
  planJob,
  pruneJobs,
  sameFailureAgain,
  unnamedNotFound,
  resendUnknown,
  resultFromJournal,
  resumeJob,
  retryFailed,
  runJob,
  type BulkClient,
  type JobPlan,
  type JobProgress,
  type JobResult,
  type JobSummary,
  type RunOptions,
} from '../bulk';
import type { ConnectionInfo, ConnectionManager } from '../common/connection';
import type { UserDirectory } from '../people/directory';
import { isServiceError } from '../api/errors';
import { readMissingIds } from '../bulk/missing';
import type { WorkItemReader } from '../bulk/readValues';
import { readWorkItems } from '../api/reads';
import { readSettings } from '../common/config';
import { describeError } from '../common/messages';
import { ContextKeys, setContext } from '../common/contextKeys';
import { decideUnknown } from '../common/unknownChoice';
import { itemsText, outcomeMessage, requestsText } from '../common/wording';
import { idsPreview, removeIdsFromDocumentText } from './model/ids';
import { restoredJobId } from './model/results';
import type { ChangeTable } from '../changes/model/table';
import { ResultPanels, type ResultViewModel } from './results/resultPanel';
import { UserInputError } from '../common/commands';
import { describeService, type JobService, type ServiceGoneReason } from '../bulk/service';

/** Answers given by a script (tests) instead of the questions a person answers. */
export interface ScriptedAnswers {
  /** Retry Failed, when requests can only fail the same way again. */
  sameFailure?: 'retry' | 'removeMissing' | 'cancel';
  /** Remove Missing IDs and Send the Rest. */
  sendWithoutMissing?: 'sendAndRemove' | 'send' | 'cancel';
}

/**
 * The values of a job's items (src/changes): read before sending (kept beside the
 * journal for undo), re-read after a run, shown as before → after in the result view.
 */
export interface JobValueHooks {
  /** Before a new job's journal exists: reads the values (and may warn about drift). Throws a cancellation when the user stops the send. */
  prepare(source: JobSourceInfo, plan: JobPlan, info: ConnectionInfo): Promise<{ write(journal: JobJournal): Promise<void> } | undefined>;
  /** After a run: re-reads the values of the items changed. */
  afterRun(journal: JobJournal): Promise<void>;
  /** The before → after table of a job, and whether it can be undone (reads files only). */
  changes(journal: JobJournal): Promise<{ table?: ChangeTable; undo: boolean } | undefined>;
}

/** Finished journals older than this are deleted (at first use in a session). */
const KEEP_FINISHED_JOBS_MS = 30 * 24 * 60 * 60 * 1000;

export interface JobSourceInfo {
  uri: vscode.Uri;
  text: string;
  description?: string;
  name: string;
}

export function documentName(uri: vscode.Uri | string | undefined): string {
  if (!uri) return vscode.l10n.t('(unknown document)');
  const u = typeof uri === 'string' ? vscode.Uri.parse(uri) : uri;
  return path.posix.basename(u.path) || u.toString();
}

export class RequestJobs implements vscode.Disposable {
  readonly panels: ResultPanels;
  private offered = false;
  private pruned = false;
  /** Jobs running in this window (their journal is locked by us). */
  private readonly running = new Set<string>();
  private readonly finished = new vscode.EventEmitter<{ jobId?: string; result: JobResult }>();
  /** Fires when a run ends (tests and views listen). */
  readonly onDidFinishJob = this.finished.event;
  /** Set by the before/after feature (src/changes). */
  valueHooks?: JobValueHooks;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly connections: ConnectionManager,
    people?: UserDirectory,
  ) {
    this.panels = new ResultPanels(log, people);
  }

  /** The journal directory (created by the journal on first write). */
  get jobsDir(): string {
    return path.join(this.context.globalStorageUri.fsPath, 'jobs');
  }

  dispose(): void {
    this.panels.dispose();
    this.finished.dispose();
  }

  private runOptions(): Omit<RunOptions, 'client'> {
    const b = readSettings().bulk;
    return { concurrency: b.concurrency, requestsPerMinute: b.requestsPerMinute, retryBudget: b.retryBudget, retryRefusedUpdates: retryRefusedUpdates(), logger: this.log };
  }

  /** Runs a new job for a planned document: journal, progress with cancel, result view. */
  async runNew(source: JobSourceInfo, plan: JobPlan, info: ConnectionInfo): Promise<JobResult> {
    await this.connections.getClient(); // signs in first when needed, before anything is written
    const prepared = await this.valueHooks?.prepare(source, plan, info);
    // The job belongs to this service: its journal records it, and every request of the job goes there or nowhere.
    const service = await this.connections.jobServiceFor(info);
    const journal = await JobJournal.create(this.jobsDir, {
      source: { uri: source.uri.toString(), text: source.text, description: source.description },
      plan,
      service,
      // A journal that expects its values before and has none was left between these two steps: it is not resumed silently.
      valuesBefore: prepared ? 'expected' : 'off',
    });
    try {
      await prepared?.write(journal); // the values before are on disk before the first request leaves
    } catch (e) {
      await journal.markFinished().catch(() => undefined);
      throw e;
    }
    this.log.info(`bulk job ${journal.id}: ${plan.ids.length} items in ${plan.requests.length} requests to ${info.baseUrl} (${source.name})`);
    return this.execute(journal, info, 'run', (opts) => runJob(plan, { ...opts, journal }));
  }

  private async execute(
    journal: JobJournal,
    info: ConnectionInfo,
    kind: 'run' | 'resume' | 'retry' | 'resend',
    run: (opts: RunOptions) => Promise<JobResult>,
  ): Promise<JobResult> {
    if (this.running.has(journal.id)) throw new UserInputError(vscode.l10n.t('This update job is already running.'));
    // Bound to the job's service: a request goes there (signing in again after a 401) or is not sent; the job pauses when it is gone.
    const binding = this.connections.bindingFor(journal.data.service ?? (await this.connections.jobServiceFor(info)));
    const bound = this.connections.jobClient(binding);
    const client: BulkClient = bound.client;
    this.running.add(journal.id);
    const title =
      kind === 'run'
        ? vscode.l10n.t('Updating work items on {0}', info.label)
        : kind === 'resume'
          ? vscode.l10n.t('Resuming the update on {0}', info.label)
          : kind === 'retry'
            ? vscode.l10n.t('Retrying failed requests on {0}', info.label)
            : vscode.l10n.t('Re-sending requests of unknown outcome to {0}', info.label);
    let result: JobResult;
    try {
      result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title, cancellable: true },
        async (progress, token) => {
          const abort = new AbortController();
          const sub = token.onCancellationRequested(() => {
            this.log.info(`bulk job ${journal.id}: cancelled by the user`);
            abort.abort();
          });
          let lastPercent = 0;
          progress.report({ message: vscode.l10n.t('Starting…') });
          const onProgress = (p: JobProgress): void => {
            const percent = p.itemsTotal > 0 ? (p.itemsDone / p.itemsTotal) * 100 : 0;
            const message = p.waitingUntil
              ? vscode.l10n.t('{0} of {1} items done (waiting for the service)', p.itemsDone, p.itemsTotal)
              : vscode.l10n.t('{0} of {1} items done', p.itemsDone, p.itemsTotal);
            progress.report({ message, increment: Math.max(0, percent - lastPercent) });
            lastPercent = Math.max(lastPercent, percent);
            if (p.current) {
              const r = journal.requests[p.current.index];
              const line = `bulk job ${journal.id}: request #${p.current.index + 1} (${p.current.ids} items) ${p.current.state}`;
              const extra = r ? `${r.status !== undefined ? ` status ${r.status}` : ''}${r.durationMs !== undefined ? ` in ${Math.round(r.durationMs)} ms` : ''}` : '';
              if (p.current.state === 'failed' || p.current.state === 'unknown') this.log.warn(line + extra);
              else this.log.info(line + extra);
            }
          };
          try {
            return await run({ client, ...this.runOptions(), service: binding, signal: abort.signal, onProgress });
          } finally {
            sub.dispose();
          }
        },
      );
    } finally {
      bound.done();
      this.running.delete(journal.id);
    }
    this.log.info(
      `bulk job ${journal.id}: ${result.outcome}; ${Object.entries(result.totals.requestsByState)
        .filter(([, n]) => n > 0)
        .map(([s, n]) => `${n} ${s}`)
        .join(', ')} (${Math.round(result.durationMs)} ms)`,
    );
    try {
      await this.valueHooks?.afterRun(journal);
    } catch (e) {
      this.log.warn(`bulk job ${journal.id}: the values after the update were not read: ${e instanceof Error ? e.message : String(e)}`);
    }
    await this.showResults(journal, info.label);
    void setContext(ContextKeys.sent, true);
    this.finished.fire({ jobId: journal.id, result });
    void this.announce(result, info);
    return result;
  }

  private async announce(result: JobResult, info: ConnectionInfo): Promise<void> {
    if (result.paused) {
      await vscode.window.showWarningMessage(pausedMessage(result.paused.reason, result.paused.service, result.totals.itemsByState.pending));
      return;
    }
    const m = outcomeMessage(result, info.label);
    const refused = refusedUpdatesText(result);
    const text = refused ? `${m.text} ${refused}` : m.text;
    if (m.severity === 'info') await vscode.window.showInformationMessage(text);
    else await vscode.window.showWarningMessage(text);
  }

  // ---------------------------------------------------------------------------
  // Existing jobs
  // ---------------------------------------------------------------------------

  private async load(jobId: string): Promise<JobJournal> {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,100}$/.test(jobId)) throw new UserInputError(vscode.l10n.t('"{0}" is not a job id.', jobId));
    return JobJournal.load(path.join(this.jobsDir, `job-${jobId}.json`));
  }

  /** The current connection, which must be the service the job belongs to (its journal's record, else its plan's). */
  private connectionFor(journal: JobJournal): ConnectionInfo {
    const info = this.connections.current;
    const recorded = journal.data.service;
    if (recorded) {
      const why = this.connections.bindingFor(recorded).gone();
      if (!info || why) throw new UserInputError(notItsServiceMessage(recorded, why, info));
      return info;
    }
    const planned = journal.plan.baseUrl.replace(/\/+$/, '');
    if (!info || info.baseUrl.replace(/\/+$/, '') !== planned) {
      throw new UserInputError(
        vscode.l10n.t('This job was planned for {0}, but the current service is {1}. Connect to {0} to continue it.', planned, info ? info.baseUrl : vscode.l10n.t('(none)')),
      );
    }
    return info;
  }

  private async pickJob(filter: (s: JobSummary) => boolean, placeHolder: string): Promise<string | undefined> {
    const jobs = (await listJobs(this.jobsDir)).filter((s) => !s.error && s.jobId && filter(s));
    if (jobs.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('There is no such update job.'));
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      jobs.map((s) => ({
        label: s.source?.description || documentName(s.source?.uri),
        description: s.createdAt ? new Date(s.createdAt).toLocaleString() : undefined,
        detail: summaryLine(s),
        jobId: s.jobId!,
      })),
      { placeHolder },
    );
    return picked?.jobId;
  }

  async showJob(jobId?: string): Promise<void> {
    const id = jobId ?? (await this.pickJob(() => true, vscode.l10n.t('Pick an update job to show its results')));
    if (!id) return;
    const journal = await this.load(id);
    const info = this.connections.current;
    await this.showResults(journal, info && info.baseUrl === journal.plan.baseUrl ? info.label : journal.plan.baseUrl, false);
  }

  /** The journal of a job (for other features: undo). */
  loadJob(jobId: string): Promise<JobJournal> {
    return this.load(jobId);
  }

  /**
   * Reads work items on the service of a job (for undo's drift check): refused with a
   * clear error when the current connection is not that service.
   */
  readerFor(journal: JobJournal): WorkItemReader {
    this.connectionFor(journal);
    const b = readSettings().bulk;
    return (ids, fields, o) =>
      this.connections.run((c) => readWorkItems(c, ids, { fields, maxUrlLength: b.maxUrlLength, requestsPerMinute: b.requestsPerMinute, signal: o.signal, onProgress: o.onProgress }));
  }

  /** Picks a job from the list (for other features); undefined when cancelled or none. */
  pickJobId(filter: (s: JobSummary) => boolean, placeHolder: string): Promise<string | undefined> {
    return this.pickJob(filter, placeHolder);
  }

  /** The result view of a job (the document it was sent from, the results so far). */
  async showResults(journal: JobJournal, serviceLabel: string, reveal?: boolean): Promise<void> {
    this.panels.show(await this.resultModel(journal, serviceLabel), reveal);
  }

  private async resultModel(journal: JobJournal, serviceLabel: string): Promise<ResultViewModel> {
    const uri = journal.data.source.uri;
    let changes: Awaited<ReturnType<JobValueHooks['changes']>>;
    try {
      changes = await this.valueHooks?.changes(journal);
    } catch (e) {
      this.log.warn(`bulk job ${journal.id}: the values before and after cannot be shown: ${e instanceof Error ? e.message : String(e)}`);
    }
    return {
      ...(changes?.table ? { changes: changes.table } : {}),
      undo: changes?.undo === true,
      jobId: journal.id,
      result: resultFromJournal(journal),
      serviceLabel,
      baseUrl: journal.plan.baseUrl,
      documentName: documentName(uri),
      documentUri: uri ? vscode.Uri.parse(uri) : undefined,
    };
  }

  /** A result view VS Code restored after a window reload: shows its job again from the journal. */
  async restoreResultView(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const jobId = restoredJobId(state);
    let model: ResultViewModel | undefined;
    if (jobId) {
      try {
        const journal = await this.load(jobId);
        const info = this.connections.current;
        model = await this.resultModel(journal, info && info.baseUrl === journal.plan.baseUrl ? info.label : journal.plan.baseUrl);
      } catch (e) {
        this.log.info(`The result view of job ${jobId} was not restored: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    this.panels.restore(panel, model);
  }

  /** A modal question before requests of an existing job are sent; the button picked, or undefined. */
  private async askModal(message: string, detail: string, ...buttons: string[]): Promise<string | undefined> {
    return vscode.window.showWarningMessage(message, { modal: true, detail }, ...buttons);
  }

  /** Resumes an unfinished job: sends only what was never sent. */
  async resume(jobId?: string): Promise<JobResult | undefined> {
    let id = jobId;
    if (!id) {
      const unfinished = await listUnfinishedJobs(this.jobsDir);
      if (unfinished.length === 0) {
        void vscode.window.showInformationMessage(vscode.l10n.t('No update job is waiting to be resumed.'));
        return undefined;
      }
      const ids = new Set(unfinished.map((s) => s.jobId));
      id = await this.pickJob((s) => ids.has(s.jobId), vscode.l10n.t('Pick an unfinished update job'));
      if (!id) return undefined;
    }
    const journal = await this.load(id);
    const pending = journal.indexesIn('pending');
    if (pending.length === 0) {
      await this.showJob(id);
      return undefined;
    }
    const info = this.connectionFor(journal);
    const items = itemCount(journal, pending);
    const values = await journal.valuesBeforeState();
    // Killed between its journal and its values before: nothing has left, so they can be read again now.
    const reread = values === 'missing' && !!this.valueHooks && readSettings().bulk.readValues && journal.requests.every((r) => r.state === 'pending');
    const withoutUndo = values === 'missing' && !reread;
    const send = withoutUndo ? vscode.l10n.t('Resume Without Undo') : vscode.l10n.t('Send');
    const discard = vscode.l10n.t('Discard Job');
    const detail = [vscode.l10n.t('Requests that were already sent are not sent again; those of unknown outcome are listed in the results.')];
    if (reread) detail.push(vscode.l10n.t('The values before the update were not kept (the window closed before they were written): they are read again before the first request, so the job can be undone.'));
    else if (values === 'missing' || values === 'unrecorded') detail.push(vscode.l10n.t('This job cannot be undone: the values before the update were not kept.'));
    const pick = await this.askModal(
      vscode.l10n.t('Send the {0} requests ({1} items) of this job that were never sent to {2}?', pending.length, items, info.label),
      detail.join('\n\n'),
      send,
      discard,
    );
    if (pick === discard) {
      await journal.markFinished();
      this.log.info(`bulk job ${journal.id}: discarded by the user`);
      return undefined;
    }
    if (pick !== send) return undefined;
    let readValuesBefore: ((j: JobJournal) => Promise<void>) | undefined;
    let resumeWithoutUndo = withoutUndo;
    if (reread) {
      const source = journal.data.source;
      const name = documentName(source.uri);
      const prepared = await this.valueHooks!.prepare(
        { uri: source.uri ? vscode.Uri.parse(source.uri) : vscode.Uri.from({ scheme: 'untitled', path: name }), text: source.text ?? '', description: source.description, name },
        journal.plan,
        info,
      ); // asks "Send Without Undo" itself when they cannot be read; a cancellation stops here
      if (prepared) readValuesBefore = (j) => prepared.write(j);
      else resumeWithoutUndo = true;
    }
    if (resumeWithoutUndo) this.log.warn(`bulk job ${journal.id}: resumed without its values before; it cannot be undone`);
    return this.rerun(journal, info, 'resume', (opts) => resumeJob(journal, { ...opts, readValuesBefore, withoutUndo: resumeWithoutUndo }));
  }

  /**
   * Re-sends the failed requests. When some of them can only fail the same way again (the service
   * refused them for what they say, e.g. work items that do not exist), asks first and says why.
   */
  async retryFailed(jobId?: string, answers: ScriptedAnswers = {}): Promise<JobResult | undefined> {
    const id = jobId ?? (await this.pickJob((s) => (s.failed ?? 0) > 0, vscode.l10n.t('Pick a job whose failed requests to send again')));
    if (!id) return undefined;
    const journal = await this.load(id);
    const failed = journal.indexesIn('failed');
    if (failed.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('This job has no failed requests.'));
      return undefined;
    }
    const info = this.connectionFor(journal);
    const result = resultFromJournal(journal);
    const same = failed.map((i) => sameFailureAgain(result.requests[i]?.error)).filter((w) => w !== undefined);
    if (same.length > 0) {
      const missing = missingIdsOf(result);
      // Refused without a code naming missing work items (whatever the status or body): which are missing is found by reading them.
      const unnamedIndexes = new Set(unnamedNotFound(result));
      const unnamed = unnamedIndexes.size > 0;
      const unnamed404 = failed.some((i) => unnamedIndexes.has(i) && result.requests[i]?.error?.status === 404);
      const retry = vscode.l10n.t('Retry Anyway');
      const removeMissing = vscode.l10n.t('Remove Missing IDs and Send the Rest');
      const why = same.includes('missing-ids')
        ? vscode.l10n.t('The service refused them because work items they name do not exist ({0}); sent again unchanged, they fail the same way.', idsPreview(missing.missing))
        : unnamed404
          ? vscode.l10n.t('The service answered "not found" without saying which work items do not exist; sent again unchanged, they fail the same way. Removing the missing IDs reads the work items first to find them.')
          : vscode.l10n.t('The service refused them for what they ask (for example a value it does not accept); sent again unchanged, they fail the same way unless something changed on the service.');
      const pick =
        answers.sameFailure ??
        (await this.askModal(
          same.length === failed.length
            ? vscode.l10n.t('Retry {0} failed requests that will most likely fail again?', failed.length)
            : vscode.l10n.t('{0} of the {1} failed requests will most likely fail again. Retry all of them?', same.length, failed.length),
          why,
          retry,
          ...(missing.remaining.length > 0 || unnamed ? [removeMissing] : []),
        ).then((p) => (p === retry ? 'retry' : p === removeMissing ? 'removeMissing' : undefined)));
      this.log.info(`bulk job ${journal.id}: retry of ${failed.length} failed requests (${same.length} refused for what they ask): ${pick ?? 'cancelled'}`);
      if (pick === 'removeMissing') return this.sendWithoutMissing(journal.id, answers);
      if (pick !== 'retry') return undefined;
    }
    return this.rerun(journal, info, 'retry', (opts) => retryFailed(journal, opts));
  }

  /**
   * "Remove Missing IDs and Send the Rest": a new job with the same update for the other IDs of the
   * requests refused because work items they name do not exist. The request document loses the
   * missing IDs only when the user says so.
   */
  async sendWithoutMissing(jobId?: string, answers: ScriptedAnswers = {}): Promise<JobResult | undefined> {
    const id = jobId ?? (await this.pickJob((s) => (s.failed ?? 0) > 0, vscode.l10n.t('Pick a job whose failed requests to send again')));
    if (!id) return undefined;
    const journal = await this.load(id);
    const result = resultFromJournal(journal);
    let m = missingIdsOf(result);
    const unnamed = unnamedNotFound(result);
    if (m.missing.length === 0 && unnamed.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('The service did not say that a work item of this job does not exist.'));
      return undefined;
    }
    const info = this.connectionFor(journal);
    if (unnamed.length > 0) {
      // Refused without a code naming missing work items (any status, any body): read their work items to find the missing ones.
      const found = await this.findMissing(result, unnamed);
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
    const sendAndEdit = vscode.l10n.t('Send and Remove Them from the Document');
    const sendOnly = vscode.l10n.t('Send Only');
    const canEdit = !!journal.data.source.uri;
    const pick =
      answers.sendWithoutMissing ??
      (await this.askModal(
        vscode.l10n.t('Send the update to the {0} other work items of the refused requests, without the {1} that do not exist?', m.remaining.length, m.missing.length),
        vscode.l10n.t('Missing: {0}. A new update job on {1} sends the rest; {2} changes only if you choose to remove them from it.', idsPreview(m.missing, 20), info.label, name),
        ...(canEdit ? [sendAndEdit] : []),
        sendOnly,
      ).then((p) => (p === sendAndEdit ? 'sendAndRemove' : p === sendOnly ? 'send' : undefined)));
    if (!pick || pick === 'cancel') return undefined;
    if (pick === 'sendAndRemove') await this.removeFromDocument(journal, m.missing);
    if (m.remaining.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No other work item is left to send.'));
      return undefined;
    }
    const plan = planJob({
      workItemIds: m.remaining,
      update: journal.plan.update,
      baseUrl: info.baseUrl,
      maxIdsPerRequest: journal.plan.maxIdsPerRequest,
      maxUrlLength: journal.plan.maxUrlLength,
    });
    const source = journal.data.source;
    this.log.info(`bulk job ${journal.id}: sending ${m.remaining.length} items again without ${m.missing.length} missing ones`);
    return this.runNew(
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

  /**
   * Which IDs of the requests `indexes` do not exist, found by reading them (paced, in
   * batches, cancellable), for a refusal that does not name them by a code (codes are no
   * contract). Undefined when the read is cancelled or fails (the failure is shown).
   */
  private async findMissing(result: JobResult, indexes: readonly number[]): Promise<ReturnType<typeof missingIdsOf> | undefined> {
    const wanted = new Set(indexes);
    const ids = [...new Set(result.requests.filter((r) => wanted.has(r.index)).flatMap((r) => r.ids))];
    const b = readSettings().bulk;
    try {
      const read = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Checking which of {0} work items exist…', ids.length), cancellable: true },
        (_progress, token) => {
          const controller = new AbortController();
          token.onCancellationRequested(() => controller.abort());
          return this.connections.run(
            (c) => readMissingIds(c, ids, { maxUrlLength: b.maxUrlLength, requestsPerMinute: b.requestsPerMinute, signal: controller.signal }),
            { signal: controller.signal },
          );
        },
      );
      this.log.info(`Read ${ids.length} work items of ${indexes.length} refused requests in ${read.requests} requests: ${read.missing.length} do not exist`);
      return missingFromRead(result, indexes, read.missing);
    } catch (e) {
      if (isServiceError(e) && e.kind === 'cancelled') return undefined;
      void vscode.window.showErrorMessage(vscode.l10n.t('Could not check which work items exist: {0}', describeError(e)));
      return undefined;
    }
  }

  /** Removes IDs from the job's request document (an edit the user can undo and must save). */
  private async removeFromDocument(journal: JobJournal, ids: readonly string[]): Promise<void> {
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
    this.log.info(`Removed ${ids.length} missing work item IDs from ${documentName(uri)} (not saved).`);
  }

  /** Re-sends requests of unknown outcome, only after an explicit confirmation. */
  async resendUnknown(jobId?: string): Promise<JobResult | undefined> {
    const id = jobId ?? (await this.pickJob((s) => (s.outcomeUnknown ?? 0) > 0, vscode.l10n.t('Pick a job with requests of unknown outcome')));
    if (!id) return undefined;
    const journal = await this.load(id);
    const unknown = journal.indexesIn('unknown', 'cancelled');
    if (unknown.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('This job has no requests of unknown outcome.'));
      return undefined;
    }
    const info = this.connectionFor(journal);
    const resend = vscode.l10n.t('Resend');
    const applied = vscode.l10n.t('Mark as Applied');
    const choose = vscode.l10n.t('Choose Requests…');
    // Requests of unknown outcome often differ (one was applied, another was not):
    // with several, the user can pick which ones the decision is about.
    const decision = await decideUnknown(
      unknown,
      async (selected, canChoose) => {
        const pick = await this.askModal(
          selected.length === 1
            ? vscode.l10n.t('Send 1 request ({0}) of unknown outcome to {1} again?', itemsText(itemCount(journal, selected)), info.label)
            : vscode.l10n.t('Send {0} requests ({1} items) of unknown outcome to {2} again?', selected.length, itemCount(journal, selected), info.label),
          vscode.l10n.t(
            'The service may already have applied them. Sending them again can apply the change twice (for example, shift dates twice). Check the items on the service first. Choose "Mark as Applied" if they were applied.',
          ),
          resend,
          applied,
          ...(canChoose ? [choose] : []),
        );
        return pick === resend ? 'resend' : pick === applied ? 'applied' : pick === choose ? 'choose' : undefined;
      },
      (selected) => this.chooseRequests(journal, selected),
    );
    if (!decision) return undefined;
    const selected = decision.indexes;
    if (decision.action === 'applied') {
      await confirmUnknown(journal, selected);
      this.log.info(`bulk job ${journal.id}: ${selected.length} requests of unknown outcome marked as applied by the user`);
      await this.showJob(journal.id);
      return undefined;
    }
    return this.rerun(journal, info, 'resend', (opts) => resendUnknown(journal, selected, opts));
  }

  /** A multi-select list of requests (number, item count, first IDs); the indexes picked. */
  private async chooseRequests(journal: JobJournal, indexes: readonly number[]): Promise<number[] | undefined> {
    const picked = await vscode.window.showQuickPick(
      indexes.map((i) => {
        const r = journal.requests[i]!;
        const shown = r.ids.slice(0, 8).join(', ');
        return {
          label: vscode.l10n.t('Request {0}', i + 1),
          description: itemsText(r.ids.length),
          detail: r.ids.length > 8 ? vscode.l10n.t('{0} and {1} more', shown, r.ids.length - 8) : shown,
          index: i,
        };
      }),
      { canPickMany: true, placeHolder: vscode.l10n.t('Pick the requests of unknown outcome to resend or to mark as applied') },
    );
    return picked?.map((p) => p.index);
  }

  /** Runs an existing job again (signing in first when needed). */
  private async rerun(journal: JobJournal, info: ConnectionInfo, kind: 'resume' | 'retry' | 'resend', run: (opts: RunOptions) => Promise<JobResult>): Promise<JobResult> {
    await this.connections.getClient();
    return this.execute(journal, info, kind, run);
  }

  /**
   * Once per session, at first use (a request document opened, or a job command):
   * offers unfinished jobs for resumption and prunes old finished journals.
   */
  async offerResumption(): Promise<void> {
    if (this.offered) return;
    this.offered = true;
    try {
      if (!this.pruned) {
        this.pruned = true;
        const removed = await pruneJobs(this.jobsDir, { maxAgeMs: KEEP_FINISHED_JOBS_MS });
        if (removed.length > 0) this.log.info(`Deleted ${removed.length} finished job journals older than 30 days.`);
      }
      const unfinished = (await listUnfinishedJobs(this.jobsDir)).filter((s) => s.jobId && !this.running.has(s.jobId));
      if (unfinished.length === 0) return;
      const resume = vscode.l10n.t('Resume…');
      const pick = await vscode.window.showInformationMessage(
        unfinished.length === 1
          ? vscode.l10n.t('A work item update job did not finish (for example, the window closed while it ran).')
          : vscode.l10n.t('{0} work item update jobs did not finish (for example, the window closed while they ran).', unfinished.length),
        resume,
      );
      if (pick === resume) await vscode.commands.executeCommand('workItemStudio.resumeJobs');
    } catch (e) {
      this.log.warn(`Could not look for unfinished update jobs: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}

function itemCount(journal: JobJournal, indexes: readonly number[]): number {
  return indexes.reduce((n, i) => n + (journal.requests[i]?.ids.length ?? 0), 0);
}

function summaryLine(s: JobSummary): string {
  const parts = [vscode.l10n.t('{0} in {1}', itemsText(s.itemsTotal ?? 0), requestsText(s.requestsTotal ?? 0))];
  const by = s.requestsByState;
  if (by?.succeeded) parts.push(vscode.l10n.t('{0} succeeded', by.succeeded));
  if (s.failed) parts.push(vscode.l10n.t('{0} failed', s.failed));
  if (s.outcomeUnknown) parts.push(vscode.l10n.t('{0} outcome unknown', s.outcomeUnknown));
  if (s.unsent) parts.push(vscode.l10n.t('{0} not sent', s.unsent));
  return parts.join(' · ');
}

/** Why a job paused and where the rest goes (only there) when it is resumed. */
function pausedMessage(reason: ServiceGoneReason, service: JobService, notSent: number): string {
  const where = describeService(service);
  switch (reason) {
    case 'sandbox-stopped':
      return vscode.l10n.t(
        'The update paused: the sandbox it was sending to was stopped. Not sent: {0}. They go only to that sandbox ({1}), never to another service; it no longer runs, so they cannot be sent.',
        itemsText(notSent),
        where,
      );
    case 'signed-out':
      return vscode.l10n.t('The update paused: you signed out of {1}. Not sent: {0}. Sign in again and run "Resume Update Jobs": they go only to {1}.', itemsText(notSent), where);
    default:
      return vscode.l10n.t(
        'The update paused: the service in use is no longer {1}. Not sent: {0}. They go only to {1}, never to another service: connect to it again and run "Resume Update Jobs".',
        itemsText(notSent),
        where,
      );
  }
}

/** A job that is asked to continue while its service is not the one in use: refused, saying where it belongs. */
function notItsServiceMessage(service: JobService, why: ServiceGoneReason | undefined, info: ConnectionInfo | undefined): string {
  const where = describeService(service);
  if (why === 'sandbox-stopped' || (service.sandbox && !info)) {
    return vscode.l10n.t(
      'This job belongs to the sandbox {0}, which was stopped. Its requests go only there, so nothing more of it is sent; a sandbox started again is another service with its own data.',
      where,
    );
  }
  return vscode.l10n.t('This job belongs to {0}, but the service in use is {1}. Its requests go only to {0}: connect to it to continue the job.', where, info ? info.baseUrl : vscode.l10n.t('(none)'));
}

/**
 * The setting `workItemStudio.bulk.retryRefusedUpdates`: whether the service is trusted
 * to answer 429/503 to an update only when it did not apply it. In an untrusted
 * workspace only the user's own value counts (a workspace cannot make updates replay).
 */
export function retryRefusedUpdates(): boolean {
  const i = vscode.workspace.getConfiguration('workItemStudio').inspect<boolean>('bulk.retryRefusedUpdates');
  if (!i) return false;
  const v = vscode.workspace.isTrusted ? (i.workspaceFolderValue ?? i.workspaceValue ?? i.globalValue) : i.globalValue;
  return v === true;
}

/** What the result says about updates answered 429/503: not retried (outcome unknown), or retried because the setting trusts the service. */
export function refusedUpdatesText(result: JobResult): string | undefined {
  const r = result.refusedUpdates;
  if (!r) return undefined;
  return r.trusted
    ? vscode.l10n.t(
        '{0} update request(s) answered 429/503 were retried {1} time(s) because the setting "Retry Refused Updates" trusts the service to refuse only what it did not apply.',
        r.requests,
        r.retries,
      )
    : vscode.l10n.t(
        '{0} update request(s) answered 429/503 were not retried: such an answer does not prove the update was not applied (a gateway may have forwarded it), so their outcome is unknown.',
        r.requests,
      );
}
