// The typed form of table filters (the filter bar), parsed into the structured form
// of filter.ts. No vscode import.
//
// Grammar (terms separated by spaces; all terms must hold, i.e. AND):
//
//   filter    := term*                      an empty text matches every row
//   term      := keyword | field op values | "and"        ("and" is allowed and ignored)
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
//   word      := characters other than spaces, quotes, ":", "=", "<", ">", "," (a value may hold ":": 7:30)
//   quoted    := '"' characters '"'         a quote inside is written "" (two quotes)
//
// Full-width characters are read as their ASCII forms (全角 ：＜＞＝，"１２" and the
// ideographic space), so `進捗＜１００` is `進捗<100`. Dates are yyyy-MM-dd (or
// yyyy/M/d), "today" or "today+7" / "today-3"; hours are in hours (7.5 or 7:30);
// list values (status, type) by name, code or ID; users by login name, name or ID.
//
// Example: status:"進行中" leader:suzuki finish<2026-03-01 progress<100
import type { ColumnDef } from './columns';
import { type Filter, type FilterCondition, type FilterContext, type CompiledFilter, compileFilter } from './filter';
import { findColumn } from './lookup';
import { foldWidth } from './text';

/** A part of the typed text: [start, end) in UTF-16 positions of the text as typed. */
export interface TextSpan {
  start: number;
  end: number;
}

/** A problem of the typed text, at a position (0-based) the message names (1-based, "at column 5"). */
export interface FilterTextError extends TextSpan {
  message: string;
}

export type FilterTextResult =
  | { ok: true; filter: Filter; spans: TextSpan[] }
  | { ok: false; errors: FilterTextError[] };

const KEYWORDS: Readonly<Record<string, FilterCondition['op']>> = {
  mine: 'mine', overdue: 'overdue', notstarted: 'notStarted',
  'is:mine': 'mine', 'is:overdue': 'overdue', 'is:notstarted': 'notStarted',
  自分: 'mine', 期限切れ: 'overdue', 未着手: 'notStarted',
};

const STOP = new Set([' ', '\t', '\n', '\r', '"', ':', '=', '<', '>', ',']);

