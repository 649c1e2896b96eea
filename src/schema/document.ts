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
//
// or, for a change of several requests sent, previewed and undone as one (a change set):
//
//   {
//     "description": "Review of the table's edits",
//     "requests": [
//       { "workItemIds": ["120", "121"], "update": { "fields": { "StatusId": "3" } } },
//       { "workItemIds": ["122"], "update": { "moveScheduleDays": 7 } }
//     ]
//   }
//
// The requests are sent in their order. An item may be in several requests when they
// change different fields of it, so that each field's value before, prediction and undo
// belong to one request.
import { z } from 'zod';
import { UpdateWorkItemsBody } from './api';
import { type DocumentIssue, type JsonPath, describeValue, hasErrors, makeIssue } from './issues';
import { idRange } from './id-ranges';
import { isPlaceholderText } from './placeholders';
import { checkUpdateBody, workItemIdProblem, type UpdateCheckOptions } from './rules';
import { pathLookalike } from './id-lookalikes';
import { touchedFields } from './touched';

export type { DocumentIssue, IssueFix, JsonPath } from './issues';

/** One request of a document: the items and the body of one PUT (split into batches when large). */
export interface DocumentRequest {
  description?: string;
  /** In the order written, duplicates kept (the bulk engine deduplicates and says so). */
  workItemIds: string[];
  update: UpdateWorkItemsBody;
}

/** A request document after validation: IDs as trimmed strings, the bodies normalized. */
export interface RequestDocument {
  description?: string;
  /** The base URL of the only service this document may be sent to (undo documents: the job's service). */
  service?: string;
  /** The requests in the order they are sent: one for the single-request form. */
  requests: DocumentRequest[];
  /** Written with `requests` (a change set), rather than with `workItemIds` and `update`. */
  changeSet: boolean;
}

/** The JSON path of request `index` of a document (`[]` for the single-request form). */
export function requestPath(doc: { changeSet: boolean }, index: number): JsonPath {
  return doc.changeSet ? ['requests', index] : [];
}

/** Every ID of a document's requests, in order, each once. */
export function documentIds(doc: Pick<RequestDocument, 'requests'>): string[] {
  return [...new Set(doc.requests.flatMap((r) => r.workItemIds))];
}

export interface DocumentValidation {
  /** True when no issue is an error; only then is `document` set and may it be sent. */
  ok: boolean;
  document?: RequestDocument;
  issues: DocumentIssue[];
  /** The IDs read from `workItemIds` (of every request) when they could be read, even when other members have errors. */
  workItemIds?: string[];
}

export { REQUEST_DOCUMENT_SUFFIX } from './suffix';

export const DOCUMENT_MEMBERS = ['$schema', 'description', 'service', 'workItemIds', 'update', 'requests'] as const;
/** The members of one request of a change set. */
export const REQUEST_MEMBERS = ['description', 'workItemIds', 'update'] as const;
/** At most this many requests in one document (each may still be split into batches). */
export const MAX_DOCUMENT_REQUESTS = 1000;

/** A work item ID as written in a document: a string or a whole number. */
export const WorkItemIdValue = z.union([z.string(), z.number().int()]);

const IdsSchema = z
  .union([z.array(WorkItemIdValue), z.string()])
  .describe(
    'IDs of the work items to update: a list of IDs, or one string of IDs separated by commas, spaces or new lines (a column pasted from a spreadsheet). Duplicates are sent once; more than 1000 IDs are split into several requests.',
  );
const UpdateSchema = UpdateWorkItemsBody.describe('The change to make to every listed work item: the body of PUT /workitem/workItems/{workItemIds}.');

export const REQUESTS_TEXT =
  'A change of several requests, sent in this order, previewed, confirmed, sent and undone as one (instead of "workItemIds" and "update"). A field of a work item may be changed by one request only.';

/** One request of a change set. */
export const DocumentRequestSchema = z.strictObject({
  description: z.string().optional().describe('What this request does (not sent to the service).'),
  workItemIds: IdsSchema,
  update: UpdateSchema,
});

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
  workItemIds: IdsSchema.optional(),
  update: UpdateSchema.optional(),
  requests: z
    .array(DocumentRequestSchema)
    .optional()
    .describe(REQUESTS_TEXT),
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

