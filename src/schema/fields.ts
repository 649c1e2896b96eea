// The work item field catalogue used by the `fields`, `fieldCalcTypes`,
// `clearFieldCalcTypes` and `propagateToChildren` members of an update.
//
// The service's full catalogue is not public ("not shown" in service-api.md).
// This table is the sandbox's choice and the client's source of completions and
// warnings. It is kept in one place so both sides agree; the client treats a
// name or calculation type it does not know as a warning, never as an error.

export type FieldKind = 'string' | 'integer' | 'number' | 'date' | 'userId' | 'assignments' | 'id';

export interface FieldInfo {
  /** Case-sensitive name as used in the `fields` map. */
  readonly name: string;
  readonly kind: FieldKind;
  readonly description: string;
  /** False: setting it fails with error 29 ("a field is specified that may not be edited"). */
  readonly editable: boolean;
  /** Cost fields are ignored for a caller without cost permission (update rule 2). */
  readonly cost?: boolean;
  /** A caller with view permission only may still edit it. */
  readonly editableWithViewPermission?: boolean;
  /** Allowed values in `fieldCalcTypes` (error 16 outside them). Absent: no calculation type. */
  readonly calcTypes?: readonly string[];
  /** May be named in `propagateToChildren.fields`. */
  readonly propagatable?: boolean;
}

export const FIELD_CATALOGUE: readonly FieldInfo[] = [
  { name: 'Name', kind: 'string', description: 'Name of the work item (1 to 256 characters).', editable: true, propagatable: false },
  { name: 'Code', kind: 'string', description: 'Code of the work item (at most 256 characters).', editable: true },
  { name: 'Description', kind: 'string', description: 'Description of the work item.', editable: true, propagatable: true },
  {
    name: 'ActualProgress',
    kind: 'number',
    description: 'Progress percentage (100 means complete, 0 means incomplete).',
    editable: true,
    editableWithViewPermission: true,
    calcTypes: ['Manual', 'ActualTime', 'Children'],
  },
  {
    name: 'PlannedTime',
    kind: 'integer',
    description: 'Planned effort.',
    editable: true,
    calcTypes: ['Manual', 'Assignments', 'Children'],
    propagatable: true,
  },
  {
    name: 'PlannedCost',
    kind: 'number',
    description: 'Planned cost (ignored for a caller without cost permission).',
    editable: true,
    cost: true,
    calcTypes: ['Manual', 'PlannedTime', 'Children'],
    propagatable: true,
  },
  { name: 'Assignments', kind: 'assignments', description: 'List of assignments.', editable: true },
  { name: 'LeaderId', kind: 'userId', description: 'User ID of the leader (must be a project member).', editable: true, propagatable: true },
  { name: 'PlannedStartDate', kind: 'date', description: 'Planned start date (yyyy-MM-dd).', editable: true, calcTypes: ['Manual', 'Children'] },
  { name: 'PlannedFinishDate', kind: 'date', description: 'Planned finish date (yyyy-MM-dd); not earlier than the planned start date.', editable: true, calcTypes: ['Manual', 'Children'] },
  { name: 'StatusTypeId', kind: 'id', description: 'ID of an available status type.', editable: true, propagatable: true },
  { name: 'ProcessCategoryId', kind: 'id', description: 'ID of an available process classification (process category).', editable: true, propagatable: true },
  { name: 'TimeEntryCategoryId', kind: 'id', description: 'ID of an available work classification (time entry category).', editable: true, propagatable: true },
  { name: 'Id', kind: 'id', description: 'ID of the work item (read only).', editable: false },
  { name: 'ProjectId', kind: 'id', description: 'Project of the work item (read only).', editable: false },
  { name: 'ActualTime', kind: 'integer', description: 'Actual effort, entered through time entries (read only).', editable: false },
  { name: 'ActualCost', kind: 'number', description: 'Actual cost (read only).', editable: false, cost: true },
  { name: 'CreatedAt', kind: 'date', description: 'Creation time (read only).', editable: false },
  { name: 'UpdatedAt', kind: 'date', description: 'Update time (read only).', editable: false },
];

/** A formula cannot be set through `fieldCalcTypes` (known-facts.md). */
export const FORMULA_CALC_TYPE = 'Formula';

