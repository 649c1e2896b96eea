// The service client: one undici dispatcher (a connection pool) per service
// origin, typed and validated results, one error type. No vscode import.
//
// Never logged and never put into an error: a token, a password, an
// Authorization header, a request body.
import { Agent, type Dispatcher } from 'undici';
import { z } from 'zod';
import {
  AllAssignedUsersQuery,
  OrganizationUsersQuery,
  ProcessCategoriesQuery,
  ProcessCategoryListResponse,
  TokenRequest,
  TokenResponse,
  UpdateWorkItemsBody,
  UpdateWorkItemsResponse,
  User,
  UserListResponse,
  listResponse,
} from '../schema/api';
import { keepOwnKeys } from '../schema/ownKeys';
import { FieldTypeListResponse, ProjectProfileResponse, type ProjectProfile } from '../schema/catalogue';
import { OrganizationNode } from '../schema/catalogue';
import {
  CurrentUser,
  ProjectListResponse,
  ProjectsQuery,
  ProjectsResponse,
  WorkItemsResponse,
  checkSubItemsResponse,
  type Project,
  type SubItemNode,
  type WorkItemRecord,
} from '../schema/reads';
import { fastChecker, lastCheckFilledDefaults } from '../schema/fast-check';
import { keepRawJson } from './rawJson';
import { ListDecodeError, ListDecoder } from './listDecoder';
import { ServiceError, type ServiceErrorInit } from './errors';
import { classifyTransportError, parseErrorBodyWithEntries, parseRetryAfter, redact, secretVariants, type ProxyEndpoint } from './http';
import { nullLogger, type Logger } from './logger';
import {
  allAssignedUsersPath,
  buildUrl,
  encodeId,
  InvalidPathError,
  organizationUsersPath,
  parseBaseUrl,
  projectsPath,
  readQuery,
  subItemsPath,
  workItemsPath,
  type BaseUrl,
  WORK_ITEMS_PATH_PREFIX,
} from './paths';
import { proxyEndpointsOf } from './dispatcher-info';

export type Credentials =
  | { kind: 'none' }
  | { kind: 'bearer'; token: string }
  | { kind: 'basic'; loginName: string; password: string }
  /** An API key (product version 7 on): sent as `X-TT-ApiKey: <key>`, with no Authorization header. */
  | { kind: 'apiKey'; key: string };

/** The request header that carries an API key. */
export const API_KEY_HEADER = 'X-TT-ApiKey';

export interface ClientOptions {
  /** Service base URL including the API prefix, e.g. `https://pm.example.com/TimeTrackerNX/api`. */
  baseUrl: string;
  /**
   * Called before every request (except sign-in); may sign in lazily. A ServiceError it
   * throws passes through unchanged; anything else becomes an `invalid-request`
   * ServiceError with `sent: false` (code REQUEST_NOT_PREPARED): nothing was sent.
   */
  credentials?: () => Credentials | Promise<Credentials>;
  /**
   * The undici dispatcher to use (proxy, CA certificates: see `createDispatcher`).
   * The client never closes a dispatcher it was given. Without one, the client owns
   * an Agent with capped connections and short keep-alive.
   */
  dispatcher?: Dispatcher;
  logger?: Logger;
  /** connectMs applies to the client's own Agent only (give it to `createDispatcher` otherwise). */
  timeouts?: { connectMs?: number; headersMs?: number; bodyMs?: number };
  /** Connections to the origin at most (own Agent only). Default 6. */
  maxConnections?: number;
  /**
   * Largest response body read, in bytes (default DEFAULT_MAX_RESPONSE_BYTES, at most
   * MAX_RESPONSE_BYTES_LIMIT). A larger answer fails with kind `invalid-response`,
   * reason `response-too-large` and `limitBytes`, and is not retried.
   */
  maxResponseBytes?: number;
  userAgent?: string;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export const DEFAULT_TIMEOUTS = { connectMs: 10_000, headersMs: 30_000, bodyMs: 30_000 } as const;
export const DEFAULT_MAX_CONNECTIONS = 6;
/** Below the idle timeout of common servers (IIS 120 s, nginx 75 s, Node 5 s), so a pooled socket is rarely closed under us. */
export const DEFAULT_KEEP_ALIVE_MS = 4_000;
/**
 * Largest response body read by default: 256 MiB, about 400,000 users in one
 * list (a user is about 620 bytes of JSON); the setting
 * workItemStudio.network.maxResponseMegabytes changes it (ClientOptions.maxResponseBytes).
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 256 * 1024 * 1024;
/**
 * Highest cap that can be set: the body is decoded into one string, and V8's
 * strings hold at most about 512 M characters.
 */
export const MAX_RESPONSE_BYTES_LIMIT = 500 * 1024 * 1024;
const DEFAULT_USER_AGENT = 'workitem-studio';

type Method = 'GET' | 'PUT' | 'POST';

interface RequestSpec<T> {
  method: Method;
  path: string;
  /** Query parameters, or a query string already built (`readQuery`: literal commas in `fields`). */
  query?: URLSearchParams | string;
  body?: unknown;
  schema: z.ZodType<T>;
  /** Send the Authorization header from `credentials` (false for sign-in). */
  auth: boolean;
  /** Extra secrets to scrub from anything echoed back (sign-in password). */
  secrets?: string[];
  /** Do not quote the response body in an invalid-response error (it may hold a token). */
  sensitiveResponse?: boolean;
  /**
   * A list answer that may be very large (`{totalCount, data: [...]}`): a 2xx answer is
   * decoded while it arrives (ListDecoder), so it never exists whole as bytes, text and
   * objects at once.
   */
  streamList?: boolean;
  /**
   * With `streamList`: makes, for each attempt (a retried read starts over), the fold
   * each batch of `data`'s elements is handed to as it is decoded; they are not kept
   * (the answer's `data` is empty). The fold checks the elements itself.
   */
  foldList?: () => (items: unknown[]) => void;
  /** Keep the answer's JSON text beside the parsed answer (rawJsonOf) when it is unchanged by the check. */
  keepText?: boolean;
  /** Retry once on a connection failure after sending (GET only: safe to repeat). */
  idempotent?: boolean;
}

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** Bytes received (the body's length, also when it was decoded as it arrived). */
  size: number;
  /** A list answer decoded as it arrived (`streamList`), or why it is not JSON. */
  decoded?: { value: Record<string, unknown> } | { error: string };
}

export class ServiceClient {
  readonly baseUrl: string;
  readonly origin: string;
  private readonly base: BaseUrl;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly logger: Logger;
  private readonly headersMs: number;
  private readonly bodyMs: number;
  private readonly userAgent: string;
  private readonly proxies: readonly ProxyEndpoint[];
  readonly maxResponseBytes: number;
  private closed = false;
  /** The last update body checked (its JSON text) and what was sent for it. */
  private lastBody: { text: string; sent: unknown } | undefined;

