// A folder (or any item with sub-items) as a template: the body of one add
// (POST /workitem/workItems/{destination}/subItems) that creates a copy of the item with
// its sub-items nested in their order, built from what a read of its subtree answered.
// What is copied is what an add can set: ItemTypeId, Name and the other editable fields
// as read (./fields.ts); never IDs, read-only or system fields, actuals, progress or
// status, since a copy starts as new work. The planned dates move by one number of
// calendar days so that the copy starts on the date asked. The service's limits (16
// levels, 1000 items in one add) and the destination project's item types are checked
// here, before a document is written. No vscode import.
import type { AddWorkItemRequest } from '../../schema/additions';
import type { FieldType, ProjectProfile } from '../../schema/catalogue';
import type { SubItemNode } from '../../schema/reads';
import { core } from '../../core/load';
import { copiedFields, copiedAssignments, type LeftOut, type Parties } from './fields';
import { calendarDay, daysBetween } from './dates';
import type { TemplateProblem } from './problems';

/** Where the copy goes: an existing item (a folder, as a rule) of a project. */
export interface TemplateDestination {
  id: string;
  name: string;
  /** Its level: 0 for a project's root folder, 1 for the items directly below it, and so on. */
  level: number;
  projectId: string;
  /** Its item type, when known (a folder cannot be added below an item that is not a folder). */
  itemTypeId?: string;
}

export interface TemplateOptions {
  destination: TemplateDestination;
  /** The date the copy starts on (yyyy-mm-dd); absent: the dates stay as they are. */
  startDate?: string;
  /** The destination project's profile: its item types are the ones a copy may have. Absent: not checked here (the service checks). */
  profile?: ProjectProfile;
  /** The profile of the source's project: names the item types in messages. */
  sourceProfile?: ProjectProfile;
  /** The service's field catalogue by system name: its custom fields are copied too. */
  fieldTypes?: ReadonlyMap<string, FieldType>;
  /** The users and groups of the destination project when it is another one and they are known: only they stay leaders and assignees. */
  parties?: Parties;
}

export interface WorkItemTemplate {
  /** The body of the add: the copy of the item, its sub-items nested, placed last below the destination. */
  item: AddWorkItemRequest;
  sourceId: string;
  sourceName: string;
  /** Items the add creates (the copy itself included). */
  count: number;
  /** Levels of the copy (1 for an item without sub-items). */
  height: number;
  /** Calendar days the planned dates move (0: not moved). */
  shiftDays: number;
  /** The earliest planned date of the copy, after the shift; absent when it has none. */
  start?: string;
  /** Leaders and assignees left out because they are not in the destination project. */
  leftOut: LeftOut;
}

export type TemplateResult = { ok: true; template: WorkItemTemplate } | { ok: false; problem: TemplateProblem };

/** The service's limits of one add (as for an update: at most 1000 items) and of the hierarchy (16 levels). */
export function templateLimits(): { maxItems: number; maxDepth: number } {
  return { maxItems: core().MAX_ITEMS_PER_ADD, maxDepth: core().MAX_HIERARCHY_DEPTH };
}

/** Item types no item can be created with: the roots of a project's trees. */
const ROOT_TYPES = new Set(['WorkItemRoot', 'DocumentItemRoot']);

const idOf = (node: SubItemNode): string => core().workItemIdOf(node) ?? '?';
const nameOf = (node: SubItemNode): string => (typeof node.fields.Name === 'string' && node.fields.Name !== '' ? node.fields.Name : idOf(node));
const isDeleted = (node: SubItemNode): boolean => node.fields.IsDeleted === true || node.fields.IsDeleted === 'true';
const childrenOf = (node: SubItemNode): SubItemNode[] => (node.fields.SubItems ?? []).filter((c) => !isDeleted(c));

/** The live items of a subtree, depth first, with their levels below the top (the top is 1). */
function liveItems(top: SubItemNode): { node: SubItemNode; depth: number }[] {
  const out: { node: SubItemNode; depth: number }[] = [];
  const walk = (node: SubItemNode, depth: number): void => {
    out.push({ node, depth });
    for (const c of childrenOf(node)) walk(c, depth + 1);
  };
  walk(top, 1);
  return out;
}

/** Every ID of a subtree, deleted items included. */
function allIds(top: SubItemNode): Set<string> {
  const ids = new Set<string>();
  const walk = (node: SubItemNode): void => {
    ids.add(idOf(node));
    for (const c of node.fields.SubItems ?? []) walk(c);
  };
  walk(top);
  return ids;
}

type ProfileType = NonNullable<ProjectProfile['itemTypes']>[number];

function typesById(profile: ProjectProfile | undefined): Map<string, ProfileType> | undefined {
  if (!profile?.itemTypes) return undefined;
  const out = new Map<string, ProfileType>();
  for (const t of profile.itemTypes) {
    const id = core().profileEntryId(t);
    if (id) out.set(String(id), t);
  }
  return out;
}

