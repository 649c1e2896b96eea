// The messages of the Before/After view (src/changes/previewPanel.ts and its page,
// src/changes/web/): the page asks for its table with its page mark and gets the table's
// messages; its buttons post their names. The page keeps the document it shows in its webview
// state, so the view comes back after a window reload. No vscode import.
import { isTableRequest, readCommand, type ChangeTableMessage, type CommandMessage, type TableRequest } from '../../webview/protocol';

/** The view's buttons: read the values again, send the document. */
export const PREVIEW_BUTTONS = ['refresh', 'send'] as const;
export type PreviewButtonName = (typeof PREVIEW_BUTTONS)[number];

export type PreviewFromWebview = TableRequest | CommandMessage<PreviewButtonName>;
export type PreviewToWebview = ChangeTableMessage;

/** What the page keeps with setState: the document previewed (none for a page without one). */
export interface PreviewViewState {
  document?: string;
}

/** The state a page keeps for the document it shows (none: an empty state). */
export function previewState(document: string | undefined): PreviewViewState {
  return document ? { document } : {};
}

/** A message from the page, checked. */
export function readPreviewMessage(m: unknown): PreviewFromWebview | undefined {
  return isTableRequest(m) ? { type: 'ready', page: m.page } : readCommand(m, PREVIEW_BUTTONS);
}

/** The document a restored view's state names, when it names one. */
export function restoredDocument(state: unknown): string | undefined {
  const doc = typeof state === 'object' && state !== null ? (state as PreviewViewState).document : undefined;
  return typeof doc === 'string' && doc !== '' ? doc : undefined;
}
