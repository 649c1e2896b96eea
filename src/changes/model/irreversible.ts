// What an update does that no undo can put back, so that Send asks first: each member's
// entry of the member table says it (src/schema/members.ts; clearSchedule deletes the
// items' schedule links, which an update cannot create again). No vscode import.
import type { UpdateWorkItemsBody } from '../../schema/api';
import type { IrreversibleChange } from '../../schema/members';
import { core } from '../../core/load';

export type { IrreversibleChange } from '../../schema/members';

/** The irreversible changes of `update` (empty when every change can be undone). */
export function irreversibleChanges(update: UpdateWorkItemsBody): IrreversibleChange[] {
  return core().irreversibleChanges(update);
}
