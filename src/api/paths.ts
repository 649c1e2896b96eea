// Building request paths from user-supplied IDs. No vscode import.
//
// Every ID that goes into a path is validated first (a clear problem text, or
// undefined), then percent-encoded on its own; several IDs are joined with a
// literal comma (known-facts.md: `PUT /workitem/workItems/120,121,122`). The full
// URL is built with `new URL` and checked to still point under the configured
// origin and path prefix, so no ID can steer a request (and the user's token)
// elsewhere.
import { validateWorkItemId, WORK_ITEM_ID_MAX_LENGTH } from '../schema/rules';
import { pathLookalike } from '../schema/id-lookalikes';

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
 * control and invisible format characters; malformed Unicode; non-ASCII characters a
 * server may read as `.`, `/`, `\`, `%`, `?`, `#` or `,` (`．．／`, src/schema/id-lookalikes.ts); more than
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
  const lookalike = pathLookalike(id);
  if (lookalike) return `ID "${show(id)}" must not contain "${lookalike.character}", which a server may read as "${lookalike.reads}"`;
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
  if (isPlainId(id)) return undefined;
  if (typeof id !== 'string') return validateId(id);
  if (id.length > MAX_ID_LENGTH) return validateId(id);
  return validateWorkItemId(id) ?? validateId(id);
}

/**
 * IDs made only of ASCII letters, digits, `-`, `_`, `.` and `~` (every real work item
 * ID: numbers, GUIDs, codes), at most {@link MAX_ID_LENGTH} characters and not `.` or
 * `..`: valid for both checks above, and unchanged by encodeURIComponent (RFC 3986
 * unreserved characters). Answers at once for the IDs of a large job.
 */
const PLAIN_ID_MAX_LENGTH = Math.min(MAX_ID_LENGTH, WORK_ITEM_ID_MAX_LENGTH);
export function isPlainId(id: unknown): boolean {
  if (typeof id !== 'string' || id.length === 0 || id.length > PLAIN_ID_MAX_LENGTH) return false;
  // As /^[A-Za-z0-9_~.-]+$/, without a regular expression per ID (a large read checks 20,000 of them).
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if ((c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 45 || c === 46 || c === 95 || c === 126) continue;
    return false;
  }
  return id !== '.' && id !== '..';
}

/** The path prefix of operation 1; IDs follow, joined with literal commas. */
export const WORK_ITEMS_PATH_PREFIX = '/workitem/workItems/';

/**
 * `/workitem/workItems/{ids}` with every ID validated, encoded on its own, and the
 * IDs joined by a literal comma. Throws {@link InvalidPathError} naming the first
 * bad ID and its position, or when the list is empty or holds a duplicate.
 */
export function workItemsPath(ids: readonly string[]): string {
  return `/workitem/workItems/${checkedBatches.get(ids) ?? joinIds(ids, 'work item', validateWorkItemIdForPath)}`;
}

/** Batches checked and encoded when a read was planned (frozen: what was checked is what is sent), with their IDs joined. */
const checkedBatches = new WeakMap<readonly string[], string>();

/**
 * A batch of distinct work item IDs that passed validateWorkItemIdForPath, frozen, whose
 * path {@link workItemsPath} then makes from `encoded` without checking every ID again.
 */
export function checkedBatch(batch: IdBatch): readonly string[] {
  const ids = Object.freeze(batch.ids);
  checkedBatches.set(ids, batch.encoded.join(','));
  return ids;
}

/** `/project/projects/{ids}`, checked like {@link workItemsPath}. */
export function projectsPath(ids: readonly string[]): string {
  return `/project/projects/${joinIds(ids, 'project', validateId)}`;
}

/** `/workitem/workItems/{id}/subItems` */
export function subItemsPath(id: string): string {
  const problem = validateWorkItemIdForPath(id);
  if (problem !== undefined) throw new InvalidPathError(`work item ID: ${problem}`, 0);
  return `/workitem/workItems/${encodeURIComponent(id)}/subItems`;
}

function joinIds(ids: readonly string[], what: string, validate: (id: string) => string | undefined): string {
  if (!Array.isArray(ids) || ids.length === 0) throw new InvalidPathError(`at least one ${what} ID is required`);
  const seen = new Set<string>();
  const encoded = ids.map((id, i) => {
    const problem = validate(id);
    if (problem !== undefined) throw new InvalidPathError(`${what} ID #${i + 1}: ${problem}`, i);
    if (seen.has(id)) throw new InvalidPathError(`${what} ID #${i + 1}: "${show(id)}" is given more than once`, i);
    seen.add(id);
    return encodeURIComponent(id);
  });
  return encoded.join(',');
}

