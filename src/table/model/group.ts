// From table edits to request documents, without vscode.
//
// Edits become the fewest update requests:
// - a change is a "unit": one field set to one value (`fields: {F: v}`), or an item's
//   planned dates together (start and finish stay in one request, so the service never
//   sees a finish before a start in between), or a shift of both planned dates by the
//   same number of days;
// - a shift is sent as `moveScheduleDays` only where that is exact: both dates read and
//   both edited, both moved by the same whole number of calendar days (the sandbox and
//   the help: "shift the period"), the item allowed by `canShift` (e.g. not a folder
//   whose dates follow its children), and at least two items share that shift;
//   otherwise the dates are set as fields;
// - two groupings are computed, and the one with fewer requests is kept (ties: the first):
//   (A) items with the same set of units share one request whose body holds them all;
//   (B) each unit is its own request for all items that have it;
// - a group of more than `maxIds` (the service's 1000-ID limit) is cut into requests of
//   at most that many IDs. IDs keep the order in which they were first edited.
// - for the requests of one change set (`wholeRequests`), no cut: the job cuts large
//   requests into batches itself.
import type { UpdateWorkItemsBody } from '../../schema/api';
import { createRequestDocument, type NewRequestDocument } from '../../schema/document';
import { MAX_ITEMS_PER_UPDATE } from '../../schema/fields';
import { describeBody, type DescriptionWords } from '../../schema/members';
import type { CellEdit } from './edits';
import { dayOf } from './text';

const START = 'PlannedStartDate';
const FINISH = 'PlannedFinishDate';

export interface GroupOptions {
  /** Items whose dates may move with `moveScheduleDays` (default: every item). */
  canShift?: (id: string) => boolean;
  /** IDs per request (default and most: MAX_ITEMS_PER_UPDATE, 1000). */
  maxIds?: number;
  /** The `description` of each document (default: an English summary). */
  describe?: (update: UpdateWorkItemsBody, itemCount: number) => string;
  /**
   * The requests of one change set: no cut at `maxIds` (the job splits a large request into
   * batches itself). Either grouping suits a change set: an item in several requests of (B)
   * has a different field changed by each.
   */
  wholeRequests?: boolean;
}

/** One request: an ordinary request document, and the edits it carries. */
export interface GroupedRequest {
  document: NewRequestDocument;
  edits: CellEdit[];
}

// Written for the first call of a fresh process (a table groups once per "Review
// Changes", so the cold call is the one a user meets): one pass per stage over small
// arrays, units interned as numbers (values as Map keys, no JSON per edit), no closure
// per edit, and the same code path for every value type.

/** A change shared by items: fields set to values (one field, or the two planned dates together), or a shift of both dates. */
interface Unit {
  /** Its number: units are compared and sorted by it. */
  n: number;
  /** Sort rank within an item: dates first, then fields by name, then the shift (the body's member order). */
  rank: string;
  fields?: Record<string, unknown>;
  shift?: number;
}

/** An item's edits, the last edit of each field only, in the order of their last edit. */
interface ItemEdits {
  id: string;
  edits: CellEdit[];
  start?: CellEdit;
  finish?: CellEdit;
  shift?: number;
  units: Unit[];
}

/** Canonical JSON (sorted object keys) for comparing values. */
function canon(v: unknown): string {
  if (v === null || v === undefined || typeof v !== 'object') return JSON.stringify(v ?? null);
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canon((v as Record<string, unknown>)[k])}`).join(',')}}`;
}

/** Values as numbers: equal primitives (by Map key equality, undefined as null) and equal objects (by canonical JSON) get the same number. */
class ValueNumbers {
  private readonly prims = new Map<unknown, number>();
  private readonly objects = new Map<string, number>();
  private next = 0;
  of(v: unknown): number {
    const objects = v !== null && typeof v === 'object';
    const key = objects ? canon(v) : v === undefined ? null : v;
    const m: Map<unknown, number> = objects ? this.objects : this.prims;
    let n = m.get(key);
    if (n === undefined) m.set(key, (n = this.next++));
    return n;
  }
}

