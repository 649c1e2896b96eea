// The sandbox's data-set format: what a `--data FILE` holds, what `--state FILE`
// persists and what `/_sandbox/dump` returns. Validated with zod at load, so a bad
// file gets an error that names the path and the value.
// No vscode import.
import { z } from 'zod';
import type { FieldDataType } from '../schema/catalogue';

const Id = z.string().min(1);
/** `yyyy-MM-dd` */
const DateOnly = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date as yyyy-MM-dd');
/** Work item datetimes carry no zone suffix, e.g. `2026-01-05T09:00:00`. */
const LocalDateTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$/, 'expected a datetime without zone suffix');
/** User and process category datetimes are UTC with `Z`. */
const UtcDateTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/, 'expected a UTC datetime ending in Z');

export const Organization = z.strictObject({
  id: Id,
  name: z.string(),
  code: z.string().default(''),
  /** null for a root organization. */
  parentId: Id.nullable(),
  /** A deleted organization: left out of `subOrganizations` unless includeDeleted=true. */
  isDeleted: z.boolean().default(false),
});
export type Organization = z.infer<typeof Organization>;

/** A user as stored: every field the spec lists (organizationName is derived), plus a password for sign-in. */
export const SandboxUser = z.strictObject({
  id: Id,
  name: z.string(),
  englishName: z.string().default(''),
  loginName: z.string().min(1),
  ldapLoginName: z.string().default(''),
  email: z.string().default(''),
  code: z.string().default(''),
  description: z.string().default(''),
  organizationId: Id,
  avatarUrl: z.string().default(''),
  language: z.string().default('ja-JP'),
  timeZone: z.string().default('Asia/Tokyo'),
  isDeleted: z.boolean().default(false),
  unitCost: z.number().default(0),
  timeEntryLockedDate: LocalDateTime.default('2000-01-01T00:00:00'),
  systemRoleId: z.string().default('2'),
  systemRoleName: z.string().default('User'),
  canEdit: z.boolean().default(true),
  aclId: z.string().default('0'),
  permission: z.number().int().default(0),
  createdAt: UtcDateTime.default('2025-01-01T00:00:00Z'),
  createdBy: z.string().default('0'),
  updatedAt: UtcDateTime.default('2025-01-01T00:00:00Z'),
  updatedBy: z.string().default('0'),
  /** Sandbox only: the password for `POST /auth/token` and Basic. Never returned by the API. */
  password: z.string().default('password'),
  /**
   * Sandbox only: API keys of this user, sent as `X-TT-ApiKey: <key>` instead of an
   * Authorization header (unique across users). Never returned by the API.
   */
  apiKeys: z.array(z.string().regex(/^[\x21-\x7e]+$/, 'expected printable ASCII without spaces')).default([]),
});
export type SandboxUser = z.infer<typeof SandboxUser>;

export const UserGroup = z.strictObject({ id: Id, name: z.string(), memberIds: z.array(Id).default([]) });
export type UserGroup = z.infer<typeof UserGroup>;

export const ItemType = z.strictObject({
  id: Id,
  name: z.string(),
  /**
   * The item type's system name in a profile (P2): `WorkItemRoot` for the type of
   * root folders, `Folder`, `Task`, `Milestone`, ... Empty: derived (catalogue.ts).
   */
  systemName: z.string().default(''),
  code: z.string().default(''),
  isFolder: z.boolean(),
  /** Created in the Professional edition: cannot be used in the Standard edition. */
  professionalOnly: z.boolean().default(false),
  /** false: the system does not permit this type (error 28 on restore; error 11 on change). */
  available: z.boolean().default(true),
});
export type ItemType = z.infer<typeof ItemType>;

/** Status types, process classifications and work classifications. */
export const Classification = z.strictObject({ id: Id, name: z.string(), available: z.boolean().default(true) });
export type Classification = z.infer<typeof Classification>;

