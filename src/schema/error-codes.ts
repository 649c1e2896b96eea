// One table of every problem code the extension produces or understands, so the UI
// can localize them (vscode-free layers return codes and data; the UI makes
// sentences).
//
// - Client codes: produced by the request-document and update-body checks in
//   src/schema/document.ts and src/schema/rules.ts before anything is sent.
// - Update-engine codes: produced by the sandbox's update engine
//   (src/sandbox/update.ts) in `[{"message","code","rule"?,...}]` error bodies.
//   Where a client check and a service rule describe the same condition, the
//   code is shared and `rule` names the condition's number in service-api.md
//   ("Errors" of the update operation).
//
// `message` is the English template. `{name}` placeholders are filled from an
// issue's `params` (the same syntax `vscode.l10n.t(message, params)` takes), so
// the UI can translate the template and fill it with the same params.

import { SANDBOX_ERROR_CODES, SANDBOX_HTTP_ERROR_CODE_INFO } from './sandbox-error-codes';

export type ErrorCodeSource = 'client' | 'sandbox';

export interface ErrorCodeInfo {
  /** English message template with `{name}` placeholders. */
  readonly message: string;
  /** Who produces the code: the client's checks, the sandbox's update engine, or both. */
  readonly producedBy: readonly ErrorCodeSource[];
  /** Severity when the client reports it (the sandbox only reports errors). */
  readonly severity?: 'error' | 'warning';
  /** Number of the matching condition in service-api.md, "Errors" of the update operation. */
  readonly rule?: number;
}

