// The result view of a bulk job: a webview panel (strict CSP, the page's nonce'd script
// bundle and the styles of media/ loaded with asWebviewUri, no remote resources), reused by the next
// result unless pinned, restored after a window reload, with "Save as JSON", "Retry Failed",
// "Resend Unknown…" and "Send Remaining" buttons that run the job commands.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { ServiceErrorKind } from '../../api/errors';
import type { JobResult, RequestError } from '../../bulk/types';
import { describeError, localizedServiceEntry, serviceErrorSummary } from '../../common/messages';
import { renderResultHtml, resultButton, resultJson, type ResultStrings } from '../model/results';
import { readResultMessage, type ResultButtonName } from '../model/resultProtocol';
import { escapeHtml } from '../../webview/html';
import { renderChangeTable, userIdsInTable, type ChangeTable } from '../../webview/changeTable';
import { answerMemberLabel, changeTableStrings } from '../../common/changeStrings';
import { userIdsInValue, userLabel, type UserNames } from '../../common/model/users';
import { resultViewColumn } from './column';
import { sideViewColumn } from './sideGroup';
import { markdownToHtml } from '../../webview/markdown';
import { assetUri, webviewRoots } from '../../common/webviewMedia';
import { core } from '../../core/load';

export interface ResultViewModel {
  jobId?: string;
  result: JobResult;
  serviceLabel: string;
  baseUrl?: string;
  documentName: string;
  /** The request document, for the default place of "Save as JSON". */
  documentUri?: vscode.Uri;
  /** Before → after per item, when the job has values from before sending. */
  changes?: ChangeTable;
  /** Offer "Create Undo Document". */
  undo?: boolean;
  /** Adds of unknown outcome a resumption looks for below their parent ("Look for Added Items"). */
  addsToLook?: number;
}

/** Commands the buttons run (with the job id). */
export const RESULT_COMMANDS = {
  retryFailed: 'workItemStudio.retryFailed',
  resendUnknown: 'workItemStudio.resendUnknown',
  resume: 'workItemStudio.resumeJobs',
  sendWithoutMissing: 'workItemStudio.sendWithoutMissing',
  createUndo: 'workItemStudio.createUndoDocument',
} as const satisfies Partial<Record<ResultButtonName, string>>;

