// Pure helpers of the client: reading error bodies, Retry-After, and classifying
// transport failures. No vscode import, no I/O.
import type { Credentials } from './auth';
import type { NetworkReason, ServiceErrorKind } from './errors';

/** Longest single message kept from an error body. */
export const MAX_MESSAGE_LENGTH = 1000;
/** Most messages kept from one error body. */
export const MAX_MESSAGES = 50;
/** Longest raw-text fallback kept from an error body of unknown shape. */
export const MAX_RAW_TEXT = 2000;

export interface ErrorBodyInfo {
  /** Every message found, in document order (or the raw text when no shape was recognized). */
  messages: string[];
  /** Every error code found (`code`, `Code`, `errorCode`), in document order. */
  codes: string[];
}

export interface ErrorEntryInfo {
  message: string;
  code?: string;
  params?: Record<string, string | number | boolean>;
  /** The work item the entry is about, when the body says (the sandbox does). */
  itemId?: string;
  /** The number of the spec's error condition, when the body says (the sandbox does). */
  rule?: number;
}

const MESSAGE_KEYS = ['message', 'Message', 'errorMessage', 'ErrorMessage', 'error_description', 'detail', 'Detail', 'ExceptionMessage'];
const FALLBACK_MESSAGE_KEYS = ['title', 'Title', 'error', 'Error'];
const CODE_KEYS = ['code', 'Code', 'errorCode', 'ErrorCode'];
const NESTED_KEYS = ['errors', 'Errors', 'error', 'Error', 'details', 'Details', 'innerError', 'InnerError', 'InnerException', 'data'];

/**
 * Finds every message and code in an error body. Recognized shapes:
 * `[{"message": ...}]`, `{"message": ...}`, `{"Message": ...}`, `{"errors": [...]}`,
 * `{"errors": {"field": ["..."]}}`, `{"error": {"message": ...}}`, nested arrays,
 * a JSON string. Anything else (plain text, HTML, JSON without messages) falls back
 * to the raw text, trimmed and capped (HTML reduced to its text). An empty body
 * gives no message.
 */
export function parseErrorBody(text: string, contentType?: string, secrets: readonly string[] = []): ErrorBodyInfo {
  const { entries: _entries, ...info } = parseErrorBodyWithEntries(text, contentType, secrets);
  return info;
}

/**
 * As parseErrorBody, plus `entries`: the error objects that carry their own message,
 * with their code, `params` (the values of the code's message template), item and
 * rule when present, so the UI can show a translated sentence for a known code.
 */
/**
 * `secrets` (a token, a password, an API key, an encoded Basic value) are replaced
 * by `***` wherever the body holds them: in every string and member name of a JSON
 * body (messages, codes, `params`, any other member) before anything is read from
 * it, and in a raw-text fallback, so what the server echoes never reaches an error.
 */
export function parseErrorBodyWithEntries(text: string, contentType?: string, secrets: readonly string[] = []): ErrorBodyInfo & { entries: ErrorEntryInfo[] } {
  const info = parseInto(text, contentType, secretVariants(secrets));
  return { ...info, entries: info.entries ?? [] };
}

