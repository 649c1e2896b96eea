// The read operations of the real service (known-facts.md, "Read operations of the
// real service") over the sandbox's data set: projects, work items by ID, a work
// item's sub-items and the signed-in user. No vscode import.
//
// Choices where the facts are thin (documented in docs/sandbox.md):
// - Every project and work item is visible to every signed-in user; `canEdit` and a
//   record's `permission` say what the caller may do (3: edit, 1: view, 0: not a
//   member). Cost fields (PlannedCost, ActualCost) are left out for a caller without
//   cost permission on the project (as an update ignores them).
// - Field names in `fields=` match case-insensitively and come back in the
//   catalogue's spelling; unknown names are ignored; `Id` and `IsAclInherited`
//   always come back.
// - Deleted items are hidden unless `includeDeleted=true` (a deleted folder hides
//   its subtree); a GET by IDs answers 404 only when none of the IDs is found.
// - `depth` of subItems is absolute: the project's root folder is level 0; nodes on
//   levels up to `depth` come back. A node whose children were within reach has
//   `SubItems` (an array, maybe empty); a node on level `depth` has none.
// - Work item fields are the official system names (official-reference.md 4.1,
//   4.2; answered in the order of the help's sample: Id, ProjectId, ProjectName,
//   ProjectCode, ItemTypeId, StatusTypeId, FolderId, FolderName, ParentId,
//   ParentName, ProcessCategoryId, TimeEntryCategoryId, Name, Code, ...), then the
//   live custom fields by system name (null when the item has no value). Names the
//   help never shows (IsFolder, HasChildren, Level, DisplayOrder, ItemTypeName,
//   StatusTypeName, LeaderName) are not answered: folder or not comes from the
//   profile's item types or the answer's shape. An ID field without a value is "0"
//   (StatusTypeId, ProcessCategoryId, TimeEntryCategoryId, LeaderId; ParentId of a
//   root folder); a name without one is "". `FolderId` is the nearest ancestor whose
//   item type is a folder (the root folder included), "0" for a root folder.
// - `assignedUsers=<login name>[,<login name>...]` on subItems (seen in a public
//   client, not in the help): only the items assigned to one of those users,
//   directly or through a user group they belong to, and the ancestors that connect
//   them to the item asked (which always comes back); login names match
//   case-insensitively; an unknown login name matches nothing (no error).
// - `GET /project/projects/{ids}?includes=Members,UserGroups` (U3): `members` (the
//   project's members as users) and `userGroups` (`{id, name, memberIds}`); another
//   `includes` name is a 400. An item added with `metadata` shows it beside `fields` in
//   both work item reads.
// - Project lists: data-set order; no default limit, `limit` at most 1000 (as for
//   process categories); `isManager=true` lists the projects the caller manages,
//   `false` those the caller does not manage.
import type { Dataset, Project, SandboxUser, WorkItem } from './model';
import { ALWAYS, assignedItems, COST_FIELDS, dateTime, ReadFields, rowBuilder, type FieldContext } from './readFields';

export { READ_FIELDS } from './readFields';
import { bad, filterText, guarded, MAX_LIST_LIMIT, readBoolean, readInt, toApiUser, type HttpError, type ListResult, type Query } from './lists';

/** A project as `GET /project/projects` and `/project/projects/{ids}` answer it (camelCase). */
export interface ApiProject {
  id: string;
  name: string;
  code: string;
  description: string;
  managerId: string | null;
  managerName: string | null;
  plannedStartDate: string | null;
  plannedFinishDate: string | null;
  isFinished: boolean;
  workItemRootFolderId: string;
  isLocked: boolean;
  organizationId: string | null;
  organizationName: string | null;
  isDeleted: boolean;
  canEdit: boolean;
  createdAt: string;
  updatedAt: string;
}

const NONE: readonly WorkItem[] = [];

/**
 * Indexes of a data set for the reads (ID -> item, parent -> sorted children,
 * levels), built once and reused until the data set changes (the server drops it
 * after each accepted update and each reset).
 */
