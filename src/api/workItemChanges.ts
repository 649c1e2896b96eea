// The client's calls that add, duplicate and delete work items, and the read of a
// project's members and groups (official-reference.md section 7; section 6, U3). No
// vscode import.
//
// The help says little about their answers, so each is read tolerantly: an add or a
// duplicate whose answer leaves `items` out (or is empty) gives no items, not an error;
// a delete may answer 200 with any body or 204 with none. None of them is retried: a
// POST or DELETE whose outcome is unknown is reported as such (the caller reads what
// exists before it sends again).
import { z } from 'zod';
import {
  AddSubItemsResponse,
  AddWorkItemRequest,
  DeleteWorkItemsResponse,
  DuplicateSubItemsBody,
  DuplicateSubItemsResponse,
  PROJECT_MEMBER_INCLUDES,
  ProjectsWithMembersResponse,
  type ProjectWithMembers,
} from '../schema/additions';
import { keepOwnKeys } from '../schema/ownKeys';
import { ClientCore, type CallOptions } from './clientCore';
import { ServiceError } from './errors';
import { invalidRequest, zodMessages } from './failures';
import type { Method } from './transport';
import { MAX_ITEMS_PER_UPDATE } from './limits';
import { projectsPath, subItemsPath, workItemsPath } from './paths';

/** What a delete answered: the update-like `items` and `affectedItems` when it gave them, and the body as it came (undefined: none). */
export interface DeleteWorkItemsResult {
  items: Record<string, unknown>[];
  affectedItems: Record<string, unknown>[];
  body?: unknown;
}

/** A project's members and groups. `members` / `userGroups` are undefined when the service left them out (it ignored `includes`). */
export interface ProjectMembers {
  project: ProjectWithMembers;
  members?: { id: string; name?: string; loginName?: string; isDeleted?: boolean }[];
  userGroups?: { id: string; name?: string }[];
}

/** An empty body (204, or 200 without one) read as `null` instead of refused. */
const emptyAsNull = (body: Buffer): unknown => (body.toString('utf8').trim() === '' ? null : undefined);

/** Accepts any JSON (the call reads the shape itself). */
const ANY: z.ZodType<unknown> = z.unknown();

const idOf = (entry: { id?: string | null; [k: string]: unknown }, other: string): string | undefined => {
  const v = entry.id ?? entry[other];
  return typeof v === 'string' && v !== '' ? v : undefined;
};

export class WorkItemChangeCalls extends ClientCore {
  /**
   * `POST /workitem/workItems/{parentId}/subItems`: adds the item of `body` (with its nested
   * `subItems`) directly below `parentId`. The body is checked against the wire schema before
   * anything is sent. Resolves to the answer's `items` (the added items' fields, as the service
   * names them: `answeredItemId` reads an ID from `id` or `Id`); an answer without them gives `[]`.
   */
  async addSubItems(parentId: string, body: AddWorkItemRequest, o?: CallOptions): Promise<AddSubItemsResponse> {
    const path = this.path('POST', '/workitem/workItems/…/subItems', () => subItemsPath(parentId));
    const sent = this.checkedBody('POST', path, AddWorkItemRequest, body);
    const json = await this.request({ method: 'POST', path, body: sent, schema: ANY, auth: true, readBody: emptyAsNull }, o);
    return this.itemsAnswer('POST', path, json, AddSubItemsResponse);
  }

  /**
   * `POST /workitem/workItems/{parentId}/subItems/duplicate`: copies the items `fromItemIds`
   * (comma-separated) below `parentId`. Resolves to the copies (`items`) and `affectedItems`,
   * each `[]` when the answer leaves it out.
   */
  async duplicateSubItems(parentId: string, body: DuplicateSubItemsBody, o?: CallOptions): Promise<DuplicateSubItemsResponse> {
    const path = this.path('POST', '/workitem/workItems/…/subItems/duplicate', () => `${subItemsPath(parentId)}/duplicate`);
    const sent = this.checkedBody('POST', path, DuplicateSubItemsBody, body);
    const json = await this.request({ method: 'POST', path, body: sent, schema: ANY, auth: true, readBody: emptyAsNull }, o);
    return this.itemsAnswer('POST', path, json, DuplicateSubItemsResponse);
  }

