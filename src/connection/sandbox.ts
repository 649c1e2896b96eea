// Start Sandbox / Stop Sandbox: the reference service inside this extension host,
// on a free loopback port, used for this session only (settings are not touched).
import * as vscode from 'vscode';
import { registerCommand } from '../common/commands';
import type { ConnectionManager } from '../common/connection';
import type { JobService } from '../bulk/service';

export function registerSandboxCommands(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, connection: ConnectionManager): void {
  registerCommand(context, log, 'workItemStudio.startSandbox', async () => {
    if (connection.sandboxUrl) {
      void vscode.window.showInformationMessage(vscode.l10n.t('The sandbox is already running at {0}.', connection.sandboxUrl));
      return;
    }
    // The sandbox becomes the service in use: a job running on the configured service would pause.
    if (!(await confirmServiceSwitch(connection, () => true, vscode.l10n.t('Start Sandbox')))) return;
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Starting the sandbox…') },
      () => connection.startSandbox(),
    );
    void vscode.window.showInformationMessage(
      vscode.l10n.t('The sandbox is running at {0} and you are signed in as admin. It stops when the window closes.', connection.sandboxUrl ?? ''),
    );
  });
  registerCommand(context, log, 'workItemStudio.stopSandbox', async () => {
    if (!(await confirmServiceSwitch(connection, (s) => !!s.sandbox))) return;
    await connection.stopSandbox();
  });
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