  constructor(private readonly options: ClientOptions) {
    this.base = parseBaseUrl(options.baseUrl);
    this.baseUrl = this.base.href;
    this.origin = this.base.origin;
    this.logger = options.logger ?? nullLogger;
    this.headersMs = positive(options.timeouts?.headersMs, DEFAULT_TIMEOUTS.headersMs);
    this.bodyMs = positive(options.timeouts?.bodyMs, DEFAULT_TIMEOUTS.bodyMs);
    this.userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
    this.maxResponseBytes = Math.min(positive(options.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES), MAX_RESPONSE_BYTES_LIMIT);
    if (options.dispatcher) {
      this.dispatcher = options.dispatcher;
      this.ownsDispatcher = false;
    } else {
      this.dispatcher = new Agent({
        connections: positive(options.maxConnections, DEFAULT_MAX_CONNECTIONS),
        keepAliveTimeout: DEFAULT_KEEP_ALIVE_MS,
        keepAliveMaxTimeout: DEFAULT_KEEP_ALIVE_MS * 4,
        connect: { timeout: positive(options.timeouts?.connectMs, DEFAULT_TIMEOUTS.connectMs) },
      });
      this.ownsDispatcher = true;
    }
    this.proxies = proxyEndpointsOf(this.dispatcher);
  }

  /** `POST /auth/token` with `{loginName, password}`; resolves to the token. */
  async signIn(loginName: string, password: string, o?: CallOptions): Promise<string> {
    const body = { loginName, password };
    const checked = TokenRequest.safeParse(body);
    if (!checked.success) {
      throw this.invalidRequest('POST', '/auth/token', [loginName ? 'the password must be a string' : 'the login name must not be empty']);
    }
    const res = await this.request(
      { method: 'POST', path: '/auth/token', body, schema: TokenResponse, auth: false, secrets: [password], sensitiveResponse: true },
      o,
    );
    return res.token;
  }

  /** `PUT /workitem/workItems/{id,id,...}` */
  async updateWorkItems(ids: readonly string[], body: UpdateWorkItemsBody, o?: CallOptions & { path?: string }): Promise<UpdateWorkItemsResponse> {
    // A planned path (planJob checked and encoded these IDs) is used as it is; it must be one of this operation.
    const planned = o?.path !== undefined && o.path.startsWith(WORK_ITEMS_PATH_PREFIX) ? o.path : undefined;
    const path = planned ?? this.path('PUT', '/workitem/workItems/…', () => workItemsPath(ids));
    const sent = this.prepare('PUT', path, () => {
      // A bulk job sends one body with every request: checked once while it reads the same.
      let text: string | undefined;
      try {
        text = JSON.stringify(body);
      } catch {
        text = undefined; // not JSON (a cycle, a BigInt): zod says what is wrong
      }
      if (text !== undefined && this.lastBody?.text === text) return this.lastBody.sent;
      const checked = UpdateWorkItemsBody.safeParse(body);
      if (!checked.success) throw this.invalidRequest('PUT', path, zodMessages(checked.error, 'body'));
      // keepOwnKeys: a field named `__proto__` is sent as written (zod's record drops it).
      const out = keepOwnKeys(checked.data, body);
      if (text !== undefined) this.lastBody = { text, sent: out };
      return out;
    });
    return this.request({ method: 'PUT', path, body: sent, schema: UpdateWorkItemsResponse, auth: true, keepText: true }, o);
  }

