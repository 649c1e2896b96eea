// The result view of a bulk job: a webview panel (strict CSP, nonce'd script, no
// remote resources), one per job, with "Save as JSON", "Retry Failed",
// "Resend Unknown…" and "Send Remaining" buttons that run the job commands.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { ServiceError, type ServiceErrorKind } from '../../api/errors';
import type { JobResult, RequestError } from '../../bulk/types';
import { describeError, localizedServiceEntry, serviceErrorSummary } from '../../common/messages';
import { renderResultHtml, resultJson, type ResultStrings } from '../../editors/model/results';
import { resultViewColumn } from './column';

export interface ResultViewModel {
  jobId?: string;
  result: JobResult;
  serviceLabel: string;
  baseUrl?: string;
  documentName: string;
  /** The request document, for the default place of "Save as JSON". */
  documentUri?: vscode.Uri;
}

/** Commands the buttons run (with the job id). */
export const RESULT_COMMANDS = {
  retryFailed: 'workItemStudio.retryFailed',
  resendUnknown: 'workItemStudio.resendUnknown',
  resume: 'workItemStudio.resumeJobs',
} as const;

/** "Results: update-1.workitems.json (14:02:31)": several sends of one document get tabs told apart by their start time. */
export function panelTitle(model: ResultViewModel): string {
  const started = new Date(model.result.startedAt);
  if (Number.isNaN(started.getTime())) return vscode.l10n.t('Results: {0}', model.documentName);
  const time = started.toLocaleTimeString(vscode.env.language, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  return vscode.l10n.t('Results: {0} ({1})', model.documentName, time);
}

export class ResultPanels implements vscode.Disposable {
  private readonly panels = new Map<string, { panel: vscode.WebviewPanel; model: ResultViewModel }>();
  private counter = 0;

  constructor(private readonly log: vscode.LogOutputChannel) {}

  /** Shows (or refreshes) the result view of a job. */
  show(model: ResultViewModel, preserveFocus = true): void {
    const key = model.jobId ?? `run-${++this.counter}`;
    const existing = this.panels.get(key);
    if (existing) {
      existing.model = model;
      existing.panel.webview.html = this.html(existing.panel, model);
      existing.panel.reveal(undefined, preserveFocus);
      return;
    }
    const panel = vscode.window.createWebviewPanel(
      'workItemStudio.results',
      panelTitle(model),
      { viewColumn: this.columnForNew(), preserveFocus },
      { enableScripts: true, localResourceRoots: [], enableFindWidget: true },
    );
    const entry = { panel, model };
    this.panels.set(key, entry);
    panel.onDidDispose(() => this.panels.delete(key));
    panel.webview.onDidReceiveMessage((m: unknown) => void this.onMessage(entry, m));
    panel.webview.html = this.html(panel, model);
  }

  private columnForNew(): vscode.ViewColumn {
    const column = resultViewColumn(
      [...this.panels.values()].map((p) => p.panel.viewColumn),
      vscode.window.activeTextEditor?.viewColumn,
    );
    return column === 'beside' ? vscode.ViewColumn.Beside : column;
  }

  /** The tab title of a job's result view (tests read it). */
  titleOf(jobId: string): string | undefined {
    return this.panels.get(jobId)?.panel.title;
  }

  /** The model currently shown for a job (tests and commands read it). */
  current(jobId: string): ResultViewModel | undefined {
    return this.panels.get(jobId)?.model;
  }

  private html(panel: vscode.WebviewPanel, model: ResultViewModel): string {
    return renderResultHtml(
      {
        result: model.result,
        serviceLabel: model.serviceLabel,
        documentName: model.documentName,
        nonce: randomBytes(16).toString('base64'),
        cspSource: panel.webview.cspSource,
      },
      resultStrings(),
    );
  }

  private async onMessage(entry: { model: ResultViewModel }, message: unknown): Promise<void> {
    const command = typeof message === 'object' && message !== null ? (message as { command?: unknown }).command : undefined;
    const model = entry.model;
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
          if (model.jobId) await vscode.commands.executeCommand(RESULT_COMMANDS[command], model.jobId);
          break;
        case 'showLog':
          this.log.show(true);
          break;
        default:
          break;
      }
    } catch (e) {
      // A button's action failed (e.g. the results could not be written): say so, never only in the log.
      this.log.error(e instanceof Error ? e : String(e));
      void vscode.window.showErrorMessage(vscode.l10n.t('Work Item Studio: {0}', describeError(e)));
    }
  }

  dispose(): void {
    for (const { panel } of this.panels.values()) panel.dispose();
    this.panels.clear();
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

/** A localized sentence for a request's error (the service's own messages are listed separately). */
export function requestErrorSummary(error: RequestError): string {
  if (error.kind === 'interrupted') {
    return vscode.l10n.t('The request was in flight when the window closed or the process ended; whether the service applied it is unknown.');
  }
  if (error.kind === 'unexpected') return vscode.l10n.t('Unexpected failure: {0}', error.messages[0] ?? error.message);
  if (SERVICE_ERROR_KINDS.includes(error.kind)) {
    const e = new ServiceError({
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
      showLog: vscode.l10n.t('Show Log'),
    },
    unknownExplained: vscode.l10n.t('The service may already have applied requests whose outcome is unknown; they are re-sent only when you confirm.'),
    truncated: (shown, total) => vscode.l10n.t('Showing {0} of {1}; save as JSON for all of them.', shown, total),
  };
}
