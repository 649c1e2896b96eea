// The table's edits as the webview shows them, without vscode: rows with their pending
// edits applied (what the view filters, sorts and paints), the shown row with its edited
// cells marked and the value before each, and the in-cell editor a column gets (its kind,
// the text it starts with, the choices of a list or user column).
import { type ColumnDef, cellValue, formatCell, type FormatContext, toCellValue } from './columns';
import type { TableEdits } from './edits';
import type { LoadedRow } from './load';
import type { KnownUser } from './lookup';
import type { CellEditorSpec, EditedShownRow } from './shown';
import { shownRow } from './window';

export type { CellEditorSpec, EditedShownRow } from './shown';

/** The rows with their pending edits applied (the same objects where a row has none). */
export function rowsWithEdits(rows: readonly LoadedRow[], edits: TableEdits): LoadedRow[] {
  if (edits.size === 0) return rows as LoadedRow[];
  return rows.map((r) => {
    const f = edits.fieldsOf(r);
    return f === r.fields ? r : { ...r, fields: f };
  });
}

/** The shown cells of `row` (its edits applied) with the edited ones marked by their value before. */
export function shownEditedRow(row: LoadedRow, columns: readonly ColumnDef[], edits: TableEdits, ctx: FormatContext): EditedShownRow {
  const fields = edits.fieldsOf(row);
  const shown: EditedShownRow = shownRow(fields === row.fields ? row : { ...row, fields }, columns, ctx);
  if (fields === row.fields) return shown;
  for (const c of columns) {
    if (!edits.isEdited(row.id, c.key)) continue;
    (shown.edited ??= {})[c.key] = formatCell(cellValue(row, c), c, ctx);
  }
  return shown;
}

/** The editor of column `c` for a row whose values (edits included) are `fields`. */
export function cellEditorFor(c: ColumnDef, fields: Readonly<Record<string, unknown>>, users: readonly KnownUser[] = [], ctx: FormatContext = {}): CellEditorSpec {
  const v = toCellValue(fields[c.key], c);
  switch (c.type) {
    case 'date':
      return { kind: 'date', value: typeof v === 'string' ? v : '' };
    case 'number':
    case 'progress':
      return { kind: 'number', value: typeof v === 'number' ? String(v) : '' };
    case 'hours':
      // Hours as typed (7.5 or 7:30): a text input; H:MM is what the cell shows.
      return { kind: 'text', value: v === null ? '' : formatCell(v, c, ctx) };
    case 'list': {
      if (!c.choices || c.choices.length === 0) return { kind: 'text', value: typeof v === 'string' ? v : '' };
      const choices = c.choices.map((ch) => ({ value: ch.id ?? ch.name, label: ch.name }));
      return { kind: 'choice', value: typeof v === 'string' ? v : '', choices, allowEmpty: false };
    }
    case 'user': {
      if (users.length === 0) return { kind: 'text', value: typeof v === 'string' ? v : '' };
      const choices = users
        .map((u) => ({ value: u.id, label: u.name ?? u.loginName ?? u.id }))
        .sort((a, b) => a.label.localeCompare(b.label));
      if (typeof v === 'string' && !choices.some((x) => x.value === v)) choices.unshift({ value: v, label: ctx.userName?.(v) ?? v });
      return { kind: 'choice', value: typeof v === 'string' ? v : '', choices, allowEmpty: true };
    }
    default:
      return { kind: 'text', value: v === null ? '' : Array.isArray(v) ? v.join(', ') : String(v) };
  }
}

/** The index of each row ID in a view (cells sent in place after an edit). */
export function indexById(view: readonly { id: string }[]): Map<string, number> {
  const m = new Map<string, number>();
  view.forEach((r, i) => m.set(r.id, i));
  return m;
}

/**
 * Rows read again by ID (after a send) merged into `rows` in place: level, container and
 * the path columns come from the first read; the fields read now win. Returns the merged rows.
 */
export function mergeReread(rows: LoadedRow[], reread: readonly { id: string; fields: Readonly<Record<string, unknown>> }[]): LoadedRow[] {
  const at = new Map(rows.map((r, i) => [r.id, i]));
  const out: LoadedRow[] = [];
  for (const row of reread) {
    const i = at.get(row.id);
    if (i === undefined) continue;
    const old = rows[i]!;
    const merged: LoadedRow = { ...old, fields: { ...old.fields, ...row.fields } };
    rows[i] = merged;
    out.push(merged);
  }
  return out;
}
