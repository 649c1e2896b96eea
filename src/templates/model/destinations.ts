// Where a template's copy can go: the folders of a project (from one read of its tree,
// with few fields), and the level of an item named by ID (from its chain of parents).
// No vscode import.
import type { ProjectProfile } from '../../schema/catalogue';
import type { SubItemNode } from '../../schema/reads';
import { core } from '../../core/load';
import type { TemplateDestination } from './copy';

/** A folder a copy can go below, with the names of the folders above it (the project's root folder not among them). */
export interface FolderChoice extends TemplateDestination {
  path: string[];
}

/** The fields a read of a project's folders asks for. */
export const FOLDER_FIELDS = ['Id', 'Name', 'ItemTypeId', 'ParentId', 'IsDeleted'] as const;

/**
 * The folders of a project's tree (read from its root folder), in tree order, the root
 * folder first (level 0): items whose type the profile marks a folder, or, without a
 * profile that says, items with sub-items. Deleted items and the subtree of `exclude`
 * (the item being copied: a copy cannot go into itself) are left out.
 */
export function folderChoices(root: SubItemNode, projectId: string, profile?: ProjectProfile, exclude?: string): FolderChoice[] {
  const folderTypes = new Map<string, boolean>();
  for (const t of profile?.itemTypes ?? []) {
    const id = core().profileEntryId(t);
    if (id && typeof t.isFolder === 'boolean') folderTypes.set(String(id), t.isFolder);
  }
  const out: FolderChoice[] = [];
  const walk = (node: SubItemNode, level: number, path: string[]): void => {
    const id = core().workItemIdOf(node);
    if (!id || id === exclude || node.fields.IsDeleted === true) return;
    const name = typeof node.fields.Name === 'string' && node.fields.Name !== '' ? node.fields.Name : id;
    const itemTypeId = core().idValue(node.fields.ItemTypeId);
    const children = node.fields.SubItems ?? [];
    const known = itemTypeId === undefined ? undefined : folderTypes.get(itemTypeId);
    if (level === 0 || (known ?? children.length > 0)) out.push({ id, name, level, projectId, path, ...(itemTypeId ? { itemTypeId } : {}) });
    for (const c of children) walk(c, level + 1, level === 0 ? path : [...path, name]);
  };
  walk(root, 0, []);
  return out;
}

/** What a read of one item gives for its destination: its fields. */
export type ReadItem = (id: string) => Promise<Record<string, unknown> | undefined>;

/**
 * An item as a destination: its name, type and project from a read, its level from the
 * chain of its parents (one read each, at most 17: a project's root folder has no parent,
 * ParentId "0"). Undefined when the item cannot be read.
 */
export async function destinationOf(id: string, read: ReadItem, knownLevel?: number): Promise<TemplateDestination | undefined> {
  const fields = await read(id);
  if (!fields) return undefined;
  const projectId = core().idValue(fields.ProjectId) ?? '';
  const name = typeof fields.Name === 'string' && fields.Name !== '' ? fields.Name : id;
  const itemTypeId = core().idValue(fields.ItemTypeId);
  let level = knownLevel;
  if (level === undefined) {
    level = 0;
    let parent = core().idValue(fields.ParentId);
    // More parents than the service allows levels means a loop in what was read: stop there.
    while (parent !== undefined && level <= core().MAX_HIERARCHY_DEPTH) {
      level++;
      parent = core().idValue((await read(parent))?.ParentId);
    }
  }
  return { id, name, level, projectId, ...(itemTypeId ? { itemTypeId } : {}) };
}
