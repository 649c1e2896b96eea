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

/** Text compared loosely: width folded, lower case (for "contains" and name matching). */
export function foldForMatch(text: string): string {
  return foldWidth(text).toLowerCase();
}

const DATE = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/;

/** A date as yyyy-MM-dd when it is a real calendar date (accepts 2026/3/1 and full-width digits), else undefined. */
export function parseDate(text: string): string | undefined {
  const m = DATE.exec(foldWidth(text).trim());
  if (!m) return undefined;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  const t = Date.UTC(y, mo - 1, d);
  const dt = new Date(t);
  if (dt.getUTCFullYear() !== y || dt.getUTCMonth() !== mo - 1 || dt.getUTCDate() !== d) return undefined;
  return `${m[1]}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
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

/** A number written with ASCII or full-width digits, `,` thousands separators allowed; undefined when not a number. */
export function parseNumber(text: string): number | undefined {
  const s = foldWidth(text).trim().replace(/,/g, '').replace(/%$/, '').trim();
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(s)) return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

/** Minutes shown as hours with minutes: 450 → "7:30", 480 → "8:00", -30 → "-0:30". */
export function formatHours(minutes: number): string {
  const sign = minutes < 0 ? '-' : '';
  const m = Math.round(Math.abs(minutes));
  return `${sign}${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}`;
}

/**
 * Hours as typed into an hours cell, in minutes: "7.5" / "7:30" / "7h30m" / "7時間30分"
 * / "450m" / "450分"; full-width digits accepted. Undefined when not such a text.
 */
export function parseHours(text: string): number | undefined {
  const s = foldWidth(text).trim().toLowerCase().replace(/\s+/g, '');
  let m = /^(\d+):([0-5]?\d)$/.exec(s);
  if (m) return Number(m[1]) * 60 + Number(m[2]);
  m = /^(?:(\d+(?:\.\d+)?)(?:h|時間))?(?:(\d+)(?:m|min|分))?$/.exec(s);
  if (m && (m[1] !== undefined || m[2] !== undefined)) return Math.round(Number(m[1] ?? 0) * 60) + Number(m[2] ?? 0);
  const n = parseNumber(s);
  return n === undefined ? undefined : Math.round(n * 60);
}
