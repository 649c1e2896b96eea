// Credentials in SecretStorage, keyed by the service ORIGIN: a token obtained for
// https://a.example is never offered to https://b.example, whatever the settings
// say. Free of vscode (structural SecretStorage) so it is unit-testable.

export interface SecretStorageLike {
  get(key: string): Thenable<string | undefined>;
  store(key: string, value: string): Thenable<void>;
  delete(key: string): Thenable<void>;
}

export type StoredCredential =
  | { kind: 'bearer'; token: string; loginName?: string }
  | { kind: 'basic'; loginName: string; password: string }
  | { kind: 'apiKey'; key: string };

const PREFIX = 'workItemStudio.credentials:';

/** The SecretStorage key of an origin (`https://host:port`, no path). */
export function credentialKey(origin: string): string {
  return PREFIX + new URL(origin).origin;
}

export function parseStoredCredential(text: string | undefined): StoredCredential | undefined {
  if (!text) return undefined;
  try {
    const v = JSON.parse(text) as Record<string, unknown>;
    if (v && v.kind === 'bearer' && typeof v.token === 'string' && v.token !== '') {
      return { kind: 'bearer', token: v.token, ...(typeof v.loginName === 'string' ? { loginName: v.loginName } : {}) };
    }
    if (v && v.kind === 'basic' && typeof v.loginName === 'string' && typeof v.password === 'string') {
      return { kind: 'basic', loginName: v.loginName, password: v.password };
    }
    if (v && v.kind === 'apiKey' && typeof v.key === 'string' && v.key !== '') {
      return { kind: 'apiKey', key: v.key };
    }
  } catch {
    // A damaged entry is treated as absent (the user signs in again).
  }
  return undefined;
}

/**
 * Credentials per origin. `session` entries (the sandbox's) live in memory only and
 * never reach SecretStorage.
 */
export class CredentialStore {
  private readonly session = new Map<string, StoredCredential>();
  private readonly cache = new Map<string, StoredCredential | undefined>();
  /** Bumped by every set/delete/invalidate: a read that started before one is stale (never cached). */
  private readonly versions = new Map<string, number>();
  /** Bumped by invalidate() of every key: a read that started before it is stale too. */
  private epoch = 0;

  constructor(private readonly secrets: SecretStorageLike) {}

  async get(origin: string): Promise<StoredCredential | undefined> {
    const key = credentialKey(origin);
    for (;;) {
      const s = this.session.get(key);
      if (s) return s;
      if (this.cache.has(key)) return this.cache.get(key);
      const version = this.versions.get(key) ?? 0;
      const epoch = this.epoch;
      const value = parseStoredCredential(await this.secrets.get(key));
      if ((this.versions.get(key) ?? 0) === version && this.epoch === epoch) {
        this.cache.set(key, value);
        return value;
      }
      // Written while this read ran: answer from the newer state.
    }
  }

  private bump(key: string): void {
    this.versions.set(key, (this.versions.get(key) ?? 0) + 1);
  }

  async set(origin: string, credential: StoredCredential, options: { sessionOnly?: boolean } = {}): Promise<void> {
    const key = credentialKey(origin);
    this.bump(key);
    if (options.sessionOnly) {
      this.session.set(key, credential);
      return;
    }
    this.session.delete(key);
    this.cache.set(key, credential);
    await this.secrets.store(key, JSON.stringify(credential));
  }

  async delete(origin: string): Promise<void> {
    const key = credentialKey(origin);
    this.bump(key);
    this.session.delete(key);
    this.cache.set(key, undefined);
    await this.secrets.delete(key);
  }

  /**
   * Forgets cached reads because SecretStorage changed outside this store (another
   * window signed in or out): of `key` (a SecretStorage key, see credentialKey), or of
   * every key. A read in flight when this is called is not cached either; the next
   * read asks SecretStorage. Session-only entries are kept (they never reach it).
   */
  invalidate(key?: string): void {
    if (key === undefined) {
      this.cache.clear();
      this.epoch++;
      return;
    }
    this.cache.delete(key);
    this.bump(key);
  }
}
