// The values the forms ask for, read from what a person types: days to shift (+/-),
// a date, planned time in hours. Full-width digits and signs (Japanese input) are
// accepted. Each reader answers a value or a problem (an English message key, which
// the view localizes with its parameters). No vscode import.

/** A problem with what was typed: the message (an English l10n key) and its parameters. */
export interface InputProblem {
  message: (typeof INPUT_MESSAGES)[number];
  args: string[];
}

export type Read<T> = { ok: true; value: T } | { ok: false; problem: InputProblem };

/** Every message of the readers (the view localizes each; a unit test keeps the Japanese bundle in step). */
export const INPUT_MESSAGES = [
  'Enter the number of days (negative: earlier).',
  '"{0}" is not a whole number of days.',
  '0 days does not move the schedule.',
  'At most {0} days at once.',
  'Enter a date (yyyy-MM-dd).',
  '"{0}" is not a date (yyyy-MM-dd).',
  '{0} is not a day of the calendar.',
  '"{0}" is not a number of hours (for example 8 or 1.5).',
  'At most {0} hours per assignment.',
  '{0} hours is not a whole number of minutes.',
] as const;

const bad = (message: InputProblem['message'], ...args: string[]): { ok: false; problem: InputProblem } => ({ ok: false, problem: { message, args } });

/** The most days a schedule is shifted at once (100 years): more is a typing mistake. */
export const MAX_SHIFT_DAYS = 36_500;
/** The most planned time per assignment a form accepts, in hours (a year of days). */
export const MAX_PLANNED_HOURS = 8_760;

/** Full-width digits, signs, period and spaces as their ASCII forms; trimmed. */
export function halfWidth(text: string): string {
  return text
    .replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0))
    .replace(/[＋]/g, '+')
    .replace(/[－−‐ー]/g, '-')
    .replace(/[．]/g, '.')
    .replace(/[／]/g, '/')
    .replace(/\u3000/g, ' ')
    .trim();
}

/** Days to shift: a whole number, positive (later) or negative (earlier), not 0; "+7", "-3", "７". */
export function readShiftDays(text: string): Read<number> {
  const t = halfWidth(text).replace(/\s+/g, '');
  if (t === '') return bad('Enter the number of days (negative: earlier).');
  if (!/^[+-]?\d+$/.test(t)) return bad('"{0}" is not a whole number of days.', text.trim());
  const n = Number(t);
  if (n === 0) return bad('0 days does not move the schedule.');
  if (Math.abs(n) > MAX_SHIFT_DAYS) return bad('At most {0} days at once.', String(MAX_SHIFT_DAYS));
  return { ok: true, value: n };
}

/** A calendar date yyyy-MM-dd (also yyyy/M/d), as yyyy-MM-dd. */
export function readDate(text: string): Read<string> {
  const t = halfWidth(text);
  if (t === '') return bad('Enter a date (yyyy-MM-dd).');
  const m = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/.exec(t);
  if (!m) return bad('"{0}" is not a date (yyyy-MM-dd).', text.trim());
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return bad('{0} is not a day of the calendar.', t);
  return { ok: true, value: `${m[1]}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}` };
}

/** Whole days from `from` to `to` (both yyyy-MM-dd or a date-time starting so); undefined when either is not a date. */
export function daysBetween(from: string, to: string): number | undefined {
  const day = (s: string): number | undefined => {
    const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(s);
    return m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / 86_400_000 : undefined;
  };
  const a = day(from);
  const b = day(to);
  return a === undefined || b === undefined ? undefined : b - a;
}

/**
 * Planned time per assignment in hours (optional: empty is none), as whole minutes, which
 * the service counts in (known facts: effort is integer minutes). "1.5" is 90 minutes.
 */
export function readPlannedHours(text: string): Read<number | undefined> {
  const t = halfWidth(text).replace(/\s+/g, '').replace(/h$/i, '');
  if (t === '') return { ok: true, value: undefined };
  if (!/^\d+(\.\d+)?$/.test(t)) return bad('"{0}" is not a number of hours (for example 8 or 1.5).', text.trim());
  const hours = Number(t);
  if (hours > MAX_PLANNED_HOURS) return bad('At most {0} hours per assignment.', String(MAX_PLANNED_HOURS));
  const minutes = hours * 60;
  if (!Number.isInteger(Math.round(minutes * 1e6) / 1e6)) return bad('{0} hours is not a whole number of minutes.', t);
  return { ok: true, value: Math.round(minutes) };
}
