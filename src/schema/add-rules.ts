// Checks of a request that adds work items (`"add"` of a request document) before it is
// sent: the item to add below (`parentId`) and the body of
// POST /workitem/workItems/{parentId}/subItems as the official help describes it
// (official-reference.md section 7: `fields` with ItemTypeId and Name, `fieldCalcTypes`,
// nested `subItems`, `assignments`, `metadata`, one order member). The fields of each new
// item go through the update's own field checks (names, read-only fields, types, ranges,
// the service's catalogue), so an add is checked as strictly as an update, on the exact
// JSON path of each member. No vscode import.
import { AddWorkItemRequest } from './additions';
import { MAX_ITEMS_PER_UPDATE } from './fields';
import { type DocumentIssue, type JsonPath, describeValue, hasErrors, makeIssue } from './issues';
import { lookalikeProblem, isPlainObject } from './document-ids';
import { isPlaceholderText } from './placeholders';
import { ADD_NODE, checkCalcTypes, checkFields, Renames, translateZodIssue, workItemIdProblem, type Emit, type MemberTree, type UpdateCheckOptions } from './rules';

/** Items one add request creates at most, its sub-items counted: the service's limit of one request (as for an update). */
export const MAX_ITEMS_PER_ADD = MAX_ITEMS_PER_UPDATE;

/** What an add request of a document holds once checked: where the items go, and the body of the one POST. */
export interface AddSpec {
  /** The item the new item is added directly below (a folder or a work item). */
  parentId: string;
  /** The body of POST /workitem/workItems/{parentId}/subItems: the new item with its sub-items. */
  item: AddWorkItemRequest;
}

/** The members of an added item (for "did you mean"), its sub-items being items too. */
const ITEM_ARRAYS: Record<string, MemberTree> = { assignments: ADD_NODE };
const ADD_ITEM_MEMBERS: MemberTree = { keys: Object.keys(AddWorkItemRequest.shape), objects: {}, arrays: ITEM_ARRAYS };
ITEM_ARRAYS.subItems = ADD_ITEM_MEMBERS;

const ORDER = ['orderAfter', 'orderBefore', 'orderFirst', 'orderLast'] as const;

/** Fields of a new item that name an entry of the project's profile by its ID (IDs are decimal strings). */
const BY_ID_FIELDS = ['ItemTypeId', 'StatusTypeId'] as const;

/** Items of an add body, itself included. */
export function countAddedItems(item: AddWorkItemRequest): number {
  let n = 1;
  for (const s of item.subItems ?? []) n += countAddedItems(s);
  return n;
}

/** Every item of an add body, depth first, the top one first. */
export function addedItemsOf(item: AddWorkItemRequest): AddWorkItemRequest[] {
  return [item, ...(item.subItems ?? []).flatMap(addedItemsOf)];
}

/**
 * Reads the `add` member of a request at `path`: `parentId` (a string or a whole number),
 * and the rest as the body of the POST. Issues are added to `issues`; the spec is returned
 * when it could be read (with errors among the issues it is still not sent).
 */
export function readAdd(raw: unknown, path: JsonPath, issues: DocumentIssue[], options: UpdateCheckOptions = {}): AddSpec | undefined {
  if (!isPlainObject(raw)) {
    issues.push(makeIssue('WRONG_TYPE', path, { member: 'add', expected: 'an object with "parentId" and "fields"', actual: describeValue(raw) }));
    return undefined;
  }
  const { parentId: rawParent, ...item } = raw;
  let parentId: string | undefined;
  if (rawParent === undefined) issues.push(makeIssue('ADD_PARENT_MISSING', path, {}));
  else if (typeof rawParent === 'number' && Number.isSafeInteger(rawParent)) parentId = String(rawParent);
  else if (typeof rawParent === 'string') parentId = rawParent.trim();
  else issues.push(makeIssue('WRONG_TYPE', [...path, 'parentId'], { member: 'parentId', expected: 'a work item ID (a string or a whole number)', actual: describeValue(rawParent) }));
  if (parentId !== undefined) {
    const problem = workItemIdProblem(parentId) ?? lookalikeProblem(parentId);
    if (problem) {
      issues.push(makeIssue(problem.code, [...path, 'parentId'], problem.params));
      parentId = undefined;
    }
  }
  const checked = checkAddItem(item, path, options);
  issues.push(...checked.issues);
  const count = checked.item ? countAddedItems(checked.item) : 0;
  if (count > MAX_ITEMS_PER_ADD) issues.push(makeIssue('ADD_TOO_MANY_ITEMS', path, { count, max: MAX_ITEMS_PER_ADD }));
  if (parentId === undefined || !checked.item) return undefined;
  return { parentId, item: checked.item };
}

