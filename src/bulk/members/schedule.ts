// The members that change the planned period: clearSchedule and moveScheduleDays, and
// the shared inverse of the planned dates (which `fields` may set too). No vscode
// import, no I/O.
import { dateOnly, shiftDate } from '../values';
import type { Behaviours, SharedInverse } from './entry';
import { UndoItem } from './inverse';
import { has, note, problem, type EffectsOptions, type ItemState } from './predict';

const START = 'PlannedStartDate';
const FINISH = 'PlannedFinishDate';
/** The two planned dates: put back together (the service never sees a finish before a start in between). */
export const DATES = [START, FINISH] as const;

/** Both dates moved by `days`, each checked against the project's allowed range when it is known (errors 6 and 7). */
function shift(st: ItemState, days: number, options: EffectsOptions): void {
  const p = st.current.ProjectId;
  const range = options.allowedRange && (typeof p === 'string' || typeof p === 'number') ? options.allowedRange(String(p)) : undefined;
  for (const f of DATES) {
    // The value so far, as now() gives it (without making an Expected per item).
    const set = st.values[f];
    if (set !== undefined ? set.kind !== 'value' : !has(st, f)) continue;
    // dateOnly of the normalized value is dateOnly of the value as read (normalizeValue of a date is dateOnly ?? value).
    const d = dateOnly(set !== undefined ? (set as { value: unknown }).value : st.current[f]);
    if (!d) continue;
    const moved = shiftDate(d, days);
    if (range && (moved < range.min || moved > range.max)) {
      problem(st.effect, { code: 'shift-out-of-range', field: f, params: { date: moved, min: range.min, max: range.max, days } });
    }
    st.values[f] = { kind: 'value', value: moved };
  }
  st.datesTouched = true;
}

export const SCHEDULE_MEMBERS: Behaviours<'clearSchedule' | 'moveScheduleDays'> = {
  clearSchedule: {
    predict(st) {
      st.values[START] = { kind: 'value', value: null };
      st.values[FINISH] = { kind: 'value', value: null };
      note(st, 'links-deleted');
    },
    rollsUp: true,
    // The dates come back; the deleted links cannot (an update cannot create links).
    inverse: {
      undo(item) {
        item.putBack('schedule', DATES, { member: 'clearSchedule' });
        item.lost('clearSchedule', 'links-deleted');
      },
    },
  },
  moveScheduleDays: {
    predict: (st, days, options) => shift(st, days, options),
    rollsUp: true,
    inverse: { undo: (item, days) => item.putBack('schedule', DATES, { member: 'moveScheduleDays', shift: days }) },
  },
};

/**
 * The planned dates back: an opposite shift when they were only shifted and moved by
 * exactly the shift (a date the service refused to move, or an outcome not known, is no
 * exact shift), the previous dates otherwise.
 */
export const SCHEDULE_INVERSE: SharedInverse = {
  kind: 'schedule',
  putBack(item) {
    const byField = item.claimed('schedule');
    const claims = [...new Set([...(byField.get(START) ?? []), ...(byField.get(FINISH) ?? [])])];
    if (claims.length === 0) return;
    if (!item.has(START) || !item.has(FINISH)) {
      for (const m of UndoItem.members(claims)) item.lost(m, 'not-in-snapshot');
      return;
    }
    if (!item.changed(START) && !item.changed(FINISH)) return;
    const s0 = dateOnly(item.before[START]) ?? null;
    const e0 = dateOnly(item.before[FINISH]) ?? null;
    const s1 = item.hasAfter(START) ? dateOnly(item.after[START]) : undefined;
    const e1 = item.hasAfter(FINISH) ? dateOnly(item.after[FINISH]) : undefined;
    const days = claims.reduce((sum, c) => sum + (c.shift ?? 0), 0);
    const shiftedExactly =
      claims.every((c) => c.shift !== undefined) &&
      !item.uncertain &&
      (s1 === undefined || s1 === (s0 === null ? null : shiftDate(s0, days))) &&
      (e1 === undefined || e1 === (e0 === null ? null : shiftDate(e0, days)));
    item.put('schedule', shiftedExactly ? { moveScheduleDays: -days } : { fields: { [START]: s0, [FINISH]: e0 } });
  },
};