export class ReadIndex {
  readonly items = new Map<string, WorkItem>();
  readonly itemTypes: Map<string, { name: string; isFolder: boolean }>;
  /** The fields of work item reads (system and custom). */
  readonly fields: ReadFields;
  readonly statusTypes: Map<string, string>;
  readonly users: Map<string, SandboxUser>;
  readonly groups: Map<string, string>;
  readonly projects: Map<string, Project>;
  readonly orgNames: Map<string, string>;
  /** Children of each item (deleted ones too), in position order. */
  private readonly kids = new Map<string, WorkItem[]>();
  /** The same without the deleted ones. */
  private readonly liveKids = new Map<string, WorkItem[]>();
  private readonly levels = new Map<string, number>();
  private readonly sizes = new Map<string, number>();

  constructor(readonly data: Dataset) {
    for (const w of data.workItems) this.items.set(w.id, w);
    for (const w of data.workItems) {
      if (w.parentId === null) continue;
      const list = this.kids.get(w.parentId);
      if (list) list.push(w);
      else this.kids.set(w.parentId, [w]);
    }
    for (const [id, list] of this.kids) {
      list.sort((a, b) => a.order - b.order || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      const live = list.filter((w) => !w.isDeleted);
      if (live.length > 0) this.liveKids.set(id, live);
    }
    // Levels: breadth first from each root folder (level 0).
    const queue: WorkItem[] = data.workItems.filter((w) => w.parentId === null);
    for (const r of queue) this.levels.set(r.id, 0);
    for (let i = 0; i < queue.length; i++) {
      const w = queue[i]!;
      const l = this.levels.get(w.id)!;
      for (const c of this.kids.get(w.id) ?? []) {
        this.levels.set(c.id, l + 1);
        queue.push(c);
      }
    }
    // Subtree sizes: children before parents (the breadth-first order backwards).
    for (let i = queue.length - 1; i >= 0; i--) {
      const w = queue[i]!;
      const own = (this.sizes.get(w.id) ?? 0) + 1;
      this.sizes.set(w.id, own);
      if (w.parentId !== null) this.sizes.set(w.parentId, (this.sizes.get(w.parentId) ?? 0) + own);
    }
    this.itemTypes = new Map(data.itemTypes.map((t) => [t.id, { name: t.name, isFolder: t.isFolder }]));
    this.statusTypes = new Map(data.statusTypes.map((s) => [s.id, s.name]));
    this.users = new Map(data.users.map((u) => [u.id, u]));
    this.groups = new Map(data.userGroups.map((g) => [g.id, g.name]));
    this.projects = new Map(data.projects.map((p) => [p.id, p]));
    this.orgNames = new Map(data.organizations.map((o) => [o.id, o.name]));
    this.fields = new ReadFields(data);
  }

  isFolder(w: WorkItem): boolean {
    return this.itemTypes.get(w.itemTypeId)?.isFolder === true;
  }

  /** The nearest ancestor whose item type is a folder (a root folder has none). */
  folderOf(w: WorkItem): WorkItem | undefined {
    let cur = w.parentId === null ? undefined : this.items.get(w.parentId);
    for (let steps = 0; cur && steps < 64; steps++) {
      if (this.isFolder(cur)) return cur;
      cur = cur.parentId === null ? undefined : this.items.get(cur.parentId);
    }
    return undefined;
  }

  level(id: string): number {
    return this.levels.get(id) ?? 0;
  }

  /** Items in the subtree of `id`, itself and deleted ones included. */
  subtreeSize(id: string): number {
    return this.sizes.get(id) ?? 1;
  }

  /** Children in position order (deleted ones only when asked). */
  children(id: string, includeDeleted: boolean): readonly WorkItem[] {
    return (includeDeleted ? this.kids.get(id) : this.liveKids.get(id)) ?? NONE;
  }

  hasChildren(id: string, includeDeleted: boolean): boolean {
    return (includeDeleted ? this.kids : this.liveKids).has(id);
  }

  /** True when the item or one of its ancestors is deleted. */
  hidden(w: WorkItem): boolean {
    let cur: WorkItem | undefined = w;
    for (let steps = 0; cur && steps < 64; steps++) {
      if (cur.isDeleted) return true;
      cur = cur.parentId === null ? undefined : this.items.get(cur.parentId);
    }
    return false;
  }
}

/** An answer: `body`, or `stream`, the JSON text in pieces made while it is sent. */
type Outcome<T> = { ok: true; body: T; stream?: Iterable<string> } | { ok: false; status: number; errors: HttpError[] };

const notFound = (code: 'WORK_ITEM_NOT_FOUND' | 'WORK_ITEMS_NOT_FOUND', message: string, params: Record<string, string | number>): Outcome<never> => ({
  ok: false,
  status: 404,
  errors: [{ message, code, params }],
});

function queryProblem(parameter: string, problem: string): Outcome<never> {
  return { ok: false, status: 400, errors: [{ message: `query parameter "${parameter}" ${problem}`, code: 'INVALID_QUERY_PARAMETER', parameter, params: { parameter, problem } }] };
}

// ---------------------------------------------------------------------------
// Projects
// ---------------------------------------------------------------------------

export function toApiProject(p: Project, index: ReadIndex, caller: SandboxUser): ApiProject {
  const member = p.members.find((m) => m.userId === caller.id);
  const manager = p.managerId === null ? undefined : index.users.get(p.managerId);
  return {
    id: p.id,
    name: p.name,
    code: p.code,
    description: p.description,
    managerId: p.managerId,
    managerName: manager?.name ?? null,
    plannedStartDate: dateTime(p.plannedStartDate),
    plannedFinishDate: dateTime(p.plannedFinishDate),
    isFinished: p.isFinished,
    workItemRootFolderId: p.workItemRootFolderId!,
    isLocked: p.isLocked,
    organizationId: p.organizationId,
    organizationName: p.organizationId === null ? null : (index.orgNames.get(p.organizationId) ?? null),
    isDeleted: false,
    canEdit: member?.permission === 'edit' && !p.isLocked,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

const PROJECT_PARAMS = ['name', 'code', 'keyword', 'isFinished', 'isManager', 'organizationIds', 'managerIds', 'limit', 'offset'];

const includes = (field: string | null, needle: string | undefined): boolean => needle === undefined || (field ?? '').toLowerCase().includes(needle);

function idList(q: Query, name: string): Set<string> | undefined {
  const v = q.get(name);
  if (v === undefined || v.trim() === '') return undefined;
  const ids = v.split(',').map((s) => s.trim());
  if (ids.some((s) => s === '')) bad(name, v, `must be IDs separated by single commas, got ${JSON.stringify(v)}`);
  return new Set(ids);
}

/** `GET /project/projects`: filters (partial, case-insensitive name/code/keyword), then paging; totalCount before paging. */
export function listProjects(index: ReadIndex, caller: SandboxUser, q: Query): ListResult<ApiProject> {
  return guarded(q, PROJECT_PARAMS, () => {
    const name = filterText(q, 'name');
    const code = filterText(q, 'code');
    const keyword = filterText(q, 'keyword');
    const isFinished = readBoolean(q, 'isFinished');
    const isManager = readBoolean(q, 'isManager');
    const orgIds = idList(q, 'organizationIds');
    const managerIds = idList(q, 'managerIds');
    const limit = readInt(q, 'limit', 0, MAX_LIST_LIMIT);
    const offset = readInt(q, 'offset', 0, Number.MAX_SAFE_INTEGER) ?? 0;
    const matched = index.data.projects.filter((p) => {
      if (!includes(p.name, name) || !includes(p.code, code)) return false;
      if (keyword !== undefined && !includes(p.name, keyword) && !includes(p.code, keyword)) return false;
      if (isFinished !== undefined && p.isFinished !== isFinished) return false;
      if (isManager !== undefined && (p.managerId === caller.id) !== isManager) return false;
      if (orgIds && (p.organizationId === null || !orgIds.has(p.organizationId))) return false;
      if (managerIds && (p.managerId === null || !managerIds.has(p.managerId))) return false;
      return true;
    });
    const page = matched.slice(offset, limit === undefined ? undefined : offset + limit);
    return { ok: true, body: { totalCount: matched.length, data: page.map((p) => toApiProject(p, index, caller)) } };
  });
}

/** The `includes` of a project read (U3: `Members,UserGroups`), case-insensitive; another name is a 400. */
const PROJECT_INCLUDES = ['Members', 'UserGroups'] as const;

function projectIncludes(q: Query): Set<(typeof PROJECT_INCLUDES)[number]> {
  const out = new Set<(typeof PROJECT_INCLUDES)[number]>();
  const raw = q.get('includes');
  for (const part of (raw ?? '').split(',')) {
    const t = part.trim();
    if (t === '') continue;
    const known = PROJECT_INCLUDES.find((n) => n.toLowerCase() === t.toLowerCase());
    if (!known) bad('includes', raw!, `names ${JSON.stringify(t)}, which is not one of ${PROJECT_INCLUDES.join(', ')}`);
    out.add(known);
  }
  return out;
}

/**
 * A project with what `includes` asks for: `members`, each member as the user lists give a
 * user (deleted users too, with `isDeleted: true`), and `userGroups`, the groups that can be
 * assigned in the project, each `{id, name, memberIds}`.
 */
function withIncludes(p: Project, index: ReadIndex, caller: SandboxUser, includes: ReadonlySet<string>): ApiProject & Record<string, unknown> {
  const out: ApiProject & Record<string, unknown> = { ...toApiProject(p, index, caller) };
  if (includes.has('Members')) {
    out['members'] = p.members.flatMap((m) => {
      const u = index.users.get(m.userId);
      return u ? [toApiUser(u, index.orgNames)] : [];
    });
  }
  if (includes.has('UserGroups')) {
    out['userGroups'] = p.userGroupIds.flatMap((id) => {
      const g = index.data.userGroups.find((x) => x.id === id);
      return g ? [{ id: g.id, name: g.name, memberIds: [...g.memberIds] }] : [];
    });
  }
  return out;
}

/** `GET /project/projects/{ids}?includes=`: the projects found, in the order asked; 404 only when none is. */
export function getProjects(index: ReadIndex, caller: SandboxUser, ids: readonly string[], q?: Query): Outcome<ApiProject[]> {
  let includes: Set<string>;
  try {
    const rep = q?.repeated(['includes']);
    if (rep) return queryProblem(rep, 'is given more than once');
    includes = q ? projectIncludes(q) : new Set();
  } catch (e) {
    return asProblem(e);
  }
  const out: ApiProject[] = [];
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) continue;
    seen.add(id);
    const p = index.projects.get(id);
    if (p) out.push(withIncludes(p, index, caller, includes));
  }
  if (out.length === 0) {
    const shown = ids.slice(0, 5).join(', ') + (ids.length > 5 ? ', …' : '');
    return { ok: false, status: 404, errors: [{ message: `none of the projects exists: ${shown}`, code: 'PROJECT_NOT_FOUND', params: { ids: shown } }] };
  }
  return { ok: true, body: out };
}

// ---------------------------------------------------------------------------
// Work items
// ---------------------------------------------------------------------------

/** The canonical field names asked by `fields=` (undefined: every field); unknown names are dropped. */
export function selectedFields(q: Query, fields: ReadFields): string[] | undefined {
  const raw = q.get('fields');
  if (raw === undefined || raw.trim() === '') return undefined;
  const out = [...ALWAYS];
  for (const part of raw.split(',')) {
    const name = fields.byLower.get(part.trim().toLowerCase());
    if (name !== undefined && !out.includes(name)) out.push(name);
  }
  return out;
}

interface Viewer {
  index: ReadIndex;
  caller: SandboxUser;
  includeDeleted: boolean;
  /** Cost visibility and permission per project (memoized). */
  access: (projectId: string) => { cost: boolean; permission: number };
  /** assignedUsers: the items kept in a subItems tree (undefined: all). */
  keep?: ReadonlySet<string>;
}

function viewer(index: ReadIndex, caller: SandboxUser, includeDeleted: boolean): Viewer {
  const memo = new Map<string, { cost: boolean; permission: number }>();
  return {
    index,
    caller,
    includeDeleted,
    access: (projectId) => {
      let a = memo.get(projectId);
      if (!a) {
        const m = index.projects.get(projectId)?.members.find((x) => x.userId === caller.id);
        a = { cost: m?.costPermission === true, permission: m ? (m.permission === 'edit' ? 3 : 1) : 0 };
        memo.set(projectId, a);
      }
      return a;
    },
  };
}

function fieldsOf(w: WorkItem, names: readonly string[], v: Viewer): Record<string, unknown> {
  const ctx: FieldContext = { index: v.index, includeDeleted: v.includeDeleted };
  const cost = v.access(w.projectId).cost;
  const getters = v.index.fields.getters;
  const out: Record<string, unknown> = {};
  for (const n of names) {
    if (!cost && COST_FIELDS.has(n)) continue;
    out[n] = getters.get(n)!(w, ctx);
  }
  return out;
}

function readIncludeDeleted(q: Query): boolean {
  return readBoolean(q, 'includeDeleted') ?? false;
}

/**
 * `GET /workitem/workItems/{ids}?fields=&includeDeleted=`: an array of
 * `{fields, isWarning, warnings, aclId, permission}` in the order asked (each ID
 * once); 404 only when none is found.
 */
export function getWorkItems(index: ReadIndex, caller: SandboxUser, ids: readonly string[], q: Query): Outcome<unknown[]> {
  let includeDeleted: boolean;
  try {
    if (q.repeated(['fields', 'includeDeleted'])) return queryProblem(q.repeated(['fields', 'includeDeleted'])!, 'is given more than once');
    includeDeleted = readIncludeDeleted(q);
  } catch (e) {
    return asProblem(e);
  }
  const names = selectedFields(q, index.fields) ?? index.fields.all;
  const v = viewer(index, caller, includeDeleted);
  const out: unknown[] = [];
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) continue;
    seen.add(id);
    const w = index.items.get(id);
    if (!w || (!includeDeleted && index.hidden(w))) continue;
    const a = v.access(w.projectId);
    const record: Record<string, unknown> = { fields: fieldsOf(w, names, v), isWarning: false, warnings: [], aclId: '0', permission: a.permission };
    if (w.metadata !== undefined) record['metadata'] = w.metadata;
    out.push(record);
  }
  if (out.length === 0) {
    const shown = ids.slice(0, 5).join(', ') + (ids.length > 5 ? ', …' : '');
    return notFound('WORK_ITEMS_NOT_FOUND', `none of the work items exists${includeDeleted ? '' : ' (deleted ones are left out unless includeDeleted=true)'}: ${shown}`, { ids: shown });
  }
  return { ok: true, body: out };
}

