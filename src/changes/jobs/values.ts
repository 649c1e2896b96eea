// The steps of a Send around its job, and what they use of the jobs: the values before
// the first request, the values after the run, the before → after of the result view
// (ValuesFeature in ../index.ts runs them; registerChanges gives them to the jobs it makes).
// Types only.
import type * as vscode from 'vscode';
import type { JobJournal, JobPlan, JobSummary } from '../../bulk';
import type { WorkItemReader } from '../../bulk/readValues';
import type { SubtreeReader } from '../../bulk/undoDrift';
import type { SharedPacing } from '../../api/pacer';
import type { ChangeTable } from '../../webview/changeTable';
import type { ConnectionInfo } from '../../common/connection';

export interface JobSourceInfo {
  uri: vscode.Uri;
  text: string;
  description?: string;
  name: string;
}

/**
 * The values of a job's items (src/changes): read before sending (kept beside the
 * journal for undo), re-read after a run, shown as before → after in the result view.
 */
export interface JobValueHooks {
  /** Before a new job's journal exists: reads the values (and may warn about drift). Throws a cancellation when the user stops the send. */
  prepare(source: JobSourceInfo, plan: JobPlan, info: ConnectionInfo, pacing: SharedPacing): Promise<{ write(journal: JobJournal): Promise<void> } | undefined>;
  /** After a run: re-reads the values of the items changed, on the Send's pacing. */
  afterRun(journal: JobJournal, pacing: SharedPacing): Promise<void>;
  /** The before → after table of a job, and whether it can be undone (reads files only). */
  changes(journal: JobJournal): Promise<{ table?: ChangeTable; undo: boolean } | undefined>;
}

/** What the before/after values and undo use of the update jobs (RequestJobs in src/editors). */
export interface JobsForValues {
  /** The journal directory (previews and snapshots are kept beside it). */
  readonly jobsDir: string;
  /** Installed by the before/after feature. */
  valueHooks?: JobValueHooks;
  /** The journal of a job. */
  loadJob(jobId: string): Promise<JobJournal>;
  /** Picks a job from the list; undefined when cancelled or none. */
  pickJobId(filter: (s: JobSummary) => boolean, placeHolder: string): Promise<string | undefined>;
  /** Picks several jobs at once (newest first); undefined when cancelled or none. */
  pickJobIds(filter: (s: JobSummary) => boolean, placeHolder: string): Promise<string[] | undefined>;
  /** Reads work items on the service of a job (refused when the current connection is another). */
  readerFor(journal: JobJournal): WorkItemReader;
  /** Reads the subtrees of items on the service of a job (the items below what its adds created). */
  subtreesFor?(journal: JobJournal): SubtreeReader;
}

/** The read-only Markdown previews of the editors (PreviewDocuments in src/editors). */
export interface MarkdownPreviews {
  /** Shows `text` as the read-only preview of `source` (refreshed in place when open). */
  show(source: vscode.Uri, text: string): Promise<unknown>;
}
