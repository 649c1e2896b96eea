// Loading, validating and persisting the sandbox's data set.
// No vscode import; no file system access at import time (node:fs is used only
// inside the functions that read or write a state file).
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { z } from 'zod';
import { checkCustomFields } from './catalogue';
import { datasetJsonPieces, joinedPieces } from './datasetJson';
import { LayoutError, readStateLines, WHOLE_TEXT_MAX_BYTES } from './datasetRead';
import { DATASET_VERSION, migrateDataset } from './migrate';
import { Dataset, ItemType, WorkItem } from './model';
import { showValue, valueAt } from './values';

/**
 * Maximum depth of the work item hierarchy (service-api.md, Limits). The sandbox
 * reads the 16 levels as levels 1 to 16 below the project's root folder, which is
 * level 0 (known-facts.md: `depth` counts from the root folder, level 0): a
 * top-level item is on level 1, and an item on level 16 cannot have children.
 */
export const MAX_HIERARCHY_LEVELS = 16;

/** Item type added to a data set that has no folder type, for the root folders filled in at load. */
export const ROOT_FOLDER_ITEM_TYPE = { id: 'it-root-folder', name: 'Root folder' } as const;

/** A data set that does not validate. `problems` are `path: what is wrong` lines. */
export class DatasetError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[], source?: string) {
    const shown = problems.slice(0, 20);
    const more = problems.length > shown.length ? `\n  ... and ${problems.length - shown.length} more` : '';
    super(`invalid data set${source ? ` in ${source}` : ''}:\n  ${shown.join('\n  ')}${more}`);
    this.name = 'DatasetError';
    this.problems = problems;
  }
}

/** `workItems[3].parentId` */
export function formatPath(p: readonly PropertyKey[]): string {
  let out = '';
  for (const seg of p) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (typeof seg === 'string' && /^[A-Za-z_$][\w$]*$/.test(seg)) out += out ? `.${seg}` : seg;
    else out += `[${JSON.stringify(String(seg))}]`;
  }
  return out || '(root)';
}


function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  const where = formatPath(issue.path);
  const value = valueAt(input, issue.path);
  switch (issue.code) {
    case 'invalid_type':
      return value === undefined
        ? `${where}: required ${issue.expected} is missing`
        : `${where}: expected ${issue.expected}, got ${showValue(value)}`;
    case 'unrecognized_keys':
      return `${where}: unknown member${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`;
    case 'invalid_value':
      return `${where}: expected ${issue.values.map((x) => JSON.stringify(x)).join(' or ')}, got ${showValue(value)}`;
    default:
      return `${where}: ${issue.message}, got ${showValue(value)}`;
  }
}

/**
 * Validates a data set (shape with zod, then references and the hierarchy) and
 * returns it with defaults filled in; a data set of format version 1 is migrated first
 * (one line per change pushed to `notes`). Throws a DatasetError naming each bad path and value.
 */
export function parseDataset(raw: unknown, source?: string, notes?: string[]): Dataset {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new DatasetError([`(root): expected a JSON object with "version": ${DATASET_VERSION}, got ${showValue(raw)}`], source);
  }
  // Files of 0.1.0 (version 1) use the old field names: migrated, and said so through `notes`.
  const migration = migrateDataset(raw);
  notes?.push(...migration.notes);
  const input = migration.data;
  const parsed = Dataset.safeParse(input);
  if (!parsed.success) {
    throw new DatasetError(
      parsed.error.issues.map((i) => describeIssue(i, input)),
      source,
    );
  }
  fillRootFolders(parsed.data);
  const problems = checkReferences(parsed.data);
  if (problems.length > 0) throw new DatasetError(problems, source);
  return parsed.data;
}

/**
 * Gives every project without `workItemRootFolderId` a root folder (a data set
 * written before root folders existed): a folder work item on level 0, named like
 * the project, with ID `<project ID>-root` (or `-root-2`, ... when taken), appended
 * to `workItems`; the project's items without a parent move below it, so they stay
 * on level 1. The folder type is the data set's first available folder type of
 * the Standard edition (a WorkItemRoot type first; else any folder type, else {@link ROOT_FOLDER_ITEM_TYPE} is added).
 * Changes `d` in place; projects that name their root folder are left alone.
 */
