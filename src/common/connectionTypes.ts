// The connection's vocabulary: what the service in use is (ConnectionInfo), what ConnectionManager
// is made with (its prompts, secrets, sandbox starter), the options of a request through it, and
// the two errors it throws when there is no service or the user dismissed the sign-in.
// ConnectionManager (connection.ts) re-exports all of it; callers import from there.
import * as vscode from 'vscode';
import type { Dispatcher } from 'undici';
import type { Logger } from '../api/logger';
import type { AuthMethod, SandboxEdition } from './config';
import type { SecretStorageLike } from './secrets';

export interface ConnectionInfo {
  baseUrl: string;
  origin: string;
  label: string;
  /** The sandbox this window started (Start Sandbox). */
  isSandbox: boolean;
  /** The configured service is the sandbox `npm start` serves (its workspace setting workItemStudio.sandboxLabel says so). */
  startedSandbox?: boolean;
  /** The service profile in use (its name is the label); absent for the sandbox this window started. */
  profile?: string;
  /** The sign-in method the profile offers first (else the workItemStudio.authMethod setting). */
  authMethod?: AuthMethod;
}

/** How a person signs in; the default asks through quick picks and input boxes. */
export type SignInMethod = 'token' | 'pasteToken' | 'basic' | 'apiKey';
export interface SignInPrompts {
  pickMethod(info: ConnectionInfo, preferred: AuthMethod, reason: 'command' | 'unauthorized' | 'missing'): Promise<SignInMethod | undefined>;
  askLoginName(info: ConnectionInfo, previous: string | undefined): Promise<string | undefined>;
  askPassword(info: ConnectionInfo, loginName: string): Promise<string | undefined>;
  askToken(info: ConnectionInfo): Promise<string | undefined>;
  askApiKey(info: ConnectionInfo): Promise<string | undefined>;
}

export interface RunningSandbox {
  url: string;
  origin: string;
  close(): Promise<void>;
}

export interface ConnectionDeps {
  secrets: SecretStorageLike;
  log: Logger;
  prompts: SignInPrompts;
  /** Reads the configured service URL (default: the restricted setting). */
  serviceUrl?: () => string;
  /** With `serviceUrl`: reads the service profiles as the setting holds them (default: none). */
  services?: () => unknown;
  /** Where the name of this workspace's active service profile is kept (the workspace state); default: memory. */
  profileState?: { get<T>(key: string): T | undefined; update(key: string, value: unknown): Thenable<void> };
  /** Starts a sandbox (default: `createSandbox` from src/sandbox on 127.0.0.1, port 0). */
  startSandbox?: (edition: SandboxEdition, log: Logger) => Promise<RunningSandbox>;
  /** Builds the undici dispatcher (proxy, CA: src/api/dispatcher.ts); undefined = the client's own Agent. */
  dispatcher?: () => Promise<Dispatcher | undefined>;
  /** Shown once when a non-loopback URL uses plain http. */
  warnInsecure?: (info: ConnectionInfo) => void;
}

export class NotConnectedError extends Error {
  constructor() {
    super(vscode.l10n.t('No service is configured. Run "Connect to a Service…" or "Start Sandbox".'));
    this.name = 'NotConnectedError';
  }
}

/** The user dismissed a sign-in prompt (or dismissed one earlier, for a background load). */
export class SignInCancelledError extends vscode.CancellationError {}

export interface ClientRequestOptions {
  /** Releases this caller (rejecting with the abort reason) while it waits, e.g. for a sign-in prompt. */
  signal?: AbortSignal;
  /**
   * A load the user did not ask for directly (a tree view): after a dismissed sign-in
   * prompt it fails at once with SignInCancelledError instead of asking again, until
   * the credentials or the service change.
   */
  background?: boolean;
}

export type SignInReason = 'command' | 'unauthorized' | 'missing';
