// The sandbox's update engine: PUT /workitem/workItems/{ids} as the official Web API
// help describes it (official-reference.md sections 3, 4, 6: system field names,
// custom fields, "0" for none, the answer of U2, assignment updates of U3), and
// operation 1 of service-api.md where only it speaks, with the facts of known-facts.md.
// No vscode import. Every choice where the spec says "not shown" is listed in the
// README section "Sandbox: update rules and choices".
//
// Atomic: all reads and writes of one request go through a copy-on-write
// WorkingSet; the data set changes only when no error was found (commit).
import type { UpdateWorkItemsBody, UpdateWorkItemsResponse, WorkItemResult } from '../schema/api';
import { ERROR_CODES, fillTemplate } from '../schema/error-codes';
import {
  FIELD_CATALOGUE,
  FORMULA_CALC_TYPE,
  MAX_HIERARCHY_DEPTH,
  MAX_ITEMS_PER_UPDATE,
  NAME_MAX_LENGTH,
  CODE_MAX_LENGTH,
  STANDARD_EDITION_CALC_TYPE_FIELDS,
  fieldInfo,
  splitCommaList,
  type FieldInfo,
} from '../schema/fields';
import { SANDBOX_ERROR_CODES, SANDBOX_SHARED_CLIENT_CODES, type SandboxErrorCode } from '../schema/sandbox-error-codes';
import type { Classification, CustomFieldDefinition, Dataset, Edition, ItemType, Project, ProjectMember, SandboxUser, StoredAssignment, UserGroup, WorkItem } from './model';
import { parseUpdateBody } from './update/body';
import { showValue } from './values';
import { indexesOf, type DatasetIndexes } from './update/indexes';
import { WorkingSet } from './update/working-set';
import { answerItem, answerValue, SentValues, updateStamp } from './update/answer';
import { customFieldDefinition, customFieldReadValue } from './catalogue';
import { changedCustomFields, checkCustomValue, sameCustomValue, withCustomValue } from './update/custom-fields';
import { answerMemberName, readOnlyReason, readOnlySystemField, unknownFieldHint } from './update/official-fields';

export interface SandboxErrorEntry {
  message: string;
  code: string;
  /** Number of the error condition in service-api.md "Errors" (1-29), when one applies. */
  rule?: number;
  itemId?: string;
  /** The field (`fields` key) or body member the error is about. */
  field?: string;
  /** Values for the code's message template (src/schema/error-codes.ts, sandbox-error-codes.ts). */
  params?: Record<string, string | number>;
}

export interface UpdateContext {
  /** User ID of the signed-in caller. */
  callerId: string;
  edition: Edition;
  now: Date;
}

export type UpdateOutcome =
  /** `undo` takes the change back (before any later change), e.g. when it could not be saved. */
  | { ok: true; response: UpdateWorkItemsResponse; undo: () => void }
  | { ok: false; status: number; errors: SandboxErrorEntry[] };

type AnyCode = SandboxErrorCode | keyof typeof SANDBOX_SHARED_CLIENT_CODES;

// The order in which the members of a body are processed for each item (rule 1; README
// "Sandbox: update rules and choices"): moveParentTo (with its ordering member),
// changeItemTypeTo, clearSchedule, fields (in catalogue order), moveScheduleDays,
// copyAssignmentsFrom, assignmentChange (removes, removeUsers, updates, adds, then
// recalculatePlannedTimeByAssignment), the calculation-type members, setCompleted,
// setTimeEntryLocked, propagateToChildren.

/** Fields a Standard-edition item that has children still accepts. */
const STANDARD_PARENT_FIELDS = new Set(['Name', 'Code', 'Description']);

/** Members a caller with view permission only may use (besides fields marked editableWithViewPermission). */
const VIEW_MEMBERS = new Set(['fields', 'setCompleted']);

/** Stored work item property of each catalogue field that can be set or copied. */
const FIELD_PROPERTY: Record<string, keyof WorkItem> = {
  Name: 'name',
  Code: 'code',
  Description: 'description',
  ActualProgress: 'actualProgress',
  PlannedTime: 'plannedTime',
  PlannedCost: 'plannedCost',
  Assignments: 'assignments',
  LeaderId: 'leaderId',
  PlannedStartDate: 'plannedStartDate',
  PlannedFinishDate: 'plannedFinishDate',
  StatusTypeId: 'statusTypeId',
  ProcessCategoryId: 'processCategoryId',
  TimeEntryCategoryId: 'timeEntryCategoryId',
};

/** Work item properties reported in responses when they change (camelCase, as the wire has them). */
const REPORTED_PROPERTIES = [
  'name',
  'code',
  'description',
  'parentId',
  'itemTypeId',
  'statusTypeId',
  'processCategoryId',
  'timeEntryCategoryId',
  'plannedStartDate',
  'plannedFinishDate',
  'actualProgress',
  'plannedTime',
  'managedPlannedTime',
  'plannedCost',
  'assignments',
  'leaderId',
  'timeEntryLocked',
  'isDeleted',
  'fieldCalcTypes',
] as const satisfies readonly (keyof WorkItem)[];