/** "Results: update-1.workitems.json (14:02:31)": several sends of one document get tabs told apart by their start time. */
export function panelTitle(model: ResultViewModel): string {
  const started = new Date(model.result.startedAt);
  if (Number.isNaN(started.getTime())) return vscode.l10n.t('Results: {0}', model.documentName);
  const time = started.toLocaleTimeString(vscode.env.language, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  return vscode.l10n.t('Results: {0} ({1})', model.documentName, time);
}

/** The webview type of result views (also their `onWebviewPanel:` activation event, for restoring them after a reload). */
export const RESULT_VIEW_TYPE = 'workItemStudio.results';

interface Entry {
  panel: vscode.WebviewPanel;
  /** Undefined for a view restored after a reload whose job no longer exists. */
  model?: ResultViewModel;
  /** The undo summary of the job (Markdown), shown under the results once Create Undo Document ran. */
  undoSummary?: string;
}

/** The result views of this window (one instance; a module-level set so the undo summary finds its job's view). */
const liveResultPanels = new Set<ResultPanels>();

/**
 * Shows the undo summary of a job inside its result view (with "Send All Undo Documents
 * in Order"), revealing it. False when no result view shows that job.
 */
export function showUndoSummaryInResults(jobId: string, markdown: string): boolean {
  for (const panels of liveResultPanels) if (panels.showUndoSummary(jobId, markdown)) return true;
  return false;
}

/**
 * The result views. One view is reused: the next result replaces what it shows,
 * so ten sends leave the editor layout as it was. A result view whose tab the user
 * pinned is kept; the next result then opens a new view (which is reused in turn).
 * Showing a job that a view already shows refreshes that view.
 */
export class ResultPanels implements vscode.Disposable {
  private readonly entries = new Set<Entry>();
  /** The view the next result replaces. */
  private reusable?: Entry;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    /** Names for the user IDs a result shows (updatedBy, partyId). */
    private readonly people?: UserNames,
  ) {
    liveResultPanels.add(this);
  }

  /** Adds the undo summary to the view of `jobId` and reveals it; false when no view shows that job. */
  showUndoSummary(jobId: string, markdown: string): boolean {
    const entry = this.entryOf(jobId);
    if (!entry?.model) return false;
    entry.undoSummary = markdown;
    entry.panel.webview.html = this.html(entry.panel, entry.model, entry.undoSummary);
    entry.panel.reveal(entry.panel.viewColumn, true);
    return true;
  }

  /** Shows (or refreshes) the result view of a job. */
  show(model: ResultViewModel, preserveFocus = true): void {
    const target =
      (model.jobId !== undefined ? [...this.entries].find((e) => e.model?.jobId === model.jobId) : undefined) ??
      (this.reusable && !this.isPinned(this.reusable.panel) ? this.reusable : undefined);
    if (target) {
      // The undo summary stays with its job (a refresh of the same job keeps it; another job's result drops it).
      if (target.model?.jobId !== model.jobId) target.undoSummary = undefined;
      target.model = model;
      target.panel.title = panelTitle(model);
      target.panel.webview.html = this.html(target.panel, model, target.undoSummary);
      this.learnNames(target);
      target.panel.reveal(target.panel.viewColumn, preserveFocus);
      if (!this.isPinned(target.panel)) this.reusable = target;
      return;
    }
    const panel = vscode.window.createWebviewPanel(
      RESULT_VIEW_TYPE,
      panelTitle(model),
      { viewColumn: this.columnForNew(), preserveFocus },
      { enableScripts: true, localResourceRoots: webviewRoots(), enableFindWidget: true },
    );
    this.reusable = this.adopt(panel, model);
  }

  /**
   * Takes over a result view that VS Code restored after a window reload: shows its job again
   * (or a short note when the job no longer exists) and reuses it for the next result.
   */
  restore(panel: vscode.WebviewPanel, model: ResultViewModel | undefined): void {
    const entry = this.adopt(panel, model);
    if (model) panel.title = panelTitle(model);
    if (!this.reusable && !this.isPinned(panel)) this.reusable = entry;
  }

  private adopt(panel: vscode.WebviewPanel, model: ResultViewModel | undefined): Entry {
    const entry: Entry = { panel, model };
    this.entries.add(entry);
    panel.webview.options = { enableScripts: true, localResourceRoots: webviewRoots() };
    panel.onDidDispose(() => {
      this.entries.delete(entry);
      if (this.reusable === entry) this.reusable = undefined;
    });
    panel.webview.onDidReceiveMessage((m: unknown) => void this.onMessage(entry, m));
    panel.webview.html = model ? this.html(panel, model) : this.goneHtml(panel);
    this.learnNames(entry);
    return entry;
  }

  /** Reads the names of the users a result names, then shows them (once per result). */
  private learnNames(entry: Entry): void {
    const model = entry.model;
    if (!model || !this.people) return;
    const ids = userIdsInValue(model.result.requests.map((r) => r.response));
    if (model.changes) for (const id of userIdsInTable(model.changes)) ids.add(id);
    if (ids.size === 0) return;
    void this.people.resolve(ids).then((learned) => {
      if (learned && entry.model === model && this.entries.has(entry)) entry.panel.webview.html = this.html(entry.panel, model, entry.undoSummary);
    });
  }

  /** Whether the user pinned the view's tab (then the next result does not replace it). */
  private isPinned(panel: vscode.WebviewPanel): boolean {
    const group = vscode.window.tabGroups.all.find((g) => g.viewColumn === panel.viewColumn);
    if (!group) return false;
    const isResultTab = (t: vscode.Tab | undefined): t is vscode.Tab =>
      !!t && t.label === panel.title && t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith(RESULT_VIEW_TYPE);
    const candidates = group.tabs.filter(isResultTab);
    if (candidates.length <= 1) return candidates[0]?.isPinned ?? false;
    // Several result tabs with the same title (sent within one second): a visible panel is its group's active tab.
    if (panel.visible && isResultTab(group.activeTab)) return group.activeTab.isPinned;
    return candidates.every((t) => t.isPinned);
  }

  private columnForNew(): vscode.ViewColumn {
    const column = resultViewColumn(
      [...this.entries].map((p) => p.panel.viewColumn),
      vscode.window.activeTextEditor?.viewColumn,
    );
    return column === 'beside' ? sideViewColumn() : column;
  }

  /** The tab title of a job's result view (tests read it). */
  titleOf(jobId: string): string | undefined {
    return this.entryOf(jobId)?.panel.title;
  }

  /** The model currently shown for a job (tests and commands read it). */
  current(jobId: string): ResultViewModel | undefined {
    return this.entryOf(jobId)?.model;
  }

  /** How many result views are open. */
  get count(): number {
    return this.entries.size;
  }

  private entryOf(jobId: string): Entry | undefined {
    return [...this.entries].find((e) => e.model?.jobId === jobId);
  }

  /** The undo summary's section: the summary, and the button that sends its documents one after the other. */
  private undoHtml(markdown: string): string {
    return `<section id="wis-undo" class="undo-summary">${markdownToHtml(markdown)}
<div class="actions">${resultButton('sendAllUndo', vscode.l10n.t('Send All Undo Documents in Order'))}</div></section>`;
  }

  private html(panel: vscode.WebviewPanel, model: ResultViewModel, undoSummary?: string): string {
    const table = model.changes ? renderChangeTable(this.withNames(model.changes), changeTableStrings()) : '';
    const undo = undoSummary ? this.undoHtml(undoSummary) : '';
    return renderResultHtml(
      {
        result: model.result,
        serviceLabel: model.serviceLabel,
        documentName: model.documentName,
        jobId: model.jobId,
        userLabel: (id) => {
          const u = this.people?.lookup(id);
          return u ? userLabel(u) : undefined;
        },
        nonce: randomBytes(16).toString('base64'),
        lang: vscode.env.language.startsWith('ja') ? 'ja' : 'en',
        cspSource: panel.webview.cspSource,
        assets: assetUri(panel.webview),
        changes: table || undo ? `${undo}${table}` : undefined,
        undo: model.undo,
        ...(model.addsToLook ? { addsToLook: model.addsToLook } : {}),
      },
      resultStrings(),
    );
  }

  /** The table with the names the user directory knows for its user IDs (the webview shows names, IDs on hover). */
  private withNames(table: ChangeTable): ChangeTable {
    if (!this.people) return table;
    const people: Record<string, string> = {};
    for (const id of userIdsInTable(table)) {
      const u = this.people.lookup(id);
      if (u) people[id] = u.name;
    }
    return { ...table, people };
  }

    /** A restored view whose job is gone (finished jobs are deleted after 30 days). */
  private goneHtml(panel: vscode.WebviewPanel): string {
    const csp = `default-src 'none'; style-src ${panel.webview.cspSource}`;
    const text = escapeHtml(vscode.l10n.t('These results are no longer available: the update job was deleted.'));
    return `<!DOCTYPE html><html lang="${vscode.env.language.startsWith('ja') ? 'ja' : 'en'}"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${csp}"></head><body><p>${text}</p></body></html>`;
  }

  private async onMessage(entry: Entry, message: unknown): Promise<void> {
    const command = readResultMessage(message)?.name;
    const model = entry.model;
    if (!model || !command) return;
    try {
      switch (command) {
        case 'saveJson': {
          const saved = await saveResultAsJson(model);
          if (saved) {
            const open = vscode.l10n.t('Open');
            const pick = await vscode.window.showInformationMessage(vscode.l10n.t('Saved the results to {0}.', vscode.workspace.asRelativePath(saved)), open);
            if (pick === open) await vscode.window.showTextDocument(saved);
          }
          break;
        }
        case 'retryFailed':
        case 'resendUnknown':
        case 'resume':
        case 'sendWithoutMissing':
        case 'createUndo':
          if (model.jobId) await vscode.commands.executeCommand(RESULT_COMMANDS[command], model.jobId);
          break;
        case 'sendAllUndo':
          if (model.jobId) await vscode.commands.executeCommand('workItemStudio.sendAllUndoDocuments', model.jobId);
          break;
        case 'showLog':
          this.log.show(true);
          break;
        default:
          command satisfies never;
      }
    } catch (e) {
      // A button's action failed (e.g. the results could not be written): say so, never only in the log.
      this.log.error(e instanceof Error ? e : String(e));
      void vscode.window.showErrorMessage(vscode.l10n.t('Work Item Studio: {0}', describeError(e)));
    }
  }

  dispose(): void {
    liveResultPanels.delete(this);
    for (const { panel } of [...this.entries]) panel.dispose();
    this.entries.clear();
  }
}

