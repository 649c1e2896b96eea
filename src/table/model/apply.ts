// The values a table expects after its requests are sent: a model of what the
// service does with the members the table writes (`fields`, `moveScheduleDays`).
// Used to show expected values, and by the property test of the grouping.
// No vscode import.
import type { UpdateWorkItemsBody } from '../../schema/api';
import { dateOf, shiftDate } from './text';

export type ItemFields = Readonly<Record<string, unknown>>;

/** One update body applied to one item's fields: `fields` set as given, then planned dates shifted (a missing date stays missing). */
export function applyUpdate(item: ItemFields, update: UpdateWorkItemsBody): Record<string, unknown> {
  const out: Record<string, unknown> = { ...item, ...(update.fields ?? {}) };
  const d = update.moveScheduleDays;
  if (d !== undefined && d !== 0) {
    for (const f of ['PlannedStartDate', 'PlannedFinishDate']) {
      const v = dateOf(out[f]);
      if (v !== undefined) out[f] = shiftDate(v, d);
    }
  }
  return out;
}

/** Request documents applied in order to items by ID; items not named are kept as they are (the same object). */
export function applyRequests(items: ReadonlyMap<string, ItemFields>, documents: readonly { workItemIds: readonly string[]; update: UpdateWorkItemsBody }[]): Map<string, ItemFields> {
  const out = new Map(items);
  for (const doc of documents) {
    for (const id of new Set(doc.workItemIds)) {
      const item = out.get(id);
      if (item) out.set(id, applyUpdate(item, doc.update));
    }
  }
  return out;
}
