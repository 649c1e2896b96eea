// The sandbox's field catalogue: the system fields (official names, F1/F2/G1 of
// official-reference.md) and the data set's custom field definitions, checks of a
// custom field's value (for the update engine), and `GET /system/fieldTypes` (L1)
// with the list conventions of section 11. No vscode import.
//
// Choices where the help is silent (assumptions, documented here and in docs/sandbox.md):
// - System fields get IDs "1".."N" in table order; custom fields carry their own IDs
//   (a data set must not reuse a system field's ID or system name).
// - `isReadOnly` of a system field: not settable through `fields` of an update
//   (src/schema/fields.ts `editable`); official read-only names are read-only too.
// - Values: text and List values are strings (a List value is the choice's name; its
//   code or ID are accepted on update and stored as the name); numbers are numbers;
//   Date values are written `yyyy-MM-dd` (a time part is accepted and dropped) and
//   read as `yyyy-MM-ddT00:00:00`, like PlannedStartDate; null clears a value.
// - fieldTypes list: default order system fields first (table order), then custom
//   fields in data-set order; `orderby` takes id, name, systemName, code, dataType;
//   no default limit, `limit` at most 1000; text filters are case-insensitive
//   "contains"; `keyword` matches name, systemName or code.
import type { FieldDataType, FieldType } from '../schema/catalogue';
import { fieldInfo } from '../schema/fields';
import { filterText, guarded, MAX_LIST_LIMIT, readBoolean, readInt, readOrderBy, compareValues, type ListResult, type Query } from './lists';
import type { CustomFieldChoice, CustomFieldDefinition, Dataset } from './model';

/** A system field as `/system/fieldTypes` lists it. */
export interface SystemFieldType {
  readonly id: string;
  readonly name: string;
  readonly systemName: string;
  readonly dataType: FieldDataType;
  /** Not settable through `fields` of an update. */
  readonly isReadOnly: boolean;
  readonly maxLength?: number;
  readonly minValue?: number;
  readonly maxValue?: number;
}

/** [Japanese name, system name, data type, extra range]: the official order of the help first (F1, G1). */
const SYSTEM_ROWS: [string, string, FieldDataType, Partial<SystemFieldType>?][] = [
  ['ID', 'Id', 'Id'],
  ['プロジェクト', 'ProjectId', 'Id'],
  ['プロジェクト名', 'ProjectName', 'String'],
  ['プロジェクトコード', 'ProjectCode', 'String'],
  ['アイテムタイプ', 'ItemTypeId', 'Id'],
  ['ステータス', 'StatusTypeId', 'Id'],
  ['フォルダ', 'FolderId', 'Id'],
  ['フォルダ名', 'FolderName', 'String'],
  ['親アイテム', 'ParentId', 'Id'],
  ['親アイテム名', 'ParentName', 'String'],
  ['工程分類', 'ProcessCategoryId', 'Id'],
  ['作業分類', 'TimeEntryCategoryId', 'Id'],
  ['名前', 'Name', 'String', { maxLength: 256 }],
  ['コード', 'Code', 'String', { maxLength: 256 }],
  ['説明', 'Description', 'MultiLineString'],
  ['予定開始日', 'PlannedStartDate', 'Date'],
  ['予定終了日', 'PlannedFinishDate', 'Date'],
  ['進捗率', 'ActualProgress', 'Decimal', { minValue: 0, maxValue: 100 }],
  ['進捗管理', 'TracksProgress', 'Boolean'],
  ['予定工数', 'PlannedTime', 'Integer', { minValue: 0 }],
  ['管理予定工数', 'ManagedPlannedTime', 'Integer'],
  ['予定原価', 'PlannedCost', 'Decimal'],
  ['実績工数', 'ActualTime', 'Integer'],
  ['実績原価', 'ActualCost', 'Decimal'],
  ['リーダー', 'LeaderId', 'User'],
  ['担当者', 'Assignments', 'Assignments'],
  ['実績入力ロック', 'IsTimeEntryLocked', 'Boolean'],
  ['削除済み', 'IsDeleted', 'Boolean'],
  ['計算方法', 'FieldCalcTypes', 'String'],
  ['作成日時', 'CreatedAt', 'DateTime'],
  ['更新日時', 'UpdatedAt', 'DateTime'],
  ['更新者', 'UpdatedBy', 'User'],
  ['ユーザー更新日時', 'UserUpdatedAt', 'DateTime'],
  ['ユーザー更新者', 'UserUpdatedBy', 'User'],
  ['アクセス権の継承', 'IsAclInherited', 'Boolean'],
];

