// Service profiles in the UI: Switch Service Profile… (also from the status bar's connection
// picker) and Add Service Profile…. A switch is a change of the service in use: a job sending to
// the old one is asked about first and pauses (it never follows), the sandbox this window
// started stops, and the new profile asks for a sign-in when it has none stored.
import * as vscode from 'vscode';
import { registerCommand } from '../common/commands';
import type { ConnectionManager } from '../common/connection';
import { readSettings, updateServices } from '../common/config';
import { profileNameProblem, withProfile, type ServiceProfile } from '../common/profiles';
import { normalizeServiceUrl } from '../common/serviceUrl';
import { confirmServiceSwitch } from './sandbox';

interface ProfileItem extends vscode.QuickPickItem {
  profile?: ServiceProfile;
  add?: true;
}

export function registerProfileCommands(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, connection: ConnectionManager): void {
  registerCommand(context, log, 'workItemStudio.switchServiceProfile', (name?: unknown) =>
    typeof name === 'string' ? switchProfile(connection, name) : pickProfile(connection),
  );
  registerCommand(context, log, 'workItemStudio.addServiceProfile', () => addProfile(connection));
}

/** The quick pick items of the profiles, the one in use marked (also the connection picker's). */
export function profileItems(connection: ConnectionManager): ProfileItem[] {
  const current = connection.current;
  return connection.profiles.list.map((profile) => {
    const inUse = !current?.isSandbox && current?.profile === profile.name;
    return {
      profile,
      label: inUse ? `$(check) ${profile.name}` : `$(arrow-swap) ${profile.name}`,
      description: profile.baseUrl,
      ...(inUse ? { detail: vscode.l10n.t('In use in this workspace') } : {}),
    };
  });
}

async function pickProfile(connection: ConnectionManager): Promise<void> {
  const items: ProfileItem[] = [...profileItems(connection), { add: true, label: vscode.l10n.t('$(add) Add Service Profile…') }];
  const problems = connection.profiles.problems.length;
  const pick = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Work Item Studio: Service Profile'),
    placeHolder:
      problems > 0
        ? problems === 1
          ? vscode.l10n.t('1 entry of workItemStudio.services is left out (a name and a valid URL are needed).')
          : vscode.l10n.t('{0} entries of workItemStudio.services are left out (a name and a valid URL are needed).', problems)
        : vscode.l10n.t('The service this workspace works with'),
  });
  if (pick?.add) return addProfile(connection);
  if (pick?.profile) return switchProfile(connection, pick.profile.name);
}

/** Makes `name` the profile of this workspace, after asking about jobs that would pause. */
export async function switchProfile(connection: ConnectionManager, name: string): Promise<void> {
  const current = connection.current;
  if (current?.isSandbox || current?.profile !== name) {
    if (!connection.profiles.list.some((p) => p.name === name)) throw new Error(vscode.l10n.t('There is no service profile named "{0}".', name));
    if (!(await confirmServiceSwitch(connection, () => true, vscode.l10n.t('Switch Service')))) return;
    if (connection.sandboxUrl) await connection.stopSandbox();
    await connection.useProfile(name);
  }
  // The profile in use (already, or now) without a sign-in asks for one.
  await connection.refreshSignedInState();
  // Joins the prompt the views' first reads of the new service may have opened already: one prompt.
  if (!connection.isSignedIn) await connection.signIn('missing');
}

/** Checks a base URL as the connect box does (undefined: fine; a warning is still fine). */
export function serviceUrlProblem(v: string): string | vscode.InputBoxValidationMessage | undefined {
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
}

async function addProfile(connection: ConnectionManager): Promise<void> {
  const name = await vscode.window.showInputBox({
    title: vscode.l10n.t('Add Service Profile (1/2)'),
    prompt: vscode.l10n.t('A short name for the service, shown in the status bar, the views, jobs and undo documents (for example 本番 or 検証)'),
    ignoreFocusOut: true,
    validateInput: (v) => {
      const problem = profileNameProblem(v, connection.profiles.list);
      if (problem === 'empty') return vscode.l10n.t('Enter a name.');
      if (problem === 'taken') return vscode.l10n.t('A service profile is already named "{0}".', v.trim());
      return undefined;
    },
  });
  if (name === undefined) return;
  const url = await vscode.window.showInputBox({
    title: vscode.l10n.t('Add Service Profile (2/2)'),
    prompt: vscode.l10n.t('Base URL of the service, including /api (for example https://pm.example.com/TimeTrackerNX/api)'),
    ignoreFocusOut: true,
    validateInput: serviceUrlProblem,
  });
  if (url === undefined) return;
  const n = normalizeServiceUrl(url);
  if (!n.ok) return;
  await updateServices(withProfile(readSettings().services, name.trim(), n.baseUrl));
  if (!connection.profiles.list.some((p) => p.name === name.trim())) {
    void vscode.window.showWarningMessage(vscode.l10n.t('The user setting was saved, but a workspace setting of workItemStudio.services overrides it.'));
    return;
  }
  await switchProfile(connection, name.trim());
}
