// What the tree knows of a project's item types and status types: from the
// project's profile (official help P2: itemTypes with itemTypeId, name, systemName;
// statusTypes; fieldTypes) when it could be read, and from the shape of the
// answers otherwise. No vscode import.
//
// Folder or not, without names the help never shows (IsFolder, HasChildren):
// 1. the profile's item type says so (`isFolder`, or a systemName such as
//    `WorkItemRoot`, `DocumentItemRoot` or one naming a folder);
// 2. otherwise the answers' shape: the project's root folder (level 0) is a folder;
//    every item named by a `FolderId` (official help F1: the item's folder) is a
//    folder; an item holding a folder is a folder (service-api.md errors 13 and 18:
//    only folders hold folders); an item whose children all name another folder and
//    hold none is not a folder. What is learned of an item holds for its item type
//    too. Having children alone does not make a folder: an item of a task type may
//    have sub-items (error 13 speaks of them, and the sandbox's demo has some).
import type { ProjectProfile } from '../../schema/catalogue';
import { core } from '../../core/load';

export interface ItemTypeInfo {
  id: string;
  name?: string;
  systemName?: string;
  /** What the profile says (undefined: it does not say). */
  isFolder?: boolean;
}

/** systemNames of folder item types (official help P2 shows `WorkItemRoot`, `DocumentItemRoot`). */
const FOLDER_SYSTEM_NAME = /^(WorkItemRoot|DocumentItemRoot)$|folder/i;
const MILESTONE = /milestone|マイルストーン/i;

/** Whether a profile item type is a folder type: its `isFolder`, else its systemName; undefined when neither says. */
export function profileFolder(t: { isFolder?: boolean | null; systemName?: string | null }): boolean | undefined {
  if (typeof t.isFolder === 'boolean') return t.isFolder;
  if (t.systemName && FOLDER_SYSTEM_NAME.test(t.systemName)) return true;
  return undefined;
}

/**
 * The item types, status types and field names of one project, as far as known.
 * Learns from each level loaded (`learnLevel`); the profile's word wins over the shape.
 */
export class ProjectTypes {
  private readonly itemTypes = new Map<string, ItemTypeInfo>();
  private readonly statuses = new Map<string, string>();
  /** Item types seen as folders / as not folders in the answers. */
  private readonly folderTypesSeen = new Set<string>();
  private readonly otherTypesSeen = new Set<string>();
  /** Items seen to be folders (named by a FolderId, holding a folder) / not to be. */
  private readonly foldersSeen = new Set<string>();
  private readonly othersSeen = new Set<string>();
  /** Root folders of the project (level 0). */
  private readonly roots = new Set<string>();
  /** Field system names the service's catalogue names for the project (undefined: no catalogue read). */
  readonly catalogueFields: ReadonlySet<string> | undefined;

  constructor(readonly profile?: ProjectProfile) {
    if (!profile) return;
    for (const t of profile.itemTypes ?? []) {
      const id = core().profileEntryId(t);
      if (!id) continue;
      this.itemTypes.set(String(id), { id: String(id), name: t.name, systemName: t.systemName ?? undefined, isFolder: profileFolder(t) });
    }
    for (const s of profile.statusTypes ?? []) {
      const id = core().profileEntryId(s);
      if (id) this.statuses.set(String(id), s.name);
    }
    const names = new Set<string>();
    for (const f of profile.fieldTypes ?? []) names.add(f.systemName);
    for (const t of profile.itemTypes ?? []) for (const f of t.fields ?? []) names.add(typeof f === 'string' ? f : f.systemName);
    this.catalogueFields = names.size > 0 ? names : undefined;
  }

  /** True when the profile was read (names and folder types come from it). */
  get fromProfile(): boolean {
    return this.profile !== undefined;
  }

  itemType(id: string | undefined): ItemTypeInfo | undefined {
    return id === undefined ? undefined : this.itemTypes.get(id);
  }

