// The one error type of the client. It never carries a secret: no header values,
// no request body, only the method, the path (IDs included) and what the service said.

/**
 * What happened to the request, from the caller's point of view:
 * - `http`: the service answered with a non-2xx status (see `status`, `messages`).
 * - `connect`: the request never left (connection refused, DNS failure, connect timeout, TLS handshake). Safe to retry.
 * - `network`: the connection failed after the request may have been sent (reset, closed). Outcome unknown.
 * - `timeout`: no (complete) answer in time after sending. Outcome unknown.
 * - `cancelled`: the caller aborted.
 * - `invalid-response`: a 2xx answer whose body does not have the documented shape.
 * - `invalid-request`: refused before sending (bad ID, bad query, bad body).
 */
export type ServiceErrorKind = 'http' | 'connect' | 'network' | 'timeout' | 'cancelled' | 'invalid-response' | 'invalid-request';

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
  /** undici or system error code (ECONNREFUSED, UND_ERR_SOCKET, ...). */
  code?: string;
  /** From a `Retry-After` header, in milliseconds. */
  retryAfterMs?: number;
  cause?: unknown;
}

export class ServiceError extends Error {
  readonly kind: ServiceErrorKind;
  readonly method: string;
  readonly path: string;
  readonly status?: number;
  readonly messages: readonly string[];
  readonly codes: readonly string[];
  readonly code?: string;
  readonly retryAfterMs?: number;

  constructor(init: ServiceErrorInit) {
    super(ServiceError.describe(init), init.cause !== undefined ? { cause: init.cause } : undefined);
    this.name = 'ServiceError';
    this.kind = init.kind;
    this.method = init.method;
    this.path = init.path;
    this.status = init.status;
    this.messages = init.messages ?? [];
    this.codes = init.codes ?? [];
    this.code = init.code;
    this.retryAfterMs = init.retryAfterMs;
  }

  /**
   * True when the service may have applied the request although no answer arrived
   * (reset or timeout after sending, or a 5xx). Such an update must not be replayed
   * without the user's word.
   */
  get outcomeUnknown(): boolean {
    return this.kind === 'network' || this.kind === 'timeout' || (this.kind === 'http' && (this.status ?? 0) >= 500 && this.status !== 503);
  }

  /** True when the request provably never took effect and may be retried automatically. */
  get safeToRetry(): boolean {
    if (this.kind === 'connect') return true;
    return this.kind === 'http' && (this.status === 429 || this.status === 503) && this.retryAfterMs !== undefined;
  }

  private static describe(init: ServiceErrorInit): string {
    const where = `${init.method} ${init.path}`;
    const said = init.messages && init.messages.length > 0 ? `: ${init.messages.join(' / ')}` : '';
    switch (init.kind) {
      case 'http':
        return `${where} failed with status ${init.status ?? '?'}${said}`;
      case 'connect':
        return `${where} could not connect${init.code ? ` (${init.code})` : ''}${said}`;
      case 'network':
        return `${where}: the connection failed after the request was sent; its outcome is unknown${init.code ? ` (${init.code})` : ''}`;
      case 'timeout':
        return `${where} timed out${said}`;
      case 'cancelled':
        return `${where} was cancelled`;
      case 'invalid-response':
        return `${where} returned a response of an unexpected shape${said}`;
      case 'invalid-request':
        return `${where} was not sent${said}`;
    }
  }
}

export function isServiceError(e: unknown): e is ServiceError {
  return e instanceof ServiceError;
}
