// Every context key of the extension, in one place (used in package.json `when` clauses).
import * as vscode from 'vscode';

export const ContextKeys = {
  /** A service URL is configured or the sandbox runs. */
  connected: 'workItemStudio.connected',
  /** Credentials are stored for the current service. */
  signedIn: 'workItemStudio.signedIn',
  sandboxRunning: 'workItemStudio.sandboxRunning',
  /** At least one root organization is configured. */
  hasOrganizations: 'workItemStudio.hasOrganizations',
  organizationsFiltered: 'workItemStudio.organizationsFiltered',
  processCategoriesFiltered: 'workItemStudio.processCategoriesFiltered',
  processCategoriesHasMore: 'workItemStudio.processCategoriesHasMore',
  /** A request document was previewed in this window (ticks the walkthrough step however Preview was run). */
  previewed: 'workItemStudio.previewed',
  /** An update job ran in this window (ticks the walkthrough step however it was sent). */
  sent: 'workItemStudio.sent',
  /** The Work Items view's project list is filtered (or hides finished projects). */
  workItemsFiltered: 'workItemStudio.workItemsFiltered',
  workItemsHideFinished: 'workItemStudio.workItemsHideFinished',
  /** At least one work item is checked in the Work Items view. */
  workItemsChecked: 'workItemStudio.workItemsChecked',
} as const;

export type ContextKey = (typeof ContextKeys)[keyof typeof ContextKeys];

const last = new Map<string, unknown>();

/** Sets a context key (skipping redundant calls). */
export function setContext(key: ContextKey, value: unknown): Thenable<unknown> | undefined {
  if (last.get(key) === value) return undefined;
  last.set(key, value);
  return vscode.commands.executeCommand('setContext', key, value);
}
