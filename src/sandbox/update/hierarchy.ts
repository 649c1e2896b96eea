// The hierarchy steps of an update: moveParentTo with its order member (errors 17-23),
// the position among siblings, changeItemTypeTo (errors 11-13), setCompleted and
// setTimeEntryLocked down the subtree, propagateToChildren to the leaves, and restore
// (errors 24-28, with the deleted descendants that went with the item). No vscode import.
import { MAX_HIERARCHY_DEPTH, fieldInfo, splitCommaList } from '../../schema/fields';
import type { WorkItem } from '../model';
import { sameCustomValue, withCustomValue } from './custom-fields';
import { FIELD_PROPERTY, notAField } from './fields';
import { ownValue, sameValue, type ItemScope, type OrderSpec, type UpdateRun } from './run';

/** moveParentTo with its order member (errors 17-23); the item keeps its place when it is already there and no position is asked for. */
export function move(run: UpdateRun, scope: ItemScope): void {
  const destId = run.body.moveParentTo;
  if (destId === undefined) return;
  const id = scope.id;
  const item = run.ws.get(id)!;
  if (item.parentId === null) {
    run.fail('ROOT_FOLDER_FIXED', { id, projectId: item.projectId, member: 'moveParentTo' }, { itemId: id, field: 'moveParentTo' });
    return;
  }
  const before = run.errors.length;
  const dest = run.referencedItem(scope, destId, 'moveParentTo', { missing: 23, otherProject: 22 });
  if (dest) {
    if (run.ws.isSelfOrDescendant(destId, id)) {
      run.fail('MOVE_INTO_OWN_SUBTREE', { refId: destId, member: 'moveParentTo' }, { itemId: id, field: 'moveParentTo' });
    } else {
      if (dest.actualTime > 0 || dest.actualCost > 0) {
        run.fail('PARENT_HAS_ACTUALS', { parentId: destId }, { itemId: id, field: 'moveParentTo', rule: 17 });
      }
      if (run.isFolder(item) && !run.isFolder(dest)) {
        run.fail('FOLDER_UNDER_NON_FOLDER', { parentId: destId }, { itemId: id, field: 'moveParentTo', rule: 18 });
      }
      checkDepth(run, scope, destId, 'moveParentTo', 19, false);
    }
  }
  const specs = run.orderSpecs();
  const spec = specs.length === 1 ? specs[0] : undefined;
  if (spec?.ref !== undefined && spec.ref !== '0') {
    const ref = run.referencedItem(scope, spec.ref, spec.member, { missing: 23, otherProject: 22 });
    if (ref && ref.id === id) {
      run.fail('MOVE_INTO_OWN_SUBTREE', { refId: ref.id, member: spec.member }, { itemId: id, field: spec.member });
    } else if (ref && dest && ref.parentId !== destId) {
      run.fail('ORDER_REFERENCE_NOT_SIBLING', { refId: ref.id, member: spec.member, parentId: destId }, { itemId: id, field: spec.member });
    }
  }
  if (run.errors.length > before || specs.length > 1 || !dest) return;
  if (item.parentId === destId && !spec) return; // already there, no position asked for
  place(run, id, destId, spec);
}

/** Errors 19/27: the destination is on the deepest level, or the moved subtree would not fit. */
function checkDepth(run: UpdateRun, scope: ItemScope, parentId: string, member: string, rule: 19 | 27, includeDeleted: boolean): void {
  const parentLevel = run.ws.level(parentId);
  if (parentLevel >= MAX_HIERARCHY_DEPTH) {
    run.fail(rule === 19 ? 'PARENT_AT_MAX_DEPTH' : 'RESTORE_DESTINATION_AT_MAX_DEPTH', { parentId, max: MAX_HIERARCHY_DEPTH }, { itemId: scope.id, field: member, rule });
    return;
  }
  const height = run.ws.height(scope.id, includeDeleted);
  if (parentLevel + height > MAX_HIERARCHY_DEPTH) {
    run.fail(
      'HIERARCHY_TOO_DEEP',
      { parentId, parentLevel, height, level: parentLevel + height, max: MAX_HIERARCHY_DEPTH },
      { itemId: scope.id, field: member, rule },
    );
  }
}

