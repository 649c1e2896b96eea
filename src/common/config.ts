// Typed access to the extension's settings (prefix `workItemStudio.`).
// Settings that could redirect credentials (serviceUrl, services, authMethod, network.caFile, network.proxy)
// are restricted in untrusted workspaces (package.json capabilities) and are also
// read here through `inspect()`, ignoring workspace values when the workspace is
// not trusted, so the rule holds whatever the host does.
import * as vscode from 'vscode';
import { effectiveRestrictedValue } from './serviceUrl';

export const SECTION = 'workItemStudio';

export type AuthMethod = 'token' | 'basic' | 'apiKey';
export type SandboxEdition = 'professional' | 'standard';

export interface Settings {
  serviceUrl: string;
  /** The named service profiles as written (read by readProfiles in ./profiles). */
  services: unknown;
  authMethod: AuthMethod;
  organizations: string[];
  processCategoriesPageSize: number;
  bulk: {
    concurrency: number;
    requestsPerMinute: number;
    confirmAboveItems: number;
    maxUrlLength: number;
    retryBudget: number;
    /** Read the touched fields before and after an update (preview, undo, drift warning). */
    readValues: boolean;
  };
  network: { requestTimeoutSeconds: number; caFile: string; maxResponseMegabytes: number };
  sandboxEdition: SandboxEdition;
}

/** Keys restricted in untrusted workspaces (also declared in package.json). */
export const RESTRICTED_KEYS = ['serviceUrl', 'services', 'authMethod', 'network.caFile', 'network.proxy'] as const;

function cfg(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(SECTION);
}

function int(value: unknown, fallback: number, min: number, max: number): number {
  const n = typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : fallback;
  return Math.min(max, Math.max(min, n));
}

/** A restricted setting's value: workspace values only count in a trusted workspace. */
export function restricted<T>(key: (typeof RESTRICTED_KEYS)[number], fallback: T, trusted = vscode.workspace.isTrusted): T {
  return effectiveRestrictedValue(cfg().inspect<T>(key), trusted, fallback);
}

export function readSettings(trusted = vscode.workspace.isTrusted): Settings {
  const c = cfg();
  const authMethod = restricted<string>('authMethod', 'token', trusted);
  const edition = c.get<string>('sandbox.edition', 'professional');
  const orgs = c.get<unknown>('organizations', []);
  return {
    serviceUrl: String(restricted<string>('serviceUrl', '', trusted) ?? ''),
    services: restricted<unknown>('services', [], trusted),
    authMethod: authMethod === 'basic' || authMethod === 'apiKey' ? authMethod : 'token',
    organizations: Array.isArray(orgs) ? orgs.filter((o): o is string => typeof o === 'string' && o.trim() !== '').map((o) => o.trim()) : [],
    processCategoriesPageSize: int(c.get('processCategories.pageSize'), 50, 1, 1000),
    bulk: {
      concurrency: int(c.get('bulk.concurrency'), 2, 1, 8),
      requestsPerMinute: int(c.get('bulk.requestsPerMinute'), 600, 1, 1500),
      confirmAboveItems: int(c.get('bulk.confirmAboveItems'), 100, 0, 1_000_000),
      maxUrlLength: int(c.get('bulk.maxUrlLength'), 8000, 256, 65536),
      retryBudget: int(c.get('bulk.retryBudget'), 10, 0, 1000),
      readValues: c.get<boolean>('bulk.readValues', true) !== false,
    },
    network: {
      requestTimeoutSeconds: int(c.get('network.requestTimeoutSeconds'), 30, 1, 3600),
      caFile: String(restricted<string>('network.caFile', '', trusted) ?? ''),
      maxResponseMegabytes: int(c.get('network.maxResponseMegabytes'), 256, 1, 500),
    },
    sandboxEdition: edition === 'standard' ? 'standard' : 'professional',
  };
}

/** Writes the root organizations to the user (global) settings unless a workspace value is in force. */
export async function updateOrganizations(ids: string[]): Promise<void> {
  const c = cfg();
  const inspected = c.inspect<string[]>('organizations');
  const target =
    inspected?.workspaceFolderValue !== undefined
      ? vscode.ConfigurationTarget.WorkspaceFolder
      : inspected?.workspaceValue !== undefined
        ? vscode.ConfigurationTarget.Workspace
        : vscode.ConfigurationTarget.Global;
  await c.update('organizations', ids, target);
}

/** Writes the service profiles to the user (global) settings. */
export async function updateServices(services: unknown[]): Promise<void> {
  await cfg().update('services', services, vscode.ConfigurationTarget.Global);
}

export async function updateServiceUrl(url: string): Promise<void> {
  await cfg().update('serviceUrl', url, vscode.ConfigurationTarget.Global);
}

/** True when the change touches `workItemStudio.<key>` for any of the keys. */
export function affects(e: vscode.ConfigurationChangeEvent, ...keys: string[]): boolean {
  return keys.length === 0 ? e.affectsConfiguration(SECTION) : keys.some((k) => e.affectsConfiguration(`${SECTION}.${k}`));
}
