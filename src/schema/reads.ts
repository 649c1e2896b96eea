// Wire shapes of the read operations of the real service that service-api.md does
// not describe (known-facts.md, "Read operations of the real service"): projects,
// work items by ID, a work item's sub-items and the signed-in user.
// No vscode import: shared by the client (src/api), the views and the sandbox.
//
// Like every response shape, these are tolerant: unknown members are kept, known
// members must have the documented shape. Work item fields come back as a
// PascalCase map whose catalogue is not public, so the map itself is open.
import { z } from 'zod';
import { DateTimeString } from './api';

const optString = z.string().nullish();
/** IDs are strings on the wire; a number is accepted and turned into its decimal string. */
export const WireId = z.union([z.string(), z.number().transform((n) => String(n))]);

// ---------------------------------------------------------------------------
// Work item fields of the read operations (PascalCase, case-sensitive)
// ---------------------------------------------------------------------------

/**
 * Field names of the read operations the extension asks for by name: the system
 * names of the official help (official-reference.md sections 4 and 5: F1, F2, G1,
 * U2) and the three that only service-api.md shows (PlannedTime, LeaderId,
 * Assignments). Names the help never shows (IsFolder, HasChildren, Level,
 * DisplayOrder, ItemTypeName, StatusTypeName, LeaderName, ...) are not asked for:
 * folder or not, item type and status names come from the project's profile
 * (src/schema/catalogue.ts), the level and the order of siblings from the answer's
 * shape. Times (PlannedTime, ActualTime) are minutes; ID fields answer "0" for none.
 */
export const WorkItemField = {
  Id: 'Id',
  Name: 'Name',
  Code: 'Code',
  Description: 'Description',
  ProjectId: 'ProjectId',
  ProjectName: 'ProjectName',
  ProjectCode: 'ProjectCode',
  ItemTypeId: 'ItemTypeId',
  StatusTypeId: 'StatusTypeId',
  FolderId: 'FolderId',
  FolderName: 'FolderName',
  ParentId: 'ParentId',
  ParentName: 'ParentName',
  ProcessCategoryId: 'ProcessCategoryId',
  TimeEntryCategoryId: 'TimeEntryCategoryId',
  /** The work item schedule dates (U2): written as "2022-10-10", read with or without a time part. */
  PlannedStartDate: 'PlannedStartDate',
  PlannedFinishDate: 'PlannedFinishDate',
  ActualProgress: 'ActualProgress',
  ActualTime: 'ActualTime',
  /** Comes back with `fields=` besides the fields asked (G1). */
  IsAclInherited: 'IsAclInherited',
  /** service-api.md only. */
  PlannedTime: 'PlannedTime',
  /** service-api.md only. */
  LeaderId: 'LeaderId',
  /** service-api.md only. */
  Assignments: 'Assignments',
  /** Only in `subItems` answers: the children, each `{fields: {...}}` again (G2). */
  SubItems: 'SubItems',
} as const;
export type WorkItemFieldName = (typeof WorkItemField)[keyof typeof WorkItemField];

/** The names a read can always fall back to when a service refuses a name it does not know. */
export const CORE_TREE_FIELDS: readonly WorkItemFieldName[] = ['Id', 'Name', 'Code', 'ParentId', 'ItemTypeId'];

/**
 * The fields a tree row needs (label, icon, marks, tooltip), asked for with `fields=`:
 * official names, plus PlannedTime and LeaderId (service-api.md), which the tree leaves
 * out for a project whose profile lists field types without them
 * (src/workItems/model/types.ts treeFieldsFor).
 */
export const TREE_FIELDS: readonly WorkItemFieldName[] = [
  'Id',
  'Name',
  'Code',
  'ProjectId',
  'ParentId',
  'FolderId',
  'ItemTypeId',
  'StatusTypeId',
  'PlannedStartDate',
  'PlannedFinishDate',
  'ActualProgress',
  'PlannedTime',
  'ActualTime',
  'LeaderId',
];

