// One level of the Work Items view as the view loads it: the project's profile
// (read once per project, at the same time) and the level's answer, asked with the
// fields the policy allows (falling back to the core names when the service refuses
// a name); what the answer's shape shows is learned for the project. No vscode import.
import type { TreeFieldPolicy } from './fieldPolicy';
import { loadLevelAnswer, type WorkItemReads } from './hierarchy';
import type { ProjectTypesCache } from './profiles';
import type { WorkItemRow } from './rows';
import type { ProjectTypes } from './types';

export interface TreeLevelDeps {
  types: ProjectTypesCache;
  fields: TreeFieldPolicy;
}

/** Loads the children of `parent` (on `parent.level`) of project `projectId`; neither read waits for the other. */
export async function loadTreeLevel(
  client: Pick<WorkItemReads, 'getSubItems'>,
  deps: TreeLevelDeps,
  parent: { id: string; level: number },
  projectId: string | undefined,
  signal?: AbortSignal,
): Promise<{ rows: WorkItemRow[]; types: ProjectTypes }> {
  const fields = deps.fields.fieldsFor(deps.types.known(projectId));
  const [types, answer] = await Promise.all([
    deps.types.load(projectId, signal),
    loadLevelAnswer(client, parent, signal, { fields, read: (f, r) => deps.fields.read(f, r) }),
  ]);
  types.learnLevel(answer.parent, parent.level, answer.rows);
  return { rows: answer.rows, types };
}
