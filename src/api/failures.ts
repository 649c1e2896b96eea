// The mapping of what went wrong to the client's one error type (ServiceError): a
// request refused before sending, a non-2xx answer, a transport failure (connect,
// reset, timeout, cancel, an answer over the size cap), a zod check. No vscode
// import, no I/O.
//
// Never put into an error: a token, a password, an Authorization header, a request body.
import type { z } from 'zod';
import { ServiceError, type ServiceErrorInit } from './errors';
import { classifyTransportError, parseErrorBodyWithEntries, parseRetryAfter, type ProxyEndpoint } from './http';

/** Refused before sending (bad ID, query, body or credentials): kind `invalid-request`, `sent: false`. */
export function invalidRequest(method: string, path: string, messages: string[], code?: string): ServiceError {
  return new ServiceError({ kind: 'invalid-request', method, path, messages, code });
}

/**
 * A step of preparing a request failed (before anything was sent): a ServiceError
 * passes through; anything else becomes an `invalid-request` ServiceError with
 * `sent: false` (code REQUEST_NOT_PREPARED), so a caller (the bulk engine) knows for
 * certain the request never left, and never reads an unexpected exception as
 * "outcome unknown".
 */
export function notPrepared(method: string, path: string, e: unknown): ServiceError {
  if (e instanceof ServiceError) return e;
  const detail = e instanceof Error ? e.message : String(e);
  return new ServiceError({ kind: 'invalid-request', method, path, messages: [`the request could not be prepared, so it was not sent: ${detail}`], code: 'REQUEST_NOT_PREPARED', sent: false });
}

/** zod issues as `where: what` lines naming the member path (`response.data[3].name: ...`). */
export function zodMessages(error: z.ZodError, root: string): string[] {
  return error.issues.slice(0, 20).map((i) => {
    const where = i.path.reduce<string>((acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : `${acc}.${String(p)}`), root);
    return `${where}: ${i.message}`;
  });
}

/** A non-2xx answer: its status, what its body says (every string redacted of `secrets` first), and its Retry-After. */
export function httpError(
  method: string,
  path: string,
  res: { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer },
  secrets: string[],
): ServiceError {
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

const SENT = Symbol('sent');
const CAUSE = Symbol('cause');
/** On the error of an answer over the size cap: the answer's status. */
const TOO_LARGE = Symbol('tooLarge');

/** A failure of the transport, with whether anything of the request had been written: what the dispatch rejects with. */
export function transportFailure(sent: boolean, err: unknown): object {
  return { [SENT]: sent, [CAUSE]: err };
}

/** The error that stops reading an answer over the size cap (`status`: the answer's). */
export function responseTooLarge(status: number): Error {
  return Object.assign(new Error('response too large'), { code: 'UND_ERR_RES_EXCEEDED_MAX_SIZE', [TOO_LARGE]: status });
}

/**
 * What a failed dispatch (see transportFailure) means for the caller: cancelled, an
 * answer over `maxResponseBytes`, or a connect, network or timeout failure (with
 * `sent` telling whether the outcome is unknown). The proxies name a proxy's failure.
 */
export function transportError(
  e: unknown,
  method: string,
  path: string,
  signal: AbortSignal | undefined,
  maxResponseBytes: number,
  proxies: readonly ProxyEndpoint[],
): ServiceError {
  if (e instanceof ServiceError) return e;
  const sent = (e as { [SENT]?: boolean })[SENT] === true;
  const cause = (e as { [CAUSE]?: unknown })[CAUSE] ?? e;
  if (signal?.aborted) return new ServiceError({ kind: 'cancelled', method, path, sent });
  const tooLarge = (cause as { [TOO_LARGE]?: number } | undefined)?.[TOO_LARGE];
  if (tooLarge !== undefined) {
    // The service answered (status known), but more than the client reads: not a network failure, not worth a retry.
    const mib = Math.round((maxResponseBytes / (1024 * 1024)) * 10) / 10;
    return new ServiceError({
      kind: tooLarge >= 200 && tooLarge < 300 ? 'invalid-response' : 'http',
      method,
      path,
      status: tooLarge,
      code: 'RESPONSE_TOO_LARGE',
      reason: 'response-too-large',
      limitBytes: maxResponseBytes,
      messages: [`the answer is larger than the limit of ${mib} MiB`],
    });
  }
  const c = classifyTransportError(cause, sent, proxies);
  const init: ServiceErrorInit = { kind: c.kind, method, path, code: c.code, reason: c.reason, sent: c.kind !== 'connect' && sent };
  if (c.kind === 'connect' || c.kind === 'network' || c.kind === 'timeout') {
    // Keep the cause for the log, but only an undici/system error: never one that could quote a request.
    init.cause = sanitizeCause(cause);
  }
  return new ServiceError(init);
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
