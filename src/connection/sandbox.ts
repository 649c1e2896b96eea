// Start Sandbox / Stop Sandbox: the reference service inside this extension host,
// on a free loopback port, used for this session only (settings are not touched).
// One sandbox at a time: when the configured URL already answers as a sandbox (the one
// `npm start` serves, "Sandbox (started by npm start)"), Start Sandbox says so and offers
// to use it instead; the one it starts is "Sandbox (this window)".
import * as vscode from 'vscode';
import { registerCommand } from '../common/commands';
import type { ConnectionManager } from '../common/connection';
import type { JobService } from '../bulk/service';
import { answersAsSandbox } from './sandboxProbe';

export function registerSandboxCommands(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, connection: ConnectionManager): void {
  registerCommand(context, log, 'workItemStudio.startSandbox', () => startSandbox(connection));
  registerCommand(context, log, 'workItemStudio.stopSandbox', async () => {
    if (!(await confirmServiceSwitch(connection, (s) => !!s.sandbox))) return;
    await connection.stopSandbox();
  });
}

type Ask = (message: string, ...items: vscode.MessageItem[]) => Thenable<vscode.MessageItem | undefined>;

/**
 * Start Sandbox. When the configured URL already answers as a sandbox, it says so and offers
 * to use that one (one sandbox at a time); `ask` shows that question (tests answer it).
 */
export async function startSandbox(connection: ConnectionManager, ask: Ask = (m, ...items) => vscode.window.showInformationMessage(m, ...items)): Promise<void> {
  if (connection.sandboxUrl) {
    void vscode.window.showInformationMessage(vscode.l10n.t('{0} is already running at {1}.', connection.current?.label ?? '', connection.sandboxUrl));
    return;
  }
  const configured = connection.current;
  if (configured && (await answersAsSandbox(configured.baseUrl))) {
    const use: vscode.MessageItem = { title: vscode.l10n.t('Use It') };
    const pick = await ask(
      configured.startedSandbox
        ? vscode.l10n.t('{0} is already serving this workspace at {1}. Use it instead of starting another sandbox?', configured.label, configured.baseUrl)
        : vscode.l10n.t('A sandbox is already serving this workspace at {0}. Use it instead of starting another sandbox?', configured.baseUrl),
      use,
    );
    if (pick !== use) return;
    await connection.refreshSignedInState();
    if (!connection.isSignedIn) await connection.signIn('command');
    return;
  }
  // The sandbox becomes the service in use: a job running on the configured service would pause.
  if (!(await confirmServiceSwitch(connection, () => true, vscode.l10n.t('Start Sandbox')))) return;
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Starting the sandbox…') },
    () => connection.startSandbox(),
  );
  void vscode.window.showInformationMessage(
    vscode.l10n.t('{0} is running at {1} and you are signed in as admin. It stops when the window closes.', connection.current?.label ?? '', connection.sandboxUrl ?? ''),
  );
}

/**
 * Asks first when update jobs run on a service that is about to go away (Stop
 * Sandbox, another service URL): they pause, and what they have not sent stays unsent
 * until they are resumed on that same service. The safe choice is the default
 * (Enter, Escape). True when nothing runs there or the user chose to go on.
 */
export async function confirmServiceSwitch(connection: ConnectionManager, affected: (s: JobService) => boolean, continueLabel?: string): Promise<boolean> {
  const jobs = connection.runningJobServices.filter(affected);
  if (jobs.length === 0) return true;
  const keep: vscode.MessageItem = { title: vscode.l10n.t('Keep Sending'), isCloseAffordance: true };
  const go: vscode.MessageItem = { title: continueLabel ?? vscode.l10n.t('Stop Sandbox') };
  const where = jobs[0]!.label ?? `${jobs[0]!.origin}${jobs[0]!.basePath}`;
  const pick = await vscode.window.showWarningMessage(
    jobs.length === 1
      ? vscode.l10n.t('An update job is sending to {0}.', where)
      : vscode.l10n.t('{0} update jobs are sending to {1}.', jobs.length, where),
    {
      modal: true,
      detail: vscode.l10n.t(
        'If you go on, the job pauses: requests already sent finish, the rest is not sent, and it goes only to {0} when you resume the job (never to another service).',
        where,
      ),
    },
    keep,
    go,
  );
  return pick === go;
}
