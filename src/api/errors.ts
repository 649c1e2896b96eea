// The one error type of the client. It never carries a secret: no header values,
// no request body, only the method, the path (IDs included) and what the service said.

/**
 * What happened to the request, from the caller's point of view:
 * - `http`: the service answered with a non-2xx status (see `status`, `messages`).
 * - `connect`: the request never left (connection refused, DNS failure, connect timeout, TLS handshake, proxy refused). Safe to retry.
 * - `network`: the connection failed after the request may have been sent (reset, closed). Outcome unknown.
 * - `timeout`: no (complete) answer in time after sending. Outcome unknown.
 * - `cancelled`: the caller aborted (see `sent`: when true, an update's outcome is unknown).
 * - `invalid-response`: a 2xx answer whose body does not have the documented shape.
 * - `invalid-request`: refused before sending (bad ID, bad query, bad body, bad credentials).
 */
export type ServiceErrorKind = 'http' | 'connect' | 'network' | 'timeout' | 'cancelled' | 'invalid-response' | 'invalid-request';

/**
 * A stable, language-independent name for the cause of a transport failure, for
 * the UI to turn into a localized sentence. `code` keeps the raw undici/system code.
 */
export type NetworkReason =
  | 'dns-not-found'
  | 'dns-temporary'
  | 'connection-refused'
  | 'host-unreachable'
  | 'connect-timeout'
  | 'tls-self-signed'
  | 'tls-unknown-ca'
  | 'tls-hostname-mismatch'
  | 'tls-expired'
  | 'tls-protocol'
  | 'tls-other'
  | 'proxy-auth-required'
  | 'proxy-refused'
  | 'proxy-unreachable'
  | 'connection-reset'
  | 'socket-closed'
  | 'headers-timeout'
  | 'body-timeout'
  | 'response-too-large'
  | 'protocol-error';

/** English explanation of each {@link NetworkReason} (the UI localizes by `reason`). */
export const NETWORK_REASON_TEXT: Readonly<Record<NetworkReason, string>> = {
  'dns-not-found': 'the server name could not be resolved (DNS); check the service URL',
  'dns-temporary': 'the server name could not be resolved right now (temporary DNS failure)',
  'connection-refused': 'the server refused the connection; check the host and port of the service URL',
  'host-unreachable': 'the server cannot be reached from this machine (network unreachable)',
  'connect-timeout': 'connecting to the server timed out',
  'tls-self-signed': "the server's TLS certificate is self-signed or signed by a CA that is not trusted; add that CA certificate",
  'tls-unknown-ca': "the server's TLS certificate was issued by an unknown certificate authority; add the CA certificate (or use the system certificates)",
  'tls-hostname-mismatch': "the server's TLS certificate does not match the host name in the service URL",
  'tls-expired': "the server's TLS certificate has expired or is not yet valid",
  'tls-protocol': 'the TLS handshake failed (is the URL https while the server speaks plain http, or the other way round?)',
  'tls-other': "the server's TLS certificate was rejected",
  'proxy-auth-required': 'the proxy requires authentication (407); put the proxy user name and password into the proxy URL',
  'proxy-refused': 'the proxy refused to connect to the service',
  'proxy-unreachable': 'the proxy could not be reached; check the proxy setting',
  'connection-reset': 'the connection was reset',
  'socket-closed': 'the server closed the connection',
  'headers-timeout': 'the server did not answer in time',
  'body-timeout': 'the server stopped sending its answer',
  'response-too-large': 'the answer is larger than the client accepts',
  'protocol-error': 'the server sent an answer that is not valid HTTP',
};

/** One error object of a response body: its message, and its code and template params when given. */
export interface ServiceErrorEntry {
  readonly message: string;
  readonly code?: string;
  readonly params?: Readonly<Record<string, string | number | boolean>>;
  readonly itemId?: string;
  readonly rule?: number;
}

