// Request documents in the editor: diagnostics, Quick Fixes, completion and hovers of
// field names, the Send/Preview CodeLens (its commands are src/changes'), New Work Item
// Update and the insert commands. Activation only registers.
import * as vscode from 'vscode';
import type { ConnectionManager } from '../common/connection';
import type { UserNames } from '../common/model/users';
import { registerCommand } from '../common/commands';
import { insertAtCursor, newUpdate, type NewUpdateOptions } from './requests';
import { SendCodeLens } from './codeLens';
import { RenameMemberActions, RequestDiagnostics } from './diagnostics';
import { FieldAssist } from './fieldAssist';
import { AddItemActions } from './addActions';
import { FieldCatalogueService } from './fieldCatalogue';
import { requestDocumentActive } from '../common/activeRequestDocument';

/** Context key: the active editor shows a request document. */
export const REQUEST_DOCUMENT_ACTIVE = 'workItemStudio.requestDocumentActive';

const SELECTOR: vscode.DocumentSelector = [{ language: 'json' }, { language: 'jsonc' }];

export interface RequestDocumentsApi {
  diagnostics: RequestDiagnostics;
  fields: FieldCatalogueService;
  /** New Work Item Update for given IDs (other features get it from src/extension.ts). */
  newUpdate(options: NewUpdateOptions): Promise<vscode.TextEditor | undefined>;
}

export function registerRequestDocuments(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  connections: ConnectionManager,
  people?: UserNames,
): RequestDocumentsApi {
  // The service's field catalogue: read on first need while signed in, never at activation.
  const fields = new FieldCatalogueService(log, connections);
  const diagnostics = new RequestDiagnostics(fields);
  const assist = new FieldAssist(fields);
  const lens = new SendCodeLens(connections, diagnostics);
  context.subscriptions.push(
    fields,
    diagnostics,
    lens,
    vscode.languages.registerCodeActionsProvider(SELECTOR, new RenameMemberActions(diagnostics), RenameMemberActions.metadata),
    vscode.languages.registerCodeActionsProvider(SELECTOR, new AddItemActions(fields), AddItemActions.metadata),
    vscode.languages.registerCodeLensProvider(SELECTOR, lens),
    vscode.languages.registerCompletionItemProvider(SELECTOR, assist, ...FieldAssist.triggerCharacters),
    vscode.languages.registerHoverProvider(SELECTOR, assist),
  );

  registerCommand(context, log, 'workItemStudio.refreshFieldCatalogue', () => fields.refresh());
  const isOptions = (a: unknown): a is NewUpdateOptions => typeof a === 'object' && a !== null && !(a instanceof vscode.Uri) && ('ids' in a || 'template' in a);
  registerCommand(context, log, 'workItemStudio.newUpdate', (arg?: unknown) => newUpdate(log, isOptions(arg) ? arg : {}));
  registerCommand(context, log, 'workItemStudio.insertUser', (arg?: unknown) => insertAtCursor(arg, 'user'));
  registerCommand(context, log, 'workItemStudio.insertProcessCategory', (arg?: unknown) => insertAtCursor(arg, 'category'));

  // Context key for menus (the active tab's request document, also while its file is still being read).
  let shownActive: boolean | undefined;
  const updateActive = (): void => {
    const active = requestDocumentActive();
    if (active === shownActive) return;
    shownActive = active;
    void vscode.commands.executeCommand('setContext', REQUEST_DOCUMENT_ACTIVE, active);
  };
  context.subscriptions.push(
    vscode.window.onDidChangeActiveTextEditor(updateActive),
    vscode.window.tabGroups.onDidChangeTabs(updateActive),
    vscode.window.tabGroups.onDidChangeTabGroups(updateActive),
  );
  updateActive();
  return {
    diagnostics,
    fields,
    newUpdate: (options) => newUpdate(log, options),
  };
}
