// Deleting work items: DELETE /workitem/workItems/{workItemIds}. The help gives only the
// common rule (official-reference.md section 1: the ID in the path, a nonexistent ID is an
// error); the rest is the sandbox's choice (choices.ts): a deleted item stays in the data
// set, marked deleted, and the update's `restore` brings it back; deleting an item deletes
// the live items below it with it, and a restore brings back exactly those (not an item
// deleted on its own before). All or nothing, as an update. No vscode import.
import type { UpdateWorkItemsResponse } from '../../schema/api';
import type { Dataset, WorkItem } from '../model';
import { strip, type UpdateContext } from '../update';
import { buildResponse } from '../update/response';
import { UpdateRun } from '../update/run';
import { MAX_IDS_PER_DELETE } from './choices';
import { editableProject, failure, type ChangeOutcome } from './common';

/** Marks an item deleted along with the deletion of `by` (a DELETE naming `by`). */
function markDeleted(run: UpdateRun, item: WorkItem, by: string): void {
  const w = run.ws.mut(item.id);
  w.isDeleted = true;
  w.deletedWith = by;
}

/**
 * Deletes the items `ids` of `data` with their live descendants. Atomic: `data` changes only
 * when the outcome is ok; `undo` takes it back. Duplicate IDs are deleted once.
 */
export function applyDelete(data: Dataset, ids: readonly string[], ctx: UpdateContext): ChangeOutcome<UpdateWorkItemsResponse> {
  const unique = [...new Set(ids.map((id) => id.trim()))];
  const run = new UpdateRun(data, {}, ctx);
  try {
    if (unique.length > MAX_IDS_PER_DELETE) {
      run.fail('TOO_MANY_ITEMS_TO_DELETE', { count: unique.length, max: MAX_IDS_PER_DELETE });
      return failure(400, strip(run.errors));
    }
    for (const id of unique) if (!run.ws.get(id)) run.fail('WORK_ITEM_NOT_FOUND', { id }, { itemId: id });
    if (run.errors.length > 0) return failure(404, strip(run.errors));
    for (const id of unique) {
      const item = run.ws.get(id)!;
      if (item.isDeleted) run.fail('ALREADY_DELETED', { id }, { itemId: id });
      else if (item.parentId === null) run.fail('ROOT_FOLDER_NOT_DELETABLE', { id, projectId: item.projectId }, { itemId: id });
      else editableProject(run, item, 'DELETE_FORBIDDEN');
    }
    if (run.errors.length > 0) return failure(run.status(), strip(run.errors));

    // Ancestors first: an item named with one of its ancestors goes with the ancestor's deletion.
    for (const id of [...unique].sort((a, b) => run.ws.level(a) - run.ws.level(b))) {
      const item = run.ws.get(id)!;
      if (item.isDeleted) continue;
      const below = run.ws.descendants(id);
      markDeleted(run, item, id);
      for (const d of below) markDeleted(run, d, id);
    }
    const response = buildResponse(run, unique);
    return { ok: true, response, undo: run.ws.commit() };
  } finally {
    run.ws.rollback(); // no-op after a commit
  }
}
