// Counts as words ("1 item", "3 items"), in the user's language (English needs a
// singular; Japanese uses the same form for every count), and the sentence that closes
// an update job.
import * as vscode from 'vscode';
import type { JobResult } from '../bulk/types';

export function itemsText(n: number): string {
  return n === 1 ? vscode.l10n.t('1 item') : vscode.l10n.t('{0} items', n);
}

export function requestsText(n: number): string {
  return n === 1 ? vscode.l10n.t('1 request') : vscode.l10n.t('{0} requests', n);
}

export function workItemsText(n: number): string {
  return n === 1 ? vscode.l10n.t('1 work item') : vscode.l10n.t('{0} work items', n);
}

export function problemsText(n: number): string {
  return n === 1 ? vscode.l10n.t('1 problem') : vscode.l10n.t('{0} problems', n);
}

/**
 * The notification after a run: what happened, in words that match the counts (no "0 have
 * an unknown outcome", no "0 items were not sent"), and what to do next.
 */
/**
 * What a job did or did not do, in one sentence. `made`: for a change that adds or deletes,
 * the items its succeeded requests updated, added (as the answers gave them) and deleted.
 */
export function outcomeMessage(result: JobResult, serviceLabel: string, made?: { updated: number; added: number; deleted: number }): { severity: 'info' | 'warning'; text: string } {
  const t = result.totals;
  if (result.outcome === 'succeeded' && made && (made.added > 0 || made.deleted > 0)) {
    const what: string[] = [];
    if (made.updated > 0) what.push(vscode.l10n.t('updated {0}', workItemsText(made.updated)));
    if (made.added > 0) what.push(vscode.l10n.t('added {0}', workItemsText(made.added)));
    if (made.deleted > 0) what.push(vscode.l10n.t('deleted {0}', workItemsText(made.deleted)));
    return { severity: 'info', text: vscode.l10n.t('Sent the change to {0}: {1}.', serviceLabel, what.join(vscode.l10n.t(', '))) };
  }
  if (result.outcome === 'succeeded') {
    return { severity: 'info', text: vscode.l10n.t('Updated {0} on {1}.', workItemsText(t.itemsByState.succeeded), serviceLabel) };
  }
  const unknown = t.requestsByState.unknown + t.requestsByState.cancelled;
  const parts: string[] = [];
  if (result.outcome === 'cancelled') parts.push(vscode.l10n.t('Cancelled.'));
  if (t.requestsByState.succeeded > 0) parts.push(vscode.l10n.t('{0} updated.', workItemsText(t.itemsByState.succeeded)));
  if (t.requestsByState.failed > 0) parts.push(vscode.l10n.t('Failed requests: {0} of {1}.', t.requestsByState.failed, t.requests));
  if (unknown > 0) parts.push(vscode.l10n.t('Outcome unknown: {0} ({1}); check them, then use "Resend Unknown…" or "Mark as Applied" in the results.', requestsText(unknown), itemsText(t.itemsByState.unknown + t.itemsByState.cancelled)));
  if (t.itemsByState.pending > 0) parts.push(vscode.l10n.t('Not sent: {0}; run "Resume Update Jobs" to send them.', itemsText(t.itemsByState.pending)));
  if (parts.length === 0) parts.push(vscode.l10n.t('See the results.'));
  return { severity: result.outcome === 'cancelled' && t.requestsByState.failed === 0 && unknown === 0 ? 'info' : 'warning', text: parts.join(' ') };
}
