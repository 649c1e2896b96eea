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
// and codes; the users' IDs), each giving the answer the value test gives it, and calls
// the value test only for other values (folded text, IDs read as numbers, unknown ones),
// which keeps every rule of the test; a number or date range compares the bounds. The
// values and answers are passed in, so texts of one shape share the function. These
// comparisons are joined with `&` and `|` into a 0 or 1 without a branch per value or
// condition (a count adds it up): a row matching or not at random makes branches the
// processor cannot predict, which cost more than a few comparisons. Conditions that call
// a test (text contains, a filter of many values) keep `&&` and `||`, after the cheap
// ones. The count compares only the values a sample of its rows has (a list is read as
// IDs, or as names); the others still get the value test's answer.
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

/** A value the generated code compares a field with, and the answer the value test gives it. */
type Known = readonly [value: unknown, answer: boolean];

/**
 * The generated code of a node: `cheap` code is a 0 / 1 number made without branching on
 * the row (comparisons joined with `&`, `|`), calling a value test only for a value it does
 * not know; other code is a boolean expression that calls tests (and stops at the first
 * that decides). Branches the processor cannot predict (a row matching or not at random)
 * cost more than the few comparisons, so the cheap parts of a group are all evaluated.
 */
interface Code {
  s: string;
  cheap: boolean;
}
const asBit = (c: Code): string => (c.cheap ? c.s : `(${c.s} ? 1 : 0)`);
const asBool = (c: Code): string => (c.cheap ? `(${c.s} !== 0)` : c.s);

/** The values of a forms condition, each once (the first answer of a value repeated is the one a chain of comparisons gives). */
function knownOf(inline: Extract<Inline, { kind: 'forms' }>): Known[] {
  const seen = new Set<unknown>();
  const out: Known[] = [];
  inline.values.forEach((v, i) => {
    if (seen.has(v)) return;
    seen.add(v);
    out.push([v, inline.answers[i] === true]);
  });
  return out;
}

/**
 * Which known values of a forms condition the code compares: the first MAX_INLINE, or (a
 * count) those its rows have. `strings`: other strings fail, so the values are kept.
 */
type Pick = (known: readonly Known[], key: string, strings: boolean) => readonly Known[];
const firstOnes: Pick = (known) => (known.length <= MAX_INLINE ? known : known.slice(0, MAX_INLINE));