/** Deepest `depth` accepted (far beyond the 16 levels). */
export const MAX_DEPTH = 1000;

/**
 * `GET /workitem/workItems/{id}/subItems?fields=&depth=&includeDeleted=`: a
 * one-element array, the item, with `fields.SubItems` nested down to level `depth`
 * (absolute: the project's root folder is level 0), or the whole subtree without `depth`.
 */
export function getSubItems(index: ReadIndex, caller: SandboxUser, id: string, q: Query): Outcome<undefined> {
  let includeDeleted: boolean;
  let depth: number | undefined;
  try {
    const rep = q.repeated(['fields', 'depth', 'includeDeleted', 'assignedUsers']);
    if (rep) return queryProblem(rep, 'is given more than once');
    includeDeleted = readIncludeDeleted(q);
    depth = readInt(q, 'depth', 0, MAX_DEPTH);
  } catch (e) {
    return asProblem(e);
  }
  const w = index.items.get(id);
  if (!w || (!includeDeleted && index.hidden(w))) {
    return notFound('WORK_ITEM_NOT_FOUND', `work item ${JSON.stringify(id)} does not exist${w ? ' (it is deleted; add includeDeleted=true)' : ''}`, { id });
  }
  const names = selectedFields(q, index.fields) ?? index.fields.all;
  const v = viewer(index, caller, includeDeleted);
  const assigned = q.get('assignedUsers');
  if (assigned !== undefined && assigned.trim() !== '') v.keep = assignedItems(index, w, assigned, includeDeleted);
  return { ok: true, body: undefined, stream: subItemsJson(w, names, v, depth ?? Number.POSITIVE_INFINITY) };
}

