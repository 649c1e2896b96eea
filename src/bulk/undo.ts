// Undo of a bulk update: from the values read before sending (the snapshot),
// the values after (response and re-read, when known) and the update body, the
// request bodies that put the previous values back, grouped into one document per
// distinct inverse change, and the changes that cannot be inverted, by item and
// reason. No vscode import, no I/O. Nothing here sends anything.
import type { UpdateWorkItemsBody } from '../schema/api';
import { membersInEffect } from '../schema/members';
import { itemEffect, type ItemValues } from './effects';
import { invertItem } from './members';
import { UNDO_ORDER, UndoItem, type MovedItem, type NonInvertible, type NonInvertibleReason, type UndoDocument, type UndoKind } from './members/inverse';
import { splitBaseUrl } from './service';

// Each member's inverse is its entry of the member table (./members/); here too, for the callers of this module.
export { UNDO_ORDER, type MovedItem, type NonInvertible, type NonInvertibleReason, type UndoDocument, type UndoKind } from './members/inverse';
export { inverseAssignmentChange } from './members/assignments';

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

  const sink = { add, lost, moved: (m: MovedItem) => moved.push(m) };
  const members = membersInEffect(body);

  for (const id of ids) {
    const before = input.before.get(id);
    if (!before) {
      lost(id, '*', 'not-in-snapshot');
      continue;
    }
    const item = new UndoItem(id, body, before, afterValues(id, input, before), uncertain.has(id), sink);
    if (!invertItem(item, members)) continue;
    if (item.touched) items++;
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
