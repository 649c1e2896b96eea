// The three list operations of service-api.md (operations 2, 3 and 4).
// No vscode import.
//
// Choices where the spec is silent (documented in docs/sandbox.md):
// - Query parameter names match case-insensitively; unknown parameters are ignored;
//   a parameter given twice is a 400.
// - name / code / englishName / keyword are case-insensitive "contains" matches;
//   an empty value filters nothing.
// - allassignedusers: users of every organization below the given one, at any
//   depth, NOT the organization's own (direct) users; those come from /users.
// - An unknown organization ID answers 200 with an empty list (the spec defines
//   no error cases for these operations).
// - Users are listed in data-set order, deleted users included (they carry isDeleted).
// - processCategories: no default limit (all records); limit at most 1000; limit=0
//   returns no records but the totalCount; default order displayOrder asc, then id.
//   Stored categories never change while the sandbox runs (a reset replaces the
//   whole list), so the filtered, sorted list of a query is kept for its next pages.
import { PROCESS_CATEGORY_ORDER_FIELDS } from '../schema/api';
import type { Dataset, SandboxUser, StoredProcessCategory } from './model';

export const MAX_LIST_LIMIT = 1000;

export interface HttpError {
  message: string;
  code: string;
  parameter?: string;
  value?: string;
  /** Values for the code's message template (src/schema/error-codes.ts). */
  params?: Record<string, string | number>;
  [extra: string]: unknown;
}

/**
 * A list answer: `bytes`, when given, are pieces whose concatenation is the UTF-8 of
 * `JSON.stringify(body)` exactly, made from the UTF-8 JSON text of each record, kept
 * between requests (records that never change while the sandbox runs), so an answer
 * costs copying its pieces to the socket instead of converting every record to JSON
 * and to UTF-8 again (and never exists as one buffer).
 */
export type ListResult<T> = { ok: true; body: { totalCount: number; data: T[] }; bytes?: Buffer[] } | { ok: false; status: number; errors: HttpError[] };

/** UTF-8 JSON text of a record followed by a comma (the separator of list members). */
function recordPiece(record: object): Buffer {
  return Buffer.from(`${JSON.stringify(record)},`, 'utf8');
}

/** Pieces of records that never change while the sandbox runs (stored process categories). */
const recordPieces = new WeakMap<object, Buffer>();

function pieceOf(record: object): Buffer {
  let piece = recordPieces.get(record);
  if (piece === undefined) {
    piece = recordPiece(record);
    recordPieces.set(record, piece);
  }
  return piece;
}

/** The UTF-8 of `JSON.stringify({ totalCount, data })` in pieces, from the records' pieces (each ends with a comma). */
function listBytes(totalCount: number, pieces: Buffer[]): Buffer[] {
  const head = Buffer.from(`{"totalCount":${JSON.stringify(totalCount)},"data":[`, 'utf8');
  const tail = Buffer.from(']}', 'utf8');
  if (pieces.length > 0) {
    const last = pieces[pieces.length - 1]!;
    pieces[pieces.length - 1] = last.subarray(0, last.length - 1); // no comma after the last record
  }
  pieces.unshift(head);
  pieces.push(tail);
  return pieces;
}

/** Query parameters with case-insensitive names. */
export class Query {
  private readonly values = new Map<string, string[]>();
  constructor(params: URLSearchParams) {
    for (const [k, v] of params) {
      const key = k.toLowerCase();
      const list = this.values.get(key);
      if (list) list.push(v);
      else this.values.set(key, [v]);
    }
  }
  /** Names given more than once (reported as a 400 by the operations that read them). */
  repeated(names: readonly string[]): string | undefined {
    return names.find((n) => (this.values.get(n.toLowerCase())?.length ?? 0) > 1);
  }
  get(name: string): string | undefined {
    return this.values.get(name.toLowerCase())?.[0];
  }
}

class QueryProblem extends Error {
  constructor(readonly entry: HttpError) {
    super(entry.message);
  }
}

/** INVALID_QUERY_PARAMETER: `query parameter "<parameter>" <problem>`. */
export function bad(parameter: string, value: string, problem: string): never {
  throw new QueryProblem({ message: `query parameter "${parameter}" ${problem}`, code: 'INVALID_QUERY_PARAMETER', parameter, value, params: { parameter, problem } });
}

