// Reading the values a preview, a snapshot or a drift check needs: the touched
// fields of every item (batched, paced and cancellable by the reader given), and
// for moves the children of each previous parent in order. No vscode import.
import { DEFAULT_MIN_INTERVAL_MS, DEFAULT_REQUESTS_PER_MINUTE } from '../api/limits';
import { type SharedPacing, intervalFor, Pacer, systemClock, type Clock } from '../api/pacer';
import type { UpdateWorkItemsBody } from '../schema/api';
import type { SubItemNode, WorkItemRecord } from '../schema/reads';
import { idValue, workItemIdOf } from '../schema/reads';
import { readWithFieldFallback } from '../api/reads';
import { extraReadsOf } from '../schema/members';
import { fieldsToReadForAll, HAS_SUB_ITEMS, neededFieldsForAll, sameFieldValue, touchedFieldsOfAll, type ItemValues } from './effects';

export interface ReadOptions {
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
  /** After each batch: its IDs and every record read so far (src/api/reads.ts `onBatch`). */
  onBatch?: (batch: readonly string[], items: Map<string, WorkItemRecord>) => void;
}

/** Reads work items by ID (src/api/reads.ts `readWorkItems` bound to a client); the map it answers is the caller's (a new one each call). */
export type WorkItemReader = (
  ids: readonly string[],
  fields: readonly string[],
  o: ReadOptions,
) => Promise<{ items: Map<string, WorkItemRecord>; missing: string[]; requests: number }>;

/** Reads one item's sub-items (ServiceClient.getSubItems). */
export type SubItemReader = (id: string, q: { fields?: readonly string[]; depth?: number }, o: { signal?: AbortSignal }) => Promise<SubItemNode>;

/**
 * `get` on the configured pacing: each call waits for its turn (at least one interval after the
 * previous call's start) and starts its turn as it leaves, as the work-item reads do. One pacer
 * for every call of the reader; given `pacing` (a Send's, a Preview's), on its time line, so
 * the sub-item reads are spaced from the work-item reads too.
 */
export function pacedSubItems(get: SubItemReader, requestsPerMinute = DEFAULT_REQUESTS_PER_MINUTE, clock: Clock = systemClock, pacing?: SharedPacing): SubItemReader {
  const pacer = new Pacer(intervalFor(requestsPerMinute, DEFAULT_MIN_INTERVAL_MS), clock, pacing);
  return async (id, q, o) => {
    const slot = await pacer.slot(o.signal);
    slot.start();
    return get(id, q, o);
  };
}

/** The service refused the first read's `fields=` and the values were read with fewer names. */
export interface RefusedFields {
  /** What was asked first. */
  asked: string[];
  /** The names left out (read again without them). */
  left: string[];
  /** The refusal's HTTP status. */
  status?: number;
}

export interface ReadValues {
  /** The `fields=` the values were read with. */
  fields: string[];
  items: Map<string, ItemValues>;
  missing: string[];
  requests: number;
  /**
   * For bodies with moveParentTo: the children of each current parent, in order. For bodies
   * that reach sub-items (setCompleted, setTimeEntryLocked, propagateToChildren), each item's
   * values carry HAS_SUB_ITEMS (computed from the same reads, not a field of the service).
   */
  siblings?: Map<string, string[]>;
  /** Set when the service refused the full list of fields and the values were read without the names only a prediction needs. */
  refused?: RefusedFields;
}

export interface ReadValuesOptions {
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
  subItems?: SubItemReader;
  /**
   * After each batch of the work-item reads (before the next is asked for): its IDs and the values
   * read so far (those of the batch included). The sub-item reads, when the body needs them, come
   * after the last batch and only add HAS_SUB_ITEMS (src/bulk/effects.ts SUB_ITEM_NOTES).
   */
  onItems?: (batch: readonly string[], items: ReadonlyMap<string, ItemValues>) => void;
  /**
   * Ask only for the fields a preview cannot do without (effects.ts `neededFields`) from the
   * start: the service refused the others before (a caller that remembers it saves a refused call).
   */
  neededOnly?: boolean;
}

/**
 * Reads the values `bodies` touch on `ids` (and, for a move, the current parents'
 * children): one body for a document of one request; for a change, every request's body,
 * read for all its items at once (one read of each item serves every request).
 */
