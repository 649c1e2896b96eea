// Undo of a bulk update: from the values read before sending (the snapshot),
// the values after (response and re-read, when known) and the update body, the
// request bodies that put the previous values back, grouped into one document per
// distinct inverse change, and the changes that cannot be inverted, by item and
// reason. No vscode import, no I/O. Nothing here sends anything.
import type { AssignmentAdd, AssignmentUpdate, UpdateWorkItemsBody } from '../schema/api';
import { FORMULA_CALC_TYPE, fieldInfo, splitCommaList } from '../schema/fields';
import {
  dateOnly,
  HAS_SUB_ITEMS,
  itemEffect,
  normalizeAssignments,
  normalizeValue,
  sameFieldValue,
  shiftDate,
  type Assignment,
  type ItemValues,
} from './effects';
import { splitBaseUrl } from './service';

/**
 * What an undo document puts back (one document per distinct inverse change). Listed in the
 * order to send. `delete`: deletes the items an add created (a DELETE, `update` empty);
 * `restore`: restores the items a delete deleted.
 */
export type UndoKind = 'lock' | 'calc-types' | 'assignments' | 'schedule' | 'fields' | 'item-type' | 'parent' | 'delete' | 'restore';

export const UNDO_ORDER: readonly UndoKind[] = ['lock', 'calc-types', 'assignments', 'schedule', 'fields', 'item-type', 'parent'];

export interface UndoDocument {
  kind: UndoKind;
  workItemIds: string[];
  update: UpdateWorkItemsBody;
}

export type NonInvertibleReason =
  | 'not-in-snapshot' // the value before was not read
  | 'links-deleted' // clearSchedule deleted schedule links; they cannot be created again
  | 'descendants-not-in-snapshot' // the change also reached sub-items whose values were not read
  | 'restore' // restored items cannot be deleted again by an update
  | 'formula' // a Formula calculation type cannot be set through the API
  | 'parent-unknown' // the previous parent is not known (or the item was top-level)
  | 'order-unknown' // the previous siblings are not known: the item goes back to its parent's end
  | 'add-outcome-unknown' // an add of unknown outcome: what it created (if anything) is not known
  | 'added-ids-unknown' // an add succeeded but its answer named no item: what to delete is not known
  | 'delete-outcome-unknown'; // a delete of unknown outcome: the item is restored only once it is known deleted

export interface NonInvertible {
  id: string;
  /** The body member (or `fields.Name`, ...) whose change is not put back. */
  member: string;
  reason: NonInvertibleReason;
  /** True when the undo still puts back part of it (e.g. the parent, not the position). */
  partly?: boolean;
}

export interface UndoPlan {
  documents: UndoDocument[];
  nonInvertible: NonInvertible[];
  /** Items whose change was applied and whose touched values are all back by the documents. */
  items: number;
  /** Items that were not changed (their request failed or was never sent, or nothing changed). */
  unchanged: string[];
  /** With `deferMoves`: the items to put back under their previous parent (restoreMoves). */
  moved?: MovedItem[];
}

export interface UndoInput {
  body: UpdateWorkItemsBody;
  /** Items whose request succeeded (the change is applied). */
  applied: readonly string[];
  /** Items whose request is of unknown outcome: put back by absolute values only (never an opposite shift). */
  uncertain?: readonly string[];
  /** Values before sending (snapshot), PascalCase as read. */
  before: ReadonlyMap<string, ItemValues>;
  /** Values after the update (response and re-read), when known. */
  after?: ReadonlyMap<string, ItemValues>;
  /** The children of each previous parent in their order before sending (for "back after the previous sibling"). */
  siblingsBefore?: ReadonlyMap<string, readonly string[]>;
  /**
   * Leave the moves out of the documents and list them in `moved` instead: a change of
   * several requests puts every moved item back in one step (restoreMoves), after the
   * rest, so that an item's anchor among its old siblings is not one another request moved.
   */
  deferMoves?: boolean;
}

/** An item to put back under its previous parent. */
export interface MovedItem {
  id: string;
  parent: string;
}

/** Values after the update for one item: the re-read when there is one, otherwise the prediction. */
function afterValues(id: string, input: UndoInput, before: ItemValues): ItemValues {
  const read = input.after?.get(id);
  if (read) return read;
  const predicted: Record<string, unknown> = {};
  for (const f of itemEffect(id, input.body, before).fields) {
    if (f.expected.kind === 'value') predicted[f.field] = f.expected.value;
  }
  return predicted;
}

function key(update: UpdateWorkItemsBody): string {
  return JSON.stringify(update, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b))) : v,
  );
}

