// Rows and columns of the work item table, without vscode.
//
// A row is a work item's field map as read (official system names, PascalCase) plus
// its ID. A column names one field and says how its cells are read, shown, sorted,
// filtered and edited. The default column set (DEFAULT_COLUMN_KEYS) holds the fields a
// planner reads first; further columns come from the service's field catalogue
// (GET /system/fieldTypes, src/schema/catalogue.ts), custom fields included.
//
// Values of a cell (`cellValue`), by column type:
//   text      string or null            number    number or null
//   date      'yyyy-MM-dd' or null      list      choice ID (string) or null
//   user      user ID or null; Assignments: string[] of party IDs (never null)
//   hours     minutes (number) or null  progress  0..100 or null
// ID fields answer "0" for none (official help): such a value is null here.
import type { FieldChoice, FieldType } from '../../schema/catalogue';
import { idValue, workItemIdOf } from '../../schema/reads';
import { dateOf, formatHours } from './text';

export type ColumnType = 'text' | 'number' | 'date' | 'list' | 'user' | 'hours' | 'progress';

export interface ColumnDef {
  /** The field's system name (the key in `fields`), e.g. "PlannedFinishDate". */
  readonly key: string;
  /** English header. */
  readonly label: string;
  /** Japanese header (the catalogue's display name where it gave one). */
  readonly labelJa?: string;
  readonly type: ColumnType;
  /** Several values in one cell (Assignments: the assigned parties). */
  readonly multi?: boolean;
  /** Choices of a list column (statuses, item types, a custom list field). */
  readonly choices?: readonly FieldChoice[];
  /** The catalogue's entry, when the column comes from it (type and range checks of edits). */
  readonly field?: FieldType;
}

/** Cell value as described in the file header. */
export type CellValue = string | number | readonly string[] | null;

export interface TableRow {
  readonly id: string;
  /** The work item's field map as read (not changed by edits: edits live in TableEdits). */
  readonly fields: Readonly<Record<string, unknown>>;
}

/** How names are shown: user names by ID (users the connection knows). */
export interface FormatContext {
  userName?: (userId: string) => string | undefined;
}

const col = (key: string, label: string, labelJa: string, type: ColumnType, extra: Partial<ColumnDef> = {}): ColumnDef => ({ key, label, labelJa, type, ...extra });

/** The built-in columns of the official system fields the table knows. */
export const SYSTEM_COLUMNS: readonly ColumnDef[] = [
  col('Id', 'ID', 'ID', 'text'),
  col('Name', 'Name', '名称', 'text'),
  col('Code', 'Code', 'コード', 'text'),
  col('ItemTypeId', 'Type', '項目タイプ', 'list'),
  col('StatusTypeId', 'Status', 'ステータス', 'list'),
  col('LeaderId', 'Leader', 'リーダー', 'user'),
  col('Assignments', 'Assignees', '担当者', 'user', { multi: true }),
  col('PlannedStartDate', 'Planned start', '予定開始日', 'date'),
  col('PlannedFinishDate', 'Planned finish', '予定終了日', 'date'),
  col('PlannedTime', 'Planned time (h)', '予定工数 (時間)', 'hours'),
  col('ActualTime', 'Actual time (h)', '実績工数 (時間)', 'hours'),
  col('ActualProgress', 'Progress', '進捗率', 'progress'),
  col('ParentName', 'Parent', '親', 'text'),
  col('FolderName', 'Folder', 'フォルダー', 'text'),
  col('ParentId', 'Parent ID', '親 ID', 'text'),
  col('Description', 'Description', '説明', 'text'),
  col('ProjectName', 'Project', 'プロジェクト', 'text'),
];

/** The columns a new table shows: name, code, type, status, leader, assignees, planned start/finish, planned time, progress, parent. */
export const DEFAULT_COLUMN_KEYS: readonly string[] = [
  'Name', 'Code', 'ItemTypeId', 'StatusTypeId', 'LeaderId', 'Assignments', 'PlannedStartDate', 'PlannedFinishDate', 'PlannedTime', 'ActualProgress', 'ParentName',
];

/** The column type of a catalogue data type (src/schema/catalogue.ts FIELD_DATA_TYPES); unknown types are text. */
export function columnTypeOf(dataType: string | null | undefined): ColumnType {
  switch (dataType) {
    case 'Integer':
    case 'Decimal':
      return 'number';
    case 'Date':
    case 'DateTime':
      return 'date';
    case 'List':
      return 'list';
    case 'User':
      return 'user';
    default:
      return 'text';
  }
}

export interface ProfileChoices {
  /** Item types of the project (profile `itemTypes`), as choices. */
  itemTypes?: readonly FieldChoice[];
  /** Status types of the project (profile `statusTypes`), as choices. */
  statusTypes?: readonly FieldChoice[];
}