/** The system fields, in the order the help shows them (then the rest). */
export const SYSTEM_FIELD_TYPES: readonly SystemFieldType[] = SYSTEM_ROWS.map(([name, systemName, dataType, extra], i) => ({
  id: String(i + 1),
  name,
  systemName,
  dataType,
  isReadOnly: fieldInfo(systemName)?.editable !== true,
  ...extra,
}));

const SYSTEM_BY_NAME = new Map(SYSTEM_FIELD_TYPES.map((f) => [f.systemName, f]));

/** The system field of this exact system name, or undefined. */
export function systemFieldType(systemName: string): SystemFieldType | undefined {
  return SYSTEM_BY_NAME.get(systemName);
}

/** The live (not deleted) custom field of this exact system name in the data set, or undefined. */
export function customFieldDefinition(data: Pick<Dataset, 'fieldTypes'>, systemName: string): CustomFieldDefinition | undefined {
  for (const f of data.fieldTypes) if (f.systemName === systemName && !f.isDeleted) return f;
  return undefined;
}

/** The live custom fields of the data set, in data-set order. */
export function liveCustomFields(data: Pick<Dataset, 'fieldTypes'>): CustomFieldDefinition[] {
  return data.fieldTypes.filter((f) => !f.isDeleted);
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/;

function validDate(y: string, m: string, d: string): boolean {
  const t = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return t.toISOString().slice(0, 10) === `${y}-${m}-${d}`;
}

function findChoice(def: CustomFieldDefinition, value: string): CustomFieldChoice | undefined {
  const list = def.choices ?? [];
  return list.find((c) => c.name === value) ?? list.find((c) => c.code !== '' && c.code === value) ?? list.find((c) => c.id === value);
}

const range = (def: CustomFieldDefinition): string =>
  def.minValue !== undefined && def.maxValue !== undefined
    ? `from ${def.minValue} to ${def.maxValue}`
    : def.minValue !== undefined
      ? `of at least ${def.minValue}`
      : `of at most ${def.maxValue}`;

/**
 * Why `value` cannot be written to the custom field `def` (a short English reason,
 * e.g. "expected a date as yyyy-MM-dd"), or undefined when it can. null clears the
 * value and is always accepted. Pure: no data set, no clock.
 */
export function checkCustomFieldValue(def: CustomFieldDefinition, value: unknown): string | undefined {
  if (value === null) return undefined;
  switch (def.dataType) {
    case 'String':
    case 'MultiLineString': {
      if (typeof value !== 'string') return 'expected text (a JSON string)';
      if (def.dataType === 'String' && /[\r\n]/.test(value)) return 'expected one line of text (no line breaks)';
      if (def.maxLength !== undefined && [...value].length > def.maxLength) return `expected text of at most ${def.maxLength} characters`;
      return undefined;
    }
    case 'Integer':
    case 'Decimal': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return def.dataType === 'Integer' ? 'expected a whole number' : 'expected a number';
      if (def.dataType === 'Integer' && !Number.isInteger(value)) return 'expected a whole number';
      if ((def.minValue !== undefined && value < def.minValue) || (def.maxValue !== undefined && value > def.maxValue)) return `expected a number ${range(def)}`;
      return undefined;
    }
    case 'Date':
    case 'DateTime': {
      const m = typeof value === 'string' ? DATE_RE.exec(value) : null;
      if (!m || !validDate(m[1]!, m[2]!, m[3]!)) return def.dataType === 'Date' ? 'expected a date as yyyy-MM-dd' : 'expected a date and time as yyyy-MM-ddTHH:mm:ss';
      if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59)) return 'expected a time of day from 00:00:00 to 23:59:59';
      return undefined;
    }
    case 'Boolean':
      return typeof value === 'boolean' ? undefined : 'expected true or false';
    case 'List': {
      if (typeof value !== 'string' || findChoice(def, value) === undefined) {
        const names = (def.choices ?? []).map((c) => JSON.stringify(c.name)).join(', ');
        return `expected one of the choices ${names || '(none defined)'}`;
      }
      return undefined;
    }
  }
}

