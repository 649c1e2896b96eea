// A dispatcher that sends each request with a fetch function instead of sockets of its own.
// In VS Code that function is the extension host's global fetch, which VS Code patches with
// its network support (the proxy of `http.proxy`, the system or a PAC file, proxy sign-in,
// the system's certificates); undici's own agents bypass all of it. It serves `exchange`
// (./transport): the answer's status, headers and body chunks go to the handler as they
// arrive, so the size cap, streamed list decoding, cancelling and both timeouts work as
// with an undici Agent. No vscode import.
//
// fetch hides the connect step, so whether a failed request may have reached the service is
// read from the error: only an error that proves nothing left (connection refused, a name
// that does not resolve, a TLS handshake or certificate failure, a proxy that refused the
// tunnel or asked for sign-in) makes it "not sent"; any other failure may have been sent.
import { errors, type Dispatcher } from 'undici';
import { PromiseDispatcher } from './dispatcher-base';
import { registerProxyEndpoints } from './dispatcher-info';
import { classifyTransportError, errorChain, type ProxyEndpoint } from './http';

/** What the dispatcher hands to the fetch function (a subset of fetch's RequestInit). */
export interface FetchRequest {
  method: string;
  headers: [string, string][];
  body?: Uint8Array;
  /** A redirect is the service's answer, as with undici: never followed. */
  redirect: 'manual';
  signal: AbortSignal;
}

/** What the dispatcher reads of fetch's Response. */
export interface FetchAnswer {
  status: number;
  statusText?: string;
  headers: { forEach(f: (value: string, name: string) => void): void; getSetCookie?(): string[] };
  body: ReadableStream<Uint8Array> | null;
}

export type FetchFunction = (url: string, init: FetchRequest) => Promise<FetchAnswer>;

export interface FetchDispatcherOptions {
  /** Proxies the requests may go through (from the proxy settings), so a refused connection to one is named a proxy problem. */
  proxies?: readonly ProxyEndpoint[];
}

/** The handler style `exchange` uses (undici's callbacks), plus the "never left" notice. */
interface ExchangeHandler {
  onConnect?(abort: (err?: Error) => void): void;
  onHeaders?(status: number, headers: Buffer[], resume: () => void, statusText: string): boolean;
  onData?(chunk: Buffer): boolean;
  onComplete?(trailers: Buffer[] | null): void;
  onError?(err: Error): void;
  /** Called before onError when the failure proves nothing of the request left. */
  onRequestNotSent?(): void;
}

/** undici's defaults when a request names no timeout (0 turns one off). */
const DEFAULT_HEADERS_TIMEOUT_MS = 300_000;
const DEFAULT_BODY_TIMEOUT_MS = 300_000;

/**
 * True when a failure of fetch proves the request never left this machine: the connection,
 * the name lookup, the TLS handshake or the proxy's tunnel failed. Anything else (a reset,
 * a close, a timeout, an unknown error) may have come after the request was written.
 */
export function provesNotSent(err: unknown): boolean {
  // Classified as if written: what is still a connect failure cannot have come later.
  if (classifyTransportError(err, true).kind === 'connect') return true;
  // A TLS protocol failure (wrong version, handshake timeout) only happens before the request.
  if (classifyTransportError(err, false).reason === 'tls-protocol') return true;
  return errorChain(err).some((e) => {
    const syscall = (e as { syscall?: unknown }).syscall;
    // `bad port`: fetch refuses the ports of the fetch standard's block list before connecting.
    return syscall === 'connect' || syscall === 'getaddrinfo' || e.message === 'bad port';
  });
}

/** Sends requests through a fetch function (see the top of this file). Closing it waits for the requests under way. */
export class FetchDispatcher extends PromiseDispatcher {
  private readonly live = new Set<(err: Error) => void>();
  private readonly idle: (() => void)[] = [];
  private closed = false;
  private destroyed = false;

  constructor(
    private readonly fetchFn: FetchFunction,
    options: FetchDispatcherOptions = {},
  ) {
    super();
    if (options.proxies && options.proxies.length > 0) registerProxyEndpoints(this, options.proxies);
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const h = handler as ExchangeHandler;
    let url: string;
    let body: Uint8Array | undefined;
    try {
      if (this.destroyed) throw new errors.ClientDestroyedError();
      if (this.closed) throw new errors.ClientClosedError();
      // Joined as text: a path starting with `//` must not name another host.
      url = new URL(`${String(options.origin ?? '').replace(/\/+$/, '')}${options.path}`).href;
      body = requestBody(options.body);
    } catch (e) {
      // Refused before fetch was called: nothing left.
      queueMicrotask(() => {
        h.onRequestNotSent?.();
        h.onError?.(asError(e));
      });
      return false;
    }
    void this.send(url, body, options, h);
    return true;
  }

