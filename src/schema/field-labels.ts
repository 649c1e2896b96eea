// The names people read for the service's fields, in English and Japanese: the
// Before/After view, the result view and the generated descriptions of table edits show
// a field by this name and its system name (ActualProgress) only on hover. The Japanese
// names are the glossary's (l10n/glossary.json) and those of the work item table's
// headers (src/table/model/columns.ts; a unit test keeps the two in step); fields not
// listed here (custom fields) are shown by the name the service's field catalogue gives
// (GET /system/fieldTypes), else by their system name. No vscode import.

/** English and Japanese names of the system fields an update can touch or the views show. */
export const SYSTEM_FIELD_LABELS: Readonly<Record<string, { readonly en: string; readonly ja: string }>> = {
  Id: { en: 'ID', ja: 'ID' },
  Name: { en: 'Name', ja: '名称' },
  Code: { en: 'Code', ja: 'コード' },
  Description: { en: 'Description', ja: '説明' },
  ItemTypeId: { en: 'Type', ja: '項目タイプ' },
  StatusTypeId: { en: 'Status', ja: 'ステータス' },
  LeaderId: { en: 'Leader', ja: 'リーダー' },
  Assignments: { en: 'Assignees', ja: '担当者' },
  PlannedStartDate: { en: 'Planned start', ja: '予定開始日' },
  PlannedFinishDate: { en: 'Planned finish', ja: '予定終了日' },
  PlannedTime: { en: 'Planned time', ja: '予定工数' },
  ManagedPlannedTime: { en: 'Managed planned time', ja: '管理予定工数' },
  ActualTime: { en: 'Actual time', ja: '実績工数' },
  ActualProgress: { en: 'Progress', ja: '進捗率' },
  TracksProgress: { en: 'Tracks progress', ja: '進捗管理' },
  PlannedCost: { en: 'Planned cost', ja: '予定原価' },
  ActualCost: { en: 'Actual cost', ja: '実績原価' },
  ParentId: { en: 'Parent ID', ja: '親 ID' },
  ParentName: { en: 'Parent', ja: '親' },
  FolderId: { en: 'Folder ID', ja: 'フォルダー ID' },
  FolderName: { en: 'Folder', ja: 'フォルダー' },
  ProjectId: { en: 'Project ID', ja: 'プロジェクト ID' },
  ProjectName: { en: 'Project', ja: 'プロジェクト' },
  ProcessCategoryId: { en: 'Process category', ja: '工程分類' },
  TimeEntryCategoryId: { en: 'Time entry category', ja: '作業分類' },
  IsTimeEntryLocked: { en: 'Time entry lock', ja: '実績入力ロック' },
  IsDeleted: { en: 'Deleted', ja: '削除済み' },
  FieldCalcTypes: { en: 'Calculation types', ja: '計算方法' },
  CreatedAt: { en: 'Created', ja: '作成日時' },
  UpdatedAt: { en: 'Updated', ja: '更新日時' },
  UpdatedBy: { en: 'Updated by', ja: '更新者' },
  UserUpdatedAt: { en: 'Last user update', ja: 'ユーザー更新日時' },
  UserUpdatedBy: { en: 'Last updated by (user)', ja: 'ユーザー更新者' },
};

/** The display names the service's field catalogue gives, by system name (custom fields among them). */
export type CatalogueNames = ReadonlyMap<string, { readonly name?: string | null }>;

/**
 * The name of field `systemName` for a UI in `language` (VS Code's `env.language`, "ja" or
 * "en"...): the built-in name of a system field, else the catalogue's display name (a custom
 * field), else the system name itself.
 */
export function fieldLabel(systemName: string, language: string, catalogue?: CatalogueNames): string {
  const known = Object.prototype.hasOwnProperty.call(SYSTEM_FIELD_LABELS, systemName) ? SYSTEM_FIELD_LABELS[systemName] : undefined;
  if (known) return language.toLowerCase().startsWith('ja') ? known.ja : known.en;
  const name = catalogue?.get(systemName)?.name?.trim();
  return name ? name : systemName;
}

/** The names of `fields` (in order) for a UI in `language`. */
export function fieldLabels(fields: readonly string[], language: string, catalogue?: CatalogueNames): string[] {
  return fields.map((f) => fieldLabel(f, language, catalogue));
}
