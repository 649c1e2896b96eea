// Small text helpers of the work item table model: full-width → ASCII folding (the
// filter bar and pasted cells from Japanese spreadsheets), dates, hours and numbers
// as the table shows and reads them. No vscode import.

/**
 * Full-width ASCII (U+FF01–U+FF5E: digits, letters, `：＜＞＝，．－`) becomes ASCII,
 * the ideographic space U+3000 a space, curly double quotes a straight one. One
 * character for one character, so positions in the folded text are those of the input.
 */
const WIDE = /[\uff01-\uff5e\u3000\u201c\u201d\u2212]/;

export function foldWidth(text: string): string {
  if (!WIDE.test(text)) return text;
  let out = '';
  let changed = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let d = c;
    if (c >= 0xff01 && c <= 0xff5e) d = c - 0xfee0;
    else if (c === 0x3000) d = 0x20;
    else if (c === 0x201c || c === 0x201d) d = 0x22;
    else if (c === 0x2212) d = 0x2d; // minus sign
    if (d !== c) changed = true;
    out += String.fromCharCode(d);
  }
  return changed ? out : text;
}

/**
 * True when NFKC leaves `text` as it is, known from its characters alone: ASCII, hiragana,
 * katakana (not the half-width forms, not the voicing marks that combine), the common CJK
 * ideographs and 、。「」『』. Most names of a Japanese WBS are such text, so folding skips
 * the normalizer for them.
 */
function nfkcStable(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if ((c >= 0x3041 && c <= 0x3096) || (c >= 0x30a1 && c <= 0x30fa) || c === 0x30fc || (c >= 0x4e00 && c <= 0x9fff)) continue;
    if (c === 0x3001 || c === 0x3002 || (c >= 0x300c && c <= 0x300f)) continue;
    return false;
  }
  return true;
}

/**
 * Text compared loosely: compatibility forms folded with NFKC (half-width katakana ﾃｽﾄ is
 * テスト, full-width ＡＢＣ is ABC, ㈱ is (株)), then lower case; curly quotes and the minus
 * sign as foldWidth reads them. For "contains", equals and name matching. Positions are not
 * kept (NFKC may join or split characters).
 */
export function foldForMatch(text: string): string {
  if (nfkcStable(text)) return text.toLowerCase();
  return foldWidth(text).normalize('NFKC').toLowerCase();
}

/**
 * The longest text read as a number, hours or a date (after trimming): a longer cell or
 * filter value is refused with its length instead of being parsed (a pasted 1 MB cell is
 * not a number anyone meant). Every parser here reads its text once, left to right.
 */
export const MAX_VALUE_TEXT = 100;