export function fillRootFolders(d: Dataset): void {
  const missing = d.projects.filter((p) => p.workItemRootFolderId === undefined);
  if (missing.length === 0) return;
  const taken = new Set(d.workItems.map((w) => w.id));
  const folderType = (): string => {
    const found =
      d.itemTypes.find((t) => t.isFolder && t.systemName === 'WorkItemRoot') ??
      d.itemTypes.find((t) => t.isFolder && t.available && !t.professionalOnly) ??
      d.itemTypes.find((t) => t.isFolder && t.available) ??
      d.itemTypes.find((t) => t.isFolder);
    if (found) return found.id;
    let id: string = ROOT_FOLDER_ITEM_TYPE.id;
    for (let n = 2; d.itemTypes.some((t) => t.id === id); n++) id = `${ROOT_FOLDER_ITEM_TYPE.id}-${n}`;
    d.itemTypes.push(ItemType.parse({ id, name: ROOT_FOLDER_ITEM_TYPE.name, isFolder: true }));
    return id;
  };
  const typeId = folderType();
  const rootOf = new Map<string, string>();
  for (const p of missing) {
    let id = `${p.id}-root`;
    for (let n = 2; taken.has(id); n++) id = `${p.id}-root-${n}`;
    taken.add(id);
    p.workItemRootFolderId = id;
    rootOf.set(p.id, id);
  }
  for (const w of d.workItems) {
    if (w.parentId === null) {
      const root = rootOf.get(w.projectId);
      if (root !== undefined) w.parentId = root;
    }
  }
  for (const p of missing) {
    d.workItems.push(
      WorkItem.parse({
        id: p.workItemRootFolderId,
        projectId: p.id,
        parentId: null,
        order: 0,
        itemTypeId: typeId,
        name: p.name,
        code: p.code,
        plannedStartDate: p.plannedStartDate,
        plannedFinishDate: p.plannedFinishDate,
        tracksProgress: false,
        createdAt: p.createdAt.replace(/Z$/, ''),
        updatedAt: p.updatedAt.replace(/Z$/, ''),
        userUpdatedAt: p.updatedAt.replace(/Z$/, ''),
      }),
    );
  }
}