/** An own member of a record (never one of its prototype), or undefined. */
function ownValue(record: Record<string, unknown> | undefined, key: string): unknown {
  return record !== undefined && Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

/** Whether every entry of an `Assignments` value names partyId, partyType and plannedTime (member names in any casing). */
function assignmentsComplete(value: unknown): boolean {
  return (
    Array.isArray(value) &&
    value.every((e: unknown) => {
      if (typeof e !== 'object' || e === null) return false;
      const keys = new Set(Object.keys(e).map((k) => k.toLowerCase()));
      return keys.has('partyid') && keys.has('partytype') && keys.has('plannedtime');
    })
  );
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?$/;

/** `yyyy-MM-dd` of a valid calendar date (a time part is accepted and dropped), or undefined. */
function parseDate(value: string): string | undefined {
  const m = DATE_RE.exec(value);
  if (!m) return undefined;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  const text = d.toISOString().slice(0, 10);
  return text === `${m[1]}-${m[2]}-${m[3]}` ? text : undefined;
}

const DAY_MS = 86_400_000;
const FIRST_DAY_MS = new Date('0001-01-01T00:00:00Z').getTime();
const LAST_DAY_MS = new Date('9999-12-31T00:00:00Z').getTime();

/**
 * `date` shifted by `days`; a result outside the years 0001 to 9999 (or beyond what
 * a Date can hold, e.g. 100,000,000 days) is `outside`, shown as "before
 * 0001-01-01" / "after 9999-12-31": any allowed range excludes it.
 */
function shiftDate(date: string, days: number): { date: string; outside: boolean } {
  const ms = Date.parse(`${date}T00:00:00Z`) + days * DAY_MS;
  if (ms < FIRST_DAY_MS || (!Number.isFinite(ms) && days < 0)) return { date: 'before 0001-01-01', outside: true };
  if (ms > LAST_DAY_MS || !Number.isFinite(ms)) return { date: 'after 9999-12-31', outside: true };
  return { date: new Date(ms).toISOString().slice(0, 10), outside: false };
}

/**
 * Work item datetimes carry no zone suffix: the sandbox writes UTC wall time with 7
 * fractional digits, as the help's update answer shows, e.g. 2026-11-21T10:00:00.0000000.
 */
export function localDateTime(now: Date): string {
  return updateStamp(now);
}

/** Answer member of each reported property whose name is not the property's own (camelCase of the read field IsTimeEntryLocked). */
const ANSWER_MEMBER: Partial<Record<keyof WorkItem, string>> = { timeEntryLocked: 'isTimeEntryLocked' };

/** The read field (system name) of each reported property: the answer member is its camelCase. */
const answerMember = (prop: keyof WorkItem): string => ANSWER_MEMBER[prop] ?? answerMemberName(String(prop));

/** "0" means none for an ID (official help section 3). */
const NONE_ID = '0';

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    if (!sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

function sumPlanned(list: readonly StoredAssignment[]): number {
  return list.reduce((s, a) => s + a.plannedTime, 0);
}

type OrderSpec = { member: 'orderBefore' | 'orderAfter' | 'orderFirst' | 'orderLast'; ref?: string } | undefined;

/** Looks users up by ID and by the four names the spec matches exactly. */
class UserDirectory {
  private readonly byId: Map<string, SandboxUser>;
  readonly groups: Map<string, UserGroup>;

  constructor(private readonly indexes: DatasetIndexes) {
    this.byId = indexes.usersById();
    this.groups = indexes.groupsById();
  }

  user(id: string): SandboxUser | undefined {
    const u = this.byId.get(id);
    return u && !u.isDeleted ? u : undefined;
  }

  /**
   * The live users whose login name, LDAP login name, e-mail address or name is
   * exactly `text`; when several match, a login-name match wins, then LDAP
   * login name, then e-mail, then name.
   */
  match(text: string): SandboxUser[] {
    for (const map of this.indexes.usersByName()) {
      const found = map.get(text);
      if (found && found.length > 0) return found;
    }
    return [];
  }
}

interface ItemScope {
  id: string;
  project: Project;
  member: ProjectMember;
  canCost: boolean;
  /** Dates set through fields or shifted: check error 5 at the end. */
  datesTouched: boolean;
}

class UpdateRun {
  readonly errors: (SandboxErrorEntry & { status: number })[] = [];
  readonly ws: WorkingSet;
  private readonly users: UserDirectory;
  private readonly projects: Map<string, Project>;
  private readonly itemTypes: Map<string, ItemType>;
  private readonly statusTypes: Map<string, Classification>;
  private readonly processClassifications: Map<string, Classification>;
  private readonly workClassifications: Map<string, Classification>;
  private readonly liveProcessCategories: Set<string>;
  /** Requested items whose stored state changed in ways the response does not show (position, links). */
  private readonly silentlyChanged = new Set<string>();
  readonly removedLinkIds = new Set<string>();
  private readonly indexes: DatasetIndexes;
  /** Per destination parent: the item this request inserted last (keeps a request's items together, in order). */
  private readonly lastInserted = new Map<string, string>();
  /** Items restored in this request (also as descendants of a restored item). */
  private readonly restored = new Set<string>();
  /** The values sent in `fields`, as stored: not answered when the item keeps them. */
  private readonly sent = new SentValues();

  constructor(
    private readonly data: Dataset,
    private readonly body: UpdateWorkItemsBody,
    private readonly ctx: UpdateContext,
  ) {
    this.ws = new WorkingSet(data);
    const ix = indexesOf(data);
    this.indexes = ix;
    this.users = new UserDirectory(ix);
    this.projects = ix.projectsById();
    this.itemTypes = ix.itemTypesById();
    this.statusTypes = ix.statusTypesById();
    this.processClassifications = ix.processClassificationsById();
    this.workClassifications = ix.workClassificationsById();
    this.liveProcessCategories = ix.liveProcessCategories();
  }

  // ---------------------------------------------------------------- errors

  fail(code: AnyCode, params: Record<string, string | number>, where: { itemId?: string; field?: string; rule?: number } = {}): void {
    const own = (SANDBOX_ERROR_CODES as Record<string, { message: string; rule?: number; status: number }>)[code];
    const shared = (ERROR_CODES as Record<string, { message: string; rule?: number }>)[code];
    const template = own?.message ?? shared?.message ?? code;
    const status = own?.status ?? (SANDBOX_SHARED_CLIENT_CODES as Record<string, number>)[code] ?? 400;
    const rule = where.rule ?? own?.rule ?? shared?.rule;
    const text = fillTemplate(template, params);
    const message = `${where.itemId !== undefined ? `Work item ${where.itemId}: ` : ''}${text}${rule !== undefined ? ` (error ${rule})` : ''}`;
    const entry: SandboxErrorEntry & { status: number } = { message, code, status };
    if (rule !== undefined) entry.rule = rule;
    if (where.itemId !== undefined) entry.itemId = where.itemId;
    if (where.field !== undefined) entry.field = where.field;
    entry.params = params;
    this.errors.push(entry);
  }

  status(): number {
    return this.errors.reduce((s, e) => Math.max(s, e.status), 400);
  }

  // ---------------------------------------------------------------- helpers

  private isFolder(item: WorkItem): boolean {
    return this.itemTypes.get(item.itemTypeId)?.isFolder === true;
  }

  private isMember(project: Project, userId: string): boolean {
    return project.members.some((m) => m.userId === userId);
  }

  private links(itemId: string): string[] {
    return (this.indexes.linksByItem().get(itemId) ?? []).filter((id) => !this.removedLinkIds.has(id));
  }

  /** The order member in effect (false values of orderFirst/orderLast do nothing and count as absent). */
  private orderSpecs(): NonNullable<OrderSpec>[] {
    const b = this.body;
    const specs: NonNullable<OrderSpec>[] = [];
    if (b.orderAfter !== undefined) specs.push({ member: 'orderAfter', ref: b.orderAfter });
    if (b.orderBefore !== undefined) specs.push({ member: 'orderBefore', ref: b.orderBefore });
    if (b.orderFirst === true) specs.push({ member: 'orderFirst' });
    if (b.orderLast === true) specs.push({ member: 'orderLast' });
    return specs;
  }

  /** Request-level rules 20 and 21 (rule 4 of the operation). */
  checkRequest(): void {
    if (this.body.restore === true) return; // all other parameters are ignored
    const specs = this.orderSpecs();
    if (specs.length > 1) {
      this.fail('ORDER_MULTIPLE', { member: specs[0]!.member, other: specs[1]!.member }, { field: specs[1]!.member, rule: 20 });
    }
    if (specs.length > 0 && this.body.moveParentTo === undefined) {
      for (const s of specs) this.fail('ORDER_WITHOUT_PARENT', { member: s.member }, { field: s.member, rule: 21 });
    }
  }

  /** Body members that change something (values documented as "nothing happens" are left out). */
  private effectiveMembers(canCost: boolean): string[] {
    const b = this.body;
    const out: string[] = [];
    const add = (name: string, on: boolean) => on && out.push(name);
    add('moveScheduleDays', b.moveScheduleDays !== undefined);
    add('clearSchedule', b.clearSchedule === true);
    add('assignmentChange', b.assignmentChange !== undefined);
    add('moveParentTo', b.moveParentTo !== undefined);
    add('changeItemTypeTo', b.changeItemTypeTo !== undefined);
    add('setCompleted', b.setCompleted !== undefined);
    add('setTimeEntryLocked', b.setTimeEntryLocked !== undefined);
    add('fieldCalcTypes', b.fieldCalcTypes !== undefined && Object.keys(b.fieldCalcTypes).some((f) => canCost || !fieldInfo(f)?.cost));
    add('propagateToChildren', b.propagateToChildren !== undefined);
    add('clearFieldCalcTypes', b.clearFieldCalcTypes !== undefined);
    add('clearAllFieldCalcTypes', b.clearAllFieldCalcTypes === true);
    add('copyAssignmentsFrom', b.copyAssignmentsFrom !== undefined);
    for (const s of this.orderSpecs()) out.push(s.member);
    return out;
  }

  // ---------------------------------------------------------------- per item

  processItem(id: string): void {
    const item = this.ws.get(id)!;
    const project = this.projects.get(item.projectId);
    const member = project?.members.find((m) => m.userId === this.ctx.callerId);
    if (!project || !member) {
      this.fail('FORBIDDEN', { id, projectId: item.projectId }, { itemId: id });
      return;
    }
    const scope: ItemScope = { id, project, member, canCost: member.costPermission, datesTouched: false };
    const b = this.body;

    if (b.restore === true) {
      if (member.permission !== 'edit') {
        this.fail('VIEW_PERMISSION_NOT_EDITABLE', { projectId: project.id, member: 'restore', allowed: this.viewAllowedText() }, { itemId: id, field: 'restore' });
        return;
      }
      this.restore(scope);
      return;
    }
    if (item.isDeleted) {
      this.fail('WORK_ITEM_DELETED', { id }, { itemId: id });
      return;
    }
    if (member.permission !== 'edit' && !this.checkViewPermission(scope)) return;
    if (this.ctx.edition === 'standard' && !this.checkStandardParent(scope)) return;

    const before = this.errors.length;
    this.move(scope);
    this.changeItemType(scope);
    this.clearSchedule(scope);
    this.fields(scope);
    this.shiftSchedule(scope);
    this.copyAssignments(scope);
    this.assignmentChange(scope);
    this.calcTypes(scope);
    this.setCompleted(scope);
    this.setTimeEntryLocked(scope);
    this.propagate(scope);
    if (scope.datesTouched && this.errors.length === before) {
      const now = this.ws.get(id)!;
      if (now.plannedStartDate !== null && now.plannedFinishDate !== null && now.plannedFinishDate < now.plannedStartDate) {
        this.fail('END_BEFORE_START', { start: now.plannedStartDate, end: now.plannedFinishDate }, { itemId: id, field: 'PlannedFinishDate', rule: 5 });
      }
    }
  }

  private viewAllowedText(): string {
    const fields = FIELD_CATALOGUE.filter((f) => f.editableWithViewPermission).map((f) => `fields.${f.name}`);
    return [...fields, 'setCompleted'].join(', ');
  }

  /** A caller with view permission only: fields marked editableWithViewPermission and setCompleted. */
  private checkViewPermission(scope: ItemScope): boolean {
    const bad: string[] = this.effectiveMembers(scope.canCost).filter((m) => !VIEW_MEMBERS.has(m));
    for (const name of Object.keys(this.body.fields ?? {})) {
      const info = fieldInfo(name);
      if (info?.cost && !scope.canCost) continue; // ignored anyway (rule 2)
      if (!info?.editableWithViewPermission) bad.push(`fields.${name}`);
    }
    for (const m of bad) {
      this.fail(
        'VIEW_PERMISSION_NOT_EDITABLE',
        { projectId: scope.project.id, member: m, allowed: this.viewAllowedText() },
        { itemId: scope.id, field: m.startsWith('fields.') ? m.slice(7) : m },
      );
    }
    return bad.length === 0;
  }

  /** Standard edition: an item that has children accepts changes to name, code and description only. */
  private checkStandardParent(scope: ItemScope): boolean {
    if (!this.ws.hasLiveChildren(scope.id)) return true;
    const b = this.body;
    const bad: string[] = [];
    for (const name of Object.keys(b.fields ?? {})) {
      const info = fieldInfo(name);
      if (info?.cost && !scope.canCost) continue;
      if (!STANDARD_PARENT_FIELDS.has(name)) bad.push(`fields.${name}`);
    }
    if (b.moveScheduleDays !== undefined && b.moveScheduleDays !== 0) bad.push('moveScheduleDays');
    if (b.clearSchedule === true) bad.push('clearSchedule');
    if (b.assignmentChange !== undefined) bad.push('assignmentChange');
    if (b.copyAssignmentsFrom !== undefined) bad.push('copyAssignmentsFrom');
    if (b.changeItemTypeTo !== undefined) bad.push('changeItemTypeTo');
    for (const m of bad) {
      this.fail('STANDARD_EDITION_PARENT_ITEM', { member: m }, { itemId: scope.id, field: m.startsWith('fields.') ? m.slice(7) : m });
    }
    return bad.length === 0;
  }

  // ---------------------------------------------------------------- moveParentTo + order

  /** Checks an item named by moveParentTo / an order member (errors 22, 23). */
  private referencedItem(scope: ItemScope, refId: string, member: string, rules: { missing: number; otherProject: number }): WorkItem | undefined {
    const ref = this.ws.get(refId);
    const item = this.ws.get(scope.id)!;
    if (!ref || ref.isDeleted) {
      this.fail('REFERENCED_ITEM_NOT_FOUND', { refId, member }, { itemId: scope.id, field: member, rule: rules.missing });
      return undefined;
    }
    if (ref.projectId !== item.projectId) {
      this.fail('OTHER_PROJECT', { refId, member, refProjectId: ref.projectId, projectId: item.projectId }, { itemId: scope.id, field: member, rule: rules.otherProject });
      return undefined;
    }
    return ref;
  }

  private move(scope: ItemScope): void {
    const destId = this.body.moveParentTo;
    if (destId === undefined) return;
    const id = scope.id;
    const item = this.ws.get(id)!;
    if (item.parentId === null) {
      this.fail('ROOT_FOLDER_FIXED', { id, projectId: item.projectId, member: 'moveParentTo' }, { itemId: id, field: 'moveParentTo' });
      return;
    }
    const before = this.errors.length;
    const dest = this.referencedItem(scope, destId, 'moveParentTo', { missing: 23, otherProject: 22 });
    if (dest) {
      if (this.ws.isSelfOrDescendant(destId, id)) {
        this.fail('MOVE_INTO_OWN_SUBTREE', { refId: destId, member: 'moveParentTo' }, { itemId: id, field: 'moveParentTo' });
      } else {
        if (dest.actualTime > 0 || dest.actualCost > 0) {
          this.fail('PARENT_HAS_ACTUALS', { parentId: destId }, { itemId: id, field: 'moveParentTo', rule: 17 });
        }
        if (this.isFolder(item) && !this.isFolder(dest)) {
          this.fail('FOLDER_UNDER_NON_FOLDER', { parentId: destId }, { itemId: id, field: 'moveParentTo', rule: 18 });
        }
        this.checkDepth(scope, destId, 'moveParentTo', 19, false);
      }
    }
    const specs = this.orderSpecs();
    const spec = specs.length === 1 ? specs[0] : undefined;
    if (spec?.ref !== undefined && spec.ref !== '0') {
      const ref = this.referencedItem(scope, spec.ref, spec.member, { missing: 23, otherProject: 22 });
      if (ref && ref.id === id) {
        this.fail('MOVE_INTO_OWN_SUBTREE', { refId: ref.id, member: spec.member }, { itemId: id, field: spec.member });
      } else if (ref && dest && ref.parentId !== destId) {
        this.fail('ORDER_REFERENCE_NOT_SIBLING', { refId: ref.id, member: spec.member, parentId: destId }, { itemId: id, field: spec.member });
      }
    }
    if (this.errors.length > before || specs.length > 1 || !dest) return;
    if (item.parentId === destId && !spec) return; // already there, no position asked for
    this.place(id, destId, spec);
  }

  /** Errors 19/27: the destination is on the deepest level, or the moved subtree would not fit. */
  private checkDepth(scope: ItemScope, parentId: string, member: string, rule: 19 | 27, includeDeleted: boolean): void {
    const parentLevel = this.ws.level(parentId);
    if (parentLevel >= MAX_HIERARCHY_DEPTH) {
      this.fail(rule === 19 ? 'PARENT_AT_MAX_DEPTH' : 'RESTORE_DESTINATION_AT_MAX_DEPTH', { parentId, max: MAX_HIERARCHY_DEPTH }, { itemId: scope.id, field: member, rule });
      return;
    }
    const height = this.ws.height(scope.id, includeDeleted);
    if (parentLevel + height > MAX_HIERARCHY_DEPTH) {
      this.fail(
        'HIERARCHY_TOO_DEEP',
        { parentId, parentLevel, height, level: parentLevel + height, max: MAX_HIERARCHY_DEPTH },
        { itemId: scope.id, field: member, rule },
      );
    }
  }

  /** Puts the item under `parentId` at the position the order member asks for (default: the end). */
  private place(id: string, parentId: string | null, spec: OrderSpec): void {
    const item = this.ws.get(id)!;
    const siblings = this.ws.sortedChildren(parentId, item.projectId).filter((s) => s.id !== id);
    const key = parentId ?? `root:${item.projectId}`;
    let index: number;
    const previous = this.lastInserted.get(key);
    const prevIndex = previous === undefined ? -1 : siblings.findIndex((s) => s.id === previous);
    if (prevIndex >= 0 && spec) index = prevIndex + 1;
    else if (!spec || spec.member === 'orderLast') index = siblings.length;
    else if (spec.member === 'orderFirst') index = 0;
    else if (spec.member === 'orderBefore') index = spec.ref === '0' ? siblings.length : siblings.findIndex((s) => s.id === spec.ref);
    else index = spec.ref === '0' ? 0 : siblings.findIndex((s) => s.id === spec.ref) + 1;
    if (index < 0) index = siblings.length;

    this.ws.setParent(id, parentId);
    this.ws.mut(id).order = this.orderBetween(siblings, index);
    this.lastInserted.set(key, id);
    this.silentlyChanged.add(id);
  }

  /** An order value between siblings[index-1] and siblings[index]; renumbers the siblings when no gap is left. */
  private orderBetween(siblings: WorkItem[], index: number): number {
    const prev = siblings[index - 1];
    const next = siblings[index];
    if (prev && next) {
      const mid = (prev.order + next.order) / 2;
      if (prev.order < mid && mid < next.order) return mid;
      siblings.forEach((s, i) => {
        const target = i < index ? i + 1 : i + 2;
        if (s.order !== target) this.ws.mut(s.id).order = target;
      });
      return index + 1;
    }
    if (next) return next.order - 1;
    if (prev) return prev.order + 1;
    return 1;
  }

  // ---------------------------------------------------------------- item type

  private changeItemType(scope: ItemScope): void {
    const typeId = this.body.changeItemTypeTo;
    if (typeId === undefined) return;
    const id = scope.id;
    const type = this.itemTypes.get(typeId);
    const where = { itemId: id, field: 'changeItemTypeTo' };
    if (this.ws.get(id)!.parentId === null) {
      this.fail('ROOT_FOLDER_FIXED', { id, projectId: scope.project.id, member: 'changeItemTypeTo' }, where);
      return;
    }
    if (!type || !type.available) {
      this.fail('ITEM_TYPE_NOT_AVAILABLE', { value: typeId }, { ...where, rule: 11 });
      return;
    }
    if (this.ctx.edition === 'standard' && type.professionalOnly) {
      this.fail('STANDARD_EDITION_ITEM_TYPE', { value: typeId }, where);
      return;
    }
    const item = this.ws.get(id)!;
    if (type.isFolder) {
      const parent = item.parentId === null ? undefined : this.ws.get(item.parentId);
      if (parent && !this.isFolder(parent)) {
        this.fail('FOLDER_TYPE_UNDER_NON_FOLDER', { value: typeId, parentId: parent.id }, { ...where, rule: 12 });
        return;
      }
    } else {
      const folderChild = this.ws.childrenOf(id).find((c) => this.isFolder(c));
      if (folderChild) {
        this.fail('NON_FOLDER_TYPE_WITH_FOLDER_CHILD', { value: typeId, childId: folderChild.id }, { ...where, rule: 13 });
        return;
      }
    }
    if (item.itemTypeId !== typeId) this.ws.mut(id).itemTypeId = typeId;
  }

  // ---------------------------------------------------------------- schedule

  private clearSchedule(scope: ItemScope): void {
    if (this.body.clearSchedule !== true) return;
    const item = this.ws.get(scope.id)!;
    if (item.plannedStartDate !== null || item.plannedFinishDate !== null) {
      const w = this.ws.mut(scope.id);
      w.plannedStartDate = null;
      w.plannedFinishDate = null;
    }
    const links = this.links(scope.id);
    if (links.length > 0) {
      for (const l of links) this.removedLinkIds.add(l);
      this.silentlyChanged.add(scope.id);
    }
  }

  private shiftSchedule(scope: ItemScope): void {
    const days = this.body.moveScheduleDays;
    if (days === undefined || days === 0) return;
    const item = this.ws.get(scope.id)!;
    const { min, max } = scope.project.allowedDateRange;
    const start = item.plannedStartDate === null ? null : shiftDate(item.plannedStartDate, days);
    const end = item.plannedFinishDate === null ? null : shiftDate(item.plannedFinishDate, days);
    const outOfRange = (d: { date: string; outside: boolean }) => d.outside || d.date < min || d.date > max;
    let ok = true;
    if (start !== null && outOfRange(start)) {
      this.fail('SHIFTED_START_OUT_OF_RANGE', { days, date: start.date, min, max }, { itemId: scope.id, field: 'PlannedStartDate', rule: 6 });
      ok = false;
    }
    if (end !== null && outOfRange(end)) {
      this.fail('SHIFTED_END_OUT_OF_RANGE', { days, date: end.date, min, max }, { itemId: scope.id, field: 'PlannedFinishDate', rule: 7 });
      ok = false;
    }
    if (!ok || (start === null && end === null)) return;
    const w = this.ws.mut(scope.id);
    w.plannedStartDate = start?.date ?? null;
    w.plannedFinishDate = end?.date ?? null;
    scope.datesTouched = true;
  }

  // ---------------------------------------------------------------- fields

  private fields(scope: ItemScope): void {
    const fields = this.body.fields;
    if (!fields) return;
    const names = Object.keys(fields);
    const known = FIELD_CATALOGUE.filter((f) => Object.prototype.hasOwnProperty.call(fields, f.name));
    const custom: CustomFieldDefinition[] = [];
    for (const name of names) {
      if (fieldInfo(name)) continue;
      const def = this.customField(name);
      if (def) custom.push(def);
      else this.notAField(scope.id, name);
    }
    for (const info of known) {
      if (readOnlySystemField(info.name)?.member !== undefined) {
        this.readOnlyField(scope.id, info.name);
        continue;
      }
      if (!info.editable) {
        this.fail('FIELD_NOT_EDITABLE', { field: info.name }, { itemId: scope.id, field: info.name, rule: 29 });
        continue;
      }
      if (info.cost && !scope.canCost) continue; // rule 2: ignored
      this.setField(scope, info, fields[info.name]);
    }
    for (const def of custom) this.setCustomField(scope, def, fields[def.systemName]);
  }

  /** The live custom field of this exact system name in the data set. */
  private customField(name: string): CustomFieldDefinition | undefined {
    return this.data.fieldTypes ? customFieldDefinition(this.data, name) : undefined;
  }

  /** A custom field's value, checked by the field's type; a bad value is refused naming the field, the value and what was expected. */
  private setCustomField(scope: ItemScope, def: CustomFieldDefinition, value: unknown): void {
    const name = def.systemName;
    const check = checkCustomValue(def, value);
    if (!check.ok) return this.badValue(scope, name, check.expected, value);
    const item = this.ws.get(scope.id)!;
    if (check.asSent) this.sent.record(scope.id, `custom:${name}`, check.stored ?? null);
    if (!sameCustomValue(ownValue(item.customFields, name), check.stored)) this.ws.mut(scope.id).customFields = withCustomValue(item, name, check.stored);
  }

  /**
   * Error 29 for a name the service does not know (field names are case-sensitive:
   * rule 3); for an old name (StartDate, EndDate, WorkCategoryId) it names the official one.
   */
  private unknownField(itemId: string, name: string): void {
    const custom = (this.data.fieldTypes ?? []).filter((f) => !f.isDeleted).map((f) => f.systemName);
    this.fail('FIELD_UNKNOWN_NAME', { field: name, hint: unknownFieldHint(name, custom) }, { itemId, field: name, rule: 29 });
  }

  /** Error 29 for a name that is not a catalogue field: read-only system field or unknown. */
  private notAField(itemId: string, name: string): void {
    if (readOnlySystemField(name)) this.readOnlyField(itemId, name);
    else this.unknownField(itemId, name);
  }

  /** Error 29 for a read-only system field of the help, naming the member that changes it where the help names one. */
  private readOnlyField(itemId: string, name: string): void {
    if (readOnlySystemField(name)?.member === undefined && fieldInfo(name)) {
      this.fail('FIELD_NOT_EDITABLE', { field: name }, { itemId, field: name, rule: 29 });
      return;
    }
    this.fail('FIELD_NOT_EDITABLE_HERE', { field: name, reason: readOnlyReason(name) }, { itemId, field: name, rule: 29 });
  }

  private badValue(scope: ItemScope, field: string, expected: string, value: unknown): void {
    this.fail('FIELD_VALUE_INVALID', { field, expected, actual: showValue(value) }, { itemId: scope.id, field });
  }

  private setField(scope: ItemScope, info: FieldInfo, value: unknown): void {
    const id = scope.id;
    const item = this.ws.get(id)!;
    const name = info.name;
    const where = { itemId: id, field: name };
    // asSent: `v` is the stored form of the value sent (not answered when the item keeps it).
    const set = <K extends keyof WorkItem>(prop: K, v: WorkItem[K], asSent = true) => {
      if (asSent) this.sent.record(id, prop, v);
      if (!sameValue(this.ws.get(id)![prop], v)) this.ws.mut(id)[prop] = v;
    };
    switch (name) {
      case 'Name': {
        if (value !== null && typeof value !== 'string') return this.badValue(scope, name, 'a string', value);
        const text = value ?? '';
        if (text.trim().length === 0) return this.fail('NAME_EMPTY', {}, { ...where, rule: 1 });
        if (text.length > NAME_MAX_LENGTH) return this.fail('NAME_TOO_LONG', { length: text.length, max: NAME_MAX_LENGTH }, { ...where, rule: 2 });
        return set('name', text);
      }
      case 'Code': {
        if (value !== null && typeof value !== 'string') return this.badValue(scope, name, 'a string', value);
        const text = value ?? '';
        if (text.length > CODE_MAX_LENGTH) return this.fail('CODE_TOO_LONG', { length: text.length, max: CODE_MAX_LENGTH }, { ...where, rule: 3 });
        return set('code', text);
      }
      case 'Description': {
        if (value !== null && typeof value !== 'string') return this.badValue(scope, name, 'a string', value);
        return set('description', value ?? '');
      }
      case 'ActualProgress': {
        if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 100) {
          return this.badValue(scope, name, 'a number from 0 to 100', value);
        }
        if (!item.tracksProgress) {
          return this.fail('FIELD_NOT_EDITABLE_HERE', { field: name, reason: 'the work item does not track progress' }, { ...where, rule: 29 });
        }
        return set('actualProgress', value);
      }
      case 'PlannedTime': {
        if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) return this.badValue(scope, name, 'a whole number of at least 0', value);
        return set('plannedTime', value);
      }
      case 'PlannedCost': {
        if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return this.badValue(scope, name, 'a number of at least 0', value);
        return set('plannedCost', value);
      }
      case 'Assignments': {
        const list = this.parseAssignmentList(scope, value);
        if (!list) return;
        // Stored as sent only when every entry gave partyId, partyType and plannedTime (else the server filled some in).
        set('assignments', list, assignmentsComplete(value));
        return set('managedPlannedTime', sumPlanned(list), false);
      }
      case 'LeaderId': {
        if (value === null || value === NONE_ID) return set('leaderId', null);
        if (typeof value !== 'string' || value === '') return this.badValue(scope, name, 'a user ID, or "0" or null for none', value);
        if (!this.users.user(value)) return this.fail('USER_NOT_FOUND', { user: value }, { ...where, rule: 4 });
        if (!this.isMember(scope.project, value)) return this.fail('LEADER_NOT_MEMBER', { user: value, projectId: scope.project.id }, { ...where, rule: 14 });
        return set('leaderId', value);
      }
      case 'PlannedStartDate':
      case 'PlannedFinishDate': {
        const prop = name === 'PlannedStartDate' ? 'plannedStartDate' : 'plannedFinishDate';
        scope.datesTouched = true;
        if (value === null) return set(prop, null);
        const date = typeof value === 'string' ? parseDate(value) : undefined;
        if (date === undefined) return this.badValue(scope, name, 'a date written yyyy-MM-dd, or null', value);
        return set(prop, date);
      }
      case 'StatusTypeId':
      case 'ProcessCategoryId':
      case 'TimeEntryCategoryId': {
        const prop = FIELD_PROPERTY[name] as 'statusTypeId' | 'processCategoryId' | 'timeEntryCategoryId';
        if (value === null) return set(prop, null);
        // "0" means none (help section 3: ProcessCategoryId/TimeEntryCategoryId default 0, unset); every item
        // has a status (its default is the profile's initial status), so StatusTypeId "0" is not an available status.
        if (value === NONE_ID && name !== 'StatusTypeId') return set(prop, null);
        if (typeof value !== 'string' || value === '') {
          return this.badValue(scope, name, name === 'StatusTypeId' ? 'an ID or null' : 'an ID, or "0" or null for none', value);
        }
        const available =
          name === 'StatusTypeId'
            ? this.statusTypes.get(value)?.available === true
            : name === 'TimeEntryCategoryId'
              ? this.workClassifications.get(value)?.available === true
              : this.processClassifications.has(value)
                ? this.processClassifications.get(value)!.available
                : this.liveProcessCategories.has(value);
        if (!available) {
          const code = name === 'StatusTypeId' ? 'STATUS_TYPE_NOT_AVAILABLE' : name === 'TimeEntryCategoryId' ? 'WORK_CATEGORY_NOT_AVAILABLE' : 'PROCESS_CATEGORY_NOT_AVAILABLE';
          return this.fail(code, { value }, where);
        }
        return set(prop, value);
      }
      default:
        return this.fail('FIELD_NOT_EDITABLE', { field: name }, { ...where, rule: 29 });
    }
  }

  // ---------------------------------------------------------------- assignments

  /** Checks that a party may be assigned in the item's project (errors 4 and 15). */
  private checkParty(scope: ItemScope, partyId: string, partyType: 'User' | 'UserGroup', field: string): boolean {
    const where = { itemId: scope.id, field };
    if (partyType === 'User') {
      if (!this.users.user(partyId)) {
        this.fail('USER_NOT_FOUND', { user: partyId }, { ...where, rule: 4 });
        return false;
      }
      if (!this.isMember(scope.project, partyId)) {
        this.fail('ASSIGNEE_NOT_MEMBER', { partyType, partyId, projectId: scope.project.id }, { ...where, rule: 15 });
        return false;
      }
      return true;
    }
    if (!this.users.groups.has(partyId)) {
      this.fail('USER_GROUP_NOT_FOUND', { group: partyId }, { ...where, rule: 4 });
      return false;
    }
    if (!scope.project.userGroupIds.includes(partyId)) {
      this.fail('ASSIGNEE_NOT_MEMBER', { partyType, partyId, projectId: scope.project.id }, { ...where, rule: 15 });
      return false;
    }
    return true;
  }

  private inferPartyType(partyId: string): 'User' | 'UserGroup' {
    return !this.users.user(partyId) && this.users.groups.has(partyId) ? 'UserGroup' : 'User';
  }

  /** A user named by login name, LDAP login name, e-mail or name (error 4 when none or several). */
  private userByName(scope: ItemScope, text: string, field: string): string | undefined {
    const found = this.users.match(text);
    if (found.length === 1) return found[0]!.id;
    if (found.length === 0) this.fail('USER_NOT_FOUND', { user: text }, { itemId: scope.id, field, rule: 4 });
    else this.fail('USER_AMBIGUOUS', { user: text, matches: found.map((u) => u.id).join(', ') }, { itemId: scope.id, field, rule: 4 });
    return undefined;
  }

  /** `user` of an added or updated assignment: `#<party ID>`, or a user's name. */
  private partyOfUserText(scope: ItemScope, text: string, field: string): string | undefined {
    if (text.startsWith('#')) return text.slice(1);
    return this.userByName(scope, text, field);
  }

  /** The `Assignments` field: a list of `{partyId, partyType?, plannedTime?}` (member names in any casing). */
  private parseAssignmentList(scope: ItemScope, value: unknown): StoredAssignment[] | undefined {
    const field = 'Assignments';
    const expected = 'a list of {"partyId", "partyType"?, "plannedTime"?}';
    if (!Array.isArray(value)) return this.badValue(scope, field, expected, value), undefined;
    const out: StoredAssignment[] = [];
    let ok = true;
    value.forEach((entry: unknown) => {
      if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
        ok = false;
        return this.badValue(scope, field, expected, entry);
      }
      const norm: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(entry)) norm[k.toLowerCase()] = v;
      const extra = Object.keys(norm).filter((k) => !['partyid', 'partytype', 'plannedtime'].includes(k));
      const { partyid, partytype, plannedtime } = norm;
      if (
        extra.length > 0 ||
        typeof partyid !== 'string' ||
        partyid === '' ||
        (partytype !== undefined && partytype !== 'User' && partytype !== 'UserGroup') ||
        (plannedtime !== undefined && (typeof plannedtime !== 'number' || !Number.isInteger(plannedtime) || plannedtime < 0))
      ) {
        ok = false;
        return this.badValue(scope, field, expected, entry);
      }
      const type = (partytype as 'User' | 'UserGroup' | undefined) ?? this.inferPartyType(partyid);
      if (!this.checkParty(scope, partyid, type, field)) {
        ok = false;
        return;
      }
      const existing = out.find((a) => a.partyId === partyid);
      if (existing) existing.plannedTime = (plannedtime as number | undefined) ?? existing.plannedTime;
      else out.push({ partyId: partyid, partyType: type, plannedTime: (plannedtime as number | undefined) ?? 0 });
    });
    return ok ? out : undefined;
  }

  private copyAssignments(scope: ItemScope): void {
    const fromId = this.body.copyAssignmentsFrom;
    if (fromId === undefined) return;
    const source = this.referencedItem(scope, fromId, 'copyAssignmentsFrom', { missing: 23, otherProject: 22 });
    if (!source || source.id === scope.id) return;
    const list = source.assignments.map((a) => ({ ...a }));
    const item = this.ws.get(scope.id)!;
    if (!sameValue(item.assignments, list)) {
      const w = this.ws.mut(scope.id);
      w.assignments = list;
      w.managedPlannedTime = sumPlanned(list);
    }
  }

  private assignmentChange(scope: ItemScope): void {
    const change = this.body.assignmentChange;
    if (!change) return;
    const id = scope.id;
    const before = this.errors.length;
    let list = this.ws.get(id)!.assignments.map((a) => ({ ...a }));
    const base = 'assignmentChange';

    for (const partyId of splitCommaList(change.removes ?? '')) {
      if (!this.users.user(partyId) && !this.users.groups.has(partyId)) {
        this.fail('USER_NOT_FOUND', { user: partyId }, { itemId: id, field: `${base}.removes`, rule: 4 });
        continue;
      }
      list = list.filter((a) => a.partyId !== partyId);
    }
    (change.removeUsers ?? []).forEach((text, i) => {
      const userId = this.userByName(scope, text, `${base}.removeUsers[${i}]`);
      if (userId !== undefined) list = list.filter((a) => a.partyId !== userId);
    });
    (change.updates ?? []).forEach((u, i) => {
      const field = `${base}.updates[${i}]`;
      // Named by "user" (then "partyId" is the new party) or, as in the help's example, by "partyId" alone.
      const byUser = u.user !== undefined && u.user !== '';
      if (!byUser && (u.partyId === undefined || u.partyId === '')) {
        this.badValue(scope, field, 'an assignment named by "partyId" (e.g. {"partyId": "23", "plannedTime": 120}) or by "user"', u);
        return;
      }
      const partyId = byUser ? this.partyOfUserText(scope, u.user!, `${field}.user`) : u.partyId;
      if (partyId === undefined) return;
      const entry = list.find((a) => a.partyId === partyId);
      if (!entry) {
        if (!byUser && !this.users.user(partyId) && !this.users.groups.has(partyId)) {
          this.fail('USER_NOT_FOUND', { user: partyId }, { itemId: id, field: `${field}.partyId`, rule: 4 });
        } else {
          this.fail('ASSIGNMENT_NOT_FOUND', { partyId }, { itemId: id, field });
        }
        return;
      }
      if (u.plannedTime !== undefined && u.plannedTime < 0) {
        this.badValue(scope, `${field}.plannedTime`, 'a whole number of at least 0', u.plannedTime);
        return;
      }
      if (u.partyId !== undefined && u.partyId !== entry.partyId) {
        const type = this.inferPartyType(u.partyId);
        if (!this.checkParty(scope, u.partyId, type, `${field}.partyId`)) return;
        list = list.filter((a) => a === entry || a.partyId !== u.partyId);
        entry.partyId = u.partyId;
        entry.partyType = type;
      }
      if (u.plannedTime !== undefined) entry.plannedTime = u.plannedTime;
    });
    (change.adds ?? []).forEach((a, i) => {
      const field = `${base}.adds[${i}]`;
      let fromUser: string | undefined;
      if (a.user !== undefined) {
        fromUser = this.partyOfUserText(scope, a.user, `${field}.user`);
        if (fromUser === undefined) return;
      }
      if (fromUser !== undefined && a.partyId !== undefined && fromUser !== a.partyId) {
        this.fail('ASSIGNMENT_PARTY_CONFLICT', { index: i, user: a.user!, partyId: a.partyId }, { itemId: id, field });
        return;
      }
      const partyId = a.partyId ?? fromUser;
      if (partyId === undefined || partyId === '') {
        this.fail('ASSIGNMENT_PARTY_MISSING', { index: i }, { itemId: id, field });
        return;
      }
      if (a.plannedTime !== undefined && a.plannedTime < 0) {
        this.badValue(scope, `${field}.plannedTime`, 'a whole number of at least 0', a.plannedTime);
        return;
      }
      const namedUser = a.user !== undefined && !a.user.startsWith('#');
      const type = a.partyType ?? (namedUser ? 'User' : this.inferPartyType(partyId));
      if (!this.checkParty(scope, partyId, type, field)) return;
      const existing = list.find((x) => x.partyId === partyId);
      if (existing) {
        if (a.plannedTime !== undefined) existing.plannedTime = a.plannedTime;
      } else {
        list.push({ partyId, partyType: type, plannedTime: a.plannedTime ?? 0 });
      }
    });
    if (this.errors.length > before) return;

    const item = this.ws.get(id)!;
    let plannedTime = item.plannedTime;
    if (change.recalculatePlannedTimeByAssignment === true) {
      plannedTime = sumPlanned(list);
    } else if (change.recalculatePlannedTimeByAssignment === false && list.length > 0) {
      const each = Math.floor(item.plannedTime / list.length);
      const remainder = item.plannedTime - each * list.length;
      list.forEach((a, i) => (a.plannedTime = each + (i === 0 ? remainder : 0)));
    }
    if (!sameValue(item.assignments, list)) this.ws.mut(id).assignments = list;
    if (item.plannedTime !== plannedTime) this.ws.mut(id).plannedTime = plannedTime;
    const managed = sumPlanned(list);
    if (item.managedPlannedTime !== managed) this.ws.mut(id).managedPlannedTime = managed;
  }

  // ---------------------------------------------------------------- calculation types

  private calcTypes(scope: ItemScope): void {
    const b = this.body;
    if (b.clearAllFieldCalcTypes !== true && b.clearFieldCalcTypes === undefined && b.fieldCalcTypes === undefined) return;
    const id = scope.id;
    const next = { ...this.ws.get(id)!.fieldCalcTypes };
    const before = this.errors.length;
    if (b.clearAllFieldCalcTypes === true) {
      for (const k of Object.keys(next)) {
        if (fieldInfo(k)?.cost && !scope.canCost) continue;
        delete next[k];
      }
    }
    for (const name of splitCommaList(b.clearFieldCalcTypes ?? '')) {
      const info = fieldInfo(name);
      if (!info && this.customField(name)) continue; // a custom field has no calculation type to clear
      if (!info) {
        this.notAField(id, name);
        continue;
      }
      if (info.cost && !scope.canCost) continue;
      delete next[name];
    }
    for (const [name, value] of Object.entries(b.fieldCalcTypes ?? {})) {
      const info = fieldInfo(name);
      const where = { itemId: id, field: name };
      if (!info && this.customField(name)) {
        this.fail('CALC_TYPE_NOT_ALLOWED', { field: name, value, allowed: 'none' }, { ...where, rule: 16 });
        continue;
      }
      if (!info) {
        this.notAField(id, name);
        continue;
      }
      if (info.cost && !scope.canCost) continue; // rule 2
      if (this.ctx.edition === 'standard' && !STANDARD_EDITION_CALC_TYPE_FIELDS.includes(name)) {
        this.fail('STANDARD_EDITION_CALC_TYPE', { field: name }, where);
        continue;
      }
      if (value === FORMULA_CALC_TYPE) {
        this.fail('CALC_TYPE_FORMULA', { field: name }, { ...where, rule: 16 });
        continue;
      }
      if (!info.calcTypes?.includes(value)) {
        this.fail('CALC_TYPE_NOT_ALLOWED', { field: name, value, allowed: info.calcTypes?.join(', ') ?? 'none' }, { ...where, rule: 16 });
        continue;
      }
      next[name] = value;
    }
    if (this.errors.length > before) return;
    if (!sameValue(this.ws.get(id)!.fieldCalcTypes, next)) this.ws.mut(id).fieldCalcTypes = next;
  }

  // ---------------------------------------------------------------- state transitions

  private setCompleted(scope: ItemScope): void {
    const done = this.body.setCompleted;
    if (done === undefined) return;
    const item = this.ws.get(scope.id)!;
    if (!item.tracksProgress) return; // the transition applies to items that track progress
    const progress = done ? 100 : 0;
    for (const target of [item, ...this.ws.descendants(scope.id)]) {
      if (target.tracksProgress && target.actualProgress !== progress) this.ws.mut(target.id).actualProgress = progress;
    }
  }

  private setTimeEntryLocked(scope: ItemScope): void {
    const locked = this.body.setTimeEntryLocked;
    if (locked === undefined) return;
    const item = this.ws.get(scope.id)!;
    for (const target of [item, ...this.ws.descendants(scope.id)]) {
      if (target.timeEntryLocked !== locked) this.ws.mut(target.id).timeEntryLocked = locked;
    }
  }

  private propagate(scope: ItemScope): void {
    const p = this.body.propagateToChildren;
    if (!p) return;
    const id = scope.id;
    const props: (keyof WorkItem)[] = [];
    const custom: string[] = [];
    for (const name of splitCommaList(p.fields)) {
      const info = fieldInfo(name);
      const where = { itemId: id, field: name };
      if (!info && this.customField(name)) {
        custom.push(name);
        continue;
      }
      if (!info) {
        this.notAField(id, name);
        continue;
      }
      if (!info.propagatable || !FIELD_PROPERTY[name]) {
        this.fail('FIELD_NOT_EDITABLE_HERE', { field: name, reason: 'it cannot be copied to sub-items (propagateToChildren)' }, { ...where, rule: 29 });
        continue;
      }
      if (info.cost && !scope.canCost) continue; // rule 2
      props.push(FIELD_PROPERTY[name]!);
    }
    if (props.length === 0 && custom.length === 0) return;
    const source = this.ws.get(id)!;
    for (const leaf of this.ws.leaves(id)) {
      for (const prop of props) {
        if (!sameValue(leaf[prop], source[prop])) (this.ws.mut(leaf.id) as Record<string, unknown>)[prop] = source[prop];
      }
      for (const name of custom) {
        const value = ownValue(source.customFields, name);
        const now = this.ws.get(leaf.id)!;
        if (!sameCustomValue(ownValue(now.customFields, name), value)) this.ws.mut(leaf.id).customFields = withCustomValue(now, name, value);
      }
    }
  }

  // ---------------------------------------------------------------- restore

  private restore(scope: ItemScope): void {
    const id = scope.id;
    if (this.restored.has(id)) return; // restored earlier in this request with its ancestor
    const item = this.ws.get(id)!;
    if (!item.isDeleted) {
      this.fail('NOT_DELETED', { id }, { itemId: id, field: 'restore' });
      return;
    }
    const before = this.errors.length;
    const destId = this.body.restoreToParent !== undefined ? this.body.restoreToParent : item.parentId;
    const member = this.body.restoreToParent !== undefined ? 'restoreToParent' : 'restore';
    if (destId !== null) {
      const dest = this.ws.get(destId);
      const where = { itemId: id, field: member };
      if (!dest) {
        this.fail('RESTORE_DESTINATION_NOT_FOUND', { parentId: destId }, where);
      } else if (dest.isDeleted) {
        this.fail('RESTORE_DESTINATION_DELETED', { parentId: destId }, { ...where, rule: 25 });
      } else if (dest.projectId !== item.projectId) {
        this.fail('RESTORE_DESTINATION_OTHER_PROJECT', { parentId: destId, refProjectId: dest.projectId, projectId: item.projectId }, { ...where, rule: 26 });
      } else if (this.ws.isSelfOrDescendant(destId, id)) {
        this.fail('MOVE_INTO_OWN_SUBTREE', { refId: destId, member }, where);
      } else {
        if (this.isFolder(item) && !this.isFolder(dest)) {
          this.fail('RESTORE_FOLDER_UNDER_NON_FOLDER', { parentId: destId }, { ...where, rule: 24 });
        }
        this.checkDepth(scope, destId, member, 27, true);
      }
    }
    const subtree = [item, ...this.ws.descendants(id, true).filter((d) => d.isDeleted)];
    for (const target of subtree) {
      const type = this.itemTypes.get(target.itemTypeId);
      if (!type || !type.available) {
        this.fail('RESTORE_ITEM_TYPE_NOT_PERMITTED', { value: target.itemTypeId }, { itemId: target.id, field: 'restore', rule: 28 });
      } else if (this.ctx.edition === 'standard' && type.professionalOnly) {
        this.fail('STANDARD_EDITION_RESTORE', { value: target.itemTypeId }, { itemId: target.id, field: 'restore', rule: 28 });
      }
    }
    if (this.errors.length > before) return;
    if (destId !== item.parentId) this.place(id, destId, undefined);
    for (const target of subtree) {
      this.ws.mut(target.id).isDeleted = false;
      this.restored.add(target.id);
    }
  }

  // ---------------------------------------------------------------- response

  /**
   * `{id, ...}` with the answered fields of a changed item (undefined: the item did not change): each
   * changed property, except, for a requested item, one sent in `fields` and stored
   * as sent (help U2: only values that differ from the values sent).
   */
  private diff(id: string, canCost: boolean, requested: boolean): (Record<string, unknown> & { id: string }) | undefined {
    const before = this.ws.original(id)!;
    const after = this.ws.get(id)!;
    const out: Record<string, unknown> & { id: string } = { id };
    let changed = false;
    for (const prop of REPORTED_PROPERTIES) {
      if (sameValue(before[prop], after[prop])) continue;
      changed = true;
      if (prop === 'plannedCost' && !canCost) continue; // cost values are not shown without cost permission
      if (requested && this.sent.storedAsSent(id, prop, after[prop], sameValue)) continue;
      out[answerMember(prop)] =
        prop === 'assignments'
          ? after.assignments.map((a) => ({ partyId: a.partyId, plannedTime: a.plannedTime, partyType: a.partyType }))
          : prop === 'fieldCalcTypes'
            ? { ...after.fieldCalcTypes }
            : answerValue(prop, after[prop]);
    }
    for (const name of changedCustomFields(before.customFields ?? {}, after.customFields ?? {})) {
      changed = true;
      const value = ownValue(after.customFields, name) ?? null;
      if (requested && this.sent.storedAsSent(id, `custom:${name}`, value, sameCustomValue)) continue;
      const def = this.customField(name);
      out[answerMemberName(name)] = def ? customFieldReadValue(def, value) : value;
    }
    return changed ? out : undefined;
  }

  private readonly costByProject = new Map<string, boolean>();

  private canCostFor(item: WorkItem): boolean {
    let can = this.costByProject.get(item.projectId);
    if (can === undefined) {
      const member = this.projects.get(item.projectId)?.members.find((m) => m.userId === this.ctx.callerId);
      can = member?.costPermission === true;
      this.costByProject.set(item.projectId, can);
    }
    return can;
  }

  /** Stamps changed items and builds the response (before commit; reads the working copies). */
  buildResponse(requested: string[]): UpdateWorkItemsResponse {
    const stamp = updateStamp(this.ctx.now);
    const caller = this.ctx.callerId;
    const requestedSet = new Set(requested);
    const items: WorkItemResult[] = [];
    for (const id of requested) {
      const item = this.ws.get(id)!;
      const diff = this.diff(id, this.canCostFor(item), true);
      if (!diff && !this.silentlyChanged.has(id)) {
        items.push(answerItem({ id }));
        continue;
      }
      const w = this.ws.mut(id);
      w.updatedAt = stamp;
      w.updatedBy = caller;
      w.userUpdatedAt = stamp;
      w.userUpdatedBy = caller;
      items.push(answerItem(diff ?? { id }, { at: stamp, by: caller }));
    }
    const affectedItems: WorkItemResult[] = [];
    for (const id of this.ws.changedIds()) {
      if (requestedSet.has(id)) continue;
      const diff = this.diff(id, this.canCostFor(this.ws.get(id)!), false);
      if (!diff) continue; // only its position among siblings changed
      const w = this.ws.mut(id);
      w.updatedAt = stamp;
      w.updatedBy = caller;
      // The diff is this item's own new object: the answer's members are added to it (no copy).
      affectedItems.push(answerItem(diff, { at: stamp, by: caller }));
    }
    return { items, affectedItems, addedTimeEntryIds: [], addedScheduleDependencyIds: [] };
  }
}