function badOrder(value: string, message: string, allowed: string): never {
  throw new QueryProblem({ message, code: 'INVALID_ORDERBY', parameter: 'orderby', value, params: { value, allowed } });
}

export function readBoolean(q: Query, name: string): boolean | undefined {
  const v = q.get(name);
  if (v === undefined || v === '') return undefined;
  const l = v.trim().toLowerCase();
  if (l === 'true') return true;
  if (l === 'false') return false;
  return bad(name, v, `must be true or false, got ${JSON.stringify(v)}`);
}

export function readInt(q: Query, name: string, min: number, max: number): number | undefined {
  const v = q.get(name);
  if (v === undefined || v === '') return undefined;
  const t = v.trim();
  if (!/^[+]?\d+$/.test(t)) {
    return bad(name, v, `must be a whole number from ${min} to ${max}, got ${JSON.stringify(v)}`);
  }
  const n = Number(t);
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    return bad(name, v, `must be a whole number from ${min} to ${max}, got ${JSON.stringify(v)}`);
  }
  return n;
}

export function filterText(q: Query, name: string): string | undefined {
  const v = q.get(name);
  return v === undefined || v === '' ? undefined : v.toLowerCase();
}

const contains = (field: string | undefined, needle: string | undefined): boolean =>
  needle === undefined || (field ?? '').toLowerCase().includes(needle);

export function guarded<T>(q: Query, names: readonly string[], run: () => ListResult<T>): ListResult<T> {
  const rep = q.repeated(names);
  if (rep) {
    return {
      ok: false,
      status: 400,
      errors: [
        { message: `query parameter "${rep}" is given more than once`, code: 'INVALID_QUERY_PARAMETER', parameter: rep, params: { parameter: rep, problem: 'is given more than once' } },
      ],
    };
  }
  try {
    return run();
  } catch (e) {
    if (e instanceof QueryProblem) return { ok: false, status: 400, errors: [e.entry] };
    throw e;
  }
}

// ---------------------------------------------------------------------------
// Users
// ---------------------------------------------------------------------------

/** A user as the API returns it: every stored field except the password and API keys, plus organizationName. */
export type ApiUser = Omit<SandboxUser, 'password' | 'apiKeys'> & { organizationName: string };

export function toApiUser(u: SandboxUser, orgNames: ReadonlyMap<string, string>): ApiUser {
  const { password: _password, apiKeys: _apiKeys, ...rest } = u;
  void _password;
  void _apiKeys;
  return { ...rest, organizationName: orgNames.get(u.organizationId) ?? '' };
}

/**
 * The users as the API returns them, in data-set order, made once per stored list:
 * users and organizations never change while the sandbox runs (a reset replaces the
 * lists), so a list of 100,000 users costs its filter, not 100,000 copies.
 */
interface ApiUsers {
  length: number;
  orgs: Dataset['organizations'];
  orgsLength: number;
  list: ApiUser[];
  /** Each user's piece of an answer (made on first use): UTF-8 JSON text and a comma. */
  pieces: (Buffer | undefined)[];
}
const apiUserLists = new WeakMap<readonly SandboxUser[], ApiUsers>();

function apiUsersOf(data: Dataset): ApiUsers {
  const kept = apiUserLists.get(data.users);
  if (kept && kept.length === data.users.length && kept.orgs === data.organizations && kept.orgsLength === data.organizations.length) return kept;
  const orgNames = new Map(data.organizations.map((o) => [o.id, o.name]));
  const list = data.users.map((u) => toApiUser(u, orgNames));
  const made: ApiUsers = { length: data.users.length, orgs: data.organizations, orgsLength: data.organizations.length, list, pieces: new Array(list.length) };
  apiUserLists.set(data.users, made);
  return made;
}

/** IDs of every organization strictly below `orgId`, at any depth. */
export function descendantOrganizations(data: Dataset, orgId: string): Set<string> {
  const children = new Map<string, string[]>();
  for (const o of data.organizations) {
    if (o.parentId === null) continue;
    const list = children.get(o.parentId);
    if (list) list.push(o.id);
    else children.set(o.parentId, [o.id]);
  }
  const out = new Set<string>();
  const stack = [...(children.get(orgId) ?? [])];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (out.has(id)) continue;
    out.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  return out;
}

