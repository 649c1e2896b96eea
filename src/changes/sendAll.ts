// "Send All Undo Documents in Order": the undo documents of a job sent one after the
// other, each opened with its own preview first; the user confirms each one, or once
// chooses to send the rest without being asked again (for that run only). Stops at the
// first document that is not sent completely.
import * as vscode from 'vscode';
import { documentName } from '../common/requestDocument';

/** The question before each document (a modal dialog unless replaced: tests, automation). */
export interface SendAllPrompts {
  /** 'send': this one; 'all': this one and the rest without asking again; 'stop': none more. */
  next(q: { index: number; total: number; name: string }): Promise<'send' | 'all' | 'stop'>;
}

export const modalSendAllPrompts: SendAllPrompts = {
  async next(q) {
    const send = vscode.l10n.t('Send');
    const all = vscode.l10n.t('Send This and the Rest Without Asking');
    const pick = await vscode.window.showInformationMessage(
      vscode.l10n.t('Send undo document {0} of {1} ({2})?', q.index, q.total, q.name),
      { modal: true, detail: vscode.l10n.t('Its preview is open beside it. The documents are sent in order; the next one is previewed after this one is sent.') },
      send,
      all,
    );
    return pick === send ? 'send' : pick === all ? 'all' : 'stop';
  },
};

export interface SendAllOutcome {
  /** The documents sent, in order. */
  sent: string[];
  /** Why the run stopped before the end: the user stopped it, or a document was not sent completely. */
  stopped?: 'user' | 'not-sent';
  /** How many times the user was asked. */
  asked: number;
}

interface SendResult {
  result?: { outcome?: string };
}

/** Previews and sends `uris` in order (see the file header). */
export async function sendAllInOrder(uris: readonly vscode.Uri[], prompts: SendAllPrompts, log: vscode.LogOutputChannel): Promise<SendAllOutcome> {
  const out: SendAllOutcome = { sent: [], asked: 0 };
  let ask = true;
  for (let i = 0; i < uris.length; i++) {
    const uri = uris[i]!;
    const name = documentName(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.One });
    await vscode.commands.executeCommand('workItemStudio.previewUpdate', uri);
    if (ask) {
      out.asked++;
      const answer = await prompts.next({ index: i + 1, total: uris.length, name });
      if (answer === 'stop') {
        log.info(`Send All Undo Documents: stopped by the user before ${name} (${i} of ${uris.length} sent).`);
        out.stopped = 'user';
        return out;
      }
      if (answer === 'all') ask = false;
    }
    const results = (await vscode.commands.executeCommand('workItemStudio.sendUpdate', uri)) as SendResult[] | undefined;
    const done = Array.isArray(results) && results.length > 0 && results.every((r) => r.result?.outcome === 'succeeded');
    if (!done) {
      log.warn(`Send All Undo Documents: ${name} was not sent completely; the rest (${uris.length - i - 1}) are not sent.`);
      void vscode.window.showWarningMessage(vscode.l10n.t('{0} was not sent completely, so the undo documents after it were not sent. See its results.', name));
      out.stopped = 'not-sent';
      return out;
    }
    out.sent.push(name);
  }
  log.info(`Send All Undo Documents: ${out.sent.length} documents sent in order.`);
  return out;
}
