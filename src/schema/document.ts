// The request document (`*.workitems.json`): the file a user edits to
// bulk-update work items. It names the target work items and holds one update
// body, so it can be kept in a repository and re-run as a script:
//
//   {
//     "$schema": "...",                      // optional, ignored
//     "description": "Shift sprint 12 by a week",   // optional
//     "service": "https://pm.example.com/api",      // optional: sent only to this service
//     "workItemIds": ["120", 121, "122"],   // or "120, 121 122\n123"
//     "update": { "moveScheduleDays": 7 }   // UpdateWorkItemsBody
//   }
import { z } from 'zod';
import { UpdateWorkItemsBody } from './api';
import { type DocumentIssue, type JsonPath, describeValue, hasErrors, makeIssue } from './issues';
import { idRange } from './id-ranges';
import { isPlaceholderText } from './placeholders';
import { checkUpdateBody, workItemIdProblem, type UpdateCheckOptions } from './rules';
import { pathLookalike } from './id-lookalikes';

export type { DocumentIssue, IssueFix, JsonPath } from './issues';

/** A request document after validation: IDs as trimmed strings, the body normalized. */
export interface RequestDocument {
  description?: string;
  /** The base URL of the only service this document may be sent to (undo documents: the job's service). */
  service?: string;
  /** In the order written, duplicates kept (the bulk engine deduplicates and says so). */
  workItemIds: string[];
  update: UpdateWorkItemsBody;
}

export interface DocumentValidation {
  /** True when no issue is an error; only then is `document` set and may it be sent. */
  ok: boolean;
  document?: RequestDocument;
  issues: DocumentIssue[];
  /** The IDs read from `workItemIds` when that member could be read, even when other members have errors. */
  workItemIds?: string[];
}

export { REQUEST_DOCUMENT_SUFFIX } from './suffix';

export const DOCUMENT_MEMBERS = ['$schema', 'description', 'service', 'workItemIds', 'update'] as const;

/** A work item ID as written in a document: a string or a whole number. */
export const WorkItemIdValue = z.union([z.string(), z.number().int()]);

/** Shape of the request document (the JSON Schema is generated from it; rules live in validateRequestDocument). */
export const RequestDocumentSchema = z.strictObject({
  $schema: z.string().optional().describe('The JSON Schema of this file (optional; ignored when sending).'),
  description: z
    .string()
    .optional()
    .describe('What this request does, for the people who read or re-run it (not sent to the service).'),
  service: z
    .string()
    .optional()
    .describe(
      'The base URL of the only service this document may be sent to, e.g. "https://pm.example.com/api" (optional). Create Undo Document writes the service of the job it undoes; Send refuses the document while another service is in use.',
    ),
  workItemIds: z
    .union([z.array(WorkItemIdValue), z.string()])
    .describe(
      'IDs of the work items to update: a list of IDs, or one string of IDs separated by commas, spaces or new lines (a column pasted from a spreadsheet). Duplicates are sent once; more than 1000 IDs are split into several requests.',
    ),
  update: UpdateWorkItemsBody.describe(
    'The change to make to every listed work item: the body of PUT /workitem/workItems/{workItemIds}.',
  ),
});

/** Splits a string of IDs separated by commas, whitespace or new lines; empty entries are dropped. */
export function parseWorkItemIds(text: string): string[] {
  return text.split(/[\s,]+/).filter((s) => s.length > 0);
}

/** At most this many issues about individual IDs are listed; the rest are summarised in one issue. */
export const MAX_ID_ISSUES = 50;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A non-ASCII character in an ID that a server may read as `.`, `/`, `\\`, ... (`．．／` is `../` to it). */
function lookalikeProblem(id: string): ReturnType<typeof workItemIdProblem> {
  const l = pathLookalike(id);
  return l ? { code: 'ID_LOOKALIKE_CHARACTER', params: { id: id.length > 40 ? `${id.slice(0, 37)}...` : id, character: l.character, reads: l.reads } } : undefined;
}

