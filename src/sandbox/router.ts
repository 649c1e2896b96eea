// The sandbox's router: the route tables of /api and /_sandbox/, matching a path to
// a route (404 when none, 405 with Allow when the method is not one of the route's),
// the faults queued for /api, signing in, and the context a handler is given. No
// vscode import.
import type * as http from 'node:http';
import type { Logger } from '../api/logger';
import { API_KEY_HEADER, authenticate, describeAuthFailure, type TokenStore } from './auth';
import type { FaultQueue, Fault } from './faults';
import type { Kept } from './keeper';
import { Query } from './lists';
import type { LiveData } from './live';
import type { SandboxUser } from './model';
import { readBodyOf, readFormOf } from './bodyReader';
import { problem, type Reply } from './reply';

export type Handler = (ctx: RequestContext) => Promise<Reply> | Reply;

export interface RequestContext {
  req: http.IncomingMessage;
  /** Path segments after the route prefix, decoded where the route needs it. */
  params: string[];
  query: Query;
  /** Raw path from the origin (no query). */
  path: string;
  readBody: (limit: number) => Promise<unknown>;
  /** A form-encoded body (`application/x-www-form-urlencoded`) as an object of strings; undefined when empty. */
  readForm: (limit: number) => Promise<Record<string, string> | undefined>;
  user: () => SandboxUser;
}

export interface Route {
  /** Lower-case literal segments; `*` matches one segment (its raw text goes to params). */
  pattern: string[];
  methods: Record<string, Handler>;
  auth: boolean;
}

function matchRoute(routes: readonly Route[], segs: readonly string[]): { route: Route; params: string[] } | undefined {
  outer: for (const route of routes) {
    if (route.pattern.length !== segs.length) continue;
    const params: string[] = [];
    for (let i = 0; i < segs.length; i++) {
      const p = route.pattern[i]!;
      if (p === '*') params.push(segs[i]!);
      else if (p !== segs[i]!.toLowerCase()) continue outer;
    }
    return { route, params };
  }
  return undefined;
}

export function decodeSegment(raw: string, what: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw problem(400, 'INVALID_PATH', `${what} ${JSON.stringify(raw)} is not valid percent-encoding`, { value: raw, params: { value: raw } });
  }
}

/** The IDs of a comma-separated path segment, each decoded; an empty one is a 400. */
export function splitIds(raw: string, what: string): string[] {
  const ids = raw.split(',').map((r) => decodeSegment(r, what));
  const empty = ids.findIndex((id) => id.trim() === '');
  if (empty >= 0) {
    throw problem(400, 'ID_EMPTY', `${what} number ${empty + 1} in the path is empty: separate IDs with single commas`, { value: raw, params: { position: empty + 1 } });
  }
  return ids;
}

/** The answer of a change the keeper made (its reply), or of one it could not keep. */
export const keptReply = (k: Kept<Reply>): Reply => (k.ok ? k.value : { status: k.status, body: k.body });

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export interface DispatchOptions {
  /** Routes under /api. */
  api: Route[];
  /** Sandbox-only routes under /_sandbox/ (no sign-in: loopback only). */
  control: Route[];
  live: LiveData;
  tokens: TokenStore;
  faults: FaultQueue;
  log: Logger;
  bodyTimeoutMs: number;
}

/**
 * The dispatcher: a request's route, then (under /api) a queued fault, then sign-in,
 * then the route's handler. Throws an HttpProblem for a request it refuses; no
 * reply when a fault dropped the connection.
 */
export function createDispatcher(o: DispatchOptions): (req: http.IncomingMessage, res: http.ServerResponse) => Promise<{ reply?: Reply; fault?: Fault }> {
  const { faults, log, tokens, bodyTimeoutMs } = o;
  const apiRoutes = o.api;
  const sandboxRoutes = o.control;

  return async (req: http.IncomingMessage, res: http.ServerResponse): Promise<{ reply?: Reply; fault?: Fault }> => {
    if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1) {
      throw problem(400, 'HOST_REQUIRED', 'the request has no Host header, which HTTP/1.1 requires', { params: {} }, { Connection: 'close' });
    }
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
    const query = new Query(new URLSearchParams(q < 0 ? '' : rawUrl.slice(q + 1)));
    const segs = path.split('/').slice(1);
    if (segs.length > 1 && segs[segs.length - 1] === '') segs.pop();
    const method = (req.method ?? 'GET').toUpperCase();
    const top = (segs[0] ?? '').toLowerCase();
    const notFound = () =>
      problem(404, 'ROUTE_NOT_FOUND', `no such route: ${method} ${path} (the API is under /api, e.g. /api/system/processCategories; sandbox-only endpoints are under /_sandbox/)`, { path, params: { method, path } });

    let routes: Route[];
    let fault: Fault | undefined;
    if (top === 'api') routes = apiRoutes;
    else if (top === '_sandbox') routes = sandboxRoutes;
    else throw notFound();
    const found = matchRoute(routes, segs.slice(1));
    if (!found) throw notFound();
    const handler = found.route.methods[method];
    if (!handler) {
      const allow = Object.keys(found.route.methods).join(', ');
      throw problem(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}; allowed: ${allow}`, { path, params: { method, path, allowed: allow } }, { Allow: allow });
    }

    if (top === 'api') {
      fault = faults.take(method, path);
      if (fault) {
        log.debug(`sandbox: fault for ${method} ${path}: ${JSON.stringify(fault)}`);
        if (fault.latencyMs) await sleep(fault.latencyMs);
        if (fault.dropBeforeApply) {
          req.socket.destroy();
          return {};
        }
        if (fault.status !== undefined || fault.retryAfterSeconds !== undefined) {
          const status = fault.status ?? 429;
          const headers: Record<string, string> = fault.retryAfterSeconds !== undefined ? { 'Retry-After': String(fault.retryAfterSeconds) } : {};
          return { reply: { status, body: [{ message: `injected fault: status ${status}`, code: 'SANDBOX_FAULT', params: { status } }], headers }, fault };
        }
      }
    }

    let user: SandboxUser | undefined;
    if (found.route.auth) {
      const r = authenticate(req.headers.authorization, o.live.data, tokens, req.headers[API_KEY_HEADER]);
      if (!r.ok) {
        throw problem(401, 'UNAUTHORIZED', describeAuthFailure(r.reason), { params: { reason: r.reason } }, { 'WWW-Authenticate': 'Bearer realm="sandbox", Basic realm="sandbox", charset="UTF-8"' });
      }
      user = r.user;
    }
    const reply = await handler({
      req,
      params: found.params,
      query,
      path,
      readBody: readBodyOf(req, bodyTimeoutMs),
      readForm: readFormOf(req, bodyTimeoutMs),
      user: () => {
        if (!user) throw new Error('route without sign-in asked for the user');
        return user;
      },
    });
    void res;
    // Applied; the answer comes late (a client that gives up first does not know it was).
    if (fault?.answerDelayMs) await sleep(fault.answerDelayMs);
    // Applied, then answered as a gateway that forwarded it would answer.
    if (fault?.statusAfterApply !== undefined) {
      const status = fault.statusAfterApply;
      return { reply: { status, body: [{ message: `injected fault: status ${status}`, code: 'SANDBOX_FAULT', params: { status } }] }, fault };
    }
    return { reply, fault };
  };
}
