// Start Sandbox / Stop Sandbox: the reference service inside this extension host,
// on a free loopback port, used for this session only (settings are not touched).
import * as vscode from 'vscode';
import { registerCommand } from '../common/commands';
import type { ConnectionManager } from '../common/connection';

export function registerSandboxCommands(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, connection: ConnectionManager): void {
  registerCommand(context, log, 'workItemStudio.startSandbox', async () => {
    if (connection.sandboxUrl) {
      void vscode.window.showInformationMessage(vscode.l10n.t('The sandbox is already running at {0}.', connection.sandboxUrl));
      return;
    }
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Starting the sandbox…') },
      () => connection.startSandbox(),
    );
    void vscode.window.showInformationMessage(
      vscode.l10n.t('The sandbox is running at {0} and you are signed in as admin. It stops when the window closes.', connection.sandboxUrl ?? ''),
    );
  });
  registerCommand(context, log, 'workItemStudio.stopSandbox', async () => {
    await connection.stopSandbox();
  });
}