  /** `GET /system/organizations/{orgId}/allassignedusers` */
  async listAllAssignedUsers(orgId: string, q: AllAssignedUsersQuery = {}, o?: CallOptions): Promise<UserListResponse> {
    const path = this.path('GET', '/system/organizations/…/allassignedusers', () => allAssignedUsersPath(orgId));
    const query = this.query('GET', path, AllAssignedUsersQuery, q);
    return this.request({ method: 'GET', path, query, schema: UserListResponse, auth: true, idempotent: true, streamList: true }, o);
  }

  /**
   * `GET /system/organizations/{orgId}/allassignedusers` read without keeping the users:
   * each batch of users (about 1 MiB of the answer), checked, is handed to the fold that
   * `start` makes, then dropped, so a summary of 300,000 users never holds them all.
   * `start` is called at each attempt (a read retried after a dropped connection starts
   * over). A user that is not valid makes the read fail as an invalid response.
   */
  foldAllAssignedUsers(orgId: string, q: AllAssignedUsersQuery, start: () => (users: User[]) => void, o?: CallOptions): Promise<{ totalCount: number }> {
    const path = this.path('GET', '/system/organizations/…/allassignedusers', () => allAssignedUsersPath(orgId));
    return this.foldUsers(path, this.query('GET', path, AllAssignedUsersQuery, q), start, o);
  }

  /** `GET /system/organizations/{orgId}/users` read batch by batch, as {@link foldAllAssignedUsers}. */
  foldOrganizationUsers(orgId: string, q: OrganizationUsersQuery, start: () => (users: User[]) => void, o?: CallOptions): Promise<{ totalCount: number }> {
    const path = this.path('GET', '/system/organizations/…/users', () => organizationUsersPath(orgId));
    return this.foldUsers(path, this.query('GET', path, OrganizationUsersQuery, q), start, o);
  }

  private async foldUsers(path: string, query: URLSearchParams | string, start: () => (users: User[]) => void, o?: CallOptions): Promise<{ totalCount: number }> {
    const foldList = (): ((items: unknown[]) => void) => {
      const fold = start();
      let before = 0; // users of earlier batches
      return (items) => {
        items.forEach((item, i) => {
          if (userIsValid(item)) return;
          const parsed = User.safeParse(item);
          const why = parsed.success ? 'not valid' : zodMessages(parsed.error, `data[${before + i}]`).slice(0, 3).join('; ');
          throw new ListDecodeError(`user ${before + i + 1} in "data" is not valid: ${why}`);
        });
        before += items.length;
        fold(items as User[]);
      };
    };
    const r = await this.request({ method: 'GET', path, query, schema: FOLDED_LIST, auth: true, idempotent: true, streamList: true, foldList }, o);
    return { totalCount: r.totalCount };
  }

  /**
   * Whether some user belongs to the organization: directly (operation 3) or to an
   * organization below it (operation 2). Each list is read only as far as its first
   * checked batch of users: the read stops there, so an organization of 300,000 users
   * is not read whole (nor held against the response cap) to learn that it has users.
   * A cancel through `o.signal` rejects as cancelled.
   */
  async hasUsers(orgId: string, o?: CallOptions): Promise<boolean> {
    return (
      (await this.anyUser((start, signal) => this.foldOrganizationUsers(orgId, {}, start, { signal }), o)) ||
      this.anyUser((start, signal) => this.foldAllAssignedUsers(orgId, {}, start, { signal }), o)
    );
  }

  private async anyUser(read: (start: () => (users: User[]) => void, signal: AbortSignal) => Promise<{ totalCount: number }>, o?: CallOptions): Promise<boolean> {
    const stop = new AbortController();
    const outer = o?.signal;
    outer?.throwIfAborted();
    const onAbort = (): void => stop.abort(outer?.reason);
    outer?.addEventListener('abort', onAbort, { once: true });
    let seen = false;
    try {
      const r = await read(
        () => (users) => {
          if (users.length === 0) return;
          seen = true;
          stop.abort();
        },
        stop.signal,
      );
      return seen || r.totalCount > 0;
    } catch (e) {
      // Stopped by us after the first users: the organization has users.
      if (seen && !outer?.aborted) return true;
      throw e;
    } finally {
      outer?.removeEventListener('abort', onAbort);
    }
  }

  /** `GET /system/organizations/{orgId}/users` */
  async listOrganizationUsers(orgId: string, q: OrganizationUsersQuery = {}, o?: CallOptions): Promise<UserListResponse> {
    const path = this.path('GET', '/system/organizations/…/users', () => organizationUsersPath(orgId));
    const query = this.query('GET', path, OrganizationUsersQuery, q);
    return this.request({ method: 'GET', path, query, schema: UserListResponse, auth: true, idempotent: true, streamList: true }, o);
  }

  /** `GET /system/processCategories?...` */
  async listProcessCategories(q: ProcessCategoriesQuery = {}, o?: CallOptions): Promise<ProcessCategoryListResponse> {
    const path = '/system/processCategories';
    const query = this.query('GET', path, ProcessCategoriesQuery, q);
    return this.request({ method: 'GET', path, query, schema: ProcessCategoryListResponse, auth: true, idempotent: true }, o);
  }

