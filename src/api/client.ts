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
  TokenResponse,
  UpdateWorkItemsBody,
  UpdateWorkItemsResponse,
  UserListResponse,
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
import type { UserRows } from './userRows';
import { anyUser, checkedUserFold, FOLDED_LIST, readUserRows, type UserFoldStart } from './userLists';
import { ServiceError } from './errors';
import type { ProxyEndpoint } from './http';
import { applyAuthorization, authorize, signInBody, SIGN_IN_PATH, type Authorization, type Credentials } from './auth';
import { httpError, invalidRequest, notPrepared, transportError, zodMessages } from './failures';
import { exchange, type Method, type RawResponse } from './transport';
import { readAnswer } from './answers';
import { MAX_ITEMS_PER_UPDATE } from './limits';
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

// Authorization (./auth), the mapping of failures to errors (./failures), the HTTP
// exchange (./transport) and the checks of answers (./answers) live in files of their
// own; the names callers use with the client are exported from here as before.
export { API_KEY_HEADER, type Credentials } from './auth';
export { zodMessages } from './failures';

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
  /** Reads the 2xx body itself (see AnswerSpec.readBody in ./answers). */
  readBody?: (body: Buffer) => T | undefined;
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
    const body = signInBody(loginName, password);
    const res = await this.request(
      { method: 'POST', path: SIGN_IN_PATH, body, schema: TokenResponse, auth: false, secrets: [password], sensitiveResponse: true },
      o,
    );
    return res.token;
  }

  /**
   * `PUT /workitem/workItems/{id,id,...}`. More than MAX_ITEMS_PER_UPDATE (1000) IDs
   * are refused before anything is sent (`invalid-request`, code TOO_MANY_IDS): the
   * service updates at most that many at once (split them first: planJob does).
   */
  async updateWorkItems(ids: readonly string[], body: UpdateWorkItemsBody, o?: CallOptions & { path?: string }): Promise<UpdateWorkItemsResponse> {
    if (ids.length > MAX_ITEMS_PER_UPDATE) {
      const why = `at most ${MAX_ITEMS_PER_UPDATE} work items can be updated in one request; ${ids.length} IDs were given (split them into requests of ${MAX_ITEMS_PER_UPDATE} at most)`;
      throw invalidRequest('PUT', '/workitem/workItems/…', [why], 'TOO_MANY_IDS');
    }
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
      if (!checked.success) throw invalidRequest('PUT', path, zodMessages(checked.error, 'body'));
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
  foldAllAssignedUsers(orgId: string, q: AllAssignedUsersQuery, start: UserFoldStart, o?: CallOptions): Promise<{ totalCount: number }> {
    const path = this.path('GET', '/system/organizations/…/allassignedusers', () => allAssignedUsersPath(orgId));
    return this.foldUsers(path, this.query('GET', path, AllAssignedUsersQuery, q), start, o);
  }

  /** `GET /system/organizations/{orgId}/users` read batch by batch, as {@link foldAllAssignedUsers}. */
  foldOrganizationUsers(orgId: string, q: OrganizationUsersQuery, start: UserFoldStart, o?: CallOptions): Promise<{ totalCount: number }> {
    const path = this.path('GET', '/system/organizations/…/users', () => organizationUsersPath(orgId));
    return this.foldUsers(path, this.query('GET', path, OrganizationUsersQuery, q), start, o);
  }

  /**
   * `GET /system/organizations/{orgId}/users` as the rows of a tree view (UserRows): the answer's
   * bytes are read in one pass (scanUserList) that checks every user against the User schema and
   * keeps only each user's ID, name, login name and deleted flag as objects; a whole user is
   * decoded from the bytes when asked for. The response cap applies to the bytes.
   */
  async readOrganizationUsers(orgId: string, q: OrganizationUsersQuery = {}, o?: CallOptions): Promise<UserRows> {
    const path = this.path('GET', '/system/organizations/…/users', () => organizationUsersPath(orgId));
    const query = this.query('GET', path, OrganizationUsersQuery, q);
    // The schema only words the refusal of a body that is not an object (readUserRows reads the others).
    const schema = UserListResponse as unknown as z.ZodType<UserRows>;
    return this.request({ method: 'GET', path, query, schema, auth: true, idempotent: true, readBody: readUserRows }, o);
  }

  private async foldUsers(path: string, query: URLSearchParams | string, start: UserFoldStart, o?: CallOptions): Promise<{ totalCount: number }> {
    const foldList = checkedUserFold(start);
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
      (await anyUser((start, signal) => this.foldOrganizationUsers(orgId, {}, start, { signal }), o?.signal)) ||
      anyUser((start, signal) => this.foldAllAssignedUsers(orgId, {}, start, { signal }), o?.signal)
    );
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
      throw invalidRequest('GET', path, [`query.depth: expected a whole number from 0 (the project's root folder), got ${String(q.depth)}`]);
    }
    if (q.includeDeleted !== undefined && typeof q.includeDeleted !== 'boolean') {
      throw invalidRequest('GET', path, ['query.includeDeleted: expected true or false']);
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
      throw invalidRequest('GET', path, [`query.depth: expected a whole number from 0 (levels below the organization), got ${String(q.depth)}`]);
    }
    if (q.includeDeleted !== undefined && typeof q.includeDeleted !== 'boolean') throw invalidRequest('GET', path, ['query.includeDeleted: expected true or false']);
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
      if (e instanceof InvalidPathError) throw invalidRequest(method, shown, [e.message]);
      throw notPrepared(method, shown, e);
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
      throw notPrepared(method, path, e);
    }
  }

  private async prepareAsync<T>(method: Method, path: string, step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (e) {
      throw notPrepared(method, path, e);
    }
  }

  private query<T extends Record<string, unknown>>(method: Method, path: string, schema: z.ZodType<T>, q: unknown): URLSearchParams {
    const checked = schema.safeParse(q ?? {});
    if (!checked.success) throw invalidRequest(method, path, zodMessages(checked.error, 'query'));
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(checked.data)) if (v !== undefined) params.append(k, String(v));
    return params;
  }

  private async request<T>(spec: RequestSpec<T>, o?: CallOptions): Promise<T> {
    const { method, path } = spec;
    if (this.closed) throw invalidRequest(method, path, ['the client is closed'], 'CLIENT_CLOSED');
    const signal = o?.signal;
    if (signal?.aborted) throw new ServiceError({ kind: 'cancelled', method, path, sent: false });

    let url: URL;
    try {
      url = buildUrl(this.base, path, spec.query);
    } catch (e) {
      throw invalidRequest(method, path, [e instanceof Error ? e.message : String(e)]);
    }
    const auth: Authorization = spec.auth
      ? await this.prepareAsync(method, path, async () => authorize((await this.options.credentials?.()) ?? { kind: 'none' }, method, path))
      : { secrets: [] };
    const secrets = [...auth.secrets, ...(spec.secrets ?? [])];
    if (signal?.aborted) throw new ServiceError({ kind: 'cancelled', method, path, sent: false });

    const payload = spec.body === undefined ? undefined : this.prepare(method, path, () => Buffer.from(JSON.stringify(spec.body), 'utf8'));
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.userAgent };
    if (payload) headers['content-type'] = 'application/json; charset=utf-8';
    applyAuthorization(headers, auth);

    const logPath = shortPath(path) + (url.search ? '?…' : '');
    const attempts = spec.idempotent ? 2 : 1;
    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      let res: RawResponse;
      try {
        res = await exchange(this.dispatcher, {
          url,
          method,
          headers,
          payload,
          signal,
          streamList: spec.streamList === true,
          fold: spec.foldList?.(),
          maxBytes: this.maxResponseBytes,
          headersMs: this.headersMs,
          bodyMs: this.bodyMs,
        });
      } catch (e) {
        const ms = Math.round(performance.now() - started);
        const err = transportError(e, method, path, signal, this.maxResponseBytes, this.proxies);
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
        return readAnswer(spec, res, secrets);
      }
      this.logger.warn(line);
      throw httpError(method, path, res, secrets);
    }
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

/** Accepts any JSON (the caller checks the shape itself). */
const ANY: z.ZodType<unknown> = z.unknown();
/** `users/me` as some servers answer it: without `name` (getCurrentUser fills it from the login name). */
const CURRENT_USER_WITHOUT_NAME = CurrentUser.extend({ name: z.string().nullish() });

function positive(v: number | undefined, dflt: number): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : dflt;
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