function readIds(raw: unknown, issues: DocumentIssue[], base: JsonPath = []): string[] | undefined {
  const path: JsonPath = [...base, 'workItemIds'];
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

  const requests: DocumentRequest[] = [];
  /** The IDs of each request as far as they could be read (also of requests with other errors). */
  const idsRead: (string[] | undefined)[] = [];
  let readable = true;
  let changeSet = false;
  if (value.requests !== undefined) {
    changeSet = true;
    for (const m of ['workItemIds', 'update'] as const) {
      if (value[m] !== undefined) issues.push(makeIssue('DOCUMENT_BOTH_FORMS', [m], { member: m }));
    }
    if (!Array.isArray(value.requests)) {
      issues.push(makeIssue('WRONG_TYPE', ['requests'], { member: 'requests', expected: 'a list of requests', actual: describeValue(value.requests) }));
      readable = false;
    } else if (value.requests.length === 0) {
      issues.push(makeIssue('DOCUMENT_REQUESTS_EMPTY', ['requests'], {}));
      readable = false;
    } else if (value.requests.length > MAX_DOCUMENT_REQUESTS) {
      issues.push(makeIssue('DOCUMENT_REQUESTS_TOO_MANY', ['requests'], { count: value.requests.length, max: MAX_DOCUMENT_REQUESTS }));
      readable = false;
    } else {
      value.requests.forEach((raw, i) => {
        const r = readRequest(raw, ['requests', i], issues, options, true, idsRead);
        if (r) requests.push(r);
        else readable = false;
      });
    }
  } else {
    const r = readRequest(value, [], issues, options, false, idsRead);
    if (r) requests.push(r);
    else readable = false;
  }
  if (readable && changeSet) checkSharedItems(value.requests as unknown[], requests, issues);

  const ok = !hasErrors(issues) && readable;
  const result: DocumentValidation = { ok, issues };
  if (idsRead.some((l) => l !== undefined)) result.workItemIds = idsRead.flatMap((l) => l ?? []);
  if (ok) {
    const doc: RequestDocument = { requests, changeSet };
    if (typeof description === 'string') doc.description = description;
    if (typeof service === 'string') doc.service = service.trim();
    result.document = doc;
  }
  return result;
}

/**
 * Reads one request (the document itself in the single-request form, or an entry of
 * `requests` at `base`), adding its issues. Undefined when its IDs or body cannot be
 * read; a request with only warnings, or with errors in valid JSON shapes, is returned.
 */
function readRequest(raw: unknown, base: JsonPath, issues: DocumentIssue[], options: UpdateCheckOptions, entry: boolean, idsRead: (string[] | undefined)[]): DocumentRequest | undefined {
  if (entry) {
    if (!isPlainObject(raw)) {
      issues.push(makeIssue('DOCUMENT_REQUEST_NOT_OBJECT', base, { actual: describeValue(raw) }));
      return undefined;
    }
    for (const key of Object.keys(raw)) {
      if ((REQUEST_MEMBERS as readonly string[]).includes(key)) continue;
      const canonical = REQUEST_MEMBERS.find((m) => m.toLowerCase() === key.toLowerCase());
      issues.push(
        makeIssue('DOCUMENT_REQUEST_UNKNOWN_MEMBER', [...base, key], { member: key }, {
          ...(canonical ? { fix: { kind: 'rename-member', to: canonical } as const } : {}),
        }),
      );
    }
    if (raw.description !== undefined && typeof raw.description !== 'string') {
      issues.push(makeIssue('WRONG_TYPE', [...base, 'description'], { member: 'description', expected: 'a string', actual: describeValue(raw.description) }));
    }
  }
  const value = raw as Record<string, unknown>;
  let ids: string[] | undefined;
  if (value.workItemIds === undefined) issues.push(makeIssue('DOCUMENT_IDS_MISSING', base, {}));
  else ids = readIds(value.workItemIds, issues, base);
  idsRead.push(ids);

  let update: UpdateWorkItemsBody | undefined;
  if (value.update === undefined) {
    issues.push(makeIssue('DOCUMENT_UPDATE_MISSING', base, {}));
  } else {
    const checked = checkUpdateBody(value.update, [...base, 'update'], options);
    issues.push(...checked.issues);
    update = checked.body;
  }

  // Placeholders of templates and commands left in the document ("WORK-ITEM-ID", "PARENT-ID", ...).
  if (value.workItemIds !== undefined) findPlaceholders(value.workItemIds, [...base, 'workItemIds'], issues, true);
  if (value.update !== undefined) findPlaceholders(value.update, [...base, 'update'], issues);
  if (ids === undefined || update === undefined) return undefined;
  const out: DocumentRequest = { workItemIds: ids, update };
  if (entry && typeof value.description === 'string') out.description = value.description;
  return out;
}

