// The API routes under /api: sign-in, the update, add, duplicate, delete and reads of
// work items, projects, users, process categories and the service's self-description.
// Each answers from the live data set; a change (update, add, duplicate, delete) is
// saved by the keeper before it is answered.
// No vscode import.
import { TokenRequest } from '../schema/api';
import { findUserByCredentials } from './auth';
import { listFieldTypes } from './catalogue';
import type { Change } from './keeper';
import { listAllAssignedUsers, listOrganizationUsers, listProcessCategories, type HttpError } from './lists';
import type { RouteEnv } from './live';
import { getProjectProfile, getSubOrganizations } from './profile';
import { currentUser, getProjects, getSubItems, getWorkItems, listProjects } from './reads';
import { HttpProblem, problem, type Reply } from './reply';
import { decodeSegment, keptReply, splitIds, type RequestContext, type Route } from './router';
import { formatPath } from './state';
import { applyUpdate } from './update';
import { applyAdd } from './additions/add';
import { DELETE_ANSWER_STATUS } from './additions/choices';
import { applyDelete } from './additions/delete';
import { applyDuplicate } from './additions/duplicate';
import { showValue, valueAt } from './values';

/** The members of a sign-in body, case-insensitively: `loginname`/`LOGINNAME` bind to `loginName`. */
const TOKEN_MEMBERS = new Map([
  ['loginname', 'loginName'],
  ['password', 'password'],
]);

/** A sign-in body with its member names bound case-insensitively (other members are kept as given). */
export function bindTokenMembers(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const given = new Map<string, string>();
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    const name = TOKEN_MEMBERS.get(k.toLowerCase()) ?? k;
    const before = given.get(name);
    if (before !== undefined) {
      const problemText = `the member is given twice (as ${JSON.stringify(before)} and ${JSON.stringify(k)})`;
      throw problem(400, 'INVALID_BODY', `${name}: ${problemText}`, { field: name, params: { field: name, problem: problemText } });
    }
    given.set(name, k);
    out[name] = v;
  }
  return { ...out };
}

const outcomeReply = (r: { ok: true; body: unknown; stream?: Iterable<string> } | { ok: false; status: number; errors: HttpError[] }): Reply =>
  r.ok ? { status: 200, body: r.body, stream: r.stream } : { status: r.status, body: r.errors };

function listReply(r: ReturnType<typeof listProcessCategories> | ReturnType<typeof listAllAssignedUsers> | ReturnType<typeof listProjects>): Reply {
  if (!r.ok) return { status: r.status, body: r.errors };
  return 'bytes' in r && r.bytes !== undefined ? { status: 200, bytes: r.bytes } : { status: 200, body: r.body };
}

/** The outcome of a change of the data set: the update's, or an add's, a duplicate's or a delete's. */
type Outcome = { ok: true; response: unknown; undo: () => void } | { ok: false; status: number; errors: unknown[] };

