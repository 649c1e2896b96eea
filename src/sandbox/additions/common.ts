// What adding, duplicating and deleting work items share: the outcome of a change, the
// checks of the item a change is made below (it exists and is live, its project is not
// locked, the caller may edit there), and the levels a new subtree needs. They run on
// the update engine's UpdateRun, so a request is all or nothing as an update is.
// No vscode import.
import { MAX_HIERARCHY_DEPTH } from '../../schema/fields';
import type { Project, ProjectMember, WorkItem } from '../model';
import type { SandboxErrorEntry } from '../update';
import type { UpdateRun } from '../update/run';

export type ChangeOutcome<T> =
  /** `undo` takes the change back (before any later change), e.g. when it could not be saved. */
  { ok: true; response: T; undo: () => void } | { ok: false; status: number; errors: SandboxErrorEntry[] };

export function failure(status: number, errors: SandboxErrorEntry[]): ChangeOutcome<never> {
  return { ok: false, status, errors };
}

/** The item a change is made below (or the item deleted), its project and the caller's membership. */
export interface Place {
  item: WorkItem;
  project: Project;
  member: ProjectMember;
}

/** The project of an item and the caller's edit membership (403 with `forbidden` when none), and its lock. */
export function editableProject(run: UpdateRun, item: WorkItem, forbidden: 'ADD_FORBIDDEN' | 'DELETE_FORBIDDEN'): Place | undefined {
  const project = run.projects.get(item.projectId);
  const member = project?.members.find((m) => m.userId === run.ctx.callerId);
  if (!project || !member || member.permission !== 'edit') {
    run.fail(forbidden, { id: item.id, projectId: item.projectId }, { itemId: item.id });
    return undefined;
  }
  if (project.isLocked) {
    run.fail('PROJECT_LOCKED', { projectId: project.id }, { itemId: item.id });
    return undefined;
  }
  return { item, project, member };
}

/**
 * The item new items go below: it exists (404), neither it nor an ancestor is deleted, its
 * project is not locked and the caller has edit permission there (403); it has no actuals
 * (error 17, as for a move: an item with actuals cannot become a parent).
 */
export function destination(run: UpdateRun, parentId: string): Place | undefined {
  const item = run.ws.get(parentId);
  if (!item) {
    run.fail('WORK_ITEM_NOT_FOUND', { id: parentId }, { itemId: parentId });
    return undefined;
  }
  for (let cur: WorkItem | undefined = item, steps = 0; cur && steps <= MAX_HIERARCHY_DEPTH + 1; steps++) {
    if (cur.isDeleted) {
      run.fail('ADD_PARENT_DELETED', { id: parentId }, { itemId: parentId });
      return undefined;
    }
    cur = cur.parentId === null ? undefined : run.ws.get(cur.parentId);
  }
  const place = editableProject(run, item, 'ADD_FORBIDDEN');
  if (!place) return undefined;
  if (item.actualTime > 0 || item.actualCost > 0) {
    run.fail('PARENT_HAS_ACTUALS', { parentId }, { itemId: parentId, rule: 17 });
    return undefined;
  }
  return place;
}

/** At most 16 levels: a parent on level 16 takes no child; a subtree of `height` levels must end on level 16 at the deepest. */
export function checkLevels(run: UpdateRun, parentId: string, height: number): boolean {
  const parentLevel = run.ws.level(parentId);
  if (parentLevel >= MAX_HIERARCHY_DEPTH) {
    run.fail('PARENT_AT_MAX_DEPTH', { parentId, max: MAX_HIERARCHY_DEPTH }, { itemId: parentId });
    return false;
  }
  if (parentLevel + height > MAX_HIERARCHY_DEPTH) {
    run.fail('HIERARCHY_TOO_DEEP', { parentId, parentLevel, height, level: parentLevel + height, max: MAX_HIERARCHY_DEPTH }, { itemId: parentId });
    return false;
  }
  return true;
}
