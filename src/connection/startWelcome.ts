// The welcome of the workspace `npm start` opens: once per workspace, when the configured
// service is the sandbox `npm start` serves, the Work Item Studio view is shown and a
// message names that sandbox and says how to sign in.
import * as vscode from 'vscode';
import type { ConnectionManager } from '../common/connection';

const WELCOMED = 'workItemStudio.startWelcomeShown';

export function welcomeStartedSandbox(context: vscode.ExtensionContext, connection: ConnectionManager): void {
  const info = connection.current;
  if (!info?.startedSandbox) return;
  const shown = context.workspaceState.get<string[]>(WELCOMED, []);
  if (shown.includes(info.baseUrl)) return;
  void context.workspaceState.update(WELCOMED, [...shown, info.baseUrl].slice(-5));
  void vscode.commands.executeCommand('workbench.view.extension.workItemStudio');
  const signIn: vscode.MessageItem = { title: vscode.l10n.t('Sign In') };
  void vscode.window
    .showInformationMessage(
      vscode.l10n.t(
        'Welcome to Work Item Studio. This window uses {0} at {1}: demo data on your machine, until npm start stops. Sign in with login name admin and password "password".',
        info.label,
        info.baseUrl,
      ),
      signIn,
    )
    .then((pick) => {
      if (pick === signIn && !connection.isSignedIn) void vscode.commands.executeCommand('workItemStudio.signIn');
    });
}
