// The fields of work item reads: what each official system name reads from a
// stored item (READ_FIELDS), the data set's custom fields, the row builders that
// make the field objects of a large answer fast, and the assignedUsers filter of
// subItems. Used by reads.ts; choices are documented there. No vscode import.
import { customFieldReadValue, liveCustomFields } from './catalogue';
import type { CustomFieldDefinition, Dataset, StoredAssignment, WorkItem } from './model';
import type { ReadIndex } from './reads';

/** What a field getter sees. */
export interface FieldContext {
  index: ReadIndex;
  includeDeleted: boolean;
  /** The item's parent when the caller knows it (a tree walk; null for a root folder), else looked up. */
  parent?: WorkItem | null;
  /** The item's nearest folder ancestor when the caller knows it (null: none), else looked up. */
  folder?: WorkItem | null;
  /** The item's project when the caller knows it (a tree walk). */
  project?: { name: string; code: string };
}

const parentOf = (w: WorkItem, c: FieldContext): WorkItem | undefined =>
  c.parent !== undefined ? (c.parent ?? undefined) : w.parentId === null ? undefined : c.index.items.get(w.parentId);
const folderOf = (w: WorkItem, c: FieldContext): WorkItem | undefined => (c.folder !== undefined ? (c.folder ?? undefined) : c.index.folderOf(w));

/** A `yyyy-MM-dd` date as the service's datetime without zone (memoized: a large answer repeats a few hundred dates). */
const DATE_TIMES = new Map<string, string>();
export function dateTime(d: string | null): string | null {
  if (d === null) return null;
  let t = DATE_TIMES.get(d);
  if (t === undefined) {
    t = `${d}T00:00:00`;
    if (DATE_TIMES.size < 100_000) DATE_TIMES.set(d, t);
  }
  return t;
}

/**
 * The read fields of a work item (PascalCase, the names of `WorkItemField` in
 * src/schema/reads.ts) and where each comes from in the stored item. Times are
 * minutes, as stored. One table for GET by IDs and subItems.
 */
export const READ_FIELDS: Readonly<Record<string, (w: WorkItem, c: FieldContext) => unknown>> = {
  Id: (w) => w.id,
  ProjectId: (w) => w.projectId,
  ProjectName: (w, c) => c.index.projects.get(w.projectId)?.name ?? '',
  ProjectCode: (w, c) => c.index.projects.get(w.projectId)?.code ?? '',
  ItemTypeId: (w) => w.itemTypeId,
  StatusTypeId: (w) => w.statusTypeId ?? '0',
  FolderId: (w, c) => folderOf(w, c)?.id ?? '0',
  FolderName: (w, c) => folderOf(w, c)?.name ?? '',
  ParentId: (w) => w.parentId ?? '0',
  ParentName: (w, c) => parentOf(w, c)?.name ?? '',
  ProcessCategoryId: (w) => w.processCategoryId ?? '0',
  TimeEntryCategoryId: (w) => w.timeEntryCategoryId ?? '0',
  Name: (w) => w.name,
  Code: (w) => w.code,
  Description: (w) => w.description,
  PlannedStartDate: (w) => dateTime(w.plannedStartDate),
  PlannedFinishDate: (w) => dateTime(w.plannedFinishDate),
  ActualProgress: (w) => w.actualProgress,
  TracksProgress: (w) => w.tracksProgress,
  PlannedTime: (w) => w.plannedTime,
  ManagedPlannedTime: (w) => w.managedPlannedTime,
  PlannedCost: (w) => w.plannedCost,
  ActualTime: (w) => w.actualTime,
  ActualCost: (w) => w.actualCost,
  LeaderId: (w) => w.leaderId ?? '0',
  Assignments: (w, c) => w.assignments.map((a) => assignmentOut(a, c.index)),
  IsTimeEntryLocked: (w) => w.timeEntryLocked,
  IsDeleted: (w) => w.isDeleted,
  FieldCalcTypes: (w) => ({ ...w.fieldCalcTypes }),
  CreatedAt: (w) => w.createdAt,
  UpdatedAt: (w) => w.updatedAt,
  UpdatedBy: (w) => w.updatedBy,
  UserUpdatedAt: (w) => w.userUpdatedAt,
  UserUpdatedBy: (w) => w.userUpdatedBy,
  /** Bookkeeping the real service returns besides the fields asked. */
  IsAclInherited: () => true,
};

/** Fields that always come back with `fields=`. */
export const ALWAYS = ['Id', 'IsAclInherited'];
/** Left out for a caller without cost permission on the project. */
export const COST_FIELDS = new Set(['PlannedCost', 'ActualCost']);

/** A getter of a custom field (reads: a Date as `yyyy-MM-ddT00:00:00`, none as null). */
function customGetter(def: CustomFieldDefinition): (w: WorkItem) => unknown {
  const name = def.systemName;
  return (w) => customFieldReadValue(def, w.customFields[name]);
}

/** The fields a data set answers: the system fields, then its live custom fields. */
export class ReadFields {
  /** Every field, in answer order. */
  readonly all: string[];
  readonly byLower: Map<string, string>;
  readonly getters: Map<string, (w: WorkItem, c: FieldContext) => unknown>;
  /** Custom field name -> its data type (part of a row builder's key). */
  readonly customTypes = new Map<string, string>();
  constructor(data: Dataset) {
    this.getters = new Map(Object.entries(READ_FIELDS));
    for (const def of liveCustomFields(data)) {
      if (this.getters.has(def.systemName)) continue; // never a system name (checked at load)
      this.getters.set(def.systemName, customGetter(def));
      this.customTypes.set(def.systemName, def.dataType);
    }
    this.all = [...this.getters.keys()];
    this.byLower = new Map(this.all.map((k) => [k.toLowerCase(), k]));
  }
}

