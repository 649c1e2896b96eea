// Names for user IDs come from every configured root organization: its own users
// (operation 3) and those of the organizations below it (operation 2, which leaves
// the organization's own users out), read against the demo sandbox.
import * as assert from 'node:assert/strict';
import { ServiceClient } from '../../src/api/client';
import { readPeople } from '../../src/people/read';
import { createSandbox, DEMO_ORGANIZATIONS, type Sandbox } from '../../src/sandbox/index';

describe('people: the users of a root organization read for names', () => {
  let sandbox: Sandbox;
  let client: ServiceClient;
  before(async () => {
    sandbox = await createSandbox({});
    client = new ServiceClient({ baseUrl: sandbox.url, credentials: () => ({ kind: 'basic', loginName: 'admin', password: 'password' }) });
  });
  after(async () => {
    await client.close();
    await sandbox.close();
  });

  it("holds the root organization's own users (operation 3) and those below it (operation 2), each once", async () => {
    const direct = (await client.listOrganizationUsers(DEMO_ORGANIZATIONS.root)).data;
    const below = (await client.listAllAssignedUsers(DEMO_ORGANIZATIONS.root)).data;
    assert.ok(direct.some((u) => u.id === '2001'), '2001 belongs to the root itself');
    assert.ok(!below.some((u) => u.id === '2001'), 'operation 2 leaves it out');
    const people = await readPeople(client, DEMO_ORGANIZATIONS.root);
    assert.deepEqual(people.map((u) => u.id).sort(), [...direct, ...below].map((u) => u.id).sort());
    assert.equal(new Set(people.map((u) => u.id)).size, people.length);
    assert.deepEqual(people.find((u) => u.id === '2001'), { id: '2001', name: '管理者 太郎', loginName: 'admin' });
    assert.deepEqual(Object.keys(people.find((u) => u.id === '2104')!).sort(), ['id', 'loginName', 'name'], 'only what a hover shows is kept');
  });

  it('a failed read rejects instead of answering with part of the users', async () => {
    const bad = new ServiceClient({ baseUrl: sandbox.url, credentials: () => ({ kind: 'basic', loginName: 'admin', password: 'wrong' }) });
    try {
      await assert.rejects(() => readPeople(bad, DEMO_ORGANIZATIONS.root), (e: unknown) => (e as { status?: number }).status === 401);
    } finally {
      await bad.close();
    }
  });
});