/**
 * The value to store for an accepted `value` (checkCustomFieldValue gave undefined):
 * a Date as `yyyy-MM-dd`, a DateTime as `yyyy-MM-ddTHH:mm:ss`, a List value as the
 * choice's name; anything else as given. undefined for null (the value is removed).
 */
export function customFieldStoredValue(def: CustomFieldDefinition, value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if ((def.dataType === 'Date' || def.dataType === 'DateTime') && typeof value === 'string') {
    const m = DATE_RE.exec(value);
    if (!m) return value;
    const day = `${m[1]}-${m[2]}-${m[3]}`;
    return def.dataType === 'Date' ? day : `${day}T${m[4] ?? '00'}:${m[5] ?? '00'}:${m[6] ?? '00'}`;
  }
  if (def.dataType === 'List' && typeof value === 'string') return findChoice(def, value)?.name ?? value;
  return value;
}

/** A stored custom value as reads answer it (a Date as `yyyy-MM-ddT00:00:00`; none: null). */
export function customFieldReadValue(def: CustomFieldDefinition, stored: unknown): unknown {
  if (stored === undefined || stored === null) return null;
  if (def.dataType === 'Date' && typeof stored === 'string' && stored.length === 10) return `${stored}T00:00:00`;
  return stored;
}

/**
 * Problems of the custom fields of a data set (`path: what is wrong`): unique IDs and
 * system names (not a system field's), ranges that fit the type, and each stored
 * value checked against its definition (a value for an unknown or deleted field is kept,
 * not read).
 */
export function checkCustomFields(d: Dataset): string[] {
  const problems: string[] = [];
  const ids = new Map<string, number>();
  const names = new Map<string, number>();
  d.fieldTypes.forEach((f, i) => {
    const where = `fieldTypes[${i}]`;
    if (ids.has(f.id)) problems.push(`${where}.id: duplicate ID ${JSON.stringify(f.id)}`);
    else ids.set(f.id, i);
    if (SYSTEM_FIELD_TYPES.some((s) => s.id === f.id)) problems.push(`${where}.id: ${JSON.stringify(f.id)} is the ID of a system field (system fields use 1 to ${SYSTEM_FIELD_TYPES.length})`);
    if (SYSTEM_BY_NAME.has(f.systemName)) problems.push(`${where}.systemName: ${JSON.stringify(f.systemName)} is a system field`);
    else if (names.has(f.systemName)) problems.push(`${where}.systemName: ${JSON.stringify(f.systemName)} is also the system name of fieldTypes[${names.get(f.systemName)}]`);
    else names.set(f.systemName, i);
    const numeric = f.dataType === 'Integer' || f.dataType === 'Decimal';
    if (!numeric && (f.minValue !== undefined || f.maxValue !== undefined)) problems.push(`${where}: minValue and maxValue are for Integer and Decimal fields, not ${f.dataType}`);
    if (f.minValue !== undefined && f.maxValue !== undefined && f.minValue > f.maxValue) problems.push(`${where}.minValue: ${f.minValue} is greater than maxValue ${f.maxValue}`);
    if (f.maxLength !== undefined && f.dataType !== 'String' && f.dataType !== 'MultiLineString') problems.push(`${where}.maxLength: only text fields have a maxLength, not ${f.dataType}`);
    if (f.dataType === 'List' && (f.choices ?? []).length === 0) problems.push(`${where}.choices: a List field needs at least one choice`);
    if (f.dataType !== 'List' && f.choices !== undefined) problems.push(`${where}.choices: only List fields have choices, not ${f.dataType}`);
  });
  d.workItems.forEach((w, i) => {
    for (const [name, value] of Object.entries(w.customFields)) {
      const def = customFieldDefinition(d, name);
      if (!def) continue;
      const why = checkCustomFieldValue(def, value);
      if (why !== undefined) problems.push(`workItems[${i}].customFields.${name}: ${why}, got ${JSON.stringify(value)}`);
    }
  });
  return problems;
}

// ---------------------------------------------------------------------------
// GET /system/fieldTypes
// ---------------------------------------------------------------------------

/** A field type as the wire shape FieldType (src/schema/catalogue.ts) has it. */
export type ApiFieldType = FieldType & { id: string; name: string; systemName: string; code: string; dataType: string; isSystemField: boolean; isReadOnly: boolean; isDeleted: boolean };

