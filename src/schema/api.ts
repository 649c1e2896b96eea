// Wire shapes of the four operations and of sign-in (service-api.md, known-facts.md).
// No vscode import: shared by the client (src/api), the bulk engine and the sandbox.
//
// Requests are strict (unknown members are errors); responses are tolerant
// (unknown members are kept, known members must have the documented shape).
import { z } from 'zod';

/** A datetime string kept in its original form (work items: no zone suffix; users: `Z`). */
export const DateTimeString = z.string();

// ---------------------------------------------------------------------------
// Operation 1: update work items — request body
// ---------------------------------------------------------------------------

export const PartyType = z.enum(['User', 'UserGroup']);
export type PartyType = z.infer<typeof PartyType>;

export const AssignmentAdd = z.strictObject({
  partyType: PartyType.optional().describe('`User` or `UserGroup`.'),
  user: z
    .string()
    .optional()
    .describe(
      'When it does not start with the prefix `#`, it denotes a user: the user whose login name, LDAP login name, e-mail address or name matches exactly is assigned.',
    ),
  partyId: z.string().optional().describe('Party ID (a user or user group ID).'),
  plannedTime: z.number().int().optional().describe('Planned effort.'),
});
export type AssignmentAdd = z.infer<typeof AssignmentAdd>;

/**
 * An assignment to update, named by `partyId` (the official help's example:
 * `{"partyId": "23", "plannedTime": 120}`) or by `user`; with both, `user` names the
 * assignment and `partyId` its new party.
 */
export const AssignmentUpdate = z.strictObject({
  user: z
    .string()
    .optional()
    .describe(
      'The assigned user: login name, LDAP login name, e-mail address or name (same matching rule as in an added assignment), or "#<party ID>". Optional when partyId names the assignment.',
    ),
  partyId: z.string().optional().describe('Party ID of the assignment to update (a user or user group ID); with "user" given, the new party.'),
  plannedTime: z.number().int().optional().describe('Planned effort.'),
});
export type AssignmentUpdate = z.infer<typeof AssignmentUpdate>;

export const AssignmentChange = z.strictObject({
  adds: z.array(AssignmentAdd).optional().describe('Assignments to add.'),
  updates: z.array(AssignmentUpdate).optional().describe('Assignments to update.'),
  removes: z
    .string()
    .optional()
    .describe('User or project group ID to remove from the assignments; several IDs separated by commas, e.g. "13,17".'),
  removeUsers: z
    .array(z.string().min(1, 'a removeUsers entry must not be empty'))
    .optional()
    .describe(
      'Users to remove; each entry is matched exactly against login name, LDAP login name, e-mail address or name, and the matching user\'s ID is removed.',
    ),
  recalculatePlannedTimeByAssignment: z
    .boolean()
    .optional()
    .describe(
      "true: the item's planned effort becomes the sum of the assignments' planned effort; false: the item's planned effort is redistributed over the assignments.",
    ),
});
export type AssignmentChange = z.infer<typeof AssignmentChange>;

export const PropagateToChildrenField = z.strictObject({
  fields: z.string().describe('System field names to copy to the lowest-level sub-items; several names are separated by a comma.'),
});
export type PropagateToChildrenField = z.infer<typeof PropagateToChildrenField>;

/**
 * The update body exactly as the service takes it (every member optional).
 * Cross-member rules (ordering, lengths, restore) live in `rules.ts`, so that they
 * can report each problem on its own member; this object only checks shapes.
 */
