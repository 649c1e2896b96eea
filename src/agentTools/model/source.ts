// Where a find reads: a project's root folder (from the project's record), or a folder
// given by its work item ID, with the folder's level and the path of names the table
// shows for its rows (from the level below the project's root folder). A folder's level
// is found by reading its ancestors up to the root folder, one item per level. No vscode.
import type { CallOptions } from '../../api/client';
import type { Project, WorkItemRecord } from '../../schema/reads';
import { core } from '../../core/load';

/** The reads this needs (ServiceClient has them). */
export interface SourceReads {
  getProjects(ids: readonly string[], o?: CallOptions): Promise<Project[]>;
  getWorkItems(ids: readonly string[], fields?: readonly string[], o?: CallOptions): Promise<WorkItemRecord[]>;
}

export interface FindSource {
  rootId: string;
  /** The level of rootId (0: the project's root folder). */
  level: number;
  /** The path of rootId's names below the root folder ('' for the root folder). */
  basePath: string;
  projectId?: string;
  name?: string;
}

/** A source that cannot be read, with the reason for the agent. */
export class SourceError extends Error {
  override name = 'SourceError';
}

const PATH_SEPARATOR = ' / ';

export async function projectSource(reads: SourceReads, projectId: string, o: CallOptions = {}): Promise<FindSource> {
  const [project] = await reads.getProjects([projectId], o);
  if (!project) throw new SourceError(`project ${projectId} was not found (or is not visible to the signed-in user)`);
  const root = core().idValue(project.workItemRootFolderId);
  if (root === undefined) throw new SourceError(`the service did not name the root folder of project ${projectId} (workItemRootFolderId)`);
  return { rootId: root, level: 0, basePath: '', projectId, ...(typeof project.name === 'string' ? { name: project.name } : {}) };
}

/** A folder by its ID: its ancestors are read up to the project's root folder (at most the deepest hierarchy the service allows). */
export async function folderSource(reads: SourceReads, folderId: string, o: CallOptions = {}): Promise<FindSource> {
  const fields = ['Name', 'ParentId', 'ProjectId'];
  const [rec] = await reads.getWorkItems([folderId], fields, o);
  if (!rec) throw new SourceError(`work item ${folderId} was not found (or is not visible to the signed-in user)`);
  const name = typeof rec.fields['Name'] === 'string' ? rec.fields['Name'] : folderId;
  const projectId = core().idValue(rec.fields['ProjectId']);
  const names: string[] = [];
  let parent = core().idValue(rec.fields['ParentId']);
  if (parent !== undefined) names.push(name);
  for (let guard = 0; parent !== undefined; guard++) {
    if (guard > core().MAX_HIERARCHY_DEPTH + 1) throw new SourceError(`the ancestors of work item ${folderId} go deeper than the service allows`);
    const [up] = await reads.getWorkItems([parent], fields, o);
    if (!up) break;
    const next = core().idValue(up.fields['ParentId']);
    // The root folder (no parent) is not part of the path.
    if (next !== undefined) names.unshift(typeof up.fields['Name'] === 'string' ? up.fields['Name'] : parent);
    parent = next;
  }
  const level = names.length;
  return { rootId: folderId, level, basePath: names.join(PATH_SEPARATOR), ...(projectId ? { projectId } : {}), name };
}
