// A Before/After view after its document was sent: its values are those before the
// send, so it sends no more (Send disabled, "Preview Again" offered, "Sent at …"
// shown, also after a window reload); a Send of the same document text again asks
// first, with "Preview Again" as the default button; the drift question after a
// preview names other changes, never this very send. The sentences and questions.
import * as vscode from 'vscode';
import type { PreviewButtonName } from './model/protocol';
import type { SentMark } from './previewStore';

export type PreviewButton = { command: PreviewButtonName; label: string; secondary?: boolean; disabled?: boolean; title?: string };

/** The view's buttons: Refresh and Send; once sent, Preview Again and a disabled Send. */
export function previewButtons(sent?: SentMark): PreviewButton[] {
  if (!sent) {
    return [
      { command: 'refresh', label: vscode.l10n.t('Refresh') },
      { command: 'send', label: vscode.l10n.t('Send'), secondary: true },
    ];
  }
  return [
    { command: 'refresh', label: vscode.l10n.t('Preview Again') },
    { command: 'send', label: vscode.l10n.t('Send'), secondary: true, disabled: true, title: vscode.l10n.t('Already sent: Preview Again reads the values as they are now.') },
  ];
}

function time(at: Date): string {
  return at.toLocaleString(vscode.env.language);
}

/** The line the view shows once its document was sent. */
export function sentLine(sent: SentMark): string {
  return sent.jobId
    ? vscode.l10n.t('Sent at {0} (job {1}). These values were read before that send; Preview Again reads them as they are now.', time(sent.at), sent.jobId)
    : vscode.l10n.t('Sent at {0}. These values were read before that send; Preview Again reads them as they are now.', time(sent.at));
}

/** What the stale view's Send says instead of sending (a notification, not modal). */
export function staleSendMessage(name: string, sent: SentMark): string {
  return vscode.l10n.t('{0} was sent at {1}; this Before/After view shows the values before that send and sends nothing more. Preview Again to read the values now.', name, time(sent.at));
}

/**
 * Asks before the same document text is sent again after it was sent following its
 * preview. The default (first) button is Preview Again; Send Again is the second; Cancel
 * closes. Returns 'send', 'preview' or undefined.
 */
export async function askRepeat(name: string, serviceLabel: string, sent: SentMark): Promise<'send' | 'preview' | undefined> {
  const again = vscode.l10n.t('Preview Again');
  const send = vscode.l10n.t('Send Again');
  const pick = await vscode.window.showWarningMessage(
    vscode.l10n.t('{0} was already sent at {1}.', name, time(sent.at)),
    {
      modal: true,
      detail: vscode.l10n.t(
        'The same document was sent to {0} at {1}{2}. Sending it again applies the same change a second time (a schedule shift moves the dates again). The items now hold the values of that send; Preview Again reads them.',
        serviceLabel,
        time(sent.at),
        sent.jobId ? ` (${vscode.l10n.t('job {0}', sent.jobId)})` : '',
      ),
    },
    again,
    send,
  );
  return pick === send ? 'send' : pick === again ? 'preview' : undefined;
}

/**
 * Asks when items changed since the preview (not by a send of this document: that is
 * {@link askRepeat}). The default (first) button is Refresh Preview. Returns 'send',
 * 'refresh' or undefined.
 */
export async function askDrift(count: string, shown: string, more: string): Promise<'send' | 'refresh' | undefined> {
  const refresh = vscode.l10n.t('Refresh Preview');
  const sendAnyway = vscode.l10n.t('Send Anyway');
  const pick = await vscode.window.showWarningMessage(
    vscode.l10n.t('{0} changed on the service since the preview, not by a send of this document.', count),
    {
      modal: true,
      detail: `${shown}${more}\n\n${vscode.l10n.t('Refresh Preview shows the values as they are now. The check is best effort: the service has no conditional update, so a change right after this check is not seen.')}`,
    },
    refresh,
    sendAnyway,
  );
  return pick === sendAnyway ? 'send' : pick === refresh ? 'refresh' : undefined;
}
