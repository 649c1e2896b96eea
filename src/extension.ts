import * as vscode from 'vscode';
import { createConnection } from './commands/connection';
import { registerSidebar } from './views';
import { registerRequestDocuments } from './editors';
import { registerPeople } from './people';
import { registerWorkItems } from './workItems';

/**
 * Activation only constructs and registers: no network and no disk I/O here.
 * Each feature area exposes one `register*` function that pushes its disposables.
 */
export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Work Item Studio', { log: true });
  context.subscriptions.push(log);
  const connection = createConnection(context, log);
  const sidebar = registerSidebar(context, log, connection);
  const people = registerPeople(context, log, connection, () => sidebar.organizations.knownUsers());
  const requests = registerRequestDocuments(context, log, connection, people);
  registerWorkItems(context, log, connection, { details: sidebar.details, onDidFinishJob: requests.jobs.onDidFinishJob });
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
