// The sandbox's HTTP server: a faithful, runnable reference implementation of the
// service in service-api.md, on loopback. No vscode import; no file system access
// at import time (only when a state file is used).
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { TokenRequest } from '../schema/api';
import { nullLogger, type Logger } from '../api/logger';
import { API_KEY_HEADER, authenticate, describeAuthFailure, findUserByCredentials, TokenStore, TOKEN_LIFETIME_MS } from './auth';
import { demoDataset } from './demo';
import { FaultQueue, FaultSpec, type Fault } from './faults';
import { listAllAssignedUsers, listOrganizationUsers, listProcessCategories, Query, type HttpError } from './lists';
import type { Dataset, DatasetInput, Edition, SandboxUser } from './model';
import { DatasetError, formatPath, parseDataset, readDatasetFile, removeLeftoverTempFiles, StateWriter } from './state';
import { showValue, valueAt } from './values';
import { applyUpdate } from './update';
import { currentUser, getProjects, getSubItems, getWorkItems, listProjects, ReadIndex } from './reads';
import { writeTextPieces } from './textStream';
import { datasetJsonPieces } from './datasetJson';
import { ChangeKeeper, type Change, type Kept } from './keeper';
import { afterWaitingInput, answerProtocolRequests, countRequest, unlessRequestArrives } from './protocol';
import { listFieldTypes } from './catalogue';
import { getProjectProfile, getSubOrganizations } from './profile';
import { isSandboxControlPath, plainErrorBody, plainErrorJson, plainErrorsFromEnvironment } from './plain';

export interface SandboxOptions {
  /** Interface to bind; default 127.0.0.1. Only loopback unless `allowRemote`. */
  host?: string;
  /** Port; default 0 (any free port). */
  port?: number;
  /** The data set; default `demoDataset()`. Validated at start. */
  data?: DatasetInput;
  /** Default 'professional'. */
  edition?: Edition;
  /** Persist the data set here: loaded at start when it exists, written after each successful update. */
  statePath?: string;
  logger?: Logger;
  /** Clock for timestamps and token expiry. */
  now?: () => Date;
  /** Allow binding to a non-loopback host. */
  allowRemote?: boolean;
  /** Largest request body accepted on /api routes, in bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** Token lifetime in milliseconds (default 8 hours). */
  tokenLifetimeMs?: number;
  /** A request's headers must arrive within this time after the connection is ready, else a JSON 408 (default 10 s). */
  headersTimeoutMs?: number;
  /** A request's body must arrive within this time after its headers, else a JSON 408 (default 30 s). */
  bodyTimeoutMs?: number;
  /**
   * Answer every failure outside /_sandbox/ with its status and `[{"message"}]` entries only
   * (no code, params, field or anything else), as the official help says a client must be
   * ready for. Default: the environment variable WIS_SANDBOX_PLAIN_ERRORS (src/sandbox/plain.ts), else false.
   */
  plainErrors?: boolean;
}