/** Referential checks: unique IDs, existing references, organization and work item hierarchies. */
export function checkReferences(d: Dataset): string[] {
  const problems: string[] = [];
  const index = <T extends { id: string }>(list: readonly T[], name: string): Map<string, T> => {
    const m = new Map<string, T>();
    list.forEach((x, i) => {
      if (m.has(x.id)) problems.push(`${name}[${i}].id: duplicate ID ${showValue(x.id)}`);
      else m.set(x.id, x);
    });
    return m;
  };
  const orgs = index(d.organizations, 'organizations');
  const users = index(d.users, 'users');
  const groups = index(d.userGroups, 'userGroups');
  const itemTypes = index(d.itemTypes, 'itemTypes');
  const statusTypes = index(d.statusTypes, 'statusTypes');
  const processCls = index(d.processClassifications, 'processClassifications');
  const workCls = index(d.workClassifications, 'workClassifications');
  const projects = index(d.projects, 'projects');
  const items = index(d.workItems, 'workItems');
  index(d.scheduleLinks, 'scheduleLinks');
  index(d.processCategories, 'processCategories');

  const missing = (where: string, what: string, id: string) => problems.push(`${where}: no ${what} with ID ${showValue(id)}`);

  // Organizations: parents exist, no cycles.
  d.organizations.forEach((o, i) => {
    if (o.parentId !== null && !orgs.has(o.parentId)) missing(`organizations[${i}].parentId`, 'organization', o.parentId);
  });
  d.organizations.forEach((o, i) => {
    const seen = new Set<string>([o.id]);
    let cur = o.parentId;
    while (cur !== null) {
      if (seen.has(cur)) {
        problems.push(`organizations[${i}].parentId: organization ${showValue(o.id)} is its own ancestor (cycle)`);
        break;
      }
      seen.add(cur);
      cur = orgs.get(cur)?.parentId ?? null;
    }
  });

  // Users.
  const logins = new Map<string, number>();
  const apiKeys = new Map<string, number>();
  d.users.forEach((u, i) => {
    if (!orgs.has(u.organizationId)) missing(`users[${i}].organizationId`, 'organization', u.organizationId);
    const key = u.loginName.toLowerCase();
    const prev = logins.get(key);
    if (prev !== undefined) problems.push(`users[${i}].loginName: ${showValue(u.loginName)} is also the login name of users[${prev}]`);
    else logins.set(key, i);
    if (u.loginName.includes(':')) problems.push(`users[${i}].loginName: a login name must not contain ":", got ${showValue(u.loginName)}`);
    u.apiKeys.forEach((k, j) => {
      const owner = apiKeys.get(k);
      // The key itself is not shown: it is a credential.
      if (owner !== undefined) problems.push(`users[${i}].apiKeys[${j}]: the same API key is also a key of users[${owner}]`);
      else apiKeys.set(k, i);
    });
  });
  d.userGroups.forEach((g, i) =>
    g.memberIds.forEach((m, j) => {
      if (!users.has(m)) missing(`userGroups[${i}].memberIds[${j}]`, 'user', m);
    }),
  );

  // Projects.
  d.projects.forEach((p, i) => {
    p.members.forEach((m, j) => {
      if (!users.has(m.userId)) missing(`projects[${i}].members[${j}].userId`, 'user', m.userId);
    });
    p.userGroupIds.forEach((g, j) => {
      if (!groups.has(g)) missing(`projects[${i}].userGroupIds[${j}]`, 'user group', g);
    });
    if (p.allowedDateRange.min > p.allowedDateRange.max) {
      problems.push(`projects[${i}].allowedDateRange: min ${showValue(p.allowedDateRange.min)} is after max ${showValue(p.allowedDateRange.max)}`);
    }
    if (p.managerId !== null && !users.has(p.managerId)) missing(`projects[${i}].managerId`, 'user', p.managerId);
    if (p.organizationId !== null && !orgs.has(p.organizationId)) missing(`projects[${i}].organizationId`, 'organization', p.organizationId);
    if (p.plannedStartDate !== null && p.plannedFinishDate !== null && p.plannedFinishDate < p.plannedStartDate) {
      problems.push(`projects[${i}].plannedFinishDate: ${showValue(p.plannedFinishDate)} is earlier than plannedStartDate ${showValue(p.plannedStartDate)}`);
    }
    const rootId = p.workItemRootFolderId;
    const root = rootId === undefined ? undefined : items.get(rootId);
    if (rootId === undefined) problems.push(`projects[${i}].workItemRootFolderId: required (the project's root folder)`);
    else if (!root) missing(`projects[${i}].workItemRootFolderId`, 'work item', rootId);
    else {
      const where = `projects[${i}].workItemRootFolderId`;
      if (root.projectId !== p.id) problems.push(`${where}: work item ${showValue(rootId)} is in project ${showValue(root.projectId)}, not ${showValue(p.id)}`);
      if (root.parentId !== null) problems.push(`${where}: the root folder ${showValue(rootId)} must have no parent (parentId null), got ${showValue(root.parentId)}`);
      if (root.isDeleted) problems.push(`${where}: the root folder ${showValue(rootId)} must not be deleted`);
      const type = itemTypes.get(root.itemTypeId);
      if (type && !type.isFolder) problems.push(`${where}: the root folder ${showValue(rootId)} must have a folder item type, got ${showValue(root.itemTypeId)}`);
    }
  });
  const rootIds = new Set(d.projects.map((p) => p.workItemRootFolderId));

  // Work items.
  d.workItems.forEach((w, i) => {
    const at = `workItems[${i}]`;
    if (!projects.has(w.projectId)) missing(`${at}.projectId`, 'project', w.projectId);
    if (!itemTypes.has(w.itemTypeId)) missing(`${at}.itemTypeId`, 'item type', w.itemTypeId);
    if (w.statusTypeId !== null && !statusTypes.has(w.statusTypeId)) missing(`${at}.statusTypeId`, 'status type', w.statusTypeId);
    if (w.processCategoryId !== null && !processCls.has(w.processCategoryId)) {
      missing(`${at}.processCategoryId`, 'process classification', w.processCategoryId);
    }
    if (w.timeEntryCategoryId !== null && !workCls.has(w.timeEntryCategoryId)) missing(`${at}.timeEntryCategoryId`, 'work classification', w.timeEntryCategoryId);
    if (w.leaderId !== null && !users.has(w.leaderId)) missing(`${at}.leaderId`, 'user', w.leaderId);
    w.assignments.forEach((a, j) => {
      const ok = a.partyType === 'User' ? users.has(a.partyId) : groups.has(a.partyId);
      if (!ok) missing(`${at}.assignments[${j}].partyId`, a.partyType === 'User' ? 'user' : 'user group', a.partyId);
    });
    if (w.plannedStartDate !== null && w.plannedFinishDate !== null && w.plannedFinishDate < w.plannedStartDate) {
      problems.push(`${at}.plannedFinishDate: ${showValue(w.plannedFinishDate)} is earlier than plannedStartDate ${showValue(w.plannedStartDate)}`);
    }
    if (w.parentId === null) {
      if (!rootIds.has(w.id)) {
        const rootId = projects.get(w.projectId)?.workItemRootFolderId;
        problems.push(
          `${at}.parentId: only a project's root folder has no parent; put ${showValue(w.id)} below the root folder${rootId ? ` ${showValue(rootId)}` : ''} of project ${showValue(w.projectId)}`,
        );
      }
    } else {
      const parent = items.get(w.parentId);
      if (!parent) missing(`${at}.parentId`, 'work item', w.parentId);
      else if (parent.projectId !== w.projectId) {
        problems.push(`${at}.parentId: parent ${showValue(w.parentId)} is in project ${showValue(parent.projectId)}, not ${showValue(w.projectId)}`);
      }
    }
  });
  // Hierarchy depth and cycles (memoized levels).
  const level = new Map<string, number>();
  d.workItems.forEach((w, i) => {
    const chain: string[] = [];
    const onChain = new Set<string>();
    let cur: string | null = w.id;
    let base = -1; // the root folder (no parent) is on level 0
    while (cur !== null) {
      const known = level.get(cur);
      if (known !== undefined) {
        base = known;
        break;
      }
      if (onChain.has(cur)) {
        problems.push(`workItems[${i}].parentId: work item ${showValue(w.id)} is its own ancestor (cycle)`);
        return;
      }
      onChain.add(cur);
      chain.push(cur);
      const next: string | null = items.get(cur)?.parentId ?? null;
      cur = next !== null && items.has(next) ? next : null;
    }
    for (let k = chain.length - 1, l = base + 1; k >= 0; k--, l++) level.set(chain[k]!, l);
    const mine = level.get(w.id)!;
    if (mine > MAX_HIERARCHY_LEVELS) {
      problems.push(`workItems[${i}].parentId: work item ${showValue(w.id)} is on level ${mine}; the hierarchy has at most ${MAX_HIERARCHY_LEVELS} levels`);
    }
  });

  d.scheduleLinks.forEach((l, i) => {
    if (!items.has(l.fromId)) missing(`scheduleLinks[${i}].fromId`, 'work item', l.fromId);
    if (!items.has(l.toId)) missing(`scheduleLinks[${i}].toId`, 'work item', l.toId);
  });
  problems.push(...checkCustomFields(d));
  return problems;
}