/**
 * Checks one item to add (and, nested, its sub-items): the body's shape with the strict
 * model of the help, `fields` with ItemTypeId and Name, the update's field and calculation
 * type checks, one order member at most. Issue paths are under `path`.
 */
export function checkAddItem(raw: unknown, path: JsonPath, options: UpdateCheckOptions = {}): { item?: AddWorkItemRequest; issues: DocumentIssue[] } {
  const issues: DocumentIssue[] = [];
  if (!isPlainObject(raw)) {
    issues.push(makeIssue('WRONG_TYPE', path, { member: 'a new item', expected: 'an object with "fields"', actual: describeValue(raw) }));
    return { issues };
  }
  const parsed = AddWorkItemRequest.safeParse(raw);
  if (!parsed.success) {
    const renames = new Renames();
    for (const zi of parsed.error.issues) {
      // A missing `fields` (here or in a sub-item) is said once, by the rule below.
      if (zi.code === 'invalid_type' && zi.path.at(-1) === 'fields' && valueAt(raw, zi.path) === undefined) continue;
      for (const i of translateZodIssue(zi, raw, renames, ADD_ITEM_MEMBERS)) issues.push({ ...i, path: [...path, ...i.path] });
    }
  }
  checkItemRules(raw, path, issues, options);
  const ok = parsed.success && !hasErrors(issues);
  return ok ? { item: parsed.data, issues } : { issues };
}

/** The value at a zod issue's path in `root` (undefined when a step is missing). */
function valueAt(root: unknown, at: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const seg of at) v = v !== null && typeof v === 'object' && (typeof seg === 'string' || typeof seg === 'number') ? (v as Record<string | number, unknown>)[seg] : undefined;
  return v;
}

/** The rules of one new item and its sub-items (the shapes are the model's). */
function checkItemRules(item: Record<string, unknown>, path: JsonPath, issues: DocumentIssue[], options: UpdateCheckOptions): void {
  const emit: Emit = (code, p, params = {}, extra = {}) => issues.push(makeIssue(code, [...path, ...p], params, extra));
  const fields = item.fields;
  if (fields === undefined) emit('ADD_FIELDS_MISSING', []);
  else if (isPlainObject(fields)) {
    const type = fields.ItemTypeId;
    if (type === undefined) emit('ADD_ITEM_TYPE_MISSING', ['fields']);
    else if (typeof type !== 'string' || type.trim() === '') emit('FIELD_VALUE_TYPE', ['fields', 'ItemTypeId'], { field: 'ItemTypeId', expected: 'an item type ID (a string)', actual: describeValue(type) });
    if (fields.Name === undefined) emit('ADD_NAME_MISSING', ['fields']);
    // Written by name (as the profile shows it) rather than by ID: the service would refuse it.
    for (const field of BY_ID_FIELDS) {
      const v = fields[field];
      if (typeof v === 'string' && v.trim() !== '' && !/^\s*\d+\s*$/.test(v) && !isPlaceholderText(v)) emit('ADD_ID_BY_NAME', ['fields', field], { field, value: v.trim() });
    }
    // ItemTypeId is set once, when the item is made: the update's checks know it as read only.
    const { ItemTypeId: _set, ...rest } = fields;
    checkFields({ fields: rest }, emit, options.catalogue ? { catalogue: options.catalogue } : {});
  }
  checkCalcTypes(item, emit, options.catalogue ? { catalogue: options.catalogue } : {});
  // In the order written (as for an update): the later one is the one to remove.
  const given = Object.keys(item).filter((m): m is (typeof ORDER)[number] => (ORDER as readonly string[]).includes(m) && (m === 'orderFirst' || m === 'orderLast' ? item[m] === true : item[m] !== undefined));
  for (const extra of given.slice(1)) emit('ORDER_MULTIPLE', [extra], { member: extra, other: given[0]! });
  if (Array.isArray(item.subItems)) {
    item.subItems.forEach((s, i) => {
      if (isPlainObject(s)) checkItemRules(s, [...path, 'subItems', i], issues, options);
    });
  }
}