/**
 * Every column the table can show: the built-in system columns (with the project's item
 * types and statuses as choices, and the catalogue's entry where it has one), then each
 * field of the catalogue the built-ins do not name (custom fields), in catalogue order.
 * Deleted catalogue fields are left out.
 */
export function buildColumns(catalogue: readonly FieldType[] = [], profile: ProfileChoices = {}): ColumnDef[] {
  const bySystem = new Map(catalogue.filter((f) => !f.isDeleted).map((f) => [f.systemName, f]));
  const out: ColumnDef[] = SYSTEM_COLUMNS.map((c) => {
    const field = bySystem.get(c.key);
    let d: ColumnDef = field ? { ...c, field } : c;
    if (c.key === 'ItemTypeId' && profile.itemTypes) d = { ...d, choices: profile.itemTypes };
    if (c.key === 'StatusTypeId' && profile.statusTypes) d = { ...d, choices: profile.statusTypes };
    return d;
  });
  const known = new Set(out.map((c) => c.key));
  for (const f of bySystem.values()) {
    if (known.has(f.systemName)) continue;
    known.add(f.systemName);
    const type = columnTypeOf(f.dataType);
    out.push({ key: f.systemName, label: f.name, labelJa: f.name, type, field: f, ...(type === 'list' ? { choices: f.choices ?? [] } : {}) });
  }
  return out;
}

/** The columns of `keys`, in that order; keys no column has are left out. */
export function pickColumns(all: readonly ColumnDef[], keys: readonly string[] = DEFAULT_COLUMN_KEYS): ColumnDef[] {
  const byKey = new Map(all.map((c) => [c.key, c]));
  return keys.flatMap((k) => (byKey.has(k) ? [byKey.get(k)!] : []));
}

/** Rows from work item records as read (`{fields}`); records without an ID are left out. */
export function rowsFromRecords(records: readonly { fields: Record<string, unknown> }[]): TableRow[] {
  const out: TableRow[] = [];
  for (const r of records) {
    const id = workItemIdOf(r);
    if (id !== undefined) out.push({ id, fields: r.fields });
  }
  return out;
}

/** The party IDs of an Assignments value as read ([{partyId, ...}] or ["id", ...]). */
export function assignmentIds(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  const out: string[] = [];
  for (const a of v) {
    const id = typeof a === 'object' && a !== null ? idValue((a as { partyId?: unknown }).partyId) : idValue(a);
    if (id !== undefined) out.push(id);
  }
  return out;
}

/** A raw field value as the cell value of a column of `type` (see the file header). */
export function toCellValue(raw: unknown, c: ColumnDef): CellValue {
  if (c.multi) return assignmentIds(raw);
  if (raw === undefined || raw === null) return null;
  switch (c.type) {
    case 'text':
      return typeof raw === 'string' ? (raw === '' ? null : raw) : typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : null;
    case 'number':
    case 'hours':
    case 'progress':
      return typeof raw === 'number' && Number.isFinite(raw) ? raw : null;
    case 'date':
      return dateOf(raw) ?? null;
    case 'list':
    case 'user':
      return idValue(raw) ?? null;
  }
}

/** The value of `row`'s cell in column `c`; `fields` overrides the row's own (an edited value). */
export function cellValue(row: TableRow, c: ColumnDef, fields: Readonly<Record<string, unknown>> = row.fields): CellValue {
  if (c.key === 'Id') return row.id;
  return toCellValue(fields[c.key], c);
}

/** True for a cell with no value (null, or no assignee). */
export function isEmptyCell(v: CellValue): boolean {
  return v === null || (Array.isArray(v) && v.length === 0);
}

/** The name of a list column's choice by ID (else the ID itself). */
export function choiceName(c: ColumnDef, id: string): string {
  const ch = c.choices?.find((x) => x.id === id);
  return ch ? ch.name : id;
}

/** A number as shown: at most 2 decimals, no grouping. */
function formatNumber(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Math.round(n * 100) / 100);
}

/**
 * A cell value as shown: users by name (the ID when the name is unknown), assignees
 * joined with ", ", list values by choice name, hours as H:MM, progress as "50%",
 * dates yyyy-MM-dd; empty cells as "".
 */
export function formatCell(v: CellValue, c: ColumnDef, ctx: FormatContext = {}): string {
  if (v === null) return '';
  if (Array.isArray(v)) return v.map((id) => ctx.userName?.(id) ?? id).join(', ');
  switch (c.type) {
    case 'user':
      return ctx.userName?.(v as string) ?? (v as string);
    case 'list':
      return choiceName(c, v as string);
    case 'hours':
      return formatHours(v as number);
    case 'progress':
      return `${formatNumber(v as number)}%`;
    case 'number':
      return formatNumber(v as number);
    default:
      return String(v);
  }
}

/** The column's header in a language ('ja' when the UI is Japanese). */
export function columnLabel(c: ColumnDef, language: string = 'en'): string {
  return language.startsWith('ja') && c.labelJa ? c.labelJa : c.label;
}
