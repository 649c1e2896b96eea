// Request documents in the editor: diagnostics, Quick Fixes, the Send/Preview
// CodeLens, the commands, and the offer to resume unfinished jobs at first use.
// Activation only registers; the job directory is touched at first use. The
// before/after values (src/changes) are registered by src/extension.ts with this
// feature's jobs and previews, and handed back through `useValues`.
import * as vscode from 'vscode';
import type { ConnectionManager } from '../common/connection';
import type { UserNames } from '../common/model/users';
import { RequestJobs } from './jobs';
import { registerCommand } from '../common/commands';
import { insertAtCursor, newUpdate, previewUpdate, sendUpdate, type NewUpdateOptions, type RequestCommandDeps } from './requests';
import { RESULT_VIEW_TYPE } from './results/resultPanel';
import { SendCodeLens } from './codeLens';
import { RenameMemberActions, RequestDiagnostics } from './diagnostics';
import { FieldAssist } from './fieldAssist';
import { FieldCatalogueService } from './fieldCatalogue';
import { PreviewDocuments } from './preview';
import { isRequestDocument } from '../common/requestDocument';
import { requestDocumentActive } from '../common/activeRequestDocument';

/** Context key: the active editor shows a request document. */
export const REQUEST_DOCUMENT_ACTIVE = 'workItemStudio.requestDocumentActive';

const SELECTOR: vscode.DocumentSelector = [{ language: 'json' }, { language: 'jsonc' }];

export interface RequestDocumentsApi {
  jobs: RequestJobs;
  diagnostics: RequestDiagnostics;
  fields: FieldCatalogueService;
  /** The read-only Markdown previews (the before/after feature shows undo summaries there). */
  previews: PreviewDocuments;
  /** The before/after values Preview and Send use (src/changes, registered by src/extension.ts). */
  useValues(values: RequestCommandDeps['values']): void;
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
  const previews = new PreviewDocuments();
  const jobs = new RequestJobs(context, log, connections, people);
  const lens = new SendCodeLens(connections, diagnostics);
  context.subscriptions.push(
    fields,
    diagnostics,
    previews,
    jobs,
    lens,
    vscode.languages.registerCodeActionsProvider(SELECTOR, new RenameMemberActions(diagnostics), RenameMemberActions.metadata),
    vscode.languages.registerCodeLensProvider(SELECTOR, lens),
    vscode.languages.registerCompletionItemProvider(SELECTOR, assist, ...FieldAssist.triggerCharacters),
    vscode.languages.registerHoverProvider(SELECTOR, assist),
    // Result views come back after a window reload (the journal is read then, not now).
    vscode.window.registerWebviewPanelSerializer(RESULT_VIEW_TYPE, { deserializeWebviewPanel: (panel, state) => jobs.restoreResultView(panel, state) }),
  );

  const deps: RequestCommandDeps = { log, connections, jobs, previews, diagnostics, fields };
  registerCommand(context, log, 'workItemStudio.refreshFieldCatalogue', () => fields.refresh());
  const isOptions = (a: unknown): a is NewUpdateOptions => typeof a === 'object' && a !== null && !(a instanceof vscode.Uri) && ('ids' in a || 'template' in a);
  registerCommand(context, log, 'workItemStudio.newUpdate', (arg?: unknown) => newUpdate(log, isOptions(arg) ? arg : {}));
  registerCommand(context, log, 'workItemStudio.sendUpdate', (arg?: unknown, many?: unknown) => sendUpdate(deps, arg, many));
  registerCommand(context, log, 'workItemStudio.previewUpdate', (arg?: unknown, many?: unknown) => previewUpdate(deps, arg, many));
  registerCommand(context, log, 'workItemStudio.insertUser', (arg?: unknown) => insertAtCursor(arg, 'user'));
  registerCommand(context, log, 'workItemStudio.insertProcessCategory', (arg?: unknown) => insertAtCursor(arg, 'category'));
  const jobArg = (a: unknown): string | undefined => (typeof a === 'string' ? a : undefined);
  registerCommand(context, log, 'workItemStudio.resumeJobs', (a?: unknown) => jobs.resume(jobArg(a)));
  registerCommand(context, log, 'workItemStudio.retryFailed', (a?: unknown) => jobs.retryFailed(jobArg(a)));
  registerCommand(context, log, 'workItemStudio.sendWithoutMissing', (a?: unknown) => jobs.sendWithoutMissing(jobArg(a)));
  registerCommand(context, log, 'workItemStudio.resendUnknown', (a?: unknown) => jobs.resendUnknown(jobArg(a)));
  registerCommand(context, log, 'workItemStudio.showJobs', (a?: unknown) => jobs.showJob(jobArg(a)));

  // Context key for menus (the active tab's request document, also while its file is still being read),
  // and the once-per-session offer to resume unfinished jobs at first use.
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
    vscode.workspace.onDidOpenTextDocument((d) => {
      if (isRequestDocument(d)) void jobs.offerResumption();
    }),
  );
  updateActive();
  if (vscode.workspace.textDocuments.some(isRequestDocument)) {
    // A request document restored with the window: look for unfinished jobs after activation, not during it.
    const timer = setTimeout(() => void jobs.offerResumption(), 1500);
    context.subscriptions.push({ dispose: () => clearTimeout(timer) });
  }
  return {
    jobs,
    diagnostics,
    fields,
    previews,
    useValues: (values) => {
      deps.values = values;
    },
    newUpdate: (options) => newUpdate(log, options),
  };
}