export async function readValues(read: WorkItemReader, ids: readonly string[], bodies: UpdateWorkItemsBody | readonly UpdateWorkItemsBody[], o: ReadValuesOptions = {}): Promise<ReadValues> {
  const all = Array.isArray(bodies) ? (bodies as readonly UpdateWorkItemsBody[]) : [bodies as UpdateWorkItemsBody];
  const needed = neededFieldsForAll(all);
  let fields = o.neededOnly ? needed : fieldsToReadForAll(all);
  // The reader's map is ours: each record becomes its fields in place (no second map of every item), batch by batch when the reader says.
  let byBatch = false;
  const onBatch = (batch: readonly string[], got: Map<string, WorkItemRecord>): void => {
    byBatch = true;
    const values = got as unknown as Map<string, ItemValues>;
    for (const id of batch) {
      const r = got.get(id);
      if (r) values.set(id, r.fields);
    }
    o.onItems?.(batch, values);
  };
  // Refused before any batch came back (the help promises no code for an unknown name, C3: a 4xx is
  // taken as one): once more with the names a preview cannot do without. A refusal after a batch
  // came back is about something else (the same names were answered), and is thrown as it is.
  let refused: RefusedFields | undefined;
  const asked = fields;
  const answer = await readWithFieldFallback(
    asked,
    needed,
    (f) => read(ids, (fields = [...f]), { signal: o.signal, onProgress: o.onProgress, onBatch }),
    (e) => (refused = { asked, left: asked.filter((f) => !needed.includes(f)), status: e.status }),
    () => !byBatch,
  );
  const items = answer.items as unknown as Map<string, ItemValues>;
  if (!byBatch) for (const [id, record] of answer.items) items.set(id, record.fields);
  const out: ReadValues = { fields, items, missing: answer.missing, requests: answer.requests + (refused ? 1 : 0) };
  if (refused) out.refused = refused;
  const extra = new Set(all.flatMap((b) => [...extraReadsOf(b)]));
  const wantSiblings = extra.has('siblings');
  const wantChildren = extra.has('sub-items');
  if ((wantSiblings || wantChildren) && o.subItems) {
    if (wantSiblings) out.siblings = new Map();
    const parents = new Set<string>();
    for (const v of items.values()) {
      const p = idValue(v.ParentId);
      if (p !== undefined) parents.add(p);
    }
    // The help shows no Level: each parent's level comes from its ParentId chain (depth counts from the root).
    const levels = await levelsOf(read, [...parents], o.signal, (n) => (out.requests += n));
    for (const parent of parents) {
      o.signal?.throwIfAborted();
      const level = levels.get(parent);
      // The parent's children, and for bodies that reach sub-items one level more: whether each item has any
      // (the help shows no HasChildren). Without a level, the whole subtree (its shape says the same).
      const depth = level === undefined ? undefined : level + (wantChildren ? 2 : 1);
      const node = await o.subItems(parent, { fields: ['Id'], ...(depth !== undefined ? { depth } : {}) }, { signal: o.signal });
      out.requests++;
      const children = node.fields.SubItems ?? [];
      // The siblings' order is the answer's order (the help shows no order field).
      if (wantSiblings) out.siblings!.set(parent, children.map((c) => workItemIdOf(c)).filter((id): id is string => id !== undefined));
      if (wantChildren) {
        for (const c of children) {
          const id = workItemIdOf(c);
          const values = id === undefined ? undefined : items.get(id);
          if (values) items.set(id!, { ...values, [HAS_SUB_ITEMS]: (c.fields.SubItems ?? []).length > 0 });
        }
      }
    }
  }
  return out;
}

/** Deepest chain followed (the service allows 16 levels). */
const MAX_LEVELS = 32;

/**
 * The level of each of `ids` (the project's root folder is 0), from their ParentId
 * chains: one batched read of the IDs not known yet per level up. An ID whose chain
 * breaks (an item that did not come back) gets no level.
 */
export async function levelsOf(read: WorkItemReader, ids: readonly string[], signal: AbortSignal | undefined, counted: (requests: number) => void): Promise<Map<string, number>> {
  const parentOf = new Map<string, string | null>();
  let frontier = [...new Set(ids)];
  for (let round = 0; frontier.length > 0 && round < MAX_LEVELS; round++) {
    signal?.throwIfAborted();
    const answer = await read(frontier, ['Id', 'ParentId'], { signal });
    counted(answer.requests);
    const next = new Set<string>();
    for (const id of frontier) {
      const fields = answer.items.get(id)?.fields;
      if (!fields) continue;
      const p = idValue(fields['ParentId']) ?? null;
      parentOf.set(id, p);
      if (p !== null && !parentOf.has(p)) next.add(p);
    }
    frontier = [...next];
  }
  const levels = new Map<string, number>();
  for (const id of ids) {
    let level = 0;
    let cur: string | null | undefined = parentOf.get(id);
    const seen = new Set([id]);
    while (cur !== null && cur !== undefined && !seen.has(cur) && level <= MAX_LEVELS) {
      seen.add(cur);
      level++;
      cur = parentOf.get(cur);
    }
    if (cur === null) levels.set(id, level);
  }
  return levels;
}

export interface Drift {
  id: string;
  /** Fields whose value is not the one the preview read. */
  fields: { field: string; then: unknown; now: unknown }[];
  /** The item did not come back this time. */
  gone?: boolean;
}

/** Items whose touched fields changed between two reads (the preview's and the one at send time). */
export function findDrift(bodies: UpdateWorkItemsBody | readonly UpdateWorkItemsBody[], then: ReadonlyMap<string, ItemValues>, now: ReadonlyMap<string, ItemValues>): Drift[] {
  const fields = touchedFieldsOfAll(Array.isArray(bodies) ? (bodies as readonly UpdateWorkItemsBody[]) : [bodies as UpdateWorkItemsBody]);
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
