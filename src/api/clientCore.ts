// The core of the service client: one undici dispatcher (a connection pool) per service
// origin, the options, and the one way a request is prepared, sent, logged and its answer
// checked (`request`). The calls are in the classes built on it (src/api/workItemChanges.ts,
// src/api/client.ts). No vscode import.
//
// Never logged and never put into an error: a token, a password, an
// Authorization header, a request body.
import { Agent, type Dispatcher } from 'undici';
import type { z } from 'zod';
import { ServiceError } from './errors';
import type { ProxyEndpoint } from './http';
import { applyAuthorization, authorize, type Authorization, type Credentials } from './auth';
import { httpError, invalidRequest, notPrepared, transportError, zodMessages } from './failures';
import { exchange, type Method, type RawResponse } from './transport';
import { readAnswer } from './answers';
import { nullLogger, type Logger } from './logger';
import { buildUrl, InvalidPathError, parseBaseUrl, type BaseUrl, WORK_ITEMS_PATH_PREFIX } from './paths';
import { proxyEndpointsOf } from './dispatcher-info';

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

export interface RequestSpec<T> {
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

/** What every client has: its options, its dispatcher and `request`. */
export class ClientCore {
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

  /** Closes the client's own connection pool (a given dispatcher is left to its owner). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  // -------------------------------------------------------------------------

  protected path(method: Method, shown: string, build: () => string): string {
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
  protected prepare<T>(method: Method, path: string, step: () => T): T {
    try {
      return step();
    } catch (e) {
      throw notPrepared(method, path, e);
    }
  }

  protected async prepareAsync<T>(method: Method, path: string, step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (e) {
      throw notPrepared(method, path, e);
    }
  }

  protected query<T extends Record<string, unknown>>(method: Method, path: string, schema: z.ZodType<T>, q: unknown): URLSearchParams {
    const checked = schema.safeParse(q ?? {});
    if (!checked.success) throw invalidRequest(method, path, zodMessages(checked.error, 'query'));
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(checked.data)) if (v !== undefined) params.append(k, String(v));
    return params;
  }

  protected async request<T>(spec: RequestSpec<T>, o?: CallOptions): Promise<T> {
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
        else
          this.logger.warn(
            `${method} ${logPath} failed after ${ms} ms: ${err.kind}${err.code ? ` ${err.code}` : ''}${err.reason ? ` (${err.reason})` : ''} [request ${payload?.length ?? 0} B]`,
          );
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
}

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