/** Units by (field, value): each distinct change once. */
class Units {
  readonly list: Unit[] = [];
  private readonly values = new ValueNumbers();
  /** Field → value number → unit. */
  private readonly byField = new Map<string, Map<number, Unit>>();
  /** The two dates: start value number → finish value number → unit (-1: not edited). */
  private readonly byDates = new Map<number, Map<number, Unit>>();
  private readonly byShift = new Map<number, Unit>();

  private add(rank: string, fields: Record<string, unknown> | undefined, shift?: number): Unit {
    const u: Unit = { n: this.list.length, rank, fields, shift };
    this.list.push(u);
    return u;
  }

  field(field: string, value: unknown): Unit {
    let m = this.byField.get(field);
    if (m === undefined) this.byField.set(field, (m = new Map()));
    const v = this.values.of(value);
    let u = m.get(v);
    if (u === undefined) m.set(v, (u = this.add(`1${field}`, { [field]: value })));
    return u;
  }

  dates(start: CellEdit | undefined, finish: CellEdit | undefined): Unit {
    const s = start ? this.values.of(start.value) : -1;
    const f = finish ? this.values.of(finish.value) : -1;
    let m = this.byDates.get(s);
    if (m === undefined) this.byDates.set(s, (m = new Map()));
    let u = m.get(f);
    if (u === undefined) {
      const fields: Record<string, unknown> = {};
      if (start) fields[START] = start.value;
      if (finish) fields[FINISH] = finish.value;
      m.set(f, (u = this.add('0', fields)));
    }
    return u;
  }

  shift(days: number): Unit {
    let u = this.byShift.get(days);
    if (u === undefined) this.byShift.set(days, (u = this.add('2', undefined, days)));
    return u;
  }
}

/** The exact shift of an item's two planned dates, or undefined. */
function exactShift(start: CellEdit, finish: CellEdit): number | undefined {
  const sv = start.value;
  const fv = finish.value;
  if (typeof sv !== 'string' || typeof fv !== 'string' || sv.length !== 10 || fv.length !== 10) return undefined;
  const bs = dayOf(start.before);
  const bf = dayOf(finish.before);
  const as = dayOf(sv);
  const af = dayOf(fv);
  if (bs === undefined || bf === undefined || as === undefined || af === undefined) return undefined;
  const d = as - bs;
  return d !== 0 && d === af - bf ? d : undefined;
}

/** The words of the default (English) description. */
const ENGLISH: DescriptionWords = {
  field: (name, value) => `${name} = ${JSON.stringify(value)}`,
  shiftDays: (days) => `shift the schedule by ${days} days`,
  member: (name, value) => `${name} = ${JSON.stringify(value)}`,
};

export function defaultDescription(update: UpdateWorkItemsBody, itemCount: number): string {
  const parts = describeBody(update, ENGLISH);
  return `Table edits: ${parts.join(', ')} (${itemCount} work item${itemCount === 1 ? '' : 's'})`;
}

/** Per item, its last edit of each field; items in first-edited order. */
function editsByItem(edits: readonly CellEdit[]): ItemEdits[] {
  const at = new Map<string, ItemEdits>();
  const items: ItemEdits[] = [];
  for (let i = 0; i < edits.length; i++) {
    const e = edits[i]!;
    let it = at.get(e.id);
    if (it === undefined) {
      it = { id: e.id, edits: [e], start: undefined, finish: undefined, shift: undefined, units: [] };
      at.set(e.id, it);
      items.push(it);
    } else {
      const list = it.edits;
      for (let k = 0; k < list.length; k++) {
        if (list[k]!.field === e.field) {
          list.splice(k, 1);
          break;
        }
      }
      list.push(e);
    }
    if (e.field === START) it.start = e;
    else if (e.field === FINISH) it.finish = e;
  }
  return items;
}

const byRank = (a: Unit, b: Unit): number => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : a.n - b.n);

