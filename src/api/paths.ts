// Building request paths from user-supplied IDs. No vscode import.
//
// Every ID that goes into a path is validated first (a clear problem text, or
// undefined), then percent-encoded on its own; several IDs are joined with a
// literal comma (known-facts.md: `PUT /workitem/workItems/120,121,122`). The full
// URL is built with `new URL` and checked to still point under the configured
// origin and path prefix, so no ID can steer a request (and the user's token)
// elsewhere.
import { validateWorkItemId } from '../schema/rules';

/** Longest ID accepted in a path. Real IDs are far shorter; this keeps URLs bounded. */
export const MAX_ID_LENGTH = 200;

// Control characters (C0, DEL, C1) and Unicode format characters (zero-width,
// bidirectional overrides, BOM), which are invisible in an editor.
const CONTROL_OR_FORMAT = /[\p{Cc}\p{Cf}]/u;
const WHITESPACE = /[\s\u180e\u200b]/u;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Checks one ID that is to be placed in a URL path segment.
 * Returns a problem text naming what is wrong, or `undefined` when the ID is fine.
 *
 * Rejected: empty; `.` and `..`; `/`, `\`, `,` (the list separator), `%` (no
 * pre-encoded or double-encoded sequences such as `%2e`), `?`, `#`; whitespace;
 * control and invisible format characters; malformed Unicode; more than
 * {@link MAX_ID_LENGTH} characters. Anything else (letters of any script, digits,
 * `-`, `_`, `.` inside an ID, ...) is accepted and percent-encoded.
 */
export function validateId(id: string): string | undefined {
  if (typeof id !== 'string') return `an ID must be a string, not ${id === null ? 'null' : typeof id}`;
  if (id.length === 0) return 'an ID must not be empty';
  if (id.length > MAX_ID_LENGTH) return `an ID must be at most ${MAX_ID_LENGTH} characters long (this one has ${id.length})`;
  if (id === '.' || id === '..') return `"${id}" is not a valid ID (a path segment such as "." or ".." would change the request path)`;
  if (id.includes('/')) return `ID "${show(id)}" must not contain "/"`;
  if (id.includes('\\')) return `ID "${show(id)}" must not contain "\\"`;
  if (id.includes(',')) return `ID "${show(id)}" must not contain "," (commas separate IDs; give each ID on its own)`;
  if (id.includes('%')) return `ID "${show(id)}" must not contain "%" (give IDs unencoded; they are encoded when sent)`;
  if (id.includes('?') || id.includes('#')) return `ID "${show(id)}" must not contain "?" or "#"`;
  if (CONTROL_OR_FORMAT.test(id)) return `ID "${show(id)}" must not contain control or invisible formatting characters`;
  if (WHITESPACE.test(id)) return `ID "${show(id)}" must not contain spaces or other whitespace`;
  if (LONE_SURROGATE.test(id)) return `ID "${show(id)}" is not well-formed Unicode`;
  return undefined;
}

