// Reading the values a preview, a snapshot or a drift check needs: the touched
// fields of every item (batched, paced and cancellable by the reader given), and
// for moves the children of each previous parent in order. No vscode import.
import type { UpdateWorkItemsBody } from '../schema/api';
import type { SubItemNode, WorkItemRecord } from '../schema/reads';
import { workItemIdOf } from '../schema/reads';
import { fieldsToRead, sameFieldValue, touchedFields, type ItemValues } from './effects';

export interface ReadOptions {
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

/** Reads work items by ID (src/api/reads.ts `readWorkItems` bound to a client). */
export type WorkItemReader = (
  ids: readonly string[],
  fields: readonly string[],
  o: ReadOptions,
) => Promise<{ items: Map<string, WorkItemRecord>; missing: string[]; requests: number }>;

/** Reads one item's sub-items (ServiceClient.getSubItems). */
export type SubItemReader = (id: string, q: { fields?: readonly string[]; depth?: number }, o: { signal?: AbortSignal }) => Promise<SubItemNode>;

export interface ReadValues {
  fields: string[];
  items: Map<string, ItemValues>;
  missing: string[];
  requests: number;
  /** For bodies with moveParentTo: the children of each current parent, in order. */
  siblings?: Map<string, string[]>;
}

/** Reads the values `body` touches on `ids` (and, for a move, the current parents' children). */
export async function readValues(read: WorkItemReader, ids: readonly string[], body: UpdateWorkItemsBody, o: ReadOptions & { subItems?: SubItemReader } = {}): Promise<ReadValues> {
  const fields = fieldsToRead(body);
  const answer = await read(ids, fields, { signal: o.signal, onProgress: o.onProgress });
  const items = new Map<string, ItemValues>();
  for (const [id, record] of answer.items) items.set(id, record.fields);
  const out: ReadValues = { fields, items, missing: answer.missing, requests: answer.requests };
  if (body.moveParentTo !== undefined && o.subItems) {
    out.siblings = new Map();
    const parents = new Map<string, number>();
    for (const v of items.values()) {
      const p = v.ParentId;
      if ((typeof p === 'string' && p) || typeof p === 'number') parents.set(String(p), typeof v.Level === 'number' ? v.Level : NaN);
    }
    for (const [parent, level] of parents) {
      o.signal?.throwIfAborted();
      const node = await o.subItems(parent, { fields: ['Id', 'DisplayOrder'], ...(Number.isFinite(level) ? { depth: level } : {}) }, { signal: o.signal });
      const children = (node.fields.SubItems ?? [])
        .map((c, i) => ({ id: workItemIdOf(c), order: typeof c.fields.DisplayOrder === 'number' ? c.fields.DisplayOrder : i }))
        .filter((c): c is { id: string; order: number } => c.id !== undefined)
        .sort((a, b) => a.order - b.order);
      out.siblings.set(parent, children.map((c) => c.id));
      out.requests++;
    }
  }
  return out;
}

export interface Drift {
  id: string;
  /** Fields whose value is not the one the preview read. */
  fields: { field: string; then: unknown; now: unknown }[];
  /** The item did not come back this time. */
  gone?: boolean;
}

/** Items whose touched fields changed between two reads (the preview's and the one at send time). */
export function findDrift(body: UpdateWorkItemsBody, then: ReadonlyMap<string, ItemValues>, now: ReadonlyMap<string, ItemValues>): Drift[] {
  const fields = touchedFields(body).filter((f) => f !== 'DisplayOrder');
  const out: Drift[] = [];
  for (const [id, a] of then) {
    const b = now.get(id);
    if (!b) {
      out.push({ id, fields: [], gone: true });
      continue;
    }
    const changed = fields.filter((f) => !sameFieldValue(f, a[f], b[f])).map((f) => ({ field: f, then: a[f], now: b[f] }));
    if (changed.length > 0) out.push({ id, fields: changed });
  }
  return out;
}
