// The parts of the description a request document made from table edits gets
// ("進捗率 = 30%", "予定終了日 = \"2026-05-25\""): each field by the table's header in the
// UI's language, each value as the table shows it (hours as H:MM, users and choices by
// name), so that the description reads like the table the edits were made in. A field the
// table has no column for keeps its system name and the value as sent. No vscode import.
import type { UpdateWorkItemsBody } from '../../schema/api';
import { describeBody } from '../../schema/members';
import { columnLabel, formatCell, toCellValue, type ColumnDef, type FormatContext } from './columns';

export interface EditDescriptionWords {
  /** VS Code's `env.language` ("ja", "en"...). */
  language: string;
  /** An emptied cell ("(empty)", localized). */
  empty: string;
  /** "shift the schedule by {days} days" in the UI's language (one day, several days). */
  shiftDays(days: number): string;
  /** How users are named. */
  format?: FormatContext;
}

/**
 * One part per member of `update`, in the service's order (each member's wording is its
 * entry of the member table): "field = value" per field, the schedule shift in words,
 * any other member with its value as sent.
 */
export function editDescriptionParts(update: UpdateWorkItemsBody, columns: readonly ColumnDef[], words: EditDescriptionWords): string[] {
  const byKey = new Map(columns.map((c) => [c.key, c]));
  return describeBody(update, {
    field(key, raw) {
      const c = byKey.get(key);
      return c ? `${columnLabel(c, words.language)} = ${valueText(raw, c, words)}` : `${key} = ${JSON.stringify(raw)}`;
    },
    shiftDays: (days) => words.shiftDays(days),
    member: (name, value) => `${name} = ${JSON.stringify(value)}`,
  });
}

function valueText(raw: unknown, c: ColumnDef, words: EditDescriptionWords): string {
  const v = toCellValue(raw, c);
  if (v === null || (Array.isArray(v) && v.length === 0)) return words.empty;
  const shown = formatCell(v, c, words.format);
  // Text and dates quoted, as typed: a comma or " = " inside a name does not read as the next part.
  return c.type === 'text' || c.type === 'date' ? JSON.stringify(shown) : shown;
}