/** The generated test and count of `top`, with the known values `pick` chooses (see the file header). */
function make(top: Built, pick: Pick): Test & { count: (rows: readonly TableRow[]) => number } {
  const matches: Match[] = [];
  const tests: Test[] = [];
  const keys: string[] = [];
  const values: unknown[] = [];
  let temps = 0;
  const value = (x: unknown) => `p${values.push(x) - 1}`;
  const read = (key: string): string => {
    if (key === 'Id') return 'r.id';
    if (IDENTIFIER.test(key) && !INHERITED.has(key)) return `g.${key}`;
    return `g[k${keys.push(key) - 1}]`;
  };
  const expr = (b: Built): Code => {
    if (typeof b === 'function') {
      const field = b.field;
      if (!field) return { s: `t${tests.push(b) - 1}(r, g)`, cheap: false };
      const m = `m${matches.push(field.match) - 1}`;
      const at = read(field.key);
      const inline = field.inline;
      if (!inline) return { s: `${m}(${at})`, cheap: false };
      const v = `v${temps}`;
      if (inline.kind === 'forms') {
        // Strings (the values a list or user field reads) are compared in a row without
        // branching: the answer of the known value equal to v, else (a string no value is)
        // the value test's, or 0 when every value is compared and other strings fail. Other
        // values: the known ones in turn, none (null, undefined) 0, the rest the value test's.
        // (Only strings reach the comparisons joined with `|`, so they stay comparisons of strings.)
        const a = `a${temps++}`;
        const known = knownOf(inline);
        const some = pick(known, field.key, inline.strings);
        const strings = inline.strings && some.length === known.length;
        const eq: string[] = [];
        const answer: string[] = [];
        let others = '';
        for (const [x, yes] of some) {
          if (typeof x === 'string') {
            eq.push(`(${v} === ${value(x)})`);
            answer.push(`(${eq[eq.length - 1]} & ${value(yes ? 1 : 0)})`);
          } else others += `${v} === ${value(x)} ? ${yes ? 1 : 0} : `;
        }
        const test = `${m}(${v}) ? 1 : 0`;
        const ofString = eq.length === 0 ? (strings ? '0' : `(${test})`) : strings ? `(${answer.join(' | ')})` : `((${a} = ${answer.join(' | ')}), (${[a, ...eq].join(' | ')}) !== 0 ? ${a} : ${test})`;
        return { s: `((${v} = ${at}), typeof ${v} === 'string' ? ${ofString} : ${others}${v} == null ? 0 : ${test})`, cheap: true };
      }
      temps++;
      const within = [
        ...(inline.min === -Infinity ? [] : [`(${v} ${inline.minX ? '>' : '>='} ${value(inline.min)})`]),
        ...(inline.max === Infinity ? [] : [`(${v} ${inline.maxX ? '<' : '<='} ${value(inline.max)})`]),
      ];
      // A date's day number is a number for every value (-1 for none), so every bound is compared;
      // a number field compares only numbers. Reading the day is a call that parses the text: not
      // cheap, so it comes after the cheap comparisons and only for the rows they let through.
      if (inline.day) return { s: `((((${v} = ${value(inline.day)}(${at})) >= 0) & ${within.length === 0 ? '1' : within.join(' & ')}) !== 0)`, cheap: false };
      // (One comparison is made a number with `| 0`: cheap code is always 0 or 1.)
      const bits = within.length === 0 ? '1' : within.length === 1 ? `(${within[0]} | 0)` : `(${within.join(' & ')})`;
      return { s: `(typeof (${v} = ${at}) === 'number' ? ${bits} : 0)`, cheap: true };
    }
    if (b.op === 'not') {
      const c = expr(b.item);
      return c.cheap ? { s: `(${c.s} ^ 1)`, cheap: true } : { s: `!${c.s}`, cheap: false };
    }
    const all = b.op === 'all';
    if (b.items.length === 0) return { s: all ? '1' : '0', cheap: true };
    const parts = b.items.map(expr);
    const cheap = parts.filter((c) => c.cheap).map((c) => c.s);
    const costly = parts.filter((c) => !c.cheap).map((c) => c.s);
    const joinedCheap = cheap.length === 0 ? [] : [`(${cheap.join(all ? ' & ' : ' | ')})`];
    if (costly.length === 0) return { s: joinedCheap[0]!, cheap: true };
    const head = joinedCheap.map((c) => `${c} !== 0`);
    return { s: `(${[...head, ...costly].join(all ? ' && ' : ' || ')})`, cheap: false };
  };
  const code = expr(top);
  const locals = (n: number, name: string, list: string) => (n === 0 ? '' : `const ${Array.from({ length: n }, (_, i) => `${name}${i} = ${list}[${i}]`).join(', ')};`);
  const names = Array.from({ length: temps }, (_, i) => `v${i}, a${i}`).join(', ');
  const lets = temps === 0 ? '' : `let ${names};`;
  const shape = `${matches.length} ${tests.length} ${keys.length} ${values.length} ${code.s}`;
  let factory = shapes.get(shape);
  if (factory) shapes.delete(shape);
  else {
    const source = [
      locals(matches.length, 'm', 'M'),
      locals(tests.length, 't', 'T'),
      locals(keys.length, 'k', 'K'),
      locals(values.length, 'p', 'P'),
      `const test = function test(r, f) { const g = typeof f === 'object' && f !== null ? f : r.fields; ${lets} return ${asBool(code)}; };`,
      `test.count = function count(rows) { let n = 0; ${lets} for (let i = 0; i < rows.length; i++) { const r = rows[i]; const g = r.fields; n += ${asBit(code)}; } return n; };`,
      'return test;',
    ].join('\n');
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    factory = new Function('M', 'T', 'K', 'P', source) as Factory;
    if (shapes.size >= MAX_SHAPES) shapes.delete(shapes.keys().next().value!);
  }
  shapes.set(shape, factory);
  return factory(matches, tests, keys, values);
}

/** One function for the whole tree (see the file header). */
function generated(top: Built): Test & { count: (rows: readonly TableRow[]) => number } {
  const made = make(top, firstOnes);
  if (!byRows(top)) return made;
  // The count compares the values its rows have (a list is read as IDs, or as names).
  made.count = (rows) => make(top, byFrequency(rows)).count(rows);
  return made;
}

/** Whether the values a count compares depend on its rows: a list's forms, or more values than the code compares. */
function byRows(b: Built): boolean {
  if (typeof b === 'function') {
    const inline = b.field?.inline;
    return inline?.kind === 'forms' && (!inline.strings || knownOf(inline).length > MAX_INLINE);
  }
  if (b.op === 'not') return byRows(b.item);
  return b.items.some(byRows);
}

/** How many rows are read to choose the values compared. */
const SAMPLE = 64;

/**
 * The known values of each forms condition that a sample of the rows has, the most frequent
 * first, at most MAX_INLINE (ties as given); when other strings fail, the first MAX_INLINE
 * of those the sample has most. Each value has one answer, so the choice changes only how
 * often the value test is called (for the values not compared).
 */
function byFrequency(rows: readonly TableRow[]): Pick {
  const step = Math.max(1, Math.floor(rows.length / SAMPLE));
  return (known, key, strings) => {
    if (strings && known.length <= MAX_INLINE) return known;
    const seen = new Array<number>(known.length).fill(0);
    for (let i = 0; i < rows.length; i += step) {
      const r = rows[i]!;
      const x = key === 'Id' ? r.id : r.fields[key];
      const at = known.findIndex(([v]) => v === x);
      if (at >= 0) seen[at]!++;
    }
    const ranked = known.map((_, i) => i).sort((a, b) => seen[b]! - seen[a]! || a - b);
    const kept = strings ? ranked : ranked.filter((i) => seen[i]! > 0);
    return kept.slice(0, MAX_INLINE).map((i) => known[i]!);
  };
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