/** Assignment changes that turn `after` back into `before` (removes, adds with planned time, updates). */
export function inverseAssignmentChange(before: Assignment[], after: Assignment[]): UpdateWorkItemsBody['assignmentChange'] | undefined {
  const removes = after.filter((a) => !before.some((b) => b.partyId === a.partyId)).map((a) => a.partyId);
  const adds: AssignmentAdd[] = before
    .filter((b) => !after.some((a) => a.partyId === b.partyId))
    .map((b) => {
      const add: AssignmentAdd = { partyId: b.partyId, plannedTime: b.plannedTime };
      if (b.partyType === 'User' || b.partyType === 'UserGroup') add.partyType = b.partyType;
      return add;
    });
  const updates: AssignmentUpdate[] = before
    .filter((b) => after.some((a) => a.partyId === b.partyId && a.plannedTime !== b.plannedTime))
    .map((b) => ({ user: `#${b.partyId}`, plannedTime: b.plannedTime }));
  if (removes.length === 0 && adds.length === 0 && updates.length === 0) return undefined;
  const change: NonNullable<UpdateWorkItemsBody['assignmentChange']> = {};
  if (removes.length > 0) change.removes = removes.join(',');
  if (updates.length > 0) change.updates = updates;
  if (adds.length > 0) change.adds = adds;
  return change;
}