  private async send(url: string, body: Uint8Array | undefined, options: Dispatcher.DispatchOptions, h: ExchangeHandler): Promise<void> {
    const controller = new AbortController();
    // Why this side stopped the request (a timeout, the caller, the size cap); reported instead of fetch's AbortError.
    let stopped: Error | undefined;
    const abort = (err?: Error) => {
      if (controller.signal.aborted) return;
      stopped ??= err ?? new errors.RequestAbortedError();
      controller.abort(stopped);
    };
    let errorReported = false;
    const reportError = (e: unknown, beforeAnswer: boolean) => {
      if (errorReported) return;
      errorReported = true;
      const err = stopped ?? asError(e);
      if (beforeAnswer && stopped === undefined && provesNotSent(err)) h.onRequestNotSent?.();
      h.onError?.(err);
    };
    this.live.add(abort);
    const timer = new Timer();
    try {
      // Handed to fetch: from here on the request may reach the service.
      h.onConnect?.(abort);
      if (controller.signal.aborted) return reportError(stopped, true);
      timer.arm(options.headersTimeout ?? DEFAULT_HEADERS_TIMEOUT_MS, () => abort(new errors.HeadersTimeoutError()));
      let answer: FetchAnswer;
      try {
        answer = await this.fetchFn(url, { method: options.method, headers: requestHeaders(options.headers), body, redirect: 'manual', signal: controller.signal });
      } catch (e) {
        return reportError(e, true);
      }
      timer.clear();
      const reader = answer.body?.getReader();
      // Also for a fetch that does not end the body when its signal aborts: the read is cancelled here.
      const cancel = () => void reader?.cancel(stopped).catch(() => undefined);
      if (controller.signal.aborted) {
        cancel();
        return reportError(stopped, false);
      }
      controller.signal.addEventListener('abort', cancel, { once: true });
      h.onHeaders?.(answer.status, responseHeaders(answer.headers), () => undefined, answer.statusText ?? '');
      const bodyTimeout = options.bodyTimeout ?? DEFAULT_BODY_TIMEOUT_MS;
      try {
        for (;;) {
          if (!reader || controller.signal.aborted) break;
          timer.arm(bodyTimeout, () => abort(new errors.BodyTimeoutError()));
          const { done, value } = await reader.read();
          if (done || controller.signal.aborted) break;
          if (value.byteLength > 0) h.onData?.(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
        }
      } catch (e) {
        return reportError(e, false);
      }
      timer.clear();
      if (controller.signal.aborted) return reportError(stopped, false);
      h.onComplete?.([]);
    } catch (e) {
      // A handler that threw: the request stops, and the handler hears of it once.
      abort(asError(e));
      reportError(e, false);
    } finally {
      timer.clear();
      this.live.delete(abort);
      if (this.live.size === 0) for (const done of this.idle.splice(0)) done();
    }
  }

  protected override closeAll(): Promise<void> {
    this.closed = true;
    return this.live.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => this.idle.push(resolve));
  }

  protected override destroyAll(err: Error | null): Promise<void> {
    this.destroyed = true;
    const p = this.closeAll();
    for (const abort of [...this.live]) abort(err ?? new errors.ClientDestroyedError());
    return p;
  }
}

/** One timer at a time (the answer's headers, then the wait for each body chunk). */
class Timer {
  private handle: ReturnType<typeof setTimeout> | undefined;

  arm(ms: number, fire: () => void): void {
    this.clear();
    if (ms > 0 && Number.isFinite(ms)) this.handle = setTimeout(fire, ms);
  }

  clear(): void {
    if (this.handle !== undefined) clearTimeout(this.handle);
    this.handle = undefined;
  }
}

function asError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}

/** The request body as bytes; a stream or form is not something the client sends. */
function requestBody(body: Dispatcher.DispatchOptions['body']): Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return body;
  throw new errors.InvalidArgumentError('the fetch dispatcher sends a body of bytes or text only');
}

/** Request headers as name/value pairs (a record, a flat list or pairs, as undici takes them). */
function requestHeaders(headers: Dispatcher.DispatchOptions['headers']): [string, string][] {
  const out: [string, string][] = [];
  const put = (name: unknown, value: unknown) => {
    if (value === undefined || value === null) return;
    for (const v of Array.isArray(value) ? value : [value]) out.push([String(name), String(v)]);
  };
  if (!headers) return out;
  if (Array.isArray(headers)) {
    if (headers.length > 0 && Array.isArray(headers[0])) for (const [k, v] of headers as unknown as [string, unknown][]) put(k, v);
    else for (let i = 0; i + 1 < headers.length; i += 2) put(headers[i], headers[i + 1]);
  } else if (typeof (headers as Iterable<unknown>)[Symbol.iterator] === 'function') {
    for (const [k, v] of headers as Iterable<[string, unknown]>) put(k, v);
  } else for (const [k, v] of Object.entries(headers)) put(k, v);
  return out;
}

/**
 * The answer's headers as undici's raw list. fetch has already decoded a compressed body,
 * so the encoding and the length of the encoded body are left out: they no longer describe it.
 */
function responseHeaders(headers: FetchAnswer['headers']): Buffer[] {
  const pairs: [string, string][] = [];
  headers.forEach((value, name) => {
    if (name.toLowerCase() !== 'set-cookie') pairs.push([name, value]);
  });
  for (const cookie of headers.getSetCookie?.() ?? []) pairs.push(['set-cookie', cookie]);
  const encoding = pairs.find(([n]) => n.toLowerCase() === 'content-encoding')?.[1].trim().toLowerCase();
  const decoded = encoding !== undefined && encoding !== '' && encoding !== 'identity';
  return pairs
    .filter(([n]) => !decoded || (n.toLowerCase() !== 'content-encoding' && n.toLowerCase() !== 'content-length'))
    .flatMap(([n, v]) => [Buffer.from(n, 'latin1'), Buffer.from(v, 'latin1')]);
}
