// Running update jobs from the editor: progress with cancel, the job journal in the
// extension's global storage (created lazily, never at activation), the result view,
// the before/after value hooks (src/changes, installed through src/extension.ts) and
// the once-per-session offer to resume unfinished jobs. Continuing an existing job:
// ./recovery.ts; picking one: ./picking.ts; the questions asked: ./prompts.ts.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { parse as parseJsonc } from 'jsonc-parser';
import type { JobJournal, BulkClient, JobPlan, JobProgress, JobResult, JobSummary, RunOptions } from '../../bulk';
import type { WorkItemReader } from '../../bulk/readValues';
import type { SubtreeReader } from '../../bulk/undoDrift';
import type { JobService, ServiceGoneReason } from '../../bulk/service';
import { UserInputError } from '../../common/commands';
import { abortOn } from '../../common/abortOn';
import { readSettings } from '../../common/config';
import type { ConnectionInfo, ConnectionManager } from '../../common/connection';
import { ContextKeys, setContext } from '../../common/contextKeys';
import type { JobSourceInfo, JobValueHooks } from './values';
import type { UserNames } from '../../common/model/users';
import { documentName } from '../../common/requestDocument';
import { itemsText, outcomeMessage } from '../../common/wording';
import { restoredJobId } from '../model/resultProtocol';
import { ResultPanels, type ResultViewModel } from '../results/resultPanel';
import { pickJob, pickJobs } from './picking';
import { modalJobPrompts, type JobPrompts } from './prompts';
import { core } from '../../core/load';

/** The items a job's succeeded requests updated, added and deleted (a job that only updates: undefined). */
function madeBy(journal: JobJournal): { updated: number; added: number; deleted: number } | undefined {
  const plan = journal.plan;
  if (!plan.parts.some((p) => p.kind !== undefined)) return undefined;
  const updated = new Set<string>();
  const deleted = new Set<string>();
  for (const r of journal.requests) {
    if (r.state !== 'succeeded' || !core().namesItems(plan, r)) continue;
    const deletes = plan.parts[plan.requests[r.index]?.part ?? 0]?.kind === 'delete';
    for (const id of r.ids) (deletes ? deleted : updated).add(id);
  }
  return { updated: updated.size, added: core().addedIds(plan, journal.requests).length, deleted: deleted.size };
}

/** Finished journals older than this are deleted (at first use in a session). */
const KEEP_FINISHED_JOBS_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * The update jobs of this window: runs them (progress with cancel, journal, result
 * view), and gives the recovery commands (./recovery.ts) what they share: the journal
 * directory, loading a job, the service check, re-running, and the questions.
 */
export class JobRunner implements vscode.Disposable {
  readonly panels: ResultPanels;
  private offered = false;
  private pruned = false;
  /** Jobs running in this window (their journal is locked by us). */
  private readonly running = new Set<string>();
  private readonly finished = new vscode.EventEmitter<{ jobId?: string; result: JobResult; plan?: JobPlan }>();
  /** Fires when a run ends (tests and views listen). */
  readonly onDidFinishJob = this.finished.event;
  /** Set by the before/after feature (src/changes). */
  valueHooks?: JobValueHooks;
  /** The questions before requests of an existing job are sent (modal dialogs unless replaced: `setPrompts`). */
  prompts: JobPrompts = modalJobPrompts;

