// The state of one update request while it runs (src/sandbox/update/index.ts): the
// body and caller, the working set the request writes through, the data set's
// lookups, the errors found so far, and what the steps tell each other (items moved
// or restored, links removed, values sent). The steps of each item are in
// checks.ts, hierarchy.ts, schedule.ts, fields.ts and assignments.ts; the answer in
// response.ts. No vscode import.
import type { UpdateWorkItemsBody } from '../../schema/api';
import { ERROR_CODES, fillTemplate } from '../../schema/error-codes';
import { SANDBOX_ERROR_CODES, SANDBOX_SHARED_CLIENT_CODES, type SandboxErrorCode } from '../../schema/sandbox-error-codes';
import { customFieldDefinition } from '../catalogue';
import type { Classification, CustomFieldDefinition, Dataset, Edition, ItemType, Project, ProjectMember, SandboxUser, StoredAssignment, UserGroup, WorkItem } from '../model';
import { showValue } from '../values';
import { SentValues } from './answer';
import { indexesOf, type DatasetIndexes } from './indexes';
import { WorkingSet } from './working-set';

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
  /** False: `metadata` of an add is accepted and dropped (not checked, kept or shown), as by a service that does not know it. */
  keepMetadata?: boolean;
}

export type AnyCode = SandboxErrorCode | keyof typeof SANDBOX_SHARED_CLIENT_CODES;

/** An own member of a record (never one of its prototype), or undefined. */
export function ownValue(record: Record<string, unknown> | undefined, key: string): unknown {
  return record !== undefined && Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

/** "0" means none for an ID (official help section 3). */
export const NONE_ID = '0';

export function sameValue(a: unknown, b: unknown): boolean {
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

export function sumPlanned(list: readonly StoredAssignment[]): number {
  return list.reduce((s, a) => s + a.plannedTime, 0);
}

export type OrderSpec = { member: 'orderBefore' | 'orderAfter' | 'orderFirst' | 'orderLast'; ref?: string } | undefined;

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

export interface ItemScope {
  id: string;
  project: Project;
  member: ProjectMember;
  canCost: boolean;
  /** Dates set through fields or shifted: check error 5 at the end. */
  datesTouched: boolean;
}

export class UpdateRun {
  readonly errors: (SandboxErrorEntry & { status: number })[] = [];
  readonly ws: WorkingSet;
  readonly users: UserDirectory;
  readonly projects: Map<string, Project>;
  readonly itemTypes: Map<string, ItemType>;
  readonly statusTypes: Map<string, Classification>;
  readonly processClassifications: Map<string, Classification>;
  readonly workClassifications: Map<string, Classification>;
  readonly liveProcessCategories: Set<string>;
  /** Requested items whose stored state changed in ways the response does not show (position, links). */
  readonly silentlyChanged = new Set<string>();
  readonly removedLinkIds = new Set<string>();
  readonly indexes: DatasetIndexes;
  /** Per destination parent: the item this request inserted last (keeps a request's items together, in order). */
  readonly lastInserted = new Map<string, string>();
  /** Items restored in this request (also as descendants of a restored item). */
  readonly restored = new Set<string>();
  /** The values sent in `fields`, as stored: not answered when the item keeps them. */
  readonly sent = new SentValues();
  /** Per project: whether the caller has cost permission (answers show cost values only with it). */
  readonly costByProject = new Map<string, boolean>();

  /**
   * Items an add or duplicate creates in this run: errors about one are named by where
   * it is in the request (its ID is not the caller's yet), with that path before `field`.
   */
  readonly newItems = new Map<string, { label: string; fieldPrefix: string }>();

  constructor(
    readonly data: Dataset,
    /** The members the steps read; an add sets the members of each new item in turn. */
    public body: UpdateWorkItemsBody,
    readonly ctx: UpdateContext,
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
    const created = where.itemId === undefined ? undefined : this.newItems.get(where.itemId);
    const subject = created ? `${created.label}: ` : where.itemId !== undefined ? `Work item ${where.itemId}: ` : '';
    const message = `${subject}${text}${rule !== undefined ? ` (error ${rule})` : ''}`;
    const entry: SandboxErrorEntry & { status: number } = { message, code, status };
    if (rule !== undefined) entry.rule = rule;
    if (where.itemId !== undefined && !created) entry.itemId = where.itemId;
    if (where.field !== undefined) entry.field = `${created?.fieldPrefix ?? ''}${where.field}`;
    entry.params = params;
    this.errors.push(entry);
  }

  status(): number {
    return this.errors.reduce((s, e) => Math.max(s, e.status), 400);
  }

  // ---------------------------------------------------------------- helpers

  isFolder(item: WorkItem): boolean {
    return this.itemTypes.get(item.itemTypeId)?.isFolder === true;
  }

  isMember(project: Project, userId: string): boolean {
    return project.members.some((m) => m.userId === userId);
  }

  links(itemId: string): string[] {
    return (this.indexes.linksByItem().get(itemId) ?? []).filter((id) => !this.removedLinkIds.has(id));
  }

  /** The order member in effect (false values of orderFirst/orderLast do nothing and count as absent). */
  orderSpecs(): NonNullable<OrderSpec>[] {
    const b = this.body;
    const specs: NonNullable<OrderSpec>[] = [];
    if (b.orderAfter !== undefined) specs.push({ member: 'orderAfter', ref: b.orderAfter });
    if (b.orderBefore !== undefined) specs.push({ member: 'orderBefore', ref: b.orderBefore });
    if (b.orderFirst === true) specs.push({ member: 'orderFirst' });
    if (b.orderLast === true) specs.push({ member: 'orderLast' });
    return specs;
  }

  // ---------------------------------------------------------------- shared checks

  /** The live custom field of this exact system name in the data set. */
  customField(name: string): CustomFieldDefinition | undefined {
    return this.data.fieldTypes ? customFieldDefinition(this.data, name) : undefined;
  }

  /** Error FIELD_VALUE_INVALID: the value of a field or member is not what it takes. */
  badValue(scope: ItemScope, field: string, expected: string, value: unknown): void {
    this.fail('FIELD_VALUE_INVALID', { field, expected, actual: showValue(value) }, { itemId: scope.id, field });
  }

  /** Checks an item named by moveParentTo / an order member (errors 22, 23). */
  referencedItem(scope: ItemScope, refId: string, member: string, rules: { missing: number; otherProject: number }): WorkItem | undefined {
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
}
