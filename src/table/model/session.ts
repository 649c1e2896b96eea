// What one open table computes from its rows, without vscode: the columns of a project
// (catalogue + profile), which item types are folders, and the view (lowest level only,
// filter, sort) that the webview is sent.
import type { FieldChoice, FieldType, ProjectProfile } from '../../schema/catalogue';
import { profileEntryId } from '../../schema/catalogue';
import { idValue } from '../../schema/reads';
import { type ColumnDef, type FormatContext, buildColumns } from './columns';
import type { RowPredicate } from './filter';
import { type LoadedRow, lowestLevelRows } from './load';
import { type SortDirection, sortRows } from './sort';

const choices = (list: readonly { itemTypeId?: string | null; statusTypeId?: string | null; id?: string | null; name: string; code?: string | null }[] | null | undefined): FieldChoice[] | undefined =>
  list ? list.flatMap((e) => {
    const id = profileEntryId(e);
    return id === undefined ? [] : [{ id, name: e.name, code: e.code ?? undefined }];
  }) : undefined;

/** Every column of a project's table: the system columns with the profile's item types and statuses as choices, then the catalogue's custom fields. */
export function tableColumns(fieldTypes: readonly FieldType[] | undefined, profile: ProjectProfile | undefined): ColumnDef[] {
  const fields = [...(fieldTypes ?? []), ...(profile?.fieldTypes ?? []).filter((f) => !(fieldTypes ?? []).some((g) => g.systemName === f.systemName))];
  return buildColumns(fields, { itemTypes: choices(profile?.itemTypes), statusTypes: choices(profile?.statusTypes) });
}

/** The IDs of the profile's folder item types (`isFolder`). */
export function folderTypeIds(profile: ProjectProfile | undefined): Set<string> {
  const out = new Set<string>();
  for (const t of profile?.itemTypes ?? []) {
    const id = profileEntryId(t);
    if (t.isFolder === true && id !== undefined) out.add(id);
  }
  return out;
}

/** Whether a row is a folder: by the profile's folder types when it names some, else by having sub-items. */
export function folderTest(folderTypes: ReadonlySet<string>): (row: LoadedRow) => boolean {
  if (folderTypes.size === 0) return (row) => row.hasChildren === true;
  return (row) => {
    const t = idValue(row.fields['ItemTypeId']);
    return t !== undefined && folderTypes.has(t);
  };
}

export interface ViewOptions {
  lowestOnly: boolean;
  isFolder: (row: LoadedRow) => boolean;
  test?: RowPredicate;
  sort?: { column: ColumnDef; direction: SortDirection };
  format?: FormatContext;
}

/** The rows the filter may see (all, or the lowest level only). */
export function baseRows(rows: readonly LoadedRow[], o: Pick<ViewOptions, 'lowestOnly' | 'isFolder'>): readonly LoadedRow[] {
  return o.lowestOnly ? lowestLevelRows(rows, o.isFolder) : rows;
}

/** The rows shown: lowest level only when asked, those the filter passes, sorted (stable) when a sort is set. */
export function computeView(rows: readonly LoadedRow[], o: ViewOptions): LoadedRow[] {
  const base = baseRows(rows, o);
  const test = o.test;
  const filtered = test ? base.filter((r) => test(r)) : [...base];
  return o.sort ? (sortRows(filtered, o.sort.column, o.sort.direction, o.format ?? {}) as LoadedRow[]) : filtered;
}

/** Today in local time, yyyy-MM-dd. */
export function todayOf(d: Date = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/** User IDs a set of rows names (leaders, assignees, user columns). */
export function userIdsOf(rows: readonly LoadedRow[], columns: readonly ColumnDef[]): Set<string> {
  const out = new Set<string>();
  const userCols = columns.filter((c) => c.type === 'user');
  for (const r of rows) {
    for (const c of userCols) {
      const v = r.fields[c.key];
      if (c.multi && Array.isArray(v)) {
        for (const a of v) {
          const id = idValue(typeof a === 'object' && a !== null ? (a as { partyId?: unknown }).partyId : a);
          if (id !== undefined) out.add(id);
        }
      } else {
        const id = idValue(v);
        if (id !== undefined) out.add(id);
      }
    }
  }
  return out;
}
