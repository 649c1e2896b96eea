// A cancellation token as an AbortSignal: what the API layer takes (fetch, the pacer, the job
// engine) from what VS Code gives (withProgress, a tree's cancel). The listener on the token is
// removed on dispose, so a long-lived token does not keep every request's controller alive.
// No vscode import (the token is taken by its shape; unit-tested in plain Node).

/** The part of vscode.CancellationToken this needs. */
export interface CancellationTokenLike {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => unknown): { dispose(): unknown };
}

export interface TokenAbort {
  /** Aborted when the token is cancelled (at once when it already was). */
  readonly signal: AbortSignal;
  /** The controller behind `signal`: aborting it also aborts what the signal was given to. */
  readonly controller: AbortController;
  /** Stops following the token (the signal keeps its state). */
  dispose(): void;
}

/**
 * An AbortController that aborts when `token` is cancelled. Dispose it when the work is done
 * (`try { … } finally { abort.dispose(); }`). Without a token: a plain controller.
 */
export function abortOn(token: CancellationTokenLike | undefined): TokenAbort {
  const controller = new AbortController();
  if (token?.isCancellationRequested) controller.abort();
  const listener = token && !controller.signal.aborted ? token.onCancellationRequested(() => controller.abort()) : undefined;
  let disposed = false;
  return {
    signal: controller.signal,
    controller,
    dispose: () => {
      if (disposed) return;
      disposed = true;
      listener?.dispose();
    },
  };
}