export interface Sandbox {
  /** Base URL, ending in /api, e.g. http://127.0.0.1:PORT/api */
  readonly url: string;
  /** e.g. http://127.0.0.1:PORT */
  readonly origin: string;
  readonly port: number;
  readonly edition: Edition;
  /** Whether failures are answered with `[{"message"}]` only (SandboxOptions.plainErrors). */
  readonly plainErrors: boolean;
  /** The live data set (for in-process tests and tools; the HTTP API is the contract). */
  readonly data: Dataset;
  close(): Promise<void>;
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** Default time for a request's headers to arrive (README: "Limits and timeouts"). */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/** Default time for a request's body to arrive after its headers. */
export const DEFAULT_BODY_TIMEOUT_MS = 30_000;
/** Deepest nesting of objects and arrays accepted in a JSON body. */
export const MAX_JSON_DEPTH = 64;
/**
 * A body over the limit is still read (and dropped) up to this many bytes, so the
 * client has finished sending and reads the 413; a larger one is answered at once
 * and its connection closed.
 */
export const MAX_DRAIN_BYTES = 64 * 1024 * 1024;
/** Bodies of POST /_sandbox/reset and /_sandbox/faults may be a large data set. */
export const MAX_SANDBOX_BODY_BYTES = 512 * 1024 * 1024;

/**
 * Codes of the error entries the server itself produces (the update engine has its
 * own). Their templates are in src/schema/error-codes.ts; each entry carries the
 * template's `params`.
 */
export const SANDBOX_HTTP_ERROR_CODES = [
  'UNAUTHORIZED',
  'SIGN_IN_FAILED',
  'ROUTE_NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'MALFORMED_JSON',
  'BODY_REQUIRED',
  'BODY_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'INVALID_BODY',
  'INVALID_QUERY_PARAMETER',
  'INVALID_ORDERBY',
  'INVALID_PATH',
  'ID_EMPTY',
  'INVALID_DATASET',
  'WORK_ITEM_NOT_FOUND',
  'WORK_ITEMS_NOT_FOUND',
  'PROJECT_NOT_FOUND',
  'SANDBOX_FAULT',
  'INTERNAL_ERROR',
  'BAD_REQUEST',
  'HEADERS_TOO_LARGE',
  'JSON_TOO_DEEP',
  'HOST_REQUIRED',
  'HEADERS_TIMEOUT',
  'BODY_TIMEOUT',
] as const;

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h) || /^::ffff:127(\.\d{1,3}){3}$/.test(h);
}

class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly entries: HttpError[],
    readonly headers: Record<string, string> = {},
  ) {
    super(entries.map((e) => e.message).join('; '));
  }
}

const problem = (status: number, code: string, message: string, extra: Partial<HttpError> = {}, headers: Record<string, string> = {}) =>
  new HttpProblem(status, [{ message, code, ...extra }], headers);

interface Reply {
  status: number;
  body?: unknown;
  /** The body as JSON text in pieces, made while it is sent (chunked; instead of `body`). */
  stream?: Iterable<string>;
  /** The body as JSON text already made (instead of `body`). */
  json?: string;
  /** The body as UTF-8 JSON already made, in pieces (instead of `body`). */
  bytes?: Buffer[];
  headers?: Record<string, string>;
}

type Handler = (ctx: RequestContext) => Promise<Reply> | Reply;

interface RequestContext {
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

interface Route {
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

function decodeSegment(raw: string, what: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw problem(400, 'INVALID_PATH', `${what} ${JSON.stringify(raw)} is not valid percent-encoding`, { value: raw, params: { value: raw } });
  }
}

/**
 * Offset and description of the first syntax error in `text` (strict JSON), or
 * undefined when none is found. V8's JSON.parse message does not always carry a position.
 */
export function locateJsonError(text: string): { offset: number; problem: string } | undefined {
  let i = 0;
  class Stop {
    constructor(
      readonly offset: number,
      readonly problem: string,
    ) {}
  }
  const fail = (problem: string): never => {
    throw new Stop(i, i >= text.length ? `${problem}, but the text ends` : `${problem}, found ${JSON.stringify(text[i])}`);
  };
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const literal = (word: string) => {
    for (const ch of word) {
      if (text[i] !== ch) fail(`expected ${word}`);
      i++;
    }
  };
  const str = () => {
    i++;
    for (;;) {
      if (i >= text.length) fail('unterminated string: expected "');
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c < 0x20) fail('control character in a string');
      if (c === 0x5c) {
        i++;
        const e = text[i];
        if (e === 'u') {
          for (let k = 1; k <= 4; k++) if (!/[0-9a-fA-F]/.test(text[i + k] ?? '')) ((i += k), fail('expected 4 hex digits after \\u'));
          i += 5;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i++;
        else fail('invalid escape in a string');
      } else i++;
    }
  };
  const digits = () => {
    if (!/[0-9]/.test(text[i] ?? '')) fail('expected a digit');
    while (/[0-9]/.test(text[i] ?? '')) i++;
  };
  const num = () => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else digits();
    if (text[i] === '.') {
      i++;
      digits();
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      digits();
    }
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a member name in double quotes');
        str();
        ws();
        if (text[i] !== ':') fail('expected ":"');
        i++;
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail('expected "," or "}"');
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail('expected "," or "]"');
      }
    }
    if (c === '"') return str();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return num();
    fail('expected a value');
  };
  try {
    value();
    ws();
    if (i < text.length) fail('expected the end of the text');
    return undefined;
  } catch (e) {
    if (e instanceof Stop) return { offset: e.offset, problem: e.problem };
    return undefined; // e.g. nesting too deep for the scanner
  }
}

