// Sign-in for the sandbox: POST /auth/token (Bearer tokens), Basic, and API keys
// (`X-TT-ApiKey: <key>`, per user in the data set).
// Tokens are random, kept in memory only, and expire. No vscode import.
import { randomBytes } from 'node:crypto';
import type { Dataset, SandboxUser } from './model';

/** How long a token from POST /auth/token stays valid. */
export const TOKEN_LIFETIME_MS = 8 * 60 * 60 * 1000;

export type AuthResult =
  | { ok: true; user: SandboxUser }
  | { ok: false; reason: 'missing' | 'scheme' | 'malformed' | 'bad-credentials' | 'bad-token' | 'expired' | 'deleted' | 'bad-api-key' };

/** The header of an API key (product version 7 on): `X-TT-ApiKey: <key>`, no Authorization header. */
export const API_KEY_HEADER = 'x-tt-apikey';

/** Finds a signed-in-capable user: login name matched case-insensitively, password exactly. */
export function findUserByCredentials(data: Dataset, loginName: string, password: string): SandboxUser | undefined {
  const key = loginName.toLowerCase();
  const user = data.users.find((u) => u.loginName.toLowerCase() === key);
  if (!user || user.isDeleted || user.password !== password) return undefined;
  return user;
}

/**
 * Most sign-in tokens kept at once. A sign-in beyond it evicts the oldest token
 * (which then answers "unknown token: sign in again"), so any number of sign-ins
 * keeps the sandbox's memory bounded (a token and its entry take about 200 bytes).
 */
export const MAX_TOKENS = 10_000;

export class TokenStore {
  private readonly tokens = new Map<string, { userId: string; expires: number }>();
  constructor(
    private readonly now: () => Date,
    private readonly lifetimeMs = TOKEN_LIFETIME_MS,
    readonly maxTokens = MAX_TOKENS,
  ) {
    if (!Number.isInteger(maxTokens) || maxTokens < 1) throw new Error(`invalid maxTokens ${JSON.stringify(maxTokens)}: expected a whole number of at least 1`);
  }

  /** Tokens kept (valid, or expired and not yet swept). */
  get size(): number {
    return this.tokens.size;
  }

  issue(userId: string): string {
    this.sweep();
    // Oldest first (a Map keeps insertion order): the ones evicted are the ones issued longest ago.
    for (const k of this.tokens.keys()) {
      if (this.tokens.size < this.maxTokens) break;
      this.tokens.delete(k);
    }
    const token = randomBytes(32).toString('base64url');
    this.tokens.set(token, { userId, expires: this.now().getTime() + this.lifetimeMs });
    return token;
  }

  /** The user ID of a valid token, or the reason it is not valid. */
  check(token: string): { userId: string } | 'bad-token' | 'expired' {
    const t = this.tokens.get(token);
    if (!t) return 'bad-token';
    if (t.expires <= this.now().getTime()) {
      this.tokens.delete(token);
      return 'expired';
    }
    return { userId: t.userId };
  }

  /** Expired tokens are dropped: every time the store has grown by another 1,000 since the last sweep. */
  private sweptAt = 0;
  private sweep(): void {
    if (this.tokens.size < this.sweptAt + 1000) return;
    const now = this.now().getTime();
    for (const [k, v] of this.tokens) if (v.expires <= now) this.tokens.delete(k);
    this.sweptAt = this.tokens.size;
  }
}

/**
 * Checks the credentials of a request against the data set: an `X-TT-ApiKey`
 * header when one is given (it wins over an Authorization header), else the
 * `Authorization` header (Bearer token or Basic).
 */
export function authenticate(header: string | undefined, data: Dataset, tokens: TokenStore, apiKey?: string | string[]): AuthResult {
  if (apiKey !== undefined) {
    const key = (Array.isArray(apiKey) ? apiKey.join(',') : apiKey).trim();
    if (key === '') return { ok: false, reason: 'bad-api-key' };
    const user = data.users.find((u) => u.apiKeys.includes(key));
    if (!user) return { ok: false, reason: 'bad-api-key' };
    if (user.isDeleted) return { ok: false, reason: 'deleted' };
    return { ok: true, user };
  }
  if (!header || !header.trim()) return { ok: false, reason: 'missing' };
  const m = /^\s*(\S+)\s+(\S+)\s*$/.exec(header);
  if (!m) return { ok: false, reason: 'malformed' };
  const scheme = m[1]!.toLowerCase();
  const value = m[2]!;
  if (scheme === 'bearer') {
    const r = tokens.check(value);
    if (typeof r === 'string') return { ok: false, reason: r };
    const user = data.users.find((u) => u.id === r.userId);
    if (!user) return { ok: false, reason: 'bad-token' };
    if (user.isDeleted) return { ok: false, reason: 'deleted' };
    return { ok: true, user };
  }
  if (scheme === 'basic') {
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return { ok: false, reason: 'malformed' };
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return { ok: false, reason: 'malformed' };
    const user = findUserByCredentials(data, decoded.slice(0, colon), decoded.slice(colon + 1));
    return user ? { ok: true, user } : { ok: false, reason: 'bad-credentials' };
  }
  return { ok: false, reason: 'scheme' };
}

export function describeAuthFailure(reason: Exclude<AuthResult, { ok: true }>['reason']): string {
  switch (reason) {
    case 'missing':
      return 'sign-in required: send "Authorization: Bearer <token>" (from POST /auth/token), "Authorization: Basic <base64(loginName:password)>" or "X-TT-ApiKey: <key>"';
    case 'scheme':
      return 'unsupported authorization scheme: use Bearer or Basic';
    case 'malformed':
      return 'malformed Authorization header';
    case 'bad-credentials':
      return 'wrong login name or password';
    case 'bad-token':
      return 'unknown token: sign in again with POST /auth/token';
    case 'expired':
      return 'the token has expired: sign in again with POST /auth/token';
    case 'deleted':
      return 'the user of these credentials has been deleted';
    case 'bad-api-key':
      return 'unknown API key: check the key in X-TT-ApiKey (generate one in your user settings)';
  }
}
