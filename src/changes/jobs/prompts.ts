// The questions the update jobs ask before sending requests of an existing job
// (Resume, Retry Failed, Remove Missing IDs and Send the Rest, Resend Unknown…),
// behind one interface. The jobs build each question's sentences; an implementation
// only answers. `modalJobPrompts` asks with modal dialogs; tests and automation
// install their own answers through the extension's API (`setPrompts`, src/extension.ts),
// never through command arguments.
import * as vscode from 'vscode';
import type { AddCandidate } from '../../bulk/types';

/** A question's sentences, in the display language. */
export interface JobQuestion {
  message: string;
  detail: string;
}

/** The answers; undefined: the dialog was dismissed (nothing is sent). */
export type ResumeAnswer = 'send' | 'discard' | 'cancel' | undefined;
export type SameFailureAnswer = 'retry' | 'removeMissing' | 'cancel' | undefined;
export type SendWithoutMissingAnswer = 'sendAndRemove' | 'send' | 'cancel' | undefined;
export type ResendUnknownAnswer = 'resend' | 'applied' | 'choose' | 'cancel' | undefined;

export interface JobPrompts {
  /** Resume Update Jobs: send the requests never sent ("Resume Without Undo" when `withoutUndo`), or discard the job. */
  resume(q: JobQuestion & { withoutUndo: boolean }): Promise<ResumeAnswer>;
  /** Retry Failed, when requests can only fail the same way again; `canRemoveMissing`: "Remove Missing IDs and Send the Rest" is offered. */
  sameFailure(q: JobQuestion & { canRemoveMissing: boolean }): Promise<SameFailureAnswer>;
  /** Remove Missing IDs and Send the Rest; `canEdit`: the job's document can lose the missing IDs. */
  sendWithoutMissing(q: JobQuestion & { canEdit: boolean }): Promise<SendWithoutMissingAnswer>;
  /** Resend Unknown… about `selected` requests; `canChoose`: "Choose Requests…" is offered. */
  resendUnknown(q: JobQuestion & { selected: readonly number[]; canChoose: boolean }): Promise<ResendUnknownAnswer>;
  /**
   * Mark as Applied of an add whose outcome is unknown, with several items below its parent that
   * may be what it created: the one it created (its ID), `none` (marked applied without naming
   * one: the undo then cannot delete what it made), or undefined (nothing is marked).
   */
  pickCandidate(q: { parentId: string; candidates: readonly AddCandidate[] }): Promise<string | 'none' | undefined>;
}

/** A modal warning; the button picked, or undefined. */
function askModal(q: JobQuestion, ...buttons: string[]): Thenable<string | undefined> {
  return vscode.window.showWarningMessage(q.message, { modal: true, detail: q.detail }, ...buttons);
}

/** The questions as modal dialogs (what a person sees). */
export const modalJobPrompts: JobPrompts = {
  async resume(q) {
    const send = q.withoutUndo ? vscode.l10n.t('Resume Without Undo') : vscode.l10n.t('Send');
    const discard = vscode.l10n.t('Discard Job');
    const pick = await askModal(q, send, discard);
    return pick === send ? 'send' : pick === discard ? 'discard' : undefined;
  },
  async sameFailure(q) {
    const retry = vscode.l10n.t('Retry Anyway');
    const removeMissing = vscode.l10n.t('Remove Missing IDs and Send the Rest');
    const pick = await askModal(q, retry, ...(q.canRemoveMissing ? [removeMissing] : []));
    return pick === retry ? 'retry' : pick === removeMissing ? 'removeMissing' : undefined;
  },
  async sendWithoutMissing(q) {
    const sendAndEdit = vscode.l10n.t('Send and Remove Them from the Document');
    const sendOnly = vscode.l10n.t('Send Only');
    const pick = await askModal(q, ...(q.canEdit ? [sendAndEdit] : []), sendOnly);
    return pick === sendAndEdit ? 'sendAndRemove' : pick === sendOnly ? 'send' : undefined;
  },
  async resendUnknown(q) {
    const resend = vscode.l10n.t('Resend');
    const applied = vscode.l10n.t('Mark as Applied');
    const choose = vscode.l10n.t('Choose Requests…');
    const pick = await askModal(q, resend, applied, ...(q.canChoose ? [choose] : []));
    return pick === resend ? 'resend' : pick === applied ? 'applied' : pick === choose ? 'choose' : undefined;
  },
  async pickCandidate(q) {
    const items: (vscode.QuickPickItem & { id: string | 'none' })[] = q.candidates.map((c) => ({
      label: c.name,
      description: vscode.l10n.t('ID {0}', c.id),
      detail: c.ids.length === 2 ? vscode.l10n.t('with 1 item below it') : c.ids.length > 2 ? vscode.l10n.t('with {0} items below it', c.ids.length - 1) : undefined,
      id: c.id,
    }));
    items.push({ label: vscode.l10n.t('None of these'), description: vscode.l10n.t('mark it as applied without its items (the undo cannot delete them)'), id: 'none' });
    const picked = await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('Which item below {0} did the add create?', q.parentId) });
    return picked?.id;
  },
};

/** `answers` where given, the modal dialogs for the other questions. */
export function withPrompts(answers: Partial<JobPrompts> | undefined): JobPrompts {
  return { ...modalJobPrompts, ...answers };
}