/** Names of TREE_FIELDS that only service-api.md shows (kept unless a service's catalogue lacks them). */
export const TREE_FIELDS_OUTSIDE_HELP: readonly WorkItemFieldName[] = ['PlannedTime', 'LeaderId'];

/**
 * An ID field's value as a string; undefined for none: absent, null, empty, or "0"
 * (the service's "no value" for an ID, official help P1, T1, F1).
 */
export function idValue(v: unknown): string | undefined {
  if (typeof v === 'string') return v === '' || v === '0' ? undefined : v;
  if (typeof v === 'number' && Number.isFinite(v)) return v === 0 ? undefined : String(v);
  return undefined;
}

/** A work item's field map as it comes back (open: the catalogue is not public). */
export const WorkItemFields = z.record(z.string(), z.unknown());
export type WorkItemFields = z.infer<typeof WorkItemFields>;

/** One element of `GET /workitem/workItems/{ids}`: `{fields, isWarning, warnings, aclId, permission}`. */
export const WorkItemRecord = z.looseObject({
  fields: WorkItemFields,
  isWarning: z.boolean().nullish(),
  warnings: z.array(z.unknown()).nullish(),
  aclId: optString,
  permission: z.number().nullish(),
});
export type WorkItemRecord = z.infer<typeof WorkItemRecord>;

/** `GET /workitem/workItems/{ids}` answers an array (even for one ID). */
export const WorkItemsResponse = z.array(WorkItemRecord);
export type WorkItemsResponse = z.infer<typeof WorkItemsResponse>;

/** A node of a `subItems` answer: `fields.SubItems` (when present) holds the children, nested. */
export interface SubItemNode {
  fields: Record<string, unknown> & { SubItems?: SubItemNode[] | null };
  [key: string]: unknown;
}
export const SubItemNode: z.ZodType<SubItemNode> = z.lazy(() =>
  z.looseObject({
    fields: z.looseObject({ SubItems: z.array(SubItemNode).nullish() }),
  }),
) as unknown as z.ZodType<SubItemNode>;

/** `GET /workitem/workItems/{id}/subItems` answers an array with exactly one element, the item itself. */
export const SubItemsResponse = z.array(SubItemNode);
export type SubItemsResponse = SubItemNode[];

/**
 * Checks a `subItems` answer by hand (an answer for a 100,000-item project would
 * take the recursive zod schema far longer): an array of nodes, each an object whose
 * `fields` is an object; `fields.SubItems`, when present, is an array of nodes or
 * null; `fields.Id`, when present, is a string or a number. Unknown members are
 * kept (the value is returned as it is, not copied). Each problem names its path,
 * e.g. `response[0].fields.SubItems[3].fields: expected an object, got an array`.
 * Stops after 20 problems.
 */
export function checkSubItemsResponse(json: unknown, root = 'response'): { ok: true; value: SubItemNode[] } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  if (!Array.isArray(json)) return { ok: false, problems: [`${root}: expected an array, got ${kindOf(json)}`] };
  // Iterative walk (no recursion limit); paths are built only for problems.
  const stack: { node: unknown; path: () => string }[] = [];
  for (let i = json.length - 1; i >= 0; i--) stack.push({ node: json[i], path: () => `${root}[${i}]` });
  while (stack.length > 0 && problems.length < 20) {
    const { node, path } = stack.pop()!;
    if (!isPlainObject(node)) {
      problems.push(`${path()}: expected an object with "fields", got ${kindOf(node)}`);
      continue;
    }
    const fields = node['fields'];
    if (!isPlainObject(fields)) {
      problems.push(`${path()}.fields: expected an object, got ${kindOf(fields)}`);
      continue;
    }
    const id = fields['Id'];
    if (id !== undefined && id !== null && typeof id !== 'string' && typeof id !== 'number') {
      problems.push(`${path()}.fields.Id: expected a string, got ${kindOf(id)}`);
    }
    const subs = fields['SubItems'];
    if (subs === undefined || subs === null) continue;
    if (!Array.isArray(subs)) {
      problems.push(`${path()}.fields.SubItems: expected an array, got ${kindOf(subs)}`);
      continue;
    }
    for (let k = subs.length - 1; k >= 0; k--) stack.push({ node: subs[k], path: () => `${path()}.fields.SubItems[${k}]` });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: json as SubItemNode[] };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  return `${typeof v} ${String(v)}`;
}