export const ERROR_CODES = {
  // -------------------------------------------------------------------------
  // Request document (*.workitems.json) — src/schema/document.ts
  // -------------------------------------------------------------------------
  DOCUMENT_NOT_OBJECT: {
    message: 'A request document must be a JSON object with "workItemIds" and "update", with "add" or "delete", or with "requests".',
    producedBy: ['client'],
    severity: 'error',
  },
  DOCUMENT_UNKNOWN_MEMBER: {
    message: 'Unknown member "{member}": a request document has only "description", "service", "workItemIds" and "update" (or "add", "delete" or "requests").',
    producedBy: ['client'],
    severity: 'error',
  },
  DOCUMENT_REQUEST_UNKNOWN_MEMBER: {
    message: 'Unknown member "{member}": a request of "requests" has only "description", "workItemIds" and "update" (or "add" or "delete").',
    producedBy: ['client'],
    severity: 'error',
  },
  DOCUMENT_REQUEST_NOT_OBJECT: {
    message: 'Each entry of "requests" must be an object with "workItemIds" and "update", not {actual}.',
    producedBy: ['client'],
    severity: 'error',
  },
  DOCUMENT_BOTH_FORMS: {
    message: '"{member}" cannot stand beside "requests": move it into a request of "requests", or remove "requests".',
    producedBy: ['client'],
    severity: 'error',
  },
  DOCUMENT_REQUESTS_EMPTY: {
    message: '"requests" holds no request: add at least one, with "workItemIds" and "update".',
    producedBy: ['client'],
    severity: 'error',
  },
  DOCUMENT_REQUESTS_TOO_MANY: {
    message: '"requests" holds {count} requests; one document holds at most {max}.',
    producedBy: ['client'],
    severity: 'error',
  },
  DOCUMENT_ID_IN_TWO_REQUESTS: {
    message: 'Work item ID "{id}" is already in request {request}, which changes {field} too: a field of an item is changed by one request of a change; merge the two.',
    producedBy: ['client'],
    severity: 'error',
  },
  DOCUMENT_REQUEST_TWO_KINDS: {
    message: '"{member}" cannot stand beside "{kind}": a request updates ("workItemIds" and "update"), adds ("add") or deletes ("delete"); write the other as a request of its own.',
    producedBy: ['client'],
    severity: 'error',
  },
  DOCUMENT_DELETED_ITEM_NAMED: {
    message: 'Work item "{id}" is deleted by request {request} of this change: no other request of the change may name it.',
    producedBy: ['client'],
    severity: 'error',
  },
  ADD_PARENT_DELETED_IN_CHANGE: {
    message: 'Work item "{id}" is deleted by request {request} of this change: nothing can be added below it.',
    producedBy: ['client'],
    severity: 'error',
  },
  ADD_PARENT_MISSING: {
    message: '"parentId" is missing: give the ID of the folder or work item to add below.',
    producedBy: ['client'],
    severity: 'error',
  },
  ADD_FIELDS_MISSING: {
    message: 'The new item has no "fields": give at least its "ItemTypeId" and "Name".',
    producedBy: ['client'],
    severity: 'error',
  },
  ADD_ITEM_TYPE_MISSING: {
    message: '"fields" of the new item has no "ItemTypeId": give the ID of its item type.',
    producedBy: ['client'],
    severity: 'error',
  },
  ADD_NAME_MISSING: {
    message: '"fields" of the new item has no "Name": give its name.',
    producedBy: ['client'],
    severity: 'error',
  },
  ADD_ID_BY_NAME: {
    message: '{field} "{value}" looks like a name, not an ID: the service takes the ID (completion and the Quick Fix find it by name in the project\'s profile).',
    producedBy: ['client'],
    severity: 'warning',
  },
  ADD_TOO_MANY_ITEMS: {
    message: 'This request adds {count} items with its sub-items; one request adds at most {max}: split it into several "add" requests.',
    producedBy: ['client'],
    severity: 'error',
  },
  DOCUMENT_IDS_MISSING: {
    message: '"workItemIds" is missing: list the IDs of the work items to update.',
    producedBy: ['client'],
    severity: 'error',
  },
  DOCUMENT_IDS_TYPE: {
    message: '"workItemIds" must be a list of IDs or a string of IDs separated by commas, spaces or new lines.',
    producedBy: ['client'],
    severity: 'error',
  },
  DOCUMENT_IDS_EMPTY: {
    message: '"workItemIds" names no work item: add at least one ID.',
    producedBy: ['client'],
    severity: 'error',
  },
  DOCUMENT_ID_TYPE: {
    message: 'Each entry of "workItemIds" must be a string or a whole number, not {actual}.',
    producedBy: ['client'],
    severity: 'error',
  },
  DOCUMENT_ID_DUPLICATE: {
    message: 'Work item ID "{id}" is listed more than once; it is updated only once.',
    producedBy: ['client'],
    severity: 'warning',
  },
  DOCUMENT_UPDATE_MISSING: {
    message: '"update" is missing: give the changes to make, e.g. "moveScheduleDays": 7.',
    producedBy: ['client'],
    severity: 'error',
  },
  DOCUMENT_IDS_MORE_PROBLEMS: {
    message: '{count} more problems with work item IDs are not listed.',
    producedBy: ['client'],
    severity: 'error',
  },
  DOCUMENT_ID_RANGE: {
    message: '"{id}" looks like a range of {count} work items ({from} to {to}) but is sent as one ID; the Quick Fix expands it.',
    producedBy: ['client'],
    severity: 'warning',
  },
  PLACEHOLDER_LEFT: {
    message: 'Replace the placeholder "{value}" before sending.',
    producedBy: ['client'],
    severity: 'error',
  },
  UPDATE_EMPTY: {
    message: 'The update makes no change: add at least one member, e.g. "moveScheduleDays".',
    producedBy: ['client'],
    severity: 'warning',
  },

  // Work item IDs (also used for path building in src/api/paths.ts)
  // Also the sandbox server's code for an empty ID in a PUT path (params: position).
  ID_EMPTY: { message: 'A work item ID must not be empty.', producedBy: ['client', 'sandbox'], severity: 'error' },
  ID_DOT_SEGMENT: {
    message: 'Work item ID "{id}" is not valid: "." and ".." are not IDs.',
    producedBy: ['client'],
    severity: 'error',
  },
  ID_SLASH: {
    message: 'Work item ID "{id}" is not valid: it contains "/" or "\\".',
    producedBy: ['client'],
    severity: 'error',
  },
  ID_TOO_LONG: {
    message: 'Work item ID "{id}" is not valid: it is {length} characters long; at most {max} are allowed.',
    producedBy: ['client'],
    severity: 'error',
  },
  ID_PERCENT: {
    message: 'Work item ID "{id}" is not valid: it contains "%" (write IDs unencoded; they are encoded when sent).',
    producedBy: ['client'],
    severity: 'error',
  },
  ID_QUERY_CHARACTER: {
    message: 'Work item ID "{id}" is not valid: it contains "?" or "#".',
    producedBy: ['client'],
    severity: 'error',
  },
  ID_MALFORMED_UNICODE: {
    message: 'Work item ID "{id}" is not valid: it is not well-formed Unicode.',
    producedBy: ['client'],
    severity: 'error',
  },
  ID_CONTROL_CHARACTER: {
    message: 'Work item ID "{id}" is not valid: it contains a control or invisible formatting character.',
    producedBy: ['client'],
    severity: 'error',
  },
  ID_LOOKALIKE_CHARACTER: {
    message: 'Work item ID "{id}" is not valid: it contains "{character}", which a server may read as "{reads}".',
    producedBy: ['client'],
    severity: 'error',
  },
  ID_WHITESPACE: {
    message: 'Work item ID "{id}" is not valid: it contains a space.',
    producedBy: ['client'],
    severity: 'error',
  },
  ID_COMMA: {
    message: 'Work item ID "{id}" is not valid: it contains a comma (commas separate IDs).',
    producedBy: ['client'],
    severity: 'error',
  },

  // -------------------------------------------------------------------------
  // Shapes of the update body (translated zod issues) — src/schema/rules.ts
  // -------------------------------------------------------------------------
  UNKNOWN_MEMBER: {
    message: 'Unknown member "{member}" in {where}; allowed: {allowed}.',
    producedBy: ['client', 'sandbox'],
    severity: 'error',
  },
  UNKNOWN_MEMBER_DID_YOU_MEAN: {
    message: 'Unknown member "{member}" in {where}. Did you mean "{expected}"?',
    producedBy: ['client'],
    severity: 'error',
  },
  MEMBER_NAME_CASE: {
    message: 'Member "{member}" should be written "{expected}" (member names are camelCase); it is sent as "{expected}".',
    producedBy: ['client'],
    severity: 'warning',
  },
  MEMBER_DUPLICATE: {
    message: 'Both "{member}" and "{expected}" are given; keep only "{expected}".',
    producedBy: ['client', 'sandbox'],
    severity: 'error',
  },
  MEMBER_REQUIRED: { message: '"{member}" is required in {where}.', producedBy: ['client', 'sandbox'], severity: 'error' },
  WRONG_TYPE: {
    message: '"{member}" must be {expected}, not {actual}.',
    producedBy: ['client', 'sandbox'],
    severity: 'error',
  },
  NOT_INTEGER: { message: '"{member}" must be a whole number, not {actual}.', producedBy: ['client'], severity: 'error' },
  INVALID_VALUE: { message: '"{member}" must be one of {allowed}, not {actual}.', producedBy: ['client'], severity: 'error' },
  VALUE_EMPTY: { message: '"{member}" must not be empty.', producedBy: ['client'], severity: 'error' },
  VALUE_OUT_OF_RANGE: {
    message: '"{member}" must be {range}, not {actual}.',
    producedBy: ['client'],
    severity: 'error',
  },
  LIST_EMPTY_ENTRY: {
    message: '"{member}" has an empty entry between commas; it is ignored.',
    producedBy: ['client'],
    severity: 'warning',
  },

  // -------------------------------------------------------------------------
  // Rules the client checks before sending — src/schema/rules.ts
  // -------------------------------------------------------------------------
  NAME_EMPTY: { message: 'The name (fields.Name) must not be empty.', producedBy: ['client', 'sandbox'], severity: 'error', rule: 1 },
  NAME_TOO_LONG: {
    message: 'The name (fields.Name) is {length} characters long; at most {max} are allowed.',
    producedBy: ['client', 'sandbox'],
    severity: 'error',
    rule: 2,
  },
  CODE_TOO_LONG: {
    message: 'The code (fields.Code) is {length} characters long; at most {max} are allowed.',
    producedBy: ['client', 'sandbox'],
    severity: 'error',
    rule: 3,
  },
  END_BEFORE_START: {
    message: 'The end date (fields.PlannedFinishDate {end}) is earlier than the start date (fields.PlannedStartDate {start}).',
    producedBy: ['client', 'sandbox'],
    severity: 'error',
    rule: 5,
  },
  CALC_TYPE_UNKNOWN: {
    message:
      '"{value}" is not a known calculation type of field "{field}" (known: {allowed}); the service may reject it.',
    producedBy: ['client'],
    severity: 'warning',
    rule: 16,
  },
  CALC_TYPE_FORMULA: {
    message: 'A formula cannot be set through fieldCalcTypes (field "{field}").',
    producedBy: ['client', 'sandbox'],
    severity: 'error',
  },
  ORDER_MULTIPLE: {
    message: 'Only one of orderAfter, orderBefore, orderFirst and orderLast may be given; remove "{member}" or "{other}".',
    producedBy: ['client', 'sandbox'],
    severity: 'error',
    rule: 20,
  },
  ORDER_WITHOUT_PARENT: {
    message: '"{member}" needs "moveParentTo": name the parent item to move under.',
    producedBy: ['client', 'sandbox'],
    severity: 'error',
    rule: 21,
  },
  FIELD_NOT_EDITABLE: {
    message: 'Field "{field}" cannot be edited (it is read only).',
    producedBy: ['client', 'sandbox'],
    severity: 'error',
    rule: 29,
  },
  RESTORE_IGNORES_MEMBER: {
    message: '"{member}" is ignored: with "restore": true the service ignores every member except "restoreToParent".',
    producedBy: ['client'],
    severity: 'warning',
  },
  FIELD_NAME_CASE: {
    message: 'Unknown field "{field}": field names are case-sensitive. Did you mean "{expected}"?',
    producedBy: ['client'],
    severity: 'warning',
  },
  FIELD_UNKNOWN: {
    message: 'Field "{field}" is not in the known field list; the service may reject it.',
    producedBy: ['client'],
    severity: 'warning',
  },
  FIELD_OLD_NAME: {
    message: '"{field}" in {where} is an old field name that the service does not know: use the official name "{expected}".',
    producedBy: ['client'],
    severity: 'error',
  },
  FIELD_UNKNOWN_TO_SERVICE: {
    message: 'Field "{field}" is not in the field list of the connected service; the service may reject it.',
    producedBy: ['client'],
    severity: 'warning',
  },
  FIELD_VALUE_TOO_LONG: {
    message: 'Field "{field}" is {length} characters long; at most {max} are allowed.',
    producedBy: ['client'],
    severity: 'error',
  },
  FIELD_VALUE_CHOICE: {
    message: 'Field "{field}" must be one of its choices ({allowed}), not {actual}.',
    producedBy: ['client'],
    severity: 'error',
  },
  FIELD_NOT_PROPAGATABLE: {
    message: 'Field "{field}" is not known to be copied to sub-items by propagateToChildren.',
    producedBy: ['client'],
    severity: 'warning',
  },
  FIELD_VALUE_TYPE: {
    message: 'Field "{field}" must be {expected}, not {actual}.',
    producedBy: ['client'],
    severity: 'error',
  },
  FIELD_VALUE_RANGE: {
    message: 'Field "{field}" must be {range}, not {actual}.',
    producedBy: ['client'],
    severity: 'error',
  },
  FIELD_DATE_FORMAT: {
    message: 'Field "{field}" must be a date written yyyy-MM-dd (e.g. 2025-04-01), not {actual}.',
    producedBy: ['client'],
    severity: 'error',
  },
  REMOVE_USERS_EMPTY_ENTRY: {
    message: 'Entry {position} of assignmentChange.removeUsers is empty: give a login name, e-mail address or name.',
    producedBy: ['client'],
    severity: 'error',
  },
  ASSIGNMENT_USER_REQUIRED: {
    message: 'Each entry of assignmentChange.updates needs "user" (login name, LDAP login name, e-mail address or name) or "partyId".',
    producedBy: ['client'],
    severity: 'error',
  },
  ASSIGNMENT_ADD_NO_PARTY: {
    message: 'This added assignment names nobody: give "user" or "partyId".',
    producedBy: ['client'],
    severity: 'warning',
  },

  // -------------------------------------------------------------------------
  // Update engine (src/sandbox/update.ts) — sandbox codes are added below.
  // A sandbox code that matches a client code above reuses it (add 'sandbox' to
  // its producedBy) instead of adding a second name for the same condition.
  // The sandbox's own codes live in sandbox-error-codes.ts.
  // -------------------------------------------------------------------------
  ...SANDBOX_ERROR_CODES,
  // The sandbox HTTP server's own codes (sign-in, routing, bodies, queries).
  ...SANDBOX_HTTP_ERROR_CODE_INFO,
} as const satisfies Record<string, ErrorCodeInfo>;

export type ErrorCode = keyof typeof ERROR_CODES;

export type MessageParams = Readonly<Record<string, string | number>>;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.prototype.hasOwnProperty.call(ERROR_CODES, code);
}

/** Fills `{name}` placeholders of a template (unknown placeholders stay as written). */
export function fillTemplate(template: string, params: MessageParams = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole,
  );
}

/** The English message of a code, filled with its params. */
export function formatErrorCode(code: ErrorCode, params: MessageParams = {}): string {
  return fillTemplate(ERROR_CODES[code].message, params);
}
