import * as vscode from 'vscode';
import { describeError, isLocalizedConfigError } from './messages';
import { core } from '../core/load';

/** Thrown (or subclassed) when a user's input is wrong; `uri`/`range` point at the problem when known. */
export class UserInputError extends Error {
  constructor(
    message: string,
    readonly uri?: vscode.Uri,
    readonly range?: vscode.Range,
  ) {
    super(message);
    this.name = 'UserInputError';
  }
}

/** A user's cancel: always silent. */
export function isCancellation(e: unknown): boolean {
  return (
    e instanceof vscode.CancellationError ||
    (core().isServiceError(e) && e.kind === 'cancelled') ||
    (e instanceof Error && e.name === 'AbortError')
  );
}

/**
 * Registers a command with the one error policy of the extension:
 * a cancel is silent; a service error shows a short message with "Show Log";
 * a validation error points at the document; anything else is logged with its stack
 * and shown as a short message. Returns the handler's result.
 */
export function registerCommand(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  id: string,
  handler: (...args: any[]) => unknown,
): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await handler(...args);
      } catch (e) {
        await reportError(log, e);
        return undefined;
      }
    }),
  );
}

export async function reportError(log: vscode.LogOutputChannel, e: unknown): Promise<void> {
  if (isCancellation(e)) return;
  const showLog = vscode.l10n.t('Show Log');
  if (e instanceof UserInputError) {
    log.warn(e.message);
    const open = vscode.l10n.t('Go to Problem');
    const pick = await vscode.window.showErrorMessage(e.message, ...(e.uri ? [open] : []));
    if (pick === open && e.uri) {
      await vscode.window.showTextDocument(e.uri, { selection: e.range });
    }
    return;
  }
  if (core().isServiceError(e)) {
    log.error(e.message);
    const pick = await vscode.window.showErrorMessage(e.message, showLog);
    if (pick === showLog) log.show(true);
    return;
  }
  if (isLocalizedConfigError(e)) {
    // The sentence names the setting or the job file; the log keeps the English detail with the full path.
    log.error(e);
    const pick = await vscode.window.showErrorMessage(vscode.l10n.t('Work Item Studio: {0}', describeError(e)), showLog);
    if (pick === showLog) log.show(true);
    return;
  }
  const message = e instanceof Error ? e.message : String(e);
  log.error(e instanceof Error ? e : message);
  const pick = await vscode.window.showErrorMessage(vscode.l10n.t('Work Item Studio: {0}', message), showLog);
  if (pick === showLog) log.show(true);
}