const USER_FILTERS = ['name', 'code', 'englishName'] as const;

function listUsers(data: Dataset, orgIds: ReadonlySet<string>, q: Query, withKeyword: boolean): ListResult<ApiUser> {
  const names = withKeyword ? [...USER_FILTERS, 'keyword'] : [...USER_FILTERS];
  return guarded(q, names, () => {
    const orgNames = new Map(data.organizations.map((o) => [o.id, o.name]));
    const name = filterText(q, 'name');
    const code = filterText(q, 'code');
    const englishName = filterText(q, 'englishName');
    const keyword = withKeyword ? filterText(q, 'keyword') : undefined;
    const out: ApiUser[] = [];
    const pieces: Buffer[] = [];
    const api = apiUsersOf(data);
    for (let i = 0; i < data.users.length; i++) {
      const u = data.users[i]!;
      if (!orgIds.has(u.organizationId)) continue;
      if (!contains(u.name, name) || !contains(u.code, code) || !contains(u.englishName, englishName)) continue;
      if (keyword !== undefined) {
        const hit = [u.name, u.englishName, u.code, orgNames.get(u.organizationId), u.loginName, u.ldapLoginName, u.email].some((f) =>
          contains(f, keyword),
        );
        if (!hit) continue;
      }
      const user = api.list[i]!;
      out.push(user);
      pieces.push((api.pieces[i] ??= recordPiece(user)));
    }
    return { ok: true, body: { totalCount: out.length, data: out }, bytes: listBytes(out.length, pieces) };
  });
}

/** Operation 2: users of all organizations below `orgId` (not its direct users). */
export function listAllAssignedUsers(data: Dataset, orgId: string, q: Query): ListResult<ApiUser> {
  return listUsers(data, descendantOrganizations(data, orgId), q, true);
}

/** Operation 3: users who belong directly to `orgId`. */
export function listOrganizationUsers(data: Dataset, orgId: string, q: Query): ListResult<ApiUser> {
  return listUsers(data, new Set([orgId]), q, false);
}

// ---------------------------------------------------------------------------
// Process categories
// ---------------------------------------------------------------------------

type OrderField = (typeof PROCESS_CATEGORY_ORDER_FIELDS)[number];

function parseOrderBy(q: Query): { field: OrderField; desc: boolean } | undefined {
  const raw = q.get('orderby');
  if (raw === undefined || raw.trim() === '') return undefined;
  const allowed = PROCESS_CATEGORY_ORDER_FIELDS.join(', ');
  const m = /^\s*([^\s]+)(?:\s+([^\s]+))?\s*$/.exec(raw);
  if (!m) {
    return badOrder(raw, `query parameter "orderby" must be a field name optionally followed by " asc" or " desc", got ${JSON.stringify(raw)}; fields: ${allowed}`, allowed);
  }
  const field = PROCESS_CATEGORY_ORDER_FIELDS.find((f) => f.toLowerCase() === m[1]!.toLowerCase());
  if (!field) {
    return badOrder(raw, `cannot order by ${JSON.stringify(m[1])}: allowed fields are ${allowed}`, allowed);
  }
  const dir = m[2]?.toLowerCase();
  if (dir !== undefined && dir !== 'asc' && dir !== 'desc') {
    return badOrder(raw, `the direction in "orderby" must be asc or desc, got ${JSON.stringify(m[2])}`, allowed);
  }
  return { field, desc: dir === 'desc' };
}

/**
 * `orderby` of a list (section 11): a field name of `allowed` (case-insensitive),
 * optionally a space and asc or desc; undefined when not given. A bad value is an
 * INVALID_ORDERBY naming the allowed fields.
 */
export function readOrderBy<F extends string>(q: Query, allowed: readonly F[]): { field: F; desc: boolean } | undefined {
  const raw = q.get('orderby');
  if (raw === undefined || raw.trim() === '') return undefined;
  const list = allowed.join(', ');
  const m = /^\s*([^\s]+)(?:\s+([^\s]+))?\s*$/.exec(raw);
  if (!m) {
    return badOrder(raw, `query parameter "orderby" must be a field name optionally followed by " asc" or " desc", got ${JSON.stringify(raw)}; fields: ${list}`, list);
  }
  const field = allowed.find((f) => f.toLowerCase() === m[1]!.toLowerCase());
  if (!field) return badOrder(raw, `cannot order by ${JSON.stringify(m[1])}: allowed fields are ${list}`, list);
  const dir = m[2]?.toLowerCase();
  if (dir !== undefined && dir !== 'asc' && dir !== 'desc') return badOrder(raw, `the direction in "orderby" must be asc or desc, got ${JSON.stringify(m[2])}`, list);
  return { field, desc: dir === 'desc' };
}

