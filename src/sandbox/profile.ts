// The service's self-description besides fieldTypes: a project's profile (P2, A2)
// and an organization's tree (O1). No vscode import.
//
// Choices where the help is silent (assumptions):
// - Profile: one per project; its `id` is the project's ID, its `name` "<project> プロファイル".
//   `includes` is a comma-separated list of ItemTypes, FieldTypes, StatusTypes and
//   ProjectProperties (case-insensitive; blanks ignored); each name asked adds its
//   camelCase member (ProjectProperties: an empty array, the sandbox has none). An
//   unknown name is a 400 INVALID_QUERY_PARAMETER naming it and the known ones (a
//   clear error rather than a silently missing member). Without `includes`: id and name only.
// - itemTypes lists every item type of the data set (so every item's type resolves),
//   with the sandbox's `isFolder` and `isAvailable` (false: the type cannot be set,
//   e.g. a Professional type in the Standard edition); `fields` are the system names
//   usable for the type: every system field and live custom field; the root folder
//   type (WorkItemRoot) has the system fields only.
// - statusTypes: every status type, with `isAvailable`.
// - fieldTypes: the live system and custom fields, as /system/fieldTypes lists them.
// - subOrganizations: the organization asked and its descendants down to `depth`
//   levels below it (omitted: the whole tree); a node within reach has
//   `subOrganizations` (maybe empty), a node on the last level has none. Deleted
//   organizations (and what lies below them) are left out unless includeDeleted=true;
//   with includeDeleted=true&isDeleted=true the tree keeps the deleted ones and the
//   live ones that connect them to the organization asked; isDeleted=false: live only.
//   `parentId` of a root organization is "0". An unknown organization, or a deleted one
//   without includeDeleted=true, is a 404 ORGANIZATION_NOT_FOUND.
import { liveCustomFields, allFieldTypes, SYSTEM_FIELD_TYPES } from './catalogue';
import { bad, readBoolean, readInt, type HttpError, type Query } from './lists';
import type { Dataset, Edition, ItemType, Organization } from './model';

type Outcome<T> = { ok: true; body: T } | { ok: false; status: number; errors: HttpError[] };

function asProblem(e: unknown): Outcome<never> {
  const entry = (e as { entry?: HttpError }).entry;
  if (entry) return { ok: false, status: 400, errors: [entry] };
  throw e;
}

function repeated(q: Query, names: readonly string[]): Outcome<never> | undefined {
  const rep = q.repeated(names);
  if (!rep) return undefined;
  return {
    ok: false,
    status: 400,
    errors: [{ message: `query parameter "${rep}" is given more than once`, code: 'INVALID_QUERY_PARAMETER', parameter: rep, params: { parameter: rep, problem: 'is given more than once' } }],
  };
}

// ---------------------------------------------------------------------------
// Item type system names
// ---------------------------------------------------------------------------

/**
 * System names of the data set's item types: the stored `systemName`, else derived:
 * `WorkItemRoot` for the type of the projects' root folders, `Folder` for a folder
 * type, `Task` for another; a derived name already taken gets `_<id>` appended.
 */
export function itemTypeSystemNames(data: Pick<Dataset, 'itemTypes' | 'projects' | 'workItems'>): Map<string, string> {
  const out = new Map<string, string>();
  const taken = new Set(data.itemTypes.map((t) => t.systemName).filter((s) => s !== ''));
  const rootIds = new Set(data.projects.map((p) => p.workItemRootFolderId).filter((id): id is string => id !== undefined));
  const rootTypes = new Set<string>();
  if (data.itemTypes.some((t) => t.systemName === '')) for (const w of data.workItems) if (w.parentId === null && rootIds.has(w.id)) rootTypes.add(w.itemTypeId);
  for (const t of data.itemTypes) {
    if (t.systemName !== '') {
      out.set(t.id, t.systemName);
      continue;
    }
    const base = rootTypes.has(t.id) ? 'WorkItemRoot' : t.isFolder ? 'Folder' : 'Task';
    const name = taken.has(base) ? `${base}_${t.id}` : base;
    taken.add(name);
    out.set(t.id, name);
  }
  return out;
}

// ---------------------------------------------------------------------------
// GET /project/projects/{projectId}/profile
// ---------------------------------------------------------------------------

export const PROFILE_INCLUDES = ['ItemTypes', 'FieldTypes', 'StatusTypes', 'ProjectProperties'] as const;
type Include = (typeof PROFILE_INCLUDES)[number];

function readIncludes(q: Query): Set<Include> {
  const raw = q.get('includes');
  const out = new Set<Include>();
  if (raw === undefined) return out;
  for (const part of raw.split(',')) {
    const t = part.trim();
    if (t === '') continue;
    const known = PROFILE_INCLUDES.find((n) => n.toLowerCase() === t.toLowerCase());
    if (!known) bad('includes', raw, `names ${JSON.stringify(t)}, which is not one of ${PROFILE_INCLUDES.join(', ')}`);
    out.add(known);
  }
  return out;
}

const isAvailable = (t: ItemType, edition: Edition): boolean => t.available && !(edition === 'standard' && t.professionalOnly);