/** A short excerpt of `text` for a message: at most `max` characters, "…" where cut. */
export function excerpt(text: string, max = 30): string {
  if (text.length <= max) return text;
  let end = max;
  const c = text.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--; // do not split a surrogate pair
  return `${text.slice(0, end)}…`;
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/** The end of the run of ASCII digits of `s` from `i`. */
function digitsEnd(s: string, i: number): number {
  while (i < s.length && isDigit(s.charCodeAt(i))) i++;
  return i;
}

/** A date as yyyy-MM-dd when it is a real calendar date (accepts 2026/3/1, 2026.3.1 and full-width digits), else undefined. */
export function parseDate(text: string): string | undefined {
  if (text.length > MAX_VALUE_TEXT * 10) return undefined;
  const s = foldWidth(text).trim();
  if (s.length > 10) return undefined;
  // yyyy, a separator (- / .), M or MM, the same kinds of separator, d or dd.
  const yEnd = digitsEnd(s, 0);
  if (yEnd !== 4 || !'-/.'.includes(s[4] ?? 'x')) return undefined;
  const mEnd = digitsEnd(s, 5);
  if (mEnd - 5 < 1 || mEnd - 5 > 2 || !'-/.'.includes(s[mEnd] ?? 'x')) return undefined;
  const dEnd = digitsEnd(s, mEnd + 1);
  if (dEnd - mEnd - 1 < 1 || dEnd - mEnd - 1 > 2 || dEnd !== s.length) return undefined;
  const y = Number(s.slice(0, 4));
  const mo = Number(s.slice(5, mEnd));
  const d = Number(s.slice(mEnd + 1));
  const dt = new Date(Date.UTC(y, mo - 1, d));
  if (dt.getUTCFullYear() !== y || dt.getUTCMonth() !== mo - 1 || dt.getUTCDate() !== d) return undefined;
  return `${s.slice(0, 4)}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** The date part (yyyy-MM-dd) of a date or date-time value read from the service; undefined for none. */
export function dateOf(v: unknown): string | undefined {
  if (typeof v !== 'string' || v.length < 10) return undefined;
  // Checked by character codes, unrolled: this runs for every row of a date filter or sort,
  // and for every shifted item on the first (cold) grouping of edits.
  if (v.charCodeAt(4) !== 45 || v.charCodeAt(7) !== 45) return undefined;
  if (
    (v.charCodeAt(0) - 48) >>> 0 > 9 || (v.charCodeAt(1) - 48) >>> 0 > 9 || (v.charCodeAt(2) - 48) >>> 0 > 9 || (v.charCodeAt(3) - 48) >>> 0 > 9 ||
    (v.charCodeAt(5) - 48) >>> 0 > 9 || (v.charCodeAt(6) - 48) >>> 0 > 9 || (v.charCodeAt(8) - 48) >>> 0 > 9 || (v.charCodeAt(9) - 48) >>> 0 > 9
  ) return undefined;
  return v.length === 10 ? v : v.slice(0, 10);
}

/** Whole days from date `a` to date `b` (both yyyy-MM-dd). */
export function daysBetween(a: string, b: string): number {
  return dayNumber(b) - dayNumber(a);
}

/** Days since 1970-01-01 of a yyyy-MM-dd date (read by position: this runs for every shifted item). */
function dayNumber(d: string): number {
  // No closure: this runs for every shifted item, also on a fresh process's first call.
  const y = (d.charCodeAt(0) - 48) * 1000 + (d.charCodeAt(1) - 48) * 100 + (d.charCodeAt(2) - 48) * 10 + (d.charCodeAt(3) - 48);
  const m = (d.charCodeAt(5) - 48) * 10 + (d.charCodeAt(6) - 48);
  return Date.UTC(y, m - 1, (d.charCodeAt(8) - 48) * 10 + (d.charCodeAt(9) - 48)) / 86_400_000;
}

/** The day number (days since 1970-01-01) of a date or date-time value as dateOf reads it; undefined when it is not one. One call, no string made. */
export function dayOf(v: unknown): number | undefined {
  return dateOf(v) === undefined ? undefined : dayNumber(v as string);
}

/** `date` shifted by `days` calendar days (how `moveScheduleDays` moves a date). */
export function shiftDate(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The end of a plain decimal number of `s` from `i` (`12`, `12.`, `12.5`, `.5`, each with an
 * optional exponent `e-3`), or -1 when none starts there. One pass, no backtracking.
 */
function decimalEnd(s: string, i: number): number {
  const intEnd = digitsEnd(s, i);
  let j = intEnd;
  let fracDigits = 0;
  if (s.charCodeAt(j) === 46) {
    const fracEnd = digitsEnd(s, j + 1);
    fracDigits = fracEnd - j - 1;
    j = fracEnd;
  }
  if (intEnd === i && fracDigits === 0) return -1;
  const e = s.charCodeAt(j);
  if (e === 101 || e === 69) {
    let k = j + 1;
    const sign = s.charCodeAt(k);
    if (sign === 43 || sign === 45) k++;
    const expEnd = digitsEnd(s, k);
    if (expEnd === k) return -1;
    j = expEnd;
  }
  return j;
}

/** A number written with ASCII or full-width digits, `,` thousands separators and a trailing `%` allowed; undefined when not a finite number. */
export function parseNumber(text: string): number | undefined {
  if (text.length > MAX_VALUE_TEXT * 10) return undefined;
  let s = foldWidth(text).trim();
  if (s.endsWith('%')) s = s.slice(0, -1).trim();
  if (s.includes(',')) s = s.split(',').join('');
  if (s.length === 0 || s.length > MAX_VALUE_TEXT) return undefined;
  const c = s.charCodeAt(0);
  const start = c === 43 || c === 45 ? 1 : 0;
  if (decimalEnd(s, start) !== s.length) return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

/** Minutes shown as hours with minutes: 450 → "7:30", 480 → "8:00", -30 → "-0:30". */
export function formatHours(minutes: number): string {
  const sign = minutes < 0 ? '-' : '';
  const m = Math.round(Math.abs(minutes));
  return `${sign}${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}`;
}

/** `s` from `i` starts with `word`. */
const startsAt = (s: string, i: number, word: string): boolean => s.startsWith(word, i);

/**
 * Hours as typed into an hours cell, in minutes: "7.5" / "7:30" / "7h30m" / "7時間30分"
 * / "450m" / "450分"; full-width digits accepted. Undefined when not such a text.
 */
export function parseHours(text: string): number | undefined {
  if (text.length > MAX_VALUE_TEXT * 10) return undefined;
  let s = foldWidth(text).trim().toLowerCase();
  if (s.length > MAX_VALUE_TEXT) return undefined;
  if (/\s/.test(s)) s = s.split(/\s/).join('');
  if (s === '') return undefined;
  // H:MM (minutes 0-59, one or two digits).
  const hEnd = digitsEnd(s, 0);
  if (hEnd > 0 && s.charCodeAt(hEnd) === 58) {
    const mEnd = digitsEnd(s, hEnd + 1);
    const mLen = mEnd - hEnd - 1;
    if (mEnd !== s.length || mLen < 1 || mLen > 2) return undefined;
    const mins = Number(s.slice(hEnd + 1));
    return mins < 60 ? Number(s.slice(0, hEnd)) * 60 + mins : undefined;
  }
  // [hours (h|時間)][minutes (m|min|分)], at least one of them.
  let i = 0;
  let hours: number | undefined;
  let minutes: number | undefined;
  const numEnd = digitsEnd(s, 0);
  let j = numEnd;
  if (numEnd > 0 && s.charCodeAt(j) === 46) {
    const fEnd = digitsEnd(s, j + 1);
    if (fEnd > j + 1) j = fEnd;
  }
  if (j > 0 && (startsAt(s, j, 'h') || startsAt(s, j, '時間'))) {
    hours = Number(s.slice(0, j));
    i = j + (s[j] === 'h' ? 1 : 2);
  }
  const minEnd = digitsEnd(s, i);
  if (minEnd > i) {
    const unit = startsAt(s, minEnd, 'min') ? 3 : startsAt(s, minEnd, 'm') || startsAt(s, minEnd, '分') ? 1 : 0;
    if (unit > 0 && minEnd + unit === s.length) minutes = Number(s.slice(i, minEnd));
  }
  if (hours !== undefined && minutes === undefined && i === s.length) minutes = 0;
  if (hours !== undefined || minutes !== undefined) {
    if (minutes === undefined) return undefined;
    return Math.round((hours ?? 0) * 60) + minutes;
  }
  const n = parseNumber(s);
  return n === undefined ? undefined : Math.round(n * 60);
}