/**
 * Where a JSON text first nests deeper than `max` objects and arrays, or undefined.
 * A linear scan (strings skipped), run before JSON.parse, so a body of 100,000
 * nested brackets is a clear 400, never a stack overflow in a later recursive step.
 */
export function jsonDepthExceeded(text: string, max: number): { position: number } | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return { position: i };
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return undefined;
}

function jsonParseError(text: string, e: unknown): HttpProblem {
  const msg = e instanceof Error ? e.message : String(e);
  const found = locateJsonError(text);
  const m = /position (\d+)/.exec(msg);
  const pos = found?.offset ?? (m ? Number(m[1]) : undefined);
  if (pos === undefined) return problem(400, 'MALFORMED_JSON', `the request body is not valid JSON: ${msg}`, { params: { line: '?', column: '?', problem: msg } });
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  const column = pos - before.lastIndexOf('\n');
  return problem(400, 'MALFORMED_JSON', `the request body is not valid JSON at line ${line}, column ${column} (position ${pos}): ${found?.problem ?? msg}`, {
    position: pos,
    params: { line, column, position: pos, problem: found?.problem ?? msg },
  });
}

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

function positiveMs(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`invalid ${name} ${JSON.stringify(value)}: expected a positive number of milliseconds`);
  return value;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Starts a sandbox service. Resolves when it is listening. */