function parseInto(text: string, contentType: string | undefined, secrets: readonly string[]): ErrorBodyInfo & { entries?: ErrorEntryInfo[] } {
  const trimmed = text.trim();
  if (trimmed === '') return { messages: [], codes: [] };
  let json: unknown;
  let isJson = false;
  if (/^[[{"]/.test(trimmed)) {
    try {
      json = JSON.parse(trimmed);
      isJson = true;
    } catch {
      isJson = false;
    }
  }
  if (isJson) {
    const found: ErrorBodyInfo & { entries: ErrorEntryInfo[] } = { messages: [], codes: [], entries: [] };
    // Parsed from the text as sent (JSON escapes such as `\u0041` undone), then every string
    // and member name is redacted, through every decoding that could hide a secret.
    const clean = redactJson(json, secrets, 0);
    collect(clean, found, 0, true);
    if (found.messages.length > 0) return { messages: dedupe(found.messages), codes: dedupe(found.codes), entries: found.entries };
    // No message: the body itself, as its redacted copy (never the raw text, whose escapes could hide a secret).
    return { messages: [cap(redact(JSON.stringify(clean) ?? '', secrets), MAX_RAW_TEXT)], codes: dedupe(found.codes) };
  }
  const html = /html/i.test(contentType ?? '') || /^<(!doctype|html|head|body)\b/i.test(trimmed);
  // Redacted before and after the HTML is reduced to its text (which decodes its entities).
  const redacted = redact(trimmed, secrets);
  const raw = html ? redact(htmlToText(redacted), secrets) : redacted;
  return { messages: raw ? [cap(raw, MAX_RAW_TEXT)] : [], codes: [] };
}

/** A `params` object of scalar values (anything else is dropped: it is only used to fill message templates). */
function scalarParams(value: unknown): Record<string, string | number | boolean> | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const out: Record<string, string | number | boolean> = {};
  let any = false;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (typeof v === 'string') out[k] = cap(v, MAX_MESSAGE_LENGTH);
    else if (typeof v === 'number' || typeof v === 'boolean') out[k] = v;
    else continue;
    any = true;
  }
  return any ? out : undefined;
}

function collect(value: unknown, out: ErrorBodyInfo & { entries?: ErrorEntryInfo[] }, depth: number, top: boolean): void {
  if (depth > 6 || out.messages.length >= MAX_MESSAGES) return;
  if (typeof value === 'string') {
    // A bare string is a message at the top or as an element of an errors list.
    const s = value.trim();
    if (s) out.messages.push(cap(s, MAX_MESSAGE_LENGTH));
    return;
  }
  if (Array.isArray(value)) {
    for (const v of value) collect(v, out, depth + 1, false);
    return;
  }
  if (value === null || typeof value !== 'object') {
    if (top && value !== null && value !== undefined) out.messages.push(String(value));
    return;
  }
  const o = value as Record<string, unknown>;
  let own = false;
  for (const k of MESSAGE_KEYS) {
    const m = o[k];
    if (typeof m === 'string' && m.trim()) {
      out.messages.push(cap(m.trim(), MAX_MESSAGE_LENGTH));
      own = true;
      break;
    }
  }
  let code: string | undefined;
  for (const k of CODE_KEYS) {
    const c = o[k];
    if ((typeof c === 'string' && c.trim()) || typeof c === 'number') {
      code = String(c).trim();
      out.codes.push(code);
      break;
    }
  }
  if (own && out.entries) {
    const entry: ErrorEntryInfo = { message: out.messages[out.messages.length - 1] };
    if (code !== undefined) entry.code = code;
    const params = scalarParams(o.params ?? o.Params);
    if (params) entry.params = params;
    if (typeof o.itemId === 'string' && o.itemId) entry.itemId = cap(o.itemId, MAX_MESSAGE_LENGTH);
    if (typeof o.rule === 'number' && Number.isInteger(o.rule)) entry.rule = o.rule;
    out.entries.push(entry);
  }
  let nested = false;
  for (const k of NESTED_KEYS) {
    const n = o[k];
    if (n === undefined || n === null || typeof n === 'boolean' || typeof n === 'number') continue;
    if (typeof n === 'string') continue; // handled as a fallback message below
    const before = out.messages.length;
    if (Array.isArray(n)) collect(n, out, depth + 1, false);
    else if (typeof n === 'object') {
      // `{"errors": {"Name": ["too long"]}}` (validation-problem style) or a nested error object.
      const entries = Object.entries(n as Record<string, unknown>);
      const looksLikeError = MESSAGE_KEYS.some((mk) => mk in (n as object)) || NESTED_KEYS.some((nk) => nk in (n as object));
      if (looksLikeError) collect(n, out, depth + 1, false);
      else
        for (const [field, v] of entries) {
          const sub: ErrorBodyInfo = { messages: [], codes: [] };
          collect(v, sub, depth + 1, false);
          out.messages.push(...sub.messages.map((m) => cap(`${field}: ${m}`, MAX_MESSAGE_LENGTH)));
          out.codes.push(...sub.codes);
        }
    }
    if (out.messages.length > before) nested = true;
  }
  if (!own && !nested) {
    for (const k of FALLBACK_MESSAGE_KEYS) {
      const m = o[k];
      if (typeof m === 'string' && m.trim()) {
        out.messages.push(cap(m.trim(), MAX_MESSAGE_LENGTH));
        break;
      }
    }
  }
}

function dedupe(list: string[]): string[] {
  return [...new Set(list)].slice(0, MAX_MESSAGES);
}

/** Trims and caps a text, marking the cut. */
export function cap(text: string, max: number): string {
  const t = text.trim();
  return t.length > max ? `${t.slice(0, max)}… (${t.length - max} more characters)` : t;
}

/** The readable text of an HTML error page: its title and body text, whitespace collapsed. */
export function htmlToText(html: string): string {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
  const body = html
    .replace(/<(script|style|head)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  const t = title?.replace(/\s+/g, ' ').trim();
  if (t && !body.startsWith(t)) return body ? `${t} — ${body}` : t;
  return body;
}

/**
 * A `Retry-After` value in milliseconds: delta-seconds or an HTTP date
 * (a past date gives 0). Undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined) return undefined;
  const s = v.trim();
  if (/^\d+$/.test(s)) return Number(s) * 1000;
  if (!/[a-z]/i.test(s)) return undefined;
  const t = Date.parse(s);
  if (Number.isNaN(t)) return undefined;
  return Math.max(0, t - now);
}

/** Replaces every literal occurrence of the given secrets (longest first) by `***`. */
function replaceSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  // Longest first, so a secret that contains another is replaced whole.
  for (const s of [...secrets].sort((a, b) => b.length - a.length)) if (s.length >= 4 && out.includes(s)) out = out.split(s).join('***');
  return out;
}

/** Most decoding rounds tried on one text (each round undoes one layer of every kind). */
const MAX_DECODING_ROUNDS = 6;

/**
 * Replaces every occurrence of the given secrets in a text (for messages echoed by a
 * server), also where the text hides one behind an encoding: HTML entities (`&amp;`,
 * `&lt;`, `&#112;`, `&#x70;`), JSON escapes (`\u0070`, `\/`) and percent-encoding
 * (`%70`, in either case), nested in any order. The text is redacted, then decoded one
 * layer and redacted again, as long as decoding changes it; when a decoded form
 * revealed a secret, the answer is that decoded, redacted form (the encoded text
 * would still hold the secret), else the text as given, redacted.
 */
export function redact(text: string, secrets: readonly string[]): string {
  const usable = secrets.filter((s) => s.length >= 4);
  if (usable.length === 0) return text;
  const first = replaceSecrets(text, usable);
  let current = first;
  let revealed = false;
  for (let round = 0; round < MAX_DECODING_ROUNDS; round++) {
    const decoded = decodeOnce(current);
    if (decoded === current) break;
    const again = replaceSecrets(decoded, usable);
    if (again !== decoded) revealed = true;
    current = again;
  }
  return revealed ? current : first;
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', sol: '/', plus: '+', equals: '=', colon: ':', percnt: '%', num: '#', bsol: '\\' };

/** One layer of each encoding a server may wrap an echoed text in, undone. */
export function decodeOnce(text: string): string {
  let out = text;
  if (out.includes('&')) {
    out = out.replace(/&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z]{2,8});?/g, (m, body: string) => {
      if (body.startsWith('#')) {
        const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
      }
      return NAMED_ENTITIES[body.toLowerCase()] ?? m;
    });
  }
  if (out.includes('\\')) {
    out = out.replace(/\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})|\\([\/"'\\])/g, (_m, u?: string, x?: string, c?: string) =>
      u !== undefined ? String.fromCharCode(parseInt(u, 16)) : x !== undefined ? String.fromCharCode(parseInt(x, 16)) : c!,
    );
  }
  if (out.includes('%')) out = percentDecode(out);
  return out;
}