/** In the Standard edition only ActualProgress may be given a calculation type. */
export const STANDARD_EDITION_CALC_TYPE_FIELDS: readonly string[] = ['ActualProgress'];

export const NAME_MAX_LENGTH = 256;
export const CODE_MAX_LENGTH = 256;
/**
 * Work item IDs in one update, at most (service-api.md: "items updated at once: 1000 at
 * most"). The one constant of this limit: the sandbox refuses more, ServiceClient refuses
 * to send more (src/api/limits.ts re-exports it with the other request limits), planJob
 * and the table split by it.
 */
export const MAX_ITEMS_PER_UPDATE = 1000;
export const MAX_HIERARCHY_DEPTH = 16;

const byName = new Map(FIELD_CATALOGUE.map((f) => [f.name, f]));
const byLowerName = new Map(FIELD_CATALOGUE.map((f) => [f.name.toLowerCase(), f]));

export function fieldInfo(name: string): FieldInfo | undefined {
  return byName.get(name);
}

/** For a name that differs only in case from a known field, the known field (field names are case-sensitive). */
export function caseMismatch(name: string): FieldInfo | undefined {
  if (byName.has(name)) return undefined;
  return byLowerName.get(name.toLowerCase());
}

/** Splits a comma-separated list of names or IDs, trimming blanks and dropping empty entries. */
export function splitCommaList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/**
 * Names this extension used before it followed the official Web API help, and the
 * service's names for them (official-reference.md, the system field table F1). The service does not
 * know the old names: a document that still has one is never sent.
 */
export const OLD_FIELD_NAMES: Readonly<Record<string, string>> = Object.freeze({
  StartDate: 'PlannedStartDate',
  EndDate: 'PlannedFinishDate',
  WorkCategoryId: 'TimeEntryCategoryId',
});

/** The official name of an old field name (exact case), or undefined. */
export function officialFieldName(name: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(OLD_FIELD_NAMES, name) ? OLD_FIELD_NAMES[name] : undefined;
}

/** Why a field cannot be set through `fields` (the table words each kind in its own language). */
export type ReadOnlyKind = 'id' | 'project' | 'folder' | 'parent' | 'itemType' | 'assignments' | 'actualTime' | 'actualCost' | 'service';

export interface ReadOnlyField {
  readonly kind: ReadOnlyKind;
  /**
   * A row of the official help's system field table (F1) that has no "update": a
   * service refuses it in `fields` as a read-only system field (the sandbox: error 29).
   */
  readonly systemTable: boolean;
  /** The update member that changes it, where the help names one (the sandbox's error names it). */
  readonly member?: string;
}

/**
 * The fields of a work item that an update's `fields` cannot set: the read-only system
 * fields of the help's table (F1: Id, project, item type, folder, parent) and the fields
 * other members or the service set (assignments, actual time and cost, timestamps). One
 * table for the sandbox's refusals (src/sandbox/update/official-fields.ts) and the
 * table's read-only cells (src/table/model/cells.ts).
 */
export const READ_ONLY_FIELDS: Readonly<Record<string, ReadOnlyField>> = Object.freeze({
  Id: { kind: 'id', systemTable: true },
  ProjectId: { kind: 'project', systemTable: true },
  ProjectName: { kind: 'project', systemTable: true },
  ProjectCode: { kind: 'project', systemTable: true },
  ItemTypeId: { kind: 'itemType', systemTable: true, member: 'changeItemTypeTo' },
  FolderId: { kind: 'folder', systemTable: true },
  FolderName: { kind: 'folder', systemTable: true },
  ParentId: { kind: 'parent', systemTable: true, member: 'moveParentTo' },
  ParentName: { kind: 'parent', systemTable: true, member: 'moveParentTo' },
  Assignments: { kind: 'assignments', systemTable: false, member: 'assignmentChange' },
  ActualTime: { kind: 'actualTime', systemTable: false },
  ActualCost: { kind: 'actualCost', systemTable: false },
  CreatedAt: { kind: 'service', systemTable: false },
  UpdatedAt: { kind: 'service', systemTable: false },
} satisfies Record<string, ReadOnlyField>);

/** The read-only field of this name (exact case), or undefined. */
export function readOnlyField(name: string): ReadOnlyField | undefined {
  return Object.prototype.hasOwnProperty.call(READ_ONLY_FIELDS, name) ? READ_ONLY_FIELDS[name] : undefined;
}