  constructor(
    private readonly context: vscode.ExtensionContext,
    readonly log: vscode.LogOutputChannel,
    readonly connections: ConnectionManager,
    people?: UserNames,
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
    refuseOtherService(source, info, this.connections.profiles.list); // a document that names its service (an undo document) goes there or nowhere
    await this.connections.getClient(); // signs in first when needed, before anything is written
    // Every call of this Send (the values before, which the drift check shares, the updates, the values after)
    // takes its turn on one pacing: together they keep the configured rate and the time the confirmation announced.
    const pacing = new (core().SharedPacing)();
    const prepared = await this.valueHooks?.prepare(source, plan, info, pacing);
    // The job belongs to this service: its journal records it, and every request of the job goes there or nowhere.
    const service = await this.connections.jobServiceFor(info);
    const journal = await core().JobJournal.create(this.jobsDir, {
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
    return this.execute(journal, info, 'run', (opts) => core().runJob(plan, { ...opts, journal }), pacing);
  }

  private async execute(
    journal: JobJournal,
    info: ConnectionInfo,
    kind: 'run' | 'resume' | 'retry' | 'resend',
    run: (opts: RunOptions) => Promise<JobResult>,
    pacing = new (core().SharedPacing)(),
  ): Promise<JobResult> {
    if (this.running.has(journal.id)) throw new UserInputError(vscode.l10n.t('This update job is already running.'));
    // Bound to the job's service: a request goes there (signing in again after a 401) or is not sent; the job pauses when it is gone.
    const bound = await this.connections.bindJob(journal.data.service, info);
    const { binding } = bound;
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
          const abort = abortOn(token);
          abort.signal.addEventListener('abort', () => this.log.info(`bulk job ${journal.id}: cancelled by the user`), { once: true });
          let lastPercent = 0;
          progress.report({ message: vscode.l10n.t('Starting…') });
          const onProgress = (p: JobProgress): void => {
            const percent = p.itemsTotal > 0 ? (p.itemsDone / p.itemsTotal) * 100 : 0;
            const message = p.waitingUntil
              ? vscode.l10n.t('{0} of {1} done (waiting for the service)', p.itemsDone, itemsText(p.itemsTotal))
              : vscode.l10n.t('{0} of {1} done', p.itemsDone, itemsText(p.itemsTotal));
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
            return await run({ client, ...this.runOptions(), service: binding, signal: abort.signal, onProgress, pacing });
          } finally {
            abort.dispose();
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
    // The result view comes first: a Send waits for the values before and the updates, not for the reads after.
    // Until those end, its values after are the service's answers, and the view says the re-read is under way;
    // then the view is filled in place (unless it was closed meanwhile).
    const readingAfter = this.valueHooks !== undefined && journal.requests.some((r) => r.state === 'succeeded');
    await this.showResults(journal, info.label, undefined, readingAfter);
    void setContext(ContextKeys.sent, true);
    try {
      await this.valueHooks?.afterRun(journal, pacing); // after the last update, on the same pacing
    } catch (e) {
      this.log.warn(`bulk job ${journal.id}: the values after the update were not read: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (readingAfter && this.panels.current(journal.id)) await this.showResults(journal, info.label);
    this.finished.fire({ jobId: journal.id, result, plan: journal.plan });
    void this.announce(result, info, madeBy(journal));
    return result;
  }

  private async announce(result: JobResult, info: ConnectionInfo, made?: { updated: number; added: number; deleted: number }): Promise<void> {
    if (result.paused) {
      await vscode.window.showWarningMessage(pausedMessage(result.paused.reason, result.paused.service, result.totals.itemsByState.pending));
      return;
    }
    const m = outcomeMessage(result, info.label, made);
    const refused = refusedUpdatesText(result);
    const text = refused ? `${m.text} ${refused}` : m.text;
    if (m.severity === 'info') await vscode.window.showInformationMessage(text);
    else await vscode.window.showWarningMessage(text);
  }

  // ---------------------------------------------------------------------------
  // Existing jobs
  // ---------------------------------------------------------------------------

  /** The journal of a job, by its id (checked). */
  async load(jobId: string): Promise<JobJournal> {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,100}$/.test(jobId)) throw new UserInputError(vscode.l10n.t('"{0}" is not a job id.', jobId));
    return core().JobJournal.load(path.join(this.jobsDir, `job-${jobId}.json`));
  }

  /** The current connection, which must be the service the job belongs to (its journal's record, else its plan's). */
  connectionFor(journal: JobJournal): ConnectionInfo {
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

  async showJob(jobId?: string): Promise<void> {
    const id = jobId ?? (await pickJob(this.jobsDir, () => true, vscode.l10n.t('Pick an update job to show its results')));
    if (!id) return;
    const journal = await this.load(id);
    const info = this.connections.current;
    await this.showResults(journal, serviceLabelOf(journal, info), false);
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
      this.connections.run((c) => core().readWorkItems(c, ids, { fields, maxUrlLength: b.maxUrlLength, requestsPerMinute: b.requestsPerMinute, signal: o.signal, onProgress: o.onProgress }));
  }

  subtreesFor(journal: JobJournal): SubtreeReader {
    this.connectionFor(journal);
    return async (ids, o) => {
      const out = new Map<string, string[]>();
      for (const id of ids) {
        const node = await this.connections.run((c) => c.getSubItems(id, { fields: ['Id'] }, { signal: o.signal }));
        out.set(id, core().flattenToRows(node, 0).map((r) => r.id));
      }
      return out;
    };
  }

  /** Picks a job from the list (for other features); undefined when cancelled or none. */
  pickJobId(filter: (s: JobSummary) => boolean, placeHolder: string): Promise<string | undefined> {
    return pickJob(this.jobsDir, filter, placeHolder);
  }

  pickJobIds(filter: (s: JobSummary) => boolean, placeHolder: string): Promise<string[] | undefined> {
    return pickJobs(this.jobsDir, filter, placeHolder);
  }

  /** The result view of a job (the document it was sent from, the results so far). */
  async showResults(journal: JobJournal, serviceLabel: string, reveal?: boolean, readingAfter = false): Promise<void> {
    const model = await this.resultModel(journal, serviceLabel);
    this.panels.show(readingAfter ? withReadingAfter(model) : model, reveal);
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
      result: core().resultFromJournal(journal),
      addsToLook: core().unknownAddIndexes(journal).length,
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
        model = await this.resultModel(journal, serviceLabelOf(journal, info));
      } catch (e) {
        this.log.info(`The result view of job ${jobId} was not restored: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    this.panels.restore(panel, model);
  }

  /** Runs an existing job again (signing in first when needed). */
  async rerun(journal: JobJournal, info: ConnectionInfo, kind: 'resume' | 'retry' | 'resend', run: (opts: RunOptions) => Promise<JobResult>): Promise<JobResult> {
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
        const removed = await core().pruneJobs(this.jobsDir, { maxAgeMs: KEEP_FINISHED_JOBS_MS });
        if (removed.length > 0) this.log.info(`Deleted ${removed.length} finished job journals older than 30 days.`);
      }
      const unfinished = (await core().listUnfinishedJobs(this.jobsDir)).filter((s) => s.jobId && !this.running.has(s.jobId));
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

/**
 * The result view while the values after are read again: its table says so at the top
 * (in place of "not read again": they are being read), the values after shown meanwhile
 * being those of the service's answers.
 */
export function withReadingAfter(model: ResultViewModel): ResultViewModel {
  const table = model.changes;
  if (!table) return model;
  const notRead = vscode.l10n.t('The values after come from the service’s answer (they were not read again).');
  const reading = vscode.l10n.t('Reading the values after the update again… Until it ends, the values after are those the service answered.');
  return { ...model, changes: { ...table, lines: [{ text: reading, level: 'info' }, ...table.lines.filter((l) => l.text !== notRead)] } };
}

/**
 * A document that names its service (`"service"`: Create Undo Document writes the service
 * of the job it undoes) is sent only there: while another service is in use it is refused
 * with a UserInputError naming both, before anything is written or sent. A document
 * without `service` is sent as any other.
 */
export function refuseOtherService(
  source: Pick<JobSourceInfo, 'text' | 'name'> & { uri?: vscode.Uri },
  info: Pick<ConnectionInfo, 'baseUrl' | 'label'>,
  profiles: readonly { name: string; baseUrl: string }[] = [],
): void {
  let value: unknown;
  try {
    value = parseJsonc(source.text ?? '');
  } catch {
    return;
  }
  const service = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as { service?: unknown }).service : undefined;
  if (service === undefined) return;
  const named = typeof service === 'string' ? service.trim() : JSON.stringify(service);
  if (typeof service === 'string' && !core().otherServiceOf({ service }, info.baseUrl)) return;
  // A service profile of that URL: said by its name, as the status bar says it.
  const profile = typeof service === 'string' ? profiles.find((p) => !core().otherServiceOf({ service }, p.baseUrl)) : undefined;
  if (profile) {
    throw new UserInputError(
      vscode.l10n.t(
        '{0} is for {1} only (its "service", {2}; an undo document goes only to the service of the job it undoes), but {3} is in use. Nothing was sent. Switch to {1} and send it again.',
        source.name,
        profile.name,
        named,
        info.label,
      ),
      source.uri,
    );
  }
  throw new UserInputError(
    vscode.l10n.t(
      '{0} is for {1} only (its "service"; an undo document goes only to the service of the job it undoes), but the service in use is {2}. Nothing was sent. Connect to {1} and send it again.',
      source.name,
      named,
      info.baseUrl,
    ),
    source.uri,
  );
}

/**
 * What a job's result view calls its service: the name in use for it (its profile), else the
 * name the job recorded when it was sent, else its URL.
 */
function serviceLabelOf(journal: { plan: { baseUrl: string }; data: { service?: { label?: string } } }, info: ConnectionInfo | undefined): string {
  if (info && info.baseUrl === journal.plan.baseUrl) return info.label;
  return journal.data.service?.label ?? journal.plan.baseUrl;
}

/** Why a job paused and where the rest goes (only there) when it is resumed. */
function pausedMessage(reason: ServiceGoneReason, service: JobService, notSent: number): string {
  const where = core().describeService(service);
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
  const where = core().describeService(service);
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
