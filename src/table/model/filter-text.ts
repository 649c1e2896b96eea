// The typed form of table filters (the filter bar), parsed into the structured form
// of filter.ts. No vscode import.
//
// Grammar (terms separated by spaces; AND binds tighter than OR, as in JQL):
//
//   filter    := or?                        an empty text matches every row
//   or        := and (OR and)*              OR: "OR", "or", "または", "|"
//   and       := unary (AND? unary)*        side by side means AND; "AND", "and", "かつ" may be written
//   unary     := NOT unary | "-" unary | primary      NOT: "NOT", "not"; "-" sticks to what follows (-status:完了)
//   primary   := "(" or ")" | term          at most MAX_FILTER_DEPTH levels of parentheses
//   term      := keyword | field op values
//   keyword   := mine | overdue | notstarted | is:mine | is:overdue | is:notstarted
//                | 自分 | 期限切れ | 未着手
//   field     := word | quoted              system name (StatusTypeId), header (Status, ステータス)
//                                           or alias: status leader assignee start finish/end/due
//                                           time/hours progress type name code parent folder id
//   op        := ":"  text: contains; other fields: equals; several values: any of them
//              | "="  equals (text exactly, case and width ignored); several values: any of them
//              | "<" | "<=" | ">" | ">="   range (number, hours, progress, date fields)
//   values    := value ("," value)*
//   value     := word | quoted | empty | notempty     (field:empty / field:notempty test for no value)
//   word      := characters other than spaces, quotes, parentheses, ":", "=", "<", ">", ","
//                (a value may hold ":": 7:30); a value with parentheses is quoted: name:"(株)"
//   quoted    := '"' characters '"'         a quote inside is written "" (two quotes)
//
// Full-width characters are read as their ASCII forms (全角 ：＜＞＝，（）"１２" and the
// ideographic space), so `進捗＜１００` is `進捗<100`. Dates are yyyy-MM-dd (or
// yyyy/M/d), "today" or "today+7" / "today-3"; hours are in hours (7.5 or 7:30);
// list values (status, type, custom lists) by name, code or ID; users by login name,
// name or ID. Text is compared with NFKC folding and case ignored (ﾃｽﾄ finds テスト).
//
// Examples: status:"進行中" leader:suzuki finish<2026-03-01 progress<100
//           (status:未着手 OR status:保留) -leader:suzuki
//
// The scanner reads the text once, left to right; errors quote short excerpts only and
// at most MAX_ERRORS of them are listed, so a pasted 1 MB text answers at once.
import type { ColumnDef } from './columns';
import {
  type CompiledFilter,
  type Filter,
  type FilterCondition,
  type FilterContext,
  type FilterNode,
  MAX_FILTER_DEPTH,
  compileFilter,
} from './filter';
import { type FilterMessageCode, filterMessage } from './filter-messages';
import { findColumn } from './lookup';
import { excerpt, foldWidth } from './text';

/** A part of the typed text: [start, end) in UTF-16 positions of the text as typed. */
export interface TextSpan {
  start: number;
  end: number;
}

/**
 * A problem of the typed text, at a position (0-based; the message names it 1-based,
 * "at column 5"): a code of FILTER_MESSAGES with its parameters (the UI words it in its
 * language) and the English message.
 */
export interface FilterTextError extends TextSpan {
  code: FilterMessageCode;
  params: (string | number)[];
  message: string;
}

export type FilterTextResult =
  | { ok: true; filter: Filter; spans: TextSpan[]; names: (string | undefined)[] }
  | { ok: false; errors: FilterTextError[] };

/** The most errors one text lists (the first ones, in the text's order). */
export const MAX_ERRORS = 10;

const KEYWORDS: Readonly<Record<string, FilterCondition['op']>> = {
  mine: 'mine', overdue: 'overdue', notstarted: 'notStarted',
  'is:mine': 'mine', 'is:overdue': 'overdue', 'is:notstarted': 'notStarted',
  自分: 'mine', 期限切れ: 'overdue', 未着手: 'notStarted',
};
const OR_WORDS = new Set(['or', 'または', '|']);
const AND_WORDS = new Set(['and', 'かつ']);
const NOT_WORDS = new Set(['not']);

const STOP = new Set([' ', '\t', '\n', '\r', '"', ':', '=', '<', '>', ',', '(', ')']);
const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v' || c === '\u00a0';

interface Word {
  text: string;
  quoted: boolean;
  start: number;
  end: number;
}