  /** `GET /project/projects?...`: a page of projects and the total count before paging. */
  async listProjects(q: ProjectsQuery = {}, o?: CallOptions): Promise<ProjectListResponse> {
    const path = '/project/projects';
    const query = this.query('GET', path, ProjectsQuery, q);
    return this.request({ method: 'GET', path, query, schema: ProjectListResponse, auth: true, idempotent: true }, o);
  }

  /** `GET /project/projects/{id,id,...}`: the projects that exist (the server answers 404 only when none does). */
  async getProjects(ids: readonly string[], o?: CallOptions): Promise<Project[]> {
    const path = this.path('GET', '/project/projects/…', () => projectsPath(ids));
    return this.request({ method: 'GET', path, schema: ProjectsResponse, auth: true, idempotent: true }, o);
  }

  /**
   * `GET /workitem/workItems/{id,id,...}?fields=...`: one request. Without `fields`
   * every field comes back; with them, `Id` too. The server answers 404 only when
   * none of the IDs exists (see `readWorkItems` in src/api/reads.ts for many IDs).
   */
  async getWorkItems(ids: readonly string[], fields?: readonly string[], o?: CallOptions): Promise<WorkItemRecord[]> {
    const path = this.path('GET', '/workitem/workItems/…', () => workItemsPath(ids));
    const query = this.path('GET', path, () => readQuery(fields));
    return this.request({ method: 'GET', path, query, schema: WorkItemsResponse, auth: true, idempotent: true }, o);
  }

  /**
   * `GET /workitem/workItems/{id}/subItems?fields=&depth=&includeDeleted=`: the item
   * itself, its children nested in `fields.SubItems`. `depth` counts from the
   * project's root folder (level 0), not from the item: the children of an item on
   * level L come with `depth: L + 1`. Without `depth` the whole subtree comes back.
   */
  async getSubItems(
    id: string,
    q: { fields?: readonly string[]; depth?: number; includeDeleted?: boolean } = {},
    o?: CallOptions,
  ): Promise<SubItemNode> {
    const path = this.path('GET', '/workitem/workItems/…/subItems', () => subItemsPath(id));
    if (q.depth !== undefined && (!Number.isInteger(q.depth) || q.depth < 0)) {
      throw this.invalidRequest('GET', path, [`query.depth: expected a whole number from 0 (the project's root folder), got ${String(q.depth)}`]);
    }
    if (q.includeDeleted !== undefined && typeof q.includeDeleted !== 'boolean') {
      throw this.invalidRequest('GET', path, ['query.includeDeleted: expected true or false']);
    }
    const query = this.path('GET', path, () => readQuery(q.fields, { depth: q.depth, includeDeleted: q.includeDeleted }));
    const json = await this.request({ method: 'GET', path, query, schema: ANY, auth: true, idempotent: true }, o);
    const checked = checkSubItemsResponse(json);
    if (!checked.ok) throw new ServiceError({ kind: 'invalid-response', method: 'GET', path, status: 200, messages: checked.problems });
    if (checked.value.length !== 1) {
      throw new ServiceError({
        kind: 'invalid-response',
        method: 'GET',
        path,
        status: 200,
        messages: [`response: expected an array with exactly one element (the item asked for), got ${checked.value.length} elements`],
      });
    }
    return checked.value[0]!;
  }

  /**
   * `GET /system/users/me`: the signed-in user; undefined when the server answers 404 (servers
   * before product version 6). Some servers leave `name` out (public clients rely on `id` and
   * `loginName` only): `name` is then the login name (or the ID without one), so whatever shows
   * the user's name shows the login name.
   */
  async getCurrentUser(o?: CallOptions): Promise<CurrentUser | undefined> {
    const path = '/system/users/me';
    try {
      const me = await this.request({ method: 'GET', path, schema: CURRENT_USER_WITHOUT_NAME, auth: true, idempotent: true }, o);
      return { ...me, name: me.name || me.loginName || me.id };
    } catch (e) {
      if (e instanceof ServiceError && e.kind === 'http' && e.status === 404) return undefined;
      throw e;
    }
  }

