// Filter state of the views, and the queries it makes. No vscode import.
import type { AllAssignedUsersQuery, OrganizationUsersQuery, ProcessCategoriesQuery, User } from '../../schema/api';

export const USER_FILTER_FIELDS = ['name', 'code', 'englishName', 'keyword'] as const;
export type UserFilterField = (typeof USER_FILTER_FIELDS)[number];
export type UserFilter = Partial<Record<UserFilterField, string>>;

export const CATEGORY_FILTER_FIELDS = ['name', 'code', 'keyword'] as const;
export type CategoryFilterField = (typeof CATEGORY_FILTER_FIELDS)[number];
export type CategoryFilter = Partial<Record<CategoryFilterField, string>>;

export type FilterParse<F extends string> =
  | { ok: true; filter: Partial<Record<F, string>> }
  | { ok: false; problem: 'unknown-field' | 'duplicate-field' | 'empty-value'; field: string };

/**
 * Reads `name:Tanaka code:"E 01" keyword` style text. A term without a field goes to
 * `keyword`. Values may be quoted with "..." to hold spaces. Empty text = no filter.
 */
export function parseFilter<F extends string>(text: string, fields: readonly F[], defaultField: F): FilterParse<F> {
  const filter: Partial<Record<F, string>> = {};
  const re = /\s*(?:([A-Za-z]+):)?(?:"((?:[^"\\]|\\.)*)"|(\S+))?/gy;
  const bare: string[] = [];
  let m: RegExpExecArray | null;
  while (re.lastIndex < text.length && (m = re.exec(text)) && m[0] !== '') {
    const value = (m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3]) ?? '';
    const field = m[1];
    if (field === undefined) {
      if (value !== '') bare.push(value);
      continue;
    }
    const known = fields.find((f) => f.toLowerCase() === field.toLowerCase());
    if (!known) return { ok: false, problem: 'unknown-field', field };
    if (value.trim() === '') return { ok: false, problem: 'empty-value', field: known };
    if (filter[known] !== undefined) return { ok: false, problem: 'duplicate-field', field: known };
    filter[known] = value;
  }
  if (bare.length > 0) {
    if (filter[defaultField] !== undefined) return { ok: false, problem: 'duplicate-field', field: defaultField };
    filter[defaultField] = bare.join(' ');
  }
  return { ok: true, filter };
}

/** The text `parseFilter` reads back to the same filter (to prefill the input box). */
export function formatFilter<F extends string>(filter: Partial<Record<F, string>>, fields: readonly F[]): string {
  return fields
    .filter((f) => filter[f] !== undefined && filter[f] !== '')
    .map((f) => {
      const v = filter[f]!;
      return /[\s"]/.test(v) || v === '' ? `${f}:"${v.replace(/(["\\])/g, '\\$1')}"` : `${f}:${v}`;
    })
    .join(' ');
}

export function isEmptyFilter(filter: Partial<Record<string, string>> | undefined): boolean {
  return !filter || Object.values(filter).every((v) => v === undefined || v === '');
}

/** Operation 3 takes name, englishName and code (no keyword). */
export function directUsersQuery(f: UserFilter): OrganizationUsersQuery {
  return pick({ name: f.name, englishName: f.englishName, code: f.code });
}

/** Operation 2 takes name, englishName, code and keyword. */
export function allUsersQuery(f: UserFilter): AllAssignedUsersQuery {
  return pick({ name: f.name, englishName: f.englishName, code: f.code, keyword: f.keyword });
}

/**
 * Operation 3 has no `keyword`: the view applies it to direct users itself, with
 * operation 2's wording (user name, English name, code, organization name, login
 * name, LDAP login name or e-mail contains the keyword; case-insensitive here).
 */
export function matchesKeyword(user: User, keyword: string | undefined): boolean {
  if (!keyword) return true;
  const k = keyword.toLowerCase();
  return [user.name, user.englishName, user.code, user.organizationName, user.loginName, user.ldapLoginName, user.email].some(
    (v) => typeof v === 'string' && v.toLowerCase().includes(k),
  );
}

export type DeletedMode = 'hide' | 'include' | 'only';
export type SortDirection = 'asc' | 'desc';

export interface CategoryQueryState {
  filter: CategoryFilter;
  orderBy?: { field: string; direction: SortDirection };
  deleted: DeletedMode;
}

export function categoriesQuery(state: CategoryQueryState, page: { limit: number; offset: number }): ProcessCategoriesQuery {
  const q: ProcessCategoriesQuery = { ...pick({ name: state.filter.name, code: state.filter.code, keyword: state.filter.keyword }), ...page };
  if (state.orderBy) q.orderby = `${state.orderBy.field} ${state.orderBy.direction}`;
  if (state.deleted !== 'hide') {
    q.includeDeleted = true;
    if (state.deleted === 'only') q.isDeleted = true;
  }
  return q;
}

function pick<T extends Record<string, string | undefined>>(o: T): { [K in keyof T]?: string } {
  const out: { [K in keyof T]?: string } = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined && v !== '') (out as Record<string, string>)[k] = v;
  return out;
}
