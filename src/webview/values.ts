// A value of a before/after table as people read it: dates by day, minutes in hours, user IDs
// by name, assignments as "name (hours)", empty as the empty mark; and its hover (minutes and
// user IDs as they are). One copy for the extension (the result table's comparisons) and for
// the pages, which format only the rows in sight. No vscode import, no DOM.

/** Fields whose values are minutes (shown in hours, minutes on hover). */
export const MINUTE_FIELDS: readonly string[] = ['PlannedTime', 'ActualTime'];
/** Fields whose values are user IDs (shown by name). */
export const USER_FIELDS: readonly string[] = ['LeaderId'];

/** How values are shown to people: names for user IDs, hours for minutes. */
export interface ValueLabels {
  people?: Readonly<Record<string, string>>;
  /** Names of list values by field (ItemTypeId, StatusTypeId: the ID → its name). */
  choices?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** `{0}`-template of hours ("{0} h"). */
  hours?: string;
}

/** Minutes as hours for people: 90 → "1.5 h" (two decimals at most). */
export function hoursText(minutes: number, template = '{0} h'): string {
  return template.replace('{0}', String(Math.round((minutes / 60) * 100) / 100));
}

/** An assignment's party and planned minutes, whichever case its member names have. */
function assignment(a: unknown): { party: unknown; minutes: number } {
  const o = Object.fromEntries(Object.entries((a ?? {}) as Record<string, unknown>).map(([k, v]) => [k.toLowerCase(), v]));
  const minutes = Number(o.plannedtime ?? 0);
  return { party: o.partyid, minutes: Number.isFinite(minutes) ? minutes : 0 };
}

/** A value as the table shows it. */
export function formatValue(field: string, value: unknown, empty: string, labels: ValueLabels = {}): string {
  if (value === undefined || value === null || value === '') return empty;
  const person = (id: unknown): string => {
    const people = labels.people;
    return people && Object.prototype.hasOwnProperty.call(people, String(id)) ? people[String(id)]! : String(id);
  };
  if (typeof value === 'number' && MINUTE_FIELDS.includes(field)) return hoursText(value, labels.hours);
  const named = labels.choices?.[field];
  if (named && (typeof value === 'string' || typeof value === 'number') && Object.prototype.hasOwnProperty.call(named, String(value))) return named[String(value)]!;
  if (USER_FIELDS.includes(field) && (typeof value === 'string' || typeof value === 'number')) return person(value);
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if ((field === 'PlannedStartDate' || field === 'PlannedFinishDate') && typeof value === 'string') return value.slice(0, 10);
  if (field === 'Assignments' && Array.isArray(value)) {
    if (value.length === 0) return empty;
    return value
      .map((a: unknown) => {
        const { party, minutes } = assignment(a);
        return `${person(party ?? '?')} (${hoursText(minutes, labels.hours)})`;
      })
      .join(', ');
  }
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) return empty;
  return JSON.stringify(value);
}

/** The hover of a value beside its text: minutes and user IDs as they are (the cell shows hours and names); '' for others. */
export function valueTip(field: string, value: unknown, minutes = '{0} min'): string {
  const mins = (m: number): string => minutes.replace('{0}', String(m));
  if (typeof value === 'number' && MINUTE_FIELDS.includes(field)) return mins(value);
  if (USER_FIELDS.includes(field) && value !== undefined && value !== null && value !== '') return String(value);
  if (Array.isArray(value) && field === 'Assignments')
    return value
      .map((a: unknown) => {
        const { party, minutes: m } = assignment(a);
        return `${String(party)}: ${mins(m)}`;
      })
      .join(', ');
  return '';
}