  /**
   * `GET /system/organizations/{orgId}/subOrganizations?depth=&includeDeleted=` (official help
   * O1): the organization itself, a tree of its sub-organizations below it. `depth` counts the
   * levels below the organization asked (0: the organization alone, 1: with its direct
   * sub-organizations); without it the whole tree comes back. Members other than `id` are optional
   * (the help does not show them); an answer of an array with one organization is read as that one.
   */
  async getSubOrganizations(orgId: string, q: { depth?: number; includeDeleted?: boolean } = {}, o?: CallOptions): Promise<OrganizationNode> {
    const path = this.path('GET', '/system/organizations/…/subOrganizations', () => `/system/organizations/${encodeId(orgId, 'organization ID')}/subOrganizations`);
    if (q.depth !== undefined && (!Number.isInteger(q.depth) || q.depth < 0)) {
      throw this.invalidRequest('GET', path, [`query.depth: expected a whole number from 0 (levels below the organization), got ${String(q.depth)}`]);
    }
    if (q.includeDeleted !== undefined && typeof q.includeDeleted !== 'boolean') throw this.invalidRequest('GET', path, ['query.includeDeleted: expected true or false']);
    const query = new URLSearchParams();
    if (q.depth !== undefined) query.set('depth', String(q.depth));
    if (q.includeDeleted !== undefined) query.set('includeDeleted', String(q.includeDeleted));
    const json = await this.request({ method: 'GET', path, query, schema: ANY, auth: true, idempotent: true }, o);
    const one = Array.isArray(json) && json.length === 1 ? json[0] : json;
    const checked = OrganizationNode.safeParse(one);
    if (!checked.success) throw new ServiceError({ kind: 'invalid-response', method: 'GET', path, status: 200, messages: zodMessages(checked.error, 'response') });
    return checked.data;
  }

  /** Closes the client's own connection pool (a given dispatcher is left to its owner). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  // -------------------------------------------------------------------------

  private path(method: Method, shown: string, build: () => string): string {
    try {
      return build();
    } catch (e) {
      if (e instanceof InvalidPathError) throw this.invalidRequest(method, shown, [e.message]);
      throw this.notPrepared(method, shown, e);
    }
  }

  /**
   * Runs a step of preparing a request (before anything is sent): whatever it throws
   * becomes an `invalid-request` ServiceError with `sent: false`, so a caller (the
   * bulk engine) knows for certain the request never left, and never reads an
   * unexpected exception as "outcome unknown".
   */
  private prepare<T>(method: Method, path: string, step: () => T): T {
    try {
      return step();
    } catch (e) {
      throw this.notPrepared(method, path, e);
    }
  }

  private async prepareAsync<T>(method: Method, path: string, step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (e) {
      throw this.notPrepared(method, path, e);
    }
  }

  private notPrepared(method: Method, path: string, e: unknown): ServiceError {
    if (e instanceof ServiceError) return e;
    const detail = e instanceof Error ? e.message : String(e);
    return new ServiceError({ kind: 'invalid-request', method, path, messages: [`the request could not be prepared, so it was not sent: ${detail}`], code: 'REQUEST_NOT_PREPARED', sent: false });
  }

  private query<T extends Record<string, unknown>>(method: Method, path: string, schema: z.ZodType<T>, q: unknown): URLSearchParams {
    const checked = schema.safeParse(q ?? {});
    if (!checked.success) throw this.invalidRequest(method, path, zodMessages(checked.error, 'query'));
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(checked.data)) if (v !== undefined) params.append(k, String(v));
    return params;
  }

  private invalidRequest(method: string, path: string, messages: string[], code?: string): ServiceError {
    return new ServiceError({ kind: 'invalid-request', method, path, messages, code });
  }

  private async authorization(method: Method, path: string): Promise<{ header?: string; apiKey?: string; secrets: string[] }> {
    const creds: Credentials = (await this.options.credentials?.()) ?? { kind: 'none' };
    switch (creds.kind) {
      case 'none':
        return { secrets: [] };
      case 'bearer': {
        const token = typeof creds.token === 'string' ? creds.token.trim() : '';
        if (!token) throw this.invalidRequest(method, path, ['the access token is empty; sign in again'], 'CREDENTIALS_EMPTY');
        if (!/^[\x21-\x7e]+$/.test(token)) {
          throw this.invalidRequest(method, path, ['the access token contains characters that cannot be sent in a header (spaces, line breaks or non-ASCII)'], 'CREDENTIALS_INVALID');
        }
        return { header: `Bearer ${token}`, secrets: [token] };
      }
      case 'basic': {
        const { loginName, password } = creds;
        if (typeof loginName !== 'string' || loginName === '') throw this.invalidRequest(method, path, ['the login name is empty'], 'CREDENTIALS_EMPTY');
        if (loginName.includes(':')) {
          throw this.invalidRequest(method, path, ['the login name contains ":", which Basic authentication cannot carry; use token sign-in instead'], 'CREDENTIALS_COLON');
        }
        if (typeof password !== 'string') throw this.invalidRequest(method, path, ['the password is missing'], 'CREDENTIALS_EMPTY');
        if (/[\r\n\0]/.test(loginName + password)) {
          throw this.invalidRequest(method, path, ['the login name or password contains a line break or NUL character'], 'CREDENTIALS_INVALID');
        }
        const encoded = Buffer.from(`${loginName}:${password}`, 'utf8').toString('base64');
        return { header: `Basic ${encoded}`, secrets: [password, encoded] };
      }
      case 'apiKey': {
        const key = typeof creds.key === 'string' ? creds.key.trim() : '';
        if (!key) throw this.invalidRequest(method, path, ['the API key is empty; sign in again'], 'CREDENTIALS_EMPTY');
        if (!/^[\x21-\x7e]+$/.test(key)) {
          throw this.invalidRequest(method, path, ['the API key contains characters that cannot be sent in a header (spaces, line breaks or non-ASCII)'], 'CREDENTIALS_INVALID');
        }
        return { apiKey: key, secrets: [key] };
      }
      default:
        throw this.invalidRequest(method, path, ['unknown credentials kind'], 'CREDENTIALS_INVALID');
    }
  }

