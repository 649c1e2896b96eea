// VS Code's Accounts menu for the service: an AuthenticationProvider whose sessions are the
// sign-ins ConnectionManager keeps (one per service origin, in SecretStorage; the sandbox's in
// memory). Sign In and Sign Out there, the status bar and the Sign In / Sign Out commands all
// read and change the same stored sign-ins. Another extension gets a session's token only after
// the user allows it in VS Code's own dialog.
import * as vscode from 'vscode';
import type { ConnectionInfo, ConnectionManager } from '../common/connection';
import type { StoredCredential } from '../common/secrets';

/** The provider's ID (package.json contributes.authentication). */
export const AUTH_PROVIDER_ID = 'workItemStudio';

/** One session per service origin (its one scope), with the services of that origin. */
interface Entry {
  session: vscode.AuthenticationSession;
  infos: ConnectionInfo[];
}

/** The session's ID: the origin and who signed in there (a new login is a new session). */
function sessionId(origin: string, credential: StoredCredential): string {
  return `${origin}#${credential.kind}:${credential.kind === 'apiKey' ? '' : (credential.loginName ?? '')}`;
}

/** What a client of the service sends: the token, the API key, or Basic's encoded pair. */
function accessToken(credential: StoredCredential): string {
  if (credential.kind === 'bearer') return credential.token;
  if (credential.kind === 'apiKey') return credential.key;
  return Buffer.from(`${credential.loginName}:${credential.password}`, 'utf8').toString('base64');
}

function who(credential: StoredCredential): string {
  if (credential.kind === 'apiKey') return vscode.l10n.t('API key');
  return credential.loginName ?? vscode.l10n.t('token');
}

/** The origin of a scope (a base URL or an origin); the text itself when it is no URL. */
function originOf(scope: string): string {
  try {
    return new URL(scope).origin;
  } catch {
    return scope;
  }
}

export class ServiceAuthenticationProvider implements vscode.AuthenticationProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>();
  readonly onDidChangeSessions = this.emitter.event;
  /** The sessions last reported, by ID: changes are reported as the difference. */
  private known = new Map<string, vscode.AuthenticationSession>();
  private refreshing: Promise<void> = Promise.resolve();
  private readonly subs: vscode.Disposable[] = [];
  /** The origins the Accounts menu was asked to offer a sign-in for (once each until signed in there). */
  private readonly requested = new Set<string>();

  constructor(private readonly connection: ConnectionManager) {
    this.subs.push(this.emitter, connection.onDidChange(() => void this.refresh()));
  }

  /** The sessions now, one per origin with a stored sign-in, in the order of the services. */
  async entries(): Promise<Entry[]> {
    const groups = new Map<string, { credential: StoredCredential; infos: ConnectionInfo[] }>();
    for (const { info, credential } of await this.connection.signIns()) {
      if (!credential) continue;
      const id = sessionId(info.origin, credential);
      const group = groups.get(id);
      if (group) group.infos.push(info);
      else groups.set(id, { credential, infos: [info] });
    }
    return [...groups].map(([id, { credential, infos }]) => ({
      infos,
      session: {
        id,
        accessToken: accessToken(credential),
        account: { id, label: `${who(credential)} @ ${infos.map((i) => i.label).join(', ')}` },
        // One scope, the origin: what the sign-in is kept for (VS Code matches a sign-in request by its exact scopes).
        scopes: [infos[0]!.origin],
      },
    }));
  }

  async getSessions(scopes?: readonly string[]): Promise<vscode.AuthenticationSession[]> {
    const all = (await this.entries()).map((e) => e.session);
    const wanted = scopes?.filter((s) => s !== '') ?? [];
    return wanted.length === 0 ? all : all.filter((s) => wanted.every((w) => s.scopes.includes(originOf(w))));
  }

  /** Sign In from the Accounts menu (or another extension's request): the service the scope names, else the one in use. */
  async createSession(scopes: readonly string[]): Promise<vscode.AuthenticationSession> {
    const info = await this.serviceFor(scopes);
    if (!(await this.connection.signInTo(info))) throw new vscode.CancellationError();
    await this.refresh();
    const session = (await this.entries()).find((e) => e.infos.some((i) => i.origin === info.origin))?.session;
    if (!session) throw new Error(vscode.l10n.t('The sign-in to {0} was not kept.', info.label));
    return session;
  }

  /** Sign Out from the Accounts menu: the stored sign-in of that origin is deleted. */
  async removeSession(id: string): Promise<void> {
    const entry = (await this.entries()).find((e) => e.session.id === id);
    if (!entry) return;
    await this.connection.signOutOf(entry.infos[0]!.origin);
    await this.refresh();
  }

  /**
   * Asks VS Code to offer a sign-in to the service in use in the Accounts menu (its badge) when a
   * configured service has no stored sign-in: once, and again after a sign-in there and a sign-out.
   */
  async offerSignIn(): Promise<void> {
    const info = this.connection.current;
    if (!info || info.isSandbox || this.connection.isSignedIn || this.requested.has(info.origin)) return;
    this.requested.add(info.origin);
    await vscode.authentication.getSession(AUTH_PROVIDER_ID, [info.origin], { createIfNone: false });
  }

  /** Reports the sessions added, removed and changed since the last report. */
  refresh(): Promise<void> {
    this.refreshing = this.refreshing.then(async () => {
      const now = new Map((await this.entries()).map((e) => [e.session.id, e.session] as const));
      const added = [...now.values()].filter((s) => !this.known.has(s.id));
      const removed = [...this.known.values()].filter((s) => !now.has(s.id));
      const changed = [...now.values()].filter((s) => {
        const before = this.known.get(s.id);
        return !!before && (before.accessToken !== s.accessToken || before.account.label !== s.account.label || before.scopes.join() !== s.scopes.join());
      });
      this.known = now;
      // A service signed in to again may be offered again after its next sign-out.
      for (const a of added) this.requested.delete(a.scopes[0]!);
      if (added.length + removed.length + changed.length > 0) this.emitter.fire({ added, removed, changed });
    }).catch(() => undefined);
    return this.refreshing;
  }

  private async serviceFor(scopes: readonly string[]): Promise<ConnectionInfo> {
    const wanted = scopes.map((s) => s.replace(/\/+$/, '')).filter((s) => s !== '');
    const all = (await this.connection.signIns()).map((s) => s.info);
    const current = this.connection.current;
    // A base URL names its profile; an origin, the profile in use when it is there, else the first there.
    const found =
      wanted.length === 0
        ? current
        : all.find((i) => wanted.includes(i.baseUrl)) ?? (current && wanted.includes(current.origin) ? current : undefined) ?? all.find((i) => wanted.includes(i.origin));
    if (!found) {
      throw new Error(
        wanted.length === 0
          ? vscode.l10n.t('No service is configured. Run "Connect to a Service…" or "Start Sandbox".')
          : vscode.l10n.t('No service profile is at {0}. Add it with "Add Service Profile…" first.', wanted.join(', ')),
      );
    }
    return found;
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
  }
}