const at = (start: number, end: number, code: FilterMessageCode, ...params: (string | number)[]): FilterTextError => ({
  start,
  end,
  code,
  params,
  message: `${filterMessage(code, params)} (at column ${start + 1})`,
});

type Token =
  | { kind: '(' | ')' | 'or' | 'and' | 'not'; start: number; end: number; text: string }
  | { kind: 'term'; start: number; end: number; node: FilterCondition; name: string | undefined };

class Scanner {
  pos = 0;
  constructor(readonly s: string) {}
  get done(): boolean {
    return this.pos >= this.s.length;
  }
  peek(): string {
    return this.s[this.pos] ?? '';
  }
  skipSpace(): void {
    while (!this.done && isSpace(this.peek())) this.pos++;
  }
  /** Skips the rest of a term in error: up to a space or a parenthesis. */
  skipTerm(): void {
    while (!this.done && !isSpace(this.peek()) && this.peek() !== '(' && this.peek() !== ')') this.pos++;
  }
  /** A word or a quoted string; undefined (and nothing read) when neither starts here. */
  word(inValue = false): Word | { error: FilterTextError } | undefined {
    const start = this.pos;
    if (this.peek() === '"') {
      const parts: string[] = [];
      this.pos++;
      let from = this.pos;
      for (;;) {
        const q = this.s.indexOf('"', this.pos);
        if (q < 0) {
          this.pos = this.s.length;
          return { error: at(start, this.pos, 'quoteOpen', start + 1) };
        }
        parts.push(this.s.slice(from, q));
        this.pos = q + 1;
        if (this.peek() === '"') {
          parts.push('"');
          this.pos++;
          from = this.pos;
          continue;
        }
        return { text: parts.join(''), quoted: true, start, end: this.pos };
      }
    }
    while (!this.done && !(STOP.has(this.peek()) && !(inValue && this.peek() === ':'))) this.pos++;
    return this.pos > start ? { text: this.s.slice(start, this.pos), quoted: false, start, end: this.pos } : undefined;
  }
  op(): string | undefined {
    const two = this.s.slice(this.pos, this.pos + 2);
    if (two === '<=' || two === '>=') {
      this.pos += 2;
      return two;
    }
    const c = this.peek();
    if (c === ':' || c === '=' || c === '<' || c === '>') {
      this.pos++;
      return c;
    }
    return undefined;
  }
}

/** The tokens of the text (parentheses, OR / AND / NOT, terms), and the errors of terms. */
function tokenize(s: string, columns: readonly ColumnDef[], errors: FilterTextError[]): Token[] {
  const sc = new Scanner(s);
  const tokens: Token[] = [];
  const fail = (e: FilterTextError) => {
    errors.push(e);
    sc.skipTerm();
  };
  while (errors.length < MAX_ERRORS) {
    sc.skipSpace();
    if (sc.done) break;
    const start = sc.pos;
    const c = sc.peek();
    if (c === '(' || c === ')') {
      sc.pos++;
      tokens.push({ kind: c, start, end: sc.pos, text: c });
      continue;
    }
    if (c === '-' && sc.pos + 1 < s.length && !isSpace(s[sc.pos + 1]!)) {
      sc.pos++;
      tokens.push({ kind: 'not', start, end: sc.pos, text: '-' });
      continue;
    }
    const w = sc.word();
    if (w === undefined) {
      sc.pos++;
      fail(at(start, start + 1, 'expectedCondition', c));
      continue;
    }
    if ('error' in w) {
      errors.push(w.error);
      break;
    }
    const lower = w.text.toLowerCase();
    if (!w.quoted && lower === 'is' && sc.peek() === ':') {
      sc.pos++;
      const k = sc.word();
      const key = k && !('error' in k) ? `is:${k.text.toLowerCase()}` : 'is:';
      const op = KEYWORDS[key];
      if (op === undefined) fail(at(start, sc.pos, 'unknownIs', excerpt(key)));
      else tokens.push({ kind: 'term', start, end: sc.pos, node: { op } as FilterCondition, name: undefined });
      continue;
    }
    const op = sc.op();
    if (op === undefined) {
      const kind = w.quoted ? undefined : OR_WORDS.has(lower) ? 'or' : AND_WORDS.has(lower) ? 'and' : NOT_WORDS.has(lower) ? 'not' : undefined;
      if (kind) {
        tokens.push({ kind, start, end: w.end, text: w.text });
        continue;
      }
      const k = w.quoted ? undefined : KEYWORDS[lower];
      if (k === undefined) fail(at(start, w.end, 'notCondition', excerpt(w.text)));
      else tokens.push({ kind: 'term', start, end: w.end, node: { op: k } as FilterCondition, name: undefined });
      continue;
    }
    const term = readTerm(sc, w, op, columns);
    if ('code' in term) fail(term);
    else tokens.push(term);
  }
  return tokens;
}

