// New rows of the table (items to add), without vscode. A new row is a row of the table
// with a temporary ID (`new-1`, `new-2`, …) that the service never sees. It exists while
// its mark is a pending edit (the pseudo-field NEW_ROW_MARK, whose value names its parent):
// so creating rows is one step of the table's undo like any edit, Undo takes the rows away
// and Redo brings them back, and the table's kept edits bring them back after a reload.
// Its values are pending edits too (edited, checked and shown like any cell); the review
// turns the live new rows into adds, each row below an existing item one add with the new
// rows below it nested in their order.
import type { AddSpec } from '../../schema/add-rules';
import type { AddWorkItemRequest } from '../../schema/additions';
import { type ColumnDef, assignmentIds } from './columns';
import { isDraftParent, isNewRowId, type NewItemDraft } from './drafts';
import type { CellChange, CellEdit, TableEdits } from './edits';
import { type LoadedRow, PARENT_PATH_SEPARATOR } from './load';

/** The pseudo-field whose pending edit keeps a new row alive; its value is `{ parent }`. */
export const NEW_ROW_MARK = '$newRow';
const PREFIX = 'new-';
export { isNewRowId };

/** The number of a new row's ID (0 when it is not one). */
export function newRowNumber(id: string): number {
  if (!isNewRowId(id)) return 0;
  const n = Number(id.slice(PREFIX.length));
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}

/** The parent a mark names, when it is a well-formed mark. */
export function markParent(v: unknown): string | undefined {
  const p = typeof v === 'object' && v !== null ? (v as { parent?: unknown }).parent : undefined;
  return typeof p === 'string' && p !== '' ? p : undefined;
}

/** Fields the table derives or the service sets: never sent in an add. */
const NOT_SENT: ReadonlySet<string> = new Set([NEW_ROW_MARK, 'Id', 'ParentId', 'ParentName', 'FolderName', 'FolderId', 'ProjectName', 'ProjectCode', 'ActualTime', 'Assignments']);

/** Fields Duplicate Rows copies from a row besides its custom fields: a copy starts as new work (no status, no progress, no actuals). */
const COPIED: readonly string[] = ['ItemTypeId', 'Name', 'Code', 'LeaderId', 'Assignments', 'PlannedStartDate', 'PlannedFinishDate', 'PlannedTime', 'Description'];

/** Where a row sits: what a new row below it needs (its level and the path its children show). */
export interface ParentPlace {
  id: string;
  /** 0 for the table's root (a project's root folder or the folder the table shows). */
  level: number;
  /** The path of names a child shows as its parent ("" for the root's children: none). */
  childPath: string;
}

/** The place of a row as a parent: its level and the path its children show. */
export function placeOfRow(row: LoadedRow, fields: Readonly<Record<string, unknown>>): ParentPlace {
  const name = typeof fields['Name'] === 'string' && fields['Name'] !== '' ? fields['Name'] : row.id;
  const path = typeof fields['ParentName'] === 'string' && fields['ParentName'] !== '' ? `${fields['ParentName']}${PARENT_PATH_SEPARATOR}${name}` : name;
  return { id: row.id, level: row.level, childPath: path };
}

/** The rows a list of drafts makes and the cells that create them (marks first), as one step of the table's undo. */
export interface MadeRows {
  rows: LoadedRow[];
  changes: CellChange[];
  /** The number the next new row takes. */
  next: number;
}

/**
 * New rows for drafts (in tree order: a parent draft before its children). `place` gives
 * where an existing parent sits (undefined: not a row of the table, the draft refused by
 * the caller before). Values of the drafts become the rows' pending edits.
 */
export function makeNewRows(drafts: readonly NewItemDraft[], place: (id: string) => ParentPlace | undefined, first: number): MadeRows {
  const rows: LoadedRow[] = [];
  const changes: CellChange[] = [];
  const made: ParentPlace[] = [];
  const hasKids = new Set<number>();
  for (const d of drafts) if (isDraftParent(d.parent)) hasKids.add(d.parent.draft);
  let n = first;
  drafts.forEach((d, i) => {
    const parent = isDraftParent(d.parent) ? made[d.parent.draft] : place(d.parent.id);
    if (!parent) throw new RangeError(`new item ${i + 1}: its parent is not a row of the table`);
    const id = `${PREFIX}${n++}`;
    const level = parent.level + 1;
    rows.push({ id, level, hasChildren: hasKids.has(i), fields: { ParentId: parent.id, ParentName: parent.childPath === '' ? null : parent.childPath } });
    changes.push({ id, field: NEW_ROW_MARK, value: { parent: parent.id } });
    for (const [field, value] of Object.entries(d.fields)) if (value !== undefined && value !== null && value !== '') changes.push({ id, field, value });
    const name = typeof d.fields['Name'] === 'string' && d.fields['Name'] !== '' ? d.fields['Name'] : id;
    made[i] = { id, level, childPath: parent.childPath === '' ? name : `${parent.childPath}${PARENT_PATH_SEPARATOR}${name}` };
  });
  return { rows, changes, next: n };
}