export interface ServiceErrorInit {
  kind: ServiceErrorKind;
  method: string;
  /** Path relative to the base URL, e.g. `/workitem/workItems/1,2`. */
  path: string;
  status?: number;
  /** Every message found in the body (or the raw body text when its shape is unknown). */
  messages?: string[];
  /** Error codes found in the body, when any. */
  codes?: string[];
  /** The body's error objects with their own message, code and template params (see parseErrorBody). */
  entries?: ServiceErrorEntry[];
  /** undici or system error code (ECONNREFUSED, UND_ERR_SOCKET, ...). */
  code?: string;
  /** Stable cause of a transport failure. */
  reason?: NetworkReason;
  /** From a `Retry-After` header, in milliseconds. */
  retryAfterMs?: number;
  /** True when the request had started to be written when it failed or was cancelled. */
  sent?: boolean;
  /** The size cap that an answer exceeded (reason `response-too-large`), in bytes. */
  limitBytes?: number;
  cause?: unknown;
}

export class ServiceError extends Error {
  readonly kind: ServiceErrorKind;
  readonly method: string;
  readonly path: string;
  readonly status?: number;
  readonly messages: readonly string[];
  readonly codes: readonly string[];
  readonly entries: readonly ServiceErrorEntry[];
  readonly code?: string;
  readonly reason?: NetworkReason;
  readonly retryAfterMs?: number;
  readonly sent: boolean;
  readonly limitBytes?: number;

  constructor(init: ServiceErrorInit) {
    super(ServiceError.describe(init), init.cause !== undefined ? { cause: init.cause } : undefined);
    this.name = 'ServiceError';
    this.kind = init.kind;
    this.method = init.method;
    this.path = init.path;
    this.status = init.status;
    this.messages = init.messages ?? [];
    this.codes = init.codes ?? [];
    this.entries = init.entries ?? [];
    this.code = init.code;
    this.reason = init.reason;
    this.retryAfterMs = init.retryAfterMs;
    this.limitBytes = init.limitBytes;
    this.sent = init.sent ?? (init.kind === 'http' || init.kind === 'network' || init.kind === 'timeout' || init.kind === 'invalid-response');
  }

  /**
   * True when the service may have applied the request although no answer arrived
   * (reset or timeout after sending, cancelled after sending), or answered a 5xx.
   * The one 5xx that is not unknown is a 503 with `Retry-After`: the service says
   * it did not take the request and when to come back. A 503 without it may come
   * from a proxy or gateway after the service applied the request, so it is read
   * the safe way: unknown. Such an update must not be replayed without the user's word.
   */
  get outcomeUnknown(): boolean {
    return (
      this.kind === 'network' ||
      this.kind === 'timeout' ||
      (this.kind === 'cancelled' && this.sent) ||
      (this.kind === 'http' && (this.status ?? 0) >= 500 && !(this.status === 503 && this.retryAfterMs !== undefined))
    );
  }

  /** True when the request provably never took effect and may be retried automatically. */
  get safeToRetry(): boolean {
    if (this.kind === 'connect') return true;
    return this.kind === 'http' && (this.status === 429 || this.status === 503) && this.retryAfterMs !== undefined;
  }

  private static describe(init: ServiceErrorInit): string {
    const where = `${init.method} ${shorten(init.path)}`;
    const said = init.messages && init.messages.length > 0 ? `: ${init.messages.join(' / ')}` : '';
    const code = init.code ? ` (${init.code})` : '';
    const why = init.reason ? `: ${NETWORK_REASON_TEXT[init.reason]}` : '';
    switch (init.kind) {
      case 'http':
        return `${where} failed with status ${init.status ?? '?'}${why}${said}`;
      case 'connect':
        return `${where} could not connect${code}${why}${said}`;
      case 'network':
        return `${where}: the connection failed after the request was sent; its outcome is unknown${code}${why}`;
      case 'timeout':
        return `${where} timed out${code}${why}${said}`;
      case 'cancelled':
        return `${where} was cancelled${init.sent ? ' after the request was sent; its outcome is unknown' : ''}`;
      case 'invalid-response':
        return init.reason === 'response-too-large' ? `${where} returned an answer that is too large${said}` : `${where} returned a response of an unexpected shape${said}`;
      case 'invalid-request':
        return `${where} was not sent${said}`;
    }
  }
}

/** Keeps error messages readable when a path holds hundreds of IDs. */
function shorten(path: string): string {
  return path.length > 300 ? `${path.slice(0, 300)}…` : path;
}

export function isServiceError(e: unknown): e is ServiceError {
  return e instanceof ServiceError;
}
