import * as assert from 'node:assert/strict';
import { ServiceClient } from '../../src/api/client';
import { isServiceError, type ServiceError } from '../../src/api/errors';
import { MAX_ITEMS_PER_UPDATE } from '../../src/api/limits';
import { workItemsPath } from '../../src/api/paths';
import type { Sandbox } from '../../src/sandbox';
import { startServer, type TestServer } from './api-helpers';
import { clientFor, startSandbox, storedItem } from './bulk-helpers';

// The service updates at most 1000 work items at once (service-api.md, "items updated at
// once: 1000 at most"). The client refuses more itself, before anything is sent: one
// constant (MAX_ITEMS_PER_UPDATE) for the sandbox, the client and the planner.
const tooMany = (e: unknown): boolean => {
  const err = e as ServiceError;
  return (
    isServiceError(e) &&
    err.kind === 'invalid-request' &&
    err.code === 'TOO_MANY_IDS' &&
    err.sent === false &&
    err.method === 'PUT' &&
    /at most 1000 work items can be updated in one request; 1001 IDs were given/.test(err.message)
  );
};

describe('api client: at most 1000 work items in one update (service-api.md limits)', () => {
  it('the limit is one constant: 1000', () => {
    assert.equal(MAX_ITEMS_PER_UPDATE, 1000);
  });

  describe('nothing is sent for more', () => {
    let server: TestServer;
    before(async () => {
      server = await startServer((_req, res) => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ items: [], affectedItems: [], addedTimeEntryIds: [], addedScheduleDependencyIds: [] }));
      });
    });
    after(async () => {
      await server.close();
    });

    it('1001 distinct IDs are refused with a clear error and the server receives no request, also with a planned path', async () => {
      const client = new ServiceClient({ baseUrl: server.baseUrl, credentials: () => ({ kind: 'bearer', token: 'secret-token-1' }) });
      try {
        const ids = Array.from({ length: 1001 }, (_, i) => String(100_000 + i));
        await assert.rejects(client.updateWorkItems(ids, { fields: { Description: 'x' } }), tooMany);
        await assert.rejects(client.updateWorkItems(ids, { fields: { Description: 'x' } }, { path: workItemsPath(ids) }), tooMany);
        assert.equal(server.received.length, 0, 'no request reached the server');
        // The error names no secret and does not list the IDs.
        let message = '';
        await assert.rejects(client.updateWorkItems(ids, { fields: { Description: 'x' } }), (e: unknown) => {
          message = (e as Error).message;
          return true;
        });
        assert.ok(!message.includes('secret-token-1'));
        assert.ok(!message.includes('100999'), message);
      } finally {
        await client.close();
      }
    });
  });

  describe('against the sandbox', () => {
    let sandbox: Sandbox;
    let tasks: string[];
    before(async () => {
      sandbox = await startSandbox(1600);
      tasks = sandbox.data.workItems.filter((w) => w.itemTypeId === '42').map((w) => w.id);
      assert.ok(tasks.length >= 1001, `the data set has ${tasks.length} tasks`);
    });
    after(async () => {
      await sandbox.close();
    });

    it('1001 IDs are refused before sending (nothing changes); exactly 1000 are sent and updated', async () => {
      const client = clientFor(sandbox);
      try {
        const ids = tasks.slice(0, 1001);
        await assert.rejects(client.updateWorkItems(ids, { fields: { Description: 'too many' } }), tooMany);
        assert.notEqual((await storedItem(sandbox, ids[0]!)).description, 'too many', 'nothing was updated');

        const r = await client.updateWorkItems(ids.slice(0, 1000), { fields: { Description: 'a thousand' } });
        assert.equal(r.items.length, 1000);
        assert.equal((await storedItem(sandbox, ids[999]!)).description, 'a thousand');
        assert.notEqual((await storedItem(sandbox, ids[1000]!)).description, 'a thousand');
      } finally {
        await client.close();
      }
    });
  });
});
