// Wire shapes of adding, duplicating and deleting work items and of a project read with
// its members (official-reference.md section 7: A1, A2, A3; section 6, U3: the project's
// members and groups are the only parties that can be assigned).
// No vscode import: shared by the client (src/api) and the sandbox.
//
// Requests are strict (unknown members are errors); answers are tolerant of what the help
// does not promise: unknown members are kept, a member the help names but a service
// leaves out reads as absent, and an item of an answer is an open map of fields.
import { z } from 'zod';
import { AssignmentAdd } from './api';
import { Project, WireId } from './reads';

/** A list of items in an answer, each an open map of fields; missing or null reads as none. */
const AnsweredItems = z
  .array(z.record(z.string(), z.unknown()))
  .nullish()
  .transform((v) => v ?? []);

// ---------------------------------------------------------------------------
// POST /workitem/workItems/{workItemId}/subItems
// ---------------------------------------------------------------------------

/** An item to add (the help's AddWorkItemRequest), with the items to add below it. */
export interface AddWorkItemRequest {
  fields: Record<string, unknown>;
  fieldCalcTypes?: Record<string, string>;
  subItems?: AddWorkItemRequest[];
  assignments?: AssignmentAdd[];
  metadata?: Record<string, string>;
  orderBefore?: string;
  orderAfter?: string;
  orderFirst?: boolean;
  orderLast?: boolean;
}

const orderMembers = {
  orderBefore: z.string().optional().describe('Insert directly before the given sibling; "0" means insert at the end.'),
  orderAfter: z.string().optional().describe('Insert directly after the given sibling; "0" means insert at the beginning.'),
  orderFirst: z.boolean().optional().describe('true: insert at the beginning; otherwise nothing happens.'),
  orderLast: z.boolean().optional().describe('true: insert at the end; otherwise nothing happens.'),
};

export const AddWorkItemRequest = z.strictObject({
  fields: z
    .record(z.string(), z.unknown())
    .describe('Fields of the new item, keyed by system name (case-sensitive); ItemTypeId and Name are required, e.g. {"ItemTypeId": "4", "Name": "Design"}.'),
  fieldCalcTypes: z.record(z.string(), z.string()).optional().describe("How each field's value is determined, keyed by field name; a formula cannot be set."),
  get subItems(): z.ZodOptional<z.ZodArray<z.ZodType<AddWorkItemRequest>>> {
    return z
      .array(AddWorkItemRequest as z.ZodType<AddWorkItemRequest>)
      .optional()
      .describe('Items to add below this one, in order (added with it in one transaction).');
  },
  assignments: z.array(AssignmentAdd).optional().describe('Assignments of the new item.'),
  metadata: z.record(z.string(), z.string()).optional().describe('Strings kept with the new item, keyed by name (not in every copy of the help).'),
  ...orderMembers,
});

/**
 * Bounds of `metadata` on a new item (the help gives none; the sandbox keeps these): at most
 * 32 entries, names of 1 to 256 characters, values of at most 4,000.
 */
export const METADATA_LIMITS = { entries: 32, nameLength: 256, valueLength: 4000 } as const;

/** The answer of an add: `items`, the added items' fields (the help promises no more; a service may leave them out). */
export const AddSubItemsResponse = z.looseObject({
  items: AnsweredItems,
});
export type AddSubItemsResponse = z.infer<typeof AddSubItemsResponse>;

// ---------------------------------------------------------------------------
// POST /workitem/workItems/{workItemId}/subItems/duplicate
// ---------------------------------------------------------------------------

export const DuplicateSubItemsBody = z.strictObject({
  fromProjectId: z.string().optional().describe('Project of the items to copy (default: the project of the item copied below).'),
  fromItemIds: z.string().describe('IDs of the items to copy, separated by commas, e.g. "120,121".'),
  fieldsToCopy: z
    .string()
    .optional()
    .describe('System names of the fields to copy besides Name and ItemTypeId, separated by commas (default: the usual ones).'),
  duplicateAllChildren: z.boolean().optional().describe('true: each item is copied with everything below it.'),
  clearCheckItemStatus: z.boolean().optional().describe('true: the statuses of check items are cleared in the copies.'),
  ...orderMembers,
});
export type DuplicateSubItemsBody = z.infer<typeof DuplicateSubItemsBody>;

/** The answer of a duplicate: the copies (`items`) and other items changed (`affectedItems`); both may be missing. */
export const DuplicateSubItemsResponse = z.looseObject({
  items: AnsweredItems,
  affectedItems: AnsweredItems,
});
export type DuplicateSubItemsResponse = z.infer<typeof DuplicateSubItemsResponse>;

// ---------------------------------------------------------------------------
// DELETE /workitem/workItems/{workItemIds}
// ---------------------------------------------------------------------------

/**
 * The answer of a delete: the help shows none. Read as the update's answer when it is one
 * (the sandbox's: `items` and `affectedItems`), as nothing when it is empty (204 or an
 * empty 200); any other JSON is kept as `body`.
 */
export const DeleteWorkItemsResponse = z.looseObject({
  items: AnsweredItems,
  affectedItems: AnsweredItems,
});
export type DeleteWorkItemsResponse = z.infer<typeof DeleteWorkItemsResponse> & { body?: unknown };

// ---------------------------------------------------------------------------
// GET /project/projects/{projectId}?includes=Members,UserGroups
// ---------------------------------------------------------------------------

/** The `includes` names of a project read that give its members and groups (U3). */
export const PROJECT_MEMBER_INCLUDES = ['Members', 'UserGroups'] as const;

/** A member of a project as the read gives it: a user, named by `id` or `userId` (the help shows neither). */
export const ProjectMemberEntry = z.looseObject({
  id: WireId.nullish(),
  userId: WireId.nullish(),
  name: z.string().nullish(),
  loginName: z.string().nullish(),
  isDeleted: z.boolean().nullish(),
});
export type ProjectMemberEntry = z.infer<typeof ProjectMemberEntry>;

/** A group of a project: named by `id` or `userGroupId`. */
export const ProjectUserGroupEntry = z.looseObject({
  id: WireId.nullish(),
  userGroupId: WireId.nullish(),
  name: z.string().nullish(),
});
export type ProjectUserGroupEntry = z.infer<typeof ProjectUserGroupEntry>;

export const ProjectWithMembers = Project.extend({
  members: z.array(ProjectMemberEntry).nullish(),
  userGroups: z.array(ProjectUserGroupEntry).nullish(),
});
export const ProjectsWithMembersResponse = z.array(ProjectWithMembers);
export type ProjectWithMembers = z.infer<typeof ProjectWithMembers>;

/** The ID of an item of an add or duplicate answer (`id`, or `Id` as reads name it), as a string. */
export function answeredItemId(item: Record<string, unknown>): string | undefined {
  for (const key of ['id', 'Id', 'ID']) {
    const v = item[key];
    if (typeof v === 'string' && v !== '') return v;
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  }
  return undefined;
}
