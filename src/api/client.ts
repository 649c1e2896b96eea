// The service client: one undici dispatcher (a connection pool) per service
// origin, typed and validated results, one error type. No vscode import.
//
// Never logged and never put into an error: a token, a password, an
// Authorization header, a request body.
//
// The dispatcher, the options and the sending of a request are in ./clientCore; adding,
// duplicating and deleting work items and a project's members in ./workItemChanges;
// ServiceClient builds on both, so every call is a method of one client.
import { z } from 'zod';
import {
  AllAssignedUsersQuery,
  OrganizationUsersQuery,
  ProcessCategoriesQuery,
  ProcessCategoryListResponse,
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
import { fastChecker } from '../schema/fast-check';
import { ListDecodeError } from './listDecoder';
import type { UserRows } from './userRows';
import { scanUserList, UserListShapeError } from './userScan';
import { ServiceError } from './errors';
import { signInBody, SIGN_IN_PATH } from './auth';
import { invalidRequest, zodMessages } from './failures';
import { AnswerShapeError } from './answers';
import { MAX_ITEMS_PER_UPDATE } from './limits';
import type { CallOptions } from './clientCore';
import { allAssignedUsersPath, encodeId, organizationUsersPath, projectsPath, readQuery, subItemsPath, workItemsPath, WORK_ITEMS_PATH_PREFIX } from './paths';
import { WorkItemChangeCalls } from './workItemChanges';
import { isChecked } from '../schema/checked';

// Authorization (./auth), the mapping of failures to errors (./failures), the HTTP
// exchange (./transport), the checks of answers (./answers) and the request core
// (./clientCore) live in files of their own; the names callers use with the client are
// exported from here as before.
export { API_KEY_HEADER, type Credentials } from './auth';
export { zodMessages } from './failures';
export {
  DEFAULT_KEEP_ALIVE_MS,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUTS,
  MAX_RESPONSE_BYTES_LIMIT,
  type CallOptions,
  type ClientOptions,
} from './clientCore';
export type { DeleteWorkItemsResult, ProjectMembers } from './workItemChanges';

export class ServiceClient extends WorkItemChangeCalls {
  /** The last update body checked (its JSON text) and what was sent for it. */
  private lastBody: { text: string; sent: unknown } | undefined;

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
      // A body the request document's checks returned (the plan passes it down) was checked there.
      if (isChecked(body)) return body;
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
  foldAllAssignedUsers(orgId: string, q: AllAssignedUsersQuery, start: () => (users: User[]) => void, o?: CallOptions): Promise<{ totalCount: number }> {
    const path = this.path('GET', '/system/organizations/…/allassignedusers', () => allAssignedUsersPath(orgId));
    return this.foldUsers(path, this.query('GET', path, AllAssignedUsersQuery, q), start, o);
  }

  /** `GET /system/organizations/{orgId}/users` read batch by batch, as {@link foldAllAssignedUsers}. */
  foldOrganizationUsers(orgId: string, q: OrganizationUsersQuery, start: () => (users: User[]) => void, o?: CallOptions): Promise<{ totalCount: number }> {
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

/**
 * The users of a list answer as rows (scanUserList); a user that is not valid is explained by
 * the schema (the same messages as a list read whole); undefined when the body is not an
 * object (read as usual then, for the usual message).
 */
function readUserRows(body: Buffer): UserRows | undefined {
  try {
    return scanUserList(body);
  } catch (e) {
    if (!(e instanceof UserListShapeError) || !e.user) throw e;
    const { index, start, end } = e.user;
    let value: unknown;
    try {
      value = JSON.parse(body.toString('utf8', start, end));
    } catch {
      throw e;
    }
    const parsed = User.safeParse(value);
    if (parsed.success) throw e;
    throw new AnswerShapeError([`user ${index + 1} in "data" is not valid: ${zodMessages(parsed.error, `data[${index}]`).slice(0, 3).join('; ')}`]);
  }
}

/** A list answer whose elements were folded (and checked) as they arrived: `data` is empty then. */
const FOLDED_LIST = listResponse(z.unknown());
/** Checks one user of a list (in place, no copy); undefined when the schema cannot be compiled. */
const userChecker = fastChecker(User);
const userIsValid = (v: unknown): boolean => (userChecker ? userChecker(v) : User.safeParse(v).success);
/** Accepts any JSON (the caller checks the shape itself). */
const ANY: z.ZodType<unknown> = z.unknown();
/** `users/me` as some servers answer it: without `name` (getCurrentUser fills it from the login name). */
const CURRENT_USER_WITHOUT_NAME = CurrentUser.extend({ name: z.string().nullish() });
