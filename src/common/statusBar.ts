// Status bar item: which service, and whether (and as whom) you are signed in.
// Clicking it runs "Connect to a Service…".
import * as vscode from 'vscode';
import type { ConnectionManager } from './connection';

export class ConnectionStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly sub: vscode.Disposable;

  constructor(private readonly connection: ConnectionManager) {
    this.item = vscode.window.createStatusBarItem('workItemStudio.connection', vscode.StatusBarAlignment.Left, 10);
    this.item.name = vscode.l10n.t('Work Item Studio Connection');
    this.item.command = 'workItemStudio.connect';
    this.sub = connection.onDidChange(() => this.update());
    this.update();
    this.item.show();
  }

  update(): void {
    const info = this.connection.current;
    if (!info) {
      this.item.text = vscode.l10n.t('$(debug-disconnect) Work Item Studio');
      this.item.tooltip = vscode.l10n.t('Not connected. Click to connect to a service or start the sandbox.');
      return;
    }
    const who = this.connection.signedInAs;
    const icon = info.isSandbox ? '$(beaker)' : '$(plug)';
    if (this.connection.isSignedIn) {
      this.item.text = who ? `${icon} ${who}@${info.label}` : `${icon} ${info.label}`;
      this.item.tooltip = who
        ? vscode.l10n.t('Connected to {0} and signed in as {1}. Click to change the connection.', info.baseUrl, who)
        : vscode.l10n.t('Connected to {0} and signed in with a token. Click to change the connection.', info.baseUrl);
    } else {
      this.item.text = vscode.l10n.t('{0} {1} (not signed in)', icon, info.label);
      this.item.tooltip = vscode.l10n.t('Connected to {0}, not signed in. Click to change the connection.', info.baseUrl);
    }
  }

  dispose(): void {
    this.sub.dispose();
    this.item.dispose();
  }
}
