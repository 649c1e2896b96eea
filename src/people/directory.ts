// Users by ID for hovers, inlay hints and result views: the users the
// Organizations view has loaded, plus one read of every configured root
// organization's users (its own, operation 3, and those below it, operation 2) when
// an ID is not known yet. With no organization configured, the roots are the top
// organizations of the signed-in user's tree (found once per service), so a new user
// sees names too. Never signs in for this: without a signed-in service, only what is
// loaded is known.
import * as vscode from 'vscode';
import type { ConnectionManager } from '../common/connection';
import { Disposable } from '../common/disposable';
import type { User } from '../schema/api';
import type { KnownUser } from '../common/model/users';
import { readPeople } from './read';

export class UserDirectory extends Disposable implements vscode.Disposable {
  /** What a hover needs of each user read (not the whole user: a root organization may hold hundreds of thousands). */
  private readonly read = new Map<string, KnownUser>();
  /** The service whose users `read` holds. */
  private service: string | undefined;
  private loading: Promise<void> | undefined;
  /** Root organizations already read for this service. */
  private readonly readRoots = new Set<string>();
  /** The roots found when none is configured (once per service). */
  private found: Promise<readonly string[]> | undefined;
  private readonly emitter = new vscode.EventEmitter<void>();
  /** Fires when users became known by a read. */
  readonly onDidLearn = this.emitter.event;

  constructor(
    private readonly connection: ConnectionManager,
    private readonly log: vscode.LogOutputChannel,
    private readonly rootOrganizations: () => readonly string[],
    private readonly loadedUsers: () => Iterable<User>,
    /** The roots to read when no organization is configured (the signed-in user's top organizations). */
    private readonly findRoots?: () => Promise<readonly string[]>,
  ) {
    super();
    this.register(
      connection.onDidChange(() => {
        if (connection.current?.baseUrl !== this.service) this.forget();
      }),
      this.emitter,
    );
  }

  private forget(): void {
    this.read.clear();
    this.readRoots.clear();
    this.found = undefined;
    this.service = this.connection.current?.baseUrl;
    this.loading = undefined;
  }

  /** The user with this ID, when known now (no request). */
  lookup(id: string): KnownUser | undefined {
    const hit = this.read.get(id);
    if (hit) return hit;
    for (const u of this.loadedUsers()) if (u.id === id) return u;
    return undefined;
  }

  /** The known users among these IDs (one pass over the loaded users). */
  lookupAll(ids: Iterable<string>): Map<string, KnownUser> {
    const out = new Map<string, KnownUser>();
    const wanted = new Set<string>();
    for (const id of ids) {
      const hit = this.read.get(id);
      if (hit) out.set(id, hit);
      else wanted.add(id);
    }
    if (wanted.size > 0) for (const u of this.loadedUsers()) if (wanted.has(u.id)) out.set(u.id, u);
    return out;
  }

  /** The configured root organizations, or else the ones found from the signed-in user. */
  private async roots(): Promise<readonly string[]> {
    const configured = this.rootOrganizations();
    if (configured.length > 0 || !this.findRoots) return configured;
    this.found ??= this.findRoots().catch((e: unknown) => {
      this.log.info(`No organization configured, and the signed-in user's organizations could not be read for names: ${e instanceof Error ? e.message : String(e)}`);
      return [];
    });
    return this.found;
  }

  /**
   * Makes the given IDs known when a read can: reads the users below every configured root
   * organization not read yet (once per service). Resolves to whether some ID became known.
   */
  async resolve(ids: Iterable<string>): Promise<boolean> {
    const list = [...ids];
    const known = this.lookupAll(list);
    const unknown = list.filter((id) => !known.has(id));
    if (unknown.length === 0 || !this.connection.isSignedIn || !this.connection.current) return false;
    if (this.service !== this.connection.current.baseUrl) this.forget();
    const roots = (await this.roots()).filter((r) => !this.readRoots.has(r));
    if (roots.length === 0) {
      await this.loading;
      return this.lookupAll(unknown).size > 0;
    }
    for (const root of roots) this.readRoots.add(root);
    const before = this.loading;
    this.loading = (async () => {
      await before;
      for (const root of roots) {
        try {
          const users = await this.connection.run((c) => readPeople(c, root), { background: true });
          for (const u of users) this.read.set(u.id, u);
        } catch (e) {
          this.log.info(`Could not read the users of ${root} for names: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
    })();
    await this.loading;
    const learned = this.lookupAll(unknown).size > 0;
    if (learned) this.emitter.fire();
    return learned;
  }
}