export const UpdateWorkItemsBody = z.strictObject({
  moveScheduleDays: z.number().int().optional().describe('Days to shift the period; positive moves it later, negative moves it earlier.'),
  clearSchedule: z
    .boolean()
    .optional()
    .describe('true: clear start date and end date and delete the links; false: nothing happens.'),
  assignmentChange: AssignmentChange.optional().describe('Change to assignments.'),
  moveParentTo: z.string().optional().describe('ID of the parent item to move to.'),
  changeItemTypeTo: z.string().optional().describe('ID of the item type to change to.'),
  setCompleted: z
    .boolean()
    .optional()
    .describe('true: the item and its children become complete (progress 100%); false: incomplete (progress 0%).'),
  setTimeEntryLocked: z
    .boolean()
    .optional()
    .describe('true: lock entry of actuals for the item and its descendants; false: unlock.'),
  fields: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('Fields to update, keyed by field name (case-sensitive), e.g. {"Name": "...", "PlannedTime": 480}.'),
  fieldCalcTypes: z
    .record(z.string(), z.string())
    .optional()
    .describe("How each field's value is determined, keyed by field name."),
  propagateToChildren: PropagateToChildrenField.optional().describe('Fields to copy down to the lowest-level sub-items.'),
  clearFieldCalcTypes: z
    .string()
    .optional()
    .describe('Field(s) whose determination method is cleared; several names separated by commas.'),
  clearAllFieldCalcTypes: z.boolean().optional().describe('true: clear the determination method of all fields.'),
  restore: z.boolean().optional().describe('true: restore the (deleted) item; all other parameters are ignored.'),
  restoreToParent: z.string().optional().describe('Folder to restore into.'),
  orderBefore: z
    .string()
    .optional()
    .describe('Insert directly before the given item; value "0" means insert at the end. Needs moveParentTo.'),
  orderAfter: z
    .string()
    .optional()
    .describe('Insert directly after the given item; value "0" means insert at the beginning. Needs moveParentTo.'),
  orderFirst: z.boolean().optional().describe('true: move to the beginning; otherwise nothing happens. Needs moveParentTo.'),
  orderLast: z.boolean().optional().describe('true: move to the end; otherwise nothing happens. Needs moveParentTo.'),
  copyAssignmentsFrom: z.string().optional().describe('ID of the item to copy assignments from.'),
});
export type UpdateWorkItemsBody = z.infer<typeof UpdateWorkItemsBody>;

export const ORDER_MEMBERS = ['orderAfter', 'orderBefore', 'orderFirst', 'orderLast'] as const;

// ---------------------------------------------------------------------------
// Operation 1: update work items — response
// ---------------------------------------------------------------------------

export const ReturnedAssignment = z.looseObject({
  partyId: z.string(),
  plannedTime: z.number().int().nullish(),
  partyType: z.string().nullish(),
});
export type ReturnedAssignment = z.infer<typeof ReturnedAssignment>;

/** One work item in an update response: `id` plus the fields that changed or were recalculated. */
export const WorkItemResult = z.looseObject({
  id: z.string(),
  statusTypeId: z.string().nullish(),
  assignments: z.array(ReturnedAssignment).nullish(),
  plannedCost: z.number().nullish(),
  managedPlannedTime: z.number().int().nullish(),
  updatedAt: DateTimeString.nullish(),
  userUpdatedAt: DateTimeString.nullish(),
  updatedBy: z.string().nullish(),
  userUpdatedBy: z.string().nullish(),
  itemWarnings: z.array(z.unknown()).nullish(),
});
export type WorkItemResult = z.infer<typeof WorkItemResult>;

export const UpdateWorkItemsResponse = z.looseObject({
  items: z.array(WorkItemResult),
  affectedItems: z.array(WorkItemResult).default([]),
  addedTimeEntryIds: z.array(z.unknown()).default([]),
  addedScheduleDependencyIds: z.array(z.unknown()).default([]),
});
export type UpdateWorkItemsResponse = z.infer<typeof UpdateWorkItemsResponse>;

// ---------------------------------------------------------------------------
// Operations 2 and 3: users
// ---------------------------------------------------------------------------

const optString = z.string().nullish();

export const User = z.looseObject({
  id: z.string(),
  name: z.string(),
  englishName: optString,
  loginName: optString,
  ldapLoginName: optString,
  email: optString,
  code: optString,
  description: optString,
  organizationId: optString,
  organizationName: optString,
  avatarUrl: optString,
  language: optString,
  timeZone: optString,
  isDeleted: z.boolean().nullish(),
  unitCost: z.number().nullish(),
  timeEntryLockedDate: DateTimeString.nullish(),
  systemRoleId: optString,
  systemRoleName: optString,
  canEdit: z.boolean().nullish(),
  aclId: optString,
  permission: z.number().int().nullish(),
  createdAt: DateTimeString.nullish(),
  createdBy: optString,
  updatedAt: DateTimeString.nullish(),
  updatedBy: optString,
});
export type User = z.infer<typeof User>;

