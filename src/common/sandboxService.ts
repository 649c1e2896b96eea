// The sandbox as a service: whether the configured loopback URL is the sandbox `npm start`
// serves, and starting one in this extension host (the sandbox code loads only then).
import * as vscode from 'vscode';
import type { Logger } from '../api/logger';
import type { SandboxEdition } from './config';
import type { RunningSandbox } from './connectionTypes';
import { isLoopbackHost } from './serviceUrl';
import { core } from '../core/load';

/**
 * Who started the sandbox at the configured loopback URL, from the workspace setting
 * workItemStudio.sandboxLabel that `npm start` writes into its demo workspace (not a
 * contributed setting: nobody sets it by hand). Only "npm start" is known, and only for a
 * loopback URL, so a workspace cannot pass a real service off as a sandbox.
 */
export function startedBy(baseUrl: string): 'npm start' | undefined {
  const marker = vscode.workspace.getConfiguration('workItemStudio').get<unknown>('sandboxLabel');
  if (marker !== 'npm start') return undefined;
  let host: string;
  try {
    host = new URL(baseUrl).hostname;
  } catch {
    return undefined;
  }
  return isLoopbackHost(host) ? 'npm start' : undefined;
}

export async function defaultStartSandbox(edition: SandboxEdition, log: Logger): Promise<RunningSandbox> {
  return core().createSandbox({ host: '127.0.0.1', port: 0, edition, logger: log });
}