/**
 * The rows with new ones put in place: each after the last row below its parent (the end
 * of its parent's children, where the service adds by default); a new row below the
 * table's root goes last. Rows are in tree order (pre-order), `added` too.
 */
export function insertRows(rows: readonly LoadedRow[], added: readonly LoadedRow[]): LoadedRow[] {
  let out = rows.slice();
  let i = 0;
  while (i < added.length) {
    // A block: a row and the added rows below it that follow it (pre-order).
    const head = added[i]!;
    const inBlock = new Set([head.id]);
    let j = i + 1;
    while (j < added.length && added[j]!.level > head.level && inBlock.has(String(added[j]!.fields['ParentId']))) inBlock.add(added[j++]!.id);
    const block = added.slice(i, j);
    const parentId = String(head.fields['ParentId'] ?? '');
    const at = out.findIndex((r) => r.id === parentId);
    let end = out.length;
    if (at >= 0) {
      end = at + 1;
      while (end < out.length && out[end]!.level > out[at]!.level) end++;
      if (out[at]!.hasChildren !== true) out[at] = { ...out[at]!, hasChildren: true };
    }
    out = [...out.slice(0, end), ...block, ...out.slice(end)];
    i = j;
  }
  return out;
}

/** Rows that are shown: every row read, and the new rows whose mark is pending. */
export function liveRows(rows: readonly LoadedRow[], edits: TableEdits): readonly LoadedRow[] {
  let any = false;
  for (const r of rows) if (isNewRowId(r.id)) { any = true; break; }
  return any ? rows.filter((r) => !isNewRowId(r.id) || edits.isEdited(r.id, NEW_ROW_MARK)) : rows;
}

/** A new row the review cannot add, and the fields it lacks. */
export interface NewRowProblem {
  id: string;
  path: string;
  missing: ('Name' | 'ItemTypeId')[];
}

/** The adds of the table's live new rows, in the table's order. */
export interface NewRowAdds {
  adds: AddSpec[];
  /** New rows in them. */
  count: number;
  problems: NewRowProblem[];
  /** The new rows each add carries, its top row first (the table drops them once the add is sent). */
  rowsOf: string[][];
}

/** The body of one new row: its fields (edits of the row, system names) and its assignments. */
function itemOf(rowEdits: readonly CellEdit[]): AddWorkItemRequest {
  const fields: Record<string, unknown> = {};
  let assignments: AddWorkItemRequest['assignments'];
  for (const e of rowEdits) {
    if (e.field === 'Assignments') {
      const ids = assignmentIds(e.value);
      if (ids.length > 0) assignments = ids.map((partyId) => ({ partyId }));
    } else if (!NOT_SENT.has(e.field) && e.value !== undefined) fields[e.field] = e.value;
  }
  return { fields, ...(assignments ? { assignments } : {}) };
}

/**
 * Turns the live new rows into adds: a new row below an existing item is one add, the new
 * rows below it its `subItems` in the table's order. A row without a name or an item type
 * is a problem (the review says which rows, nothing is sent).
 */