interface Token {
  text: string;
  quoted: boolean;
  start: number;
  end: number;
}

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
    while (!this.done && /\s/.test(this.peek())) this.pos++;
  }
  /** A word or a quoted string; undefined (and nothing read) when neither starts here. */
  word(inValue = false): Token | { error: FilterTextError } | undefined {
    const start = this.pos;
    if (this.peek() === '"') {
      let text = '';
      this.pos++;
      for (;;) {
        if (this.done) return { error: { start, end: this.pos, message: `the quote opened at column ${start + 1} is not closed` } };
        const c = this.s[this.pos++]!;
        if (c === '"') {
          if (this.peek() === '"') {
            text += '"';
            this.pos++;
            continue;
          }
          return { text, quoted: true, start, end: this.pos };
        }
        text += c;
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

const at = (start: number, end: number, message: string): FilterTextError => ({ start, end, message: `${message} (at column ${start + 1})` });

/** Parses the filter bar's text against the table's columns; every error names its position. */
export function parseFilterText(text: string, columns: readonly ColumnDef[]): FilterTextResult {
  const sc = new Scanner(foldWidth(text));
  const conditions: FilterCondition[] = [];
  const spans: TextSpan[] = [];
  const errors: FilterTextError[] = [];
  const skipTerm = () => {
    while (!sc.done && !/\s/.test(sc.peek())) sc.pos++;
  };
  for (;;) {
    sc.skipSpace();
    if (sc.done) break;
    const start = sc.pos;
    const w = sc.word();
    if (w === undefined) {
      errors.push(at(start, start + 1, `expected a field name or a keyword (mine, overdue, notstarted), not "${sc.peek()}"`));
      sc.pos++;
      skipTerm();
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
      if (KEYWORDS[key] === undefined) {
        errors.push(at(start, sc.pos, `unknown "${key}": use is:mine, is:overdue or is:notstarted`));
        skipTerm();
        continue;
      }
      conditions.push({ op: KEYWORDS[key] } as FilterCondition);
      spans.push({ start, end: sc.pos });
      continue;
    }
    const op = sc.op();
    if (op === undefined) {
      if (!w.quoted && lower === 'and') continue;
      const k = w.quoted ? undefined : KEYWORDS[lower];
      if (k === undefined) {
        errors.push(at(start, w.end, `"${w.text}" is not a condition: write field:value (e.g. status:"進行中"), field<value, or a keyword (mine, overdue, notstarted)`));
        skipTerm();
        continue;
      }
      conditions.push({ op: k } as FilterCondition);
      spans.push({ start, end: w.end });
      continue;
    }
    const column = findColumn(columns, w.text);
    if (!column) {
      errors.push(at(start, w.end, `unknown field "${w.text}"`));
      skipTerm();
      continue;
    }
    const values: Token[] = [];
    let bad = false;
    for (;;) {
      const vStart = sc.pos;
      const v = sc.word(true);
      if (v === undefined || 'error' in v) {
        errors.push(v ? v.error : at(vStart, vStart + 1, `a value is missing after "${w.text}${op}"`));
        bad = true;
        break;
      }
      values.push(v);
      if (sc.peek() !== ',') break;
      sc.pos++;
    }
    if (bad) {
      skipTerm();
      continue;
    }
    if (!sc.done && !/\s/.test(sc.peek())) {
      errors.push(at(sc.pos, sc.pos + 1, `unexpected "${sc.peek()}" after the value of ${w.text}: put a space between conditions, and quotes around a value with spaces or symbols`));
      skipTerm();
      continue;
    }
    const span = { start, end: sc.pos };
    const field = column.key;
    const single = values.length === 1 ? values[0]! : undefined;
    const cond = ((): FilterCondition | FilterTextError => {
      if (op === '<' || op === '<=' || op === '>' || op === '>=') {
        if (!single) return at(values[1]!.start, values[1]!.end, `a range takes one value, not a list`);
        if (op[0] === '<') return { op: 'range', field, max: single.text, ...(op === '<' ? { maxExclusive: true } : {}) };
        return { op: 'range', field, min: single.text, ...(op === '>' ? { minExclusive: true } : {}) };
      }
      if (single && !single.quoted && op === ':') {
        const l = single.text.toLowerCase();
        if (l === 'empty' || l === '空') return { op: 'empty', field };
        if (l === 'notempty' || l === '!empty') return { op: 'notEmpty', field };
      }
      if (!single) return { op: 'in', field, values: values.map((v) => v.text) };
      if (field === 'LeaderId') return { op: 'leaderIs', user: single.text };
      if (field === 'Assignments') return { op: 'assignedTo', user: single.text };
      if (op === ':' && column.type === 'text') return { op: 'contains', field, value: single.text };
      return { op: 'equals', field, value: single.text };
    })();
    if ('message' in cond) errors.push(cond);
    else {
      conditions.push(cond);
      spans.push(span);
    }
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, filter: { conditions }, spans };
}

function quote(s: string): string {
  return s !== '' && ![...s].some((c) => STOP.has(c) || /\s/.test(c)) ? s : `"${s.replace(/"/g, '""')}"`;
}

/** The typed form of a structured filter (a saved filter shown in the bar); parses back to the same filter. */
export function formatFilterText(filter: Filter): string {
  return filter.conditions
    .map((c) => {
      switch (c.op) {
        case 'mine':
        case 'overdue':
          return c.op;
        case 'notStarted':
          return 'notstarted';
        case 'leaderIs':
          return `LeaderId:${quote(c.user)}`;
        case 'assignedTo':
          return `Assignments:${quote(c.user)}`;
        case 'empty':
          return `${quote(c.field)}:empty`;
        case 'notEmpty':
          return `${quote(c.field)}:notempty`;
        case 'contains':
          return `${quote(c.field)}:${quote(c.value)}`;
        case 'equals':
          return `${quote(c.field)}=${quote(String(c.value))}`;
        case 'in':
          return `${quote(c.field)}=${c.values.map((v) => quote(String(v))).join(',')}`;
        case 'range': {
          const parts: string[] = [];
          if (c.min !== undefined) parts.push(`${quote(c.field)}${c.minExclusive ? '>' : '>='}${quote(String(c.min))}`);
          if (c.max !== undefined) parts.push(`${quote(c.field)}${c.maxExclusive ? '<' : '<='}${quote(String(c.max))}`);
          return parts.join(' ');
        }
      }
    })
    .join(' ');
}

/** Parses and compiles the bar's text: a row test, or errors at positions (problems of values included). */
export function compileFilterText(text: string, ctx: FilterContext): CompiledFilter & { errors?: FilterTextError[] } {
  const parsed = parseFilterText(text, ctx.columns);
  if (!parsed.ok) return { ok: false, problems: parsed.errors.map((e) => ({ index: -1, message: e.message })), errors: parsed.errors };
  const compiled = compileFilter(parsed.filter, ctx);
  if (compiled.ok) return compiled;
  const errors = compiled.problems.map((p) => {
    const s = parsed.spans[p.index]!;
    return at(s.start, s.end, p.message);
  });
  return { ok: false, problems: compiled.problems, errors };
}
