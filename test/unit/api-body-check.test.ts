import * as assert from 'node:assert/strict';
import { isServiceError } from '../../src/api/errors';
import type { Sandbox } from '../../src/sandbox';
import type { UpdateWorkItemsBody } from '../../src/schema/api';
import { markChecked, isChecked } from '../../src/schema/checked';
import { validateRequestDocument } from '../../src/schema/document';
import { clientFor, startSandbox } from './bulk-helpers';

// A bulk job sends one body with every request; the client checks a body once while
// its JSON reads the same, and checks every different body afresh.
describe('api client: update bodies checked once per distinct body', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox(50);
  });
  after(async () => {
    await sandbox.close();
  });

  it('a bad body after a good one is refused before sending; the good one still goes', async () => {
    const client = clientFor(sandbox);
    try {
      const ids = sandbox.data.workItems.filter((w) => w.itemTypeId === '42').map((w) => w.id).slice(0, 2);
      const good: UpdateWorkItemsBody = { setCompleted: true };
      const r1 = await client.updateWorkItems([ids[0]!], good);
      assert.deepEqual(r1.items.map((i) => i.id), [ids[0]]);
      await assert.rejects(client.updateWorkItems([ids[1]!], { setCompleted: 'yes' } as unknown as UpdateWorkItemsBody), (e: unknown) => isServiceError(e) && e.kind === 'invalid-request' && e.sent !== true);
      const bad = { setCompleted: true } as Record<string, unknown>;
      bad.setCompleted = 3; // same object shape, different JSON
      await assert.rejects(client.updateWorkItems([ids[1]!], bad as UpdateWorkItemsBody), (e: unknown) => isServiceError(e) && e.kind === 'invalid-request');
      const r2 = await client.updateWorkItems([ids[1]!], { setCompleted: true });
      assert.deepEqual(r2.items.map((i) => i.id), [ids[1]]);
    } finally {
      await client.close();
    }
  });

  it("a body the request document's checks returned is sent as it is (checked once, there); any other is checked by the client", async () => {
    const doc = validateRequestDocument({ requests: [{ workItemIds: ['1'], update: { setCompleted: true } }, { workItemIds: ['2'], update: { moveScheduleDays: 1 } }] });
    assert.ok(doc.document?.requests.every((r) => isChecked(r.update)), 'each validated body is marked');
    assert.equal(isChecked({ setCompleted: true }), false);
    // Seen from the client: a marked body is not parsed again. A shape zod refuses, marked, reaches the service,
    // which refuses it itself (sent); the same body unmarked is refused before sending.
    const client = clientFor(sandbox);
    try {
      const id = sandbox.data.workItems.find((w) => w.itemTypeId === '42')!.id;
      const bad = () => ({ setCompleted: 'yes' }) as unknown as UpdateWorkItemsBody;
      await assert.rejects(client.updateWorkItems([id], bad()), (e: unknown) => isServiceError(e) && e.kind === 'invalid-request' && e.sent !== true);
      await assert.rejects(client.updateWorkItems([id], markChecked(bad())), (e: unknown) => isServiceError(e) && e.kind === 'http' && e.status === 400);
    } finally {
      await client.close();
    }
  });
});