export const ProjectMember = z.strictObject({
  userId: Id,
  /** edit: may update work items; view: may edit only the fields marked editableWithViewPermission. */
  permission: z.enum(['edit', 'view']),
  /** false: cost values in updates are ignored (rule 2) and not returned. */
  costPermission: z.boolean().default(true),
});
export type ProjectMember = z.infer<typeof ProjectMember>;

export const Project = z.strictObject({
  id: Id,
  name: z.string(),
  code: z.string().default(''),
  description: z.string().default(''),
  /** The project manager (a user); null when none. `GET /project/projects?isManager=true` lists the caller's. */
  managerId: Id.nullable().default(null),
  organizationId: Id.nullable().default(null),
  plannedStartDate: DateOnly.nullable().default(null),
  plannedFinishDate: DateOnly.nullable().default(null),
  isFinished: z.boolean().default(false),
  isLocked: z.boolean().default(false),
  /**
   * The project's root folder: a folder work item on level 0 (parentId null) below
   * which the project's top-level items (level 1) hang. A project ID is not a work
   * item ID. When absent, loading fills it in (see parseDataset in state.ts).
   */
  workItemRootFolderId: Id.optional(),
  createdAt: UtcDateTime.default('2025-01-01T00:00:00Z'),
  updatedAt: UtcDateTime.default('2025-01-01T00:00:00Z'),
  members: z.array(ProjectMember).default([]),
  /** Project groups that can be assigned (partyType UserGroup). */
  userGroupIds: z.array(Id).default([]),
  /** The allowed range of schedule dates (errors 6 and 7). */
  allowedDateRange: z.strictObject({ min: DateOnly, max: DateOnly }),
});
export type Project = z.infer<typeof Project>;

export const StoredAssignment = z.strictObject({
  partyId: Id,
  partyType: z.enum(['User', 'UserGroup']),
  plannedTime: z.number().int().default(0),
});
export type StoredAssignment = z.infer<typeof StoredAssignment>;

export const WorkItem = z.strictObject({
  id: Id,
  projectId: Id,
  /**
   * null only for a project's root folder (level 0). In a data set written before
   * root folders existed, null marks a top-level item: loading puts it below the
   * root folder it fills in.
   */
  parentId: Id.nullable(),
  /** Position among siblings (lower first). */
  order: z.number(),
  itemTypeId: Id,
  name: z.string(),
  code: z.string().default(''),
  description: z.string().default(''),
  statusTypeId: Id.nullable().default(null),
  processCategoryId: Id.nullable().default(null),
  timeEntryCategoryId: Id.nullable().default(null),
  plannedStartDate: DateOnly.nullable().default(null),
  plannedFinishDate: DateOnly.nullable().default(null),
  /** false: the item does not track progress (setCompleted leaves it alone). */
  tracksProgress: z.boolean().default(true),
  actualProgress: z.number().min(0).max(100).default(0),
  plannedTime: z.number().int().default(0),
  managedPlannedTime: z.number().int().default(0),
  plannedCost: z.number().default(0),
  actualTime: z.number().int().default(0),
  actualCost: z.number().default(0),
  assignments: z.array(StoredAssignment).default([]),
  leaderId: Id.nullable().default(null),
  timeEntryLocked: z.boolean().default(false),
  isDeleted: z.boolean().default(false),
  /**
   * Of a deleted item: the ID of the item a DELETE request named when this item was
   * deleted (the item itself, or the ancestor whose deletion took its subtree along).
   * A restore brings back the deleted descendants deleted with the same item (and those
   * of a data set written without this member), not one deleted on its own before.
   */
  deletedWith: Id.optional(),
  /** Values kept with the item by the add that created it (`metadata`: a string map). */
  metadata: z.record(z.string(), z.string()).optional(),
  /** Field name -> calculation type. */
  fieldCalcTypes: z.record(z.string(), z.string()).default({}),
  /**
   * Values of custom fields, by system name (a key of `fieldTypes` in the data set).
   * Text and list values are strings, numbers numbers, dates `yyyy-MM-dd`; a field
   * without a value is absent (read as null).
   */
  customFields: z.record(z.string(), z.unknown()).default({}),
  createdAt: LocalDateTime.default('2025-01-01T00:00:00'),
  updatedAt: LocalDateTime.default('2025-01-01T00:00:00'),
  updatedBy: z.string().default('0'),
  userUpdatedAt: LocalDateTime.default('2025-01-01T00:00:00'),
  userUpdatedBy: z.string().default('0'),
});
export type WorkItem = z.infer<typeof WorkItem>;