export async function createSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const host = opts.host ?? '127.0.0.1';
  if (!opts.allowRemote && !isLoopbackHost(host)) {
    throw new Error(`refusing to bind the sandbox to non-loopback host ${JSON.stringify(host)}: it has no real security; pass allowRemote (CLI: --allow-remote) to insist`);
  }
  const port = opts.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid port ${JSON.stringify(port)}: expected 0 to 65535`);
  const edition: Edition = opts.edition ?? 'professional';
  if (edition !== 'standard' && edition !== 'professional') throw new Error(`invalid edition ${JSON.stringify(edition)}: expected standard or professional`);
  const log = opts.logger ?? nullLogger;
  const now = opts.now ?? (() => new Date());
  const maxBody = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const headersTimeoutMs = positiveMs(opts.headersTimeoutMs, DEFAULT_HEADERS_TIMEOUT_MS, 'headersTimeoutMs');
  const bodyTimeoutMs = positiveMs(opts.bodyTimeoutMs, DEFAULT_BODY_TIMEOUT_MS, 'bodyTimeoutMs');
  const plainErrors = opts.plainErrors ?? plainErrorsFromEnvironment();
  /** A failure answer outside /_sandbox/ with plain errors: the same status and headers, `[{"message"}]` only. */
  const shaped = (url: string | undefined, reply: Reply): Reply => {
    if (!plainErrors || reply.status < 400 || isSandboxControlPath(url)) return reply;
    if (reply.body !== undefined || (reply.json === undefined && reply.bytes === undefined && reply.stream === undefined)) {
      return { status: reply.status, headers: reply.headers, body: plainErrorBody(reply.body) };
    }
    const text = reply.json ?? (reply.bytes ? Buffer.concat(reply.bytes).toString('utf8') : [...reply.stream!].join(''));
    return { status: reply.status, headers: reply.headers, json: plainErrorJson(text) };
  };

  const loadNotes: string[] = [];
  const initial = parseDataset(opts.data ?? demoDataset(), undefined, loadNotes);
  for (const n of loadNotes.splice(0)) log.warn(`sandbox: ${n}`);
  let data: Dataset = structuredClone(initial);
  const writer = opts.statePath ? new StateWriter(opts.statePath) : undefined;
  if (opts.statePath) {
    const removed = await removeLeftoverTempFiles(opts.statePath);
    if (removed.length > 0) log.info(`sandbox: removed ${removed.length} temp file(s) left by an interrupted write of ${opts.statePath}`);
    const saved = await readDatasetFile(opts.statePath, loadNotes);
    if (saved) {
      data = saved;
      log.info(`sandbox: loaded state from ${opts.statePath}`);
      for (const n of loadNotes.splice(0)) log.warn(`sandbox: ${opts.statePath}: ${n}`);
    }
  }
  // Indexes for the read operations: built on the first read, dropped when the data set changes.
  let readIndex: ReadIndex | undefined;
  const reads = (): ReadIndex => {
    if (readIndex?.data !== data) readIndex = new ReadIndex(data);
    return readIndex;
  };
  const splitIds = (raw: string, what: string): string[] => {
    const ids = raw.split(',').map((r) => decodeSegment(r, what));
    const empty = ids.findIndex((id) => id.trim() === '');
    if (empty >= 0) {
      throw problem(400, 'ID_EMPTY', `${what} number ${empty + 1} in the path is empty: separate IDs with single commas`, { value: raw, params: { position: empty + 1 } });
    }
    return ids;
  };
  const outcomeReply = (r: { ok: true; body: unknown; stream?: Iterable<string> } | { ok: false; status: number; errors: HttpError[] }): Reply =>
    r.ok ? { status: 200, body: r.body, stream: r.stream } : { status: r.status, body: r.errors };
  const tokens = new TokenStore(now, opts.tokenLifetimeMs ?? TOKEN_LIFETIME_MS);
  const faults = new FaultQueue();

  // Changes one at a time, each answered only once saved (src/sandbox/keeper.ts).
  const keeper = new ChangeKeeper(writer, () => data, log);
  const keptReply = (k: Kept<Reply>): Reply => (k.ok ? k.value : { status: k.status, body: k.body });

  // -------------------------------------------------------------------------
  // API routes (under /api)
  // -------------------------------------------------------------------------
  const apiRoutes: Route[] = [
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
          const user = findUserByCredentials(data, parsed.data.loginName, parsed.data.password);
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
          const body = await c.readBody(maxBody);
          if (body === undefined) {
            throw problem(400, 'BODY_REQUIRED', 'the request body is empty: send a JSON object, e.g. {"moveScheduleDays": 1}', {
              params: { example: '{"moveScheduleDays": 1}' },
            });
          }
          const callerId = c.user().id;
          return keptReply(
            await keeper.change((): Change<Reply> => {
              const outcome = applyUpdate(data, ids, body, { callerId, edition, now: now() });
              if (!outcome.ok) return { value: { status: outcome.status, body: outcome.errors } };
              readIndex = undefined;
              const undo = () => ((readIndex = undefined), outcome.undo());
              return { value: { status: 200, body: outcome.response }, undo };
            }),
          );
        },
        GET: (c) => outcomeReply(getWorkItems(reads(), c.user(), splitIds(c.params[0]!, 'work item ID'), c.query)),
      },
    },
    {
      pattern: ['workitem', 'workitems', '*', 'subitems'],
      auth: true,
      methods: { GET: (c) => outcomeReply(getSubItems(reads(), c.user(), decodeSegment(c.params[0]!, 'work item ID'), c.query)) },
    },
    {
      pattern: ['project', 'projects'],
      auth: true,
      methods: { GET: (c) => listReply(listProjects(reads(), c.user(), c.query)) },
    },
    {
      pattern: ['project', 'projects', '*'],
      auth: true,
      methods: { GET: (c) => outcomeReply(getProjects(reads(), c.user(), splitIds(c.params[0]!, 'project ID'))) },
    },
    {
      pattern: ['system', 'users', 'me'],
      auth: true,
      methods: { GET: (c) => ({ status: 200, body: currentUser(reads(), c.user(), 'Password') }) },
    },
    {
      pattern: ['system', 'organizations', '*', 'allassignedusers'],
      auth: true,
      methods: { GET: (c) => listReply(listAllAssignedUsers(data, decodeSegment(c.params[0]!, 'organization ID'), c.query)) },
    },
    {
      pattern: ['system', 'organizations', '*', 'users'],
      auth: true,
      methods: { GET: (c) => listReply(listOrganizationUsers(data, decodeSegment(c.params[0]!, 'organization ID'), c.query)) },
    },
    {
      pattern: ['system', 'processcategories'],
      auth: true,
      methods: { GET: (c) => listReply(listProcessCategories(data, c.query)) },
    },
    // The service's self-description (src/sandbox/catalogue.ts, profile.ts).
    { pattern: ['system', 'fieldtypes'], auth: true, methods: { GET: (c) => outcomeReply(listFieldTypes(data, c.query)) } },
    {
      pattern: ['project', 'projects', '*', 'profile'],
      auth: true,
      methods: { GET: (c) => outcomeReply(getProjectProfile(data, decodeSegment(c.params[0]!, 'project ID'), c.query, edition)) },
    },
    {
      pattern: ['system', 'organizations', '*', 'suborganizations'],
      auth: true,
      methods: { GET: (c) => outcomeReply(getSubOrganizations(data, decodeSegment(c.params[0]!, 'organization ID'), c.query)) },
    },
  ];

  // -------------------------------------------------------------------------
  // Sandbox-only routes (under /_sandbox, no auth: loopback only)
  // -------------------------------------------------------------------------
  const sandboxRoutes: Route[] = [
    {
      pattern: ['workitems', '*'],
      auth: false,
      methods: {
        GET: (c) => {
          const id = decodeSegment(c.params[0]!, 'work item ID');
          const item = data.workItems.find((w) => w.id === id);
          if (!item) throw problem(404, 'WORK_ITEM_NOT_FOUND', `no work item with ID ${JSON.stringify(id)}`, { params: { id } });
          return { status: 200, body: item };
        },
      },
    },
    // Streamed (never one string): a 1,000,000-item data set dumps too.
    { pattern: ['dump'], auth: false, methods: { GET: () => ({ status: 200, stream: datasetJsonPieces(data) }) } },
    {
      pattern: ['reset'],
      auth: false,
      methods: {
        POST: async (c) => {
          const body = await c.readBody(MAX_SANDBOX_BODY_BYTES);
          let next: Dataset;
          if (body === undefined) next = structuredClone(initial);
          else {
            try {
              next = parseDataset(body);
            } catch (e) {
              if (e instanceof DatasetError) {
                throw new HttpProblem(
                  400,
                  e.problems.map((p) => ({ message: p, code: 'INVALID_DATASET', params: { problem: p } })),
                );
              }
              throw e;
            }
          }
          return keptReply(
            await keeper.change((): Change<Reply> => {
              const before = data;
              data = next;
              readIndex = undefined;
              const counts = { users: data.users.length, organizations: data.organizations.length, workItems: data.workItems.length, processCategories: data.processCategories.length };
              return { value: { status: 200, body: { reset: true, ...counts } }, undo: () => ((data = before), (readIndex = undefined)) };
            }),
          );
        },
      },
    },
    {
      pattern: ['faults'],
      auth: false,
      methods: {
        GET: () => ({ status: 200, body: faults.pending() }),
        POST: async (c) => {
          const body = await c.readBody(maxBody);
          const parsed = FaultSpec.safeParse(body ?? {});
          if (!parsed.success) {
            throw new HttpProblem(
              400,
              parsed.error.issues.map((i) => ({
                message: `${formatPath(i.path)}: ${i.message}`,
                code: 'INVALID_BODY',
                field: formatPath(i.path),
                params: { field: formatPath(i.path), problem: i.message },
              })),
            );
          }
          const f = faults.add(parsed.data);
          return { status: 200, body: { queued: f, pending: faults.pending().length } };
        },
        DELETE: () => {
          faults.clear();
          return { status: 200, body: { cleared: true } };
        },
      },
    },
  ];

  // -------------------------------------------------------------------------
  // Request handling
  // -------------------------------------------------------------------------
  /**
   * Writes a streamed answer: an answer that ends within its first 64 Ki characters
   * goes out as one body with Content-Length, like every other answer; a longer one
   * is written chunked as it is made (writeTextPieces: encoded once into a few
   * reused blocks, waiting whenever the socket is full).
   */
  const sendStream = async (res: http.ServerResponse, reply: Reply & { stream: Iterable<string> }): Promise<void> => {
    const pieces = reply.stream[Symbol.iterator]();
    const pending: string[] = [];
    let size = 0;
    let p = pieces.next();
    for (; !p.done; p = pieces.next()) {
      pending.push(p.value);
      size += p.value.length;
      if (size >= 65_536) break;
    }
    if (p.done) return send(res, { status: reply.status, headers: reply.headers, json: pending.join('') });
    res.writeHead(reply.status, { 'Content-Type': 'application/json; charset=utf-8', ...(reply.headers ?? {}) });
    await writeTextPieces(res, pieces, pending);
  };

  const send = (res: http.ServerResponse, reply: Reply): void | Promise<void> => {
    if (reply.stream) return sendStream(res, { ...reply, stream: reply.stream });
    let length = 0;
    for (const b of reply.bytes ?? []) length += b.length;
    if (reply.bytes && length > 256 * 1024) {
      // Kept pieces of a large answer: their lengths add up to the body's; copied to the socket through a few reused blocks.
      res.writeHead(reply.status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(length), ...(reply.headers ?? {}) });
      return writeTextPieces(res, reply.bytes[Symbol.iterator]());
    }
    // One UTF-8 encoding pass: the buffer gives the length and is what is written.
    const bytes = reply.bytes ? Buffer.concat(reply.bytes, length) : Buffer.from(reply.json ?? (reply.body === undefined ? '' : JSON.stringify(reply.body)), 'utf8');
    res.writeHead(reply.status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(bytes.length),
      ...(reply.headers ?? {}),
    });
    res.end(bytes);
  };

  /**
   * Reads a request body up to `limit` bytes. Over the limit, the rest is read and
   * dropped (up to MAX_DRAIN_BYTES) before the 413 is answered, so a client still
   * uploading reads the answer instead of a reset; the connection is closed after it.
   * A body that has not arrived `bodyTimeoutMs` after its headers is a 408.
   */
  const readRaw = async (req: http.IncomingMessage, limit: number): Promise<Buffer> => {
    const declared = Number(req.headers['content-length'] ?? NaN);
    const tooLarge = (size?: number) =>
      problem(
        413,
        'BODY_TOO_LARGE',
        size !== undefined ? `the request body (${size} bytes) is larger than the limit of ${limit} bytes` : `the request body is larger than the limit of ${limit} bytes`,
        { params: size !== undefined ? { limit, size } : { limit } },
        { Connection: 'close' },
      );
    if (Number.isFinite(declared) && declared > Math.max(limit, MAX_DRAIN_BYTES)) throw tooLarge(declared);
    return new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let over = Number.isFinite(declared) && declared > limit;
      // After the input already waiting is read: a body that came while the sandbox was busy is no timeout.
      const timer = setTimeout(() => afterWaitingInput(() => {
        const seconds = Math.round(bodyTimeoutMs / 100) / 10;
        finish(() => reject(problem(408, 'BODY_TIMEOUT', `the request body did not arrive within ${seconds} seconds`, { params: { seconds } }, { Connection: 'close' })));
      }), bodyTimeoutMs);
      let done = false;
      const finish = (then: () => void) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        then();
      };
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (!over && size > limit) {
          over = true;
          chunks.length = 0;
        }
        if (over) {
          // Dropped; past the drain bound, answer now and close.
          if (size > MAX_DRAIN_BYTES) finish(() => reject(tooLarge()));
          return;
        }
        chunks.push(chunk);
      });
      req.on('end', () => finish(() => (over ? reject(tooLarge(Number.isFinite(declared) ? declared : size)) : resolve(Buffer.concat(chunks)))));
      req.on('error', (e) => finish(() => reject(e)));
    });
  };

  const readFormOf = (req: http.IncomingMessage) => async (limit: number): Promise<Record<string, string> | undefined> => {
    const text = (await readRaw(req, limit)).toString('utf8');
    if (text.trim() === '') return undefined;
    const out: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const [k, v] of new URLSearchParams(text)) {
      if (Object.prototype.hasOwnProperty.call(out, k)) {
        const problemText = 'the member is given twice in the form';
        throw problem(400, 'INVALID_BODY', `${k}: ${problemText}`, { field: k, params: { field: k, problem: problemText } });
      }
      out[k] = v;
    }
    return { ...out };
  };

  const readBodyOf = (req: http.IncomingMessage) => async (limit: number): Promise<unknown> => {
    const raw = await readRaw(req, limit);
    const size = raw.length;
    if (size === 0) return undefined;
    const type = req.headers['content-type'];
    if (type !== undefined && !/json/i.test(type)) {
      throw problem(415, 'UNSUPPORTED_MEDIA_TYPE', `the request body must be JSON (Content-Type: application/json), got Content-Type ${JSON.stringify(type)}`, {
        params: { contentType: type },
      });
    }
    let text = raw.toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (text.trim() === '') return undefined;
    const deep = jsonDepthExceeded(text, MAX_JSON_DEPTH);
    if (deep) {
      throw problem(400, 'JSON_TOO_DEEP', `the request body nests more than ${MAX_JSON_DEPTH} levels deep (at position ${deep.position}); at most ${MAX_JSON_DEPTH} levels are accepted`, {
        position: deep.position,
        params: { max: MAX_JSON_DEPTH, position: deep.position },
      });
    }
    try {
      return JSON.parse(text);
    } catch (e) {
      throw jsonParseError(text, e);
    }
  };

  const dispatch = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<{ reply?: Reply; fault?: Fault }> => {
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
      const r = authenticate(req.headers.authorization, data, tokens, req.headers[API_KEY_HEADER]);
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
      readBody: readBodyOf(req),
      readForm: readFormOf(req),
      user: () => {
        if (!user) throw new Error('route without sign-in asked for the user');
        return user;
      },
    });
    void res;
    return { reply, fault };
  };

  const server = http.createServer(
    {
      maxHeaderSize: 64 * 1024,
      // Answered by the sandbox itself (a JSON 400), not by Node's empty one.
      requireHostHeader: false,
      // How often Node checks the headers timeout: a stalled request is cut off promptly.
      connectionsCheckingInterval: Math.max(20, Math.min(1000, Math.floor(headersTimeoutMs / 4))),
    },
    (req, res) => {
    countRequest(req.socket);
    const started = performance.now();
    dispatch(req, res)
      .then(({ reply, fault }) => {
        if (fault?.dropAfterApply) {
          req.socket.destroy();
          log.debug(`sandbox: ${req.method} ${req.url} -> dropped after apply`);
          return;
        }
        if (!reply) return;
        return Promise.resolve(send(res, shaped(req.url, reply))).then(() =>
          log.debug(`sandbox: ${req.method} ${req.url} -> ${reply.status} (${Math.round(performance.now() - started)} ms)`),
        );
      })
      .catch((e: unknown) => {
        let reply: Reply;
        if (e instanceof HttpProblem) reply = { status: e.status, body: e.entries, headers: e.headers };
        else {
          log.error(`sandbox: ${req.method} ${req.url} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
          const detail = e instanceof Error ? e.message : String(e);
          reply = { status: 500, body: [{ message: `internal sandbox error: ${detail}`, code: 'INTERNAL_ERROR', params: { detail } }] };
        }
        if (res.headersSent || res.destroyed) {
          res.destroy();
          return;
        }
        send(res, shaped(req.url, reply));
        // The body was read (or is past the drain bound): close after the answer, not before it.
        if (reply.status === 413 || reply.status === 408 || reply.headers?.Connection === 'close') res.on('finish', () => req.socket.end());
        log.debug(`sandbox: ${req.method} ${req.url} -> ${reply.status} (${Math.round(performance.now() - started)} ms)`);
      });
    },
  );
  answerProtocolRequests(server, plainErrors);
  server.keepAliveTimeout = 5000;
  server.headersTimeout = headersTimeoutMs;
  // Bodies have their own timeout (bodyTimeoutMs, a JSON 408 from readRaw).
  server.requestTimeout = 0;
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || err.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    let text: string;
    let status: number;
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      status = 408;
      const seconds = Math.round(headersTimeoutMs / 100) / 10;
      text = JSON.stringify([{ message: `the request headers did not arrive within ${seconds} seconds`, code: 'HEADERS_TIMEOUT', params: { seconds } }]);
    } else {
      status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
      text = JSON.stringify([
        { message: `bad request: ${err.message}`, code: status === 431 ? 'HEADERS_TOO_LARGE' : 'BAD_REQUEST', params: { detail: err.message } },
      ]);
    }
    // A request the parser refused has no trustworthy path: with plain errors its answer is plain too.
    if (plainErrors) text = plainErrorJson(text);
    const answer = `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`;
    // Headers that came while the sandbox was busy are no timeout (protocol.ts).
    if (status === 408) unlessRequestArrives(socket, () => socket.writable && socket.end(answer));
    else socket.end(answer);
  });
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException) => {
      reject(new Error(`the sandbox could not listen on ${host}:${port}: ${e.code === 'EADDRINUSE' ? 'the port is in use' : e.message}`));
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  server.on('error', (e) => log.error(`sandbox: server error: ${e.message}`));

  const addr = server.address() as AddressInfo;
  let shownHost = addr.address;
  if (shownHost === '0.0.0.0') shownHost = '127.0.0.1';
  else if (shownHost === '::') shownHost = '::1';
  const origin = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${addr.port}`;
  log.info(`sandbox: listening on ${origin}/api (${edition} edition${plainErrors ? '; plain errors: status and [{"message"}] only' : ''})`);

  let closing: Promise<void> | undefined;
  return {
    url: `${origin}/api`,
    origin,
    port: addr.port,
    edition,
    plainErrors,
    get data() {
      return data;
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const s of sockets) s.destroy();
      }).then(() => keeper.idle());
      return closing;
    },
  };
}

function listReply(r: ReturnType<typeof listProcessCategories> | ReturnType<typeof listAllAssignedUsers> | ReturnType<typeof listProjects>): Reply {
  if (!r.ok) return { status: r.status, body: r.errors };
  return 'bytes' in r && r.bytes !== undefined ? { status: 200, bytes: r.bytes } : { status: 200, body: r.body };
}