/** Query of operation 3 (users directly in an organization). */
export const OrganizationUsersQuery = z.strictObject({
  name: z.string().optional().describe('Partial match on user name.'),
  englishName: z.string().optional().describe('Partial match on English name.'),
  code: z.string().optional().describe('Partial match on user code.'),
});
export type OrganizationUsersQuery = z.infer<typeof OrganizationUsersQuery>;

/** Query of operation 2 (users of all organizations below an organization). */
export const AllAssignedUsersQuery = OrganizationUsersQuery.extend({
  keyword: z
    .string()
    .optional()
    .describe(
      'Users whose user name, English name, code, organization name, login name, LDAP login name or e-mail address contains the keyword.',
    ),
});
export type AllAssignedUsersQuery = z.infer<typeof AllAssignedUsersQuery>;

// ---------------------------------------------------------------------------
// Operation 4: process categories
// ---------------------------------------------------------------------------

/** The Color type's structure is not shown: a string or an object is accepted. */
export const Color = z.union([z.string(), z.looseObject({})]);
export type Color = z.infer<typeof Color>;

export const ProcessCategory = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: optString,
  code: optString,
  color: Color.nullish(),
  groupId: optString,
  displayOrder: z.number().nullish(),
  isDeleted: z.boolean().nullish(),
  createdAt: DateTimeString.nullish(),
  createdBy: optString,
  updatedAt: DateTimeString.nullish(),
  updatedBy: optString,
});
export type ProcessCategory = z.infer<typeof ProcessCategory>;

/** Fields the sandbox accepts in `orderby` (the real list is not shown; the client offers these). */
export const PROCESS_CATEGORY_ORDER_FIELDS = [
  'id',
  'name',
  'code',
  'description',
  'groupId',
  'displayOrder',
  'isDeleted',
  'createdAt',
  'createdBy',
  'updatedAt',
  'updatedBy',
] as const;

export const OrderBy = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_]*( (asc|desc|ASC|DESC))?$/, 'orderby must be a field name, optionally followed by " asc" or " desc"');

export const ProcessCategoriesQuery = z.strictObject({
  name: z.string().optional().describe('Name filter.'),
  code: z.string().optional().describe('Code filter.'),
  keyword: z.string().optional().describe('Process categories whose name or code contains the keyword.'),
  limit: z.number().int().min(0).optional().describe('Maximum number of records to return.'),
  offset: z.number().int().min(0).optional().describe('Index of the first record to return; default 0.'),
  orderby: OrderBy.optional().describe('Field to sort by, optionally followed by a space and `asc` (default) or `desc`.'),
  includeDeleted: z.boolean().optional().describe('true: deleted records are included; false: only non-deleted records.'),
  isDeleted: z
    .boolean()
    .optional()
    .describe('Effective only when includeDeleted is true; true: only deleted records; false: only non-deleted records.'),
});
export type ProcessCategoriesQuery = z.infer<typeof ProcessCategoriesQuery>;

// ---------------------------------------------------------------------------
// Lists, sign-in, errors
// ---------------------------------------------------------------------------

export function listResponse<T extends z.ZodType>(item: T) {
  return z.looseObject({ totalCount: z.number().int().min(0), data: z.array(item) });
}
export const UserListResponse = listResponse(User);
export type UserListResponse = z.infer<typeof UserListResponse>;
export const ProcessCategoryListResponse = listResponse(ProcessCategory);
export type ProcessCategoryListResponse = z.infer<typeof ProcessCategoryListResponse>;

export const TokenRequest = z.strictObject({ loginName: z.string().min(1), password: z.string() });
export type TokenRequest = z.infer<typeof TokenRequest>;
export const TokenResponse = z.looseObject({ token: z.string().min(1) });
export type TokenResponse = z.infer<typeof TokenResponse>;

/** The error body public clients see: `[{"message": "..."}]` (not a supported contract). */
export const ErrorEntry = z.looseObject({ message: z.string(), code: z.string().nullish() });
export const ErrorBody = z.array(ErrorEntry);
export type ErrorBody = z.infer<typeof ErrorBody>;
