// Picking an update job from the journal directory, and requests of one job, in
// quick picks (the job commands run without an argument).
import * as vscode from 'vscode';
import type { JobJournal, JobSummary } from '../../bulk';
import { documentName } from '../../common/requestDocument';
import { itemsText, requestsText } from '../../common/wording';
import { core } from '../../core/load';

/** A job of the directory that `filter` accepts, picked by the user; undefined when cancelled or none (that is said). */
export async function pickJob(jobsDir: string, filter: (s: JobSummary) => boolean, placeHolder: string): Promise<string | undefined> {
  const jobs = (await core().listJobs(jobsDir)).filter((s) => !s.error && s.jobId && filter(s));
  if (jobs.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('There is no such update job.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(jobItems(jobs), { placeHolder });
  return picked?.jobId;
}

/** Jobs of the directory that `filter` accepts, picked together (newest first); undefined when cancelled or none. */
export async function pickJobs(jobsDir: string, filter: (s: JobSummary) => boolean, placeHolder: string): Promise<string[] | undefined> {
  const jobs = (await core().listJobs(jobsDir)).filter((s) => !s.error && s.jobId && filter(s));
  if (jobs.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('There is no such update job.'));
    return undefined;
  }
  jobs.sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''));
  const picked = await vscode.window.showQuickPick(jobItems(jobs), { placeHolder, canPickMany: true });
  return picked && picked.length > 0 ? picked.map((p) => p.jobId) : undefined;
}

/** A multi-select list of requests (number, item count, first IDs); the indexes picked. */
export async function chooseRequests(journal: JobJournal, indexes: readonly number[]): Promise<number[] | undefined> {
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

/** The items of the requests `indexes` of a job. */
export function itemCount(journal: JobJournal, indexes: readonly number[]): number {
  return indexes.reduce((n, i) => n + (journal.requests[i]?.ids.length ?? 0), 0);
}

/** One quick-pick entry per job: its document, when it ran, what became of its requests. */
function jobItems(jobs: readonly JobSummary[]): (vscode.QuickPickItem & { jobId: string })[] {
  return jobs.map((s) => ({
    label: s.source?.description || documentName(s.source?.uri),
    description: s.createdAt ? new Date(s.createdAt).toLocaleString() : undefined,
    detail: summaryLine(s),
    jobId: s.jobId!,
  }));
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