/** Asks where to save, then writes the result as JSON. Returns the file, or undefined when cancelled. */
export async function saveResultAsJson(model: ResultViewModel, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
  let uri = target;
  if (!uri) {
    const base = model.documentName.replace(/\.workitems\.json$/i, '').replace(/[^\w.-]+/g, '-') || 'update';
    const dir = model.documentUri?.scheme === 'file' ? vscode.Uri.joinPath(model.documentUri, '..') : vscode.workspace.workspaceFolders?.[0]?.uri;
    const name = `${base}.results-${(model.jobId ?? 'job').replace(/[^\w.-]+/g, '-')}.json`;
    uri = await vscode.window.showSaveDialog({
      defaultUri: dir ? vscode.Uri.joinPath(dir, name) : undefined,
      filters: { JSON: ['json'] },
      saveLabel: vscode.l10n.t('Save Results'),
    });
  }
  if (!uri) return undefined;
  const text = resultJson({ result: model.result, serviceLabel: model.serviceLabel, baseUrl: model.baseUrl, documentName: model.documentName });
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  return uri;
}

const SERVICE_ERROR_KINDS: readonly string[] = ['http', 'connect', 'network', 'timeout', 'cancelled', 'invalid-response', 'invalid-request'];

/** A localized sentence for a request's error (the service's own messages are listed separately), with why it was not retried when it was not. */
export function requestErrorSummary(error: RequestError): string {
  const summary = errorSentence(error);
  const note = error.note ? notRetriedText(error.note) : undefined;
  const text = note ? `${summary} ${note}` : summary;
  // The read before an add failed: the add itself never left.
  return error.step === 'add-read' ? `${vscode.l10n.t('The add was not sent: the items below its parent could not be read first.')} ${text}` : text;
}

