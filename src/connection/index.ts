// Connect, sign in, sign out; creates the one ConnectionManager and its status bar item.
import * as vscode from 'vscode';
import { registerCommand } from '../common/commands';
import { ConnectionManager } from '../common/connection';
import { readSettings, updateServiceUrl } from '../common/config';
import { normalizeServiceUrl } from '../common/serviceUrl';
import { windowSignInPrompts } from '../common/signInPrompts';
import { ConnectionStatusBar } from '../common/statusBar';
import { confirmServiceSwitch, registerSandboxCommands } from './sandbox';
import { profileItems, registerProfileCommands, serviceUrlProblem, switchProfile } from './profiles';
import { AUTH_PROVIDER_ID, ServiceAuthenticationProvider } from './accounts';
import type { SignInPrompts } from '../common/connection';
import { welcomeStartedSandbox } from './startWelcome';
import { networkDispatcher } from './network';

/**
 * Creates the ConnectionManager (no network, no disk) with its status bar item and
 * registers connect / sign-in / sign-out / sandbox commands. Everything is disposed
 * with the extension.
 */
export function createConnection(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): { connection: ConnectionManager; setSignInPrompts: (p: Partial<SignInPrompts> | undefined) => void; statusText: () => string } {
  // Tests answer the sign-in through the test hooks (src/extension.ts); otherwise the window asks.
  let scripted: Partial<SignInPrompts> | undefined;
  const prompts: SignInPrompts = {
    pickMethod: (...a) => (scripted?.pickMethod ?? windowSignInPrompts.pickMethod)(...a),
    askLoginName: (...a) => (scripted?.askLoginName ?? windowSignInPrompts.askLoginName)(...a),
    askPassword: (...a) => (scripted?.askPassword ?? windowSignInPrompts.askPassword)(...a),
    askToken: (...a) => (scripted?.askToken ?? windowSignInPrompts.askToken)(...a),
    askApiKey: (...a) => (scripted?.askApiKey ?? windowSignInPrompts.askApiKey)(...a),
  };
  const connection = new ConnectionManager({
    secrets: context.secrets,
    log,
    prompts,
    profileState: context.workspaceState,
    dispatcher: () => networkDispatcher(log),
    warnInsecure: (info) => {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('{0} uses plain http: your credentials and data travel unencrypted. Use https unless this is a test server.', info.origin),
      );
    },
  });
  const statusBar = new ConnectionStatusBar(connection);
  context.subscriptions.push(
    connection,
    statusBar,
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
  registerProfileCommands(context, log, connection);
  // The Accounts menu: the same sign-ins as the status bar and the commands.
  const accounts = new ServiceAuthenticationProvider(connection);
  context.subscriptions.push(
    accounts,
    vscode.authentication.registerAuthenticationProvider(AUTH_PROVIDER_ID, 'Work Item Studio', accounts, { supportsMultipleAccounts: true }),
    connection.onDidChange(() => void accounts.offerSignIn().catch(() => undefined)),
  );
  // The signed-in state is read lazily after activation (SecretStorage is not touched during activate()).
  const timer = setTimeout(() => {
    void connection.refreshSignedInState();
    welcomeStartedSandbox(context, connection);
  }, 0);
  context.subscriptions.push({ dispose: () => clearTimeout(timer) });
  return { connection, setSignInPrompts: (p) => void (scripted = p), statusText: () => statusBar.text };
}

interface ActionItem extends vscode.QuickPickItem {
  action: 'url' | 'sandbox' | 'signIn' | 'signOut' | 'stopSandbox' | 'profile' | 'addProfile';
  profile?: string;
}

async function connect(connection: ConnectionManager): Promise<void> {
  const info = connection.current;
  // Other profiles first: switching is what the status bar is clicked for most.
  const others = profileItems(connection).filter((i) => !i.detail);
  const items: ActionItem[] = [
    ...others.map((i) => ({ action: 'profile' as const, profile: i.profile!.name, label: vscode.l10n.t('$(arrow-swap) Switch to {0}', i.profile!.name), description: i.description })),
    { action: 'url', label: vscode.l10n.t('$(globe) Enter the Service URL…'), detail: info && !info.isSandbox ? info.baseUrl : undefined },
    connection.sandboxUrl
      ? { action: 'stopSandbox', label: vscode.l10n.t('$(debug-stop) Stop Sandbox'), detail: connection.sandboxUrl }
      : { action: 'sandbox', label: vscode.l10n.t('$(beaker) Start Sandbox'), detail: vscode.l10n.t('A local reference service with demo data, for this session only.') },
  ];
  items.push({ action: 'addProfile', label: vscode.l10n.t('$(add) Add Service Profile…') });
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
    case 'profile':
      return switchProfile(connection, pick.profile!);
    case 'addProfile':
      return vscode.commands.executeCommand('workItemStudio.addServiceProfile');
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
    validateInput: serviceUrlProblem,
  });
  if (value === undefined) return;
  const n = normalizeServiceUrl(value);
  if (!n.ok) return;
  // A job running on the service in use is not followed to another one: it pauses, after asking.
  if (n.baseUrl !== info?.baseUrl && !(await confirmServiceSwitch(connection, () => true, vscode.l10n.t('Switch Service')))) return;
  if (connection.sandboxUrl) await connection.stopSandbox();
  await updateServiceUrl(n.baseUrl);
  // The URL entered is the profile in use now (a named profile of that URL, or the setting's).
  const profile = connection.profiles.list.find((p) => p.baseUrl === n.baseUrl);
  if (profile) await connection.useProfile(profile.name);
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