/**
 * The problem with a field name given to `fields=` (PascalCase names such as
 * `Name`), or undefined. Names are joined with literal commas, so a name must not
 * hold one; it must not be empty, hold whitespace or control characters, or be
 * longer than 100 characters.
 */
export function validateFieldName(name: string): string | undefined {
  if (typeof name !== 'string') return `a field name must be a string, not ${name === null ? 'null' : typeof name}`;
  if (name.length === 0) return 'a field name must not be empty';
  if (name.length > 100) return `a field name must be at most 100 characters long (this one has ${name.length})`;
  if (name.includes(',')) return `field name "${show(name)}" must not contain "," (give each name on its own)`;
  if (CONTROL_OR_FORMAT.test(name) || WHITESPACE.test(name)) return `field name "${show(name)}" must not contain spaces, control or invisible characters`;
  if (LONE_SURROGATE.test(name)) return `field name "${show(name)}" is not well-formed Unicode`;
  return undefined;
}

/**
 * The query string (without `?`) of a read with `fields`: `fields=Id,Name,...` with
 * each name percent-encoded on its own and the names joined by a literal comma
 * (known-facts.md), then any other parameters. Empty when there is nothing to send.
 * Throws {@link InvalidPathError} for a bad field name. Duplicate names are sent once.
 */
export function readQuery(fields: readonly string[] | undefined, extra: Record<string, string | number | boolean | undefined> = {}): string {
  const parts: string[] = [];
  if (fields !== undefined) {
    if (!Array.isArray(fields)) throw new InvalidPathError('fields must be a list of field names');
    const names: string[] = [];
    fields.forEach((f, i) => {
      const problem = validateFieldName(f);
      if (problem !== undefined) throw new InvalidPathError(`fields[${i}]: ${problem}`, i);
      if (!names.includes(f)) names.push(f);
    });
    if (names.length > 0) parts.push(`fields=${names.map(encodeURIComponent).join(',')}`);
  }
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  return parts.join('&');
}

/** One batch of {@link batchIdsByUrlLength}: the IDs and their percent-encoded forms. */
export interface IdBatch {
  ids: string[];
  encoded: string[];
}

/**
 * Splits (already validated, distinct) IDs greedily, in order, into batches of at
 * most `maxIds` IDs whose URL is at most `maxUrl` characters: `fixed` characters
 * (base URL, path prefix, and for reads the query) plus the encoded IDs joined
 * with literal commas. An ID that does not fit on its own is left out and listed
 * in `tooLong` with the length it would need. Shared by the bulk planner
 * (src/bulk/plan.ts) and the batched reader (src/api/reads.ts).
 */
export function batchIdsByUrlLength(
  ids: readonly string[],
  fixed: number,
  maxUrl: number,
  maxIds: number,
): { batches: IdBatch[]; tooLong: { id: string; needs: number }[] } {
  const batches: IdBatch[] = [];
  const tooLong: { id: string; needs: number }[] = [];
  let current: string[] = [];
  let encoded: string[] = [];
  let length = fixed; // URL length of `current`
  const flush = (): void => {
    if (current.length === 0) return;
    batches.push({ ids: current, encoded });
    current = [];
    encoded = [];
    length = fixed;
  };
  for (const id of ids) {
    const enc = isPlainId(id) ? id : encodeURIComponent(id);
    if (fixed + enc.length > maxUrl) {
      tooLong.push({ id, needs: fixed + enc.length });
      continue;
    }
    if (current.length >= maxIds || length + (current.length > 0 ? 1 : 0) + enc.length > maxUrl) flush();
    length += (current.length > 0 ? 1 : 0) + enc.length;
    current.push(id);
    encoded.push(enc);
  }
  flush();
  return { batches, tooLong };
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
export function buildUrl(base: BaseUrl, path: string, query?: URLSearchParams | string): URL {
  if (!path.startsWith('/')) throw new InvalidPathError(`internal: path "${path}" must start with "/"`);
  const expectedPath = `${base.prefix}${path}`;
  const url = new URL(expectedPath, `${base.origin}/`);
  if (query) {
    const qs = typeof query === 'string' ? query : query.toString();
    if (qs) url.search = `?${qs}`;
  }
  if (url.origin !== base.origin) throw new InvalidPathError(`the request URL would leave the service origin ${base.origin}`);
  if (!url.pathname.startsWith(`${base.prefix}/`)) throw new InvalidPathError(`the request URL would leave the service path ${base.prefix || '/'}`);
  if (url.pathname !== expectedPath) throw new InvalidPathError('the request path would be rewritten by URL normalization; check the IDs');
  return url;
}
