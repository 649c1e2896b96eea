// What an update does that no undo can put back, so that Send asks first. No vscode import.
// clearSchedule deletes the items' schedule links (official help: "clear start and end
// dates and delete links"); an update cannot create links, so an undo can put the dates
// back but not the links (src/bulk/undo.ts 'links-deleted').
import type { UpdateWorkItemsBody } from '../../schema/api';

export type IrreversibleChange = 'links-deleted';

/** The irreversible changes of `update` (empty when every change can be undone). */
export function irreversibleChanges(update: UpdateWorkItemsBody): IrreversibleChange[] {
  // restore ignores every other member (official help), so nothing is deleted then.
  if (update.restore === true) return [];
  return update.clearSchedule === true ? ['links-deleted'] : [];
}