/** Reads and parses a JSON data-set file; undefined when the file does not exist. A migration is described in `notes`. */
export async function readDatasetFile(file: string, notes?: string[], wholeTextMaxBytes = WHOLE_TEXT_MAX_BYTES): Promise<Dataset | undefined> {
  let text: string;
  try {
    // Larger than a string can be: the lines the sandbox writes, one at a time.
    if ((await fs.stat(file)).size > wholeTextMaxBytes) return parseDataset(await readLargeFile(file), file, notes);
    text = await fs.readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  let json: unknown;
  try {
    json = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    throw new DatasetError([`(root): not valid JSON: ${(e as Error).message}`], file);
  }
  return parseDataset(json, file, notes);
}

async function readLargeFile(file: string): Promise<unknown> {
  try {
    return await readStateLines(file);
  } catch (e) {
    if (e instanceof LayoutError) throw new DatasetError([`(root): ${e.message}`], file);
    throw e;
  }
}

/**
 * Writes the data set atomically: to a temporary file beside the target, then
 * renamed over it, so a reader never sees a half-written file. The text is given
 * whole or in pieces; pieces are written as they are made (a few MB at a time, each
 * write awaited, so other work runs meanwhile) and never joined into one string.
 * Any failure (a full disk, no permission, a piece that throws) removes the
 * temporary file, leaves the target as it was and is thrown.
 */
export async function writeDatasetFile(file: string, text: string | Iterable<string>): Promise<void> {
  const dir = path.dirname(path.resolve(file));
  const tmp = path.join(dir, `${tempPrefix(file)}${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.tmp`);
  try {
    const handle = await fs.open(tmp, 'w');
    try {
      if (typeof text === 'string') await handle.writeFile(text, 'utf8');
      else for (const chunk of joinedPieces(text, WRITE_CHARS)) await handle.write(chunk, null, 'utf8');
      // On disk before the rename: after a crash the file is the old or the new data set, never an empty one.
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(tmp, file);
  } catch (e) {
    await fs.rm(tmp, { force: true }).catch(() => undefined);
    throw e;
  }
  // The rename itself survives a power loss once the folder is synced (not possible everywhere: best effort).
  await syncFolder(dir);
}

/** Characters of the state file written at a time. */
const WRITE_CHARS = 4 << 20;

async function syncFolder(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch {
    // Windows cannot open a folder; some file systems refuse fsync on one.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** Temp files of a state file start with this (`.state.json.` for state.json). */
function tempPrefix(file: string): string {
  return `.${path.basename(file)}.`;
}

/**
 * Removes the temp files an interrupted write of `file` left beside it (a kill
 * between writing the temp file and renaming it). Called at start, before the
 * state file is read; other files are left alone. Returns the names removed.
 */
export async function removeLeftoverTempFiles(file: string): Promise<string[]> {
  const dir = path.dirname(path.resolve(file));
  const prefix = tempPrefix(file);
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return [];
  }
  const leftovers = names.filter((n) => n.startsWith(prefix) && n.endsWith('.tmp') && /^\d+\.\d+\.[a-z0-9]*\.tmp$/.test(n.slice(prefix.length)));
  const removed: string[] = [];
  for (const n of leftovers) {
    try {
      await fs.rm(path.join(dir, n), { force: true });
      removed.push(n);
    } catch {
      // Another process may hold it; it is tried again at the next start.
    }
  }
  return removed;
}

/**
 * Serializes writes of one state file: each save waits for the previous one, then
 * writes the data set as it is then, in pieces (datasetJsonPieces), so the caller must
 * not change the data set until the save has settled (the server makes its changes
 * one at a time, each with its save: src/sandbox/keeper.ts). A save that fails rejects.
 */
export class StateWriter {
  private chain: Promise<void> = Promise.resolve();
  constructor(readonly file: string) {}
  save(data: Dataset): Promise<void> {
    const next = this.chain.then(() => writeDatasetFile(this.file, datasetJsonPieces(data, { lines: true })));
    this.chain = next.catch(() => undefined);
    return next;
  }
  idle(): Promise<void> {
    return this.chain;
  }
}
