// Commands of the Organizations view, and the item commands shared by both views
// (Copy ID, Show Details, Retry). Item commands take (clicked, selected[]) so they
// act on every selected row.
import * as vscode from 'vscode';
import { registerCommand } from '../common/commands';
import { readSettings, updateOrganizations } from '../common/config';
import { openNewRequestDocument } from '../common/requestDocuments';
import type { ActionableNode, DetailsDocuments } from '../views/common';
import { filterProblem, MessageNode, readDetailsArg, targets } from '../views/common';
import { OrgNode, UserNode } from './nodes';
import { ORGANIZATIONS_VIEW_ID, type OrganizationsTree } from './tree';
import { organizationChoices, pickOrganizations } from './picker';
import { organizationExists } from './model/rootChoices';
import { formatFilter, isEmptyFilter, parseFilter, USER_FILTER_FIELDS, type UserFilterField } from '../views/model/filters';
import { core } from '../core/load';

export function registerOrganizationCommands(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  tree: OrganizationsTree,
  view: vscode.TreeView<unknown>,
  details: DetailsDocuments,
): void {
  const selection = () => view.selection as ActionableNode[];

  /**
   * Add Organization: offers the organizations the service can show (picker.ts), or asks for IDs
   * where it can show none (or the person chooses to type them); checks each new ID on the
   * service (when one is connected) and says when no organization answers by that ID, instead of
   * showing it with "0 users". `typed` and `answers` are for scripted use (tests): the IDs, the
   * answer to "Add anyway?", and `pick`: the IDs ticked in the pick instead of showing it (the
   * result then lists the IDs `offered`).
   */
  registerCommand(context, log, 'workItemStudio.addOrganization', async (typed?: unknown, answers?: { ifUnknown?: 'add' | 'skip'; pick?: string[] }) => {
    const current = readSettings().organizations;
    let value: string | undefined;
    let offered: string[] | undefined;
    if (typeof typed === 'string') value = typed;
    else {
      const choices = await organizationChoices(tree.connection, log, current);
      offered = choices.map((c) => c.id);
      let initial = '';
      if (choices.length > 0) {
        const picked = answers?.pick ? answers.pick.filter((id) => offered!.includes(id) && !current.includes(id)) : await pickOrganizations(choices, current);
        if (picked === undefined) return undefined;
        if (Array.isArray(picked)) value = picked.join(' ');
        else initial = picked.type.join(' ');
      }
      value ??= await askIds(tree, current, initial);
    }
    if (value === undefined) return undefined;
    const ids = splitIds(value).filter((id) => !core().validateId(id) && !current.includes(id));
    const unknown: { id: string; message: string }[] = [];
    const added: string[] = [];
    for (const id of ids) {
      const answered = await organizationAnswers(tree, log, id);
      if (answered !== false) {
        added.push(id);
        continue;
      }
      const message = vscode.l10n.t('No organization answers by the ID "{0}" on {1}: the service shows no such organization and no user in it or below it. Check the ID (IDs are case-sensitive).', id, tree.connection.current?.label ?? '');
      unknown.push({ id, message });
      const addAnyway = vscode.l10n.t('Add Anyway');
      const pick = answers?.ifUnknown ?? ((await vscode.window.showWarningMessage(message, { modal: true }, addAnyway)) === addAnyway ? 'add' : 'skip');
      if (pick === 'add') added.push(id);
    }
    if (added.length > 0) await updateOrganizations([...new Set([...current, ...added])]);
    return offered ? { added, unknown, offered } : { added, unknown };
  });

  registerCommand(context, log, 'workItemStudio.removeOrganization', async (clicked?: OrgNode, selected?: OrgNode[]) => {
    const remove = new Set(targets(clicked, selected).filter((n) => n instanceof OrgNode && n.isRoot).map((n) => n.orgId));
    if (remove.size === 0) return;
    await updateOrganizations(readSettings().organizations.filter((id) => !remove.has(id)));
  });

  registerCommand(context, log, 'workItemStudio.refreshOrganizations', (clicked?: unknown) => {
    tree.refresh(clicked instanceof OrgNode ? clicked : undefined);
  });

  registerCommand(context, log, 'workItemStudio.filterUsers', async (clicked?: OrgNode) => {
    const org = clicked instanceof OrgNode ? clicked : selection().find((n): n is OrgNode => n instanceof OrgNode);
    if (!org) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Select an organization to filter its users.'));
      return;
    }
    const value = await vscode.window.showInputBox({
      title: vscode.l10n.t('Filter Users of {0}', org.name ?? org.orgId),
      prompt: vscode.l10n.t('Partial matches: name:…, code:…, englishName:…, keyword:… (text without a field is a keyword). Empty clears the filter.'),
      value: formatFilter(tree.getFilter(org) ?? {}, USER_FILTER_FIELDS),
      placeHolder: 'name:Tanaka code:E01',
      validateInput: (v) => filterProblem(parseFilter<UserFilterField>(v, USER_FILTER_FIELDS, 'keyword')),
    });
    if (value === undefined) return;
    const parsed = parseFilter<UserFilterField>(value, USER_FILTER_FIELDS, 'keyword');
    if (!parsed.ok) return;
    // The organization is loaded again with the filter, then announced (tree.reloaded); the
    // reveals come after, so nothing is announced while they expand rows.
    tree.setFilter(org, parsed.filter);
    await tree.reloaded;
    await view.reveal(org, { expand: true, focus: false, select: false }).then(undefined, () => undefined);
    if (isEmptyFilter(parsed.filter)) return;
    // Reveal the matches: the organizations down to the first matching user loaded, then expanded, that user selected.
    const first = await vscode.window.withProgress({ location: { viewId: ORGANIZATIONS_VIEW_ID } }, () => tree.firstMatch(org));
    if (first) await view.reveal(first, { expand: true, focus: false, select: true }).then(undefined, () => undefined);
    else void vscode.window.showInformationMessage(vscode.l10n.t('No user of {0} matches the filter.', org.name ?? org.orgId));
  });

  registerCommand(context, log, 'workItemStudio.clearUserFilter', (clicked?: OrgNode) => {
    if (clicked instanceof OrgNode) tree.setFilter(clicked, undefined);
  });
  registerCommand(context, log, 'workItemStudio.clearAllUserFilters', () => tree.clearAllFilters());

  registerCommand(context, log, 'workItemStudio.copyId', async (clicked?: ActionableNode, selected?: ActionableNode[]) => {
    const ids = targets(clicked, selected, selection())
      .map((n) => n.copyId?.())
      .filter((id): id is string => !!id);
    if (ids.length === 0) return;
    await vscode.env.clipboard.writeText(ids.join('\n'));
    vscode.window.setStatusBarMessage(vscode.l10n.t('Copied {0} ID(s).', String(ids.length)), 3000);
  });

  registerCommand(context, log, 'workItemStudio.copyLoginName', async (clicked?: UserNode, selected?: UserNode[]) => {
    const names = targets(clicked, selected)
      .filter((n): n is UserNode => n instanceof UserNode)
      .map((n) => n.user.loginName)
      .filter((v): v is string => !!v);
    if (names.length === 0) return;
    await vscode.env.clipboard.writeText(names.join('\n'));
    vscode.window.setStatusBarMessage(vscode.l10n.t('Copied {0} login name(s).', String(names.length)), 3000);
  });

  registerCommand(context, log, 'workItemStudio.showDetails', async (clicked?: ActionableNode, selected?: ActionableNode[]) => {
    // From a tooltip's "Show Details" link: the record itself.
    const fromLink = readDetailsArg(clicked);
    if (fromLink) return details.show(fromLink.title, fromLink.value);
    const all = targets(clicked, selected, selection())
      .map((n) => n.details?.())
      .filter((d): d is { title: string; value: unknown } => !!d);
    if (all.length === 0) return;
    if (all.length === 1) await details.show(all[0]!.title, all[0]!.value);
    else await details.show(`${all[0]!.title}-and-${all.length - 1}-more`, all.map((d) => d.value));
  });

  registerCommand(context, log, 'workItemStudio.assignToWorkItems', async (clicked?: UserNode, selected?: UserNode[]) => {
    const users = targets(clicked, selected, selection() as unknown as UserNode[]).filter((n): n is UserNode => n instanceof UserNode);
    if (users.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Select one or more users first.'));
      return;
    }
    const unique = [...new Map(users.map((u) => [u.user.id, u.user])).values()];
    const description =
      unique.length === 1
        ? vscode.l10n.t('Assign {0} ({1}) to the work items listed in workItemIds.', unique[0]!.name, unique[0]!.loginName ?? unique[0]!.id)
        : vscode.l10n.t('Assign {0} users to the work items listed in workItemIds.', String(unique.length));
    const update = core().assignUsersUpdate(unique);
    // documentTemplate builds it with createRequestDocument; the cursor starts on the placeholder ID.
    return openNewRequestDocument(core().documentTemplate(update, [], description), 'assign-users');
  });

  registerCommand(context, log, 'workItemStudio.retryLoad', (clicked?: ActionableNode) => {
    if (clicked instanceof MessageNode && clicked.signInRequired) {
      void vscode.commands.executeCommand('workItemStudio.signIn').then(() => clicked.retry());
      return;
    }
    clicked?.retry?.();
  });
}