function readIds(raw: unknown, issues: DocumentIssue[]): string[] | undefined {
  const path: JsonPath = ['workItemIds'];
  const idIssues: DocumentIssue[] = [];
  const entries: { id: string; path: JsonPath }[] = [];
  if (typeof raw === 'string') {
    for (const id of parseWorkItemIds(raw)) entries.push({ id, path });
  } else if (Array.isArray(raw)) {
    raw.forEach((v, i) => {
      const p = [...path, i];
      if (typeof v === 'string') entries.push({ id: v.trim(), path: p });
      else if (typeof v === 'number' && Number.isSafeInteger(v)) entries.push({ id: String(v), path: p });
      else idIssues.push(makeIssue('DOCUMENT_ID_TYPE', p, { actual: describeValue(v) }));
    });
  } else {
    issues.push(makeIssue('DOCUMENT_IDS_TYPE', path, {}));
    return undefined;
  }
  const seen = new Set<string>();
  const reportedDuplicate = new Set<string>();
  const ids: string[] = [];
  for (const e of entries) {
    const problem = workItemIdProblem(e.id) ?? lookalikeProblem(e.id);
    if (problem) {
      idIssues.push(makeIssue(problem.code, e.path, problem.params));
      continue;
    }
    const range = idRange(e.id);
    if (range && !seen.has(e.id)) {
      idIssues.push(
        makeIssue('DOCUMENT_ID_RANGE', e.path, { id: e.id, count: range.ids.length, from: range.ids[0]!, to: range.ids.at(-1)! }, { fix: { kind: 'expand-range', text: e.id, ids: range.ids } }),
      );
    }
    if (seen.has(e.id) && !reportedDuplicate.has(e.id)) {
      reportedDuplicate.add(e.id);
      idIssues.push(makeIssue('DOCUMENT_ID_DUPLICATE', e.path, { id: e.id }));
    }
    seen.add(e.id);
    ids.push(e.id);
  }
  if (idIssues.length > MAX_ID_ISSUES) {
    const rest = idIssues.slice(MAX_ID_ISSUES);
    issues.push(...idIssues.slice(0, MAX_ID_ISSUES));
    issues.push(
      makeIssue('DOCUMENT_IDS_MORE_PROBLEMS', path, { count: rest.length }, { severity: hasErrors(rest) ? 'error' : 'warning' }),
    );
  } else {
    issues.push(...idIssues);
  }
  if (entries.length === 0 && idIssues.length === 0) issues.push(makeIssue('DOCUMENT_IDS_EMPTY', path));
  return ids;
}

/**
 * Validates a parsed request document (the value of the JSON text): every
 * problem is an issue on the exact member's JSON path. A document with any
 * error issue is never sent. `options.catalogue`: the connected service's field
 * catalogue, which the field checks then follow.
 */
