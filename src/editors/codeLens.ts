// The CodeLens at the top of a request document: "Send to <service> · N items · K requests" and "Preview".
import * as vscode from 'vscode';
import type { ConnectionManager } from '../common/connection';
import { readSettings } from '../common/config';
import { itemsText, problemsText, requestsText } from '../common/wording';
import type { RequestDiagnostics } from './diagnostics';
import { analyzeText, isRequestDocument } from '../common/requestDocument';
import { blockingProblems } from '../common/documentCheck';
import { core } from '../core/load';

export class SendCodeLens implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.emitter.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly connections: ConnectionManager,
    diagnostics: RequestDiagnostics,
  ) {
    this.subscriptions = [
      this.emitter,
      connections.onDidChange(() => this.emitter.fire()),
      diagnostics.onDidUpdate(() => this.emitter.fire()),
      vscode.languages.onDidChangeDiagnostics(() => this.emitter.fire()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('workItemStudio.bulk')) this.emitter.fire();
      }),
    ];
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    if (!isRequestDocument(doc)) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    const analysis = analyzeText(doc.getText());
    const problems = blockingProblems(doc, analysis);
    const lenses: vscode.CodeLens[] = [];
    const info = this.connections.current;
    if (problems.length > 0) {
      lenses.push(
        new vscode.CodeLens(top, {
          title: `$(error) ${vscode.l10n.t('{0} to fix before sending', problemsText(problems.length))}`,
          command: 'workbench.actions.view.problems',
        }),
      );
      return lenses;
    }
    const doc0 = analysis.validation?.document;
    if (!doc0) return lenses;
    let summary = '';
    if (info) {
      try {
        const plan = core().planChange({ requests: doc0.requests, baseUrl: info.baseUrl, maxUrlLength: readSettings().bulk.maxUrlLength });
        // The items a change adds count as its items too.
        summary = vscode.l10n.t('Send to {0} · {1} · {2}', info.label, itemsText(plan.ids.length + core().newItemRows(plan).length), requestsText(plan.requests.length));
      } catch (e) {
        summary = vscode.l10n.t('Send to {0}', info.label);
      }
    } else {
      summary = vscode.l10n.t('Send (no service connected)');
    }
    lenses.push(new vscode.CodeLens(top, { title: `$(cloud-upload) ${summary}`, command: 'workItemStudio.sendUpdate', arguments: [doc.uri] }));
    lenses.push(new vscode.CodeLens(top, { title: `$(eye) ${vscode.l10n.t('Preview')}`, command: 'workItemStudio.previewUpdate', arguments: [doc.uri] }));
    return lenses;
  }

  dispose(): void {
    vscode.Disposable.from(...this.subscriptions).dispose();
  }
}
