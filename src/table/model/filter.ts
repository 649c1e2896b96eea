// Filters of the work item table, structured form, without vscode.
//
// A filter is a list of conditions, all of which must hold (AND). This JSON form is
// what named filters are saved as (workspace or user settings):
//   { "conditions": [ {"op": "equals", "field": "StatusTypeId", "value": "進行中"},
//                     {"op": "range", "field": "PlannedFinishDate", "max": "2026-03-01", "maxExclusive": true},
//                     {"op": "overdue"} ] }
// Conditions group with three nodes, nested as deep as MAX_FILTER_DEPTH:
//   {"op": "any", "conditions": [...]}   one of them holds (OR)
//   {"op": "all", "conditions": [...]}   all of them hold (AND, inside an "any")
//   {"op": "not", "condition": {...}}    the condition does not hold
// Filters saved before these nodes existed (a flat list) read as they always did.
// `field` is a column key (system name) or anything findColumn accepts (header, alias).
// Values are written as shown: list values by choice name, code or ID; users by login
// name, name, e-mail or ID; hours in hours; dates yyyy-MM-dd or "today".
// "my items": the current user is the leader or an assignee; "overdue": planned finish
// before today and progress below 100; "not started": progress 0 (or none read).
// The text form of the filter bar is parsed into this form by filter-text.ts.
//
// Compiling turns each condition into a matcher over the raw field value with its
// values worked out once (choice forms, bounds, folded text), so counting rows on each
// keystroke converts no cell per row and condition; filter-run.ts joins them into one
// row test (a generated function with its own counting loop for filters of a few
// conditions).
import { z } from 'zod';
import { type ColumnDef, type FormatContext, type TableRow, cellValue, formatCell, isEmptyCell, toCellValue } from './columns';
import { type Built, type CountingTest, type FieldTest, type Inline, type Match, type Test, runTree } from './filter-run';
import { type UserResolver, findColumn } from './lookup';
import { type FilterMessageCode, filterMessage } from './filter-messages';
import { MAX_VALUE_TEXT, excerpt, foldForMatch, parseDate, parseHours, parseNumber, shiftDate } from './text';

const Field = z.string().min(1);
const Scalar = z.union([z.string(), z.number()]);
const LEAVES = [
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
] as const;
/** One condition on the row (a leaf of the filter). */
export const FilterCondition = z.discriminatedUnion('op', [...LEAVES]);
export type FilterCondition = z.infer<typeof FilterCondition>;

/** A condition or a group of conditions (any / all / not). */
export type FilterNode = FilterCondition | { op: 'any'; conditions: FilterNode[] } | { op: 'all'; conditions: FilterNode[] } | { op: 'not'; condition: FilterNode };
export const FilterNode: z.ZodType<FilterNode> = z.lazy(() =>
  z.discriminatedUnion('op', [
    ...LEAVES,
    z.strictObject({ op: z.literal('any'), conditions: z.array(FilterNode).min(1) }),
    z.strictObject({ op: z.literal('all'), conditions: z.array(FilterNode).min(1) }),
    z.strictObject({ op: z.literal('not'), condition: FilterNode }),
  ]),
);

export const Filter = z.strictObject({ conditions: z.array(FilterNode) });
export type Filter = z.infer<typeof Filter>;

/** How deep groups may nest (parentheses in the bar, any/all/not in JSON). */
export const MAX_FILTER_DEPTH = 32;

/** A named filter as saved in settings. */
export const NamedFilter = z.strictObject({ name: z.string().min(1), filter: Filter, description: z.string().optional() });
export type NamedFilter = z.infer<typeof NamedFilter>;

/**
 * Whether untrusted JSON nests objects and arrays deeper than a saved filter can (groups
 * up to MAX_FILTER_DEPTH, each an object and a list): checked without recursion before the
 * schema reads it, so a hostile file is a problem, not a stack overflow.
 */
export function nestsTooDeeply(json: unknown, max = MAX_FILTER_DEPTH * 2 + 8): boolean {
  const stack: [unknown, number][] = [[json, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= max) return true;
    for (const x of Array.isArray(v) ? v : Object.values(v)) if (typeof x === 'object' && x !== null) stack.push([x, depth + 1]);
  }
  return false;
}