export function validateRequestDocument(value: unknown, options: UpdateCheckOptions = {}): DocumentValidation {
  const issues: DocumentIssue[] = [];
  if (!isPlainObject(value)) {
    issues.push(makeIssue('DOCUMENT_NOT_OBJECT', [], {}));
    return { ok: false, issues };
  }
  for (const key of Object.keys(value)) {
    if ((DOCUMENT_MEMBERS as readonly string[]).includes(key)) continue;
    const canonical = DOCUMENT_MEMBERS.find((m) => m.toLowerCase() === key.toLowerCase());
    issues.push(
      makeIssue('DOCUMENT_UNKNOWN_MEMBER', [key], { member: key }, {
        ...(canonical ? { fix: { kind: 'rename-member', to: canonical } as const } : {}),
      }),
    );
  }
  if (value.$schema !== undefined && typeof value.$schema !== 'string') {
    issues.push(makeIssue('WRONG_TYPE', ['$schema'], { member: '$schema', expected: 'a string', actual: describeValue(value.$schema) }));
  }
  const description = value.description;
  if (description !== undefined && typeof description !== 'string') {
    issues.push(
      makeIssue('WRONG_TYPE', ['description'], { member: 'description', expected: 'a string', actual: describeValue(description) }),
    );
  }

  const service = value.service;
  if (service !== undefined && !isBaseUrl(service)) {
    issues.push(
      makeIssue('WRONG_TYPE', ['service'], { member: 'service', expected: 'an http(s) base URL', actual: describeValue(service) }),
    );
  }

  let ids: string[] | undefined;
  if (value.workItemIds === undefined) issues.push(makeIssue('DOCUMENT_IDS_MISSING', [], {}));
  else ids = readIds(value.workItemIds, issues);

  let update: UpdateWorkItemsBody | undefined;
  if (value.update === undefined) {
    issues.push(makeIssue('DOCUMENT_UPDATE_MISSING', [], {}));
  } else {
    const checked = checkUpdateBody(value.update, ['update'], options);
    issues.push(...checked.issues);
    update = checked.body;
  }

  // Placeholders of templates and commands left in the document ("WORK-ITEM-ID", "PARENT-ID", ...).
  if (value.workItemIds !== undefined) findPlaceholders(value.workItemIds, ['workItemIds'], issues);
  if (value.update !== undefined) findPlaceholders(value.update, ['update'], issues);

  const ok = !hasErrors(issues) && ids !== undefined && update !== undefined;
  const result: DocumentValidation = { ok, issues };
  if (ids) result.workItemIds = ids;
  if (ok) {
    const doc: RequestDocument = { workItemIds: ids!, update: update! };
    if (typeof description === 'string') doc.description = description;
    if (typeof service === 'string') doc.service = service.trim();
    result.document = doc;
  }
  return result;
}

/** An http(s) URL without query, fragment or credentials: what `service` may hold. */
function isBaseUrl(v: unknown): v is string {
  if (typeof v !== 'string') return false;
  let u: URL;
  try {
    u = new URL(v.trim());
  } catch {
    return false;
  }
  return (u.protocol === 'http:' || u.protocol === 'https:') && !u.search && !u.hash && !u.username && !u.password;
}

/** Adds an issue for every placeholder text left in a value (one per string; a string of IDs may hold several). */
function findPlaceholders(value: unknown, path: JsonPath, issues: DocumentIssue[]): void {
  if (typeof value === 'string') {
    const found = new Set(path[0] === 'workItemIds' && path.length === 1 ? parseWorkItemIds(value) : [value]);
    for (const text of found) if (isPlaceholderText(text)) issues.push(makeIssue('PLACEHOLDER_LEFT', path, { value: text.trim() }));
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => findPlaceholders(v, [...path, i], issues));
  } else if (isPlainObject(value)) {
    for (const [k, v] of Object.entries(value)) findPlaceholders(v, [...path, k], issues);
  }
}

/** A request document value as written to a new file (`$schema`, `description` and `service` only when given). */
export type NewRequestDocument<U = UpdateWorkItemsBody, I = string> = {
  $schema?: string;
  description?: string;
  service?: string;
  workItemIds: I[];
  update: U;
};

/**
 * Builds a request document value: every new document (templates, "Assign to Work
 * Items…") is made here, so members come in one order. `U`/`I` let callers pass
 * update bodies and IDs with snippet placeholders in them.
 */
export function createRequestDocument<U = UpdateWorkItemsBody, I = string>(
  workItemIds: readonly I[],
  update: U,
  options: { description?: string; schemaUrl?: string; service?: string } = {},
): NewRequestDocument<U, I> {
  const doc: Partial<NewRequestDocument<U, I>> = {};
  if (options.schemaUrl) doc.$schema = options.schemaUrl;
  if (options.description !== undefined) doc.description = options.description;
  if (options.service !== undefined) doc.service = options.service;
  doc.workItemIds = [...workItemIds];
  doc.update = update;
  return doc as NewRequestDocument<U, I>;
}
