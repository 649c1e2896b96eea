// Filters of the work item table, structured form (issue 24 §2), without vscode.
//
// A filter is a list of conditions, all of which must hold (AND). This JSON form is
// what named filters are saved as (workspace or user settings):
//   { "conditions": [ {"op": "equals", "field": "StatusTypeId", "value": "進行中"},
//                     {"op": "range", "field": "PlannedFinishDate", "max": "2026-03-01", "maxExclusive": true},
//                     {"op": "overdue"} ] }
// `field` is a column key (system name) or anything findColumn accepts (header, alias).
// Values are written as shown: list values by choice name, code or ID; users by login
// name, name, e-mail or ID; hours in hours; dates yyyy-MM-dd or "today".
// "my items": the current user is the leader or an assignee; "overdue": planned finish
// before today and progress below 100; "not started": progress 0 (or none read).
// The text form of the filter bar is parsed into this form by filter-text.ts.
import { z } from 'zod';
import { type ColumnDef, type FormatContext, type TableRow, assignmentIds, cellValue, formatCell, isEmptyCell } from './columns';
import { type UserResolver, findColumn } from './lookup';
import { foldForMatch, parseDate, parseHours, parseNumber, shiftDate } from './text';

const Field = z.string().min(1);
const Scalar = z.union([z.string(), z.number()]);
export const FilterCondition = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('contains'), field: Field, value: z.string() }),
  z.strictObject({ op: z.literal('equals'), field: Field, value: Scalar }),
  z.strictObject({ op: z.literal('in'), field: Field, values: z.array(Scalar).min(1) }),
  z.strictObject({
    op: z.literal('range'),
    field: Field,
    min: Scalar.optional(),
    max: Scalar.optional(),
    minExclusive: z.boolean().optional(),
    maxExclusive: z.boolean().optional(),
  }),
  z.strictObject({ op: z.literal('empty'), field: Field }),
  z.strictObject({ op: z.literal('notEmpty'), field: Field }),
  z.strictObject({ op: z.literal('mine') }),
  z.strictObject({ op: z.literal('overdue') }),
  z.strictObject({ op: z.literal('notStarted') }),
  z.strictObject({ op: z.literal('assignedTo'), user: z.string().min(1) }),
  z.strictObject({ op: z.literal('leaderIs'), user: z.string().min(1) }),
]);
export type FilterCondition = z.infer<typeof FilterCondition>;

export const Filter = z.strictObject({ conditions: z.array(FilterCondition) });
export type Filter = z.infer<typeof Filter>;

/** A named filter as saved in settings. */
export const NamedFilter = z.strictObject({ name: z.string().min(1), filter: Filter, description: z.string().optional() });
export type NamedFilter = z.infer<typeof NamedFilter>;

