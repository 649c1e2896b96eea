// Adding work items: POST /workitem/workItems/{workItemId}/subItems as the official help
// describes it (official-reference.md section 7, A1, A2): `fields` with ItemTypeId and
// Name, `fieldCalcTypes`, nested `subItems`, `assignments`, `metadata` and the order
// members; the answer's `items` hold the added items' fields. The whole tree is added in
// one run of the update engine, so it is all or nothing, and each new item goes through
// the update's own steps for its fields, calculation types and assignments (the same
// rules: types of values, read-only fields, members only, available statuses and
// categories). Duplicates (duplicate.ts) add their copies through the same entries.
// Choices where the help is silent: choices.ts. No vscode import.
import { AddWorkItemRequest } from '../../schema/additions';
import { WorkItem as StoredWorkItem, type Dataset, type WorkItem } from '../model';
import { bodyErrors, strip, type UpdateContext } from '../update';
import { addAssignments } from '../update/assignments';
import { ADD_LEVEL, keysOf, parseBody, type Level } from '../update/body';
import { calcTypes, fields } from '../update/fields';
import { place } from '../update/hierarchy';
import { indexesOf } from '../update/indexes';
import { readOnlySystemField } from '../update/official-fields';
import { addedItemAnswer } from '../update/response';
import { sumPlanned, UpdateRun, type ItemScope, type OrderSpec } from '../update/run';
import { updateStamp } from '../update/answer';
import { initialStatusTypeId, MAX_ITEMS_PER_ADD, METADATA_LIMITS } from './choices';
import { checkLevels, destination, failure, type ChangeOutcome, type Place } from './common';

/** The answer of an add: the added items' fields, the item of the path's child first, then its sub-items depth first. */
export interface AddAnswer {
  items: Record<string, unknown>[];
}

const ASSIGNMENT_LEVEL: Level = { where: 'an assignment of an added work item (assignments)', members: ADD_LEVEL.members };
const ITEM_LEVEL: Level = { where: 'an added work item', members: keysOf(AddWorkItemRequest), nested: {} };
ITEM_LEVEL.nested!['subItems'] = { kind: 'array', level: ITEM_LEVEL };
ITEM_LEVEL.nested!['assignments'] = { kind: 'array', level: ASSIGNMENT_LEVEL };

/** An add body read as the service binds it (member names in any casing; a missing `fields` is MEMBER_REQUIRED). */
export function parseAddBody(body: unknown) {
  return parseBody(body, ITEM_LEVEL, AddWorkItemRequest, { required: true });
}

/** One item to create, with where it is in the request (for errors). */
export interface Entry {
  request: AddWorkItemRequest;
  /** How errors name it, e.g. `New item subItems[0]`. */
  label: string;
  /** Put before the `field` of its errors, e.g. `subItems[0].`. */
  fieldPrefix: string;
  /** Copies only: the item it copies (the copy tracks progress when the original does). */
  copyOf?: WorkItem;
  /** The entries below it (default: its request's `subItems`, named by their path). */
  children?: readonly Entry[];
}

/** Items of a request tree, itself included. */
export function countItems(r: AddWorkItemRequest): number {
  let n = 1;
  for (const s of r.subItems ?? []) n += countItems(s);
  return n;
}

/** Levels of a request tree (1 for an item without sub-items). */
export function heightOf(r: AddWorkItemRequest): number {
  let h = 0;
  for (const s of r.subItems ?? []) h = Math.max(h, heightOf(s));
  return h + 1;
}

const has = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** The order member of an entry (false orderFirst/orderLast count as not given); several: error 20. */
function orderOf(run: UpdateRun, r: AddWorkItemRequest, scope: ItemScope): OrderSpec | false {
  const specs: NonNullable<OrderSpec>[] = [];
  if (r.orderAfter !== undefined) specs.push({ member: 'orderAfter', ref: r.orderAfter });
  if (r.orderBefore !== undefined) specs.push({ member: 'orderBefore', ref: r.orderBefore });
  if (r.orderFirst === true) specs.push({ member: 'orderFirst' });
  if (r.orderLast === true) specs.push({ member: 'orderLast' });
  if (specs.length > 1) {
    run.fail('ORDER_MULTIPLE', { member: specs[0]!.member, other: specs[1]!.member }, { itemId: scope.id, field: specs[1]!.member, rule: 20 });
    return false;
  }
  const spec = specs[0];
  if (spec?.ref !== undefined && spec.ref !== '0') {
    const ref = run.referencedItem(scope, spec.ref, spec.member, { missing: 23, otherProject: 22 });
    const parentId = run.ws.get(scope.id)!.parentId!;
    if (!ref) return false;
    if (ref.parentId !== parentId || ref.id === scope.id) {
      run.fail('ORDER_REFERENCE_NOT_SIBLING', { refId: ref.id, member: spec.member, parentId }, { itemId: scope.id, field: spec.member });
      return false;
    }
  }
  return spec;
}