/** Why a request that could have been retried was not (RequestError.note). */
function notRetriedText(note: NonNullable<RequestError['note']>): string {
  switch (note) {
    case 'refused-update-not-retried':
      return vscode.l10n.t(
        'Not retried: a 429 or 503 answer does not prove that the update was not applied (a gateway may have forwarded it first). Check its items, then re-send it or choose Mark as Applied.',
      );
    case 'retry-budget-exhausted':
      return vscode.l10n.t("Not retried: the job's retries were used up.");
    case 'retry-wait-too-long':
      return vscode.l10n.t('Not retried: the service asked to wait longer than a retry waits.');
  }
}

function errorSentence(error: RequestError): string {
  if (error.kind === 'interrupted') {
    return vscode.l10n.t('The request was in flight when the window closed or the process ended; whether the service applied it is unknown.');
  }
  if (error.kind === 'unexpected') return vscode.l10n.t('Unexpected failure: {0}', error.messages[0] ?? error.message);
  if (SERVICE_ERROR_KINDS.includes(error.kind)) {
    const e = new (core().ServiceError)({
      kind: error.kind as ServiceErrorKind,
      method: 'PUT',
      path: '',
      status: error.status,
      messages: error.messages,
      codes: error.codes,
      code: error.code,
      reason: error.reason,
    });
    return serviceErrorSummary(e);
  }
  return error.message;
}

