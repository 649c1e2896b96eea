import * as vscode from 'vscode';
import { registerAgentTools, type AgentToolPrompts } from './agentTools';
import { registerChanges, type UndoPrompts } from './changes';
import type { JobPrompts } from './changes/jobs';
import { createConnection } from './connection';
import { registerRequestDocuments } from './editors';
import type { NewUpdateOptions } from './editors/requests';
import { registerForms } from './forms';
import { registerOrganizations } from './organizations';
import { registerPeople } from './people';
import { registerProcessCategories } from './processCategories';
import { registerTable, type TablePrompts, type TableSerializer } from './table';
import { registerTemplates } from './templates';
import { DetailsDocuments } from './views/common';
import { registerWorkItems } from './workItems';
import { testHooksOn } from './common/model/testHooks';
import type { SignInPrompts } from './common/connection';

/**
 * What the extension exports (`vscode.extensions.getExtension(id).exports`) when its test
 * hooks are on (src/common/model/testHooks.ts): tests answer the questions of the update jobs
 * and of Create Undo Document instead of a person (test/integration/support.ts `setPrompts`).
 * In normal use nothing is exported.
 */
export interface WorkItemStudioApi {
  /** Answers given replace those dialogs; questions not given, or `undefined`, show the modal dialogs again. */
  setPrompts(
    prompts: { jobs?: Partial<JobPrompts>; undo?: Partial<UndoPrompts>; table?: Partial<TablePrompts>; agentTools?: Partial<AgentToolPrompts>; signIn?: Partial<SignInPrompts> } | undefined,
  ): void;
  /** What VS Code calls to restore a work item table tab after a window reload (tests restore a tab through it). */
  readonly tableSerializer: TableSerializer;
  /** The text of the connection's status bar item (which service and who is signed in). */
  connectionStatus(): string;
}

/**
 * Activation only constructs and registers: no network and no disk I/O here.
 * Each feature area exposes one `register*` function that pushes its disposables;
 * features never import each other: what one needs of another is passed in here.
 */
export function activate(context: vscode.ExtensionContext): WorkItemStudioApi | undefined {
  const log = vscode.window.createOutputChannel('Work Item Studio', { log: true });
  context.subscriptions.push(log);
  const { connection, setSignInPrompts, statusText } = createConnection(context, log);
  // The read-only JSON documents of "Show Details" (one content provider for every view).
  const details = new DetailsDocuments();
  context.subscriptions.push(details);
  const organizations = registerOrganizations(context, log, connection, details);
  // Names of users: the configured organizations' users, or else those of the signed-in user's top organizations.
  const people = registerPeople(context, log, connection, () => organizations.tree.knownUsers(), () => organizations.topOrganizations());
  registerProcessCategories(context, log, connection, people);
  const requests = registerRequestDocuments(context, log, connection, people);
  const testHooks = testHooksOn(context.extensionMode === vscode.ExtensionMode.Production, process.env);
  if (testHooks) log.info('Test hooks are on (development or test mode, or WIS_TEST_HOOKS=1): the safety dialogs can be answered by a test.');
  // Preview, Send and undo: the jobs, their values before and after, the result views and the undo.
  const changes = registerChanges(context, log, connection, { people, fields: requests.fields, testHooks });
  const workItems = registerWorkItems(context, log, connection, { details, onDidFinishJob: changes.jobs.onDidFinishJob, users: people, newUpdate: requests.newUpdate });
  const table = registerTable(context, log, { connection, catalogue: requests.fields, users: people, workItems, newRequestDocument: (ids, template) => requests.newUpdate({ ids, template: template as NewUpdateOptions['template'] }), onDidFinishJob: changes.jobs.onDidFinishJob });
  registerForms(context, log, { connection, workItems, catalogue: requests.fields, knownUsers: () => organizations.tree.knownUsers() });
  // Copy Folder as Template: one add document of a folder's copy, opened with its Preview.
  registerTemplates(context, log, { connection, workItems, catalogue: requests.fields });
  // Tools for agents: find and read work items, draft a request document (opened, never sent).
  const agentTools = registerAgentTools(context, log, { connection, catalogue: requests.fields, users: people });
  if (!testHooks) return undefined;
  return {
    setPrompts: (prompts) => {
      changes.setPrompts(prompts);
      table.setPrompts(prompts?.table);
      agentTools.setPrompts(prompts?.agentTools);
      setSignInPrompts(prompts?.signIn);
    },
    tableSerializer: table.serializer,
    connectionStatus: statusText,
  };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
