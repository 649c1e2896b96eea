// The compiled conditions of a table filter joined into one row test. No vscode import.
//
// A filter of a few conditions becomes one generated function that reads each field by
// name (`g.StatusTypeId`) and calls each condition's value test on it, so the engine sees
// one field read and one call per condition at sites of this filter's own, as in a loop
// written for it by hand. The function is made from its shape (the fields and how the
// conditions group), kept for the next texts of the same shape: typing `progress<1`,
// `progress<10`, `progress<100` makes one function, already optimized when the next count
// runs. Nothing of the user's text is in the generated source: field names come from the
// columns (written as identifiers only when they are plain ones, else looked up from a
// list), values stay in the compiled tests it receives. The function comes with a count
// of its own (the loop over the rows generated with it, no call per row), which
// countMatches uses. Larger filters (many conditions, as pasted texts have) are joined
// with closures instead.
//
// Conditions as cheap as a comparison are written out instead of called: a list or user
// field compares its value with the values the condition knows (the choices' IDs, names
// and codes; the users' IDs; none), each giving the answer the value test gives it, and
// calls the value test only for other values (folded text, IDs read as numbers, unknown
// ones), which keeps every rule of the test; a number or date range compares the bounds.
// The values and answers are passed in, so texts of one shape share the function. The
// count compares first the values most frequent in a sample of its rows (a list is read
// as IDs, or as names): a row then costs about the comparisons a hand-written loop makes.
import type { TableRow } from './columns';

export type Fields = Readonly<Record<string, unknown>>;

/**
 * A compiled condition: the row and its values (edited ones, with fieldsOf); without an
 * object of values (a call with the row alone, or Array.filter's index) the row's own.
 */
export type Test = (row: TableRow, f?: Fields) => boolean;
/** A test of one field's raw value (as read, or as edited). */
export type Match = (v: unknown) => boolean;
/**
 * What the generated function may test in its own code instead of calling the value test,
 * giving the same answer: `forms`: a value equal to one of `values` has its answer, the
 * first ones compared first (the rest are the value test's; with `strings`, every other
 * string fails); `range`: a number (`date`: the yyyyMMdd of a date, read by `day`) within the
 * bounds (an infinite bound is none).
 */
export type Inline =
  | { kind: 'forms'; values: readonly unknown[]; answers: readonly boolean[]; strings: boolean }
  | { kind: 'range'; min: number; max: number; minX: boolean; maxX: boolean; day?: (v: unknown) => number };
/** A row test of one field's value carries the field and the value test (the generated test reads the field by name). */
export type FieldTest = Test & { field?: { key: string; match: Match; inline?: Inline } };

/** The compiled conditions as the filter groups them. */
export type Built = FieldTest | { op: 'all' | 'any'; items: Built[] } | { op: 'not'; item: Built };

/** The most conditions a filter may have to be generated as one function (settable so tests can compare both ways). */
export const runLimits = { maxGenerated: 32 };
/** The most values a generated function compares a field with in its own code. */
const MAX_INLINE = 16;
/** How many shapes are kept (the last used). */
const MAX_SHAPES = 64;
/** A field read as `g.name`: a plain identifier that no object inherits. */
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype));

/** A row test that can also count the rows it passes in one loop (no call per row). */
export type CountingTest = ((row: TableRow) => boolean) & { count?: (rows: readonly TableRow[]) => number };
type Factory = (matches: Match[], tests: Test[], keys: string[], values: unknown[]) => Test & { count: (rows: readonly TableRow[]) => number };
const shapes = new Map<string, Factory>();

function leaves(b: Built): number {
  if (typeof b === 'function') return 1;
  if (b.op === 'not') return leaves(b.item);
  let n = 0;
  for (const x of b.items) n += leaves(x);
  return n;
}

/** The row test of the compiled conditions; `fieldsOf`: the edited values of a row. */
export function runTree(top: Built, fieldsOf: ((row: TableRow) => Fields) | undefined): CountingTest {
  const test = leaves(top) <= runLimits.maxGenerated ? generated(top) : joined(top);
  return fieldsOf ? (row) => test(row, fieldsOf(row)) : test;
}

