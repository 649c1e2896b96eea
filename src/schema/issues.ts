// Problems found in a request document or an update body, each on the exact
// member's JSON path. No vscode import: the editor turns them into diagnostics.
import { ERROR_CODES, type ErrorCode, type MessageParams, formatErrorCode } from './error-codes';

/** JSON path into the checked value: member names and array indexes. */
export type JsonPath = (string | number)[];

export type IssueFix =
  /** Rename the member (object key) at the issue's path to `to`. */
  | { kind: 'rename-member'; to: string }
  /**
   * Replace the (string) value at the issue's path with `to`. `all`: the value with every
   * sure correction of it made (several names of one list), for "fix all".
   */
  | { kind: 'replace-value'; to: string; all?: string }
  /** Replace the ID `text` (an entry of workItemIds, or a token of its string) with the IDs it stands for. */
  | { kind: 'expand-range'; text: string; ids: string[] };

export interface DocumentIssue {
  severity: 'error' | 'warning';
  /** A key of ERROR_CODES (src/schema/error-codes.ts). */
  code: string;
  /** English sentence naming the member; the UI may localize ERROR_CODES[code].message with `params` instead. */
  message: string;
  /** JSON path into the document (or into the body plus the caller's base path). */
  path: JsonPath;
  fix?: IssueFix;
  /** The values filled into the code's message template. */
  params?: MessageParams;
}

export function makeIssue(
  code: ErrorCode,
  path: JsonPath,
  params: MessageParams = {},
  extra: { severity?: 'error' | 'warning'; fix?: IssueFix} = {},
): DocumentIssue {
  const info = ERROR_CODES[code] as { severity?: 'error' | 'warning' };
  const issue: DocumentIssue = {
    severity: extra.severity ?? info.severity ?? 'error',
    code,
    message: formatErrorCode(code, params),
    path,
    params,
  };
  if (extra.fix) issue.fix = extra.fix;
  return issue;
}

export function hasErrors(issues: readonly DocumentIssue[]): boolean {
  return issues.some((i) => i.severity === 'error');
}

/** `update.assignmentChange.adds[0].partyId` — the way messages and logs name a member. */
export function formatJsonPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(seg)) out += out ? `.${seg}` : seg;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out || '(document)';
}

/** Short description of a JSON value's type for messages: `a string ("abc")`, `a list`, `null`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'string': {
      const s = value.length > 40 ? `${value.slice(0, 37)}...` : value;
      return `the text ${JSON.stringify(s)}`;
    }
    case 'number':
      return `the number ${value}`;
    case 'boolean':
      return String(value);
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}
