// The schedule steps of an update: clearSchedule (dates and schedule links) and
// moveScheduleDays within the project's allowed range (errors 6, 7); the date forms
// the fields accept. No vscode import.
import type { ItemScope, UpdateRun } from './run';

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?$/;

/** `yyyy-MM-dd` of a valid calendar date (a time part is accepted and dropped), or undefined. */
export function parseDate(value: string): string | undefined {
  const m = DATE_RE.exec(value);
  if (!m) return undefined;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  const text = d.toISOString().slice(0, 10);
  return text === `${m[1]}-${m[2]}-${m[3]}` ? text : undefined;
}

const DAY_MS = 86_400_000;
const FIRST_DAY_MS = new Date('0001-01-01T00:00:00Z').getTime();
const LAST_DAY_MS = new Date('9999-12-31T00:00:00Z').getTime();

/**
 * `date` shifted by `days`; a result outside the years 0001 to 9999 (or beyond what
 * a Date can hold, e.g. 100,000,000 days) is `outside`, shown as "before
 * 0001-01-01" / "after 9999-12-31": any allowed range excludes it.
 */
function shiftDate(date: string, days: number): { date: string; outside: boolean } {
  const ms = Date.parse(`${date}T00:00:00Z`) + days * DAY_MS;
  if (ms < FIRST_DAY_MS || (!Number.isFinite(ms) && days < 0)) return { date: 'before 0001-01-01', outside: true };
  if (ms > LAST_DAY_MS || !Number.isFinite(ms)) return { date: 'after 9999-12-31', outside: true };
  return { date: new Date(ms).toISOString().slice(0, 10), outside: false };
}

/** clearSchedule: both dates emptied and the item's schedule links removed. */
export function clearSchedule(run: UpdateRun, scope: ItemScope): void {
  if (run.body.clearSchedule !== true) return;
  const item = run.ws.get(scope.id)!;
  if (item.plannedStartDate !== null || item.plannedFinishDate !== null) {
    const w = run.ws.mut(scope.id);
    w.plannedStartDate = null;
    w.plannedFinishDate = null;
  }
  const links = run.links(scope.id);
  if (links.length > 0) {
    for (const l of links) run.removedLinkIds.add(l);
    run.silentlyChanged.add(scope.id);
  }
}

/** moveScheduleDays: both dates shifted, each within the project's allowed range (errors 6, 7). */
export function shiftSchedule(run: UpdateRun, scope: ItemScope): void {
  const days = run.body.moveScheduleDays;
  if (days === undefined || days === 0) return;
  const item = run.ws.get(scope.id)!;
  const { min, max } = scope.project.allowedDateRange;
  const start = item.plannedStartDate === null ? null : shiftDate(item.plannedStartDate, days);
  const end = item.plannedFinishDate === null ? null : shiftDate(item.plannedFinishDate, days);
  const outOfRange = (d: { date: string; outside: boolean }) => d.outside || d.date < min || d.date > max;
  let ok = true;
  if (start !== null && outOfRange(start)) {
    run.fail('SHIFTED_START_OUT_OF_RANGE', { days, date: start.date, min, max }, { itemId: scope.id, field: 'PlannedStartDate', rule: 6 });
    ok = false;
  }
  if (end !== null && outOfRange(end)) {
    run.fail('SHIFTED_END_OUT_OF_RANGE', { days, date: end.date, min, max }, { itemId: scope.id, field: 'PlannedFinishDate', rule: 7 });
    ok = false;
  }
  if (!ok || (start === null && end === null)) return;
  const w = run.ws.mut(scope.id);
  w.plannedStartDate = start?.date ?? null;
  w.plannedFinishDate = end?.date ?? null;
  scope.datesTouched = true;
}
