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
//
// A request may add work items instead (the body of POST /workitem/workItems/{parentId}/subItems
// beside the item they go below), or delete some (DELETE /workitem/workItems/{ids}; undo
// documents write it to take back an add), in a change set or as a document of its own:
//
//   { "add": { "parentId": "3001", "fields": { "ItemTypeId": "4", "Name": "Design" },
//              "subItems": [{ "fields": { "ItemTypeId": "5", "Name": "Review" } }], "orderLast": true } }
//   { "delete": { "workItemIds": ["3107", "3108"] } }
//
// A request names existing items only: an item added by one request cannot be named by a
// later one (its ID is the service's, known once it is added).
import { z } from 'zod';
import { UpdateWorkItemsBody } from './api';
import { type DocumentIssue, type JsonPath, describeValue, hasErrors, makeIssue } from './issues';
import { isPlaceholderText } from './placeholders';
import { checkUpdateBody, type UpdateCheckOptions } from './rules';
import { touchedFields } from './touched';
import { isPlainObject, MAX_ID_ISSUES, parseWorkItemIds, readIds } from './document-ids';
import { readAdd, type AddSpec } from './add-rules';
import { AddWorkItemRequest as AddWorkItemRequestSchema, type AddWorkItemRequest } from './additions';

export { MAX_ID_ISSUES, parseWorkItemIds } from './document-ids';
export type { AddSpec } from './add-rules';

export type { DocumentIssue, IssueFix, JsonPath } from './issues';

/** What a request does: updates its items (PUT), adds items below one (POST), or deletes its items (DELETE). */
export type RequestKind = 'update' | 'add' | 'delete';

/**
 * One request of a document: the items and the body of one PUT (split into batches when
 * large); or, with `kind`, an add (one POST: `add`; `workItemIds` empty, `update` empty)
 * or a delete of `workItemIds` (`update` empty).
 */
export interface DocumentRequest {
  description?: string;
  /** In the order written, duplicates kept (the bulk engine deduplicates and says so). */
  workItemIds: string[];
  update: UpdateWorkItemsBody;
  /** Absent for an update. */
  kind?: Exclude<RequestKind, 'update'>;
  /** For an add: where, and the body. */
  add?: AddSpec;
}

