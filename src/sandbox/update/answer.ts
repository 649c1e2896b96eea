// The answer of an update as the official help shows it (official-reference.md
// section 6, U2):
//   {"items": [{"id": "2430", "itemWarnings": [], "updatedAt": "2022-10-14T05:18:49.6713434",
//               "updatedBy": "21"}], "affectedItems": [], "addedTimeEntryIds": [],
//    "addedScheduleDependencyIds": []}
// Each item holds only the fields whose resulting value differs from the value sent
// (a field stored as sent is not echoed; values the server set or recalculated are),
// named in camelCase of their system names. No vscode import.
import type { WorkItemResult } from '../../schema/api';
import { dateTime } from '../readFields';

/** ID properties answered "0" when they hold none, as reads answer them (help section 3). */
const ID_PROPERTIES = new Set(['statusTypeId', 'processCategoryId', 'timeEntryCategoryId', 'leaderId', 'parentId']);
const DATE_PROPERTIES = new Set(['plannedStartDate', 'plannedFinishDate']);

/**
 * A stored work item property's value as the answer has it, in the form reads give it
 * (the same serializer): no ID is "0", a date is `yyyy-MM-ddT00:00:00`.
 */
export function answerValue(prop: string, value: unknown): unknown {
  if (ID_PROPERTIES.has(prop)) return value ?? '0';
  if (DATE_PROPERTIES.has(prop)) return dateTime(value as string | null);
  return value;
}

/**
 * A work item's update time as the help writes it: no zone suffix, 7 fractional
 * digits (the sandbox's clock has milliseconds: the last four digits are 0), e.g.
 * 2026-11-21T10:00:00.1230000. Throws RangeError for an invalid date.
 */
export function updateStamp(now: Date): string {
  const iso = now.toISOString();
  return `${iso.slice(0, 19)}.${iso.slice(20, 23)}0000`;
}

/**
 * Per item, the stored form of each value a request sent in `fields` (work item
 * property -> value). A property whose resulting value equals it is not answered.
 */
export class SentValues {
  private readonly byItem = new Map<string, Map<string, unknown>>();

  record(itemId: string, prop: string, value: unknown): void {
    let m = this.byItem.get(itemId);
    if (!m) this.byItem.set(itemId, (m = new Map()));
    m.set(prop, value);
  }

  /** Forgets a property (its stored value no longer comes from what was sent as is). */
  forget(itemId: string, prop: string): void {
    this.byItem.get(itemId)?.delete(prop);
  }

  /** Whether `prop` of the item was sent, with `value` stored as sent. */
  storedAsSent(itemId: string, prop: string, value: unknown, same: (a: unknown, b: unknown) => boolean): boolean {
    const m = this.byItem.get(itemId);
    return m !== undefined && m.has(prop) && same(m.get(prop), value);
  }
}

/**
 * An answered item from `{id, ...answered fields}` (completed in place, no copy):
 * `itemWarnings`, then the stamp when the item changed.
 */
export function answerItem(item: Record<string, unknown> & { id: string }, stamp?: { at: string; by: string }): WorkItemResult {
  item['itemWarnings'] = [];
  if (stamp) {
    item['updatedAt'] = stamp.at;
    item['updatedBy'] = stamp.by;
  }
  return item as WorkItemResult;
}