/** The rest of a term after `field op`: its values, as a condition. */
function readTerm(sc: Scanner, w: Word, op: string, columns: readonly ColumnDef[]): Token | FilterTextError {
  const column = findColumn(columns, w.text);
  if (!column) return at(w.start, w.end, 'unknownField', excerpt(w.text));
  const values: Word[] = [];
  for (;;) {
    const vStart = sc.pos;
    const v = sc.word(true);
    if (v === undefined) return at(vStart, vStart + 1, 'valueMissing', `${excerpt(w.text)}${op}`);
    if ('error' in v) return v.error;
    values.push(v);
    if (sc.peek() !== ',') break;
    sc.pos++;
  }
  if (!sc.done && !isSpace(sc.peek()) && sc.peek() !== ')') {
    return at(sc.pos, sc.pos + 1, 'unexpectedAfter', sc.peek(), excerpt(w.text));
  }
  const field = column.key;
  const single = values.length === 1 ? values[0]! : undefined;
  const term = (node: FilterCondition): Token => ({ kind: 'term', start: w.start, end: sc.pos, node, name: w.text });
  if (op === '<' || op === '<=' || op === '>' || op === '>=') {
    if (!single) return at(values[1]!.start, values[1]!.end, 'rangeList');
    if (op[0] === '<') return term({ op: 'range', field, max: single.text, ...(op === '<' ? { maxExclusive: true } : {}) });
    return term({ op: 'range', field, min: single.text, ...(op === '>' ? { minExclusive: true } : {}) });
  }
  if (single && !single.quoted && op === ':') {
    const l = single.text.toLowerCase();
    if (l === 'empty' || l === '空') return term({ op: 'empty', field });
    if (l === 'notempty' || l === '!empty') return term({ op: 'notEmpty', field });
  }
  if (!single) return term({ op: 'in', field, values: values.map((v) => v.text) });
  if (field === 'LeaderId') return term({ op: 'leaderIs', user: single.text });
  if (field === 'Assignments') return term({ op: 'assignedTo', user: single.text });
  if (op === ':' && column.type === 'text') return term({ op: 'contains', field, value: single.text });
  return term({ op: 'equals', field, value: single.text });
}