function assignmentOut(a: StoredAssignment, index: ReadIndex): Record<string, unknown> {
  const name = a.partyType === 'User' ? index.users.get(a.partyId)?.name : index.groups.get(a.partyId);
  return { partyId: a.partyId, partyType: a.partyType, partyName: name ?? null, plannedTime: a.plannedTime };
}

export type Row = (w: WorkItem, ctx: FieldContext) => Record<string, unknown>;

/** Fields read inline by the row builders, as JS expressions over the stored item `w` (READ_FIELDS says the same). */
const PLAIN: Readonly<Record<string, string>> = {
  Id: 'w.id',
  ProjectId: 'w.projectId',
  ItemTypeId: 'w.itemTypeId',
  StatusTypeId: '(w.statusTypeId ?? "0")',
  ParentId: '(w.parentId ?? "0")',
  ProcessCategoryId: '(w.processCategoryId ?? "0")',
  TimeEntryCategoryId: '(w.timeEntryCategoryId ?? "0")',
  Name: 'w.name',
  Code: 'w.code',
  Description: 'w.description',
  ActualProgress: 'w.actualProgress',
  TracksProgress: 'w.tracksProgress',
  PlannedTime: 'w.plannedTime',
  ManagedPlannedTime: 'w.managedPlannedTime',
  PlannedCost: 'w.plannedCost',
  ActualTime: 'w.actualTime',
  ActualCost: 'w.actualCost',
  LeaderId: '(w.leaderId ?? "0")',
  IsTimeEntryLocked: 'w.timeEntryLocked',
  IsDeleted: 'w.isDeleted',
  CreatedAt: 'w.createdAt',
  UpdatedAt: 'w.updatedAt',
  UpdatedBy: 'w.updatedBy',
  UserUpdatedAt: 'w.userUpdatedAt',
  UserUpdatedBy: 'w.userUpdatedBy',
  ProjectName: 'c.project.name',
  ProjectCode: 'c.project.code',
  FolderId: '(c.folder ? c.folder.id : "0")',
  FolderName: '(c.folder ? c.folder.name : "")',
  ParentName: '(c.parent ? c.parent.name : "")',
};
const rowBuilders = new Map<string, Row>();

/**
 * A function that makes the field object of one item for a selection of fields,
 * as one object literal (every row of an answer has the same shape, which keeps
 * building and JSON.stringify of 100,000 rows fast). The source holds only
 * catalogue names (quoted with JSON.stringify) and indexes into READ_FIELDS, never
 * caller text. `SubItems` is always a member (undefined is left out of the JSON).
 */
export function rowBuilder(names: readonly string[], withCost: boolean, fields: ReadFields): Row {
  const cols = names.filter((n) => withCost || !COST_FIELDS.has(n));
  // A custom field's getter depends on its data type only: part of the key.
  const key = `${withCost ? 1 : 0}:${cols.map((n) => (fields.customTypes.has(n) ? `${n}:${fields.customTypes.get(n)!}` : n)).join(',')}`;
  let row = rowBuilders.get(key);
  if (!row) {
    const getters = cols.map((n) => fields.getters.get(n)!);
    const inline = (n: string, i: number): string => {
      if (Object.prototype.hasOwnProperty.call(PLAIN, n)) return PLAIN[n]!;
      const type = fields.customTypes.get(n);
      // Custom fields other than dates are stored as read.
      if (type !== undefined && type !== 'Date') return `(w.customFields[${JSON.stringify(n)}] ?? null)`;
      return `g[${i}](w, c)`;
    };
    const body = cols.map((n, i) => `${JSON.stringify(n)}: ${inline(n, i)}`).join(', ');
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    row = new Function('g', `return function row(w, c) { return { ${body}${body ? ', ' : ''}SubItems: undefined }; };`)(getters) as Row;
    rowBuilders.set(key, row);
  }
  return row;
}

/**
 * `assignedUsers`: the IDs of the items of `top`'s project assigned to one of the
 * users named (login names, comma-separated, case-insensitive), directly or through
 * one of their user groups, with every ancestor up to `top`; `top` itself always.
 */
export function assignedItems(index: ReadIndex, top: WorkItem, logins: string, includeDeleted: boolean): Set<string> {
  const wanted = new Set(logins.split(',').map((s) => s.trim().toLowerCase()).filter((s) => s !== ''));
  const userIds = new Set<string>();
  for (const u of index.data.users) if (wanted.has(u.loginName.toLowerCase())) userIds.add(u.id);
  const groupIds = new Set<string>();
  for (const g of index.data.userGroups) if (g.memberIds.some((m) => userIds.has(m))) groupIds.add(g.id);
  const keep = new Set<string>([top.id]);
  if (userIds.size === 0) return keep;
  for (const w of index.data.workItems) {
    if (w.projectId !== top.projectId || keep.has(w.id) || w.assignments.length === 0) continue;
    if (!w.assignments.some((a) => (a.partyType === 'User' ? userIds : groupIds).has(a.partyId))) continue;
    if (!includeDeleted && index.hidden(w)) continue;
    // Keep the item and its ancestors (up to the first one already kept).
    const path: string[] = [];
    let cur: WorkItem | undefined = w;
    let connected = false;
    for (let steps = 0; cur && steps < 64; steps++) {
      if (keep.has(cur.id)) {
        connected = true;
        break;
      }
      path.push(cur.id);
      cur = cur.parentId === null ? undefined : index.items.get(cur.parentId);
    }
    // Only items below `top` (reaching a kept item means reaching top's subtree or a kept branch of it).
    if (connected) for (const p of path) keep.add(p);
  }
  return keep;
}