/** The first item whose type the destination project cannot use, as a problem. */
function typeProblem(items: readonly { node: SubItemNode }[], options: TemplateOptions): TemplateProblem | undefined {
  const types = typesById(options.profile);
  const sourceTypes = typesById(options.sourceProfile);
  for (const { node } of items) {
    const typeId = core().idValue(node.fields.ItemTypeId);
    if (!typeId) return { message: '"{0}" (ID {1}) has no item type in what the service answered.', args: [nameOf(node), idOf(node)] };
    if (!types) continue;
    const type = types.get(typeId);
    const typeName = type?.name ?? sourceTypes?.get(typeId)?.name ?? typeId;
    const args = [typeName, typeId, nameOf(node), idOf(node), options.destination.projectId];
    if (!type) return { message: 'The item type "{0}" (ID {1}) of "{2}" (ID {3}) is not in the profile of the destination project {4}.', args };
    const unavailable = (type as { isAvailable?: unknown }).isAvailable === false;
    if (unavailable || (type.systemName != null && ROOT_TYPES.has(type.systemName))) {
      return { message: 'The item type "{0}" (ID {1}) of "{2}" (ID {3}) cannot be used in the destination project {4}.', args };
    }
  }
  return undefined;
}

/** The earliest planned date of a read subtree's live items: where its copy starts, unless moved. */
export function earliestPlannedDate(source: SubItemNode): string | undefined {
  return earliestDate(liveItems(source));
}

/** The earliest planned date of the items (starts first; finishes when no item has a start). */
function earliestDate(items: readonly { node: SubItemNode }[]): string | undefined {
  let start: string | undefined;
  let finish: string | undefined;
  for (const { node } of items) {
    const s = calendarDay(node.fields.PlannedStartDate);
    const f = calendarDay(node.fields.PlannedFinishDate);
    if (s !== undefined && (start === undefined || s < start)) start = s;
    if (f !== undefined && (finish === undefined || f < finish)) finish = f;
  }
  return start ?? finish;
}

/**
 * The add that copies `source` (a subItems read of the item, its sub-items nested) below
 * the destination, or why it cannot be made. Deleted items (and what is below them) are
 * not copied.
 */
export function buildTemplate(source: SubItemNode, options: TemplateOptions): TemplateResult {
  const dest = options.destination;
  const sourceId = idOf(source);
  const sourceName = nameOf(source);
  if (isDeleted(source)) return { ok: false, problem: { message: '"{0}" (ID {1}) is deleted.', args: [sourceName, sourceId] } };
  if (allIds(source).has(dest.id)) {
    return { ok: false, problem: { message: 'A copy cannot go below the item it copies or below one of its sub-items: "{0}" (ID {1}) is in the subtree of "{2}".', args: [dest.name, dest.id, sourceName] } };
  }
  const items = liveItems(source);
  const count = items.length;
  const height = Math.max(...items.map((i) => i.depth));
  const { maxItems, maxDepth } = templateLimits();
  if (count > maxItems) {
    return { ok: false, problem: { message: 'Too many items for one add: the copy of "{0}" has {1}, the service adds at most {2} in one request. Copy its sub-folders one at a time.', args: [sourceName, String(count), String(maxItems)] } };
  }
  if (dest.level >= maxDepth) {
    return { ok: false, problem: { message: '"{0}" (ID {1}) is on level {2}, the deepest the service allows ({2} levels): nothing can be added below it.', args: [dest.name, dest.id, String(maxDepth)] } };
  }
  if (dest.level + height > maxDepth) {
    const fit = maxDepth - dest.level;
    return { ok: false, problem: { message: 'The copy of "{0}" is {1} levels deep: below "{2}" (level {3}) the service allows {4} levels, so at most {5} fit.', args: [sourceName, String(height), dest.name, String(dest.level), String(maxDepth), String(fit)] } };
  }
  const problem = typeProblem(items, options);
  if (problem) return { ok: false, problem };
  const types = typesById(options.profile);
  const topType = types?.get(core().idValue(source.fields.ItemTypeId) ?? '');
  const destType = dest.itemTypeId ? types?.get(dest.itemTypeId) : undefined;
  if (topType?.isFolder === true && destType?.isFolder === false) {
    return { ok: false, problem: { message: '"{0}" is a folder and "{1}" (ID {2}) is not: a folder can only be added below a folder.', args: [sourceName, dest.name, dest.id] } };
  }

  const earliest = earliestDate(items);
  let shiftDays = 0;
  if (options.startDate !== undefined) {
    if (earliest === undefined) return { ok: false, problem: { message: '"{0}" (ID {1}) and the items below it have no planned dates: leave the start date empty.', args: [sourceName, sourceId] } };
    shiftDays = daysBetween(earliest, options.startDate);
  }
  const leftOut: LeftOut = { leaders: 0, assignments: 0 };
  const copyOf = (node: SubItemNode): AddWorkItemRequest => {
    const item: AddWorkItemRequest = { fields: copiedFields(node.fields, { shiftDays, fieldTypes: options.fieldTypes, parties: options.parties }, leftOut) };
    const assignments = copiedAssignments(node.fields.Assignments, options.parties, leftOut);
    if (assignments.length > 0) item.assignments = assignments;
    const children = childrenOf(node);
    if (children.length > 0) item.subItems = children.map(copyOf);
    return item;
  };
  const item = { ...copyOf(source), orderLast: true };
  const start = earliest === undefined ? undefined : options.startDate ?? earliest;
  return { ok: true, template: { item, sourceId, sourceName, count, height, shiftDays, ...(start ? { start } : {}), leftOut } };
}