/** Groups the tokens by the grammar's rules (parentheses, NOT, AND, OR); the terms' spans in order. */
class Grouper {
  i = 0;
  readonly spans: TextSpan[] = [];
  readonly names: (string | undefined)[] = [];
  constructor(
    readonly tokens: readonly Token[],
    readonly errors: FilterTextError[],
    readonly length: number,
  ) {}
  private get next(): Token | undefined {
    return this.tokens[this.i];
  }
  private endOfText(): TextSpan {
    return { start: this.length, end: this.length };
  }
  /** or := and (OR and)*; undefined after an error. */
  or(depth: number): FilterNode[] | undefined {
    const branches: FilterNode[][] = [];
    for (;;) {
      const t = this.next;
      if (t?.kind === 'or') {
        this.errors.push(at(t.start, t.end, 'orOperand', excerpt(t.text)));
        return undefined;
      }
      const and = this.and(depth);
      if (!and) return undefined;
      branches.push(and);
      const o = this.next;
      if (o?.kind !== 'or') break;
      this.i++;
      const after = this.next;
      if (!after || after.kind === ')' || after.kind === 'or') {
        const where = after ?? this.endOfText();
        this.errors.push(at(o.start, Math.max(o.end, where.start), 'orOperand', excerpt(o.text)));
        return undefined;
      }
    }
    if (branches.length === 1) return branches[0]!;
    return [{ op: 'any', conditions: branches.map((b) => (b.length === 1 ? b[0]! : { op: 'all', conditions: b })) }];
  }
  /** and := unary (AND? unary)*, up to OR, ")" or the end. */
  private and(depth: number): FilterNode[] | undefined {
    const out: FilterNode[] = [];
    for (;;) {
      const t = this.next;
      if (!t || t.kind === 'or' || t.kind === ')') break;
      if (t.kind === 'and') {
        this.i++;
        if (out.length === 0 || !this.next || this.next.kind === 'or' || this.next.kind === ')') {
          this.errors.push(at(t.start, t.end, 'orOperand', excerpt(t.text)));
          return undefined;
        }
        continue;
      }
      const u = this.unary(depth);
      if (!u) return undefined;
      out.push(u);
    }
    return out;
  }
  /** unary := (NOT | "-")* primary, read in a loop (a long run of NOTs is no deep recursion). */
  private unary(depth: number): FilterNode | undefined {
    let negations = 0;
    let first: TextSpan & { text: string } | undefined;
    for (let t = this.next; t?.kind === 'not'; t = this.next) {
      first ??= t;
      negations++;
      this.i++;
    }
    const t = this.next;
    if (first && (!t || t.kind === ')' || t.kind === 'or' || t.kind === 'and')) {
      this.errors.push(at(first.start, first.end, 'notOperand', excerpt(first.text)));
      return undefined;
    }
    const p = this.primary(depth);
    if (!p) return undefined;
    return negations % 2 === 1 ? { op: 'not', condition: p } : p;
  }
  private primary(depth: number): FilterNode | undefined {
    const t = this.next!;
    if (t.kind === 'term') {
      this.i++;
      this.spans.push({ start: t.start, end: t.end });
      this.names.push(t.name);
      return t.node;
    }
    // t is "(" here: and() stops at ")" / OR, unary() at the ends of NOT.
    if (depth >= MAX_FILTER_DEPTH) {
      this.errors.push(at(t.start, t.end, 'tooDeep', MAX_FILTER_DEPTH));
      return undefined;
    }
    this.i++;
    if (this.next?.kind === ')') {
      this.errors.push(at(t.start, this.next.end, 'emptyGroup'));
      return undefined;
    }
    const inner = this.or(depth + 1);
    if (!inner) return undefined;
    if (this.tokens[this.i]?.kind !== ')') {
      this.errors.push(at(t.start, t.end, 'parenOpen'));
      return undefined;
    }
    this.i++;
    return inner.length === 1 ? inner[0]! : { op: 'all', conditions: inner };
  }
}

/** Parses the filter bar's text against the table's columns; every error names its position. */
export function parseFilterText(text: string, columns: readonly ColumnDef[]): FilterTextResult {
  const s = foldWidth(text);
  const errors: FilterTextError[] = [];
  const tokens = tokenize(s, columns, errors);
  if (errors.length > 0) return { ok: false, errors };
  const g = new Grouper(tokens, errors, s.length);
  const conditions = g.or(0);
  if (conditions && g.i < tokens.length) {
    const t = tokens[g.i]!;
    errors.push(at(t.start, t.end, 'parenClose'));
  }
  if (!conditions || errors.length > 0) return { ok: false, errors };
  return { ok: true, filter: { conditions }, spans: g.spans, names: g.names };
}

/**
 * The bar's text with one more condition `term` ANDed to all of it: a text with an OR
 * outside parentheses is put in parentheses first (`a OR b` and `c` is `(a OR b) c`, not
 * `a OR (b c)`). One pass over the text, quotes and parentheses followed.
 */
export function andFilterText(text: string, term: string): string {
  const t = text.trim();
  if (t === '') return term;
  const s = foldWidth(t);
  let depth = 0;
  let topOr = false;
  for (let i = 0; i < s.length && !topOr; ) {
    const c = s[i]!;
    if (c === '"') {
      const q = s.indexOf('"', i + 1);
      i = q < 0 ? s.length : q + 1;
      continue;
    }
    if (c === '(' || c === ')') {
      depth += c === '(' ? 1 : -1;
      i++;
      continue;
    }
    if (isSpace(c)) {
      i++;
      continue;
    }
    let j = i;
    while (j < s.length && !isSpace(s[j]!) && s[j] !== '(' && s[j] !== ')' && s[j] !== '"') j++;
    if (depth <= 0 && OR_WORDS.has(s.slice(i, j).toLowerCase())) topOr = true;
    i = j;
  }
  return topOr ? `(${t}) ${term}` : `${t} ${term}`;
}

const KEYWORD_WORDS = new Set([...OR_WORDS, ...AND_WORDS, ...NOT_WORDS]);

