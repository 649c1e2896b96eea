// Connect, sign in, sign out; creates the one ConnectionManager and its status bar item.
import * as vscode from 'vscode';
import { registerCommand } from '../common/commands';
import { ConnectionManager } from '../common/connection';
import { readSettings, updateServiceUrl } from '../common/config';
import { normalizeServiceUrl } from '../common/serviceUrl';
import { windowSignInPrompts } from '../common/signInPrompts';
import { ConnectionStatusBar } from '../common/statusBar';
import { confirmServiceSwitch, registerSandboxCommands } from './sandbox';
import { welcomeStartedSandbox } from './startWelcome';
import { networkDispatcher } from './network';

/**
 * Creates the ConnectionManager (no network, no disk) with its status bar item and
 * registers connect / sign-in / sign-out / sandbox commands. Everything is disposed
 * with the extension.
 */
export function createConnection(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): ConnectionManager {
  const connection = new ConnectionManager({
    secrets: context.secrets,
    log,
    prompts: windowSignInPrompts,
    dispatcher: () => networkDispatcher(log),
    warnInsecure: (info) => {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('{0} uses plain http: your credentials and data travel unencrypted. Use https unless this is a test server.', info.origin),
      );
    },
  });
  context.subscriptions.push(
    connection,
    new ConnectionStatusBar(connection),
    context.secrets.onDidChange((e) => {
      if (e.key.startsWith('workItemStudio.credentials:')) void connection.secretsChanged(e.key);
    }),
  );

  registerCommand(context, log, 'workItemStudio.connect', () => connect(connection));
  registerCommand(context, log, 'workItemStudio.signIn', async () => {
    if (!connection.current) return connect(connection);
    if (await connection.signIn('command')) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Signed in to {0}.', connection.current.label));
    }
  });
  registerCommand(context, log, 'workItemStudio.signOut', async () => {
    if (!connection.current) return;
    const here = connection.current.baseUrl;
    if (!(await confirmServiceSwitch(connection, (s) => `${s.origin}${s.basePath}` === here, vscode.l10n.t('Sign Out')))) return;
    await connection.signOut();
    void vscode.window.showInformationMessage(vscode.l10n.t('Signed out of {0}.', connection.current.label));
  });
  registerSandboxCommands(context, log, connection);
  // The signed-in state is read lazily after activation (SecretStorage is not touched during activate()).
  const timer = setTimeout(() => {
    void connection.refreshSignedInState();
    welcomeStartedSandbox(context, connection);
  }, 0);
  context.subscriptions.push({ dispose: () => clearTimeout(timer) });
  return connection;
}

interface ActionItem extends vscode.QuickPickItem {
  action: 'url' | 'sandbox' | 'signIn' | 'signOut' | 'stopSandbox';
}

async function connect(connection: ConnectionManager): Promise<void> {
  const info = connection.current;
  const items: ActionItem[] = [
    { action: 'url', label: vscode.l10n.t('$(globe) Enter the Service URL…'), detail: info && !info.isSandbox ? info.baseUrl : undefined },
    connection.sandboxUrl
      ? { action: 'stopSandbox', label: vscode.l10n.t('$(debug-stop) Stop Sandbox'), detail: connection.sandboxUrl }
      : { action: 'sandbox', label: vscode.l10n.t('$(beaker) Start Sandbox'), detail: vscode.l10n.t('A local reference service with demo data, for this session only.') },
  ];
  if (info) {
    items.push(
      connection.isSignedIn
        ? { action: 'signOut', label: vscode.l10n.t('$(sign-out) Sign Out of {0}', info.label) }
        : { action: 'signIn', label: vscode.l10n.t('$(sign-in) Sign In to {0}', info.label) },
    );
  }
  const pick = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Work Item Studio: Connection'),
    placeHolder: info ? vscode.l10n.t('Connected to {0}', info.baseUrl) : vscode.l10n.t('No service is configured'),
  });
  switch (pick?.action) {
    case 'url':
      return enterUrl(connection);
    case 'sandbox':
      return vscode.commands.executeCommand('workItemStudio.startSandbox');
    case 'stopSandbox':
      return vscode.commands.executeCommand('workItemStudio.stopSandbox');
    case 'signIn':
      return vscode.commands.executeCommand('workItemStudio.signIn');
    case 'signOut':
      return vscode.commands.executeCommand('workItemStudio.signOut');
  }
}

async function enterUrl(connection: ConnectionManager): Promise<void> {
  const info = connection.current;
  const value = await vscode.window.showInputBox({
    title: vscode.l10n.t('Connect to a Service'),
    prompt: vscode.l10n.t('Base URL of the service, including /api (for example https://pm.example.com/TimeTrackerNX/api)'),
    value: readSettings().serviceUrl,
    ignoreFocusOut: true,
    validateInput: (v) => {
      const n = normalizeServiceUrl(v);
      if (n.ok) {
        return n.insecure
          ? { message: vscode.l10n.t('Plain http to another machine sends your credentials unencrypted.'), severity: vscode.InputBoxValidationSeverity.Warning }
          : undefined;
      }
      switch (n.problem) {
        case 'empty':
          return vscode.l10n.t('Enter the base URL of the service.');
        case 'scheme':
          return vscode.l10n.t('The URL must start with https:// or http://.');
        case 'credentials':
          return vscode.l10n.t('Do not put a login name or password in the URL; sign in after connecting.');
        case 'query':
          return vscode.l10n.t('The base URL cannot have a query (?) or fragment (#).');
        default:
          return vscode.l10n.t('This is not a valid URL.');
      }
    },
  });
  if (value === undefined) return;
  const n = normalizeServiceUrl(value);
  if (!n.ok) return;
  // A job running on the service in use is not followed to another one: it pauses, after asking.
  if (n.baseUrl !== info?.baseUrl && !(await confirmServiceSwitch(connection, () => true, vscode.l10n.t('Switch Service')))) return;
  if (connection.sandboxUrl) await connection.stopSandbox();
  await updateServiceUrl(n.baseUrl);
  const now = connection.current;
  if (now?.baseUrl !== n.baseUrl) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t('The user setting was saved, but a workspace setting of workItemStudio.serviceUrl overrides it.'),
    );
    return;
  }
  await connection.refreshSignedInState();
  if (!connection.isSignedIn) await connection.signIn('command');
}