/** Decodes every run of valid `%XX` sequences (as UTF-8; bytes that are not, as Latin-1); leaves a lone `%` as it is. */
function percentDecode(text: string): string {
  return text.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
    const bytes = Buffer.from(run.replace(/%/g, ''), 'hex');
    const utf8 = bytes.toString('utf8');
    return utf8.includes('\ufffd') ? bytes.toString('latin1') : utf8;
  });
}

/** The secrets that credentials put into a request (a token, a password and its Basic value, an API key). */
export function credentialSecrets(c: Credentials | undefined): string[] {
  switch (c?.kind) {
    case 'bearer':
      return typeof c.token === 'string' ? [c.token.trim()] : [];
    case 'basic':
      return typeof c.password === 'string' ? [c.password, Buffer.from(`${c.loginName}:${c.password}`, 'utf8').toString('base64')] : [];
    case 'apiKey':
      return typeof c.key === 'string' ? [c.key.trim()] : [];
    default:
      return [];
  }
}

/** Each secret plus the forms a server may echo it in (percent-encoded, JSON-escaped). */
export function secretVariants(secrets: readonly string[]): string[] {
  const out = new Set<string>();
  for (const s of secrets) {
    if (s.length < 4) continue;
    out.add(s);
    out.add(encodeURIComponent(s));
    out.add(JSON.stringify(s).slice(1, -1));
    out.add(s.replace(/\//g, '\\/'));
  }
  return [...out];
}

/** A copy of a parsed JSON value with every secret replaced in its strings and member names. */
function redactJson(value: unknown, secrets: readonly string[], depth: number): unknown {
  if (secrets.length === 0) return value;
  if (typeof value === 'string') return redact(value, secrets);
  if (depth > 64 && typeof value === 'object' && value !== null) return '***';
  if (depth > 64 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redactJson(v, secrets, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    Object.defineProperty(out, redact(k, secrets), { value: redactJson(v, secrets, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

// ---------------------------------------------------------------------------
// Transport failures
// ---------------------------------------------------------------------------

export interface TransportClassification {
  kind: ServiceErrorKind;
  /** The raw undici or system code found on the error or its causes. */
  code?: string;
  reason?: NetworkReason;
}

/** Where a failed socket was going, to tell a proxy failure from a service failure. */
export interface ProxyEndpoint {
  host: string;
  port: number;
}

const DNS_NOT_FOUND = new Set(['ENOTFOUND']);
const DNS_TEMPORARY = new Set(['EAI_AGAIN']);
const UNREACHABLE = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'EHOSTDOWN', 'ENETDOWN']);
const TLS_SELF_SIGNED = new Set(['DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN']);
const TLS_UNKNOWN_CA = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);
const TLS_HOSTNAME = new Set(['ERR_TLS_CERT_ALTNAME_INVALID', 'HOSTNAME_MISMATCH']);
const TLS_EXPIRED = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);
const TLS_PROTOCOL = new Set(['EPROTO', 'ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'ERR_TLS_HANDSHAKE_TIMEOUT']);
const TLS_OTHER = new Set([
  'CERT_REVOKED',
  'CERT_REJECTED',
  'CERT_CHAIN_TOO_LONG',
  'INVALID_CA',
  'INVALID_PURPOSE',
  'PATH_LENGTH_EXCEEDED',
  'ERR_TLS_CERT_SIGNATURE_ALGORITHM_UNSUPPORTED',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
  'UND_ERR_PRX_TLS',
]);

interface ErrorLike {
  code?: unknown;
  name?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
  address?: unknown;
  port?: unknown;
}

/** The error and every error it wraps (`cause`, AggregateError `errors`), outermost first. */
export function errorChain(err: unknown): ErrorLike[] {
  const out: ErrorLike[] = [];
  const queue: unknown[] = [err];
  while (queue.length > 0 && out.length < 20) {
    const e = queue.shift();
    if (!e || typeof e !== 'object' || out.includes(e as ErrorLike)) continue;
    const el = e as ErrorLike;
    out.push(el);
    if (el.cause !== undefined) queue.push(el.cause);
    if (Array.isArray(el.errors)) queue.push(...el.errors);
  }
  return out;
}

function firstCode(chain: ErrorLike[], pick?: (code: string) => boolean): string | undefined {
  for (const e of chain) {
    if (typeof e.code === 'string' && e.code && (!pick || pick(e.code))) return e.code;
  }
  return undefined;
}

function proxyStatusOf(chain: ErrorLike[]): number | undefined {
  for (const e of chain) {
    // undici: "Proxy response (407) !== 200 when HTTP Tunneling" (CONNECT) and
    // "Proxy Authentication Required (407)" (plain-http requests forwarded by a proxy).
    const m = typeof e.message === 'string' ? /Proxy (?:response|Authentication Required) \((\d{3})\)/.exec(e.message) : null;
    if (m) return Number(m[1]);
  }
  return undefined;
}

function hitsProxy(chain: ErrorLike[], proxies: readonly ProxyEndpoint[]): boolean {
  if (proxies.length === 0) return false;
  return chain.some((e) => {
    const port = typeof e.port === 'number' ? e.port : undefined;
    const address = typeof e.address === 'string' ? e.address : undefined;
    const hostname = typeof (e as { hostname?: unknown }).hostname === 'string' ? (e as { hostname: string }).hostname : undefined;
    return proxies.some(
      (p) =>
        (port === undefined || port === p.port) &&
        (address !== undefined || hostname !== undefined) &&
        (address === p.host || hostname === p.host || address === stripBrackets(p.host) || (port === p.port && isLoopback(p.host) && isLoopback(address ?? ''))),
    );
  });
}

function stripBrackets(h: string): string {
  return h.replace(/^\[|\]$/g, '');
}

function isLoopback(host: string): boolean {
  const h = stripBrackets(host).toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\./.test(h) || h === '::ffff:127.0.0.1';
}

/**
 * Classifies a failure thrown by undici or the socket layer.
 * `sent`: the request had started to be written (undici called `onConnect`);
 * a reset or close before that proves nothing left, after it the outcome is unknown.
 */
export function classifyTransportError(err: unknown, sent: boolean, proxies: readonly ProxyEndpoint[] = []): TransportClassification {
  const chain = errorChain(err);
  const code = firstCode(chain, (c) => c !== 'UND_ERR' && c !== 'ERR_UNHANDLED_ERROR') ?? firstCode(chain);
  const any = (set: Set<string>) => chain.some((e) => typeof e.code === 'string' && set.has(e.code));

  const proxyStatus = proxyStatusOf(chain);
  if (proxyStatus !== undefined) {
    return { kind: 'connect', code: code ?? 'UND_ERR_ABORTED', reason: proxyStatus === 407 ? 'proxy-auth-required' : 'proxy-refused' };
  }
  if (any(TLS_SELF_SIGNED)) return { kind: 'connect', code: firstCode(chain, (c) => TLS_SELF_SIGNED.has(c)), reason: 'tls-self-signed' };
  if (any(TLS_UNKNOWN_CA)) return { kind: 'connect', code: firstCode(chain, (c) => TLS_UNKNOWN_CA.has(c)), reason: 'tls-unknown-ca' };
  if (any(TLS_HOSTNAME)) return { kind: 'connect', code: firstCode(chain, (c) => TLS_HOSTNAME.has(c)), reason: 'tls-hostname-mismatch' };
  if (any(TLS_EXPIRED)) return { kind: 'connect', code: firstCode(chain, (c) => TLS_EXPIRED.has(c)), reason: 'tls-expired' };
  if (any(TLS_OTHER)) return { kind: 'connect', code: firstCode(chain, (c) => TLS_OTHER.has(c)), reason: 'tls-other' };

  const toProxy = hitsProxy(chain, proxies);
  if (any(DNS_NOT_FOUND)) return { kind: 'connect', code: 'ENOTFOUND', reason: toProxy ? 'proxy-unreachable' : 'dns-not-found' };
  if (any(DNS_TEMPORARY)) return { kind: 'connect', code: 'EAI_AGAIN', reason: toProxy ? 'proxy-unreachable' : 'dns-temporary' };
  if (any(new Set(['ECONNREFUSED']))) return { kind: 'connect', code: 'ECONNREFUSED', reason: toProxy ? 'proxy-unreachable' : 'connection-refused' };
  if (any(UNREACHABLE)) return { kind: 'connect', code: firstCode(chain, (c) => UNREACHABLE.has(c)), reason: toProxy ? 'proxy-unreachable' : 'host-unreachable' };
  if (any(new Set(['UND_ERR_CONNECT_TIMEOUT']))) return { kind: 'connect', code: 'UND_ERR_CONNECT_TIMEOUT', reason: 'connect-timeout' };
  if (!sent && any(TLS_PROTOCOL)) return { kind: 'connect', code: firstCode(chain, (c) => TLS_PROTOCOL.has(c)), reason: 'tls-protocol' };

  if (any(new Set(['UND_ERR_HEADERS_TIMEOUT']))) return { kind: 'timeout', code: 'UND_ERR_HEADERS_TIMEOUT', reason: 'headers-timeout' };
  if (any(new Set(['UND_ERR_BODY_TIMEOUT']))) return { kind: 'timeout', code: 'UND_ERR_BODY_TIMEOUT', reason: 'body-timeout' };
  if (any(new Set(['ETIMEDOUT']))) return sent ? { kind: 'timeout', code: 'ETIMEDOUT', reason: 'headers-timeout' } : { kind: 'connect', code: 'ETIMEDOUT', reason: 'connect-timeout' };

  const reset = any(new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']));
  const closed = any(new Set(['UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'UND_ERR_DESTROYED']));
  const parse = chain.some((e) => typeof e.code === 'string' && e.code.startsWith('HPE_'));
  if (reset || closed || parse) {
    const reason: NetworkReason = parse ? 'protocol-error' : reset ? 'connection-reset' : 'socket-closed';
    // Before anything was written, a reset or close proves the request never left.
    return { kind: sent ? 'network' : 'connect', code, reason: !sent && toProxy ? 'proxy-unreachable' : reason };
  }
  return { kind: sent ? 'network' : 'connect', code, reason: undefined };
}
