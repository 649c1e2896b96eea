// The columns as the table's page gets them: header in the UI's language, type, width, and
// whether their cells can be edited (the page marks read-only cells with aria-readonly, so a
// screen reader says so before Enter is tried). A column read only for updates but set with an
// add (the item type, the assignees) is editable in new rows.
import type { CellContext, ColumnDef } from './model';
import type { ColumnInfo } from './protocol';
import { core } from '../core/load';

export function pageColumns(columns: readonly ColumnDef[], lang: string, widths: Readonly<Record<string, number>>, ctx: CellContext): ColumnInfo[] {
  return columns.map((c) => {
    const info: ColumnInfo = { key: c.key, label: core().columnLabel(c, lang), type: c.type, width: widths[c.key] ?? core().defaultWidth(c) };
    if (core().readOnlyReason(c, ctx) !== undefined) {
      info.readOnly = true;
      if (core().readOnlyReason(c, { ...ctx, newRow: true }) === undefined) info.editableWhenNew = true;
    }
    return info;
  });
}