function apiSystemField(f: SystemFieldType): ApiFieldType {
  const out: ApiFieldType = { id: f.id, name: f.name, systemName: f.systemName, code: '', dataType: f.dataType, isSystemField: true, isReadOnly: f.isReadOnly, isDeleted: false, description: '' };
  if (f.maxLength !== undefined) out.maxLength = f.maxLength;
  if (f.minValue !== undefined) out.minValue = f.minValue;
  if (f.maxValue !== undefined) out.maxValue = f.maxValue;
  return out;
}

/** A custom field definition as `/system/fieldTypes` and the project profile answer it. */
export function apiCustomField(f: CustomFieldDefinition): ApiFieldType {
  const out: ApiFieldType = {
    id: f.id,
    name: f.name,
    systemName: f.systemName,
    code: f.code,
    dataType: f.dataType,
    isSystemField: false,
    isReadOnly: false,
    isDeleted: f.isDeleted,
    description: f.description,
  };
  if (f.maxLength !== undefined) out.maxLength = f.maxLength;
  if (f.minValue !== undefined) out.minValue = f.minValue;
  if (f.maxValue !== undefined) out.maxValue = f.maxValue;
  if (f.choices !== undefined) out.choices = f.choices.map((c) => ({ id: c.id, name: c.name, code: c.code }));
  return out;
}

const API_SYSTEM_FIELDS: readonly ApiFieldType[] = SYSTEM_FIELD_TYPES.map(apiSystemField);

/** Every field type of the data set (system fields, then custom ones, deleted ones included). */
export function allFieldTypes(data: Pick<Dataset, 'fieldTypes'>): ApiFieldType[] {
  return [...API_SYSTEM_FIELDS, ...data.fieldTypes.map(apiCustomField)];
}

const FIELD_TYPE_PARAMS = ['name', 'systemName', 'code', 'keyword', 'isSystemField', 'includeDeleted', 'isDeleted', 'limit', 'offset', 'orderby'];
export const FIELD_TYPE_ORDER_FIELDS = ['id', 'name', 'systemName', 'code', 'dataType'] as const;

const has = (field: string, needle: string | undefined): boolean => needle === undefined || field.toLowerCase().includes(needle);

/** `GET /system/fieldTypes` (L1): filters, deleted options (section 11), ordering, paging; `{totalCount, data}`. */
export function listFieldTypes(data: Pick<Dataset, 'fieldTypes'>, q: Query): ListResult<ApiFieldType> {
  return guarded(q, FIELD_TYPE_PARAMS, () => {
    const name = filterText(q, 'name');
    const systemName = filterText(q, 'systemName');
    const code = filterText(q, 'code');
    const keyword = filterText(q, 'keyword');
    const isSystemField = readBoolean(q, 'isSystemField');
    const includeDeleted = readBoolean(q, 'includeDeleted') ?? false;
    const isDeleted = readBoolean(q, 'isDeleted');
    const limit = readInt(q, 'limit', 0, MAX_LIST_LIMIT);
    const offset = readInt(q, 'offset', 0, Number.MAX_SAFE_INTEGER) ?? 0;
    const order = readOrderBy(q, FIELD_TYPE_ORDER_FIELDS);
    const list = allFieldTypes(data).filter((f) => {
      // isDeleted takes effect only with includeDeleted=true (section 11).
      if (!includeDeleted) {
        if (f.isDeleted) return false;
      } else if (isDeleted !== undefined && f.isDeleted !== isDeleted) return false;
      if (isSystemField !== undefined && f.isSystemField !== isSystemField) return false;
      if (!has(f.name, name) || !has(f.systemName, systemName) || !has(f.code, code)) return false;
      if (keyword !== undefined && !has(f.name, keyword) && !has(f.systemName, keyword) && !has(f.code, keyword)) return false;
      return true;
    });
    if (order) {
      const sign = order.desc ? -1 : 1;
      const key = order.field as (typeof FIELD_TYPE_ORDER_FIELDS)[number];
      // IDs are decimal digits: ordered as numbers. Stable: ties keep the default order.
      list.sort((a, b) => sign * (key === 'id' ? Number(a.id) - Number(b.id) || compareValues(a.id, b.id) : compareValues(a[key], b[key])));
    }
    return { ok: true, body: { totalCount: list.length, data: list.slice(offset, limit === undefined ? undefined : offset + limit) } };
  });
}
