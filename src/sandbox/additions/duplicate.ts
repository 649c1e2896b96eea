// Duplicating work items: POST /workitem/workItems/{workItemId}/subItems/duplicate as the
// official help describes it (official-reference.md section 7, A3): `fromProjectId`,
// `fromItemIds` (comma-separated), `fieldsToCopy`, `duplicateAllChildren`,
// `clearCheckItemStatus` and the order members; the answer's `items` (the copies) and
// `affectedItems`; an error when the copies would go below level 16 or be too many. Each
// copy is an added item (add.ts) whose fields are the original's, so the rules of an add
// hold for it (item types, folder placement, members only in the destination's project).
// Choices where the help is silent: choices.ts. No vscode import.
import { DuplicateSubItemsBody, type AddWorkItemRequest } from '../../schema/additions';
import { ORDER_MEMBERS } from '../../schema/api';
import { fieldInfo, splitCommaList } from '../../schema/fields';
import { liveCustomFields } from '../catalogue';
import type { Dataset, WorkItem } from '../model';
import { bodyErrors, strip, type UpdateContext } from '../update';
import { keysOf, parseBody, type Level } from '../update/body';
import { FIELD_PROPERTY } from '../update/fields';
import { unknownFieldHint } from '../update/official-fields';
import { addedItemAnswer } from '../update/response';
import { ownValue, UpdateRun, type OrderSpec } from '../update/run';
import { addEntries, type Entry } from './add';
import { COPYABLE_FIELDS, DEFAULT_COPIED_FIELDS, MAX_ITEMS_PER_ADD } from './choices';
import { failure, type ChangeOutcome } from './common';

/** The answer of a duplicate: the copies (each original's copy, then the copies of what lies below it) and `affectedItems` (none: nothing else changes). */
export interface DuplicateAnswer {
  items: Record<string, unknown>[];
  affectedItems: Record<string, unknown>[];
}

const DUPLICATE_LEVEL: Level = { where: 'the duplicate body', members: keysOf(DuplicateSubItemsBody) };

/** The fields a copy takes (system names and custom fields), from `fieldsToCopy` or the default; errors for names it cannot take. */
function fieldsToCopy(run: UpdateRun, text: string | undefined): string[] {
  const custom = liveCustomFields(run.data).map((f) => f.systemName);
  if (text === undefined) return [...DEFAULT_COPIED_FIELDS, ...custom];
  const out: string[] = [];
  for (const name of splitCommaList(text)) {
    if (name === 'Name' || name === 'ItemTypeId' || out.includes(name)) continue; // always copied
    const where = { field: 'fieldsToCopy', rule: 29 };
    if (COPYABLE_FIELDS.includes(name) || custom.includes(name)) out.push(name);
    else if (fieldInfo(name) || FIELD_PROPERTY[name] !== undefined || name === 'Id') {
      run.fail('FIELD_NOT_COPYABLE', { field: name, allowed: [...COPYABLE_FIELDS, ...custom].join(', ') }, where);
    } else run.fail('FIELD_UNKNOWN_NAME', { field: name, hint: unknownFieldHint(name, custom) }, where);
  }
  return out;
}

/** An original's value of a field as an add's `fields` takes it. */
function wireValue(item: WorkItem, name: string): unknown {
  if (name === 'Assignments') return item.assignments.map((a) => ({ partyId: a.partyId, partyType: a.partyType, plannedTime: a.plannedTime }));
  const prop = FIELD_PROPERTY[name];
  if (prop !== undefined) return item[prop] ?? null;
  return ownValue(item.customFields, name) ?? null;
}

/** The add request of one copy: Name, ItemTypeId and the copied fields, with their calculation types. */
function copyRequest(item: WorkItem, names: readonly string[]): AddWorkItemRequest {
  const fields: Record<string, unknown> = { ItemTypeId: item.itemTypeId, Name: item.name };
  for (const name of names) Object.defineProperty(fields, name, { value: wireValue(item, name), enumerable: true, writable: true, configurable: true });
  const calc: Record<string, string> = {};
  for (const [field, type] of Object.entries(item.fieldCalcTypes)) if (names.includes(field)) calc[field] = type;
  return Object.keys(calc).length > 0 ? { fields, fieldCalcTypes: calc } : { fields };
}