function quote(s: string): string {
  const plain = s !== '' && !KEYWORD_WORDS.has(s.toLowerCase()) && !s.startsWith('-') && ![...s].some((c) => STOP.has(c) || isSpace(c));
  return plain ? s : `"${s.replace(/"/g, '""')}"`;
}

/** A condition's terms (a range with both bounds is two). */
function leafTerms(c: FilterCondition): string[] {
  switch (c.op) {
    case 'mine':
    case 'overdue':
      return [c.op];
    case 'notStarted':
      return ['notstarted'];
    case 'leaderIs':
      return [`LeaderId:${quote(c.user)}`];
    case 'assignedTo':
      return [`Assignments:${quote(c.user)}`];
    case 'empty':
      return [`${quote(c.field)}:empty`];
    case 'notEmpty':
      return [`${quote(c.field)}:notempty`];
    case 'contains':
      return [`${quote(c.field)}:${quote(c.value)}`];
    case 'equals':
      return [`${quote(c.field)}=${quote(String(c.value))}`];
    case 'in':
      return [`${quote(c.field)}=${c.values.map((v) => quote(String(v))).join(',')}`];
    case 'range': {
      const parts: string[] = [];
      if (c.min !== undefined) parts.push(`${quote(c.field)}${c.minExclusive ? '>' : '>='}${quote(String(c.min))}`);
      if (c.max !== undefined) parts.push(`${quote(c.field)}${c.maxExclusive ? '<' : '<='}${quote(String(c.max))}`);
      return parts;
    }
  }
}

/** A node as text where it stands: in an AND list, an OR list or after NOT (parentheses where the grammar needs them). */
function formatNode(n: FilterNode, where: 'and' | 'or' | 'not'): string {
  if (n.op === 'not') return `NOT ${formatNode(n.condition, 'not')}`;
  if (n.op === 'any') {
    const t = n.conditions.map((c) => formatNode(c, 'or')).join(' OR ');
    return where === 'or' ? t : `(${t})`;
  }
  const parts = n.op === 'all' ? n.conditions.map((c) => formatNode(c, 'and')) : leafTerms(n);
  const t = parts.join(' ');
  return where === 'not' && parts.length > 1 ? `(${t})` : t;
}

/** The typed form of a structured filter (a saved filter shown in the bar); parses back to the same filter. */
export function formatFilterText(filter: Filter): string {
  if (filter.conditions.length === 1 && filter.conditions[0]!.op === 'any') return formatNode(filter.conditions[0]!, 'or');
  return filter.conditions.map((c) => formatNode(c, 'and')).join(' ');
}

type TextCompiled = CompiledFilter & { errors?: FilterTextError[] };

/**
 * The last texts compiled, with what they were compiled against: the bar counts on every
 * keystroke and applies on Enter, and names learned later compile again; a text already
 * compiled against the same columns, day, user and look-ups reuses its matchers.
 */
const recent: { text: string; ctx: FilterContext; compiled: TextCompiled }[] = [];
const RECENT = 4;
const sameContext = (a: FilterContext, b: FilterContext): boolean =>
  a.columns === b.columns && a.today === b.today && a.currentUserId === b.currentUserId && a.resolveUser === b.resolveUser && a.userName === b.userName && a.fieldsOf === b.fieldsOf;

/** Parses and compiles the bar's text: a row test, or errors at positions (problems of values included). */
export function compileFilterText(text: string, ctx: FilterContext): TextCompiled {
  const hit = recent.find((r) => r.text === text && sameContext(r.ctx, ctx));
  if (hit) return hit.compiled;
  const compiled = compileText(text, ctx);
  recent.unshift({ text, ctx, compiled });
  if (recent.length > RECENT) recent.pop();
  return compiled;
}

function compileText(text: string, ctx: FilterContext): TextCompiled {
  const parsed = parseFilterText(text, ctx.columns);
  if (!parsed.ok) return { ok: false, problems: parsed.errors.map((e) => ({ index: -1, code: e.code, params: e.params, message: e.message })), errors: parsed.errors };
  const compiled = compileFilter(parsed.filter, ctx, parsed.names);
  if (compiled.ok) return compiled;
  const errors = compiled.problems.slice(0, MAX_ERRORS).map((p) => {
    const s = parsed.spans[p.index] ?? { start: 0, end: 0 };
    return at(s.start, s.end, p.code, ...p.params);
  });
  return { ok: false, problems: compiled.problems, errors };
}
