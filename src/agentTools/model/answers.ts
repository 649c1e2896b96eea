// What the language model tools answer, as JSON text an agent reads: the items found with
// the table's columns worded as the table shows them (types and statuses by name, users by
// name where known, dates yyyy-MM-dd) beside their IDs, the count, and whether the list was
// cut. No vscode import; the table's model is reached through core().
import type { ColumnDef, FormatContext, TableRow } from '../../table/model/columns';
import type { WorkItemRecord } from '../../schema/reads';
import { core } from '../../core/load';

/** One item of a find's answer. */
export interface FoundItem {
  id: string;
  name?: string;
  code?: string;
  type?: string;
  typeId?: string;
  status?: string;
  statusId?: string;
  plannedStart?: string;
  plannedFinish?: string;
  leader?: string;
  leaderId?: string;
  parent?: string;
}

/** The answer of a find: where it looked, what it matched, the items (at most `maxResults`). */
export interface FindAnswer {
  service?: string;
  searched: { projectId?: string; folderId?: string; name?: string };
  filter: string;
  /** Items read below the project or folder. */
  read: number;
  /** Items the filter matched (all of them, also those left out of `items`). */
  matched: number;
  /** Items listed here (at most maxResults). */
  listed: number;
  truncated: boolean;
  items: FoundItem[];
  note?: string;
}

const textOf = (row: TableRow, columns: readonly ColumnDef[], key: string, ctx: FormatContext): string | undefined => {
  const c = columns.find((x) => x.key === key);
  if (!c) return undefined;
  const t = core().formatCell(core().cellValue(row, c), c, ctx);
  return t === '' ? undefined : t;
};
const idOf = (row: TableRow, key: string): string | undefined => core().idValue(row.fields[key]);

/** One row as a find answers it: names and IDs side by side, empty values left out. */
export function foundItem(row: TableRow, columns: readonly ColumnDef[], ctx: FormatContext = {}): FoundItem {
  const out: FoundItem = { id: row.id };
  const put = <K extends keyof FoundItem>(k: K, v: FoundItem[K] | undefined): void => {
    if (v !== undefined) out[k] = v;
  };
  put('name', textOf(row, columns, 'Name', ctx));
  put('code', textOf(row, columns, 'Code', ctx));
  put('type', textOf(row, columns, 'ItemTypeId', ctx));
  put('typeId', idOf(row, 'ItemTypeId'));
  put('status', textOf(row, columns, 'StatusTypeId', ctx));
  put('statusId', idOf(row, 'StatusTypeId'));
  put('plannedStart', textOf(row, columns, 'PlannedStartDate', ctx));
  put('plannedFinish', textOf(row, columns, 'PlannedFinishDate', ctx));
  put('leader', textOf(row, columns, 'LeaderId', ctx));
  put('leaderId', idOf(row, 'LeaderId'));
  put('parent', textOf(row, columns, 'ParentName', ctx));
  return out;
}

/** The answer of a find over `matched` rows (in tree order), cut to `maxResults`. */
export function findAnswer(
  o: { service?: string; searched: FindAnswer['searched']; filter: string; read: number; matched: readonly TableRow[]; maxResults: number; columns: readonly ColumnDef[]; format?: FormatContext },
): FindAnswer {
  const listed = o.matched.slice(0, o.maxResults).map((r) => foundItem(r, o.columns, o.format));
  const truncated = o.matched.length > listed.length;
  return {
    ...(o.service ? { service: o.service } : {}),
    searched: o.searched,
    filter: o.filter,
    read: o.read,
    matched: o.matched.length,
    listed: listed.length,
    truncated,
    items: listed,
    ...(truncated
      ? { note: `Only the first ${listed.length} of ${o.matched.length} matching items are listed: narrow the filter, search a folder, or raise maxResults (at most 200).` }
      : o.matched.length === 0
        ? { note: 'No item matched the filter.' }
        : {}),
  };
}

/** The answer of a read by ID: the items' fields as read (sub-items left out), and the IDs that did not come back. */
export interface ReadAnswer {
  service?: string;
  asked: number;
  read: number;
  missing: string[];
  items: { id: string; fields: Record<string, unknown> }[];
  note?: string;
}

export function readAnswer(o: { service?: string; ids: readonly string[]; items: ReadonlyMap<string, WorkItemRecord>; missing: readonly string[] }): ReadAnswer {
  const items: ReadAnswer['items'] = [];
  for (const id of o.ids) {
    const rec = o.items.get(id);
    if (!rec) continue;
    const { SubItems: _drop, ...fields } = rec.fields as Record<string, unknown>;
    items.push({ id, fields });
  }
  return {
    ...(o.service ? { service: o.service } : {}),
    asked: o.ids.length,
    read: items.length,
    missing: [...o.missing],
    items,
    ...(o.missing.length > 0 ? { note: `${o.missing.length === 1 ? '1 ID was' : `${o.missing.length} IDs were`} not read: the items do not exist, are deleted or are not visible to the signed-in user.` } : {}),
  };
}

/** The answer as the text part of the tool's result. */
export function answerText(answer: object): string {
  return JSON.stringify(answer, null, 2);
}

/** A refusal's text: what was wrong, one problem a line, at most `max` listed. */
export function problemsText(head: string, problems: readonly string[], max = 10): string {
  const shown = problems.slice(0, max).map((p) => `- ${p}`);
  if (problems.length > max) shown.push(`- … and ${problems.length - max} more`);
  return `${head}\n${shown.join('\n')}`;
}