/** The order member of the body (several: error 20); a sibling it names must be a live child of the destination. */
function orderOf(run: UpdateRun, b: DuplicateSubItemsBody, parentId: string): OrderSpec | false {
  const given = ORDER_MEMBERS.filter((m) => (m === 'orderFirst' || m === 'orderLast' ? b[m] === true : b[m] !== undefined));
  if (given.length > 1) {
    run.fail('ORDER_MULTIPLE', { member: given[0]!, other: given[1]! }, { field: given[1]!, rule: 20 });
    return false;
  }
  const member = given[0];
  if (member === undefined) return undefined;
  if (member === 'orderFirst' || member === 'orderLast') return { member };
  const ref = b[member]!;
  if (ref !== '0') {
    const sibling = run.ws.get(ref);
    if (!sibling || sibling.isDeleted) {
      run.fail('REFERENCED_ITEM_NOT_FOUND', { refId: ref, member }, { field: member, rule: 23 });
      return false;
    }
    if (sibling.parentId !== parentId) {
      run.fail('ORDER_REFERENCE_NOT_SIBLING', { refId: ref, member, parentId }, { field: member });
      return false;
    }
  }
  return { member, ref };
}

/**
 * Applies a duplicate below the item `parentId` of `data`. Atomic: `data` changes only when
 * the outcome is ok; `undo` takes it back.
 */
export function applyDuplicate(data: Dataset, parentId: string, body: unknown, ctx: UpdateContext): ChangeOutcome<DuplicateAnswer> {
  const parsed = parseBody(body, DUPLICATE_LEVEL, DuplicateSubItemsBody, { required: true });
  if (!parsed.ok) return failure(400, bodyErrors(parsed.problems));
  const b = parsed.body;
  const run = new UpdateRun(data, {}, ctx);
  try {
    const target = run.ws.get(parentId);
    if (!target) {
      run.fail('WORK_ITEM_NOT_FOUND', { id: parentId }, { itemId: parentId });
      return failure(404, strip(run.errors));
    }
    const fromProject = b.fromProjectId ?? target.projectId;
    if (!run.projects.has(fromProject)) run.fail('SOURCE_PROJECT_NOT_FOUND', { projectId: fromProject }, { field: 'fromProjectId' });
    const ids = [...new Set(splitCommaList(b.fromItemIds))];
    if (ids.length === 0) run.fail('DUPLICATE_NO_SOURCE', {}, { field: 'fromItemIds' });
    const sources: WorkItem[] = [];
    for (const id of ids) {
      const item = run.ws.get(id);
      if (!item || item.isDeleted) run.fail('REFERENCED_ITEM_NOT_FOUND', { refId: id, member: 'fromItemIds' }, { field: 'fromItemIds', rule: 23 });
      else if (item.projectId !== fromProject) {
        run.fail(
          'OTHER_PROJECT',
          { refId: id, member: 'fromItemIds', refProjectId: item.projectId, projectId: fromProject },
          { field: 'fromItemIds', rule: 22 },
        );
      } else if (item.parentId === null)
        run.fail('ROOT_FOLDER_FIXED', { id, projectId: item.projectId, member: 'fromItemIds' }, { itemId: id, field: 'fromItemIds' });
      else sources.push(item);
    }
    const names = fieldsToCopy(run, b.fieldsToCopy);
    const spec = orderOf(run, b, parentId);
    if (run.errors.length > 0 || spec === false) return failure(run.status(), strip(run.errors));

    // The copies as entries, read before any is made (a copy below its own original copies the original as it was).
    const all = b.duplicateAllChildren === true;
    const count = sources.reduce((n, s) => n + 1 + (all ? run.ws.descendants(s.id).length : 0), 0);
    if (count > MAX_ITEMS_PER_ADD) {
      run.fail('TOO_MANY_ITEMS_TO_ADD', { count, max: MAX_ITEMS_PER_ADD });
      return failure(400, strip(run.errors));
    }
    const height = sources.reduce((h, s) => Math.max(h, all ? run.ws.height(s.id) : 1), 0);
    const entryOf = (item: WorkItem): Entry => ({
      request: copyRequest(item, names),
      label: `Copy of work item ${item.id}`,
      fieldPrefix: '',
      copyOf: item,
      children: all ? run.ws.sortedChildren(item.id, item.projectId).map(entryOf) : [],
    });
    const entries = sources.map(entryOf);
    // clearCheckItemStatus: the sandbox's items have no check items, so there is nothing to clear.
    const created = addEntries(run, parentId, entries, height, spec);
    if (!created) return failure(run.status(), strip(run.errors));
    const items = created.map((id) => addedItemAnswer(run, id));
    return { ok: true, response: { items, affectedItems: [] }, undo: run.ws.commit() };
  } finally {
    run.ws.rollback(); // no-op after a commit
  }
}
