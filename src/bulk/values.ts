// Values of work item fields as the bulk engine compares them: assignment lists in one
// normal form, dates by day, IDs as strings ("0" as no value), and dates shifted by days
// (how moveScheduleDays moves them). No vscode import, no I/O.

/** A work item's current values as read (`fields` of a WorkItemRecord). */
export type ItemValues = Readonly<Record<string, unknown>>;

export interface Assignment {
  partyId: string;
  partyType?: string;
  plannedTime: number;
}

/** An assignment list as read or as answered (member names in any casing); undefined when not a list. */
export function normalizeAssignments(value: unknown): Assignment[] | undefined {
  if (value === null) return [];
  if (!Array.isArray(value)) return undefined;
  const out: Assignment[] = [];
  for (const entry of value) {
    if (typeof entry !== 'object' || entry === null) return undefined;
    const e = entry as Record<string, unknown>;
    // The usual spellings first; any other casing through a lower-cased copy.
    let rawId = e.partyId ?? e.PartyId;
    let rawTime = e.plannedTime ?? e.PlannedTime;
    let rawType = e.partyType ?? e.PartyType;
    if (rawId === undefined) {
      const norm: Record<string, unknown> = {};
      for (const k of Object.keys(e)) norm[k.toLowerCase()] = e[k];
      rawId = norm.partyid;
      rawTime = norm.plannedtime;
      rawType = norm.partytype;
    }
    const partyId = typeof rawId === 'number' ? String(rawId) : rawId;
    if (typeof partyId !== 'string' || partyId === '') return undefined;
    const a: Assignment = { partyId, plannedTime: typeof rawTime === 'number' ? rawTime : 0 };
    if (typeof rawType === 'string') a.partyType = rawType;
    out.push(a);
  }
  return out;
}

/** `yyyy-MM-dd` of a date value as read (a time part is dropped); null stays null. */
export function dateOnly(value: unknown): string | null | undefined {
  if (value === null || value === '') return null;
  if (typeof value !== 'string' || !hasDatePrefix(value)) return undefined;
  return value.length === 10 ? value : value.slice(0, 10);
}

/** Whether `s` starts with `dddd-dd-dd` (ASCII digits; as /^\d{4}-\d{2}-\d{2}/, without a regular expression per value). */
function hasDatePrefix(s: string): boolean {
  if (s.length < 10 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return false;
  for (let i = 0; i < 10; i++) {
    if (i === 4 || i === 7) continue;
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** Shifted dates, cached by shift and date (many items of a job share dates; no key string per call). */
const shifted = new Map<number, Map<string, string>>();
let shiftedCount = 0;

export function shiftDate(date: string, days: number): string {
  let byDate = shifted.get(days);
  const hit = byDate?.get(date);
  if (hit !== undefined) return hit;
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  const out = d.toISOString().slice(0, 10);
  if (shiftedCount > 100_000) {
    shifted.clear();
    shiftedCount = 0;
    byDate = undefined;
  }
  if (!byDate) shifted.set(days, (byDate = new Map()));
  byDate.set(date, out);
  shiftedCount++;
  return out;
}

/** Values compared as the service stores them: dates without time, assignments in a normal form, IDs as strings. */
export function normalizeValue(field: string, value: unknown): unknown {
  if (field === 'PlannedStartDate' || field === 'PlannedFinishDate') return dateOnly(value) ?? value;
  if (field === 'Assignments') return normalizeAssignments(value) ?? value;
  // "0" is the service's "no value" for an ID (official help section 3): the same as null.
  if ((value === '0' || value === 0) && field !== 'Id' && field.endsWith('Id')) return null;
  if (typeof value === 'number' && field.endsWith('Id')) return String(value);
  if (value === undefined) return undefined;
  if ((field === 'Code' || field === 'Description') && value === null) return '';
  return value;
}

export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** Same value of a field as the service compares it (dates by day, assignments ignoring missing party types). */
export function sameFieldValue(field: string, a: unknown, b: unknown): boolean {
  return sameNormalized(field, normalizeValue(field, a), normalizeValue(field, b));
}

/** sameFieldValue of two values already normalized (normalizeValue). */
export function sameNormalized(field: string, na: unknown, nb: unknown): boolean {
  if (na === nb) return true;
  if (field === 'Assignments' && Array.isArray(na) && Array.isArray(nb)) {
    if (na.length !== nb.length) return false;
    return (na as Assignment[]).every((x, i) => {
      const y = (nb as Assignment[])[i]!;
      return (
        x.partyId === y.partyId && x.plannedTime === y.plannedTime && (x.partyType === undefined || y.partyType === undefined || x.partyType === y.partyType)
      );
    });
  }
  return sameValue(na, nb);
}
