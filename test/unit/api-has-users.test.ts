// Add Organization asks whether an organization answers by its ID: the service's
// subOrganizations shows it (official help O1), or some user is in it
// (operation 3) or below it (operation 2, which leaves the organization's own users out).
// Each read stops at the first checked users, so a large organization is neither read
// whole nor held against the response cap.
import * as assert from 'node:assert/strict';
import { ServiceClient } from '../../src/api/client';
import { isServiceError } from '../../src/api/errors';
import { createSandbox, DEMO_ORGANIZATIONS, demoDataset, generateDataset, type Sandbox } from '../../src/sandbox/index';
import { organizationExists } from '../../src/organizations/model/rootChoices';
import { capturingLogger, rejection, stringifyDeep } from './api-helpers';

const ADMIN = { kind: 'basic', loginName: 'admin', password: 'password' } as const;

describe('organizations: whether an organization has users (Add Organization)', function () {
  this.timeout(60_000);

  describe('the demo data', () => {
    let sandbox: Sandbox;
    let client: ServiceClient;
    before(async () => {
      sandbox = await createSandbox({});
      client = new ServiceClient({ baseUrl: sandbox.url, credentials: () => ADMIN });
    });
    after(async () => {
      await client.close();
      await sandbox.close();
    });

    it('an organization with users in it or below it answers true', async () => {
      assert.equal(await client.hasUsers(DEMO_ORGANIZATIONS.root), true);
      assert.equal(await client.hasUsers(DEMO_ORGANIZATIONS.administration), true);
    });

    it('an organization with no organization below it answers true by its own users (operation 2 lists none)', async () => {
      assert.equal((await client.listAllAssignedUsers('1011')).totalCount, 0, 'nothing below 1011');
      assert.ok((await client.listOrganizationUsers('1011')).totalCount > 0, '1011 has users of its own');
      assert.equal(await client.hasUsers('1011'), true);
    });

    it('an ID no organization has answers false', async () => {
      assert.equal(await client.hasUsers('org-that-does-not-exist'), false);
    });

    it('Add Organization knows an organization without users from subOrganizations (official help O1)', async () => {
      const data = demoDataset();
      data.organizations!.push({ id: '1901', name: '新規事業室', code: 'D900', parentId: '1001' });
      const sb = await createSandbox({ data });
      const c = new ServiceClient({ baseUrl: sb.url, credentials: () => ADMIN });
      try {
        assert.equal(await c.hasUsers('1901'), false, 'no user tells it exists');
        assert.equal(await organizationExists(c, '1901'), true);
        assert.equal(await organizationExists(c, '1011'), true);
        assert.equal(await organizationExists(c, 'org-that-does-not-exist'), false);
        // A service without the route: the users tell, as before.
        await fetch(`${sb.origin}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ status: 404, times: 10, pathContains: 'subOrganizations' }) });
        assert.equal(await organizationExists(c, '1011'), true, 'from its users');
        assert.equal(await organizationExists(c, '1901'), false, 'without the route, an organization without users cannot be told');
      } finally {
        await c.close();
        await sb.close();
      }
    });

    it('a cancel by the caller rejects as cancelled instead of answering', async () => {
      const stop = new AbortController();
      stop.abort();
      const e = await rejection(() => client.hasUsers(DEMO_ORGANIZATIONS.root, { signal: stop.signal }));
      assert.ok(!isServiceError(e) || e.kind === 'cancelled', stringifyDeep(e));
    });
  });

  describe('an organization of 8,000 users (about 5 MB of answer)', () => {
    let sandbox: Sandbox;
    before(async () => {
      sandbox = await createSandbox({ data: generateDataset({ users: 8000, organizations: 1, workItems: 2, processCategories: 0, seed: 3 }) });
    });
    after(async () => sandbox.close());

    it('stops reading after the first users: true under a response cap that the whole answer is over', async () => {
      const log = capturingLogger();
      const capped = new ServiceClient({ baseUrl: sandbox.url, credentials: () => ADMIN, maxResponseBytes: 3 * 1024 * 1024, logger: log });
      try {
        // Read whole, the same answer is over the cap...
        const whole = await rejection(() => capped.listOrganizationUsers('1'));
        assert.ok(isServiceError(whole) && whole.reason === 'response-too-large', stringifyDeep(whole));
        // ...but the question is answered from its first users, before the cap is reached.
        log.lines.length = 0;
        assert.equal(await capped.hasUsers('1'), true);
        // The read it stopped is logged as cancelled, not as a failure.
        assert.deepEqual(log.lines.filter((l) => l.startsWith('warn')), [], log.text());
        assert.match(log.text(), /info GET \/system\/organizations\/1\/users cancelled after \d+ ms/);
        // The client stays usable after the read it stopped.
        assert.equal(await capped.hasUsers('org-that-does-not-exist'), false);
      } finally {
        await capped.close();
      }
    });

    it('an invalid user among the first ones fails the read, naming the user, instead of answering', async () => {
      const http = await import('node:http');
      const server = http.createServer((_req, res) => {
        res.setHeader('content-type', 'application/json');
        const users = Array.from({ length: 4000 }, (_, i) => JSON.stringify({ id: `u${i}`, name: i === 2 ? 42 : `User ${i}`, organizationId: '1' }));
        res.end(`{"totalCount":4000,"data":[${users.join(',')}]}`);
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const { port } = server.address() as { port: number };
      const client = new ServiceClient({ baseUrl: `http://127.0.0.1:${port}`, credentials: () => ADMIN });
      try {
        const e = await rejection(() => client.hasUsers('1'));
        assert.ok(isServiceError(e) && e.kind === 'invalid-response', stringifyDeep(e));
        assert.match(e.message, /user 3 in "data" is not valid/);
      } finally {
        await client.close();
        server.close();
      }
    });
  });
});