/** Puts the item under `parentId` at the position the order member asks for (default: the end). */
export function place(run: UpdateRun, id: string, parentId: string | null, spec: OrderSpec): void {
  const item = run.ws.get(id)!;
  const siblings = run.ws.sortedChildren(parentId, item.projectId).filter((s) => s.id !== id);
  const key = parentId ?? `root:${item.projectId}`;
  let index: number;
  const previous = run.lastInserted.get(key);
  const prevIndex = previous === undefined ? -1 : siblings.findIndex((s) => s.id === previous);
  if (prevIndex >= 0 && spec) index = prevIndex + 1;
  else if (!spec || spec.member === 'orderLast') index = siblings.length;
  else if (spec.member === 'orderFirst') index = 0;
  else if (spec.member === 'orderBefore') index = spec.ref === '0' ? siblings.length : siblings.findIndex((s) => s.id === spec.ref);
  else index = spec.ref === '0' ? 0 : siblings.findIndex((s) => s.id === spec.ref) + 1;
  if (index < 0) index = siblings.length;

  run.ws.setParent(id, parentId);
  run.ws.mut(id).order = orderBetween(run, siblings, index);
  run.lastInserted.set(key, id);
  run.silentlyChanged.add(id);
}

/** An order value between siblings[index-1] and siblings[index]; renumbers the siblings when no gap is left. */
function orderBetween(run: UpdateRun, siblings: WorkItem[], index: number): number {
  const prev = siblings[index - 1];
  const next = siblings[index];
  if (prev && next) {
    const mid = (prev.order + next.order) / 2;
    if (prev.order < mid && mid < next.order) return mid;
    siblings.forEach((s, i) => {
      const target = i < index ? i + 1 : i + 2;
      if (s.order !== target) run.ws.mut(s.id).order = target;
    });
    return index + 1;
  }
  if (next) return next.order - 1;
  if (prev) return prev.order + 1;
  return 1;
}

/** changeItemTypeTo (errors 11, 12, 13; the root folder keeps its type). */
export function changeItemType(run: UpdateRun, scope: ItemScope): void {
  const typeId = run.body.changeItemTypeTo;
  if (typeId === undefined) return;
  const id = scope.id;
  const type = run.itemTypes.get(typeId);
  const where = { itemId: id, field: 'changeItemTypeTo' };
  if (run.ws.get(id)!.parentId === null) {
    run.fail('ROOT_FOLDER_FIXED', { id, projectId: scope.project.id, member: 'changeItemTypeTo' }, where);
    return;
  }
  if (!type || !type.available) {
    run.fail('ITEM_TYPE_NOT_AVAILABLE', { value: typeId }, { ...where, rule: 11 });
    return;
  }
  if (run.ctx.edition === 'standard' && type.professionalOnly) {
    run.fail('STANDARD_EDITION_ITEM_TYPE', { value: typeId }, where);
    return;
  }
  const item = run.ws.get(id)!;
  if (type.isFolder) {
    const parent = item.parentId === null ? undefined : run.ws.get(item.parentId);
    if (parent && !run.isFolder(parent)) {
      run.fail('FOLDER_TYPE_UNDER_NON_FOLDER', { value: typeId, parentId: parent.id }, { ...where, rule: 12 });
      return;
    }
  } else {
    const folderChild = run.ws.childrenOf(id).find((c) => run.isFolder(c));
    if (folderChild) {
      run.fail('NON_FOLDER_TYPE_WITH_FOLDER_CHILD', { value: typeId, childId: folderChild.id }, { ...where, rule: 13 });
      return;
    }
  }
  if (item.itemTypeId !== typeId) run.ws.mut(id).itemTypeId = typeId;
}

/** setCompleted: progress 100 or 0 on the item and its descendants that track progress. */
export function setCompleted(run: UpdateRun, scope: ItemScope): void {
  const done = run.body.setCompleted;
  if (done === undefined) return;
  const item = run.ws.get(scope.id)!;
  if (!item.tracksProgress) return; // the transition applies to items that track progress
  const progress = done ? 100 : 0;
  for (const target of [item, ...run.ws.descendants(scope.id)]) {
    if (target.tracksProgress && target.actualProgress !== progress) run.ws.mut(target.id).actualProgress = progress;
  }
}

/** setTimeEntryLocked on the item and its descendants. */
export function setTimeEntryLocked(run: UpdateRun, scope: ItemScope): void {
  const locked = run.body.setTimeEntryLocked;
  if (locked === undefined) return;
  const item = run.ws.get(scope.id)!;
  for (const target of [item, ...run.ws.descendants(scope.id)]) {
    if (target.timeEntryLocked !== locked) run.ws.mut(target.id).timeEntryLocked = locked;
  }
}