/** Asks for organization IDs (several separated by commas or spaces), as the command did before it could offer any. */
function askIds(tree: OrganizationsTree, current: readonly string[], value: string): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title: vscode.l10n.t('Add Organization'),
    prompt: vscode.l10n.t('ID of a root organization to show (several IDs separated by commas or spaces).'),
    value,
    placeHolder: tree.connection.current?.isSandbox ? vscode.l10n.t('For the sandbox demo data: 1001') : undefined,
    ignoreFocusOut: true,
    validateInput: (v) => {
      const ids = splitIds(v);
      if (ids.length === 0) return vscode.l10n.t('Enter an organization ID.');
      for (const id of ids) {
        const problem = core().validateId(id);
        if (problem) return vscode.l10n.t('"{0}" is not a valid ID: {1}', id, problem);
      }
      const dup = ids.find((id) => current.includes(id));
      return dup ? { message: vscode.l10n.t('{0} is already in the list.', dup), severity: vscode.InputBoxValidationSeverity.Info } : undefined;
    },
  });
}

/**
 * Whether an organization answers by this ID: the service's subOrganizations shows it (official help O1),
 * or, where that cannot tell, some user is in it (operation 3) or below it (operation 2). Undefined when it
 * cannot be told (no service connected, sign-in cancelled, or the request failed).
 */
async function organizationAnswers(tree: OrganizationsTree, log: vscode.LogOutputChannel, id: string): Promise<boolean | undefined> {
  if (!tree.connection.current) return undefined;
  try {
    return await tree.connection.run((c) => organizationExists(c, id));
  } catch (e) {
    if (core().isServiceError(e) && e.status === 404) return false;
    log.info(`Could not check organization ${id}: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
}

function splitIds(text: string): string[] {
  return text
    .split(/[\s,、，]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}
