// Applies one update body to the sandbox as a Send does (values read before with the
// fields= list and the extra reads the member table names, the update, the values read
// after), then its undo documents, and keeps every read: what the member table's tests
// compare the table with. The sandbox is a real HTTP server (port 0).
import * as assert from 'node:assert/strict';
import { ServiceClient } from '../../src/api/client';
import { readWorkItems } from '../../src/api/reads';
import type { ItemValues } from '../../src/bulk/effects';
import { readValues, type ReadValues } from '../../src/bulk/readValues';
import { planUndo, type UndoPlan } from '../../src/bulk/undo';
import { createSandbox, type Sandbox } from '../../src/sandbox';
import type { DatasetInput } from '../../src/sandbox/model';
import type { UpdateWorkItemsBody, UpdateWorkItemsResponse } from '../../src/schema/api';
import { dataset, virtualClock } from './undo-fixtures';

/** The undo fixtures' data set, with a deleted task (D1 under F1, D2 under F2) and a schedule link between T1 and T2. */
export function membersDataset(): DatasetInput {
  const d = dataset();
  d.workItems = [
    ...(d.workItems ?? []),
    { id: 'D1', projectId: 'p1', parentId: 'F1', order: 50, itemTypeId: 'task', name: 'Deleted 1', isDeleted: true, deletedWith: 'D1' },
    { id: 'D2', projectId: 'p1', parentId: 'F2', order: 50, itemTypeId: 'task', name: 'Deleted 2', isDeleted: true, deletedWith: 'D2' },
  ];
  d.scheduleLinks = [{ id: 'L1', fromId: 'T1', toId: 'T2' }];
  return d;
}

/** Everything one body did on the sandbox, and what its undo put back. */
export interface Run {
  body: UpdateWorkItemsBody;
  ids: readonly string[];
  /** The values read before, as a Send reads them (the table's fields= list and extra reads). */
  before: ReadValues;
  /** Every field of the items before / after the update / after the undo (a read without fields=). */
  all: { before: Map<string, ItemValues>; after: Map<string, ItemValues>; back: Map<string, ItemValues> };
  response: UpdateWorkItemsResponse;
  /** The values read after the update, as a Send reads them. */
  after: ReadValues;
  undo: UndoPlan;
  /** The values read after the undo documents were sent, as a Send reads them. */
  back: ReadValues;
  /** The sandbox's data set before and after the update, and after the undo. */
  dump: { before: DumpedDataset; after: DumpedDataset; back: DumpedDataset };
  /** The values the undo was planned from (the values read before, or the snapshot given for items a read cannot see). */
  snapshot: ReadonlyMap<string, ItemValues>;
}

export interface DumpedDataset {
  workItems: { id: string; parentId: string | null; order: number; isDeleted: boolean; statusTypeId: string | null }[];
  scheduleLinks: { id: string; fromId: string; toId: string }[];
}

export class MemberSandbox {
  private sandbox!: Sandbox;
  client!: ServiceClient;

  async start(): Promise<void> {
    this.sandbox = await createSandbox({ data: membersDataset() });
    this.client = new ServiceClient({ baseUrl: this.sandbox.url, credentials: () => ({ kind: 'basic', loginName: 'admin', password: 'password' }) });
  }

  async stop(): Promise<void> {
    await this.client?.close();
    await this.sandbox?.close();
  }

  async reset(): Promise<void> {
    const res = await fetch(`${this.sandbox.origin}/_sandbox/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(membersDataset()),
    });
    assert.equal(res.status, 200);
  }

  /** The values `body` needs of `ids`, read as a Send reads them. */
  read(ids: readonly string[], body: UpdateWorkItemsBody): Promise<ReadValues> {
    return readValues((i, fields, o) => readWorkItems(this.client, i, { fields, clock: virtualClock(), signal: o.signal }), ids, body, {
      subItems: (id, q, o) => this.client.getSubItems(id, { fields: q.fields, depth: q.depth }, o),
    });
  }

  /** Every field of `ids` (the sandbox answers all of them to a read without fields=). */
  async readAll(ids: readonly string[]): Promise<Map<string, ItemValues>> {
    const r = await readWorkItems(this.client, ids, { clock: virtualClock() });
    return new Map([...r.items].map(([id, rec]) => [id, rec.fields]));
  }

  async dump(): Promise<DumpedDataset> {
    return (await (await fetch(`${this.sandbox.origin}/_sandbox/dump`)).json()) as DumpedDataset;
  }

  /**
   * Applies `body` to `ids` on a fresh data set, then the undo documents of it in order.
   * `snapshot`: the values to plan the undo from, for items a read cannot see (deleted ones).
   */
  async run(body: UpdateWorkItemsBody, ids: readonly string[], snapshot?: (dump: DumpedDataset) => Map<string, ItemValues>): Promise<Run> {
    await this.reset();
    const dumpBefore = await this.dump();
    const before = await this.read(ids, body);
    const values = snapshot ? snapshot(dumpBefore) : before.items;
    const allBefore = await this.readAll(ids);
    const response = await this.client.updateWorkItems([...ids], body);
    const after = await this.read(ids, body);
    const allAfter = await this.readAll(ids);
    const dumpAfter = await this.dump();
    const undo = planUndo({ body, applied: ids, before: values, after: after.items, ...(before.siblings ? { siblingsBefore: before.siblings } : {}) });
    for (const doc of undo.documents) {
      try {
        await this.client.updateWorkItems(doc.workItemIds, doc.update);
      } catch (e) {
        assert.fail(
          `the undo document ${doc.kind} ${JSON.stringify(doc.update)} for ${doc.workItemIds.join(',')} was refused: ${e instanceof Error ? e.message : String(e)}`,
        );
      }
    }
    const back = await this.read(ids, body);
    const allBack = await this.readAll(ids);
    return {
      body,
      ids,
      before,
      all: { before: allBefore, after: allAfter, back: allBack },
      response,
      after,
      undo,
      back,
      dump: { before: dumpBefore, after: dumpAfter, back: await this.dump() },
      snapshot: values,
    };
  }
}

/** The children of `parent` in the sandbox's order (deleted ones left out). */
export function childrenOf(dump: DumpedDataset, parent: string): string[] {
  return dump.workItems
    .filter((w) => w.parentId === parent && !w.isDeleted)
    .sort((a, b) => a.order - b.order)
    .map((w) => w.id);
}