  /**
   * `DELETE /workitem/workItems/{id,id,...}`. More than MAX_ITEMS_PER_UPDATE (1000) IDs are
   * refused before anything is sent (`invalid-request`, code TOO_MANY_IDS). Any 2xx answer is
   * a success: 204 or an empty body gives no items; a JSON body is kept as `body`, with its
   * `items` and `affectedItems` when it has them in the update's shape; a body that is not
   * JSON is kept as text.
   */
  async deleteWorkItems(ids: readonly string[], o?: CallOptions): Promise<DeleteWorkItemsResult> {
    if (ids.length > MAX_ITEMS_PER_UPDATE) {
      const why = `at most ${MAX_ITEMS_PER_UPDATE} work items can be deleted in one request; ${ids.length} IDs were given (split them into requests of ${MAX_ITEMS_PER_UPDATE} at most)`;
      throw invalidRequest('DELETE', '/workitem/workItems/…', [why], 'TOO_MANY_IDS');
    }
    const path = this.path('DELETE', '/workitem/workItems/…', () => workItemsPath(ids));
    const readBody = (body: Buffer): DeleteWorkItemsResult => {
      const text = body.toString('utf8');
      if (text.trim() === '') return { items: [], affectedItems: [] };
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        return { items: [], affectedItems: [], body: text };
      }
      const shaped = DeleteWorkItemsResponse.safeParse(json);
      return shaped.success ? { items: shaped.data.items, affectedItems: shaped.data.affectedItems, body: json } : { items: [], affectedItems: [], body: json };
    };
    return this.request({ method: 'DELETE', path, schema: ANY as z.ZodType<DeleteWorkItemsResult>, auth: true, readBody }, o);
  }

  /**
   * `GET /project/projects/{projectId}?includes=Members,UserGroups`: the project with its
   * members (users, each named by `id` or `userId`) and its groups (by `id` or `userGroupId`),
   * the only parties that can be assigned in it. A service that leaves them out gives
   * `members` / `userGroups` undefined (not known), never an empty list.
   */
  async readProjectMembers(projectId: string, o?: CallOptions): Promise<ProjectMembers> {
    const path = this.path('GET', '/project/projects/…', () => projectsPath([projectId]));
    const query = new URLSearchParams({ includes: PROJECT_MEMBER_INCLUDES.join(',') });
    const list = await this.request({ method: 'GET', path, query, schema: ProjectsWithMembersResponse, auth: true, idempotent: true }, o);
    const project = list.find((p) => p.id === projectId) ?? (list.length === 1 ? list[0] : undefined);
    if (!project) {
      throw new ServiceError({
        kind: 'invalid-response',
        method: 'GET',
        path,
        status: 200,
        messages: [`response: expected project ${projectId}, got ${list.length === 0 ? 'an empty array' : `projects ${list.map((p) => p.id).join(', ')}`}`],
      });
    }
    const out: ProjectMembers = { project };
    if (project.members) {
      out.members = project.members.flatMap((m) => {
        const id = idOf(m, 'userId');
        if (id === undefined) return [];
        return [
          {
            id,
            ...(m.name ? { name: m.name } : {}),
            ...(m.loginName ? { loginName: m.loginName } : {}),
            ...(typeof m.isDeleted === 'boolean' ? { isDeleted: m.isDeleted } : {}),
          },
        ];
      });
    }
    if (project.userGroups) {
      out.userGroups = project.userGroups.flatMap((g) => {
        const id = idOf(g, 'userGroupId');
        return id === undefined ? [] : [{ id, ...(g.name ? { name: g.name } : {}) }];
      });
    }
    return out;
  }

  /** The body checked against its strict wire schema (before sending); a field named `__proto__` is sent as written. */
  private checkedBody<T>(method: Method, path: string, schema: z.ZodType<T>, body: unknown): T {
    return this.prepare(method, path, () => {
      const checked = schema.safeParse(body);
      if (!checked.success) throw invalidRequest(method, path, zodMessages(checked.error, 'body'));
      return keepOwnKeys(checked.data, body);
    });
  }

  /**
   * An add's or a duplicate's answer: nothing (null) or an array of items reads as those
   * items; an object is checked against `schema` (missing lists read as empty); anything else
   * is an `invalid-response`.
   */
  private itemsAnswer<T>(method: Method, path: string, json: unknown, schema: z.ZodType<T>): T {
    const value = json === null ? {} : Array.isArray(json) ? { items: json } : json;
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw new ServiceError({ kind: 'invalid-response', method, path, status: 200, messages: zodMessages(parsed.error, 'response') });
    return parsed.data;
  }
}