/** Builds the undo documents of a job and lists what cannot be put back. */
export function planUndo(input: UndoInput): UndoPlan {
  const { body } = input;
  const groups = new Map<string, UndoDocument>();
  const nonInvertible: NonInvertible[] = [];
  const unchanged: string[] = [];
  let items = 0;
  const add = (kind: UndoKind, id: string, update: UpdateWorkItemsBody): void => {
    const k = `${kind}\u0000${key(update)}`;
    const g = groups.get(k);
    if (g) g.workItemIds.push(id);
    else groups.set(k, { kind, workItemIds: [id], update });
  };
  const lost = (id: string, member: string, reason: NonInvertibleReason, partly?: boolean): void => {
    nonInvertible.push(partly ? { id, member, reason, partly } : { id, member, reason });
  };
  const uncertain = new Set(input.uncertain ?? []);
  const ids = [...input.applied, ...(input.uncertain ?? [])];
  const moved: MovedItem[] = [];

  for (const id of ids) {
    const before = input.before.get(id);
    if (!before) {
      lost(id, '*', 'not-in-snapshot');
      continue;
    }
    const after = afterValues(id, input, before);
    const has = (f: string): boolean => Object.prototype.hasOwnProperty.call(before, f);
    const b = (f: string): unknown => normalizeValue(f, before[f]);
    /** Changed (or possibly changed, when the value after is not known). */
    const changed = (f: string): boolean => !Object.prototype.hasOwnProperty.call(after, f) || !sameFieldValue(f, before[f], after[f]);
    let touched = false;

    if (body.restore === true) {
      lost(id, 'restore', 'restore');
      continue;
    }

    // setTimeEntryLocked
    if (body.setTimeEntryLocked !== undefined) {
      if (!has('IsTimeEntryLocked')) lost(id, 'setTimeEntryLocked', 'not-in-snapshot');
      else if (changed('IsTimeEntryLocked') && typeof before.IsTimeEntryLocked === 'boolean') {
        add('lock', id, { setTimeEntryLocked: before.IsTimeEntryLocked });
        touched = true;
      }
      if (before[HAS_SUB_ITEMS] !== false) lost(id, 'setTimeEntryLocked', 'descendants-not-in-snapshot', true);
    }

    // Calculation types
    if (body.fieldCalcTypes !== undefined || body.clearFieldCalcTypes !== undefined || body.clearAllFieldCalcTypes === true) {
      if (!has('FieldCalcTypes')) lost(id, 'fieldCalcTypes', 'not-in-snapshot');
      else if (changed('FieldCalcTypes')) {
        const old = (b('FieldCalcTypes') as Record<string, unknown> | null) ?? {};
        const now = (normalizeValue('FieldCalcTypes', after.FieldCalcTypes) as Record<string, unknown> | null | undefined) ?? {};
        const names = new Set([...Object.keys(old), ...Object.keys(now), ...Object.keys(body.fieldCalcTypes ?? {}), ...splitCommaList(body.clearFieldCalcTypes ?? '')]);
        const set: Record<string, string> = {};
        const clear: string[] = [];
        for (const n of [...names].sort()) {
          if (old[n] === now[n] && Object.prototype.hasOwnProperty.call(after, 'FieldCalcTypes')) continue;
          if (old[n] === FORMULA_CALC_TYPE) lost(id, `fieldCalcTypes.${n}`, 'formula');
          else if (typeof old[n] === 'string') set[n] = old[n];
          else if (fieldInfo(n)) clear.push(n);
        }
        const update: UpdateWorkItemsBody = {};
        if (Object.keys(set).length > 0) update.fieldCalcTypes = set;
        if (clear.length > 0) update.clearFieldCalcTypes = clear.join(',');
        if (Object.keys(update).length > 0) {
          add('calc-types', id, update);
          touched = true;
        }
      }
    }

    // Assignments (copyAssignmentsFrom, assignmentChange, fields.Assignments)
    const fieldNames = Object.keys(body.fields ?? {});
    if (body.assignmentChange !== undefined || body.copyAssignmentsFrom !== undefined || fieldNames.includes('Assignments')) {
      const old = has('Assignments') ? normalizeAssignments(before.Assignments) : undefined;
      if (!old) lost(id, body.assignmentChange ? 'assignmentChange' : body.copyAssignmentsFrom ? 'copyAssignmentsFrom' : 'fields.Assignments', 'not-in-snapshot');
      else {
        const update: UpdateWorkItemsBody = {};
        if (changed('Assignments')) {
          const now = Object.prototype.hasOwnProperty.call(after, 'Assignments') ? normalizeAssignments(after.Assignments) : undefined;
          const inverse = now && !uncertain.has(id) ? inverseAssignmentChange(old, now) : undefined;
          if (inverse) update.assignmentChange = inverse;
          else update.fields = { Assignments: old.map((a) => (a.partyType ? { partyId: a.partyId, partyType: a.partyType, plannedTime: a.plannedTime } : { partyId: a.partyId, plannedTime: a.plannedTime })) };
        }
        if (body.assignmentChange?.recalculatePlannedTimeByAssignment === true) {
          if (!has('PlannedTime')) lost(id, 'assignmentChange.recalculatePlannedTimeByAssignment', 'not-in-snapshot');
          else if (changed('PlannedTime')) update.fields = { ...(update.fields ?? {}), PlannedTime: b('PlannedTime') };
        }
        if (Object.keys(update).length > 0) {
          add('assignments', id, update);
          touched = true;
        }
      }
    }

    // Schedule: an opposite shift when the dates moved by exactly the shift, the old dates otherwise.
    const shift = body.moveScheduleDays ?? 0;
    const datesSet = body.clearSchedule === true || fieldNames.includes('PlannedStartDate') || fieldNames.includes('PlannedFinishDate');
    if (shift !== 0 || datesSet) {
      if (!has('PlannedStartDate') || !has('PlannedFinishDate')) lost(id, datesSet ? 'fields.PlannedStartDate' : 'moveScheduleDays', 'not-in-snapshot');
      else if (changed('PlannedStartDate') || changed('PlannedFinishDate')) {
        const s0 = dateOnly(before.PlannedStartDate) ?? null;
        const e0 = dateOnly(before.PlannedFinishDate) ?? null;
        const s1 = Object.prototype.hasOwnProperty.call(after, 'PlannedStartDate') ? dateOnly(after.PlannedStartDate) : undefined;
        const e1 = Object.prototype.hasOwnProperty.call(after, 'PlannedFinishDate') ? dateOnly(after.PlannedFinishDate) : undefined;
        const shiftedExactly =
          !datesSet &&
          !uncertain.has(id) &&
          (s1 === undefined || s1 === (s0 === null ? null : shiftDate(s0, shift))) &&
          (e1 === undefined || e1 === (e0 === null ? null : shiftDate(e0, shift)));
        add('schedule', id, shiftedExactly ? { moveScheduleDays: -shift } : { fields: { PlannedStartDate: s0, PlannedFinishDate: e0 } });
        touched = true;
      }
      if (body.clearSchedule === true) lost(id, 'clearSchedule', 'links-deleted');
    }

    // Field values (dates and assignments above), completion as progress.
    const restore: Record<string, unknown> = {};
    for (const name of fieldNames) {
      if (name === 'Assignments' || name === 'PlannedStartDate' || name === 'PlannedFinishDate') continue;
      if (body.assignmentChange?.recalculatePlannedTimeByAssignment === true && name === 'PlannedTime') continue;
      if (!has(name)) {
        lost(id, `fields.${name}`, 'not-in-snapshot');
        continue;
      }
      if (changed(name)) restore[name] = b(name);
    }
    if (body.setCompleted !== undefined) {
      if (!has('ActualProgress')) lost(id, 'setCompleted', 'not-in-snapshot');
      else if (before.TracksProgress !== false && changed('ActualProgress')) restore.ActualProgress = b('ActualProgress');
      if (before[HAS_SUB_ITEMS] !== false) lost(id, 'setCompleted', 'descendants-not-in-snapshot', true);
    }
    if (Object.keys(restore).length > 0) {
      add('fields', id, { fields: restore });
      touched = true;
    }
    if (body.propagateToChildren !== undefined) lost(id, 'propagateToChildren', 'descendants-not-in-snapshot');

    // Item type
    if (body.changeItemTypeTo !== undefined) {
      if (!has('ItemTypeId') || typeof b('ItemTypeId') !== 'string') lost(id, 'changeItemTypeTo', 'not-in-snapshot');
      else if (changed('ItemTypeId')) {
        add('item-type', id, { changeItemTypeTo: b('ItemTypeId') as string });
        touched = true;
      }
    }

    // Parent and position
    if (body.moveParentTo !== undefined) {
      const parent = b('ParentId');
      const orderAsked = body.orderAfter !== undefined || body.orderBefore !== undefined || body.orderFirst === true || body.orderLast === true;
      if (!has('ParentId')) lost(id, 'moveParentTo', 'not-in-snapshot');
      else if (typeof parent !== 'string' || parent === '') lost(id, 'moveParentTo', 'parent-unknown');
      else if (changed('ParentId') || orderAsked || parent !== body.moveParentTo) {
        if (parent !== body.moveParentTo || orderAsked) {
          moved.push({ id, parent });
          touched = true;
        }
      }
    }
    if (touched) items++;
    else unchanged.push(id);
  }

  if (!input.deferMoves) restoreMoves(moved, input.siblingsBefore, add, lost);

  const documents = [...groups.values()].sort((a, b) => UNDO_ORDER.indexOf(a.kind) - UNDO_ORDER.indexOf(b.kind));
  return { documents, nonInvertible, items, unchanged, ...(input.deferMoves ? { moved } : {}) };
}

