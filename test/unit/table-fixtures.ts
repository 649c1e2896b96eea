// Shared fixtures of the table model tests: a catalogue with custom fields, a profile's
// item types and statuses, users, and a few rows.
import type { FieldType } from '../../src/schema/catalogue';
import { serviceFieldCatalogue } from '../../src/schema/service-fields';
import { type TableRow, buildColumns, userNames, userResolver } from '../../src/table/model';

export const FIELD_TYPES: FieldType[] = [
  { systemName: 'Name', name: 'Name', dataType: 'String', isSystemField: true, maxLength: 256 },
  { systemName: 'PlannedTime', name: 'Planned time', dataType: 'Integer', isSystemField: true, minValue: 0 },
  { systemName: 'ActualProgress', name: 'Progress', dataType: 'Decimal', isSystemField: true, minValue: 0, maxValue: 100 },
  { systemName: 'Custom_Priority', name: '優先度', dataType: 'List', choices: [{ id: '1', name: '高', code: 'high' }, { id: '2', name: '中', code: 'mid' }, { id: '3', name: '低', code: 'low' }] },
  { systemName: 'Custom_Points', name: 'ポイント', dataType: 'Integer', minValue: 0, maxValue: 100 },
  { systemName: 'Custom_Note', name: 'メモ', dataType: 'String', maxLength: 20 },
  { systemName: 'Custom_Due', name: 'Review date', dataType: 'Date' },
  { systemName: 'Custom_Flag', name: 'フラグ', dataType: 'Boolean' },
  { systemName: 'Custom_Old', name: 'Old', dataType: 'String', isDeleted: true },
  { systemName: 'Custom_Locked', name: 'Locked note', dataType: 'String', isReadOnly: true },
];
export const CATALOGUE = serviceFieldCatalogue(FIELD_TYPES);

export const COLUMNS = buildColumns(FIELD_TYPES, {
  itemTypes: [{ id: '41', name: 'フォルダー' }, { id: '42', name: 'タスク' }, { id: '43', name: 'マイルストーン' }],
  statusTypes: [{ id: '51', name: '未着手' }, { id: '52', name: '進行中' }, { id: '53', name: '完了', code: 'done' }, { id: '54', name: '保留' }],
});
export const col = (key: string) => {
  const c = COLUMNS.find((x) => x.key === key);
  if (!c) throw new Error(`no column ${key}`);
  return c;
};

export const USERS = [
  { id: '2101', name: '鈴木 一郎', loginName: 'suzuki' },
  { id: '2102', name: '田中 花子', loginName: 'tanaka' },
  { id: '2103', name: '佐藤 次郎', loginName: 'sato' },
];
export const resolveUser = userResolver(USERS);
export const userName = userNames(USERS);

const row = (id: string, fields: Record<string, unknown>): TableRow => ({ id, fields: { Id: id, ...fields } });

export const ROWS: TableRow[] = [
  row('101', { Name: '設計', Code: 'A-1', ItemTypeId: '42', StatusTypeId: '52', LeaderId: '2101', Assignments: [{ partyId: '2101' }, { partyId: '2102' }], PlannedStartDate: '2026-02-01T00:00:00', PlannedFinishDate: '2026-02-20T00:00:00', PlannedTime: 450, ActualProgress: 50, ParentName: '開発', Custom_Priority: '1', Custom_Points: 5 }),
  row('102', { Name: '実装', Code: 'A-2', ItemTypeId: '42', StatusTypeId: '51', LeaderId: '2102', Assignments: [{ partyId: '2102' }], PlannedStartDate: '2026-02-21', PlannedFinishDate: '2026-03-10', PlannedTime: 960, ActualProgress: 0, ParentName: '開発', Custom_Priority: '2' }),
  row('103', { Name: 'テスト', Code: 'A-10', ItemTypeId: '42', StatusTypeId: '0', LeaderId: '0', Assignments: [], PlannedStartDate: null, PlannedFinishDate: null, PlannedTime: null, ActualProgress: 0, ParentName: '開発' }),
  row('104', { Name: 'リリース', Code: 'B-1', ItemTypeId: '43', StatusTypeId: '53', LeaderId: '2101', Assignments: [{ partyId: '2103' }], PlannedStartDate: '2026-01-10', PlannedFinishDate: '2026-01-31', PlannedTime: 60, ActualProgress: 100, ParentName: '運用' }),
  row('105', { Name: 'design review', Code: 'a-3', ItemTypeId: '42', StatusTypeId: '52', LeaderId: '2103', Assignments: [{ partyId: '2101' }], PlannedStartDate: '2026-02-01', PlannedFinishDate: '2026-02-25', PlannedTime: 30, ActualProgress: 20, ParentName: '開発', Custom_Note: 'メモあり' }),
];
export const ROWS_BY_ID = new Map(ROWS.map((r) => [r.id, r]));
export const TODAY = '2026-02-22';
