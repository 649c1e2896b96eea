// Property test against the sandbox over real HTTP: for random invertible updates
// on random items, apply the update, then apply the generated undo documents in
// order, and every touched field is back to its original value (and moved items
// back in their old place among their siblings). Non-invertible members are
// reported for every item they reach.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { ServiceClient } from '../../src/api/client';
import { sameFieldValue, touchedFields } from '../../src/bulk/effects';
import { planUndo } from '../../src/bulk/undo';
import { createSandbox, type Sandbox } from '../../src/sandbox';
import { readWorkItems } from '../../src/api/reads';
import { readValues, type ReadValues } from '../../src/bulk/readValues';
import { bodyArb, dataset, FOLDERS, TASKS, virtualClock } from './undo-fixtures';
import type { UpdateWorkItemsBody } from '../../src/schema/api';

describe('bulk undo: property test against the sandbox', function () {
  this.timeout(120_000);
  let sandbox: Sandbox;
  let client: ServiceClient;
  const initial = dataset();

  before(async () => {
    sandbox = await createSandbox({ data: initial });
    client = new ServiceClient({ baseUrl: sandbox.url, credentials: () => ({ kind: 'basic', loginName: 'admin', password: 'password' }) });
  });
  after(async () => {
    await client?.close();
    await sandbox?.close();
  });

  /** The values the preview and the snapshot read: GET /workitem/workItems/{ids}?fields=..., and the parents' sub-items for a move. */
  function read(ids: readonly string[], body: UpdateWorkItemsBody): Promise<ReadValues> {
    return readValues((i, fields, o) => readWorkItems(client, i, { fields, clock: virtualClock(), signal: o.signal }), ids, body, {
      subItems: (id, q, o) => client.getSubItems(id, { fields: q.fields, depth: q.depth }, o),
    });
  }

  async function reset(): Promise<void> {
    const res = await fetch(`${sandbox.origin}/_sandbox/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(initial) });
    assert.equal(res.status, 200);
  }

  it('apply, then apply the undo documents: every touched field is back (500 runs)', async () => {
    let applied = 0;
    await fc.assert(
      fc.asyncProperty(bodyArb, fc.subarray(TASKS, { minLength: 1 }), fc.boolean(), async (body, ids, reRead) => {
        await reset();
        const taken = await read(ids, body);
        const before = taken.items;
        const siblingsBefore = taken.siblings;
        let response;
        try {
          response = await client.updateWorkItems(ids, body);
        } catch {
          return; // refused by a rule (e.g. a shift past the end date); nothing to undo
        }
        applied++;
        assert.equal(response.items.length, ids.length);
        // Half the runs know the values after (re-read), half rely on the prediction.
        const after = reRead ? (await read(ids, body)).items : undefined;
        const plan = planUndo({ body, applied: ids, before, after, siblingsBefore });
        // (Leaf or not is computed from the hierarchy read, the help shows no HasChildren.)
        assert.deepEqual(plan.nonInvertible, [], 'an invertible body on leaf items has nothing that cannot be put back');
        for (const doc of plan.documents) {
          try {
            await client.updateWorkItems(doc.workItemIds, doc.update);
          } catch (e) {
            assert.fail(`undo document ${doc.kind} ${JSON.stringify(doc.update)} for ${doc.workItemIds.join(',')} was refused: ${e instanceof Error ? e.message : String(e)}`);
          }
        }
        const back = await read(ids, body);
        const now = back.items;
        for (const id of ids) {
          for (const f of touchedFields(body)) {
            const b = before.get(id)![f];
            const a = now.get(id)![f];
            assert.ok(sameFieldValue(f, b, a), `${id}.${f}: ${JSON.stringify(b)} before, ${JSON.stringify(a)} after the undo; body ${JSON.stringify(body)}`);
          }
        }
        if (body.moveParentTo !== undefined) {
          assert.ok(siblingsBefore && back.siblings);
          for (const [p, list] of siblingsBefore) assert.deepEqual(back.siblings.get(p), list, `children of ${p} in their old order`);
        }
      }),
      { numRuns: 500, seed: 20261123 },
    );
    assert.ok(applied > 250, `most generated updates are accepted (${applied} of 500)`);
  });

  it('non-invertible members are reported for every item they reach, never skipped silently', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<UpdateWorkItemsBody>({ clearSchedule: true }, { propagateToChildren: { fields: 'StatusTypeId' } }, { setCompleted: true }),
        fc.subarray(FOLDERS, { minLength: 1 }),
        async (body, ids) => {
          await reset();
          const before = (await read(ids, body)).items;
          await client.updateWorkItems(ids, body);
          const plan = planUndo({ body, applied: ids, before, after: (await read(ids, body)).items });
          const member = Object.keys(body)[0]!;
          const reported = new Set(plan.nonInvertible.filter((n) => n.member === member).map((n) => n.id));
          assert.deepEqual([...reported].sort(), [...ids].sort(), `${member} reported for every folder`);
        },
      ),
      { numRuns: 30, seed: 7 },
    );
  });
});
