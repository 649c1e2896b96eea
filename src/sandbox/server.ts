// The sandbox's HTTP server: a faithful, runnable reference implementation of the
// service in service-api.md, on loopback. No vscode import; no file system access
// at import time (only when a state file is used). This file creates, listens and
// closes; requests go through the router (router.ts) to the API routes
// (apiRoutes.ts) and the control routes (controlRoutes.ts); bodies are read by
// bodyReader.ts and answers written by reply.ts.
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { nullLogger, type Logger } from '../api/logger';
import { TokenStore, TOKEN_LIFETIME_MS } from './auth';
import { demoDataset } from './demo';
import { FaultQueue } from './faults';
import type { Dataset, DatasetInput, Edition } from './model';
import { parseDataset, readDatasetFile, removeLeftoverTempFiles, StateWriter } from './state';
import { ChangeKeeper } from './keeper';
import { answerProtocolRequests, countRequest, unlessRequestArrives } from './protocol';
import { plainErrorJson, plainErrorsFromEnvironment } from './plain';
import { apiRoutes } from './apiRoutes';
import { controlRoutes } from './controlRoutes';
import { LiveData, type RouteEnv } from './live';
import { HttpProblem, sendReply, shapedReply, type Reply } from './reply';
import { createDispatcher } from './router';

export { MAX_JSON_DEPTH, MAX_DRAIN_BYTES, locateJsonError, jsonDepthExceeded } from './bodyReader';
export { MAX_SANDBOX_BODY_BYTES } from './controlRoutes';
export { bindTokenMembers } from './apiRoutes';


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
  /**
   * Keep the `metadata` of an add with the new item and show it in the reads (default true).
   * False: accepted and dropped, nothing checked, kept or shown, as by a service whose help
   * lacks the member (not every copy of the help has it).
   */
  keepMetadata?: boolean;
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
  /** Whether an add's `metadata` is kept and shown (SandboxOptions.keepMetadata). */
  readonly keepMetadata: boolean;
  /** The live data set (for in-process tests and tools; the HTTP API is the contract). */
  readonly data: Dataset;
  close(): Promise<void>;
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** Default time for a request's headers to arrive (docs/sandbox.md: "Limits and timeouts"). */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/** Default time for a request's body to arrive after its headers. */
export const DEFAULT_BODY_TIMEOUT_MS = 30_000;

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

function positiveMs(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`invalid ${name} ${JSON.stringify(value)}: expected a positive number of milliseconds`);
  return value;
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
  const keepMetadata = opts.keepMetadata !== false;

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
  const live = new LiveData(initial, data);
  const tokens = new TokenStore(now, opts.tokenLifetimeMs ?? TOKEN_LIFETIME_MS);
  const faults = new FaultQueue();
  // Changes one at a time, each answered only once saved (src/sandbox/keeper.ts).
  const keeper = new ChangeKeeper(writer, () => live.data, log);
  const env: RouteEnv = { live, keeper, tokens, faults, edition, now, maxBody, keepMetadata };
  const dispatch = createDispatcher({ api: apiRoutes(env), control: controlRoutes(env), live, tokens, faults, log, bodyTimeoutMs });
  const shaped = (url: string | undefined, reply: Reply): Reply => shapedReply(plainErrors, url, reply);
  const send = sendReply;

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
    // Answered in the background; every failure is answered (or the socket closed) in the catch below.
    void dispatch(req, res)
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
        // An error answer is a plain body; should writing it fail all the same, the connection is closed.
        Promise.resolve(send(res, shaped(req.url, reply))).catch((err: unknown) => {
          log.error(`sandbox: ${req.method} ${req.url}: the error answer could not be written: ${err instanceof Error ? err.message : String(err)}`);
          res.destroy();
        });
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
  log.info(`sandbox: listening on ${origin}/api (${edition} edition${plainErrors ? '; plain errors: status and [{"message"}] only' : ''}${keepMetadata ? '' : '; metadata of adds dropped'})`);

  let closing: Promise<void> | undefined;
  return {
    url: `${origin}/api`,
    origin,
    port: addr.port,
    edition,
    plainErrors,
    keepMetadata,
    get data() {
      return live.data;
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

