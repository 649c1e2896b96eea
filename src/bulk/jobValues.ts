// Before/after values of a job, from its journal and snapshots: what the undo and
// the result view's before → after table work from. No vscode import.
import type { UpdateWorkItemsBody, WorkItemResult } from '../schema/api';
import { itemEffect, sameFieldValue, touchedFields, type ItemValues } from './effects';
import type { JobJournal } from './journal';
import { readSnapshot, snapshotItems, snapshotSiblings, type ValuesSnapshot } from './snapshot';
import { addedFieldsOf, bodiesById } from './plan';
import type { JobPlan, RequestResult } from './types';
import { moveBackDocuments, planUndo, type MovedItem, type UndoDocument, type UndoPlan } from './undo';
import { addedItems, namesItems, type AddedItems } from './added';

/** Response members (camelCase) whose read field (PascalCase) is named differently. */
const RESPONSE_FIELD: Record<string, string> = { timeEntryLocked: 'IsTimeEntryLocked' };
/** Response members that are not work item fields. */
const NOT_FIELDS = new Set(['id', 'itemWarnings', 'updatedAt', 'updatedBy', 'userUpdatedAt', 'userUpdatedBy']);

/** The fields of an update response item as read fields (`plannedStartDate` → `PlannedStartDate`). */
export function responseFields(item: WorkItemResult): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(item)) {
    if (NOT_FIELDS.has(k) || v === undefined) continue;
    out[RESPONSE_FIELD[k] ?? k.charAt(0).toUpperCase() + k.slice(1)] = v;
  }
  return out;
}

/**
 * The values of an item after a successful update, without a re-read: the values before,
 * then the fields as sent, then what the answer reports. The service answers only the
 * fields whose resulting value differs from the value sent (official help U2), so a field
 * sent and kept as sent is not in the answer: its value after is the value sent.
 */
export function valuesAfterAnswer(before: ItemValues, sent: Readonly<Record<string, unknown>> | undefined, answer: WorkItemResult): ItemValues {
  return { ...before, ...(sent ?? {}), ...responseFields(answer) };
}

/** The fields sent to an item by all its bodies (they change different fields of it). */
function sentFields(bodies: readonly UpdateWorkItemsBody[] | undefined): Record<string, unknown> | undefined {
  if (!bodies || bodies.length === 0) return undefined;
  if (bodies.length === 1) return bodies[0]!.fields;
  return Object.assign({}, ...bodies.map((b) => b.fields ?? {})) as Record<string, unknown>;
}

function isApplied(r: RequestResult): boolean {
  return r.state === 'succeeded';
}
function isUncertain(r: RequestResult): boolean {
  return r.state === 'unknown' || r.state === 'cancelled' || r.state === 'sent';
}

/** What the service answered per requested item, and the affected items (not requested, changed by the service). */
export function responsesOf(requests: readonly RequestResult[]): { items: Map<string, WorkItemResult>; affected: Map<string, WorkItemResult> } {
  const items = new Map<string, WorkItemResult>();
  const affected = new Map<string, WorkItemResult>();
  for (const r of requests) {
    for (const i of r.response?.items ?? []) items.set(String(i.id), i);
    for (const i of r.response?.affectedItems ?? []) affected.set(String(i.id), { ...(affected.get(String(i.id)) ?? {}), ...i });
  }
  return { items, affected };
}

export interface JobValues {
  before?: ValuesSnapshot;
  afterRead?: ValuesSnapshot;
  /** Items whose request succeeded / is of unknown outcome. */
  applied: string[];
  uncertain: string[];
  /** Values after, per item: the re-read when there is one, else the values before with the response's changed fields over them. */
  after: Map<string, ItemValues>;
  /** What each add of the job created (none for a job that adds nothing). */
  added: AddedItems[];
}