/** A printable, bounded rendering of an ID for problem texts (control characters escaped). */
function show(id: string): string {
  const cut = id.length > 40 ? `${id.slice(0, 40)}…` : id;
  return cut.replace(/[\p{Cc}\p{Cf}]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Thrown by the path builders; the client turns it into a ServiceError of kind `invalid-request`. */
export class InvalidPathError extends Error {
  constructor(
    message: string,
    /** Index of the offending ID in the list, when one ID is at fault. */
    readonly index?: number,
  ) {
    super(message);
    this.name = 'InvalidPathError';
  }
}

/** Validates and encodes one ID for a path segment; throws {@link InvalidPathError}. */
export function encodeId(id: string, what = 'ID'): string {
  const problem = validateId(id);
  if (problem !== undefined) throw new InvalidPathError(what === 'ID' ? problem : `${what}: ${problem}`);
  return encodeURIComponent(id);
}

/**
 * The problem with a work item ID, or undefined. The schema layer's rule
 * (`validateWorkItemId`, the one request documents are checked with, so the
 * editor and the client say the same thing) comes first; then the checks that
 * only matter in a URL (`%`, `?`, `#`, length, malformed Unicode).
 */
export function validateWorkItemIdForPath(id: string): string | undefined {
  if (typeof id !== 'string') return validateId(id);
  if (id.length > MAX_ID_LENGTH) return validateId(id);
  return validateWorkItemId(id) ?? validateId(id);
}

/**
 * `/workitem/workItems/{ids}` with every ID validated, encoded on its own, and the
 * IDs joined by a literal comma. Throws {@link InvalidPathError} naming the first
 * bad ID and its position, or when the list is empty or holds a duplicate.
 */
export function workItemsPath(ids: readonly string[]): string {
  if (!Array.isArray(ids) || ids.length === 0) throw new InvalidPathError('at least one work item ID is required');
  const seen = new Set<string>();
  const encoded = ids.map((id, i) => {
    const problem = validateWorkItemIdForPath(id);
    if (problem !== undefined) throw new InvalidPathError(`work item ID #${i + 1}: ${problem}`, i);
    if (seen.has(id)) throw new InvalidPathError(`work item ID #${i + 1}: "${show(id)}" is given more than once`, i);
    seen.add(id);
    return encodeURIComponent(id);
  });
  return `/workitem/workItems/${encoded.join(',')}`;
}

/** `/system/organizations/{id}/allassignedusers` */
export function allAssignedUsersPath(orgId: string): string {
  return `/system/organizations/${encodeId(orgId, 'organization ID')}/allassignedusers`;
}

/** `/system/organizations/{id}/users` */
export function organizationUsersPath(orgId: string): string {
  return `/system/organizations/${encodeId(orgId, 'organization ID')}/users`;
}

/** A parsed, checked service base URL (e.g. `https://pm.example.com/TimeTrackerNX/api`). */
export interface BaseUrl {
  /** The base URL without a trailing slash. */
  readonly href: string;
  /** `protocol://host[:port]` */
  readonly origin: string;
  /** The path prefix without a trailing slash, e.g. `/TimeTrackerNX/api` (may be empty). */
  readonly prefix: string;
}

/**
 * Parses the configured base URL. Only http and https; no user name or password in
 * the URL (they would travel with every request and show up in logs), no query,
 * no fragment. Throws an Error with a clear message otherwise.
 */
export function parseBaseUrl(baseUrl: string): BaseUrl {
  if (typeof baseUrl !== 'string' || baseUrl.trim() === '') throw new Error('the service URL is empty');
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    throw new Error(`the service URL "${baseUrl.slice(0, 200)}" is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`the service URL must start with http:// or https:// (got "${url.protocol}")`);
  if (url.username || url.password) throw new Error('the service URL must not contain a user name or password; use the sign-in instead');
  if (url.search || url.hash) throw new Error('the service URL must not contain a query ("?...") or fragment ("#...")');
  const prefix = url.pathname.replace(/\/+$/, '');
  return { href: `${url.origin}${prefix}`, origin: url.origin, prefix };
}

/**
 * Resolves `path` (starting with `/`, already encoded) and an optional query
 * against the base URL with `new URL`, and asserts that the result keeps the
 * configured origin and path prefix and that the path was not rewritten
 * (no dot-segment removal, no re-encoding).
 */
export function buildUrl(base: BaseUrl, path: string, query?: URLSearchParams): URL {
  if (!path.startsWith('/')) throw new InvalidPathError(`internal: path "${path}" must start with "/"`);
  const expectedPath = `${base.prefix}${path}`;
  const url = new URL(expectedPath, `${base.origin}/`);
  if (query) {
    const qs = query.toString();
    if (qs) url.search = `?${qs}`;
  }
  if (url.origin !== base.origin) throw new InvalidPathError(`the request URL would leave the service origin ${base.origin}`);
  if (!url.pathname.startsWith(`${base.prefix}/`)) throw new InvalidPathError(`the request URL would leave the service path ${base.prefix || '/'}`);
  if (url.pathname !== expectedPath) throw new InvalidPathError('the request path would be rewritten by URL normalization; check the IDs');
  return url;
}
