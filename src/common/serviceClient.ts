// Building the ServiceClient for a service (network settings, timeouts, a log that never holds
// the credentials it sends), closing one quietly, and what it sends for a stored credential.
// Used by ConnectionManager (connection.ts), which keeps one client per service.
import * as vscode from 'vscode';
import type { Dispatcher } from 'undici';
import type { ServiceClient, Credentials } from '../api/client';
import { readSettings } from './config';
import type { ConnectionDeps, ConnectionInfo } from './connectionTypes';
import { describeError } from './messages';
import type { StoredCredential } from './secrets';
import { core } from '../core/load';

export interface BuiltClient {
  client: ServiceClient;
  dispatcher?: Dispatcher;
}

/** A client for `info` sending `credentials`, through the dispatcher of the network settings. */
export async function newServiceClient(
  info: ConnectionInfo,
  credentials: () => Credentials | Promise<Credentials>,
  deps: Pick<ConnectionDeps, 'dispatcher' | 'log'>,
): Promise<BuiltClient> {
  const s = readSettings();
  const timeoutMs = s.network.requestTimeoutSeconds * 1000;
  let dispatcher: Dispatcher | undefined;
  try {
    dispatcher = await deps.dispatcher?.();
  } catch (e) {
    deps.log.error(`Network settings could not be applied: ${describeError(e)}`);
    throw e;
  }
  // The log of this client never holds the credentials it sends, in any encoding (the last step before the log).
  let secrets: string[] = [];
  const client = new (core().ServiceClient)({
    baseUrl: info.baseUrl,
    credentials: async () => {
      const c = await credentials();
      secrets = core().secretVariants(core().credentialSecrets(c));
      return c;
    },
    dispatcher,
    logger: core().redactingLogger(deps.log, (t) => core().redact(t, secrets)),
    timeouts: { connectMs: Math.min(timeoutMs, 30_000), headersMs: timeoutMs, bodyMs: timeoutMs },
    maxConnections: Math.max(2, s.bulk.concurrency + 2),
    maxResponseBytes: s.network.maxResponseMegabytes * 1024 * 1024,
    userAgent: `workitem-studio/${vscode.version}`,
  });
  return { client, dispatcher };
}

export async function closeQuietly(c: { client: ServiceClient; dispatcher?: Dispatcher }): Promise<void> {
  await c.client.close().catch(() => undefined);
  await c.dispatcher?.close().catch(() => undefined);
}

export function credentialLogin(c: StoredCredential): string | undefined {
  return c.kind === 'apiKey' ? undefined : c.loginName;
}

/** What the client sends for a stored credential (nothing when none is stored). */
export function toClientCredentials(c: StoredCredential | undefined): Credentials {
  if (!c) return { kind: 'none' };
  switch (c.kind) {
    case 'bearer':
      return { kind: 'bearer', token: c.token };
    case 'basic':
      return { kind: 'basic', loginName: c.loginName, password: c.password };
    case 'apiKey':
      return { kind: 'apiKey', key: c.key };
  }
}
