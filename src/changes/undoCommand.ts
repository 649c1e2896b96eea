// "Create Undo Document": the request documents that put back the previous values
// of a finished (or partly finished) job, opened for review and never sent, and a
// summary that lists, by item and reason, what cannot be put back.
import * as vscode from 'vscode';
import { planUndoForJob } from '../bulk/jobValues';
import type { UndoDocument, UndoPlan } from '../bulk/undo';
import { openNewRequestDocument } from '../common/requestDocuments';
import { itemsText } from '../common/wording';
import { documentName, type RequestJobs } from '../editors/jobs';
import { UserInputError } from '../common/commands';
import type { PreviewDocuments } from '../editors/preview';
import { createRequestDocument } from '../schema/document';
import { renderDocument, type Template } from '../schema/render';
import { undoSummary, type UndoSummaryStrings } from './model/undoSummary';
import { reasonText, undoKindText } from './strings';

/** More documents than this are written to a folder instead of opened as unsaved editors. */
export const MAX_OPENED_UNDO_DOCUMENTS = 10;

export interface UndoOutcome {
  jobId: string;
  plan: UndoPlan;
  /** The documents written or opened, in the order to send them. */
  documents: vscode.Uri[];
}

function summaryStrings(): UndoSummaryStrings {
  return {
    title: (name, jobId) => vscode.l10n.t('Undo of {0} (job {1})', name, jobId),
    notSent: vscode.l10n.t('Nothing has been sent. Review each document, then send them in this order.'),
    documents: vscode.l10n.t('Documents'),
    document: (i, n, kind, items) => vscode.l10n.t('{0} of {1}: puts back the {2} of {3}', i, n, undoKindText(kind), itemsText(items)),
    cannot: vscode.l10n.t('What the undo cannot put back'),
    column: { id: 'ID', member: vscode.l10n.t('Change'), reason: vscode.l10n.t('Reason') },
    partly: vscode.l10n.t('(put back in part)'),
    reason: reasonText,
    nothing: vscode.l10n.t('Every change of this job can be put back.'),
    more: (n) => vscode.l10n.t('and {0} more', n),
  };
}

function describe(doc: UndoDocument, i: number, n: number, name: string, jobId: string): string {
  return vscode.l10n.t('Undo {0} of {1} for {2} (job {3}): puts back the {4}', i + 1, n, name, jobId, undoKindText(doc.kind));
}

export async function createUndoDocuments(jobs: RequestJobs, log: vscode.LogOutputChannel, previews: PreviewDocuments, jobId?: string): Promise<UndoOutcome | undefined> {
  const id =
    jobId ??
    (await jobs.pickJobId((s) => (s.requestsByState?.succeeded ?? 0) + (s.outcomeUnknown ?? 0) > 0, vscode.l10n.t('Pick the update job to undo')));
  if (!id) return undefined;
  const journal = await jobs.loadJob(id);
  const { plan, values } = await planUndoForJob(journal);
  if (!values.before) {
    throw new UserInputError(
      vscode.l10n.t('This job has no values from before sending (it was sent with workItemStudio.bulk.readValues off, or by an earlier version), so it cannot be undone here.'),
    );
  }
  const name = documentName(journal.data.source.uri);
  if (plan.documents.length === 0 && plan.nonInvertible.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Nothing to undo: no item of this job was changed.'));
    return { jobId: id, plan, documents: [] };
  }
  const n = plan.documents.length;
  const docs = plan.documents.map((d, i) => createRequestDocument(d.workItemIds, d.update, { description: describe(d, i, n, name, id) }));
  // The summary first (beside), then the documents, so the first one to send is the active editor.
  const names = plan.documents.map((d, i) => (n <= MAX_OPENED_UNDO_DOCUMENTS ? `undo-${i + 1}-of-${n}` : `undo-${id}-${String(i + 1).padStart(String(n).length, '0')}-${d.kind}.workitems.json`));
  let folder: vscode.Uri | undefined;
  if (n > MAX_OPENED_UNDO_DOCUMENTS) {
    const picked = await vscode.window.showOpenDialog({
      canSelectFolders: true,
      canSelectFiles: false,
      defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
      openLabel: vscode.l10n.t('Write {0} Undo Documents Here', n),
      title: vscode.l10n.t('The undo of this job needs {0} documents (one per distinct previous value). Pick a folder for them.', n),
    });
    if (!picked?.[0]) return undefined;
    folder = picked[0];
  }
  const summary = undoSummary({ name, jobId: id, plan, documents: names }, summaryStrings());
  await previews.show(vscode.Uri.from({ scheme: 'untitled', path: `/undo-${id}.workitems.json` }), summary);
  const uris: vscode.Uri[] = [];
  if (!folder) {
    // Opened last to first, so the first to send is the active editor.
    for (let i = n - 1; i >= 0; i--) {
      const editor = await openNewRequestDocument(docs[i] as unknown as Template, names[i]!);
      uris.unshift(editor.document.uri);
    }
  } else {
    for (let i = 0; i < n; i++) {
      const uri = vscode.Uri.joinPath(folder, names[i]!);
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(`${renderDocument(docs[i] as unknown as Template)}\n`));
      uris.push(uri);
    }
    await vscode.window.showTextDocument(uris[0]!, { preview: false });
  }
  log.info(`Undo of job ${id}: ${n} documents for ${plan.items} items; ${plan.nonInvertible.length} changes cannot be put back.`);
  return { jobId: id, plan, documents: uris };
}
