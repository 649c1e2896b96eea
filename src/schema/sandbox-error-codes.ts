// SANDBOX_ERROR_CODES: the codes the sandbox's update engine (src/sandbox/update.ts)
// puts in its `[{"message","code","rule"?,"itemId"?,"field"?,"params"?}]` error
// bodies, so the UI can localize them. Stable: never rename a code.
//
// Conditions the client already checks keep the client's code from
// src/schema/error-codes.ts (listed in SANDBOX_SHARED_CLIENT_CODES) instead of a
// second name for the same condition. `rule` is the number of the condition in
// service-api.md ("Errors" of the update operation). `{name}` placeholders are
// filled from the error entry's `params`.
//
// SANDBOX_HTTP_ERROR_CODE_INFO (below): the codes of the sandbox's HTTP server
// itself (sign-in, routing, request bodies, query parameters).
//
// Self-contained (no imports) so that error-codes.ts can spread both into ERROR_CODES.

export interface SandboxErrorCodeInfo {
  readonly message: string;
  readonly producedBy: readonly 'sandbox'[];
  readonly rule?: number;
  /** HTTP status of a response whose errors carry this code (the highest wins: 404 > 403 > 400). */
  readonly status: 400 | 403 | 404;
}

const S = ['sandbox'] as const;

export const SANDBOX_ERROR_CODES = {
  // --- request level --------------------------------------------------------
  BODY_NOT_OBJECT: { message: 'The request body must be a JSON object, not {actual}.', producedBy: S, status: 400 },
  IDS_INVALID: { message: 'The work item IDs in the path are not valid: {problem}.', producedBy: S, status: 400 },
  TOO_MANY_ITEMS: {
    message: '{count} work items are named; at most {max} can be updated at once.',
    producedBy: S,
    status: 400,
  },
  WORK_ITEM_NOT_FOUND: { message: 'Work item {id} does not exist.', producedBy: S, status: 404 },
  FORBIDDEN: {
    message: 'You need edit permission on project {projectId} to update work item {id}.',
    producedBy: S,
    status: 403,
  },
  FIELD_VALUE_INVALID: { message: 'Field "{field}" must be {expected}, not {actual}.', producedBy: S, status: 400 },

  // --- the 29 conditions of service-api.md (1, 2, 3, 5, 20, 21, 29 reuse client codes) ---
  USER_NOT_FOUND: { message: 'User "{user}" does not exist.', producedBy: S, rule: 4, status: 400 },
  USER_AMBIGUOUS: {
    message: 'User "{user}" matches more than one user ({matches}); name the user by login name or "#<user ID>".',
    producedBy: S,
    rule: 4,
    status: 400,
  },
  USER_GROUP_NOT_FOUND: { message: 'User group "{group}" does not exist.', producedBy: S, rule: 4, status: 400 },
  SHIFTED_START_OUT_OF_RANGE: {
    message: 'After shifting by {days} days the start date {date} is outside the allowed range {min} to {max}.',
    producedBy: S,
    rule: 6,
    status: 400,
  },
  SHIFTED_END_OUT_OF_RANGE: {
    message: 'After shifting by {days} days the end date {date} is outside the allowed range {min} to {max}.',
    producedBy: S,
    rule: 7,
    status: 400,
  },
  STATUS_TYPE_NOT_AVAILABLE: { message: 'Status type "{value}" is not available.', producedBy: S, rule: 8, status: 400 },
  PROCESS_CATEGORY_NOT_AVAILABLE: {
    message: 'Process classification "{value}" is not available.',
    producedBy: S,
    rule: 9,
    status: 400,
  },
  WORK_CATEGORY_NOT_AVAILABLE: {
    message: 'Work classification "{value}" is not available.',
    producedBy: S,
    rule: 10,
    status: 400,
  },
  ITEM_TYPE_NOT_AVAILABLE: { message: 'Item type "{value}" is not available.', producedBy: S, rule: 11, status: 400 },
  FOLDER_TYPE_UNDER_NON_FOLDER: {
    message: 'Item type "{value}" is a folder type, but the parent item {parentId} is not a folder.',
    producedBy: S,
    rule: 12,
    status: 400,
  },
  NON_FOLDER_TYPE_WITH_FOLDER_CHILD: {
    message: 'Item type "{value}" is not a folder type, but the child item {childId} is a folder.',
    producedBy: S,
    rule: 13,
    status: 400,
  },
  LEADER_NOT_MEMBER: {
    message: 'User {user} is not a member of project {projectId} and cannot be the leader.',
    producedBy: S,
    rule: 14,
    status: 400,
  },
  ASSIGNEE_NOT_MEMBER: {
    message: '{partyType} {partyId} is not a member of project {projectId} and cannot be assigned.',
    producedBy: S,
    rule: 15,
    status: 400,
  },
  CALC_TYPE_NOT_ALLOWED: {
    message: 'Calculation type "{value}" is not allowed for field "{field}" (allowed: {allowed}).',
    producedBy: S,
    rule: 16,
    status: 400,
  },
  PARENT_HAS_ACTUALS: {
    message: 'The destination parent item {parentId} has actuals entered.',
    producedBy: S,
    rule: 17,
    status: 400,
  },
  FOLDER_UNDER_NON_FOLDER: {
    message: 'The item is a folder and the destination parent item {parentId} is not a folder.',
    producedBy: S,
    rule: 18,
    status: 400,
  },
  PARENT_AT_MAX_DEPTH: {
    message: 'The destination parent item {parentId} is on level {max}, the deepest level.',
    producedBy: S,
    rule: 19,
    status: 400,
  },
  HIERARCHY_TOO_DEEP: {
    message: 'Under {parentId} (level {parentLevel}) the item and its {height} level(s) would reach level {level}; at most {max} levels are allowed.',
    producedBy: S,
    status: 400,
  },
  OTHER_PROJECT: {
    message: 'Item {refId} named by "{member}" is in project {refProjectId}, not in project {projectId}.',
    producedBy: S,
    rule: 22,
    status: 400,
  },
  REFERENCED_ITEM_NOT_FOUND: {
    message: 'Item {refId} named by "{member}" does not exist or is deleted.',
    producedBy: S,
    rule: 23,
    status: 400,
  },
  WORK_ITEM_DELETED: {
    message: 'Work item {id} is deleted; only "restore": true applies to it.',
    producedBy: S,
    rule: 23,
    status: 400,
  },
  MOVE_INTO_OWN_SUBTREE: {
    message: 'Item {refId} named by "{member}" is the item itself or one of its descendants.',
    producedBy: S,
    status: 400,
  },
  ROOT_FOLDER_FIXED: {
    message: 'Work item {id} is the root folder of project {projectId}; "{member}" cannot be used on it.',
    producedBy: S,
    status: 400,
  },
  ORDER_REFERENCE_NOT_SIBLING: {
    message: 'Item {refId} named by "{member}" is not a child of the destination parent {parentId}.',
    producedBy: S,
    status: 400,
  },
  RESTORE_FOLDER_UNDER_NON_FOLDER: {
    message: 'The item to restore is a folder and the restore destination {parentId} is not a folder.',
    producedBy: S,
    rule: 24,
    status: 400,
  },
  RESTORE_DESTINATION_DELETED: {
    message: 'The restore destination {parentId} is deleted.',
    producedBy: S,
    rule: 25,
    status: 400,
  },
  RESTORE_DESTINATION_OTHER_PROJECT: {
    message: 'The restore destination {parentId} is in project {refProjectId}, not in project {projectId}.',
    producedBy: S,
    rule: 26,
    status: 400,
  },
  RESTORE_DESTINATION_AT_MAX_DEPTH: {
    message: 'The restore destination {parentId} is on level {max}, the deepest level.',
    producedBy: S,
    rule: 27,
    status: 400,
  },
  RESTORE_DESTINATION_NOT_FOUND: {
    message: 'The restore destination {parentId} does not exist.',
    producedBy: S,
    status: 400,
  },
  RESTORE_ITEM_TYPE_NOT_PERMITTED: {
    message: 'Item type "{value}" of the item to restore is not permitted by the system.',
    producedBy: S,
    rule: 28,
    status: 400,
  },
  NOT_DELETED: { message: 'Work item {id} is not deleted; there is nothing to restore.', producedBy: S, status: 400 },
  FIELD_UNKNOWN_NAME: {
    message: 'Field "{field}" may not be edited: there is no such field{hint}.',
    producedBy: S,
    rule: 29,
    status: 400,
  },
  FIELD_NOT_EDITABLE_HERE: {
    message: 'Field "{field}" may not be edited: {reason}.',
    producedBy: S,
    rule: 29,
    status: 400,
  },
  VIEW_PERMISSION_NOT_EDITABLE: {
    message: 'With view permission on project {projectId} only {allowed} may be changed, not "{member}".',
    producedBy: S,
    rule: 29,
    status: 403,
  },

  // --- assignments ----------------------------------------------------------
  ASSIGNMENT_PARTY_MISSING: {
    message: 'Added assignment {index} names nobody: give "user" or "partyId".',
    producedBy: S,
    status: 400,
  },
  ASSIGNMENT_PARTY_CONFLICT: {
    message: 'Assignment {index}: "user" ({user}) and "partyId" ({partyId}) name different parties.',
    producedBy: S,
    status: 400,
  },
  ASSIGNMENT_NOT_FOUND: {
    message: '{partyId} is not assigned to the item, so its assignment cannot be updated.',
    producedBy: S,
    status: 400,
  },

  // --- adding, duplicating and deleting work items ----------------------------
  TOO_MANY_ITEMS_TO_ADD: {
    message: '{count} work items would be added by one request; at most {max} can be added at once.',
    producedBy: S,
    status: 400,
  },
  TOO_MANY_ITEMS_TO_DELETE: {
    message: '{count} work items are named; at most {max} can be deleted at once.',
    producedBy: S,
    status: 400,
  },
  PROJECT_LOCKED: { message: 'Project {projectId} is locked: its work items cannot be added, copied or deleted.', producedBy: S, status: 400 },
  ADD_FORBIDDEN: {
    message: 'You need edit permission on project {projectId} to add work items below work item {id}.',
    producedBy: S,
    status: 403,
  },
  DELETE_FORBIDDEN: {
    message: 'You need edit permission on project {projectId} to delete work item {id}.',
    producedBy: S,
    status: 403,
  },
  ADD_PARENT_DELETED: { message: 'Work item {id} is deleted: nothing can be added below it.', producedBy: S, status: 400 },
  ALREADY_DELETED: { message: 'Work item {id} is already deleted.', producedBy: S, status: 404 },
  ROOT_FOLDER_NOT_DELETABLE: {
    message: 'Work item {id} is the root folder of project {projectId} and cannot be deleted.',
    producedBy: S,
    status: 400,
  },
  METADATA_TOO_MANY: { message: 'metadata has {count} entries; at most {max} are kept.', producedBy: S, status: 400 },
  METADATA_KEY_INVALID: {
    message: 'The metadata name "{key}" is not valid: a name has 1 to {max} characters.',
    producedBy: S,
    status: 400,
  },
  METADATA_VALUE_TOO_LONG: {
    message: 'The metadata value of "{key}" is {length} characters long; at most {max} are kept.',
    producedBy: S,
    status: 400,
  },
  SOURCE_PROJECT_NOT_FOUND: { message: 'Project {projectId} named by "fromProjectId" does not exist.', producedBy: S, status: 400 },
  DUPLICATE_NO_SOURCE: {
    message: '"fromItemIds" names no work item: give the IDs of the items to copy, separated by commas.',
    producedBy: S,
    status: 400,
  },
  FIELD_NOT_COPYABLE: {
    message: 'Field "{field}" cannot be copied; fieldsToCopy takes {allowed}.',
    producedBy: S,
    status: 400,
  },

  // --- Standard edition -----------------------------------------------------
  STANDARD_EDITION_CALC_TYPE: {
    message: 'In the Standard edition only ActualProgress may be given a calculation type, not "{field}".',
    producedBy: S,
    status: 400,
  },
  STANDARD_EDITION_PARENT_ITEM: {
    message: 'In the Standard edition an item that has children accepts changes to name, code and description only, not "{member}".',
    producedBy: S,
    status: 400,
  },
  STANDARD_EDITION_ITEM_TYPE: {
    message: 'Item type "{value}" was created in the Professional edition and cannot be used in the Standard edition.',
    producedBy: S,
    rule: 11,
    status: 400,
  },
  STANDARD_EDITION_RESTORE: {
    message: 'The item has item type "{value}" of the Professional edition; it can be restored only in the Professional edition.',
    producedBy: S,
    rule: 28,
    status: 400,
  },
} as const satisfies Record<string, SandboxErrorCodeInfo>;

