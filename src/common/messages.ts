// Turns a ServiceError (kind, status, codes, the service's own messages) into a
// localized sentence for people. Every area shows service failures through these.
import * as vscode from 'vscode';
import type { NetworkConfigError } from '../api/dispatcher';
import type { NetworkReason, ServiceError, ServiceErrorEntry } from '../api/errors';
import type { JournalError } from '../bulk/journal';
import { core } from '../core/load';

/** One sentence about what happened, without the service's own messages. */
export function serviceErrorSummary(e: ServiceError): string {
  if (e.reason === 'response-too-large') {
    const mib = String(Math.round(((e.limitBytes ?? 0) / (1024 * 1024)) * 10) / 10);
    return vscode.l10n.t(
      'The answer is larger than {0} MiB, the limit in the setting workItemStudio.network.maxResponseMegabytes. Raise the setting (up to 500) and try again.',
      mib,
    );
  }
  const reason = e.reason ? reasonText(e.reason) : undefined;
  if (reason) {
    // The client named the cause (TLS, DNS, proxy, timeout...): say it in the user's language.
    if (e.kind === 'connect') return vscode.l10n.t('Could not connect: {0}.', reason);
    if (e.kind === 'http' && e.status === 407) return vscode.l10n.t('The proxy refused the request (407): {0}.', reason);
    if (e.kind === 'network' || e.kind === 'timeout') return vscode.l10n.t('{0} ({1})', plainSummary(e), reason);
  }
  return plainSummary(e);
}

/** The localized explanation of a network failure reason (English text from the client is the key). */
function reasonText(reason: NetworkReason): string | undefined {
  const text = core().NETWORK_REASON_TEXT[reason];
  // `comment` stays empty: VS Code looks a message with a comment up under "message/comment", not the English key.
  return text ? vscode.l10n.t({ message: text, args: [], comment: [] }) : undefined;
}

/** True for a refused sign-in: `POST /auth/token` answered 401 or 403. */
export function isSignInRefusal(e: ServiceError): boolean {
  return e.kind === 'http' && (e.status === 401 || e.status === 403) && e.method === 'POST' && /^\/auth\/token\/?$/i.test(e.path);
}

function plainSummary(e: ServiceError): string {
  switch (e.kind) {
    case 'http':
      if (isSignInRefusal(e)) {
        return vscode.l10n.t(
          'Sign-in failed ({0}). Possible causes: the login name or password is wrong; the user is deleted or locked; on a site with single sign-on, an administrator must allow local authentication for this user before the API can be used.',
          String(e.status),
        );
      }
      return httpSummary(e.status);
    case 'connect':
      return connectSummary(e.code);
    case 'network':
      return vscode.l10n.t('The connection failed after the request was sent; whether the service applied it is unknown.');
    case 'timeout':
      return vscode.l10n.t('The service did not answer in time.');
    case 'cancelled':
      return vscode.l10n.t('The request was cancelled.');
    case 'invalid-response':
      return vscode.l10n.t('The service answered with data of an unexpected shape.');
    case 'invalid-request':
      return vscode.l10n.t('The request was not sent because it is not valid.');
  }
}

function httpSummary(status: number | undefined): string {
  switch (status) {
    case 400:
      return vscode.l10n.t('The service rejected the request (400 Bad Request).');
    case 401:
      return vscode.l10n.t('The service needs you to sign in (401): the credentials are missing, wrong or expired.');
    case 403:
      return vscode.l10n.t('You do not have permission for this operation (403).');
    case 404:
      return vscode.l10n.t('The service did not find what was asked for (404). Check the service URL and the IDs.');
    case 409:
      return vscode.l10n.t('The request conflicts with the current state (409).');
    case 429:
      return vscode.l10n.t('Too many requests (429): the service asked to slow down.');
    case 500:
      return vscode.l10n.t('The service failed with an internal error (500).');
    case 502:
    case 503:
    case 504:
      return vscode.l10n.t('The service is unavailable ({0}). Try again later.', String(status));
    default:
      return vscode.l10n.t('The service answered with status {0}.', String(status ?? '?'));
  }
}

function connectSummary(code: string | undefined): string {
  switch (code) {
    case 'ECONNREFUSED':
      return vscode.l10n.t('Could not connect: the service refused the connection (is it running, and is the URL right?).');
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return vscode.l10n.t('Could not connect: the host name could not be resolved (DNS).');
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return vscode.l10n.t('Could not connect: the connection timed out.');
    case 'CERT_HAS_EXPIRED':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return vscode.l10n.t('Could not connect: the server certificate is not trusted ({0}). Set workItemStudio.network.caFile to your CA certificate.', code);
    default:
      return code
        ? vscode.l10n.t('Could not connect to the service ({0}).', code)
        : vscode.l10n.t('Could not connect to the service.');
  }
}

/**
 * The service's messages, translated where the body names a known error code and
 * gives the values its template needs (the service's own text otherwise).
 */
export function serviceErrorDetails(e: ServiceError): string[] {
  // The summary already says it all (the limit and the setting).
  if (e.reason === 'response-too-large') return [];
  // Entries stand for the messages one to one only when no message came from elsewhere in the body.
  if (e.entries.length === 0 || e.entries.length !== e.messages.length) return [...e.messages];
  return e.entries.map(localizedServiceEntry);
}