/** Checks `metadata`: at most METADATA_LIMITS.entries, names of 1 to nameLength characters, values of at most valueLength. */
function checkMetadata(run: UpdateRun, scope: ItemScope, metadata: Record<string, string> | undefined): boolean {
  if (metadata === undefined) return true;
  const before = run.errors.length;
  const where = { itemId: scope.id };
  const names = Object.keys(metadata);
  if (names.length > METADATA_LIMITS.entries)
    run.fail('METADATA_TOO_MANY', { count: names.length, max: METADATA_LIMITS.entries }, { ...where, field: 'metadata' });
  for (const key of names) {
    if (key.length === 0 || key.length > METADATA_LIMITS.nameLength)
      run.fail('METADATA_KEY_INVALID', { key, max: METADATA_LIMITS.nameLength }, { ...where, field: 'metadata' });
    const value = metadata[key]!;
    if (value.length > METADATA_LIMITS.valueLength)
      run.fail('METADATA_VALUE_TOO_LONG', { key, length: value.length, max: METADATA_LIMITS.valueLength }, { ...where, field: `metadata.${key}` });
  }
  return run.errors.length === before;
}

/** The item type of an entry (`fields.ItemTypeId`): required, available, not the root folders' type, usable in the edition (error 11). */
function itemTypeOf(run: UpdateRun, r: AddWorkItemRequest, itemId: string): string | undefined {
  const value = has(r.fields, 'ItemTypeId') ? r.fields['ItemTypeId'] : undefined;
  const where = { itemId, field: 'ItemTypeId' };
  if (value === undefined) {
    run.fail('MEMBER_REQUIRED', { member: 'fields.ItemTypeId', where: 'an added work item' }, where);
    return undefined;
  }
  if (typeof value !== 'string' || value === '') {
    run.fail('FIELD_VALUE_INVALID', { field: 'ItemTypeId', expected: 'an item type ID of the project', actual: JSON.stringify(value) ?? String(value) }, where);
    return undefined;
  }
  const type = run.itemTypes.get(value);
  // The type of the projects' root folders is not one an item can be added with.
  if (!type || !type.available || type.systemName === 'WorkItemRoot') {
    run.fail('ITEM_TYPE_NOT_AVAILABLE', { value }, { ...where, rule: 11 });
    return undefined;
  }
  if (run.ctx.edition === 'standard' && type.professionalOnly) {
    run.fail('STANDARD_EDITION_ITEM_TYPE', { value }, where);
    return undefined;
  }
  return value;
}

/**
 * Creates the entry's item below `parentId` (its position from its order member, or from
 * `together`: the position the previous copy of the same request took), then its fields,
 * calculation types and assignments with the update's steps, then its sub-items. The IDs
 * created go to `out`, depth first; errors go to the run.
 */
