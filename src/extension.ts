import * as vscode from 'vscode';
import { createConnection } from './connection';
import { registerRequestDocuments } from './editors';
import { registerOrganizations } from './organizations';
import { registerPeople } from './people';
import { registerProcessCategories } from './processCategories';
import { DetailsDocuments } from './views/common';
import { registerWorkItems } from './workItems';

/**
 * Activation only constructs and registers: no network and no disk I/O here.
 * Each feature area exposes one `register*` function that pushes its disposables.
 */
export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Work Item Studio', { log: true });
  context.subscriptions.push(log);
  const connection = createConnection(context, log);
  // The read-only JSON documents of "Show Details" (one content provider for every view).
  const details = new DetailsDocuments();
  context.subscriptions.push(details);
  const organizations = registerOrganizations(context, log, connection, details);
  registerProcessCategories(context, log, connection);
  const people = registerPeople(context, log, connection, () => organizations.tree.knownUsers());
  const requests = registerRequestDocuments(context, log, connection, people);
  registerWorkItems(context, log, connection, { details, onDidFinishJob: requests.jobs.onDidFinishJob, users: people });
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
