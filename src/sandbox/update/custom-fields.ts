// Custom fields in an update (official-reference.md section 4: custom fields are
// addressed by their system names in `fields`, like system fields). A value is
// checked by the field's type with the catalogue's checkCustomFieldValue (text
// length, number range, date format, list choice); the update engine refuses the
// whole request when one is wrong. No vscode import.
import { checkCustomFieldValue, customFieldStoredValue } from '../catalogue';
import type { CustomFieldDefinition, WorkItem } from '../model';

export type CustomValueCheck =
  | { ok: true; stored: unknown; asSent: boolean }
  | { ok: false; expected: string };

/**
 * The value to store for `value` in the custom field `def` (undefined: the field is
 * cleared), and whether that is the value as sent (a date's time part dropped still
 * is; a List value sent by code or ID and stored as the choice's name is not); or
 * what was expected, as "must be ..." words.
 */
export function checkCustomValue(def: CustomFieldDefinition, value: unknown): CustomValueCheck {
  const why = checkCustomFieldValue(def, value);
  if (why !== undefined) return { ok: false, expected: `${why.replace(/^expected /, '')} (${def.dataType} field "${def.name}")` };
  const stored = customFieldStoredValue(def, value);
  const asSent = stored === undefined ? value === null : stored === value || def.dataType === 'Date' || def.dataType === 'DateTime';
  return { ok: true, stored, asSent };
}

/** The item's custom values with `name` set to `stored` (undefined: removed); a new object (items are never changed in place). */
export function withCustomValue(item: WorkItem, name: string, stored: unknown): Record<string, unknown> {
  const next: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(item.customFields)) if (k !== name) next[k] = v;
  if (stored !== undefined) Object.defineProperty(next, name, { value: stored, enumerable: true, writable: true, configurable: true });
  return next;
}

/** The same stored custom value (absent and null are the same: no value). */
export function sameCustomValue(a: unknown, b: unknown): boolean {
  return (a ?? null) === (b ?? null) || JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** System names of the custom fields whose stored value differs between the two items' values. */
export function changedCustomFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  if (before === after) return [];
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  const own = (o: Record<string, unknown>, k: string) => (Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);
  return [...names].filter((k) => !sameCustomValue(own(before, k), own(after, k)));
}
