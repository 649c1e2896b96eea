// Status bar item: which service, and whether (and as whom) you are signed in.
// Clicking it runs "Connect to a Service…". Once signed in, the user's name comes
// from `GET /system/users/me` (asked once per service and sign-in, after activation);
// servers without it (404) or any failure keep the login name, without a message.
import * as vscode from 'vscode';
import type { ConnectionManager } from './connection';

export class ConnectionStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly sub: vscode.Disposable;
  /** Whose name was asked for (service and login), and the answer. */
  private identity: { key: string; name?: string; loginName?: string; organization?: string } | undefined;

  constructor(private readonly connection: ConnectionManager) {
    this.item = vscode.window.createStatusBarItem('workItemStudio.connection', vscode.StatusBarAlignment.Left, 10);
    this.item.name = vscode.l10n.t('Work Item Studio Connection');
    this.item.command = 'workItemStudio.connect';
    this.sub = connection.onDidChange(() => this.update());
    this.update();
    this.item.show();
  }

  /** What the item shows (tests). */
  get text(): string {
    return this.item.text;
  }

  update(): void {
    const info = this.connection.current;
    if (!info) {
      this.item.text = vscode.l10n.t('$(debug-disconnect) Work Item Studio');
      this.item.tooltip = vscode.l10n.t('Not connected. Click to connect to a service or start the sandbox.');
      return;
    }
    const login = this.connection.signedInAs;
    // Either sandbox (this window's, or the one `npm start` serves) by its one name: info.label.
    const icon = info.isSandbox || info.startedSandbox ? '$(beaker)' : '$(plug)';
    if (this.connection.isSignedIn) {
      const key = `${info.baseUrl}\n${login ?? ''}`;
      if (this.identity?.key !== key) this.askIdentity(key);
      const user = this.identity?.key === key ? this.identity : undefined;
      const who = user?.name ?? login;
      // A service without the user's name gives the login name as the name (ServiceClient.getCurrentUser): said once.
      const about = user?.name ? [user.loginName ?? login, user.organization].filter((v) => v && v !== user.name).join(', ') : '';
      this.item.text = who ? `${icon} ${who}@${info.label}` : `${icon} ${info.label}`;
      this.item.tooltip = user?.name && about
        ? vscode.l10n.t('Connected to {0} and signed in as {1} ({2}). Click to change the connection.', info.baseUrl, user.name, about)
        : who
          ? vscode.l10n.t('Connected to {0} and signed in as {1}. Click to change the connection.', info.baseUrl, who)
          : this.connection.signedInWithApiKey
            ? vscode.l10n.t('Connected to {0} and signed in with an API key. Click to change the connection.', info.baseUrl)
            : vscode.l10n.t('Connected to {0} and signed in with a token. Click to change the connection.', info.baseUrl);
    } else {
      this.item.text = vscode.l10n.t('{0} {1} (not signed in)', icon, info.label);
      this.item.tooltip = vscode.l10n.t('Connected to {0}, not signed in. Click to change the connection.', info.baseUrl);
    }
  }

  /** Asks the service who is signed in; quiet on any failure (older servers answer 404). */
  private askIdentity(key: string): void {
    this.identity = { key };
    void (async () => {
      try {
        const client = await this.connection.getClient({ background: true });
        const me = await client.getCurrentUser();
        if (this.identity?.key !== key || !me) return;
        this.identity = { key, name: me.name, loginName: me.loginName ?? undefined, organization: me.organizationName ?? undefined };
        this.update();
      } catch {
        // Keep the login name: the identity is a nicety, never an error.
      }
    })();
  }

  dispose(): void {
    this.sub.dispose();
    this.item.dispose();
  }
}