export function newRowAdds(rows: readonly LoadedRow[], edits: TableEdits): NewRowAdds {
  const out: NewRowAdds = { adds: [], count: 0, problems: [], rowsOf: [] };
  const live = rows.filter((r) => isNewRowId(r.id) && edits.isEdited(r.id, NEW_ROW_MARK));
  if (live.length === 0) return out;
  const byEdits = new Map<string, CellEdit[]>();
  for (const e of edits.all()) if (isNewRowId(e.id)) (byEdits.get(e.id) ?? byEdits.set(e.id, []).get(e.id)!).push(e);
  const items = new Map<string, AddWorkItemRequest>();
  const rowsOfTop = new Map<string, string[]>();
  const topOf = new Map<string, string>();
  for (const r of live) {
    const parent = markParent(edits.get(r.id, NEW_ROW_MARK)?.value) ?? '';
    const item = itemOf(byEdits.get(r.id) ?? []);
    const has = (f: string) => (byEdits.get(r.id) ?? []).some((e) => e.field === f && e.value !== null && e.value !== '');
    const missing = (['Name', 'ItemTypeId'] as const).filter((f) => !has(f));
    if (missing.length > 0) out.problems.push({ id: r.id, path: typeof r.fields['ParentName'] === 'string' ? r.fields['ParentName'] : '', missing });
    items.set(r.id, item);
    out.count++;
    const parentItem = items.get(parent);
    if (parentItem && isNewRowId(parent)) {
      (parentItem.subItems ??= []).push(item);
      const top = topOf.get(parent)!;
      topOf.set(r.id, top);
      rowsOfTop.get(top)!.push(r.id);
    } else {
      out.adds.push({ parentId: parent, item });
      topOf.set(r.id, r.id);
      rowsOfTop.set(r.id, [r.id]);
      out.rowsOf.push(rowsOfTop.get(r.id)!);
    }
  }
  return out;
}

/** The edits of rows that exist on the service (the new rows' go into adds). */
export function existingEdits(edits: TableEdits): CellEdit[] {
  return edits.all().filter((e) => !isNewRowId(e.id));
}

/** What Duplicate Rows copies of a row (its values with edits): the fields an add can set, besides status, progress and actuals. */
export function copiedFields(fields: Readonly<Record<string, unknown>>, columns: readonly ColumnDef[], editable: (c: ColumnDef) => boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const keys = new Set([...COPIED, ...columns.filter((c) => c.field !== undefined && editable(c)).map((c) => c.key)]);
  for (const k of keys) {
    if (NOT_SENT.has(k) && k !== 'Assignments') continue;
    const v = fields[k];
    if (v === undefined || v === null || v === '') continue;
    out[k] = k === 'Assignments' ? assignmentIds(v) : v;
  }
  return out;
}

/**
 * The new rows the kept edits of a table name, made again after a reload: the rows in the
 * order of their numbers (a parent's number is smaller than its children's), each below
 * its parent when the parent is here (a row read or a new row made before it).
 */
export function keptNewRows(kept: readonly { id: string; field: string; value: unknown }[], place: (id: string) => ParentPlace | undefined): { rows: LoadedRow[]; next: number } {
  const marks = kept.filter((e) => e.field === NEW_ROW_MARK && newRowNumber(e.id) > 0 && markParent(e.value) !== undefined);
  marks.sort((a, b) => newRowNumber(a.id) - newRowNumber(b.id));
  const names = new Map<string, string>();
  for (const e of kept) if (e.field === 'Name' && typeof e.value === 'string' && isNewRowId(e.id)) names.set(e.id, e.value);
  const made = new Map<string, ParentPlace>();
  const rows: LoadedRow[] = [];
  const parents = new Set(marks.map((m) => markParent(m.value)!));
  let next = 1;
  for (const m of marks) {
    next = Math.max(next, newRowNumber(m.id) + 1);
    const parentId = markParent(m.value)!;
    const parent = made.get(parentId) ?? place(parentId);
    if (!parent) continue;
    const level = parent.level + 1;
    rows.push({ id: m.id, level, hasChildren: parents.has(m.id), fields: { ParentId: parentId, ParentName: parent.childPath === '' ? null : parent.childPath } });
    const name = names.get(m.id) || m.id;
    made.set(m.id, { id: m.id, level, childPath: parent.childPath === '' ? name : `${parent.childPath}${PARENT_PATH_SEPARATOR}${name}` });
  }
  return { rows, next };
}

/** A new row as the page shows it: marked as new, its ID cell saying so, its cells not marked as edited one by one (the whole row is new). */
export function shownNewRow<R extends { id: string; cells: string[]; edited?: Record<string, string> }>(row: R, columns: readonly { key: string }[], label: string): R & { added: true } {
  const cells = row.cells.slice();
  const at = columns.findIndex((c) => c.key === 'Id');
  if (at >= 0) cells[at] = label;
  const { edited: _edited, ...rest } = row;
  return { ...(rest as R), cells, added: true };
}
