// Undo checks for drift like Send does: before the undo documents of a job are made,
// the touched fields of its items are read again and compared with the job's "after"
// (the re-read after the run, else the answer over the values before, else the
// prediction). An item another client changed since is listed (which fields, which
// values); the undo can skip it, be checked again, or overwrite it anyway.
// No vscode import, no I/O besides the reader given.
import type { UpdateWorkItemsBody } from '../schema/api';
import { fieldsToReadForAll, itemEffect, sameFieldValue, touchedFields, type ItemValues } from './effects';
import type { JobJournal } from './journal';
import { jobValues, planUndoOfChange, type JobValues } from './jobValues';
import { deletedIds } from './added';
import { addedFieldsOf, bodiesById, planBodies } from './plan';
import type { JobPlan } from './types';
import type { ReadOptions, WorkItemReader } from './readValues';
import { snapshotItems } from './snapshot';
import type { UndoPlan } from './undo';

/** Fields whose value since an add means work was recorded on the item (time entries). */
const ACTUALS = ['ActualTime'] as const;

/** One field of an item that is no longer what the job left. */
export interface UndoDriftField {
  field: string;
  /** The value the job left (its "after"). */
  expected: unknown;
  /** The value read now. */
  now: unknown;
}

export interface UndoDrift {
  id: string;
  name?: string;
  fields: UndoDriftField[];
  /** The item did not come back (deleted, or no longer readable). */
  gone?: boolean;
  /** An item a job added: the items added below it since (by someone else), which its delete would take with it. */
  childrenSince?: string[];
}

/** The items below each of these items now (their whole subtrees), for the drift of added items; undefined when it cannot be read. */
export type SubtreeReader = (ids: readonly string[], o: ReadOptions) => Promise<ReadonlyMap<string, readonly string[]>>;

export interface UndoDriftCheck {
  /** Items changed since the job (or gone), in the job's order. */
  drift: UndoDrift[];
  /** Items compared. */
  checked: number;
  /** Read requests made. */
  requests: number;
  values: JobValues;
}

/**
 * The values a job left on one item, per touched field: the re-read or answer when it
 * holds the field, else the predicted value; fields whose value after is not known
 * (computed by the service) are left out.
 */
export function valuesLeftByJob(id: string, body: UpdateWorkItemsBody, before: ItemValues | undefined, after: ItemValues | undefined, applied: boolean): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const effect = before ? itemEffect(id, body, before) : undefined;
  for (const field of touchedFields(body)) {
    if (applied && after && Object.prototype.hasOwnProperty.call(after, field)) {
      out.set(field, after[field]);
      continue;
    }
    const fe = effect?.fields.find((f) => f.field === field);
    if (fe?.expected.kind === 'value') out.set(field, fe.expected.value);
  }
  return out;
}

/**
 * Compares the items of a job with what it left on them. `current` holds the values read
 * now (PascalCase, as read); an item of the job missing from it is `gone`. An item whose
 * request is of unknown outcome drifted only when a field is neither its value before
 * nor the value the job would have left.
 */
export function compareWithJob(values: JobValues, bodies: UpdateWorkItemsBody | ReadonlyMap<string, readonly UpdateWorkItemsBody[]>, current: ReadonlyMap<string, ItemValues>): UndoDrift[] {
  const bodiesOf = (id: string): readonly UpdateWorkItemsBody[] => (bodies instanceof Map ? (bodies.get(id) ?? []) : [bodies as UpdateWorkItemsBody]);
  const before = snapshotItems(values.before);
  const out: UndoDrift[] = [];
  const check = (id: string, applied: boolean): void => {
    const b = before.get(id);
    if (!b) return; // not read before: the undo cannot put it back anyway
    const now = current.get(id);
    const name = typeof b.Name === 'string' ? b.Name : undefined;
    if (!now) {
      out.push({ id, ...(name !== undefined ? { name } : {}), fields: [], gone: true });
      return;
    }
    // Each body of the item changes fields of its own: what the job left is what each left.
    const left = new Map<string, unknown>();
    for (const body of bodiesOf(id)) for (const [f, v] of valuesLeftByJob(id, body, b, values.after.get(id), applied)) left.set(f, v);
    const fields: UndoDriftField[] = [];
    for (const [field, expected] of left) {
      if (sameFieldValue(field, expected, now[field])) continue;
      if (!applied && sameFieldValue(field, b[field], now[field])) continue; // unknown outcome: not applied is not drift
      fields.push({ field, expected, now: now[field] });
    }
    if (fields.length > 0) out.push({ id, ...(name !== undefined ? { name } : {}), fields });
  };
  for (const id of values.applied) check(id, true);
  for (const id of values.uncertain) check(id, false);
  return out;
}