function createEntry(run: UpdateRun, dest: Place, parentId: string, entry: Entry, spec: OrderSpec | 'own', together: boolean, out: string[]): void {
  const r = entry.request;
  const id = indexesOf(run.data).newWorkItemId();
  run.newItems.set(id, { label: entry.label, fieldPrefix: entry.fieldPrefix });
  const typeId = itemTypeOf(run, r, id);
  if (typeId === undefined) return;
  const parent = run.ws.get(parentId)!;
  const stamp = updateStamp(run.ctx.now);
  const caller = run.ctx.callerId;
  const item: WorkItem = StoredWorkItem.parse({
    id,
    projectId: parent.projectId,
    parentId,
    order: 0,
    itemTypeId: typeId,
    name: '',
    statusTypeId: initialStatusTypeId(run.data),
    tracksProgress: entry.copyOf?.tracksProgress ?? true,
    createdAt: stamp,
    updatedAt: stamp,
    updatedBy: caller,
    userUpdatedAt: stamp,
    userUpdatedBy: caller,
  });
  run.ws.add(item);
  const scope: ItemScope = { id, project: dest.project, member: dest.member, canCost: dest.member.costPermission, datesTouched: false };
  const before = run.errors.length;
  if (run.itemTypes.get(typeId)!.isFolder && !run.isFolder(parent)) {
    run.fail('FOLDER_UNDER_NON_FOLDER', { parentId }, { itemId: id, field: 'ItemTypeId', rule: 18 });
  }
  const order = spec === 'own' ? orderOf(run, r, scope) : spec;
  if (order !== false) {
    if (!together) run.lastInserted.delete(parentId);
    place(run, id, parentId, order);
  }
  // A sandbox that drops metadata takes the member and does nothing with it.
  if (run.ctx.keepMetadata !== false && checkMetadata(run, scope, r.metadata) && r.metadata !== undefined) run.ws.mut(id).metadata = { ...r.metadata };

  // Fields through the update's step (ItemTypeId is taken above; the other read-only system fields are error 29).
  const given: Record<string, unknown> = {};
  for (const name of Object.keys(r.fields)) {
    if (name === 'ItemTypeId') continue;
    if (readOnlySystemField(name)) run.fail('FIELD_NOT_EDITABLE', { field: name }, { itemId: id, field: name, rule: 29 });
    else Object.defineProperty(given, name, { value: r.fields[name], enumerable: true, writable: true, configurable: true });
  }
  if (!has(r.fields, 'Name')) run.fail('MEMBER_REQUIRED', { member: 'fields.Name', where: 'an added work item' }, { itemId: id, field: 'Name' });
  run.body = { fields: given, fieldCalcTypes: r.fieldCalcTypes };
  fields(run, scope);
  calcTypes(run, scope);
  if (r.assignments !== undefined && r.assignments.length > 0) {
    const list = run.ws.get(id)!.assignments.map((a) => ({ ...a }));
    const errors = run.errors.length;
    addAssignments(run, scope, list, r.assignments, (i) => `assignments[${i}]`);
    if (run.errors.length === errors) run.ws.mut(id).assignments = list;
  }
  // Without fields.PlannedTime the planned time is the assignments' sum.
  const now = run.ws.get(id)!;
  const sum = sumPlanned(now.assignments);
  if (now.managedPlannedTime !== sum) run.ws.mut(id).managedPlannedTime = sum;
  if (!has(r.fields, 'PlannedTime') && now.plannedTime !== sum) run.ws.mut(id).plannedTime = sum;
  if (now.plannedStartDate !== null && now.plannedFinishDate !== null && now.plannedFinishDate < now.plannedStartDate) {
    run.fail('END_BEFORE_START', { start: now.plannedStartDate, end: now.plannedFinishDate }, { itemId: id, field: 'PlannedFinishDate', rule: 5 });
  }
  if (run.errors.length > before) return; // the sub-items of an item that cannot be added are not checked
  out.push(id);
  const children =
    entry.children ??
    (r.subItems ?? []).map((sub, i): Entry => ({
      request: sub,
      label: `New item ${entry.fieldPrefix}subItems[${i}]`,
      fieldPrefix: `${entry.fieldPrefix}subItems[${i}].`,
    }));
  for (const child of children) createEntry(run, dest, id, child, 'own', false, out);
}

/**
 * Adds the entries below `parentId` in one run: every check of every entry, then the items
 * (none of them when anything is wrong: undefined, the errors in the run). `spec` places
 * the top entries (each by its own order member with 'own'; a duplicate's order member
 * keeps its copies together, in order). `height`: levels of the tallest entry.
 */
export function addEntries(run: UpdateRun, parentId: string, entries: readonly Entry[], height: number, spec: OrderSpec | 'own'): string[] | undefined {
  const dest = destination(run, parentId);
  if (!dest || !checkLevels(run, parentId, height)) return undefined;
  const created: string[] = [];
  for (const entry of entries) createEntry(run, dest, parentId, entry, spec, spec !== 'own', created);
  return run.errors.length > 0 ? undefined : created;
}

/**
 * Applies an add below the item `parentId` of `data` (POST .../subItems). Atomic: `data`
 * changes only when the outcome is ok; `undo` takes it back.
 */
export function applyAdd(data: Dataset, parentId: string, body: unknown, ctx: UpdateContext): ChangeOutcome<AddAnswer> {
  const parsed = parseAddBody(body);
  if (!parsed.ok) return failure(400, bodyErrors(parsed.problems));
  const request = parsed.body as AddWorkItemRequest;
  const run = new UpdateRun(data, {}, ctx);
  try {
    const count = countItems(request);
    if (count > MAX_ITEMS_PER_ADD) {
      run.fail('TOO_MANY_ITEMS_TO_ADD', { count, max: MAX_ITEMS_PER_ADD });
      return failure(400, strip(run.errors));
    }
    const added = addEntries(run, parentId, [{ request, label: 'New item', fieldPrefix: '' }], heightOf(request), 'own');
    if (!added) return failure(run.status(), strip(run.errors));
    const items = added.map((id) => addedItemAnswer(run, id));
    return { ok: true, response: { items }, undo: run.ws.commit() };
  } finally {
    run.ws.rollback(); // no-op after a commit
  }
}