/** A schedule dependency between two work items; clearSchedule deletes an item's links. */
export const ScheduleLink = z.strictObject({ id: Id, fromId: Id, toId: Id });
export type ScheduleLink = z.infer<typeof ScheduleLink>;

export const StoredProcessCategory = z.strictObject({
  id: Id,
  name: z.string(),
  description: z.string().default(''),
  code: z.string().default(''),
  /** The Color structure is not shown; the sandbox stores `#rrggbb` strings. */
  color: z.string().default('#808080'),
  groupId: z.string().default(''),
  displayOrder: z.number().default(0),
  isDeleted: z.boolean().default(false),
  createdAt: UtcDateTime.default('2025-01-01T00:00:00Z'),
  createdBy: z.string().default('0'),
  updatedAt: UtcDateTime.default('2025-01-01T00:00:00Z'),
  updatedBy: z.string().default('0'),
});
export type StoredProcessCategory = z.infer<typeof StoredProcessCategory>;

/** Data types a custom field can have (of FIELD_DATA_TYPES in src/schema/catalogue.ts). */
export const CUSTOM_FIELD_DATA_TYPES = ['String', 'MultiLineString', 'Integer', 'Decimal', 'Date', 'DateTime', 'Boolean', 'List'] as const satisfies readonly FieldDataType[];

/** One choice of a List custom field. */
export const CustomFieldChoice = z.strictObject({ id: Id, name: z.string().min(1), code: z.string().default('') });
export type CustomFieldChoice = z.infer<typeof CustomFieldChoice>;

/**
 * A custom field definition (`GET /system/fieldTypes`, L1; sites define up to 200
 * per system). `systemName` is the key in `fields` (e.g. `CustomText1`); value
 * ranges: `maxLength` for text, `minValue`/`maxValue` for numbers, `choices` for List.
 */
export const CustomFieldDefinition = z.strictObject({
  id: Id.regex(/^\d+$/, 'expected an ID of decimal digits'),
  name: z.string().min(1),
  systemName: z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'expected a system name of letters, digits and _ (e.g. CustomText1)'),
  code: z.string().default(''),
  dataType: z.enum(CUSTOM_FIELD_DATA_TYPES),
  description: z.string().default(''),
  maxLength: z.number().int().min(1).optional(),
  minValue: z.number().optional(),
  maxValue: z.number().optional(),
  choices: z.array(CustomFieldChoice).optional(),
  isDeleted: z.boolean().default(false),
});
export type CustomFieldDefinition = z.infer<typeof CustomFieldDefinition>;

export const Dataset = z.strictObject({
  /** Format version of this file. */
  version: z.literal(2),
  organizations: z.array(Organization).default([]),
  users: z.array(SandboxUser).default([]),
  userGroups: z.array(UserGroup).default([]),
  itemTypes: z.array(ItemType).default([]),
  statusTypes: z.array(Classification).default([]),
  processClassifications: z.array(Classification).default([]),
  workClassifications: z.array(Classification).default([]),
  projects: z.array(Project).default([]),
  workItems: z.array(WorkItem).default([]),
  scheduleLinks: z.array(ScheduleLink).default([]),
  processCategories: z.array(StoredProcessCategory).default([]),
  /** Custom field definitions (system fields are fixed: SYSTEM_FIELD_TYPES in catalogue.ts). */
  fieldTypes: z.array(CustomFieldDefinition).default([]),
});
export type Dataset = z.infer<typeof Dataset>;
export type DatasetInput = z.input<typeof Dataset>;

export type Edition = 'standard' | 'professional';