/** One function for the whole tree (see the file header). */
function generated(top: Built): Test & { count: (rows: readonly TableRow[]) => number } {
  const matches: Match[] = [];
  const tests: Test[] = [];
  const keys: string[] = [];
  const values: unknown[] = [];
  const orders: Order[] = [];
  let temps = 0;
  const value = (x: unknown) => `p${values.push(x) - 1}`;
  const read = (key: string): string => {
    if (key === 'Id') return 'r.id';
    if (IDENTIFIER.test(key) && !INHERITED.has(key)) return `g.${key}`;
    return `g[k${keys.push(key) - 1}]`;
  };
  const expr = (b: Built): string => {
    if (typeof b === 'function') {
      const field = b.field;
      if (!field) return `t${tests.push(b) - 1}(r, g)`;
      const m = `m${matches.push(field.match) - 1}`;
      const at = read(field.key);
      const inline = field.inline;
      if (!inline) return `${m}(${at})`;
      const v = `v${temps++}`;
      if (inline.kind === 'forms') {
        // Some values in the test's own code (as many as are cheap to compare), each with its answer, the rest by the value test.
        // No value is none (false) for every such test.
        const known = [...inline.values, null, undefined];
        const answers = [...inline.answers, false, false];
        const n = Math.min(known.length, MAX_INLINE);
        const start = values.length;
        for (let i = 0; i < n; i++) values.push(known[i], answers[i] === true);
        orders.push({ key: field.key, start, n, known, answers });
        const chain = Array.from({ length: n }, (_, i) => `${v} === p${start + 2 * i} ? p${start + 2 * i + 1} : `);
        // Other strings fail only when every value is compared.
        const strings = inline.strings && n === known.length;
        return `((${v} = ${at}), ${chain.join('')}${strings ? `typeof ${v} !== 'string' && ` : ''}${m}(${v}))`;
      }
      const within = [
        ...(inline.min === -Infinity ? [] : [`${v} ${inline.minX ? '>' : '>='} ${value(inline.min)}`]),
        ...(inline.max === Infinity ? [] : [`${v} ${inline.maxX ? '<' : '<='} ${value(inline.max)}`]),
      ];
      const first = inline.day ? `(${v} = ${value(inline.day)}(${at})) >= 0` : `typeof (${v} = ${at}) === 'number'`;
      return `(${[first, ...within].join(' && ')})`;
    }
    if (b.op === 'not') return `!${expr(b.item)}`;
    if (b.items.length === 0) return b.op === 'all' ? 'true' : 'false';
    return `(${b.items.map(expr).join(b.op === 'all' ? ' && ' : ' || ')})`;
  };
  const body = expr(top);
  const locals = (n: number, name: string, list: string) => (n === 0 ? '' : `const ${Array.from({ length: n }, (_, i) => `${name}${i} = ${list}[${i}]`).join(', ')};`);
  const lets = temps === 0 ? '' : `let ${Array.from({ length: temps }, (_, i) => `v${i}`).join(', ')};`;
  const shape = `${matches.length} ${tests.length} ${keys.length} ${values.length} ${body}`;
  let factory = shapes.get(shape);
  if (factory) shapes.delete(shape);
  else {
    const source = [
      locals(matches.length, 'm', 'M'),
      locals(tests.length, 't', 'T'),
      locals(keys.length, 'k', 'K'),
      locals(values.length, 'p', 'P'),
      `const test = function test(r, f) { const g = typeof f === 'object' && f !== null ? f : r.fields; ${lets} return ${body}; };`,
      `test.count = function count(rows) { let n = 0; ${lets} for (let i = 0; i < rows.length; i++) { const r = rows[i]; const g = r.fields; if (${body}) n++; } return n; };`,
      'return test;',
    ].join('\n');
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    factory = new Function('M', 'T', 'K', 'P', source) as Factory;
    if (shapes.size >= MAX_SHAPES) shapes.delete(shapes.keys().next().value!);
  }
  shapes.set(shape, factory);
  const made = factory(matches, tests, keys, values);
  if (orders.length === 0) return made;
  // The count compares the values its rows have most first: a list field is read as IDs, or as names.
  const make = factory;
  made.count = (rows) => make(matches, tests, keys, byFrequency(values, orders, rows)).count(rows);
  return made;
}

/** The values a generated test compares a field with, at `start` in its values (value, answer, …), and all it might compare. */
interface Order {
  key: string;
  start: number;
  n: number;
  known: readonly unknown[];
  answers: readonly boolean[];
}

/** How many rows are read to order the values compared. */
const SAMPLE = 64;

/**
 * `values` with each field's compared values the ones most frequent in a sample of the
 * rows, in that order (ties as given). Each value has one answer, so the order changes
 * only how soon a row finds its own.
 */
function byFrequency(values: readonly unknown[], orders: readonly Order[], rows: readonly TableRow[]): unknown[] {
  const out = values.slice();
  const step = Math.max(1, Math.floor(rows.length / SAMPLE));
  for (const o of orders) {
    const seen = new Array<number>(o.known.length).fill(0);
    for (let i = 0; i < rows.length; i += step) {
      const r = rows[i]!;
      const x = o.key === 'Id' ? r.id : r.fields[o.key];
      const at = o.known.indexOf(x);
      if (at >= 0) seen[at]!++;
    }
    const ranked = o.known.map((_, i) => i).sort((a, b) => seen[b]! - seen[a]! || a - b);
    for (let i = 0; i < o.n; i++) {
      out[o.start + 2 * i] = o.known[ranked[i]!];
      out[o.start + 2 * i + 1] = o.answers[ranked[i]!] === true;
    }
  }
  return out;
}

/** The tree joined with closures (no generated source). */
function joined(b: Built): Test {
  if (typeof b === 'function') return b;
  if (b.op === 'not') {
    const t = joined(b.item);
    return (r, f) => !t(r, f);
  }
  const tests = b.items.map(joined);
  const n = tests.length;
  if (b.op === 'all') return (r, f) => {
    for (let i = 0; i < n; i++) if (!tests[i]!(r, f)) return false;
    return true;
  };
  return (r, f) => {
    for (let i = 0; i < n; i++) if (tests[i]!(r, f)) return true;
    return false;
  };
}
