// A work item as a tree row: the few fields the tree reads, taken from a field map
// of the read operations (PascalCase). No vscode import.
import type { SubItemNode } from '../../schema/reads';
import type { ProjectTypes } from './types';
import { core } from '../../core/load';

export interface WorkItemRow {
  readonly id: string;
  readonly name: string;
  readonly code?: string;
  /** undefined for the project's root folder (ParentId absent or "0"). */
  readonly parentId?: string;
  /** From the position in the tree: 0 for the project's root folder, 1 for its top-level items, and so on. */
  readonly level: number;
  /**
   * true when the answer carried some of its sub-items (a service that answered deeper than
   * asked); otherwise undefined until its level is read: the row can be expanded and may turn
   * out empty. Never read from a field (the help shows no HasChildren).
   */
  readonly hasChildren?: boolean;
  /** IsDeleted when a service sends it (the help does not show it; reads leave deleted items out). */
  readonly isDeleted: boolean;
  /** ActualProgress, 0 to 100, when known. */
  readonly progress?: number;
  /** Every field that came back, as it came back. */
  readonly fields: Readonly<Record<string, unknown>>;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined);
const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : v === 'true' ? true : v === 'false' ? false : undefined);

/**
 * A row from a field map. `level` is the level the row was asked for (the parent's
 * level + 1): the level comes from the position in the tree, never from a field.
 * `parentId` is the item the row was read below; the `ParentId` field wins when it names
 * one ("0" names none: the root folder). undefined when the map has no `Id`.
 */
export function toRow(fields: Record<string, unknown>, level: number, parentId?: string): WorkItemRow | undefined {
  const id = core().workItemIdOf({ fields });
  if (!id) return undefined;
  // The map itself is kept (no copy) unless it nests children, which the row must not hold on to.
  let rest: Record<string, unknown> = fields;
  let hasChildren: boolean | undefined;
  if ('SubItems' in fields) {
    const { SubItems: nested, ...others } = fields;
    rest = others;
    if (Array.isArray(nested) && nested.length > 0) hasChildren = true;
  }
  return {
    id,
    name: str(fields['Name']) ?? id,
    code: str(fields['Code']),
    parentId: core().idValue(fields['ParentId']) ?? parentId,
    level,
    hasChildren,
    isDeleted: bool(fields['IsDeleted']) ?? false,
    progress: num(fields['ActualProgress']),
    fields: rest,
  };
}

export function isCompleted(row: WorkItemRow): boolean {
  return row.progress !== undefined && row.progress >= 100;
}

export type ItemKind = 'folder' | 'milestone' | 'task';

/** What icon the row gets: folders and milestones as `types` decides (the profile, else the answers' shape), everything else a task. */
export function itemKind(row: WorkItemRow, types: ProjectTypes): ItemKind {
  if (types.isFolder(row)) return 'folder';
  if (types.isMilestone(row)) return 'milestone';
  return 'task';
}

/**
 * The direct children of a `subItems` answer's one element (`fields.SubItems`), as rows
 * of level `parentLevel + 1`, in the answer's order (the help shows no order field).
 * Children without an `Id` are skipped and counted.
 */
export function childRows(node: SubItemNode, parentLevel: number): { rows: WorkItemRow[]; skipped: number } {
  const parentId = core().workItemIdOf(node);
  const subs = node.fields.SubItems ?? [];
  const rows: WorkItemRow[] = [];
  let skipped = 0;
  for (const child of subs) {
    const row = child && typeof child === 'object' && child.fields ? toRow(child.fields, parentLevel + 1, parentId) : undefined;
    if (row) rows.push(row);
    else skipped++;
  }
  return { rows, skipped };
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

/**
 * "2026-03-02 – 2026-03-13", "2026-03-02 – …": the period of two date fields
 * (PlannedStartDate/PlannedFinishDate, official help U2), each read as "2022-10-10" or
 * "2022-10-10T00:00:00"; undefined when neither is set.
 */
export function period(start: unknown, end: unknown): string | undefined {
  const s = dateOf(start);
  const e = dateOf(end);
  if (!s && !e) return undefined;
  return `${s ?? '…'} – ${e ?? '…'}`;
}

/** An ID field's text; undefined for the service's "no value" (`0`, `""`) and for anything that is no ID. */
export function idText(v: unknown): string | undefined {
  return core().idValue(v);
}

export { str as fieldText, num as fieldNumber };
