// After an update: which loaded levels show their items in another order now. The
// help shows no order field (DisplayOrder), so the order is the one of a level's
// answer: one small read (`fields=Id`) per level whose items the update changed,
// compared with the level loaded. No vscode import.
import type { WorkItemReads } from './hierarchy';
import { levelQuery, type Hierarchy } from './hierarchy';
import { core } from '../../core/load';

/** At most this many levels are checked after one update (one small read each); beyond, none is. */
export const MAX_ORDER_CHECKS = 10;

/**
 * The levels among those of `updated` items (not in `skip`) whose answer now lists their
 * items in another order (or other items). `levelOf` gives a level owner's level; a
 * failed check is reported to `failed` and leaves the level as it is.
 */
export async function reorderedLevels(
  read: <T>(r: (c: Pick<WorkItemReads, 'getSubItems'>) => Promise<T>) => Promise<T>,
  hierarchy: Hierarchy,
  updated: readonly string[],
  skip: ReadonlySet<string>,
  levelOf: (id: string) => number | undefined,
  failed: (parentId: string, e: unknown) => void,
): Promise<{ reordered: string[]; reads: number }> {
  const parents = [...new Set(updated.map((id) => hierarchy.locate(id)?.parentId).filter((p): p is string => p !== undefined && !skip.has(p)))];
  const reordered: string[] = [];
  let reads = 0;
  if (parents.length > MAX_ORDER_CHECKS) return { reordered, reads };
  for (const parentId of parents) {
    const level = levelOf(parentId);
    if (level === undefined) continue;
    try {
      const node = await read((c) => c.getSubItems(parentId, levelQuery(level, ['Id'])));
      reads++;
      const order = (node.fields.SubItems ?? []).map((c) => core().workItemIdOf(c) ?? '');
      if (!hierarchy.sameOrder(parentId, order)) reordered.push(parentId);
    } catch (e) {
      failed(parentId, e);
    }
  }
  return { reordered, reads };
}
