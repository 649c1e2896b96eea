// The read operations bound to the current connection, paced like bulk updates.
import type { SubItemReader, WorkItemReader } from '../bulk/readValues';
import type { SharedPacing } from '../api/pacer';
import { readSettings } from '../common/config';
import type { ConnectionManager } from '../common/connection';
import { core } from '../core/load';

export function workItemReader(connections: ConnectionManager, pacing?: SharedPacing): WorkItemReader {
  return (ids, fields, o) => {
    const b = readSettings().bulk;
    return connections.run((c) =>
      core().readWorkItems(c, ids, { fields, maxUrlLength: b.maxUrlLength, requestsPerMinute: b.requestsPerMinute, signal: o.signal, onProgress: o.onProgress, onBatch: o.onBatch, ...(pacing ? { pacing } : {}) }),
    );
  };
}

/** One item's sub-items, paced like the work-item reads (one pacer for every call of this reader; on the Send's or the Preview's pacing when given). */
export function subItemReader(connections: ConnectionManager, pacing?: SharedPacing): SubItemReader {
  return core().pacedSubItems((id, q, o) => connections.run((c) => c.getSubItems(id, { fields: q.fields, depth: q.depth }, { signal: o.signal })), readSettings().bulk.requestsPerMinute, undefined, pacing);
}

/** How many GET requests reading `ids` with `fields` takes (undefined when an ID cannot be read at all). */
export function readRequestCount(baseUrl: string, ids: readonly string[], fields: readonly string[]): number | undefined {
  try {
    return core().planWorkItemReads(baseUrl, ids, fields, readSettings().bulk.maxUrlLength).length;
  } catch {
    return undefined;
  }
}