/**
 * An item may be in several requests of a change when they change different fields of it
 * (the undo of a change puts back its schedule and its fields by separate requests, say);
 * a field of an item changed by two requests is an error on the later entry: its value
 * before, its prediction and its undo would depend on the order.
 */
function checkSharedItems(raw: unknown[], requests: readonly DocumentRequest[], issues: DocumentIssue[]): void {
  const claimed = new Map<string, Map<string, number>>();
  let reported = 0;
  requests.forEach((r, i) => {
    const entry = raw[i] as Record<string, unknown>;
    const written = entry.workItemIds;
    const fields = touchedFields(r.update);
    const seenHere = new Set<string>();
    for (const [k, id] of r.workItemIds.entries()) {
      if (seenHere.has(id)) continue; // a duplicate within one request is its own warning
      seenHere.add(id);
      let mine = claimed.get(id);
      if (!mine) claimed.set(id, (mine = new Map()));
      const clash = fields.find((f) => mine.has(f));
      if (clash === undefined) {
        for (const f of fields) mine.set(f, i);
        continue;
      }
      if (reported++ >= MAX_ID_ISSUES) continue;
      const at: JsonPath = Array.isArray(written) ? ['requests', i, 'workItemIds', positionOf(written, id, k)] : ['requests', i, 'workItemIds'];
      issues.push(makeIssue('DOCUMENT_ID_IN_TWO_REQUESTS', at, { id, request: mine.get(clash)! + 1, field: clash }));
    }
  });
  if (reported > MAX_ID_ISSUES) issues.push(makeIssue('DOCUMENT_IDS_MORE_PROBLEMS', ['requests'], { count: reported - MAX_ID_ISSUES }));
}

/** Index in the written list of the entry that reads as `id` (the k-th kept ID), for the issue's position. */
function positionOf(written: unknown[], id: string, k: number): number {
  const exact = written.findIndex((v, i) => i >= k && (typeof v === 'string' ? v.trim() : String(v)) === id);
  return exact >= 0 ? exact : k;
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
function findPlaceholders(value: unknown, path: JsonPath, issues: DocumentIssue[], idList = false): void {
  if (typeof value === 'string') {
    const found = new Set(idList ? parseWorkItemIds(value) : [value]);
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

/** A change set value as written to a new file: several requests sent, previewed and undone as one. */
export type NewChangeSet<U = UpdateWorkItemsBody, I = string> = {
  $schema?: string;
  description?: string;
  service?: string;
  requests: { description?: string; workItemIds: I[]; update: U }[];
};

/**
 * Builds a document for a list of requests: the single-request form for one request
 * (which reads as it always did), a change set for several.
 */
export function createChangeDocument<U = UpdateWorkItemsBody, I = string>(
  requests: readonly { description?: string; workItemIds: readonly I[]; update: U }[],
  options: { description?: string; schemaUrl?: string; service?: string } = {},
): NewRequestDocument<U, I> | NewChangeSet<U, I> {
  if (requests.length === 1) {
    const only = requests[0]!;
    return createRequestDocument(only.workItemIds, only.update, { ...options, description: options.description ?? only.description });
  }
  const doc: Partial<NewChangeSet<U, I>> = {};
  if (options.schemaUrl) doc.$schema = options.schemaUrl;
  if (options.description !== undefined) doc.description = options.description;
  if (options.service !== undefined) doc.service = options.service;
  doc.requests = requests.map((r) => ({ ...(r.description !== undefined ? { description: r.description } : {}), workItemIds: [...r.workItemIds], update: r.update }));
  return doc as NewChangeSet<U, I>;
}