/** Query of `subItems`. `depth` counts from the project's root folder (level 0), not from the item asked. */
export const SubItemsQuery = z.strictObject({
  fields: z.string().optional().describe('Comma-separated PascalCase field names.'),
  depth: z.number().int().min(0).optional().describe('Deepest level returned, counted from the project root folder (level 0).'),
  includeDeleted: z.boolean().optional(),
});
export type SubItemsQuery = z.infer<typeof SubItemsQuery>;

/** The ID of a work item record (`fields.Id`), as a string; undefined when absent. */
export function workItemIdOf(record: { fields: Record<string, unknown> }): string | undefined {
  const id = record.fields['Id'];
  if (typeof id === 'string' && id) return id;
  if (typeof id === 'number' && Number.isFinite(id)) return String(id);
  return undefined;
}

// ---------------------------------------------------------------------------
// Projects
// ---------------------------------------------------------------------------

export const Project = z.looseObject({
  id: WireId,
  name: z.string(),
  code: optString,
  description: optString,
  managerId: optString,
  managerName: optString,
  /** Datetimes without zone. */
  plannedStartDate: DateTimeString.nullish(),
  plannedFinishDate: DateTimeString.nullish(),
  isFinished: z.boolean().nullish(),
  /** The folder below which the project's work items hang. A project ID is not a work item ID. */
  workItemRootFolderId: WireId.nullish(),
  isLocked: z.boolean().nullish(),
  organizationId: optString,
  organizationName: optString,
  isDeleted: z.boolean().nullish(),
  canEdit: z.boolean().nullish(),
  createdAt: DateTimeString.nullish(),
  updatedAt: DateTimeString.nullish(),
});
export type Project = z.infer<typeof Project>;

export const ProjectListResponse = z.looseObject({ totalCount: z.number().int().min(0), data: z.array(Project) });
export type ProjectListResponse = z.infer<typeof ProjectListResponse>;

/** `GET /project/projects/{ids}` answers an array (even for one ID). */
export const ProjectsResponse = z.array(Project);
export type ProjectsResponse = z.infer<typeof ProjectsResponse>;

/** Query of `GET /project/projects` (unverified beyond public clients; paging like the other lists). */
export const ProjectsQuery = z.strictObject({
  name: z.string().optional().describe('Partial match on project name.'),
  code: z.string().optional().describe('Partial match on project code.'),
  keyword: z.string().optional().describe('Projects whose name or code contains the keyword.'),
  isFinished: z.boolean().optional().describe('true: finished projects only; false: unfinished only.'),
  isManager: z.boolean().optional().describe('true: projects the caller manages.'),
  organizationIds: z.string().optional().describe('Comma-separated organization IDs.'),
  managerIds: z.string().optional().describe('Comma-separated user IDs.'),
  limit: z.number().int().min(0).optional(),
  offset: z.number().int().min(0).optional(),
});
export type ProjectsQuery = z.infer<typeof ProjectsQuery>;

// ---------------------------------------------------------------------------
// The signed-in user
// ---------------------------------------------------------------------------

/** `GET /system/users/me` (product version 6 on; older servers answer 404). */
export const CurrentUser = z.looseObject({
  id: WireId,
  name: z.string(),
  loginName: optString,
  email: optString,
  organizationName: optString,
  language: optString,
  timeZone: optString,
  authenticationType: z.union([z.string(), z.number()]).nullish(),
  allowLocalAuthentication: z.boolean().nullish(),
});
export type CurrentUser = z.infer<typeof CurrentUser>;