  private async request<T>(spec: RequestSpec<T>, o?: CallOptions): Promise<T> {
    const { method, path } = spec;
    if (this.closed) throw this.invalidRequest(method, path, ['the client is closed'], 'CLIENT_CLOSED');
    const signal = o?.signal;
    if (signal?.aborted) throw new ServiceError({ kind: 'cancelled', method, path, sent: false });

    let url: URL;
    try {
      url = buildUrl(this.base, path, spec.query);
    } catch (e) {
      throw this.invalidRequest(method, path, [e instanceof Error ? e.message : String(e)]);
    }
    const auth: { header?: string; apiKey?: string; secrets: string[] } = spec.auth
      ? await this.prepareAsync(method, path, () => this.authorization(method, path))
      : { secrets: [] };
    const secrets = [...auth.secrets, ...(spec.secrets ?? [])];
    if (signal?.aborted) throw new ServiceError({ kind: 'cancelled', method, path, sent: false });

    const payload = spec.body === undefined ? undefined : this.prepare(method, path, () => Buffer.from(JSON.stringify(spec.body), 'utf8'));
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.userAgent };
    if (payload) headers['content-type'] = 'application/json; charset=utf-8';
    if (auth.header) headers.authorization = auth.header;
    if (auth.apiKey) headers[API_KEY_HEADER.toLowerCase()] = auth.apiKey;

