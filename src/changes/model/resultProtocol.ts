// The messages of the result view (src/changes/results/resultPanel.ts and its page,
// src/changes/results/web/): the page's buttons post their names; nothing is posted to the
// page (a new result is a new page). The page keeps its job in its webview state, so the view
// comes back after a window reload. No vscode import.
import { readCommand, type CommandMessage } from '../../webview/protocol';

/** The view's buttons (the undo summary's "Send All Undo Documents in Order" among them). */
export const RESULT_BUTTONS = ['saveJson', 'retryFailed', 'resendUnknown', 'resume', 'sendWithoutMissing', 'createUndo', 'sendAllUndo', 'showLog'] as const;
export type ResultButtonName = (typeof RESULT_BUTTONS)[number];

export type ResultFromWebview = CommandMessage<ResultButtonName>;

/** What the page keeps with setState: the job shown (none for a page without one). */
export interface ResultViewState {
  jobId?: string;
}

/** The state a page keeps for the job it shows (none: an empty state). */
export function resultState(jobId: string | undefined): ResultViewState {
  return jobId ? { jobId } : {};
}

/** A message from the page, checked. */
export function readResultMessage(m: unknown): ResultFromWebview | undefined {
  return readCommand(m, RESULT_BUTTONS);
}

/** The job id a result view saved in its webview state (restored after a window reload), when it is one. */
export function restoredJobId(state: unknown): string | undefined {
  if (typeof state !== 'object' || state === null) return undefined;
  const id = (state as ResultViewState).jobId;
  return typeof id === 'string' && /^[A-Za-z0-9][A-Za-z0-9._-]{0,100}$/.test(id) ? id : undefined;
}