export function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  const sa = String(a ?? '');
  const sb = String(b ?? '');
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

const defaultOrder = (a: StoredProcessCategory, b: StoredProcessCategory): number =>
  a.displayOrder - b.displayOrder || compareValues(a.id, b.id);

/** Filtered, sorted category lists of recent queries, per stored list (a reset replaces the list, so they go with it). */
const categoryLists = new WeakMap<readonly StoredProcessCategory[], { length: number; byQuery: Map<string, KeptCategories> }>();
const KEPT_CATEGORY_QUERIES = 8;

/** A query's filtered, sorted categories, and their kept pieces in the same order (made with the first page). */
interface KeptCategories {
  list: StoredProcessCategory[];
  pieces?: Buffer[];
}

function cachedCategories(all: readonly StoredProcessCategory[], key: string, make: () => StoredProcessCategory[]): KeptCategories {
  let entry = categoryLists.get(all);
  if (!entry || entry.length !== all.length) {
    entry = { length: all.length, byQuery: new Map() };
    categoryLists.set(all, entry);
  }
  let list = entry.byQuery.get(key);
  if (list) {
    entry.byQuery.delete(key); // most recently used last
  } else {
    list = { list: make() };
    if (entry.byQuery.size >= KEPT_CATEGORY_QUERIES) entry.byQuery.delete(entry.byQuery.keys().next().value!);
  }
  entry.byQuery.set(key, list);
  return list;
}

const CATEGORY_PARAMS = ['name', 'code', 'keyword', 'limit', 'offset', 'orderby', 'includeDeleted', 'isDeleted'];

/** Operation 4: process categories with filters, keyword, deleted options, ordering and paging. */
export function listProcessCategories(data: Dataset, q: Query): ListResult<StoredProcessCategory> {
  return guarded(q, CATEGORY_PARAMS, () => {
    const name = filterText(q, 'name');
    const code = filterText(q, 'code');
    const keyword = filterText(q, 'keyword');
    const limit = readInt(q, 'limit', 0, MAX_LIST_LIMIT);
    const offset = readInt(q, 'offset', 0, Number.MAX_SAFE_INTEGER) ?? 0;
    const includeDeleted = readBoolean(q, 'includeDeleted') ?? false;
    const isDeleted = readBoolean(q, 'isDeleted');
    const order = parseOrderBy(q);

    // Paging through a list asks the same filter and order page after page: the
    // filtered, sorted list is kept (per data set list) so each page costs its size.
    const key = JSON.stringify([name, code, keyword, includeDeleted, isDeleted, order?.field, order?.desc]);
    const kept = cachedCategories(data.processCategories, key, () => {
      const list = data.processCategories.filter((c) => {
        // isDeleted takes effect only when includeDeleted is true.
        if (!includeDeleted) {
          if (c.isDeleted) return false;
        } else if (isDeleted !== undefined && c.isDeleted !== isDeleted) return false;
        if (!contains(c.name, name) || !contains(c.code, code)) return false;
        if (keyword !== undefined && !contains(c.name, keyword) && !contains(c.code, keyword)) return false;
        return true;
      });
      list.sort(defaultOrder);
      if (order) {
        const sign = order.desc ? -1 : 1;
        list.sort((a, b) => sign * compareValues(a[order.field], b[order.field]));
      }
      return list;
    });
    const totalCount = kept.list.length;
    const end = limit === undefined ? undefined : offset + limit;
    // The answer from each stored category's kept piece; `body` holds the same records (the server sends the pieces).
    const pieces = (kept.pieces ??= kept.list.map(pieceOf));
    return { ok: true, body: { totalCount, data: kept.list.slice(offset, end) }, bytes: listBytes(totalCount, pieces.slice(offset, end)) };
  });
}
