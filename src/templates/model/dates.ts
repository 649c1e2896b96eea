// The dates of a template: the start date a person types for the copy (optional), and
// the shift of the copied planned dates by whole calendar days. Dates are calendar days
// (yyyy-mm-dd) without a time zone, as the service writes PlannedStartDate and
// PlannedFinishDate; its reads may add a time of day (`2026-01-05T00:00:00`), which is
// dropped. No vscode import.
import type { TemplateProblem } from './problems';

/** A start date as typed: none (empty: the dates stay as they are), a date, or a problem. */
export type StartDateRead = { ok: true; date?: string } | { ok: false; problem: TemplateProblem };

const DAY_MS = 86_400_000;

/** Full-width digits and separators (Japanese input) as ASCII, trimmed. */
function asciiDate(text: string): string {
  return text.replace(/[０-９－／]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0)).replace(/\u3000/g, ' ').trim();
}

/** The day number (days since 1970-01-01) of a yyyy-mm-dd date that is in the calendar, else undefined. */
function dayNumber(year: number, month: number, day: number): number | undefined {
  const t = Date.UTC(year, month - 1, day);
  const d = new Date(t);
  if (year < 1 || d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return undefined;
  return Math.round(t / DAY_MS);
}

/** The start date typed for a copy: yyyy-mm-dd (also yyyy/m/d); empty is no start date. */
export function readStartDate(text: string): StartDateRead {
  const t = asciiDate(text);
  if (t === '') return { ok: true };
  const m = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/.exec(t);
  if (!m) return { ok: false, problem: { message: '"{0}" is not a date (yyyy-MM-dd).', args: [text.trim()] } };
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (dayNumber(y, mo, d) === undefined) return { ok: false, problem: { message: '{0} is not a day of the calendar.', args: [t] } };
  return { ok: true, date: `${m[1]}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}` };
}

/** The calendar day of a read date value (`2026-01-05` or `2026-01-05T00:00:00…`), or undefined when it holds none. */
export function calendarDay(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:$|T)/.exec(value.trim());
  return m && dayNumber(Number(m[1]), Number(m[2]), Number(m[3])) !== undefined ? `${m[1]}-${m[2]}-${m[3]}` : undefined;
}

function toDayNumber(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return Math.round(Date.UTC(y, m - 1, d) / DAY_MS);
}

/** Calendar days from `from` to `to` (both yyyy-mm-dd): positive when `to` is later. */
export function daysBetween(from: string, to: string): number {
  return toDayNumber(to) - toDayNumber(from);
}

/** `date` (yyyy-mm-dd) moved by `days` calendar days. */
export function moveDate(date: string, days: number): string {
  return new Date((toDayNumber(date) + days) * DAY_MS).toISOString().slice(0, 10);
}