export type SandboxErrorCode = keyof typeof SANDBOX_ERROR_CODES;

/**
 * Codes of src/schema/error-codes.ts (client checks) that the update engine also
 * produces, with the HTTP status of a response carrying them.
 */
export const SANDBOX_SHARED_CLIENT_CODES = {
  NAME_EMPTY: 400, // error 1
  NAME_TOO_LONG: 400, // error 2
  CODE_TOO_LONG: 400, // error 3
  END_BEFORE_START: 400, // error 5
  CALC_TYPE_FORMULA: 400, // error 16 (a formula cannot be set through fieldCalcTypes)
  ORDER_MULTIPLE: 400, // error 20
  ORDER_WITHOUT_PARENT: 400, // error 21
  FIELD_NOT_EDITABLE: 400, // error 29 (read-only field)
  UNKNOWN_MEMBER: 400, // body shape
  MEMBER_DUPLICATE: 400, // body shape (same member twice in different casing)
  MEMBER_REQUIRED: 400, // body shape (a required member of an add or duplicate is missing)
  WRONG_TYPE: 400, // body shape
} as const;

export interface SandboxHttpErrorCodeInfo {
  readonly message: string;
  readonly producedBy: readonly 'sandbox'[];
  /** HTTP status of the response (none for SANDBOX_FAULT: the status the fault asked for). */
  readonly status?: number;
}

