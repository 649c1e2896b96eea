// Named filters of the work item table, without vscode: kept in the workspace (the
// file .vscode/workitem-filters.json, shareable in git) and in user settings
// (`workItemStudio.table.filters`). Both hold the structured form of filter.ts:
//
//   { "filters": [ { "name": "Open tasks of Suzuki",
//                    "filter": { "conditions": [ {"op": "equals", "field": "LeaderId", "value": "suzuki"} ] } } ] }
//
// (the setting is the list alone). Entries that are not valid are reported by position
// and left out; the others are kept. Saving keeps the file's comments and other members.
import { applyEdits, modify, parse, type ParseError, printParseErrorCode } from 'jsonc-parser';
import { NamedFilter, TOO_DEEP_JSON, nestsTooDeeply } from './filter';

export const FILTERS_FILE = '.vscode/workitem-filters.json';
export const FILTERS_SETTING = 'table.filters';

export type FilterSource = 'workspace' | 'user';

export interface StoredFilter extends NamedFilter {
  source: FilterSource;
}

export interface ReadFilters {
  filters: StoredFilter[];
  /** Problems, each naming where ("filters[2].filter.conditions[0].op: …"). */
  problems: string[];
}

/** The valid entries of a list of named filters; `where` prefixes each problem. */
export function readFilterList(list: unknown, source: FilterSource, where: string): ReadFilters {
  if (list === undefined || list === null) return { filters: [], problems: [] };
  if (!Array.isArray(list)) return { filters: [], problems: [`${where}: expected a list of named filters`] };
  const filters: StoredFilter[] = [];
  const problems: string[] = [];
  list.forEach((entry, i) => {
    if (nestsTooDeeply(entry)) {
      problems.push(`${where}[${i}]: ${TOO_DEEP_JSON}`);
      return;
    }
    const r = NamedFilter.safeParse(entry);
    if (r.success) filters.push({ ...r.data, source });
    else for (const issue of r.error.issues.slice(0, 3)) problems.push(`${where}[${i}]${issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')}: ${issue.message}`);
  });
  return { filters, problems };
}

/** The named filters of the workspace file's text (JSON with comments). */
export function readFiltersFile(text: string): ReadFilters {
  if (text.trim() === '') return { filters: [], problems: [] };
  const errors: ParseError[] = [];
  let json: unknown;
  try {
    json = parse(text, errors, { allowTrailingComma: true });
  } catch {
    // The parser recurses: a file nested some 10,000 levels deep overflows its stack.
    return { filters: [], problems: [`${FILTERS_FILE}: ${TOO_DEEP_JSON}`] };
  }
  if (errors.length > 0) {
    const e = errors[0]!;
    const line = text.slice(0, e.offset).split('\n').length;
    return { filters: [], problems: [`${FILTERS_FILE} line ${line}: ${printParseErrorCode(e.error)}`] };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { filters: [], problems: [`${FILTERS_FILE}: expected an object with "filters"`] };
  return readFilterList((json as { filters?: unknown }).filters, 'workspace', `${FILTERS_FILE} filters`);
}

/** Workspace filters first, then the user's; a user filter with the name of a workspace one is shown too (its source tells them apart). */
export function mergeFilters(workspace: readonly StoredFilter[], user: readonly StoredFilter[]): StoredFilter[] {
  return [...workspace, ...user];
}

const FORMAT = { insertSpaces: true, tabSize: 2, eol: '\n' };

/** The workspace file's text with `filter` added, or replacing the entry of the same name; comments and other members kept. */
export function upsertFilterInFile(text: string, filter: NamedFilter): string {
  const base = text.trim() === '' ? '{\n  "filters": []\n}\n' : text;
  const json = parse(base, [], { allowTrailingComma: true }) as { filters?: unknown } | undefined;
  const list = json && Array.isArray(json.filters) ? json.filters : undefined;
  const entry = { name: filter.name, ...(filter.description ? { description: filter.description } : {}), filter: filter.filter };
  if (!list) return applyEdits(base, modify(base, ['filters'], [entry], { formattingOptions: FORMAT }));
  const at = list.findIndex((f) => typeof f === 'object' && f !== null && (f as { name?: unknown }).name === filter.name);
  const path = at >= 0 ? ['filters', at] : ['filters', list.length];
  return applyEdits(base, modify(base, path, entry, { formattingOptions: FORMAT, ...(at < 0 ? { isArrayInsertion: true } : {}) }));
}

/** The setting's list with `filter` added or replacing the entry of the same name. */
export function upsertFilterInList(list: unknown, filter: NamedFilter): NamedFilter[] {
  const current = Array.isArray(list) ? (list as NamedFilter[]) : [];
  const entry: NamedFilter = { name: filter.name, ...(filter.description ? { description: filter.description } : {}), filter: filter.filter };
  const at = current.findIndex((f) => f && f.name === filter.name);
  return at >= 0 ? current.map((f, i) => (i === at ? entry : f)) : [...current, entry];
}
