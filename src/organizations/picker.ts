// Add Organization's pick: the organizations the service can show (the trees of the signed-in
// user's organization and of those already shown: model/rootChoices.ts), and an entry to type
// IDs, as before, for anything else. Where the service can show none, there is no pick.
import * as vscode from 'vscode';
import type { ConnectionManager } from '../common/connection';
import { rootChoices, type RootChoice } from './model/rootChoices';

/** The organizations to offer (empty when the service can show none, or nothing is connected). */
export async function organizationChoices(connection: ConnectionManager, log: vscode.LogOutputChannel, current: readonly string[]): Promise<RootChoice[]> {
  if (!connection.current) return [];
  try {
    const r = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Reading organizations…') },
      () => connection.run((c) => rootChoices(c, current)),
    );
    if (r.problem !== undefined) log.info(`Add Organization: could not read every organization to offer: ${r.problem instanceof Error ? r.problem.message : String(r.problem)}`);
    return r.choices;
  } catch (e) {
    log.info(`Add Organization: no organizations to offer: ${e instanceof Error ? e.message : String(e)}`);
    return [];
  }
}

type Item = vscode.QuickPickItem & { orgId?: string; typeIds?: true };

/**
 * Shows the pick. Resolves to the IDs picked, `{ type: [...] }` when the person chose to type IDs
 * (with the ones ticked so far), or undefined when cancelled.
 */
export async function pickOrganizations(choices: readonly RootChoice[], current: readonly string[]): Promise<string[] | { type: string[] } | undefined> {
  const typeItem: Item = {
    label: vscode.l10n.t('$(edit) Enter IDs…'),
    description: vscode.l10n.t('an organization not listed here'),
    alwaysShow: true,
    typeIds: true,
  };
  const items: Item[] = [
    typeItem,
    { label: vscode.l10n.t('Organizations the service shows'), kind: vscode.QuickPickItemKind.Separator },
    ...choices.map((c): Item => {
      const shown = current.includes(c.id);
      return {
        label: `${'\u2003'.repeat(c.level)}$(organization) ${c.name}`,
        description: [c.id, c.code, shown ? vscode.l10n.t('(already shown)') : undefined].filter(Boolean).join(' · '),
        detail: c.mine ? vscode.l10n.t('Your organization') : undefined,
        orgId: c.id,
      };
    }),
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Add Organization'),
    placeHolder: vscode.l10n.t('Tick the organizations to show as roots (type to search by name or ID)'),
    canPickMany: true,
    matchOnDescription: true,
    ignoreFocusOut: true,
  });
  if (!picked) return undefined;
  const ids = picked.map((p) => p.orgId).filter((id): id is string => !!id && !current.includes(id));
  return picked.some((p) => p.typeIds) ? { type: ids } : ids;
}
