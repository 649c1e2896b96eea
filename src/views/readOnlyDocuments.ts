// Read-only virtual documents of one URI scheme: the text of each is set by the extension and
// shown by VS Code through a TextDocumentContentProvider (an open document refreshes in place).
// The details JSON of a tree row (views/common.ts) and the request preview (editors/preview.ts) are
// the two users.
import * as vscode from 'vscode';
import { Disposable } from '../common/disposable';

export class ReadOnlyDocuments extends Disposable implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly emitter = this.register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.emitter.event;

  constructor(readonly scheme: string) {
    super();
    this.register(vscode.workspace.registerTextDocumentContentProvider(scheme, this));
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '';
  }

  /** Sets the text of `uri` (refreshing it where it is open) and opens it as a document of `languageId`. */
  async open(uri: vscode.Uri, text: string, languageId: string): Promise<vscode.TextDocument> {
    this.contents.set(uri.toString(), text);
    this.emitter.fire(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    return doc.languageId === languageId ? doc : vscode.languages.setTextDocumentLanguage(doc, languageId);
  }

  override dispose(): void {
    super.dispose();
    this.contents.clear();
  }
}