/** `GET /project/projects/{projectId}/profile?includes=…`: an array with exactly one profile (P2). */
export function getProjectProfile(data: Dataset, projectId: string, q: Query, edition: Edition): Outcome<Record<string, unknown>[]> {
  let includes: Set<Include>;
  try {
    const rep = repeated(q, ['includes']);
    if (rep) return rep;
    includes = readIncludes(q);
  } catch (e) {
    return asProblem(e);
  }
  const project = data.projects.find((p) => p.id === projectId);
  if (!project) {
    return { ok: false, status: 404, errors: [{ message: `none of the projects exists: ${projectId}`, code: 'PROJECT_NOT_FOUND', params: { ids: projectId } }] };
  }
  const profile: Record<string, unknown> = { id: project.id, name: `${project.name} プロファイル` };
  if (includes.has('ItemTypes')) {
    const names = itemTypeSystemNames(data);
    const system = SYSTEM_FIELD_TYPES.map((f) => f.systemName);
    const all = [...system, ...liveCustomFields(data).map((f) => f.systemName)];
    profile['itemTypes'] = data.itemTypes.map((t) => {
      const systemName = names.get(t.id)!;
      return {
        itemTypeId: t.id,
        name: t.name,
        systemName,
        code: t.code,
        isFolder: t.isFolder,
        isAvailable: isAvailable(t, edition),
        fields: systemName === 'WorkItemRoot' ? system : all,
      };
    });
  }
  if (includes.has('FieldTypes')) profile['fieldTypes'] = allFieldTypes(data).filter((f) => !f.isDeleted);
  if (includes.has('StatusTypes')) profile['statusTypes'] = data.statusTypes.map((s) => ({ statusTypeId: s.id, name: s.name, code: '', isAvailable: s.available }));
  if (includes.has('ProjectProperties')) profile['projectProperties'] = [];
  return { ok: true, body: [profile] };
}

// ---------------------------------------------------------------------------
// GET /system/organizations/{organizationId}/subOrganizations
// ---------------------------------------------------------------------------

/** An organization tree node as the sandbox answers it (OrganizationNode in src/schema/catalogue.ts). */
export interface ApiOrganizationNode {
  id: string;
  name: string;
  code: string;
  parentId: string;
  isDeleted: boolean;
  subOrganizations?: ApiOrganizationNode[];
}

/** Deepest `depth` accepted. */
export const MAX_ORGANIZATION_DEPTH = 1000;

/** `GET /system/organizations/{id}/subOrganizations?depth=&includeDeleted=&isDeleted=` (O1): one node, a tree. */
export function getSubOrganizations(data: Dataset, orgId: string, q: Query): Outcome<ApiOrganizationNode> {
  let depth: number | undefined;
  let includeDeleted: boolean;
  let isDeleted: boolean | undefined;
  try {
    const rep = repeated(q, ['depth', 'includeDeleted', 'isDeleted']);
    if (rep) return rep;
    depth = readInt(q, 'depth', 0, MAX_ORGANIZATION_DEPTH);
    includeDeleted = readBoolean(q, 'includeDeleted') ?? false;
    isDeleted = readBoolean(q, 'isDeleted');
  } catch (e) {
    return asProblem(e);
  }
  const top = data.organizations.find((o) => o.id === orgId);
  if (!top || (top.isDeleted && !includeDeleted)) {
    const why = top ? ' (it is deleted; add includeDeleted=true)' : '';
    return { ok: false, status: 404, errors: [{ message: `organization ${JSON.stringify(orgId)} does not exist${why}`, code: 'ORGANIZATION_NOT_FOUND', params: { id: orgId } }] };
  }
  const children = new Map<string, Organization[]>();
  for (const o of data.organizations) {
    if (o.parentId === null) continue;
    const list = children.get(o.parentId);
    if (list) list.push(o);
    else children.set(o.parentId, [o]);
  }
  const onlyDeleted = includeDeleted && isDeleted === true;
  // With isDeleted=true: a live organization stays only when a deleted one lies below it.
  const keepsDeleted = new Map<string, boolean>();
  const hasDeletedBelow = (o: Organization, guard: number): boolean => {
    let v = keepsDeleted.get(o.id);
    if (v === undefined) {
      v = guard < 64 && (children.get(o.id) ?? []).some((c) => c.isDeleted || hasDeletedBelow(c, guard + 1));
      keepsDeleted.set(o.id, v);
    }
    return v;
  };
  const visible = (o: Organization): boolean => {
    if (!includeDeleted || isDeleted === false) return !o.isDeleted;
    if (onlyDeleted) return o.isDeleted || hasDeletedBelow(o, 0);
    return true;
  };
  const limit = depth ?? Number.POSITIVE_INFINITY;
  const node = (o: Organization, level: number, seen: Set<string>): ApiOrganizationNode => {
    const out: ApiOrganizationNode = { id: o.id, name: o.name, code: o.code, parentId: o.parentId ?? '0', isDeleted: o.isDeleted };
    if (level < limit && !seen.has(o.id)) {
      seen.add(o.id);
      out.subOrganizations = (children.get(o.id) ?? []).filter(visible).map((c) => node(c, level + 1, seen));
    }
    return out;
  };
  return { ok: true, body: node(top, 0, new Set()) };
}