  /** The item type's name from the profile; undefined when not known. */
  itemTypeName(id: unknown): string | undefined {
    const key = core().idValue(id);
    return key === undefined ? undefined : this.itemTypes.get(key)?.name;
  }

  /** The status type's name from the profile; undefined when not known. */
  statusName(id: unknown): string | undefined {
    const key = core().idValue(id);
    return key === undefined ? undefined : this.statuses.get(key);
  }

  /** Whether an item type is a folder type: the profile's word, else what the answers showed; undefined when unknown. */
  folderType(typeId: unknown): boolean | undefined {
    const key = core().idValue(typeId);
    if (key === undefined) return undefined;
    const said = this.itemTypes.get(key)?.isFolder;
    if (said !== undefined) return said;
    if (this.folderTypesSeen.has(key)) return true;
    return this.otherTypesSeen.has(key) ? false : undefined;
  }

  /** Whether a work item is a folder (see the rules at the top of this file). */
  isFolder(item: { id: string; fields: Readonly<Record<string, unknown>> }): boolean {
    const said = this.itemTypes.get(core().idValue(item.fields['ItemTypeId']) ?? '')?.isFolder;
    if (said !== undefined) return said;
    if (this.roots.has(item.id) || this.foldersSeen.has(item.id)) return true;
    if (this.othersSeen.has(item.id)) return false;
    return this.folderType(item.fields['ItemTypeId']) ?? false;
  }

  /** Whether a work item is a milestone: its item type's systemName or name (profile), else its type ID's text. */
  isMilestone(item: { fields: Readonly<Record<string, unknown>> }): boolean {
    const t = this.itemType(core().idValue(item.fields['ItemTypeId']));
    const text = t ? `${t.systemName ?? ''} ${t.name ?? ''}` : String(item.fields['ItemTypeId'] ?? '');
    return MILESTONE.test(text);
  }

  /**
   * Learns from a level's answer: `parent` is the item asked (its fields as they came
   * back), on `level`; `children` its children's fields (see the rules at the top).
   */
  learnLevel(parent: { id: string; fields: Readonly<Record<string, unknown>> }, level: number, children: readonly { id: string; fields: Readonly<Record<string, unknown>> }[]): void {
    if (level === 0) this.roots.add(parent.id);
    let named = false;
    let allName = children.length > 0;
    for (const c of children) {
      const folder = core().idValue(c.fields['FolderId']);
      if (folder === undefined) allName = false;
      else {
        this.foldersSeen.add(folder);
        if (folder === parent.id) named = true;
      }
    }
    const isFolder = level === 0 || named || children.some((c) => this.isFolder(c));
    const parentType = core().idValue(parent.fields['ItemTypeId']);
    const profileSays = parentType !== undefined && this.itemTypes.get(parentType)?.isFolder !== undefined;
    if (isFolder) {
      this.foldersSeen.add(parent.id);
      this.othersSeen.delete(parent.id);
      if (parentType !== undefined && !profileSays) {
        this.folderTypesSeen.add(parentType);
        this.otherTypesSeen.delete(parentType);
      }
    } else if (allName && !this.foldersSeen.has(parent.id)) {
      // Its children name another folder (an ancestor) and hold none: the item is not a folder.
      this.othersSeen.add(parent.id);
      if (parentType !== undefined && !profileSays && !this.folderTypesSeen.has(parentType)) this.otherTypesSeen.add(parentType);
    }
  }

  /**
   * The `fields=` of the tree's reads for this project: TREE_FIELDS, less the names
   * only service-api.md shows when the service's catalogue was read and does not name them.
   */
  treeFields(): readonly string[] {
    const catalogue = this.catalogueFields;
    if (!catalogue) return core().TREE_FIELDS;
    return core().TREE_FIELDS.filter((f) => !core().TREE_FIELDS_OUTSIDE_HELP.includes(f) || catalogue.has(f));
  }
}
