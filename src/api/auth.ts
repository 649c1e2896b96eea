// Authorization of requests: credentials → the request's Authorization (or API key)
// header, and the sign-in request (`POST /auth/token`). Kept apart from the
// ServiceClient's operations (as vscode-pull-request-github keeps credentials apart
// from its repository client); where credentials come from, how they are stored and
// when a token is fetched again is the caller's (`ClientOptions.credentials`,
// src/common/connection.ts). No vscode import.
//
// Never logged and never put into an error: a token, a password, an API key.
import { TokenRequest } from '../schema/api';
import type { ServiceError } from './errors';
import { invalidRequest } from './failures';

export type Credentials =
  | { kind: 'none' }
  | { kind: 'bearer'; token: string }
  | { kind: 'basic'; loginName: string; password: string }
  /** An API key (product version 7 on): sent as `X-TT-ApiKey: <key>`, with no Authorization header. */
  | { kind: 'apiKey'; key: string };

/** The request header that carries an API key. */
export const API_KEY_HEADER = 'X-TT-ApiKey';

/** What credentials put into a request: the Authorization header or the API key, and the secrets to scrub from anything echoed back. */
export interface Authorization {
  header?: string;
  apiKey?: string;
  secrets: string[];
}

/** The sign-in path (official help: a token for a login name and password). */
export const SIGN_IN_PATH = '/auth/token';

/**
 * The sign-in request's body, checked before anything is sent: an `invalid-request`
 * ServiceError (never quoting the password) when the login name is empty or the
 * password not a string.
 */
export function signInBody(loginName: string, password: string): { loginName: string; password: string } {
  const body = { loginName, password };
  const checked = TokenRequest.safeParse(body);
  if (!checked.success) {
    throw invalidRequest('POST', SIGN_IN_PATH, [loginName ? 'the password must be a string' : 'the login name must not be empty']);
  }
  return body;
}

/**
 * The authorization of one request from `credentials` (none when absent), for
 * `method` and `path` (named in the error). Throws an `invalid-request` ServiceError
 * (codes CREDENTIALS_EMPTY, CREDENTIALS_INVALID, CREDENTIALS_COLON) for credentials
 * that cannot be sent; the error never quotes them.
 */
export function authorize(creds: Credentials, method: string, path: string): Authorization {
  const refuse = (message: string, code: string): ServiceError => invalidRequest(method, path, [message], code);
  switch (creds.kind) {
    case 'none':
      return { secrets: [] };
    case 'bearer': {
      const token = typeof creds.token === 'string' ? creds.token.trim() : '';
      if (!token) throw refuse('the access token is empty; sign in again', 'CREDENTIALS_EMPTY');
      if (!/^[\x21-\x7e]+$/.test(token)) {
        throw refuse('the access token contains characters that cannot be sent in a header (spaces, line breaks or non-ASCII)', 'CREDENTIALS_INVALID');
      }
      return { header: `Bearer ${token}`, secrets: [token] };
    }
    case 'basic': {
      const { loginName, password } = creds;
      if (typeof loginName !== 'string' || loginName === '') throw refuse('the login name is empty', 'CREDENTIALS_EMPTY');
      if (loginName.includes(':')) {
        throw refuse('the login name contains ":", which Basic authentication cannot carry; use token sign-in instead', 'CREDENTIALS_COLON');
      }
      if (typeof password !== 'string') throw refuse('the password is missing', 'CREDENTIALS_EMPTY');
      if (/[\r\n\0]/.test(loginName + password)) {
        throw refuse('the login name or password contains a line break or NUL character', 'CREDENTIALS_INVALID');
      }
      const encoded = Buffer.from(`${loginName}:${password}`, 'utf8').toString('base64');
      return { header: `Basic ${encoded}`, secrets: [password, encoded] };
    }
    case 'apiKey': {
      const key = typeof creds.key === 'string' ? creds.key.trim() : '';
      if (!key) throw refuse('the API key is empty; sign in again', 'CREDENTIALS_EMPTY');
      if (!/^[\x21-\x7e]+$/.test(key)) {
        throw refuse('the API key contains characters that cannot be sent in a header (spaces, line breaks or non-ASCII)', 'CREDENTIALS_INVALID');
      }
      return { apiKey: key, secrets: [key] };
    }
    default:
      throw refuse('unknown credentials kind', 'CREDENTIALS_INVALID');
  }
}

/** Puts the authorization into a request's headers (lower-case names). */
export function applyAuthorization(headers: Record<string, string>, auth: Authorization): void {
  if (auth.header) headers.authorization = auth.header;
  if (auth.apiKey) headers[API_KEY_HEADER.toLowerCase()] = auth.apiKey;
}