/** The message of a saved filter nested too deeply. */
export const TOO_DEEP_JSON = `nested too deeply (groups at most ${MAX_FILTER_DEPTH} levels)`;

/** Checks a saved filter (untrusted JSON): the filter, or messages naming the member. */
export function readFilterJson(json: unknown): { ok: true; filter: Filter } | { ok: false; errors: string[] } {
  if (nestsTooDeeply(json)) return { ok: false, errors: [`the filter: ${TOO_DEEP_JSON}`] };
  const r = Filter.safeParse(json);
  if (r.success) return { ok: true, filter: r.data };
  return { ok: false, errors: r.error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'the filter'}: ${i.message}`) };
}

/** A value as a message quotes it: a short excerpt. */
const ex = (v: string | number): string => excerpt(String(v));

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

/** A problem of one condition: the index of the condition (depth first, groups not counted), a code with parameters, and the English message. */
export interface FilterProblem {
  index: number;
  code: FilterMessageCode;
  params: (string | number)[];
  message: string;
}

export type RowPredicate = (row: TableRow) => boolean;

export type CompiledFilter = { ok: true; test: RowPredicate } | { ok: false; problems: FilterProblem[] };

type Problem = { code: FilterMessageCode; params: (string | number)[] };

const NUMERIC = new Set(['number', 'hours', 'progress']);
const problem = (code: FilterMessageCode, ...params: (string | number)[]): Problem => ({ code, params });
const isProblem = (x: unknown): x is Problem => typeof x === 'object' && x !== null && 'code' in x;

/** The furthest `today+N` / `today-N` reaches, in days (100 years). */
export const MAX_TODAY_OFFSET = 36_500;

/** `today`, `today+7`, `today-3` (case ignored): the offset in days; undefined when the text is not one. */
function todayOffset(s: string): number | undefined {
  if (s.length < 5 || s.slice(0, 5).toLowerCase() !== 'today') return undefined;
  if (s.length === 5) return 0;
  const sign = s[5];
  if ((sign !== '+' && sign !== '-') || s.length === 6) return undefined;
  for (let i = 6; i < s.length; i++) if ((s.charCodeAt(i) - 48) >>> 0 > 9) return undefined;
  const n = Number(s.slice(6));
  return sign === '-' ? -n : n;
}

/** A typed value of column `c` from filter text or JSON, or the problem (`name`: the field as the user wrote it). */
function scalar(c: ColumnDef, name: string, v: string | number, ctx: FilterContext): { v: number | string } | Problem {
  const s = String(v).trim();
  if (c.type !== 'text' && s.length > MAX_VALUE_TEXT) return problem('valueTooLong', name, s.length, MAX_VALUE_TEXT);
  if (c.type === 'hours') {
    const n = typeof v === 'number' ? Math.round(v * 60) : parseHours(s);
    return n === undefined || !Number.isFinite(n) ? problem('notHours', name, ex(s)) : { v: n };
  }
  if (NUMERIC.has(c.type)) {
    const n = typeof v === 'number' ? v : parseNumber(s);
    return n === undefined || !Number.isFinite(n) ? problem('notNumber', name, ex(s)) : { v: n };
  }
  if (c.type === 'date') {
    const off = todayOffset(s);
    if (off !== undefined) return Math.abs(off) > MAX_TODAY_OFFSET ? problem('todayRange', ex(s), MAX_TODAY_OFFSET) : { v: shiftDate(ctx.today, off) };
    const d = parseDate(s);
    return d === undefined ? problem('notDate', name, ex(s)) : { v: d };
  }
  return { v: s };
}

/** The test of a row by the raw value of `c`'s field (the row's ID for the Id column); it carries the field and the value test. */
function onField(c: ColumnDef, m: Match): FieldTest {
  const key = c.key;
  const t: FieldTest = key === 'Id' ? (row) => m(row.id) : (row, f) => m((typeof f === 'object' ? f : row.fields)[key]);
  t.field = { key, match: m };
  return t;
}

/** An ID as read (a string, or a number), as a string; undefined for none ("", "0", 0). */
function idText(v: unknown): string | undefined {
  if (typeof v === 'string') return v === '' || v === '0' ? undefined : v;
  return typeof v === 'number' && Number.isFinite(v) && v !== 0 ? String(v) : undefined;
}

/**
 * The date part of a date or date-time value as the number yyyyMMdd (2026-03-01 → 20260301),
 * read from the characters (no string made, no Date); -1 when it is not a date. Compares as
 * the dates do.
 */
function dayKey(v: unknown): number {
  if (typeof v !== 'string' || v.length < 10 || v.charCodeAt(4) !== 45 || v.charCodeAt(7) !== 45) return -1;
  const y0 = v.charCodeAt(0) - 48;
  const y1 = v.charCodeAt(1) - 48;
  const y2 = v.charCodeAt(2) - 48;
  const y3 = v.charCodeAt(3) - 48;
  const m0 = v.charCodeAt(5) - 48;
  const m1 = v.charCodeAt(6) - 48;
  const d0 = v.charCodeAt(8) - 48;
  const d1 = v.charCodeAt(9) - 48;
  // (x >>> 0) > 9 for a character outside 0-9 (below it, x is negative).
  if ((y0 >>> 0) > 9 || (y1 >>> 0) > 9 || (y2 >>> 0) > 9 || (y3 >>> 0) > 9 || (m0 >>> 0) > 9 || (m1 >>> 0) > 9 || (d0 >>> 0) > 9 || (d1 >>> 0) > 9) return -1;
  return ((((((y0 * 10 + y1) * 10 + y2) * 10 + y3) * 10 + m0) * 10 + m1) * 10 + d0) * 10 + d1;
}

/**
 * Whether a list cell's value (as read or edited: the choice's ID, name or code, whatever
 * form the service answers) is one of the wanted choices.
 */
function listDecider(c: ColumnDef, name: string, values: readonly (string | number)[]): Decider | Problem {
  const choices = c.choices ?? [];
  const typed = values.map((v) => String(v).trim());
  const folded = new Set(typed.map(foldForMatch));
  const wanted = new Set<number>();
  choices.forEach((ch, i) => {
    if ((ch.id != null && typed.includes(ch.id)) || folded.has(foldForMatch(ch.name)) || (!!ch.code && folded.has(foldForMatch(ch.code)))) wanted.add(i);
  });
  if (choices.length > 0 && wanted.size === 0) return problem('noChoice', name, typed.map(ex).join('", "'));
  // The choice a cell's text stands for: an ID first, then a name, then a code.
  const byForm = new Map<string, number>();
  for (const pick of [(ch: (typeof choices)[number]) => ch.id, (ch: (typeof choices)[number]) => ch.name, (ch: (typeof choices)[number]) => ch.code]) {
    choices.forEach((ch, i) => {
      const form = pick(ch);
      if (form != null && form !== '' && !byForm.has(form)) byForm.set(form, i);
    });
  }
  const decide: Decider = (v) => {
    const i = byForm.get(v);
    return i !== undefined ? wanted.has(i) : folded.has(foldForMatch(v));
  };
  decide.forms = [...byForm.keys()];
  return decide;
}

/** Whether a value (as text) is wanted; `forms`: the values it knows (the choices' IDs, names and codes). */
type Decider = ((v: string) => boolean) & { forms?: readonly string[] };

/**
 * A row test of an ID-like field (a list choice, a user) by `decide`, remembered per distinct
 * value: the first few in a small list (a list field has few values), the rest in a map.
 * IDs read as numbers are tested as text; "", "0" and 0 are none.
 */
function memoTest(c: ColumnDef, decide: Decider): Test {
  const seen: unknown[] = [];
  const answers: boolean[] = [];
  const more = new Map<string, boolean>();
  const t = onField(c, (raw) => {
    for (let i = 0; i < seen.length; i++) if (seen[i] === raw) return answers[i]!;
    const v = idText(raw);
    if (v === undefined) return false;
    let m = more.get(v);
    if (m === undefined) {
      m = decide(v);
      if (seen.length < 8 && typeof raw === 'string') {
        seen.push(raw);
        answers.push(m);
      } else if (more.size < 100_000) more.set(v, m);
    }
    return m;
  });
  // The generated test compares the known forms in its own code, each with the answer the test gives it.
  const forms = decide.forms ?? [];
  return inlined(t, { kind: 'forms', values: forms, answers: forms.map((x) => idText(x) !== undefined && decide(x)), strings: false });
}

/** `t` with what the generated test may compare in its own code instead of calling it. */
function inlined(t: FieldTest, inline: Inline): FieldTest {
  t.field!.inline = inline;
  return t;
}

/**
 * Value tests of a list or user field carry their values, so that an OR of several on one
 * field (status:a OR status:b) becomes one test of all the values.
 */
type ValuesTest = FieldTest & { anyOf?: { key: string; values: readonly (string | number)[]; build: (values: readonly (string | number)[]) => Test } };

function valueTest(c: ColumnDef, name: string, values: readonly (string | number)[], ctx: FilterContext): ValuesTest | Problem {
  const t = valueTestOf(c, name, values, ctx);
  if (!isProblem(t) && (c.type === 'list' || c.type === 'user') && !c.multi) {
    (t as ValuesTest).anyOf = { key: c.key, values, build: (all) => valueTestOf(c, name, all, ctx) as Test };
  }
  return t;
}

/** The tests of an OR with the value tests of one field joined into one test of all their values. */
function joinValues(tests: Built[]): Built[] {
  const out: Built[] = [];
  for (const t of tests) {
    const a = typeof t === 'function' ? (t as ValuesTest).anyOf : undefined;
    const at = a ? out.findIndex((o) => typeof o === 'function' && (o as ValuesTest).anyOf?.key === a.key) : -1;
    if (!a || at < 0) {
      out.push(t);
      continue;
    }
    const first = (out[at] as ValuesTest).anyOf!;
    const values = [...first.values, ...a.values];
    const joined: ValuesTest = first.build(values);
    joined.anyOf = { key: a.key, values, build: first.build };
    out[at] = joined;
  }
  return out;
}

function valueTestOf(c: ColumnDef, name: string, values: readonly (string | number)[], ctx: FilterContext): Test | Problem {
  if (c.type === 'user') {
    const ids = new Set<string>();
    for (const v of values) for (const id of ctx.resolveUser ? ctx.resolveUser(String(v)) : [String(v).trim()]) ids.add(id);
    if (ids.size === 0) return problem('noUser', values.map(ex).join('", "'));
    if (c.multi) return onField(c, (list) => {
      if (!Array.isArray(list)) return false;
      for (const a of list) {
        const id = idText(typeof a === 'object' && a !== null ? (a as { partyId?: unknown }).partyId : a);
        if (id !== undefined && ids.has(id)) return true;
      }
      return false;
    });
    if (ids.size === 1) {
      const only = [...ids][0]!;
      return inlined(onField(c, (raw) => raw === only || (typeof raw === 'number' && idText(raw) === only)), { kind: 'forms', values: [only], answers: [true], strings: true });
    }
    const wanted = [...ids].filter((id) => idText(id) !== undefined);
    return inlined(
      onField(c, (raw) => {
        const id = idText(raw);
        return id !== undefined && ids.has(id);
      }),
      { kind: 'forms', values: wanted, answers: wanted.map(() => true), strings: true },
    );
  }
  if (c.type === 'list') {
    const decide = listDecider(c, name, values);
    return isProblem(decide) ? decide : memoTest(c, decide);
  }
  const wanted: (string | number)[] = [];
  for (const v of values) {
    const s = scalar(c, name, v, ctx);
    if (isProblem(s)) return s;
    wanted.push(c.type === 'text' ? foldForMatch(String(s.v)) : c.type === 'date' ? dayKey(s.v) : s.v);
  }
  const set = new Set(wanted);
  if (c.type === 'text') return onField(c, (raw) => {
    const v = textOf(raw);
    return v !== undefined && set.has(foldForMatch(v));
  });
  if (c.type === 'date') return onField(c, (raw) => set.has(dayKey(raw)));
  return onField(c, (v) => typeof v === 'number' && set.has(v));
}

/** A text cell's value as read: strings (not empty), numbers and booleans as text. */
function textOf(v: unknown): string | undefined {
  if (typeof v === 'string') return v === '' ? undefined : v;
  return typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
}

/** The bounds of a range as numbers (dates as yyyyMMdd); a missing bound is an infinite one. */
interface Bounds {
  key: string;
  date: boolean;
  min: number;
  max: number;
  minX: boolean;
  maxX: boolean;
}

/** Range tests carry their bounds, so that two ranges of one field in an AND (a>=x a<y) become one test. */
type RangeTest = FieldTest & { bounds?: Bounds };

function rangeTest(c: ColumnDef, name: string, cond: Extract<FilterCondition, { op: 'range' }>, ctx: FilterContext): RangeTest | Problem {
  if (!NUMERIC.has(c.type) && c.type !== 'date') return problem('rangeField', name);
  if (cond.min === undefined && cond.max === undefined) return problem('rangeBound', name);
  const lo = cond.min === undefined ? undefined : scalar(c, name, cond.min, ctx);
  const hi = cond.max === undefined ? undefined : scalar(c, name, cond.max, ctx);
  if (isProblem(lo)) return lo;
  if (isProblem(hi)) return hi;
  const date = c.type === 'date';
  const bound = (b: { v: number | string } | undefined, none: number): number => (b === undefined ? none : date ? dayKey(b.v) : (b.v as number));
  return boundsTest({ key: c.key, date, min: bound(lo, -Infinity), max: bound(hi, Infinity), minX: cond.minExclusive === true, maxX: cond.maxExclusive === true });
}

function boundsTest(b: Bounds): RangeTest {
  const { min, max, minX, maxX } = b;
  // NaN fails every comparison; a number read is never infinite.
  const t: RangeTest = inlined(onField(
    { key: b.key, label: b.key, type: b.date ? 'date' : 'number' },
    b.date
      ? (raw) => {
          const v = dayKey(raw);
          return v >= 0 && (minX ? v > min : v >= min) && (maxX ? v < max : v <= max);
        }
      : (v) => typeof v === 'number' && (minX ? v > min : v >= min) && (maxX ? v < max : v <= max),
  ), { kind: 'range', min, max, minX, maxX, ...(b.date ? { day: dayKey } : {}) });
  t.bounds = b;
  return t;
}

/** The tests of an AND with the ranges of one field joined into one test (the tighter bound of each side). */
function joinRanges(tests: Built[]): Built[] {
  const out: Built[] = [];
  for (const t of tests) {
    const b = typeof t === 'function' ? (t as RangeTest).bounds : undefined;
    const at = b ? out.findIndex((o) => typeof o === 'function' && (o as RangeTest).bounds?.key === b.key && (o as RangeTest).bounds!.date === b.date) : -1;
    if (!b || at < 0) {
      out.push(t);
      continue;
    }
    const a = (out[at] as RangeTest).bounds!;
    const min = b.min > a.min ? b.min : a.min;
    const max = b.max < a.max ? b.max : a.max;
    out[at] = boundsTest({
      key: a.key,
      date: a.date,
      min,
      max,
      minX: (a.min === min && a.minX) || (b.min === min && b.minX),
      maxX: (a.max === max && a.maxX) || (b.max === max && b.maxX),
    });
  }
  return out;
}

function containsTest(c: ColumnDef, value: string, ctx: FilterContext): Test {
  const q = foldForMatch(value);
  if (c.type === 'text') return onField(c, (raw) => {
    const v = textOf(raw);
    return v !== undefined && foldForMatch(v).includes(q);
  });
  const fmt: FormatContext = ctx.userName ? { userName: ctx.userName } : {};
  return (r, f) => foldForMatch(formatCell(cellValue(r, c, f), c, fmt)).includes(q);
}

function conditionTest(cond: FilterCondition, ctx: FilterContext, typedName: string | undefined): Built | Problem {
  const byKey = (key: string) => ctx.columns.find((c) => c.key === key) ?? { key, label: key, type: 'text' as const };
  switch (cond.op) {
    case 'mine': {
      const me = ctx.currentUserId;
      if (!me) return problem('mineNoUser');
      const only = { ...ctx, resolveUser: () => [me] };
      const leader = valueTest({ ...byKey('LeaderId'), type: 'user' }, '', [me], only) as Test;
      const assigned = valueTest({ ...byKey('Assignments'), type: 'user', multi: true }, '', [me], only) as Test;
      return { op: 'any', items: [leader, assigned] };
    }
    case 'overdue': {
      const finish = byKey('PlannedFinishDate');
      const before = rangeTest({ ...finish, type: 'date' }, '', { op: 'range', field: finish.key, max: ctx.today, maxExclusive: true }, ctx) as Test;
      const open = onField(byKey('ActualProgress'), (p) => !(typeof p === 'number' && p >= 100));
      return { op: 'all', items: [before, open] };
    }
    case 'notStarted':
      return onField(byKey('ActualProgress'), (p) => p === 0 || p == null);
    case 'assignedTo':
      return valueTest({ ...byKey('Assignments'), type: 'user', multi: true }, typedName ?? 'Assignments', [cond.user], ctx);
    case 'leaderIs':
      return valueTest({ ...byKey('LeaderId'), type: 'user' }, typedName ?? 'LeaderId', [cond.user], ctx);
    default:
      break;
  }
  const name = typedName ?? cond.field;
  const c = findColumn(ctx.columns, cond.field);
  if (!c) return problem('unknownField', ex(name));
  switch (cond.op) {
    case 'empty':
      return onField(c, (raw) => isEmptyCell(toCellValue(raw, c)));
    case 'notEmpty':
      return onField(c, (raw) => !isEmptyCell(toCellValue(raw, c)));
    case 'contains':
      return containsTest(c, cond.value, ctx);
    case 'equals':
      return valueTest(c, name, [cond.value], ctx);
    case 'in':
      return valueTest(c, name, cond.values, ctx);
    case 'range':
      return rangeTest(c, name, cond, ctx);
  }
}

/**
 * Compiles a filter once for many rows; every condition's problem is listed (by its
 * index: conditions counted depth first, groups not counted). `names`: the field of each
 * condition as the user wrote it (messages keep it); else the field as saved. An empty
 * filter matches every row.
 */
export function compileFilter(filter: Filter, ctx: FilterContext, names: readonly (string | undefined)[] = []): CompiledFilter {
  const problems: FilterProblem[] = [];
  let index = 0;
  const report = (i: number, p: Problem) => problems.push({ index: i, code: p.code, params: p.params, message: filterMessage(p.code, p.params) });
  const node = (n: FilterNode, depth: number): Built => {
    if (depth > MAX_FILTER_DEPTH) {
      report(index, problem('tooDeep', MAX_FILTER_DEPTH));
      return () => false;
    }
    if (n.op === 'not') return { op: 'not', item: node(n.condition, depth + 1) };
    if (n.op === 'all' || n.op === 'any') return group(n.op, n.conditions, depth + 1);
    const i = index++;
    const t = conditionTest(n, ctx, names[i]);
    if (isProblem(t)) {
      report(i, t);
      return () => false;
    }
    return t;
  };
  const group = (op: 'all' | 'any', list: readonly FilterNode[], depth: number): Built => {
    const each = list.map((x) => node(x, depth));
    const items = op === 'all' ? joinRanges(each) : joinValues(each);
    return items.length === 1 ? items[0]! : { op, items };
  };
  const top = filter.conditions.length === 0 ? () => true : group('all', filter.conditions, 0);
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, test: runTree(top, ctx.fieldsOf) };
}

/** The rows that match, in their order. */
export function filterRows(rows: readonly TableRow[], test: RowPredicate): TableRow[] {
  return rows.filter((r) => test(r));
}

/** How many rows match (the count shown as a filter is typed). */
export function countMatches(rows: readonly TableRow[], test: RowPredicate): number {
  const count = (test as CountingTest).count;
  if (count) return count(rows);
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