/**
 * The documents that put moved items back under their previous parent, each after the
 * previous sibling that did not move (an item whose old siblings are not known goes to
 * its parent's end, and says so). `moved` holds every item moved by the change, so no
 * anchor is an item that is itself away.
 */
export function restoreMoves(
  moved: readonly MovedItem[],
  siblingsBefore: ReadonlyMap<string, readonly string[]> | undefined,
  add: (kind: UndoKind, id: string, update: UpdateWorkItemsBody) => void,
  lost: (id: string, member: string, reason: NonInvertibleReason, partly?: boolean) => void,
): void {
  if (moved.length === 0) return;
  const movedSet = new Set(moved.map((m) => m.id));
  const byParent = new Map<string, string[]>();
  for (const m of moved) {
    const list = byParent.get(m.parent);
    if (list) list.push(m.id);
    else byParent.set(m.parent, [m.id]);
  }
  for (const [parent, list] of byParent) {
    const siblings = siblingsBefore?.get(parent);
    if (!siblings) {
      for (const id of list) {
        add('parent', id, { moveParentTo: parent });
        lost(id, 'moveParentTo', 'order-unknown', true);
      }
      continue;
    }
    const inList = new Set(list);
    let anchor = '0';
    for (const sibling of siblings) {
      if (inList.has(sibling)) add('parent', sibling, { moveParentTo: parent, orderAfter: anchor });
      else if (!movedSet.has(sibling)) anchor = sibling;
    }
    for (const id of list) {
      if (!siblings.includes(id)) {
        add('parent', id, { moveParentTo: parent });
        lost(id, 'moveParentTo', 'order-unknown', true);
      }
    }
  }
}

/** The documents of `restoreMoves` for `moved`, and what they cannot put back. */
export function moveBackDocuments(moved: readonly MovedItem[], siblingsBefore: ReadonlyMap<string, readonly string[]> | undefined): { documents: UndoDocument[]; nonInvertible: NonInvertible[] } {
  const groups = new Map<string, UndoDocument>();
  const nonInvertible: NonInvertible[] = [];
  restoreMoves(
    moved,
    siblingsBefore,
    (kind, id, update) => {
      const k = key(update);
      const g = groups.get(k);
      if (g) g.workItemIds.push(id);
      else groups.set(k, { kind, workItemIds: [id], update });
    },
    (id, member, reason, partly) => nonInvertible.push(partly ? { id, member, reason, partly } : { id, member, reason }),
  );
  return { documents: [...groups.values()], nonInvertible };
}

/**
 * Whether two base URLs name the same service: the same origin (scheme, host, port)
 * and the same base path, trailing slashes aside. An undo document carries its job's
 * service (`service`) and is sent only where this holds. False when either is not an
 * http(s) URL.
 */
export function sameServiceUrl(a: string, b: string): boolean {
  const x = splitBaseUrl(a.trim());
  const y = splitBaseUrl(b.trim());
  return !!x && !!y && x.origin === y.origin && x.basePath === y.basePath;
}

/**
 * The service a document may not be sent to: its `service` when that is not the
 * service in use (`baseUrlInUse`); undefined when the document names none (sent as
 * any document) or names this one.
 */
export function otherServiceOf(doc: { service?: string }, baseUrlInUse: string): string | undefined {
  if (doc.service === undefined) return undefined;
  return sameServiceUrl(doc.service, baseUrlInUse) ? undefined : doc.service;
}