    const logPath = shortPath(path) + (url.search ? '?…' : '');
    const attempts = spec.idempotent ? 2 : 1;
    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      let res: RawResponse;
      try {
        res = await this.send(url, method, headers, payload, signal, spec.streamList === true, spec.foldList?.());
      } catch (e) {
        const ms = Math.round(performance.now() - started);
        const err = this.transportError(e, method, path, signal);
        if (err.kind === 'network' && attempt < attempts && !signal?.aborted) {
          this.logger.warn(`${method} ${logPath} failed after ${ms} ms (${err.code ?? err.kind}); retrying once`);
          continue;
        }
        // A cancel is asked for (by the user, or by a read that has what it needs): not a failure.
        if (err.kind === 'cancelled') this.logger.info(`${method} ${logPath} cancelled after ${ms} ms`);
        else this.logger.warn(`${method} ${logPath} failed after ${ms} ms: ${err.kind}${err.code ? ` ${err.code}` : ''}${err.reason ? ` (${err.reason})` : ''} [request ${payload?.length ?? 0} B]`);
        throw err;
      }
      const ms = Math.round(performance.now() - started);
      const line = `${method} ${logPath} → ${res.status} in ${ms} ms [request ${payload?.length ?? 0} B, response ${res.size} B]`;
      if (res.status >= 200 && res.status < 300) {
        this.logger.info(line);
        return this.parseSuccess(spec, res, secrets);
      }
      this.logger.warn(line);
      throw this.httpError(method, path, res, secrets);
    }
  }

  private parseSuccess<T>(spec: RequestSpec<T>, res: RawResponse, secrets: string[]): T {
    const { method, path } = spec;
    if (res.decoded && 'error' in res.decoded) {
      throw new ServiceError({ kind: 'invalid-response', method, path, status: res.status, messages: [redact(res.decoded.error, secretVariants(secrets))] });
    }
    const text = res.decoded ? '' : res.body.toString('utf8');
    let json: unknown;
    try {
      json = res.decoded ? res.decoded.value : text.trim() === '' ? undefined : JSON.parse(text);
    } catch {
      const shown = spec.sensitiveResponse ? '' : `: ${redact(text, secretVariants(secrets)).trim().slice(0, 200)}`;
      throw new ServiceError({ kind: 'invalid-response', method, path, status: res.status, messages: [`the body is not JSON${shown}`] });
    }
    if (json === undefined) {
      throw new ServiceError({ kind: 'invalid-response', method, path, status: res.status, messages: ['the body is empty; a JSON object was expected'] });
    }
    // Known members checked in place, no copy (large answers); zod decides otherwise, with its message.
    if (fastChecker(spec.schema)?.(json)) {
      // The text of an answer kept as read (a bulk journal writes it instead of serializing the answer again).
      if (spec.keepText && typeof json === 'object' && json !== null && !lastCheckFilledDefaults()) keepRawJson(json, res.body);
      return json as T;
    }
    const parsed = spec.schema.safeParse(json);
    if (!parsed.success) {
      throw new ServiceError({ kind: 'invalid-response', method, path, status: res.status, messages: zodMessages(parsed.error, 'response').map((m) => redact(m, secretVariants(secrets))) });
    }
    return parsed.data;
  }

  private httpError(method: string, path: string, res: RawResponse, secrets: string[]): ServiceError {
    const ct = res.headers['content-type'];
    // Every string of the body (messages, codes, params, any other member) is redacted before it is read.
    const info = parseErrorBodyWithEntries(res.body.toString('utf8'), Array.isArray(ct) ? ct[0] : ct, secrets);
    return new ServiceError({
      kind: 'http',
      method,
      path,
      status: res.status,
      messages: info.messages,
      codes: info.codes,
      entries: info.entries,
      // A 407 comes from a proxy that forwards plain-http requests (https ones fail at CONNECT).
      reason: res.status === 407 ? 'proxy-auth-required' : undefined,
      retryAfterMs: parseRetryAfter(res.headers['retry-after']),
    });
  }

  private transportError(e: unknown, method: string, path: string, signal: AbortSignal | undefined): ServiceError {
    if (e instanceof ServiceError) return e;
    const sent = (e as { [SENT]?: boolean })[SENT] === true;
    const cause = (e as { [CAUSE]?: unknown })[CAUSE] ?? e;
    if (signal?.aborted) return new ServiceError({ kind: 'cancelled', method, path, sent });
    const tooLarge = (cause as { [TOO_LARGE]?: number } | undefined)?.[TOO_LARGE];
    if (tooLarge !== undefined) {
      // The service answered (status known), but more than the client reads: not a network failure, not worth a retry.
      const mib = Math.round((this.maxResponseBytes / (1024 * 1024)) * 10) / 10;
      return new ServiceError({
        kind: tooLarge >= 200 && tooLarge < 300 ? 'invalid-response' : 'http',
        method,
        path,
        status: tooLarge,
        code: 'RESPONSE_TOO_LARGE',
        reason: 'response-too-large',
        limitBytes: this.maxResponseBytes,
        messages: [`the answer is larger than the limit of ${mib} MiB`],
      });
    }
    const c = classifyTransportError(cause, sent, this.proxies);
    const init: ServiceErrorInit = { kind: c.kind, method, path, code: c.code, reason: c.reason, sent: c.kind !== 'connect' && sent };
    if (c.kind === 'connect' || c.kind === 'network' || c.kind === 'timeout') {
      // Keep the cause for the log, but only an undici/system error: never one that could quote a request.
      init.cause = sanitizeCause(cause);
    }
    return new ServiceError(init);
  }

  /** One request through the dispatcher, tracking whether anything was written. */
  private send(
    url: URL,
    method: Method,
    headers: Record<string, string>,
    payload: Buffer | undefined,
    signal?: AbortSignal,
    streamList = false,
    fold?: (items: unknown[]) => void,
  ): Promise<RawResponse> {
    return new Promise<RawResponse>((resolve, reject) => {
      let sent = false;
      let settled = false;
      let abortFn: ((err?: Error) => void) | undefined;
      let status = 0;
      let resHeaders: Record<string, string | string[] | undefined> = {};
      const chunks: Buffer[] = [];
      let size = 0;
      const maxBytes = this.maxResponseBytes;
      // A 2xx list answer is decoded as it arrives; a failure to decode is kept for parseSuccess.
      let decoder: ListDecoder | undefined;
      let decodeError: string | undefined;

      const fail = (err: unknown) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        const wrapped = { [SENT]: sent, [CAUSE]: err };
        reject(wrapped);
      };
      const onAbort = () => {
        const reason = new Error('aborted');
        abortFn?.(reason);
        fail(reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });

      const handler = {
        onConnect(abort: (err?: Error) => void) {
          // Called right before the request is written to a connected socket.
          abortFn = abort;
          sent = true;
          if (settled) abort(new Error('aborted'));
        },
        onHeaders(statusCode: number, raw: Buffer[] | null) {
          status = statusCode;
          resHeaders = rawHeaders(raw);
          if (streamList && statusCode >= 200 && statusCode < 300) decoder = new ListDecoder(undefined, fold);
          return true;
        },
        onData(chunk: Buffer) {
          size += chunk.length;
          // A folded list is capped by what it keeps, not by its length (the fold keeps the elements, or not).
          const held = decoder && fold && decodeError === undefined ? decoder.keptBytes + chunk.length : size;
          if (held > maxBytes) {
            const err = Object.assign(new Error('response too large'), { code: 'UND_ERR_RES_EXCEEDED_MAX_SIZE', [TOO_LARGE]: status });
            abortFn?.(err);
            fail(err);
            return false;
          }
          if (!decoder) chunks.push(chunk);
          else if (decodeError === undefined) {
            try {
              decoder.push(chunk);
            } catch (e) {
              decodeError = e instanceof ListDecodeError ? e.message : `the body could not be read: ${String(e)}`;
            }
          }
          return true;
        },
        onComplete() {
          if (settled) return;
          settled = true;
          signal?.removeEventListener('abort', onAbort);
          if (!decoder) {
            resolve({ status, headers: resHeaders, body: Buffer.concat(chunks), size });
            return;
          }
          let decoded: RawResponse['decoded'];
          let body: Buffer = EMPTY;
          if (decodeError !== undefined) decoded = { error: decodeError };
          else {
            try {
              const d = decoder.finish();
              if (d.kind === 'value') decoded = { value: d.value };
              else body = d.bytes; // not an object: read as usual
            } catch (e) {
              decoded = { error: e instanceof ListDecodeError ? e.message : String(e) };
            }
          }
          resolve({ status, headers: resHeaders, body, size, decoded });
        },
        onError(err: Error) {
          fail(err);
        },
        onUpgrade() {
          fail(new Error('unexpected protocol upgrade'));
        },
        onRequestSent() {
          sent = true;
        },
      };
      try {
        this.dispatcher.dispatch(
          {
            origin: url.origin,
            path: `${url.pathname}${url.search}`,
            method,
            headers,
            body: payload,
            headersTimeout: this.headersMs,
            bodyTimeout: this.bodyMs,
          },
          handler as unknown as Dispatcher.DispatchHandler,
        );
      } catch (e) {
        fail(e);
      }
    });
  }

  /** `GET /system/fieldTypes?...` (official help L1): one page of field types, `{totalCount, data}`. */
  async listFieldTypes(q: FieldTypesQuery = {}, o?: CallOptions): Promise<FieldTypeListResponse> {
    const path = '/system/fieldTypes';
    const query = this.query('GET', path, FieldTypesQuery, q);
    return this.request({ method: 'GET', path, query, schema: FieldTypeListResponse, auth: true, idempotent: true }, o);
  }

  /** `GET /project/projects/{id}/profile?includes=...` (official help P2): the project's profile (the answer's one element). */
  async getProjectProfile(projectId: string, includes: readonly string[] = ['ItemTypes', 'FieldTypes', 'StatusTypes'], o?: CallOptions): Promise<ProjectProfile> {
    const path = this.path('GET', '/project/projects/…/profile', () => `${projectsPath([projectId])}/profile`);
    const query = new URLSearchParams();
    if (includes.length > 0) query.set('includes', includes.join(','));
    const list = await this.request({ method: 'GET', path, query, schema: ProjectProfileResponse, auth: true, idempotent: true }, o);
    if (list.length === 0) throw new ServiceError({ kind: 'invalid-response', method: 'GET', path, status: 200, messages: ['response: expected an array with one profile, got an empty array'] });
    return list[0]!;
  }
}