/** Loads the snapshots of a job and combines them with its responses. */
export async function jobValues(journal: JobJournal): Promise<JobValues> {
  const before = await readSnapshot(journal.file, 'before');
  const afterRead = await readSnapshot(journal.file, 'after');
  // The requests that name existing items (an add names its parent, which it does not change).
  const named = journal.requests.filter((r) => namesItems(journal.plan, r));
  const applied = named.filter(isApplied).flatMap((r) => r.ids);
  const uncertain = named.filter(isUncertain).flatMap((r) => r.ids);
  const added = addedItems(journal.plan, journal.requests);
  const beforeItems = snapshotItems(before);
  const readAfter = snapshotItems(afterRead);
  const { items: answered } = responsesOf(journal.requests);
  const bodies = bodiesById(journal.plan);
  const after = new Map<string, ItemValues>();
  for (const id of applied) {
    const read = readAfter.get(id);
    if (read) {
      after.set(id, read);
      continue;
    }
    const b = beforeItems.get(id);
    const answer = answered.get(id);
    if (b && answer) after.set(id, valuesAfterAnswer(b, sentFields(bodies.get(id)), answer));
  }
  // An added item after the job: as read after the run, else as the add's answer gave it.
  for (const a of added) {
    for (const id of a.ids) after.set(id, readAfter.get(id) ?? responseFields(a.answered.get(id) as WorkItemResult));
  }
  return { before, afterRead, applied, uncertain, after, added };
}

/** The undo of a job from its journal (undefined `before` in the result: the job has no snapshot). */
export async function planUndoForJob(journal: JobJournal): Promise<{ plan: UndoPlan; values: JobValues }> {
  const values = await jobValues(journal);
  return { plan: planUndoOfChange(journal.plan, values, new Set()), values };
}

/**
 * The undo of a job's change: each part's undo (its documents in the order the undo of one
 * body sends them), the parts in reverse order, so the last request is put back first. The
 * items in `skip` are left as they are. Each part's items are its own, so the values
 * before the job are the values before its part.
 */
export function planUndoOfChange(plan: Pick<JobPlan, 'parts'>, values: JobValues, skip: ReadonlySet<string>): UndoPlan {
  const before = snapshotItems(values.before);
  const siblingsBefore = snapshotSiblings(values.before);
  const out: UndoPlan = { documents: [], nonInvertible: [], items: 0, unchanged: [] };
  const moved: MovedItem[] = [];
  const several = plan.parts.length > 1;
  for (const [k, part] of [...plan.parts.entries()].reverse()) {
    const mine = new Set(part.ids);
    const keep = (id: string): boolean => mine.has(id) && !skip.has(id);
    if (part.kind === 'add') {
      undoAdd(values.added.find((a) => a.part === k), skip, out);
      continue;
    }
    if (part.kind === 'delete') {
      // What a delete deleted comes back with the update's restore (the items deleted with it too).
      const back = values.applied.filter(keep);
      if (back.length > 0) out.documents.push({ kind: 'restore', workItemIds: back, update: { restore: true } });
      out.items += back.length;
      for (const id of values.uncertain.filter(keep)) out.nonInvertible.push({ id, member: 'delete', reason: 'delete-outcome-unknown' });
      continue;
    }
    const one = planUndo({
      body: part.update,
      applied: values.applied.filter(keep),
      uncertain: values.uncertain.filter(keep),
      before,
      after: values.after,
      ...(siblingsBefore ? { siblingsBefore } : {}),
      deferMoves: several,
    });
    out.documents.push(...one.documents);
    out.nonInvertible.push(...one.nonInvertible);
    out.items += one.items;
    out.unchanged.push(...one.unchanged);
    moved.push(...(one.moved ?? []));
  }
  out.documents = mergeSameInverse(out.documents);
  // The moves of every request back in one step, last (as the undo of one body puts them back).
  const back = moveBackDocuments(moved, siblingsBefore);
  out.documents.push(...back.documents);
  out.nonInvertible.push(...back.nonInvertible);
  // An item in several requests is unchanged only when no request of the change put anything of it back.
  const putBack = new Set(out.documents.flatMap((d) => d.workItemIds));
  out.unchanged = [...new Set(out.unchanged)].filter((id) => !putBack.has(id));
  return out;
}

/**
 * The undo of one add: a delete of the items it added directly below the parent (the items
 * below them go with them), unless skipped. An add of unknown outcome, or one whose answer
 * named nothing, is listed instead: what it created is not known, and nothing is guessed.
 */