/** propagateToChildren: the item's values of the named fields copied to its leaves. */
export function propagate(run: UpdateRun, scope: ItemScope): void {
  const p = run.body.propagateToChildren;
  if (!p) return;
  const id = scope.id;
  const props: (keyof WorkItem)[] = [];
  const custom: string[] = [];
  for (const name of splitCommaList(p.fields)) {
    const info = fieldInfo(name);
    const where = { itemId: id, field: name };
    if (!info && run.customField(name)) {
      custom.push(name);
      continue;
    }
    if (!info) {
      notAField(run, id, name);
      continue;
    }
    if (!info.propagatable || !FIELD_PROPERTY[name]) {
      run.fail('FIELD_NOT_EDITABLE_HERE', { field: name, reason: 'it cannot be copied to sub-items (propagateToChildren)' }, { ...where, rule: 29 });
      continue;
    }
    if (info.cost && !scope.canCost) continue; // rule 2
    props.push(FIELD_PROPERTY[name]!);
  }
  if (props.length === 0 && custom.length === 0) return;
  const source = run.ws.get(id)!;
  for (const leaf of run.ws.leaves(id)) {
    for (const prop of props) {
      if (!sameValue(leaf[prop], source[prop])) (run.ws.mut(leaf.id) as Record<string, unknown>)[prop] = source[prop];
    }
    for (const name of custom) {
      const value = ownValue(source.customFields, name);
      const now = run.ws.get(leaf.id)!;
      if (!sameCustomValue(ownValue(now.customFields, name), value)) run.ws.mut(leaf.id).customFields = withCustomValue(now, name, value);
    }
  }
}

/** restore: the item and its deleted descendants, under their parent or restoreToParent (errors 24-28). */
export function restore(run: UpdateRun, scope: ItemScope): void {
  const id = scope.id;
  if (run.restored.has(id)) return; // restored earlier in this request with its ancestor
  const item = run.ws.get(id)!;
  if (!item.isDeleted) {
    run.fail('NOT_DELETED', { id }, { itemId: id, field: 'restore' });
    return;
  }
  const before = run.errors.length;
  const destId = run.body.restoreToParent !== undefined ? run.body.restoreToParent : item.parentId;
  const member = run.body.restoreToParent !== undefined ? 'restoreToParent' : 'restore';
  if (destId !== null) {
    const dest = run.ws.get(destId);
    const where = { itemId: id, field: member };
    if (!dest) {
      run.fail('RESTORE_DESTINATION_NOT_FOUND', { parentId: destId }, where);
    } else if (dest.isDeleted) {
      run.fail('RESTORE_DESTINATION_DELETED', { parentId: destId }, { ...where, rule: 25 });
    } else if (dest.projectId !== item.projectId) {
      run.fail('RESTORE_DESTINATION_OTHER_PROJECT', { parentId: destId, refProjectId: dest.projectId, projectId: item.projectId }, { ...where, rule: 26 });
    } else if (run.ws.isSelfOrDescendant(destId, id)) {
      run.fail('MOVE_INTO_OWN_SUBTREE', { refId: destId, member }, where);
    } else {
      if (run.isFolder(item) && !run.isFolder(dest)) {
        run.fail('RESTORE_FOLDER_UNDER_NON_FOLDER', { parentId: destId }, { ...where, rule: 24 });
      }
      checkDepth(run, scope, destId, member, 27, true);
    }
  }
  // The descendants deleted with it (by the same DELETE, or marked by no DELETE at all),
  // not those deleted on their own before: the subtree comes back as it was.
  const deletion = item.deletedWith;
  const subtree = [item, ...run.ws.descendants(id, true).filter((d) => d.isDeleted && (d.deletedWith === undefined || d.deletedWith === deletion))];
  for (const target of subtree) {
    const type = run.itemTypes.get(target.itemTypeId);
    if (!type || !type.available) {
      run.fail('RESTORE_ITEM_TYPE_NOT_PERMITTED', { value: target.itemTypeId }, { itemId: target.id, field: 'restore', rule: 28 });
    } else if (run.ctx.edition === 'standard' && type.professionalOnly) {
      run.fail('STANDARD_EDITION_RESTORE', { value: target.itemTypeId }, { itemId: target.id, field: 'restore', rule: 28 });
    }
  }
  if (run.errors.length > before) return;
  if (destId !== item.parentId) place(run, id, destId, undefined);
  for (const target of subtree) {
    const w = run.ws.mut(target.id);
    w.isDeleted = false;
    delete w.deletedWith;
    run.restored.add(target.id);
  }
}
