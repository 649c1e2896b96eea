// From table edits to request documents (issue 24 §4), without vscode.
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
import type { UpdateWorkItemsBody } from '../../schema/api';
import { createRequestDocument, type NewRequestDocument } from '../../schema/document';
import { MAX_ITEMS_PER_UPDATE } from '../../schema/fields';
import type { CellEdit } from './edits';
import { dateOf, daysBetween } from './text';

const START = 'PlannedStartDate';
const FINISH = 'PlannedFinishDate';

export interface GroupOptions {
  /** Items whose dates may move with `moveScheduleDays` (default: every item). */
  canShift?: (id: string) => boolean;
  /** IDs per request (default and most: MAX_ITEMS_PER_UPDATE, 1000). */
  maxIds?: number;
  /** The `description` of each document (default: an English summary). */
  describe?: (update: UpdateWorkItemsBody, itemCount: number) => string;
}

/** One request: an ordinary request document, and the edits it carries. */
export interface GroupedRequest {
  document: NewRequestDocument;
  edits: CellEdit[];
}

interface Unit {
  key: string;
  fields?: Record<string, unknown>;
  shift?: number;
}

/** Canonical JSON (sorted object keys) for comparing values. */
function canon(v: unknown): string {
  if (v === null || v === undefined || typeof v !== 'object') return JSON.stringify(v ?? null);
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  if (v && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canon((v as Record<string, unknown>)[k])}`).join(',')}}`;
  return JSON.stringify(v);
}

/** The exact shift of an item's two planned dates, or undefined. */
function exactShift(start: CellEdit | undefined, finish: CellEdit | undefined): number | undefined {
  if (!start || !finish) return undefined;
  const bs = dateOf(start.before);
  const bf = dateOf(finish.before);
  if (bs === undefined || bf === undefined) return undefined;
  if (typeof start.value !== 'string' || typeof finish.value !== 'string' || start.value.length !== 10 || finish.value.length !== 10) return undefined;
  const as = dateOf(start.value);
  const af = dateOf(finish.value);
  if (as === undefined || af === undefined) return undefined;
  const d = daysBetween(bs, as);
  return d !== 0 && d === daysBetween(bf, af) ? d : undefined;
}

export function defaultDescription(update: UpdateWorkItemsBody, itemCount: number): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(update.fields ?? {})) parts.push(`${k} = ${JSON.stringify(v)}`);
  if (update.moveScheduleDays !== undefined) parts.push(`shift the schedule by ${update.moveScheduleDays} days`);
  return `Table edits: ${parts.join(', ')} (${itemCount} work item${itemCount === 1 ? '' : 's'})`;
}

/** Groups pending edits into the fewest request documents (see the file header). The last edit of a cell wins. */
export function groupEdits(edits: readonly CellEdit[], options: GroupOptions = {}): GroupedRequest[] {
  const maxIds = Math.max(1, Math.min(options.maxIds ?? MAX_ITEMS_PER_UPDATE, MAX_ITEMS_PER_UPDATE));
  const describe = options.describe ?? defaultDescription;
  // Per item, its edits by field, items in first-edited order.
  const byItem = new Map<string, Map<string, CellEdit>>();
  for (const e of edits) {
    let m = byItem.get(e.id);
    if (!m) byItem.set(e.id, (m = new Map()));
    m.delete(e.field);
    m.set(e.field, e);
  }
  const shifts = new Map<string, number>();
  const shiftCount = new Map<number, number>();
  for (const [id, m] of byItem) {
    if (options.canShift && !options.canShift(id)) continue;
    const d = exactShift(m.get(START), m.get(FINISH));
    if (d === undefined) continue;
    shifts.set(id, d);
    shiftCount.set(d, (shiftCount.get(d) ?? 0) + 1);
  }
  const unitsOf = new Map<string, Unit[]>();
  for (const [id, m] of byItem) {
    const units: Unit[] = [];
    const d = shifts.get(id);
    if (d !== undefined && shiftCount.get(d)! >= 2) units.push({ key: `S${d}`, shift: d });
    else if (m.has(START) || m.has(FINISH)) {
      const fields: Record<string, unknown> = {};
      if (m.has(START)) fields[START] = m.get(START)!.value;
      if (m.has(FINISH)) fields[FINISH] = m.get(FINISH)!.value;
      units.push({ key: `D${canon(fields)}`, fields });
    }
    for (const [f, e] of m) {
      if (f === START || f === FINISH) continue;
      units.push({ key: `F${f}\u0001${canon(e.value)}`, fields: { [f]: e.value } });
    }
    if (units.length > 1) units.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    unitsOf.set(id, units);
  }
  // (A) one key per item: all its units; (B) one key per unit. Count the requests of each
  // first, build only the one kept.
  const itemKey = new Map<string, string>();
  for (const [id, units] of unitsOf) {
    if (units.length === 1) itemKey.set(id, units[0]!.key);
    else if (units.length > 1) itemKey.set(id, units.map((u) => u.key).join('\u0000'));
  }
  const requests = (sizes: Map<string, number>) => {
    let n = 0;
    for (const size of sizes.values()) n += Math.ceil(size / maxIds);
    return n;
  };
  const sizesA = new Map<string, number>();
  for (const k of itemKey.values()) sizesA.set(k, (sizesA.get(k) ?? 0) + 1);
  const sizesB = new Map<string, number>();
  for (const units of unitsOf.values()) for (const u of units) sizesB.set(u.key, (sizesB.get(u.key) ?? 0) + 1);
  const byUnit = requests(sizesB) < requests(sizesA);
  const groups = new Map<string, { units: Unit[]; ids: string[] }>();
  const add = (key: string, units: Unit[], id: string) => {
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { units, ids: [] }));
    g.ids.push(id);
  };
  for (const [id, units] of unitsOf) {
    if (byUnit) for (const u of units) add(u.key, [u], id);
    else if (units.length) add(itemKey.get(id)!, units, id);
  }
  const chosen = groups.values();

  const out: GroupedRequest[] = [];
  for (const g of chosen) {
    const fields: Record<string, unknown> = {};
    let shift: number | undefined;
    for (const u of g.units) {
      if (u.fields) Object.assign(fields, u.fields);
      if (u.shift !== undefined) shift = u.shift;
    }
    const update: UpdateWorkItemsBody = {};
    if (Object.keys(fields).length) update.fields = fields;
    if (shift !== undefined) update.moveScheduleDays = shift;
    const carried = new Set(Object.keys(fields));
    if (shift !== undefined) carried.add(START).add(FINISH);
    for (let i = 0; i < g.ids.length; i += maxIds) {
      const ids = g.ids.slice(i, i + maxIds);
      const its: CellEdit[] = [];
      for (const id of ids) for (const e of byItem.get(id)!.values()) if (carried.has(e.field)) its.push(e);
      // Each document gets its own body (a caller may edit one document without changing another).
      const body: UpdateWorkItemsBody = update.fields ? { ...update, fields: { ...update.fields } } : { ...update };
      out.push({ document: createRequestDocument(ids, body, { description: describe(body, ids.length) }), edits: its });
    }
  }
  return out;
}