export function resultStrings(): ResultStrings {
  return {
    title: vscode.l10n.t('Work item update results'),
    outcome: { succeeded: vscode.l10n.t('Every request succeeded'), partial: vscode.l10n.t('Some requests did not succeed'), cancelled: vscode.l10n.t('Cancelled') },
    state: {
      pending: vscode.l10n.t('not sent'),
      sent: vscode.l10n.t('sent'),
      succeeded: vscode.l10n.t('succeeded'),
      failed: vscode.l10n.t('failed'),
      unknown: vscode.l10n.t('outcome unknown'),
      cancelled: vscode.l10n.t('cancelled (outcome unknown)'),
    },
    markedApplied: vscode.l10n.t('marked as applied by you'),
    foundByKey: vscode.l10n.t('succeeded (its items were found by their key)'),
    candidates: (parent, items) => vscode.l10n.t('Below {0}, items named like this add and new since it was sent may be what it created: {1}. Resend Unknown… lets you mark one as what it created, or send the add again.', parent, items),
    lookFailed: (parent, why) => vscode.l10n.t('The items below {0} could not be read to look for this add’s items (it was not sent again): {1}', parent, why),
    service: (l) => vscode.l10n.t('Service: {0}', l),
    document: (n) => vscode.l10n.t('Document: {0}', n),
    totals: vscode.l10n.t('Totals'),
    requests: vscode.l10n.t('Requests'),
    items: vscode.l10n.t('Items'),
    changedItems: vscode.l10n.t('Changed items'),
    affectedItems: vscode.l10n.t('Affected items'),
    addedTimeEntries: vscode.l10n.t('Added time entries'),
    addedScheduleDependencies: vscode.l10n.t('Added schedule dependencies'),
    retries: vscode.l10n.t('Automatic retries'),
    duration: vscode.l10n.t('Duration'),
    errors: vscode.l10n.t('Errors'),
    column: {
      index: '#',
      status: vscode.l10n.t('Status'),
      http: 'HTTP',
      duration: vscode.l10n.t('Duration'),
      attempts: vscode.l10n.t('Attempts'),
      ids: vscode.l10n.t('Work item IDs'),
      id: 'ID',
      fields: vscode.l10n.t('Fields'),
    },
    none: vscode.l10n.t('None'),
    more: (n) => vscode.l10n.t('and {0} more', n),
    errorSummary: requestErrorSummary,
    serviceSaid: vscode.l10n.t('The service said:'),
    serviceMessages: (err) =>
      err.entries && err.entries.length === err.messages.length
        ? err.entries.map(localizedServiceEntry)
        : err.messages,
    actions: {
      saveJson: vscode.l10n.t('Save as JSON'),
      retryFailed: (n) => vscode.l10n.t('Retry Failed ({0})', n),
      resendUnknown: (n) => vscode.l10n.t('Resend Unknown… ({0})', n),
      resume: (n) => vscode.l10n.t('Send Remaining ({0})', n),
      sendWithoutMissing: (n) => vscode.l10n.t('Remove Missing IDs and Send the Rest ({0})', n),
      findMissing: vscode.l10n.t('Find Missing IDs and Send the Rest…'),
      lookForAdds: (n) => vscode.l10n.t('Look for Added Items ({0})', n),
      showLog: vscode.l10n.t('Show Log'),
      createUndo: vscode.l10n.t('Create Undo Document'),
    },
    missing: (n, ids) =>
      n === 1
        ? vscode.l10n.t('1 work item does not exist: {0}. The service refused every request that named one, with all its other items.', ids)
        : vscode.l10n.t('{0} work items do not exist: {1}. The service refused every request that named one, with all its other items.', n, ids),
    unknownExplained: vscode.l10n.t('The service may already have applied requests whose outcome is unknown; they are re-sent only when you confirm.'),
    truncated: (shown, total) => vscode.l10n.t('Showing {0} of {1}; save as JSON for all of them.', shown, total),
    fieldLabel: answerMemberLabel,
  };
}
