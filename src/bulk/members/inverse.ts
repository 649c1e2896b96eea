// The undo of one item, while each member of the body gives its inverse in turn (its
// entry of the member table, ./index.ts): what the members ask to put back, what they
// cannot, and the documents that do. Members that change the same values (the planned
// dates, the assignments, the calculation types, field values) name what they changed
// and one shared inverse per kind of document puts those values back together.
// No vscode import, no I/O.
import type { UpdateWorkItemsBody } from '../../schema/api';
import { inEffect, type MemberName } from '../../schema/members';
import { normalizeValue, sameFieldValue, type ItemValues } from '../values';

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

/** An item to put back under its previous parent. */
export interface MovedItem {
  id: string;
  parent: string;
}

/** The kinds of document whose values several members may change: one shared inverse each. */
export type SharedKind = 'calc-types' | 'assignments' | 'schedule' | 'fields';

/** A member's word that it changed a value a shared inverse puts back. */
export interface Claim {
  /** The member (or `fields.Name`, ...) that changed it: named when the value cannot be put back. */
  member: string;
  /** For the planned dates: moved by this many days (an opposite shift may put them back); absent: set. */
  shift?: number;
  /** For the calculation types: the fields whose calculation type the member sets or clears. */
  names?: readonly string[];
}

/** Where the undo of the items goes (planUndo's documents and lists). */
export interface UndoSink {
  add(kind: UndoKind, id: string, update: UpdateWorkItemsBody): void;
  lost(id: string, member: string, reason: NonInvertibleReason, partly?: boolean): void;
  moved(item: MovedItem): void;
}

/** The undo of one item whose change was (or may have been) applied. */
export class UndoItem {
  /** Something is put back (a document names the item, or it moves back). */
  touched = false;
  private readonly claims = new Map<SharedKind, Map<string, Claim[]>>();
  private readonly taken = new Set<string>();

  constructor(
    readonly id: string,
    readonly body: UpdateWorkItemsBody,
    /** Values before sending (the snapshot), as read. */
    readonly before: ItemValues,
    /** Values after: the re-read when there is one, otherwise the prediction. */
    readonly after: ItemValues,
    /** The outcome of the item's request is not known: put back by absolute values only (never a relative inverse such as an opposite shift). */
    readonly uncertain: boolean,
    private readonly sink: UndoSink,
  ) {}

  /** Whether the value before was read. */
  has(field: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.before, field);
  }

  /** The value before, as the service compares it. */
  was(field: string): unknown {
    return normalizeValue(field, this.before[field]);
  }

  /** Whether the value after is known. */
  hasAfter(field: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.after, field);
  }

  /** Changed (or possibly changed, when the value after is not known). */
  changed(field: string): boolean {
    return !this.hasAfter(field) || !sameFieldValue(field, this.before[field], this.after[field]);
  }

  /** Whether another member does something in the same body. */
  inEffect(member: MemberName): boolean {
    return inEffect(this.body, member);
  }

  lost(member: string, reason: NonInvertibleReason, partly?: boolean): void {
    this.sink.lost(this.id, member, reason, partly);
  }

  /** This item's part of an undo document of `kind`. */
  put(kind: UndoKind, update: UpdateWorkItemsBody): void {
    this.sink.add(kind, this.id, update);
    this.touched = true;
  }

  /** The item goes back under `parent` (after the previous sibling that did not move). */
  moveBack(parent: string): void {
    this.sink.moved({ id: this.id, parent });
    this.touched = true;
  }

  /** `fields`, changed by `claim.member`, are put back by the shared inverse of `kind`. */
  putBack(kind: SharedKind, fields: readonly string[], claim: Claim): void {
    let byField = this.claims.get(kind);
    if (!byField) this.claims.set(kind, (byField = new Map()));
    for (const f of fields) {
      const list = byField.get(f);
      if (list) list.push(claim);
      else byField.set(f, [claim]);
    }
  }

  /**
   * The fields the shared inverse of `kind` puts back, each with the members that changed
   * it, in the order claimed; a field a kind earlier in the undo order took is left to it.
   */
  claimed(kind: SharedKind): Map<string, Claim[]> {
    const out = new Map<string, Claim[]>();
    for (const [f, list] of this.claims.get(kind) ?? []) {
      if (this.taken.has(f)) continue;
      this.taken.add(f);
      out.set(f, list);
    }
    return out;
  }

  /** The members of claims, each once. */
  static members(claims: readonly Claim[]): string[] {
    return [...new Set(claims.map((c) => c.member))];
  }
}