/** One error entry as a translated sentence, with the work item and the spec's condition number when given. */
export function localizedServiceEntry(entry: ServiceErrorEntry): string {
  const text = localizedEntry(entry.message, entry.code, entry.params);
  if (text === entry.message) return text;
  const withItem = entry.itemId ? vscode.l10n.t('Work item {0}: {1}', entry.itemId, text) : text;
  return entry.rule !== undefined ? vscode.l10n.t('{0} (error {1})', withItem, entry.rule) : withItem;
}

/** A translated sentence for a known code whose placeholders are all given; else the service's text. */
export function localizedEntry(message: string, code: string | undefined, params: Readonly<Record<string, unknown>> | undefined): string {
  if (!code || !core().isErrorCode(code)) return message;
  const template = core().ERROR_CODES[code].message;
  const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  if (names.some((n) => params?.[n] === undefined)) return message;
  const args: Record<string, string> = {};
  const phrased = core().localizeParams(params ?? {}, (key, a) => vscode.l10n.t({ message: key, args: a, comment: [] }));
  for (const n of names) args[n] = String(phrased[n]);
  return vscode.l10n.t({ message: template, args, comment: [] });
}

/** Summary plus the service's messages, for a notification or a tree row. */
export function describeError(e: unknown): string {
  if (core().isServiceError(e)) {
    const details = serviceErrorDetails(e);
    return details.length > 0 ? `${serviceErrorSummary(e)} ${details.join(' / ')}` : serviceErrorSummary(e);
  }
  if (e instanceof core().NetworkConfigError) return networkConfigSentence(e);
  if (e instanceof core().JournalError) return journalSentence(e) ?? e.message;
  if (e instanceof Error) return e.message;
  return String(e);
}

/** Configuration and job-file errors with a localized sentence of their own (the log keeps the full English detail). */
export function isLocalizedConfigError(e: unknown): e is NetworkConfigError | JournalError {
  return e instanceof core().NetworkConfigError || (e instanceof core().JournalError && journalSentence(e) !== undefined);
}

/** The last segment of a path (either separator): the sentence names the file, the log has the full path. */
function fileName(file: string): string {
  return file.split(/[\\/]/).filter(Boolean).pop() ?? file;
}

/** What is wrong with the proxy or CA configuration, naming the setting (or environment variable) to fix. */
function networkConfigSentence(e: NetworkConfigError): string {
  const file = e.origin.file ? fileName(e.origin.file) : undefined;
  const variable = e.origin.variable;
  switch (e.code) {
    case 'CA_FILE_UNREADABLE':
      return file
        ? vscode.l10n.t('The CA certificate file {0} cannot be read. Check the path in the setting workItemStudio.network.caFile.', file)
        : vscode.l10n.t('The CA certificate file cannot be read. Check the path in the setting workItemStudio.network.caFile.');
    case 'CA_INVALID':
      return file
        ? vscode.l10n.t('The CA certificate file {0} holds no valid certificate (PEM or DER expected). Check the setting workItemStudio.network.caFile.', file)
        : vscode.l10n.t('A CA certificate is not valid (PEM or DER expected). Check the setting workItemStudio.network.caFile.');
    case 'PROXY_URL_INVALID':
      return variable
        ? vscode.l10n.t('The proxy URL in the environment variable {0} is not valid. Correct or remove {0}, or set http.proxy.', variable)
        : vscode.l10n.t('The proxy URL is not valid. Correct the setting {0}.', e.origin.setting ?? 'http.proxy');
    case 'PROXY_PROTOCOL_UNSUPPORTED':
      return variable
        ? vscode.l10n.t('The proxy in the environment variable {0} uses an unsupported protocol; only http:// and https:// proxies are supported. Correct or remove {0}, or set http.proxy.', variable)
        : vscode.l10n.t('The proxy uses an unsupported protocol; only http:// and https:// proxies are supported. Correct the setting {0}.', e.origin.setting ?? 'http.proxy');
  }
}

/** What went wrong with a job file, naming it; undefined for codes whose message is not about the file. */
function journalSentence(e: JournalError): string | undefined {
  const file = fileName(e.file);
  switch (e.code) {
    case 'corrupt':
      return vscode.l10n.t('The job file {0} is damaged and cannot be used. The log has the details.', file);
    case 'unreadable':
      return vscode.l10n.t('The job file {0} cannot be read. The log has the details.', file);
    case 'unsupported':
      return vscode.l10n.t('The job file {0} was written in a format this version of Work Item Studio does not read.', file);
    case 'write-failed':
      return vscode.l10n.t('The job file {0} could not be written. Check that its folder exists and is writable; the log has the details.', file);
    case 'locked':
      return vscode.l10n.t('The job file {0} is in use by another window or process. Try again when that run has finished.', file);
    case 'invalid-argument':
      return undefined;
  }
}

export function isUnauthorized(e: unknown): boolean {
  return core().isServiceError(e) && e.kind === 'http' && e.status === 401;
}
