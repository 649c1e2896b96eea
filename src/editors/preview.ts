// Read-only preview documents of request plans (a virtual `workitem-studio-preview:` document).
import * as vscode from 'vscode';
import { sideViewColumn } from './results/sideGroup';
import { showUndoSummaryInResults } from './results/resultPanel';

export const PREVIEW_SCHEME = 'workitem-studio-preview';

export class PreviewDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, this);

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '';
  }

  /** Shows `text` as the read-only preview of `source` (refreshed in place when open). */
  async show(source: vscode.Uri, text: string): Promise<vscode.TextDocument | undefined> {
    // The undo summary of a job (Create Undo Document names it undo-<job>.workitems.json) is part of that job's result view when one is open.
    const undo = source.scheme === 'untitled' ? /^\/undo-([^/]+)\.workitems\.json$/.exec(source.path) : null;
    if (undo && showUndoSummaryInResults(undo[1]!, text)) return undefined;
    const name = source.path.split('/').pop() || 'request';
    const uri = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/${name.replace(/\.workitems\.json$/i, '')}.preview.md`, query: source.toString() });
    this.contents.set(uri.toString(), text);
    this.emitter.fire(uri);
    let doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'markdown') doc = await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
    // In the group beside the document (reused: never a third group).
    await vscode.window.showTextDocument(doc, { viewColumn: sideViewColumn(), preview: true });
    return doc;
  }

  dispose(): void {
    this.registration.dispose();
    this.emitter.dispose();
    this.contents.clear();
  }
}
