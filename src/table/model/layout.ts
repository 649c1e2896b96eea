// The table's layout remembered per project (workspaceState), without vscode: which
// columns in which order, their widths, the sort, "lowest level only". What is read
// back is checked: unknown columns are dropped, widths are kept within bounds, a bad
// value gives the default.
import { type ColumnDef, DEFAULT_COLUMN_KEYS } from './columns';
import type { SortDirection } from './sort';

export interface TableLayout {
  columns: string[];
  widths: Record<string, number>;
  sort?: { key: string; direction: SortDirection };
  lowestOnly: boolean;
}

export const MIN_WIDTH = 40;
export const MAX_WIDTH = 1200;

export function defaultLayout(known: readonly string[]): TableLayout {
  const set = new Set(known);
  return { columns: DEFAULT_COLUMN_KEYS.filter((k) => set.has(k)), widths: {}, lowestOnly: false };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A stored layout checked against the columns that exist (`known`); anything unusable falls back to the default. */
export function readLayout(stored: unknown, known: readonly string[]): TableLayout {
  const base = defaultLayout(known);
  if (!isRecord(stored)) return base;
  const set = new Set(known);
  const columns = Array.isArray(stored['columns']) ? [...new Set(stored['columns'].filter((k): k is string => typeof k === 'string' && set.has(k)))] : [];
  const widths: Record<string, number> = {};
  if (isRecord(stored['widths'])) {
    for (const [k, w] of Object.entries(stored['widths'])) if (set.has(k) && typeof w === 'number' && Number.isFinite(w)) widths[k] = clampWidth(w);
  }
  let sort: TableLayout['sort'];
  const s = stored['sort'];
  if (isRecord(s) && typeof s['key'] === 'string' && set.has(s['key']) && (s['direction'] === 'asc' || s['direction'] === 'desc')) sort = { key: s['key'], direction: s['direction'] };
  return { columns: columns.length > 0 ? columns : base.columns, widths, ...(sort ? { sort } : {}), lowestOnly: stored['lowestOnly'] === true };
}

export function clampWidth(w: number): number {
  return Math.round(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, w)));
}

/** The sort after a click on a column's header: ascending, then descending, then none. */
export function nextSort(current: TableLayout['sort'], key: string): TableLayout['sort'] {
  if (!current || current.key !== key) return { key, direction: 'asc' };
  return current.direction === 'asc' ? { key, direction: 'desc' } : undefined;
}

/** `keys` moved so that `key` stands before `before` (at the end without one). */
export function moveColumn(keys: readonly string[], key: string, before: string | undefined): string[] {
  if (!keys.includes(key) || key === before) return [...keys];
  const rest = keys.filter((k) => k !== key);
  const at = before === undefined ? -1 : rest.indexOf(before);
  if (at < 0) return [...rest, key];
  return [...rest.slice(0, at), key, ...rest.slice(at)];
}

/** The workspaceState key of a project's (or another source's) layout. */
export function layoutKey(scope: string): string {
  return `workItemStudio.table.layout:${scope}`;
}

/** A column's width until the user resizes it. */
export function defaultWidth(c: ColumnDef): number {
  switch (c.key) {
    case 'Name':
      return 260;
    case 'ParentName':
      return 240;
    case 'Assignments':
      return 180;
    default:
      return c.type === 'text' || c.type === 'user' || c.type === 'list' ? 130 : 100;
  }
}