/** Query of `GET /system/fieldTypes` (official help L1). */
const FieldTypesQuery = z.strictObject({
  name: z.string().optional(),
  systemName: z.string().optional(),
  keyword: z.string().optional(),
  isSystemField: z.boolean().optional(),
  limit: z.number().int().min(1).optional(),
  offset: z.number().int().min(0).optional(),
  orderby: z.string().optional(),
});
export type FieldTypesQuery = z.infer<typeof FieldTypesQuery>;

const SENT = Symbol('sent');
/** A list answer whose elements were folded (and checked) as they arrived: `data` is empty then. */
const FOLDED_LIST = listResponse(z.unknown());
/** Checks one user of a list (in place, no copy); undefined when the schema cannot be compiled. */
const userChecker = fastChecker(User);
const userIsValid = (v: unknown): boolean => (userChecker ? userChecker(v) : User.safeParse(v).success);
const EMPTY: Buffer = Buffer.alloc(0);
/** Accepts any JSON (the caller checks the shape itself). */
const ANY: z.ZodType<unknown> = z.unknown();
/** `users/me` as some servers answer it: without `name` (getCurrentUser fills it from the login name). */
const CURRENT_USER_WITHOUT_NAME = CurrentUser.extend({ name: z.string().nullish() });
const CAUSE = Symbol('cause');
/** On the error of an answer over the size cap: the answer's status. */
const TOO_LARGE = Symbol('tooLarge');

function positive(v: number | undefined, dflt: number): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : dflt;
}

function rawHeaders(raw: Buffer[] | null): Record<string, string | string[] | undefined> {
  const out: Record<string, string | string[] | undefined> = {};
  if (!raw) return out;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const k = raw[i].toString('latin1').toLowerCase();
    const v = raw[i + 1].toString('latin1');
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

function shortPath(path: string): string {
  if (path.startsWith(WORK_ITEMS_PATH_PREFIX)) {
    // Counted without splitting (a path of 1000 IDs is logged for every request).
    let n = 1;
    let cut = path.length; // where the first three IDs end
    for (let at = path.indexOf(',', WORK_ITEMS_PATH_PREFIX.length); at >= 0; at = path.indexOf(',', at + 1)) {
      if (++n === 4) cut = at;
    }
    return n > 3 || path.length > 200 ? `${path.slice(0, cut)},… (${n} IDs)` : path;
  }
  return path.length > 200 ? `${path.slice(0, 200)}…` : path;
}

/** zod issues as `where: what` lines naming the member path (`response.data[3].name: ...`). */
export function zodMessages(error: z.ZodError, root: string): string[] {
  return error.issues.slice(0, 20).map((i) => {
    const where = i.path.reduce<string>((acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : `${acc}.${String(p)}`), root);
    return `${where}: ${i.message}`;
  });
}

/** A copy of a transport error with only its name, message and code (no request data). */
function sanitizeCause(e: unknown): Error | undefined {
  if (!(e instanceof Error)) return undefined;
  const copy = new Error(e.message);
  copy.name = e.name;
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string') (copy as Error & { code?: string }).code = code;
  return copy;
}
