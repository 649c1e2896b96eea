// The parts of the description a request document made from table edits gets
// ("進捗率 = 30%", "予定終了日 = \"2026-05-25\""): each field by the table's header in the
// UI's language, each value as the table shows it (hours as H:MM, users and choices by
// name), so that the description reads like the table the edits were made in. A field the
// table has no column for keeps its system name and the value as sent. No vscode import.
import type { UpdateWorkItemsBody } from '../../schema/api';
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

/** One "field = value" part per field of `update`, then the schedule shift. */
export function editDescriptionParts(update: UpdateWorkItemsBody, columns: readonly ColumnDef[], words: EditDescriptionWords): string[] {
  const byKey = new Map(columns.map((c) => [c.key, c]));
  const parts: string[] = [];
  for (const [key, raw] of Object.entries(update.fields ?? {})) {
    const c = byKey.get(key);
    parts.push(c ? `${columnLabel(c, words.language)} = ${valueText(raw, c, words)}` : `${key} = ${JSON.stringify(raw)}`);
  }
  if (update.moveScheduleDays !== undefined) parts.push(words.shiftDays(update.moveScheduleDays));
  return parts;
}

function valueText(raw: unknown, c: ColumnDef, words: EditDescriptionWords): string {
  const v = toCellValue(raw, c);
  if (v === null || (Array.isArray(v) && v.length === 0)) return words.empty;
  const shown = formatCell(v, c, words.format);
  // Text and dates quoted, as typed: a comma or " = " inside a name does not read as the next part.
  return c.type === 'text' || c.type === 'date' ? JSON.stringify(shown) : shown;
}
