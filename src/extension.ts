import * as vscode from 'vscode';
import { createConnection } from './commands/connection';
import { registerSidebar } from './views';
import { registerRequestDocuments } from './editors';

/**
 * Activation only constructs and registers: no network and no disk I/O here.
 * Each feature area exposes one `register*` function that pushes its disposables.
 */
export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Work Item Studio', { log: true });
  context.subscriptions.push(log);
  const connection = createConnection(context, log);
  registerSidebar(context, log, connection);
  registerRequestDocuments(context, log, connection);
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