/** The kind of a request. */
export function kindOf(r: Pick<DocumentRequest, 'kind'>): RequestKind {
  return r.kind ?? 'update';
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

export const DOCUMENT_MEMBERS = ['$schema', 'description', 'service', 'workItemIds', 'update', 'add', 'delete', 'requests'] as const;
/** The members of one request of a change set. */
export const REQUEST_MEMBERS = ['description', 'workItemIds', 'update', 'add', 'delete'] as const;
/** The members that make a request an add or a delete instead of an update. */
const KIND_MEMBERS = ['add', 'delete'] as const;
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

export const ADD_TEXT =
  'Adds a work item (with its sub-items) directly below "parentId", instead of "workItemIds" and "update": the body of POST /workitem/workItems/{parentId}/subItems beside the parent ID. Sent as one request; undone by deleting what it added.';
export const DELETE_TEXT =
  'Deletes work items, instead of "workItemIds" and "update": DELETE /workitem/workItems/{workItemIds}. A deleted item goes with the items below it; the update\'s "restore" brings it back.';

/** The `add` member: the parent and the POST's body (for the JSON Schema; the checks are readAdd's). */
export const AddSchema = AddWorkItemRequestSchema.extend({
  parentId: WorkItemIdValue.describe('ID of the folder or work item to add below.'),
}).describe(ADD_TEXT);
export const DeleteSchema = z
  .strictObject({ workItemIds: IdsSchema.describe('IDs of the work items to delete: a list of IDs, or one string of IDs separated by commas, spaces or new lines.') })
  .describe(DELETE_TEXT);

/** One request of a change set: an update (`workItemIds` and `update`), an add or a delete. */
export const DocumentRequestSchema = z.strictObject({
  description: z.string().optional().describe('What this request does (not sent to the service).'),
  workItemIds: IdsSchema.optional(),
  update: UpdateSchema.optional(),
  add: AddSchema.optional(),
  delete: DeleteSchema.optional(),
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
  add: AddSchema.optional(),
  delete: DeleteSchema.optional(),
  requests: z
    .array(DocumentRequestSchema)
    .optional()
    .describe(REQUESTS_TEXT),
});

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
    for (const m of ['workItemIds', 'update', ...KIND_MEMBERS] as const) {
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
  const kind = KIND_MEMBERS.find((k) => value[k] !== undefined);
  if (kind !== undefined) return readKind(value, kind, base, issues, options, entry, idsRead);
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
 * Reads a request that adds or deletes instead of updating (`kind`, at `base`): one kind of
 * request each, so `workItemIds`, `update` or the other kind beside it are errors.
 */
function readKind(
  value: Record<string, unknown>,
  kind: (typeof KIND_MEMBERS)[number],
  base: JsonPath,
  issues: DocumentIssue[],
  options: UpdateCheckOptions,
  entry: boolean,
  idsRead: (string[] | undefined)[],
): DocumentRequest | undefined {
  for (const m of ['workItemIds', 'update', ...KIND_MEMBERS] as const) {
    if (m !== kind && value[m] !== undefined) issues.push(makeIssue('DOCUMENT_REQUEST_TWO_KINDS', [...base, m], { member: m, kind }));
  }
  const at: JsonPath = [...base, kind];
  findPlaceholders(value[kind], at, issues);
  const out: DocumentRequest = { workItemIds: [], update: {}, kind };
  if (entry && typeof value.description === 'string') out.description = value.description;
  if (kind === 'add') {
    idsRead.push(undefined);
    const add = readAdd(value.add, at, issues, options);
    if (!add) return undefined;
    out.add = add;
    return out;
  }
  const raw = value.delete;
  if (!isPlainObject(raw)) {
    issues.push(makeIssue('WRONG_TYPE', at, { member: 'delete', expected: 'an object with "workItemIds"', actual: describeValue(raw) }));
    idsRead.push(undefined);
    return undefined;
  }
  for (const key of Object.keys(raw)) if (key !== 'workItemIds') issues.push(makeIssue('UNKNOWN_MEMBER', [...at, key], { member: key, where: 'delete', allowed: 'workItemIds' }));
  let ids: string[] | undefined;
  if (raw.workItemIds === undefined) issues.push(makeIssue('DOCUMENT_IDS_MISSING', at, {}));
  else {
    ids = readIds(raw.workItemIds, issues, at);
    findPlaceholders(raw.workItemIds, [...at, 'workItemIds'], issues, true);
  }
  idsRead.push(ids);
  if (!ids) return undefined;
  out.workItemIds = ids;
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
  // A deleted item is the one request's that deletes it: no other request of the change names it, or adds below it.
  const deletedBy = new Map<string, number>();
  requests.forEach((r, i) => {
    if (r.kind === 'delete') for (const id of r.workItemIds) if (!deletedBy.has(id)) deletedBy.set(id, i);
  });
  requests.forEach((r, i) => {
    const entry = raw[i] as Record<string, unknown>;
    if (r.add) {
      const by = deletedBy.get(r.add.parentId);
      if (by !== undefined && reported++ < MAX_ID_ISSUES) issues.push(makeIssue('ADD_PARENT_DELETED_IN_CHANGE', ['requests', i, 'add', 'parentId'], { id: r.add.parentId, request: by + 1 }));
      return;
    }
    const del = r.kind === 'delete';
    const written = del ? (entry.delete as Record<string, unknown>).workItemIds : entry.workItemIds;
    const idsAt: JsonPath = del ? ['requests', i, 'delete', 'workItemIds'] : ['requests', i, 'workItemIds'];
    const fields = touchedFields(r.update);
    const seenHere = new Set<string>();
    for (const [k, id] of r.workItemIds.entries()) {
      if (seenHere.has(id)) continue; // a duplicate within one request is its own warning
      seenHere.add(id);
      const by = deletedBy.get(id);
      if (by !== undefined && by !== i) {
        if (reported++ < MAX_ID_ISSUES) issues.push(makeIssue('DOCUMENT_DELETED_ITEM_NAMED', Array.isArray(written) ? [...idsAt, positionOf(written, id, k)] : idsAt, { id, request: by + 1 }));
        continue;
      }
      if (del) continue;
      let mine = claimed.get(id);
      if (!mine) claimed.set(id, (mine = new Map()));
      const clash = fields.find((f) => mine.has(f));
      if (clash === undefined) {
        for (const f of fields) mine.set(f, i);
        continue;
      }
      if (reported++ >= MAX_ID_ISSUES) continue;
      const at: JsonPath = Array.isArray(written) ? [...idsAt, positionOf(written, id, k)] : idsAt;
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

/** A request of a change set as written: an update, an add (`add`: the parent and the body) or a delete (`delete`: the IDs). */
export type NewChangeRequest<U = UpdateWorkItemsBody, I = string> =
  | { description?: string; workItemIds: I[]; update: U }
  | { description?: string; add: { parentId: string } & AddWorkItemRequest }
  | { description?: string; delete: { workItemIds: I[] } };

/** A change set value as written to a new file: several requests sent, previewed and undone as one. */
export type NewChangeSet<U = UpdateWorkItemsBody, I = string> = {
  $schema?: string;
  description?: string;
  service?: string;
  requests: NewChangeRequest<U, I>[];
};

/** A request to write: an update, or with `kind` an add (`add`) or a delete of `workItemIds`. */
export interface ChangeRequestInput<U = UpdateWorkItemsBody, I = string> {
  description?: string;
  workItemIds: readonly I[];
  update: U;
  kind?: 'add' | 'delete';
  add?: AddSpec;
}

/** A request as the document writes it (its members in one order). */
function writtenRequest<U, I>(r: ChangeRequestInput<U, I>, withDescription: boolean): NewChangeRequest<U, I> {
  const description = withDescription && r.description !== undefined ? { description: r.description } : {};
  if (r.kind === 'add' && r.add) return { ...description, add: { parentId: r.add.parentId, ...r.add.item } };
  if (r.kind === 'delete') return { ...description, delete: { workItemIds: [...r.workItemIds] } };
  return { ...description, workItemIds: [...r.workItemIds], update: r.update };
}

/**
 * Builds a document for a list of requests: the single-request form for one request
 * (which reads as it always did; an add or a delete as a document of its own), a change
 * set for several.
 */
export function createChangeDocument<U = UpdateWorkItemsBody, I = string>(
  requests: readonly ChangeRequestInput<U, I>[],
  options: { description?: string; schemaUrl?: string; service?: string } = {},
): NewRequestDocument<U, I> | NewChangeSet<U, I> | ({ $schema?: string; description?: string; service?: string } & NewChangeRequest<U, I>) {
  const head: { $schema?: string; description?: string; service?: string } = {};
  if (options.schemaUrl) head.$schema = options.schemaUrl;
  if (requests.length === 1) {
    const only = requests[0]!;
    if (only.kind === undefined) return createRequestDocument(only.workItemIds, only.update, { ...options, description: options.description ?? only.description });
    const description = options.description ?? only.description;
    if (description !== undefined) head.description = description;
    if (options.service !== undefined) head.service = options.service;
    return { ...head, ...writtenRequest(only, false) };
  }
  if (options.description !== undefined) head.description = options.description;
  if (options.service !== undefined) head.service = options.service;
  return { ...head, requests: requests.map((r) => writtenRequest(r, true)) };
}
