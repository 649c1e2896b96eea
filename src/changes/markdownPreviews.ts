// Read-only preview documents of request plans (a virtual `workitem-studio-preview:` document).
import * as vscode from 'vscode';
import { ReadOnlyDocuments } from '../views/readOnlyDocuments';
import { sideViewColumn } from './results/sideGroup';
import { showUndoSummaryInResults } from './results/resultPanel';

export const PREVIEW_SCHEME = 'workitem-studio-preview';

export class PreviewDocuments implements vscode.Disposable {
  private readonly documents = new ReadOnlyDocuments(PREVIEW_SCHEME);

  /** Shows `text` as the read-only preview of `source` (refreshed in place when open). */
  async show(source: vscode.Uri, text: string): Promise<vscode.TextDocument | undefined> {
    // The undo summary of a job (Create Undo Document names it undo-<job>.workitems.json) is part of that job's result view when one is open.
    const undo = source.scheme === 'untitled' ? /^\/undo-([^/]+)\.workitems\.json$/.exec(source.path) : null;
    if (undo && showUndoSummaryInResults(undo[1]!, text)) return undefined;
    const name = source.path.split('/').pop() || 'request';
    const uri = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/${name.replace(/\.workitems\.json$/i, '')}.preview.md`, query: source.toString() });
    const doc = await this.documents.open(uri, text, 'markdown');
    // In the group beside the document (reused: never a third group).
    await vscode.window.showTextDocument(doc, { viewColumn: sideViewColumn(), preview: true });
    return doc;
  }

  dispose(): void {
    this.documents.dispose();
  }
}