function failure(status: number, errors: SandboxErrorEntry[]): UpdateOutcome {
  return { ok: false, status, errors };
}

/**
 * Applies an update to the items `ids` of `data` (operation 1). Atomic: `data`
 * is changed only when the outcome is ok. Duplicate IDs are processed once.
 */
export function applyUpdate(data: Dataset, ids: string[], body: unknown, ctx: UpdateContext): UpdateOutcome {
  // 1. The body's shape (member names in any casing; unknown members and wrong types are 400).
  const parsed = parseUpdateBody(body);
  if (!parsed.ok) {
    return failure(
      400,
      parsed.problems.map((p) => {
        const template = p.code === 'BODY_NOT_OBJECT' ? SANDBOX_ERROR_CODES.BODY_NOT_OBJECT.message : ERROR_CODES[p.code].message;
        const entry: SandboxErrorEntry = { message: fillTemplate(template, p.params), code: p.code, params: p.params };
        if (p.member !== undefined) entry.field = p.member;
        return entry;
      }),
    );
  }

  // 2. The IDs: distinct, at most 1000, every one existing.
  const unique = [...new Set(ids.map((id) => id.trim()))];
  const run = new UpdateRun(data, parsed.body, ctx);
  if (unique.length === 0 || unique.some((id) => id === '')) {
    run.fail('IDS_INVALID', { problem: unique.length === 0 ? 'no ID is given' : 'an ID is empty' });
    return failure(400, strip(run.errors));
  }
  if (unique.length > MAX_ITEMS_PER_UPDATE) {
    run.fail('TOO_MANY_ITEMS', { count: unique.length, max: MAX_ITEMS_PER_UPDATE });
    return failure(400, strip(run.errors));
  }
  for (const id of unique) if (!run.ws.get(id)) run.fail('WORK_ITEM_NOT_FOUND', { id }, { itemId: id });
  if (run.errors.length > 0) return failure(404, strip(run.errors));

  // 3. Request-level rules, then each item in a deterministic order (request order;
  //    for restore, ancestors before descendants so a restored folder can take its children).
  //    The working set writes into the stored items: anything but a commit, an error
  //    found or an exception, puts their values back.
  try {
    run.checkRequest();
    const order = parsed.body.restore === true ? [...unique].sort((a, b) => run.ws.level(a) - run.ws.level(b)) : unique;
    for (const id of order) run.processItem(id);
    if (run.errors.length > 0) return failure(run.status(), strip(run.errors));

    // 4. Commit.
    const response = run.buildResponse(unique);
    const undoItems = run.ws.commit();
    const links = data.scheduleLinks;
    if (run.removedLinkIds.size > 0) data.scheduleLinks = data.scheduleLinks.filter((l) => !run.removedLinkIds.has(l.id));
    const undo = () => {
      undoItems();
      data.scheduleLinks = links;
    };
    return { ok: true, response, undo };
  } finally {
    run.ws.rollback(); // no-op after a commit
  }
}

function strip(errors: (SandboxErrorEntry & { status: number })[]): SandboxErrorEntry[] {
  return errors.map(({ status: _status, ...rest }) => rest);
}
