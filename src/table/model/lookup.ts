// Finding a column by what a person writes (filter bar, imported header) and a user by
// ID, login name, e-mail or name. No vscode import.
import { type ColumnDef } from './columns';
import { foldForMatch } from './text';

/** Short names of the filter bar and of imported headers, folded (lower case). */
export const COLUMN_ALIASES: Readonly<Record<string, string>> = {
  id: 'Id',
  name: 'Name',
  code: 'Code',
  type: 'ItemTypeId',
  status: 'StatusTypeId',
  leader: 'LeaderId',
  assignee: 'Assignments',
  assignees: 'Assignments',
  start: 'PlannedStartDate',
  finish: 'PlannedFinishDate',
  end: 'PlannedFinishDate',
  due: 'PlannedFinishDate',
  time: 'PlannedTime',
  hours: 'PlannedTime',
  progress: 'ActualProgress',
  parent: 'ParentName',
  folder: 'FolderName',
  description: 'Description',
  名称: 'Name',
  種別: 'ItemTypeId',
  ステータス: 'StatusTypeId',
  状態: 'StatusTypeId',
  リーダー: 'LeaderId',
  担当者: 'Assignments',
  開始: 'PlannedStartDate',
  終了: 'PlannedFinishDate',
  工数: 'PlannedTime',
  進捗: 'ActualProgress',
};

const squash = (s: string): string => foldForMatch(s).replace(/[\s_\-()（）]/g, '');

/** A header written as "label (SystemName)" (the export's form for a header two columns share). */
const WITH_KEY = /^(.*?)\s*[(（]\s*([^()（）\s]+)\s*[)）]$/;

/**
 * The columns `name` may stand for, best first, by rank: 0 the exact system name; 1 the
 * exact English or Japanese header; 2 a "label (SystemName)" form; 3 a system name in
 * another case or a header with width, case, spaces and brackets ignored; 4 an alias
 * (when `aliases` is true). Only the columns of the best rank found are returned, in
 * column order (more than one: the name is ambiguous).
 */
export function columnCandidates(columns: readonly ColumnDef[], name: string, aliases = true): ColumnDef[] {
  const exact = columns.filter((c) => c.key === name);
  if (exact.length > 0) return exact;
  const t = name.trim();
  const label = columns.filter((c) => c.label === t || c.labelJa === t);
  if (label.length > 0) return label;
  const m = WITH_KEY.exec(t);
  if (m) {
    const byKey = columns.filter((c) => c.key === m[2]);
    if (byKey.length > 0) return byKey;
  }
  const n = squash(name);
  if (n === '') return [];
  const folded = columns.filter((c) => c.key.toLowerCase() === n || squash(c.label) === n || (c.labelJa !== undefined && squash(c.labelJa) === n));
  if (folded.length > 0 || !aliases) return folded;
  const key = COLUMN_ALIASES[n];
  return key === undefined ? [] : columns.filter((c) => c.key === key);
}

/**
 * The column `name` stands for (the first of columnCandidates): an exact system name,
 * the exact English or Japanese header, "label (SystemName)", the header with width,
 * case, spaces and brackets ignored, then an alias when `aliases` is true. Undefined when none.
 */
export function findColumn(columns: readonly ColumnDef[], name: string, aliases = true): ColumnDef | undefined {
  return columnCandidates(columns, name, aliases)[0];
}

/** A user the connection knows (organization users, project members). */
export interface KnownUser {
  id: string;
  name?: string | null;
  loginName?: string | null;
  email?: string | null;
}

/** Finds users by what a person writes; returns their IDs (empty: nobody). */
export type UserResolver = (text: string) => string[];

/**
 * A resolver over `users`: an exact ID, else users whose login name, e-mail or name
 * equals the text (width, case and spaces ignored), else users whose name or login
 * name contains it.
 */
export function userResolver(users: readonly KnownUser[]): UserResolver {
  const entries = users.map((u) => ({ id: u.id, keys: [u.loginName, u.email, u.name].filter((x): x is string => !!x).map(squash) }));
  const ids = new Set(users.map((u) => u.id));
  return (text) => {
    const t = text.trim();
    if (ids.has(t)) return [t];
    const q = squash(t);
    if (q === '') return [];
    const equal = entries.filter((e) => e.keys.includes(q)).map((e) => e.id);
    if (equal.length > 0) return equal;
    return entries.filter((e) => e.keys.some((k) => k.includes(q))).map((e) => e.id);
  };
}

/** A name lookup over `users` for display (FormatContext.userName). */
export function userNames(users: readonly KnownUser[]): (id: string) => string | undefined {
  const m = new Map(users.map((u) => [u.id, u.name ?? u.loginName ?? undefined]));
  return (id) => m.get(id) ?? undefined;
}