/** Subtrees up to this many items are built and serialized as one piece of a streamed subItems answer. */
const PIECE_ITEMS = 2000;

/**
 * The `subItems` answer `[{fields: {..., SubItems: [...]}}]` as JSON text in pieces,
 * made as they are sent: subtrees of up to {@link PIECE_ITEMS} items are built as
 * objects of one shape (rowBuilder) and JSON.stringify'd; larger ones are opened,
 * their children written one by one, and closed. So a 100,000-item answer never
 * exists as one tree of objects or one string, and the first bytes leave before
 * the last are made. Nodes within `limit` get `SubItems` (maybe empty), others none.
 */
function* subItemsJson(top: WorkItem, names: readonly string[], v: Viewer, limit: number): Generator<string> {
  const index = v.index;
  const project = index.projects.get(top.projectId) ?? { name: '', code: '' };
  const ctx: FieldContext = { index, includeDeleted: v.includeDeleted, project, parent: null, folder: null };
  // A subtree lies in one project: one row builder for all of it.
  const row = rowBuilder(names, v.access(top.projectId).cost, index.fields);
  const keep = v.keep;
  const childrenOf = (w: WorkItem): readonly WorkItem[] => {
    const kids = index.children(w.id, v.includeDeleted);
    return keep === undefined ? kids : kids.filter((k) => keep.has(k.id));
  };
  // The parent and nearest folder of the item being written are known from the walk.
  const fieldsOf = (w: WorkItem, parent: WorkItem | null, folder: WorkItem | null): Record<string, unknown> => {
    ctx.parent = parent;
    ctx.folder = folder;
    return row(w, ctx);
  };
  type Node = { fields: Record<string, unknown>; metadata?: Record<string, string> };
  const node = (w: WorkItem, level: number, parent: WorkItem | null, folder: WorkItem | null): Node => {
    const fields = fieldsOf(w, parent, folder);
    if (level < limit) {
      const kids = childrenOf(w);
      const below = index.isFolder(w) ? w : folder;
      const list = new Array<Node>(kids.length);
      for (let i = 0; i < kids.length; i++) list[i] = node(kids[i]!, level + 1, w, below);
      fields['SubItems'] = list;
    }
    // An added item's metadata beside its fields (only when it has some).
    return w.metadata === undefined ? { fields } : { fields, metadata: w.metadata };
  };
  function* emit(w: WorkItem, level: number, parent: WorkItem | null, folder: WorkItem | null): Generator<string> {
    if (level >= limit || index.subtreeSize(w.id) <= PIECE_ITEMS) {
      yield JSON.stringify(node(w, level, parent, folder));
      return;
    }
    const own = JSON.stringify(fieldsOf(w, parent, folder));
    yield `{"fields":${own.length > 2 ? `${own.slice(0, -1)},` : '{'}"SubItems":[`;
    const kids = childrenOf(w);
    const below = index.isFolder(w) ? w : folder;
    for (let i = 0; i < kids.length; i++) {
      if (i > 0) yield ',';
      yield* emit(kids[i]!, level + 1, w, below);
    }
    yield w.metadata === undefined ? ']}}' : `]},"metadata":${JSON.stringify(w.metadata)}}`;
  }
  yield '[';
  const topParent = top.parentId === null ? null : (index.items.get(top.parentId) ?? null);
  yield* emit(top, index.level(top.id), topParent, index.folderOf(top) ?? null);
  yield ']';
}

// ---------------------------------------------------------------------------
// The signed-in user
// ---------------------------------------------------------------------------

/** `GET /system/users/me`: the caller as the user lists show users, plus how they signed in. */
export function currentUser(index: ReadIndex, caller: SandboxUser, authenticationType: string): Record<string, unknown> {
  return { ...toApiUser(caller, index.orgNames), authenticationType, allowLocalAuthentication: true };
}

function asProblem(e: unknown): Outcome<never> {
  const entry = (e as { entry?: HttpError }).entry;
  if (entry) return { ok: false, status: 400, errors: [entry] };
  throw e;
}
