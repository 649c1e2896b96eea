// A work item as a tree row: the few fields the tree reads, taken from a field map
// of the read operations (PascalCase). No vscode import.
import { workItemIdOf, type SubItemNode } from '../../schema/reads';

export interface WorkItemRow {
  readonly id: string;
  readonly name: string;
  readonly code?: string;
  /** undefined for the project's root folder. */
  readonly parentId?: string;
  /** 0 for the project's root folder, 1 for its top-level items, and so on. */
  readonly level: number;
  readonly isFolder: boolean;
  /** undefined when the service did not say (then the row can be expanded and may turn out empty). */
  readonly hasChildren?: boolean;
  readonly isDeleted: boolean;
  /** ActualProgress, 0 to 100, when known. */
  readonly progress?: number;
  readonly displayOrder?: number;
  /** Every field that came back, as it came back. */
  readonly fields: Readonly<Record<string, unknown>>;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined);
const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : v === 'true' ? true : v === 'false' ? false : undefined);

/**
 * A row from a field map. `level` is the level the row was asked for (the parent's
 * level + 1); the `Level` field wins when the service sends it. undefined when the
 * map has no `Id`.
 */
export function toRow(fields: Record<string, unknown>, level: number, parentId?: string): WorkItemRow | undefined {
  const id = workItemIdOf({ fields });
  if (!id) return undefined;
  // The map itself is kept (no copy) unless it nests children, which the row must not hold on to.
  let rest: Record<string, unknown> = fields;
  if ('SubItems' in fields) {
    const { SubItems: _nested, ...others } = fields;
    rest = others;
  }
  return {
    id,
    name: str(fields['Name']) ?? id,
    code: str(fields['Code']),
    parentId: str(fields['ParentId']) ?? parentId,
    level: num(fields['Level']) ?? level,
    isFolder: bool(fields['IsFolder']) ?? false,
    hasChildren: bool(fields['HasChildren']),
    isDeleted: bool(fields['IsDeleted']) ?? false,
    progress: num(fields['ActualProgress']),
    displayOrder: num(fields['DisplayOrder']),
    fields: rest,
  };
}

/** Whether the row can be expanded: the service said it has children, or did not say. */
export function isExpandable(row: WorkItemRow): boolean {
  return row.hasChildren ?? true;
}

export function isCompleted(row: WorkItemRow): boolean {
  return row.progress !== undefined && row.progress >= 100;
}

export type ItemKind = 'folder' | 'milestone' | 'task';

/** What icon the row gets: folders, milestones (by type ID or name), everything else a task. */
export function itemKind(row: WorkItemRow): ItemKind {
  if (row.isFolder) return 'folder';
  const type = `${str(row.fields['ItemTypeId']) ?? ''} ${str(row.fields['ItemTypeName']) ?? ''}`.toLowerCase();
  if (/milestone|マイルストーン/.test(type)) return 'milestone';
  return 'task';
}

/**
 * The direct children of a `subItems` answer's one element (`fields.SubItems`), as rows
 * of level `parentLevel + 1`, in display order (the service's order where it gives none).
 * Children without an `Id` are skipped and counted.
 */
export function childRows(node: SubItemNode, parentLevel: number): { rows: WorkItemRow[]; skipped: number } {
  const parentId = workItemIdOf(node);
  const subs = node.fields.SubItems ?? [];
  const rows: WorkItemRow[] = [];
  let skipped = 0;
  for (const child of subs) {
    const row = child && typeof child === 'object' && child.fields ? toRow(child.fields, parentLevel + 1, parentId) : undefined;
    if (row) rows.push(row);
    else skipped++;
  }
  sortRows(rows);
  return { rows, skipped };
}

/** Sorts in place by DisplayOrder (rows without one keep their place after those with one; stable). */
export function sortRows(rows: WorkItemRow[]): WorkItemRow[] {
  // The service answers in display order as a rule: one pass finds that out, and no sort is needed.
  let ordered = true;
  for (let i = 1; i < rows.length && ordered; i++) ordered = (rows[i - 1]!.displayOrder ?? Infinity) <= (rows[i]!.displayOrder ?? Infinity);
  if (ordered) return rows;
  return rows.sort((a, b) => (a.displayOrder ?? Number.POSITIVE_INFINITY) - (b.displayOrder ?? Number.POSITIVE_INFINITY));
}

/** Minutes as hours for people: `90` → `1.5`. */
export function hoursOf(minutes: unknown): string | undefined {
  const m = num(minutes);
  if (m === undefined) return undefined;
  return String(Math.round((m / 60) * 100) / 100);
}

/** A date or datetime field as `yyyy-MM-dd` (the time part of a date-only field is noise). */
export function dateOf(value: unknown): string | undefined {
  const s = str(value);
  if (!s) return undefined;
  const m = /^(\d{4}-\d{2}-\d{2})(?:T00:00:00(?:\.0+)?Z?)?$/.exec(s);
  return m ? m[1] : s;
}

export { str as fieldText, num as fieldNumber };
