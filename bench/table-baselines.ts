// Hand-written baselines of the table benchmarks (bench/table.ts): the same work as the
// table model (src/table/model) with the plain code a programmer would write for it,
// without the model's general machinery (columns, cell values, interned units).
// Each baseline gives the very output of the model's function; the bench checks that.
import Papa from 'papaparse';
import type { CellEdit, ColumnDef, TableRow } from '../src/table/model';

const START = 'PlannedStartDate';
const FINISH = 'PlannedFinishDate';

/** A request as groupEdits returns it, built as a plain object. */
export interface PlainRequest {
  document: { description: string; workItemIds: string[]; update: { fields?: Record<string, unknown>; moveScheduleDays?: number } };
  edits: CellEdit[];
}

type Describe = (update: PlainRequest['document']['update'], itemCount: number) => string;

const DAY = /^\d{4}-\d\d-\d\d/;

/** Days since 1970 of a yyyy-MM-dd… text, or NaN when it is not a date. */
function dayNumber(v: unknown): number {
  return typeof v === 'string' && DAY.test(v) ? Date.parse(`${v.slice(0, 10)}T00:00:00Z`) / 86_400_000 : NaN;
}

/** A value as a key: JSON, object members sorted (two equal objects are one change). */
function keyOf(v: unknown): string {
  if (v === null || v === undefined || typeof v !== 'object') return JSON.stringify(v ?? null);
  if (Array.isArray(v)) return `[${v.map(keyOf).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${keyOf(o[k])}`)
    .join(',')}}`;
}

/**
 * The grouping of groupEdits written with Maps and string keys: the last edit of each cell;
 * a shift of both planned dates by the same days is `moveScheduleDays` when two items or more
 * share it, else the dates are set; then either one request per set of changes (items with
 * the same changes together) or one request per change, whichever gives fewer requests
 * (ties: per set); at most `maxIds` IDs per request.
 */
export function plainGroupEdits(edits: readonly CellEdit[], describe: Describe, maxIds = 1000): PlainRequest[] {
  // Item → field → its last edit (a field edited again moves to the end).
  const items = new Map<string, Map<string, CellEdit>>();
  for (const e of edits) {
    let m = items.get(e.id);
    if (!m) items.set(e.id, (m = new Map()));
    m.delete(e.field);
    m.set(e.field, e);
  }
  const shiftOf = new Map<string, number>();
  const itemsPerShift = new Map<number, number>();
  for (const [id, m] of items) {
    const s = m.get(START);
    const f = m.get(FINISH);
    if (!s || !f || typeof s.value !== 'string' || typeof f.value !== 'string' || s.value.length !== 10 || f.value.length !== 10) continue;
    const d = dayNumber(s.value) - dayNumber(s.before);
    if (d !== 0 && d === dayNumber(f.value) - dayNumber(f.before)) {
      shiftOf.set(id, d);
      itemsPerShift.set(d, (itemsPerShift.get(d) ?? 0) + 1);
    }
  }
  // Each item's changes, in the body's order (the dates, the fields by name, the shift). A change
  // is kept once by its key: equal values (objects with members in another order too) are one change.
  interface Change {
    key: string;
    field?: string;
    fields?: Record<string, unknown>;
    shift?: number;
  }
  const known = new Map<string, Change>();
  const change = (key: string, make: () => Omit<Change, 'key'>): Change => {
    let c = known.get(key);
    if (!c) known.set(key, (c = { key, ...make() }));
    return c;
  };
  const changesOf = new Map<string, Change[]>();
  for (const [id, m] of items) {
    const changes: Change[] = [];
    const d = shiftOf.get(id);
    const s = m.get(START);
    const f = m.get(FINISH);
    const shifted = d !== undefined && itemsPerShift.get(d)! >= 2;
    if ((s || f) && !shifted) {
      changes.push(
        change(`dates ${s ? keyOf(s.value) : '-'} ${f ? keyOf(f.value) : '-'}`, () => {
          const fields: Record<string, unknown> = {};
          if (s) fields[START] = s.value;
          if (f) fields[FINISH] = f.value;
          return { fields };
        }),
      );
    }
    const others: Change[] = [];
    for (const [k, e] of m) if (k !== START && k !== FINISH) others.push(change(`${k}=${keyOf(e.value)}`, () => ({ field: k, fields: { [k]: e.value } })));
    if (others.length > 1) others.sort((a, b) => (a.field! < b.field! ? -1 : 1));
    changes.push(...others);
    if (shifted) changes.push(change(`shift ${d}`, () => ({ shift: d })));
    changesOf.set(id, changes);
  }
  // Requests of each grouping, counted before either is built.
  const perSet = new Map<string, { changes: Change[]; ids: string[] }>();
  const perChange = new Map<string, { changes: Change[]; ids: string[] }>();
  for (const [id, changes] of changesOf) {
    if (changes.length === 0) continue;
    const setKey = changes.map((c) => c.key).join('\n');
    let g = perSet.get(setKey);
    if (!g) perSet.set(setKey, (g = { changes, ids: [] }));
    g.ids.push(id);
    for (const c of changes) {
      let h = perChange.get(c.key);
      if (!h) perChange.set(c.key, (h = { changes: [c], ids: [] }));
      h.ids.push(id);
    }
  }
  const requests = (m: Map<string, { ids: string[] }>) => [...m.values()].reduce((n, g) => n + Math.ceil(g.ids.length / maxIds), 0);
  const groups = requests(perChange) < requests(perSet) ? perChange : perSet;
  const out: PlainRequest[] = [];
  for (const g of groups.values()) {
    const fields: Record<string, unknown> = {};
    let shift: number | undefined;
    for (const c of g.changes) {
      if (c.fields) Object.assign(fields, c.fields);
      if (c.shift !== undefined) shift = c.shift;
    }
    const carried = new Set(Object.keys(fields));
    if (shift !== undefined) carried.add(START).add(FINISH);
    for (let i = 0; i < g.ids.length; i += maxIds) {
      const ids = g.ids.slice(i, i + maxIds);
      const update: PlainRequest['document']['update'] = {};
      if (Object.keys(fields).length > 0) update.fields = { ...fields };
      if (shift !== undefined) update.moveScheduleDays = shift;
      const carriedEdits: CellEdit[] = [];
      for (const id of ids) for (const e of items.get(id)!.values()) if (carried.has(e.field)) carriedEdits.push(e);
      out.push({ document: { description: describe(update, ids.length), workItemIds: ids, update }, edits: carriedEdits });
    }
  }
  return out;
}

/** How the table's export shows a cell, written out per column type (users by name, hours H:MM, progress n%, dates yyyy-MM-dd). */
function plainFormatter(c: ColumnDef, userName: ReadonlyMap<string, string>): (row: TableRow) => string {
  const number = (n: number) => (Number.isInteger(n) ? String(n) : String(Math.round(n * 100) / 100));
  const id = (v: unknown) =>
    typeof v === 'string' && v !== '' && v !== '0' ? v : typeof v === 'number' && Number.isFinite(v) && v !== 0 ? String(v) : undefined;
  const key = c.key;
  if (key === 'Id') return (r) => r.id;
  if (c.multi) {
    return (r) => {
      const v = r.fields[key];
      if (!Array.isArray(v)) return '';
      const names: string[] = [];
      for (const a of v) {
        const p = id(typeof a === 'object' && a !== null ? (a as { partyId?: unknown }).partyId : a);
        if (p !== undefined) names.push(userName.get(p) ?? p);
      }
      return names.join(', ');
    };
  }
  switch (c.type) {
    case 'date':
      return (r) => {
        const v = r.fields[key];
        return typeof v === 'string' && DAY.test(v) ? v.slice(0, 10) : '';
      };
    case 'user':
      return (r) => {
        const p = id(r.fields[key]);
        return p === undefined ? '' : (userName.get(p) ?? p);
      };
    case 'list': {
      const names = new Map((c.choices ?? []).map((ch) => [String(ch.id), ch.name]));
      return (r) => {
        const p = id(r.fields[key]);
        return p === undefined ? '' : (names.get(p) ?? p);
      };
    }
    case 'hours':
      return (r) => {
        const v = r.fields[key];
        if (typeof v !== 'number' || !Number.isFinite(v)) return '';
        const m = Math.round(Math.abs(v));
        return `${v < 0 ? '-' : ''}${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}`;
      };
    case 'progress':
    case 'number':
      return (r) => {
        const v = r.fields[key];
        return typeof v === 'number' && Number.isFinite(v) ? `${number(v)}${c.type === 'progress' ? '%' : ''}` : '';
      };
    default:
      return (r) => {
        const v = r.fields[key];
        return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
      };
  }
}

/** The cells of `rows` as the export shows them, header first (hand-written formatting). */
export function plainRecords(
  rows: readonly TableRow[],
  columns: readonly ColumnDef[],
  header: readonly string[],
  userName: ReadonlyMap<string, string>,
): string[][] {
  const format = columns.map((c) => plainFormatter(c, userName));
  const out: string[][] = [header as string[]];
  for (const r of rows) {
    const cells = new Array<string>(format.length);
    for (let i = 0; i < format.length; i++) cells[i] = format[i]!(r);
    out.push(cells);
  }
  return out;
}

/**
 * papaparse's CSV writer as the table writes CSV: a BOM, CRLF after every record, and (when the
 * table neutralizes formulas) the cells starting with one of `formulaStarts` prefixed with `'`.
 */
export function papaCsv(records: readonly (readonly string[])[], formulaStarts: string): string {
  const escapeFormulae = formulaStarts === '' ? false : new RegExp(`^[${formulaStarts.replace(/[\]\\^-]/g, '\\$&')}]`);
  return `\ufeff${Papa.unparse(records as string[][], { newline: '\r\n', escapeFormulae })}\r\n`;
}