/** Groups pending edits into the fewest request documents (see the file header). The last edit of a cell wins. */
export function groupEdits(edits: readonly CellEdit[], options: GroupOptions = {}): GroupedRequest[] {
  const maxIds = Math.max(1, Math.min(options.maxIds ?? MAX_ITEMS_PER_UPDATE, MAX_ITEMS_PER_UPDATE));
  const describe = options.describe ?? defaultDescription;
  const canShift = options.canShift;
  const items = editsByItem(edits);
  const shiftCount = new Map<number, number>();
  for (const it of items) {
    if (it.start === undefined || it.finish === undefined || (canShift && !canShift(it.id))) continue;
    const d = exactShift(it.start, it.finish);
    if (d === undefined) continue;
    it.shift = d;
    shiftCount.set(d, (shiftCount.get(d) ?? 0) + 1);
  }
  const units = new Units();
  for (const it of items) {
    const d = it.shift;
    if (d !== undefined && shiftCount.get(d)! >= 2) it.units.push(units.shift(d));
    else if (it.start !== undefined || it.finish !== undefined) it.units.push(units.dates(it.start, it.finish));
    for (const e of it.edits) if (e.field !== START && e.field !== FINISH) it.units.push(units.field(e.field, e.value));
    if (it.units.length > 1) it.units.sort(byRank);
  }
  // (A) one key per item: all its units; (B) one key per unit. Count the requests of each
  // first, build only the one kept.
  const itemKeys: (number | string)[] = new Array(items.length);
  const sizesA = new Map<number | string, number>();
  const sizesB = new Array<number>(units.list.length).fill(0);
  for (let i = 0; i < items.length; i++) {
    const us = items[i]!.units;
    let key: number | string = -1;
    if (us.length === 1) key = us[0]!.n;
    else if (us.length > 1) {
      let k = String(us[0]!.n);
      for (let j = 1; j < us.length; j++) k += ` ${us[j]!.n}`;
      key = k;
    }
    itemKeys[i] = key;
    if (us.length > 0) sizesA.set(key, (sizesA.get(key) ?? 0) + 1);
    for (const u of us) sizesB[u.n]!++;
  }
  let requestsA = 0;
  for (const size of sizesA.values()) requestsA += Math.ceil(size / maxIds);
  let requestsB = 0;
  for (const size of sizesB) requestsB += Math.ceil(size / maxIds);
  const byUnit = requestsB < requestsA;

  const groups = new Map<number | string, { units: Unit[]; items: ItemEdits[] }>();
  for (let i = 0; i < items.length; i++) {
    const it = items[i]!;
    if (byUnit) {
      for (const u of it.units) {
        let g = groups.get(u.n);
        if (!g) groups.set(u.n, (g = { units: [u], items: [] }));
        g.items.push(it);
      }
    } else if (it.units.length > 0) {
      const key = itemKeys[i]!;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { units: it.units, items: [] }));
      g.items.push(it);
    }
  }

  const out: GroupedRequest[] = [];
  for (const g of groups.values()) {
    const fields: Record<string, unknown> = {};
    let shift: number | undefined;
    let hasFields = false;
    for (const u of g.units) {
      if (u.fields) {
        Object.assign(fields, u.fields);
        hasFields = true;
      }
      if (u.shift !== undefined) shift = u.shift;
    }
    const carried = new Set(Object.keys(fields));
    if (shift !== undefined) carried.add(START).add(FINISH);
    const cut = options.wholeRequests ? Math.max(1, g.items.length) : maxIds;
    for (let i = 0; i < g.items.length; i += cut) {
      const part = g.items.slice(i, i + cut);
      const ids = new Array<string>(part.length);
      const its: CellEdit[] = [];
      for (let k = 0; k < part.length; k++) {
        ids[k] = part[k]!.id;
        for (const e of part[k]!.edits) if (carried.has(e.field)) its.push(e);
      }
      // Each document gets its own body (a caller may edit one document without changing another).
      const body: UpdateWorkItemsBody = {};
      if (hasFields) body.fields = { ...fields };
      if (shift !== undefined) body.moveScheduleDays = shift;
      out.push({ document: createRequestDocument(ids, body, { description: describe(body, ids.length) }), edits: its });
    }
  }
  return out;
}