/**
 * Compares the items the job's adds created with what the job left on them (the re-read
 * after the run, else the add's answer), for the fields each add set: an item changed since,
 * or gone, is listed, since the undo of an add deletes it.
 */
export function compareAdded(plan: Pick<JobPlan, 'parts'>, values: JobValues, current: ReadonlyMap<string, ItemValues>, below?: ReadonlyMap<string, readonly string[]>): UndoDrift[] {
  const out: UndoDrift[] = [];
  for (const a of values.added) {
    if (a.state !== 'succeeded') continue;
    const part = plan.parts[a.part];
    const set = part?.add ? Object.keys(addedFieldsOf(part.add.item)) : [];
    const created = new Set(a.ids);
    for (const id of a.ids) {
      const left = values.after.get(id) ?? {};
      const name = typeof left.Name === 'string' ? left.Name : undefined;
      const now = current.get(id);
      if (!now) {
        out.push({ id, ...(name !== undefined ? { name } : {}), fields: [], gone: true });
        continue;
      }
      const fields: UndoDriftField[] = [];
      for (const field of set) {
        if (!Object.prototype.hasOwnProperty.call(left, field) || !Object.prototype.hasOwnProperty.call(now, field)) continue;
        if (!sameFieldValue(field, left[field], now[field])) fields.push({ field, expected: left[field], now: now[field] });
      }
      // Time entered since: deleting the item would take its actuals with it.
      for (const field of ACTUALS) {
        const v = now[field];
        if (!set.includes(field) && typeof v === 'number' && v > 0 && !sameFieldValue(field, left[field] ?? 0, v)) fields.push({ field, expected: left[field] ?? 0, now: v });
      }
      const since = a.top.includes(id) ? (below?.get(id) ?? []).filter((k) => !created.has(k)) : [];
      if (fields.length > 0 || since.length > 0) out.push({ id, ...(name !== undefined ? { name } : {}), fields, ...(since.length > 0 ? { childrenSince: since } : {}) });
    }
  }
  return out;
}

/** Reads the items of a job now and lists those changed since the job (see compareWithJob and compareAdded). */
export async function checkUndoDrift(journal: JobJournal, read: WorkItemReader, o: ReadOptions = {}, subtrees?: SubtreeReader): Promise<UndoDriftCheck> {
  const values = await jobValues(journal);
  const before = snapshotItems(values.before);
  const added = values.added.flatMap((a) => (a.state === 'succeeded' ? a.ids : []));
  // An item the job deleted is not read: it is gone by the job, and its undo restores it.
  const deleted = deletedIds(journal.plan);
  const live = (id: string): boolean => !deleted.has(id);
  const compared: JobValues = { ...values, applied: values.applied.filter(live), uncertain: values.uncertain.filter(live) };
  const ids = [...new Set([...[...compared.applied, ...compared.uncertain].filter((id) => before.has(id)), ...added])];
  if (ids.length === 0) return { drift: [], checked: 0, requests: 0, values };
  const fields = fieldsToReadForAll(planBodies(journal.plan));
  const answer = await read(ids, added.length > 0 ? [...new Set([...fields, ...ACTUALS])] : fields, o);
  const current = new Map<string, ItemValues>();
  for (const [id, record] of answer.items) current.set(id, record.fields);
  // The items below what the adds created: what the undo's delete would take with it.
  const tops = values.added.flatMap((a) => (a.state === 'succeeded' ? a.top : []));
  const below = subtrees && tops.length > 0 ? await subtrees(tops, o) : undefined;
  const drift = [...compareWithJob(compared, bodiesById(journal.plan), current), ...compareAdded(journal.plan, values, current, below)];
  return { drift, checked: ids.length, requests: answer.requests, values };
}

/** The undo of a job without the items in `skip` (they keep what another client wrote since the job). */
export function planUndoSkipping(journal: JobJournal, values: JobValues, skip: ReadonlySet<string>): UndoPlan {
  return planUndoOfChange(journal.plan, values, skip);
}