/** The routes under /api (the path after /api), on the shared state of the sandbox. */
export function apiRoutes(env: RouteEnv): Route[] {
  const { live, keeper, tokens, edition, now, maxBody, keepMetadata } = env;
  /** Makes a change once every earlier one is kept, answered `status` once it is saved (or 500 when it cannot be). */
  const changed = async (status: number, apply: () => Outcome): Promise<Reply> =>
    keptReply(
      await keeper.change((): Change<Reply> => {
        const outcome = apply();
        if (!outcome.ok) return { value: { status: outcome.status, body: outcome.errors } };
        live.changed();
        const undo = () => (live.changed(), outcome.undo());
        return { value: { status, body: outcome.response }, undo };
      }),
    );
  /** The body of a request that needs one (400 BODY_REQUIRED when empty). */
  const requiredBody = async (c: RequestContext, example: string): Promise<unknown> => {
    const body = await c.readBody(maxBody);
    if (body === undefined) throw problem(400, 'BODY_REQUIRED', `the request body is empty: send a JSON object, e.g. ${example}`, { params: { example } });
    return body;
  };
  return [
    {
      pattern: ['auth', 'token'],
      auth: false,
      methods: {
        POST: async (c) => {
          // As the real server: members bound case-insensitively (`loginname` works),
          // JSON or a form-encoded body.
          const form = /^\s*application\/x-www-form-urlencoded\s*(;|$)/i.test(c.req.headers['content-type'] ?? '');
          const raw = form ? await c.readForm(maxBody) : await c.readBody(maxBody);
          if (raw === undefined) {
            throw problem(400, 'BODY_REQUIRED', 'the request body is empty: send {"loginName": "...", "password": "..."}', {
              params: { example: '{"loginName": "...", "password": "..."}' },
            });
          }
          const body = bindTokenMembers(raw);
          const parsed = TokenRequest.safeParse(body);
          if (!parsed.success) {
            throw new HttpProblem(
              400,
              parsed.error.issues.map((i) => {
                const detail = i.code === 'invalid_type' ? `expected ${i.expected}, got ${showValue(valueAt(body, i.path))}` : i.message;
                const field = formatPath(i.path);
                return { message: `${field}: ${detail}`, code: 'INVALID_BODY', field, params: { field, problem: detail } };
              }),
            );
          }
          const user = findUserByCredentials(live.data, parsed.data.loginName, parsed.data.password);
          if (!user) throw problem(401, 'SIGN_IN_FAILED', 'wrong login name or password', { params: {} }, { 'WWW-Authenticate': 'Bearer realm="sandbox"' });
          return { status: 200, body: { token: tokens.issue(user.id) } };
        },
      },
    },
    {
      pattern: ['workitem', 'workitems', '*'],
      auth: true,
      methods: {
        PUT: async (c) => {
          const ids = splitIds(c.params[0]!, 'work item ID');
          const body = await requiredBody(c, '{"moveScheduleDays": 1}');
          const callerId = c.user().id;
          return changed(200, () => applyUpdate(live.data, ids, body, { callerId, edition, now: now() }));
        },
        GET: (c) => outcomeReply(getWorkItems(live.reads(), c.user(), splitIds(c.params[0]!, 'work item ID'), c.query)),
        // A body is not read: the IDs are the whole request.
        DELETE: (c) => {
          const ids = splitIds(c.params[0]!, 'work item ID');
          const callerId = c.user().id;
          return changed(DELETE_ANSWER_STATUS, () => applyDelete(live.data, ids, { callerId, edition, now: now() }));
        },
      },
    },
    {
      pattern: ['workitem', 'workitems', '*', 'subitems'],
      auth: true,
      methods: {
        GET: (c) => outcomeReply(getSubItems(live.reads(), c.user(), decodeSegment(c.params[0]!, 'work item ID'), c.query)),
        POST: async (c) => {
          const parentId = decodeSegment(c.params[0]!, 'work item ID');
          const body = await requiredBody(c, '{"fields": {"ItemTypeId": "…", "Name": "…"}}');
          const callerId = c.user().id;
          return changed(200, () => applyAdd(live.data, parentId, body, { callerId, edition, now: now(), keepMetadata }));
        },
      },
    },
    {
      pattern: ['workitem', 'workitems', '*', 'subitems', 'duplicate'],
      auth: true,
      methods: {
        POST: async (c) => {
          const parentId = decodeSegment(c.params[0]!, 'work item ID');
          const body = await requiredBody(c, '{"fromItemIds": "…"}');
          const callerId = c.user().id;
          return changed(200, () => applyDuplicate(live.data, parentId, body, { callerId, edition, now: now() }));
        },
      },
    },
    {
      pattern: ['project', 'projects'],
      auth: true,
      methods: { GET: (c) => listReply(listProjects(live.reads(), c.user(), c.query)) },
    },
    {
      pattern: ['project', 'projects', '*'],
      auth: true,
      methods: { GET: (c) => outcomeReply(getProjects(live.reads(), c.user(), splitIds(c.params[0]!, 'project ID'), c.query)) },
    },
    {
      pattern: ['system', 'users', 'me'],
      auth: true,
      methods: { GET: (c) => ({ status: 200, body: currentUser(live.reads(), c.user(), 'Password') }) },
    },
    {
      pattern: ['system', 'organizations', '*', 'allassignedusers'],
      auth: true,
      methods: { GET: (c) => listReply(listAllAssignedUsers(live.data, decodeSegment(c.params[0]!, 'organization ID'), c.query)) },
    },
    {
      pattern: ['system', 'organizations', '*', 'users'],
      auth: true,
      methods: { GET: (c) => listReply(listOrganizationUsers(live.data, decodeSegment(c.params[0]!, 'organization ID'), c.query)) },
    },
    {
      pattern: ['system', 'processcategories'],
      auth: true,
      methods: { GET: (c) => listReply(listProcessCategories(live.data, c.query)) },
    },
    // The service's self-description (src/sandbox/catalogue.ts, profile.ts).
    { pattern: ['system', 'fieldtypes'], auth: true, methods: { GET: (c) => outcomeReply(listFieldTypes(live.data, c.query)) } },
    {
      pattern: ['project', 'projects', '*', 'profile'],
      auth: true,
      methods: { GET: (c) => outcomeReply(getProjectProfile(live.data, decodeSegment(c.params[0]!, 'project ID'), c.query, edition)) },
    },
    {
      pattern: ['system', 'organizations', '*', 'suborganizations'],
      auth: true,
      methods: { GET: (c) => outcomeReply(getSubOrganizations(live.data, decodeSegment(c.params[0]!, 'organization ID'), c.query)) },
    },
  ];
}