/** Checks a saved filter (untrusted JSON): the filter, or messages naming the member. */
export function readFilterJson(json: unknown): { ok: true; filter: Filter } | { ok: false; errors: string[] } {
  const r = Filter.safeParse(json);
  if (r.success) return { ok: true, filter: r.data };
  return { ok: false, errors: r.error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'the filter'}: ${i.message}`) };
}

export interface FilterContext extends FormatContext {
  /** All columns the filter may name (buildColumns). */
  columns: readonly ColumnDef[];
  /** Today, yyyy-MM-dd ("overdue", "today"). */
  today: string;
  /** The signed-in user's ID ("my items"). */
  currentUserId?: string;
  /** Users by what a person writes ("leader is", "assigned to", user columns); without it only IDs match. */
  resolveUser?: UserResolver;
  /** Edited values of a row (TableEdits.fieldsOf); without it the values as read. */
  fieldsOf?: (row: TableRow) => Readonly<Record<string, unknown>>;
}

/** A problem of one condition: its index in `conditions` and a message naming it. */
export interface FilterProblem {
  index: number;
  message: string;
}

export type RowPredicate = (row: TableRow) => boolean;

export type CompiledFilter = { ok: true; test: RowPredicate } | { ok: false; problems: FilterProblem[] };

type Fields = Readonly<Record<string, unknown>>;
type Test = (row: TableRow, f: Fields) => boolean;

const NUMERIC = new Set(['number', 'hours', 'progress']);

/** A typed value of column `c` from filter text; undefined when it is not one (the message says what was expected). */
function scalar(c: ColumnDef, v: string | number, ctx: FilterContext): { ok: true; v: number | string } | { ok: false; expected: string } {
  const s = String(v);
  if (c.type === 'hours') {
    const n = typeof v === 'number' ? Math.round(v * 60) : parseHours(s);
    return n === undefined ? { ok: false, expected: 'hours (e.g. 7.5 or 7:30)' } : { ok: true, v: n };
  }
  if (NUMERIC.has(c.type)) {
    const n = typeof v === 'number' ? v : parseNumber(s);
    return n === undefined ? { ok: false, expected: 'a number' } : { ok: true, v: n };
  }
  if (c.type === 'date') {
    const m = /^today([+-]\d+)?$/i.exec(s.trim());
    if (m) return { ok: true, v: m[1] ? shiftDate(ctx.today, Number(m[1])) : ctx.today };
    const d = parseDate(s);
    return d === undefined ? { ok: false, expected: 'a date yyyy-MM-dd or "today"' } : { ok: true, v: d };
  }
  return { ok: true, v: s };
}

/** The IDs a list or user value stands for; an empty set when nothing matches. */
function idsFor(c: ColumnDef, value: string, ctx: FilterContext): Set<string> {
  if (c.type === 'user') return new Set(ctx.resolveUser ? ctx.resolveUser(value) : [value.trim()]);
  const q = foldForMatch(value.trim());
  const out = new Set<string>();
  for (const ch of c.choices ?? []) {
    if (ch.id != null && (ch.id === value.trim() || foldForMatch(ch.name) === q || (ch.code && foldForMatch(ch.code) === q))) out.add(ch.id);
  }
  if (out.size === 0 && !(c.choices ?? []).length) out.add(value.trim());
  return out;
}

function valueTest(c: ColumnDef, values: readonly (string | number)[], ctx: FilterContext): Test | string {
  if (c.type === 'list' || c.type === 'user') {
    const ids = new Set<string>();
    for (const v of values) for (const id of idsFor(c, String(v), ctx)) ids.add(id);
    if (ids.size === 0) return c.type === 'user' ? `no user matches ${values.map((v) => JSON.stringify(String(v))).join(', ')}` : `${c.label} has no choice ${values.map((v) => JSON.stringify(String(v))).join(', ')}`;
    if (c.multi) return (_r, f) => assignmentIds(f[c.key]).some((id) => ids.has(id));
    return (r, f) => {
      const v = cellValue(r, c, f);
      return typeof v === 'string' && ids.has(v);
    };
  }
  const wanted: (string | number)[] = [];
  for (const v of values) {
    const s = scalar(c, v, ctx);
    if (!s.ok) return `${c.label} takes ${s.expected}, not ${JSON.stringify(String(v))}`;
    wanted.push(c.type === 'text' ? foldForMatch(String(s.v)) : s.v);
  }
  const set = new Set(wanted);
  if (c.type === 'text') return (r, f) => {
    const v = cellValue(r, c, f);
    return typeof v === 'string' && set.has(foldForMatch(v));
  };
  return (r, f) => {
    const v = cellValue(r, c, f);
    return v !== null && set.has(v as string | number);
  };
}

function conditionTest(cond: FilterCondition, ctx: FilterContext): Test | string {
  const column = (name: string): ColumnDef | string => findColumn(ctx.columns, name) ?? `unknown field ${JSON.stringify(name)}`;
  const byKey = (key: string) => ctx.columns.find((c) => c.key === key) ?? { key, label: key, type: 'text' as const };
  switch (cond.op) {
    case 'mine': {
      const me = ctx.currentUserId;
      if (!me) return '"my items" needs the signed-in user, who is not known';
      return (_r, f) => idOf(f.LeaderId) === me || assignmentIds(f.Assignments).includes(me);
    }
    case 'overdue': {
      const today = ctx.today;
      return (r, f) => {
        const finish = cellValue(r, byKey('PlannedFinishDate'), f);
        const p = f.ActualProgress;
        return typeof finish === 'string' && finish < today && !(typeof p === 'number' && p >= 100);
      };
    }
    case 'notStarted':
      return (_r, f) => f.ActualProgress === 0 || f.ActualProgress == null;
    case 'assignedTo':
      return valueTest({ ...byKey('Assignments'), type: 'user', multi: true }, [cond.user], ctx);
    case 'leaderIs':
      return valueTest({ ...byKey('LeaderId'), type: 'user' }, [cond.user], ctx);
    default:
      break;
  }
  const c = column(cond.field);
  if (typeof c === 'string') return c;
  switch (cond.op) {
    case 'empty':
      return (r, f) => isEmptyCell(cellValue(r, c, f));
    case 'notEmpty':
      return (r, f) => !isEmptyCell(cellValue(r, c, f));
    case 'contains': {
      const q = foldForMatch(cond.value);
      const fmt: FormatContext = ctx.userName ? { userName: ctx.userName } : {};
      // A query without ASCII and without cased letters (Japanese text) is found as written:
      // folding a cell only changes full-width ASCII and letter case.
      const plain = !/[\x20-\x7e]/.test(q) && q === q.toUpperCase();
      if (c.type === 'text' && plain) return (r, f) => {
        const v = cellValue(r, c, f);
        return typeof v === 'string' && v.includes(q);
      };
      if (c.type === 'text') return (r, f) => {
        const v = cellValue(r, c, f);
        return typeof v === 'string' && foldForMatch(v).includes(q);
      };
      return (r, f) => foldForMatch(formatCell(cellValue(r, c, f), c, fmt)).includes(q);
    }
    case 'equals':
      return valueTest(c, [cond.value], ctx);
    case 'in':
      return valueTest(c, cond.values, ctx);
    case 'range': {
      if (!NUMERIC.has(c.type) && c.type !== 'date') return `${c.label} is not a number or date field: a range cannot apply`;
      if (cond.min === undefined && cond.max === undefined) return `a range of ${c.label} needs a lower or an upper bound`;
      const lo = cond.min === undefined ? undefined : scalar(c, cond.min, ctx);
      const hi = cond.max === undefined ? undefined : scalar(c, cond.max, ctx);
      if (lo && !lo.ok) return `${c.label} takes ${lo.expected}, not ${JSON.stringify(String(cond.min))}`;
      if (hi && !hi.ok) return `${c.label} takes ${hi.expected}, not ${JSON.stringify(String(cond.max))}`;
      const min = lo?.ok ? lo.v : undefined;
      const max = hi?.ok ? hi.v : undefined;
      const minX = cond.minExclusive === true;
      const maxX = cond.maxExclusive === true;
      return (r, f) => {
        const v = cellValue(r, c, f) as number | string | null;
        if (v === null) return false;
        if (min !== undefined && (minX ? v <= min : v < min)) return false;
        if (max !== undefined && (maxX ? v >= max : v > max)) return false;
        return true;
      };
    }
  }
}

function idOf(v: unknown): string | undefined {
  if (typeof v === 'string') return v === '' || v === '0' ? undefined : v;
  return typeof v === 'number' && v !== 0 ? String(v) : undefined;
}

/** Compiles a filter once for many rows; every condition's problem is listed. An empty filter matches every row. */
export function compileFilter(filter: Filter, ctx: FilterContext): CompiledFilter {
  const tests: Test[] = [];
  const problems: FilterProblem[] = [];
  filter.conditions.forEach((cond, index) => {
    const t = conditionTest(cond, ctx);
    if (typeof t === 'string') problems.push({ index, message: t });
    else tests.push(t);
  });
  if (problems.length > 0) return { ok: false, problems };
  const fieldsOf = ctx.fieldsOf;
  const n = tests.length;
  return {
    ok: true,
    test: (row) => {
      const f = fieldsOf ? fieldsOf(row) : row.fields;
      for (let i = 0; i < n; i++) if (!tests[i]!(row, f)) return false;
      return true;
    },
  };
}

/** The rows that match, in their order. */
export function filterRows(rows: readonly TableRow[], test: RowPredicate): TableRow[] {
  return rows.filter(test);
}

/** How many rows match (the count shown as a filter is typed). */
export function countMatches(rows: readonly TableRow[], test: RowPredicate): number {
  let n = 0;
  for (const r of rows) if (test(r)) n++;
  return n;
}

/** The IDs of the matching rows, in row order, each once: the `workItemIds` of a request document. */
export function matchingIds(rows: readonly TableRow[], test: RowPredicate): string[] {
  const seen = new Set<string>();
  for (const r of rows) if (test(r)) seen.add(r.id);
  return [...seen];
}