function undoAdd(a: AddedItems | undefined, skip: ReadonlySet<string>, out: UndoPlan): void {
  if (!a) return;
  if (a.state === 'unknown' || a.state === 'cancelled' || a.state === 'sent') {
    out.nonInvertible.push({ id: a.parentId, member: 'add', reason: 'add-outcome-unknown' });
    return;
  }
  if (a.state !== 'succeeded') {
    out.unchanged.push(a.parentId);
    return;
  }
  if (a.idsUnknown) {
    out.nonInvertible.push({ id: a.parentId, member: 'add', reason: 'added-ids-unknown' });
    return;
  }
  // Deleting an item deletes the items below it: an add one of whose items is kept is kept whole.
  if (a.ids.some((id) => skip.has(id))) return;
  out.documents.push({ kind: 'delete', workItemIds: [...a.top], update: {} });
  out.items += a.ids.length;
}

/**
 * Joins undo documents of different parts that put back the same values the same way (a
 * Status back to one value on items of several requests): one request instead of several.
 * The parts' items are distinct, so only a move, which may name another item of the change
 * as its place, keeps its turn.
 */
function mergeSameInverse(documents: readonly UndoDocument[]): UndoDocument[] {
  const out: UndoDocument[] = [];
  const byBody = new Map<string, UndoDocument>();
  for (const d of documents) {
    const key = d.kind === 'parent' ? undefined : `${d.kind}\u0000${JSON.stringify(d.update)}`;
    const same = key === undefined ? undefined : byBody.get(key);
    if (same) {
      same.workItemIds = [...same.workItemIds, ...d.workItemIds];
      continue;
    }
    const copy = { ...d, workItemIds: [...d.workItemIds] };
    if (key !== undefined) byBody.set(key, copy);
    out.push(copy);
  }
  return out;
}

/** Per item and field: before → after, and whether the service did other than expected. */
export interface ChangeRow {
  id: string;
  name?: string;
  field: string;
  before: unknown;
  /** The value after, when known. */
  after?: unknown;
  expected?: unknown;
  /** The expected value was known and the value after differs (e.g. a cost value ignored). */
  unexpected: boolean;
}

/** The before → after rows of the items a job changed (touched fields only). */
export function changeRows(journal: JobJournal, values: JobValues): ChangeRow[] {
  const bodies = bodiesById(journal.plan);
  const before = snapshotItems(values.before);
  const rows: ChangeRow[] = [];
  for (const id of values.applied) {
    const b = before.get(id);
    const a = values.after.get(id);
    if (!b) continue;
    for (const body of bodies.get(id) ?? []) rowsOf(rows, id, body, b, a);
  }
  // The items the adds created: nothing before, their fields after (as read again, else as answered).
  for (const added of values.added) {
    const part = journal.plan.parts[added.part];
    if (!part?.add) continue;
    const set = Object.keys(addedFieldsOf(part.add.item));
    for (const id of added.ids) {
      const a = values.after.get(id) ?? {};
      const name = typeof a.Name === 'string' ? { name: a.Name } : {};
      for (const field of set) rows.push({ id, ...name, field, before: undefined, ...(Object.prototype.hasOwnProperty.call(a, field) ? { after: a[field] } : {}), unexpected: false });
    }
  }
  return rows;
}

/** The rows of one item for the fields one body of the job touches. */
function rowsOf(rows: ChangeRow[], id: string, body: UpdateWorkItemsBody, b: ItemValues, a: ItemValues | undefined): void {
  {
    const fields = touchedFields(body);
    const effect = itemEffect(id, body, b);
    for (const f of fields) {
      const fe = effect.fields.find((x) => x.field === f);
      const row: ChangeRow = { id, field: f, before: fe?.before, unexpected: false };
      if (typeof b.Name === 'string') row.name = b.Name;
      if (a && Object.prototype.hasOwnProperty.call(a, f)) row.after = a[f];
      if (fe?.expected.kind === 'value') {
        row.expected = fe.expected.value;
        if (row.after !== undefined || (a && Object.prototype.hasOwnProperty.call(a, f))) row.unexpected = !sameFieldValue(f, fe.expected.value, row.after);
      }
      rows.push(row);
    }
  }
}