/**
 * Codes the sandbox's HTTP server itself puts in error bodies (routing, sign-in,
 * request bodies, query parameters, /_sandbox endpoints): SANDBOX_HTTP_ERROR_CODES
 * in src/sandbox/server.ts. Each error entry carries `params` for its template;
 * the entry's `message` is the server's own English text (the same sentence,
 * sometimes with more detail). Two server codes reuse existing templates and are
 * not repeated here: ID_EMPTY (client code, error-codes.ts; params `position`) and
 * WORK_ITEM_NOT_FOUND (update engine, above; params `id`).
 */
export const SANDBOX_HTTP_ERROR_CODE_INFO = {
  UNAUTHORIZED: {
    message: 'Sign-in required: the request has no valid credentials ({reason}).',
    producedBy: S,
    status: 401,
  },
  SIGN_IN_FAILED: { message: 'Wrong login name or password.', producedBy: S, status: 401 },
  ROUTE_NOT_FOUND: {
    message: 'No such route: {method} {path} (the API is under /api; sandbox-only endpoints are under /_sandbox/).',
    producedBy: S,
    status: 404,
  },
  METHOD_NOT_ALLOWED: { message: '{method} is not allowed on {path}; allowed: {allowed}.', producedBy: S, status: 405 },
  MALFORMED_JSON: {
    message: 'The request body is not valid JSON at line {line}, column {column}: {problem}.',
    producedBy: S,
    status: 400,
  },
  BODY_REQUIRED: { message: 'The request body is empty: send a JSON object such as {example}.', producedBy: S, status: 400 },
  BODY_TOO_LARGE: { message: 'The request body is larger than the limit of {limit} bytes.', producedBy: S, status: 413 },
  UNSUPPORTED_MEDIA_TYPE: {
    message: 'The request body must be JSON (Content-Type: application/json), not Content-Type "{contentType}".',
    producedBy: S,
    status: 415,
  },
  INVALID_BODY: { message: 'The request body is not valid at {field}: {problem}.', producedBy: S, status: 400 },
  INVALID_QUERY_PARAMETER: { message: 'Query parameter "{parameter}" is not valid: {problem}.', producedBy: S, status: 400 },
  INVALID_ORDERBY: {
    message: 'Cannot order by "{value}": give a field name ({allowed}), optionally followed by " asc" or " desc".',
    producedBy: S,
    status: 400,
  },
  INVALID_PATH: { message: 'The path segment "{value}" is not valid percent-encoding.', producedBy: S, status: 400 },
  INVALID_DATASET: { message: 'The data set is not valid: {problem}.', producedBy: S, status: 400 },
  WORK_ITEMS_NOT_FOUND: { message: 'None of the work items exists: {ids}.', producedBy: S, status: 404 },
  PROJECT_NOT_FOUND: { message: 'None of the projects exists: {ids}.', producedBy: S, status: 404 },
  ORGANIZATION_NOT_FOUND: { message: 'Organization {id} does not exist.', producedBy: S, status: 404 },
  SANDBOX_FAULT: { message: 'Injected fault: status {status}.', producedBy: S },
  INTERNAL_ERROR: { message: 'Internal sandbox error: {detail}.', producedBy: S, status: 500 },
  BAD_REQUEST: { message: 'Bad request: {detail}.', producedBy: S, status: 400 },
  HEADERS_TOO_LARGE: { message: 'The request headers are too large: {detail}.', producedBy: S, status: 431 },
  JSON_TOO_DEEP: {
    message: 'The request body nests more than {max} levels deep (at position {position}); at most {max} levels are accepted.',
    producedBy: S,
    status: 400,
  },
  HOST_REQUIRED: { message: 'The request has no Host header, which HTTP/1.1 requires.', producedBy: S, status: 400 },
  HEADERS_TIMEOUT: { message: 'The request headers did not arrive within {seconds} seconds.', producedBy: S, status: 408 },
  BODY_TIMEOUT: { message: 'The request body did not arrive within {seconds} seconds.', producedBy: S, status: 408 },
} as const satisfies Record<string, SandboxHttpErrorCodeInfo>;

export type SandboxHttpErrorCode = keyof typeof SANDBOX_HTTP_ERROR_CODE_INFO;
