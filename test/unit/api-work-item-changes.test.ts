// The client's calls that add, duplicate and delete work items and read a project's members
// (src/api/workItemChanges.ts): real undici requests against the real sandbox, and against a
// plain HTTP server for the answers the help does not promise (a delete answering 204 or any
// body, an add answering without items), which the client must read without failing.
import * as assert from 'node:assert/strict';
import { ServiceClient } from '../../src/api/client';
import { isServiceError, type ServiceError } from '../../src/api/errors';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';
import { answeredItemId } from '../../src/schema/additions';
import { rejection, startServer, stringifyDeep, type TestServer } from './api-helpers';

const ADMIN = { kind: 'basic', loginName: 'admin', password: 'password' } as const;
/** The demo's root folder of project 3001, and its folder and task item types. */
const ROOT = '10';
const FOLDER = '41';
const TASK = '42';

function asServiceError(e: unknown): ServiceError {
  assert.ok(isServiceError(e), `expected a ServiceError, got ${stringifyDeep(e)}`);
  return e;
}

describe('api client: add, duplicate, delete and project members against the sandbox', function () {
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
  beforeEach(async () => {
    await fetch(`${sandbox.origin}/_sandbox/reset`, { method: 'POST' });
  });
  const count = () => sandbox.data.workItems.length;

  it('addSubItems adds a nested item and gives the added items with their IDs, depth first', async () => {
    const before = count();
    const r = await client.addSubItems(ROOT, {
      fields: { ItemTypeId: FOLDER, Name: 'Release 2' },
      metadata: { key: 'job-7/0' },
      subItems: [{ fields: { ItemTypeId: TASK, Name: 'Plan', PlannedTime: 60 } }, { fields: { ItemTypeId: TASK, Name: 'Ship' } }],
    });
    assert.equal(r.items.length, 3);
    const ids = r.items.map((i) => answeredItemId(i));
    assert.ok(
      ids.every((id) => id !== undefined && /^\d+$/.test(id)),
      JSON.stringify(ids),
    );
    assert.equal(count(), before + 3);
    const read = await client.getWorkItems(ids as string[], ['Name', 'ParentId']);
    assert.deepEqual(
      read.map((x) => [x.fields['Name'], x.fields['ParentId']]),
      [
        ['Release 2', ROOT],
        ['Plan', ids[0]],
        ['Ship', ids[0]],
      ],
    );
    assert.deepEqual(read[0]!['metadata'], { key: 'job-7/0' }, 'the metadata comes back with the read');
  });

  it('an add body that is not an add request is refused before anything is sent', async () => {
    const before = count();
    const bad = { fields: { ItemTypeId: TASK, Name: 'x' }, moveParentTo: '11' } as unknown as Parameters<ServiceClient['addSubItems']>[1];
    const e = asServiceError(await rejection(() => client.addSubItems(ROOT, bad)));
    assert.equal(e.kind, 'invalid-request');
    assert.equal(e.sent, false);
    assert.match(e.messages.join('\n'), /moveParentTo/);
    const noFields = asServiceError(await rejection(() => client.addSubItems(ROOT, {} as Parameters<ServiceClient['addSubItems']>[1])));
    assert.equal(noFields.kind, 'invalid-request');
    assert.equal(count(), before);
  });

  it("a refused add is a ServiceError with the status and the service's messages; nothing is added", async () => {
    const before = count();
    const e = asServiceError(
      await rejection(() => client.addSubItems(ROOT, { fields: { ItemTypeId: FOLDER, Name: 'x' }, subItems: [{ fields: { ItemTypeId: '46', Name: 'y' } }] })),
    );
    assert.equal(e.kind, 'http');
    assert.equal(e.status, 400);
    assert.match(e.messages.join('\n'), /Item type "46" is not available/);
    assert.equal(count(), before);
  });

  it('duplicateSubItems copies items below an item and gives the copies', async () => {
    const added = await client.addSubItems(ROOT, {
      fields: { ItemTypeId: FOLDER, Name: 'Template' },
      subItems: [{ fields: { ItemTypeId: TASK, Name: 'Step' } }],
    });
    const template = answeredItemId(added.items[0]!)!;
    const r = await client.duplicateSubItems(ROOT, { fromItemIds: template, duplicateAllChildren: true, orderFirst: true });
    assert.deepEqual(
      r.items.map((i) => i['name']),
      ['Template', 'Step'],
    );
    assert.deepEqual(r.affectedItems, []);
    const bad = asServiceError(
      await rejection(() =>
        client.duplicateSubItems(ROOT, { fromItemIds: 'T1', colour: 'red' } as unknown as Parameters<ServiceClient['duplicateSubItems']>[1]),
      ),
    );
    assert.equal(bad.kind, 'invalid-request');
  });

  it('deleteWorkItems deletes with the subtree and gives what the answer holds; restore brings it back', async () => {
    const added = await client.addSubItems(ROOT, {
      fields: { ItemTypeId: FOLDER, Name: 'Doomed' },
      subItems: [{ fields: { ItemTypeId: TASK, Name: 'Below' } }],
    });
    const [folderId, taskId] = added.items.map((i) => answeredItemId(i)!);
    const r = await client.deleteWorkItems([folderId!]);
    assert.deepEqual(
      r.items.map((i) => [i['id'], i['isDeleted']]),
      [[folderId, true]],
    );
    assert.deepEqual(
      r.affectedItems.map((i) => i['id']),
      [taskId],
    );
    assert.ok(r.body !== undefined, 'the body as it came');
    const gone = asServiceError(await rejection(() => client.getWorkItems([folderId!, taskId!], ['Name'])));
    assert.equal(gone.status, 404);
    await client.updateWorkItems([folderId!], { restore: true });
    assert.equal((await client.getWorkItems([folderId!, taskId!], ['Name'])).length, 2);
  });

  it('deleteWorkItems refuses more than 1000 IDs before sending; a refused delete is a ServiceError', async () => {
    const many = Array.from({ length: 1001 }, (_, i) => String(i + 1));
    const e = asServiceError(await rejection(() => client.deleteWorkItems(many)));
    assert.equal(e.kind, 'invalid-request');
    assert.equal(e.code, 'TOO_MANY_IDS');
    const root = asServiceError(await rejection(() => client.deleteWorkItems([ROOT])));
    assert.equal(root.kind, 'http');
    assert.equal(root.status, 400);
  });

  it('readProjectMembers gives the members and groups that can be assigned', async () => {
    const r = await client.readProjectMembers('3001');
    assert.equal(r.project.id, '3001');
    const project = sandbox.data.projects.find((p) => p.id === '3001')!;
    assert.deepEqual(
      r.members!.map((m) => m.id),
      project.members.map((m) => m.userId),
    );
    assert.equal(r.members!.find((m) => m.id === '2001')!.loginName, 'admin');
    assert.deepEqual(
      r.userGroups!.map((g) => g.id),
      project.userGroupIds,
    );
  });
});

describe('api client: add, duplicate and delete answers the help does not promise', function () {
  let server: TestServer;
  let client: ServiceClient;
  /** What the server answers next: status, body text (undefined: none), content type. */
  let next: { status: number; body?: string; type?: string; drop?: boolean } = { status: 200 };
  before(async () => {
    server = await startServer((req, res) => {
      if (next.drop) return void req.socket.destroy();
      res.statusCode = next.status;
      if (next.body === undefined) return void res.end();
      res.setHeader('content-type', next.type ?? 'application/json');
      res.end(next.body);
    });
    client = new ServiceClient({ baseUrl: server.baseUrl, credentials: () => ADMIN });
  });
  after(async () => {
    await client.close();
    await server.close();
  });
  beforeEach(() => {
    server.received.length = 0;
  });

  it('a delete answered 204 without a body, 200 with an empty body, with text or with another JSON shape is a success', async () => {
    next = { status: 204 };
    assert.deepEqual(await client.deleteWorkItems(['5']), { items: [], affectedItems: [] });
    next = { status: 200, body: '' };
    assert.deepEqual(await client.deleteWorkItems(['5']), { items: [], affectedItems: [] });
    next = { status: 200, body: 'Deleted', type: 'text/plain' };
    assert.deepEqual(await client.deleteWorkItems(['5']), { items: [], affectedItems: [], body: 'Deleted' });
    next = { status: 200, body: '{"deleted": 2, "items": "not a list"}' };
    assert.deepEqual(await client.deleteWorkItems(['5', '6']), { items: [], affectedItems: [], body: { deleted: 2, items: 'not a list' } });
    next = { status: 200, body: '{"items": [{"id": "5"}]}' };
    const shaped = await client.deleteWorkItems(['5']);
    assert.deepEqual([shaped.items, shaped.affectedItems], [[{ id: '5' }], []]);
    assert.deepEqual(server.received.map((r) => [r.method, r.url]).slice(0, 2), [
      ['DELETE', '/site/api/workitem/workItems/5'],
      ['DELETE', '/site/api/workitem/workItems/5'],
    ]);
    assert.equal(server.received[3]!.url, '/site/api/workitem/workItems/5,6', 'IDs joined with literal commas');
  });

  it('an add answered without items (an empty 201, {}, null items) gives none; an array of items is read as the items; IDs as id or Id', async () => {
    const body = { fields: { ItemTypeId: '4', Name: 'x' } };
    for (const answer of [{ status: 201 }, { status: 200, body: '{}' }, { status: 200, body: '{"items": null, "other": 1}' }]) {
      next = answer;
      assert.deepEqual((await client.addSubItems('9', body)).items, [], JSON.stringify(answer));
    }
    next = { status: 200, body: '[{"Id": 41, "Name": "x"}]' };
    const items = (await client.addSubItems('9', body)).items;
    assert.equal(answeredItemId(items[0]!), '41');
    next = { status: 200, body: '{"items": [{"id": "42"}], "affectedItems": []}' };
    assert.equal(answeredItemId((await client.addSubItems('9', body)).items[0]!), '42');
    assert.equal(server.received[0]!.method, 'POST');
    assert.equal(server.received[0]!.url, '/site/api/workitem/workItems/9/subItems');
    assert.deepEqual(JSON.parse(server.received[0]!.body), body);
    next = { status: 200, body: '{"items": "nope"}' };
    const e = asServiceError(await rejection(() => client.addSubItems('9', body)));
    assert.equal(e.kind, 'invalid-response');
    next = { status: 200, body: '' };
    const dup = await client.duplicateSubItems('9', { fromItemIds: '1,2' });
    assert.deepEqual(dup, { items: [], affectedItems: [] });
    assert.equal(server.received.at(-1)!.url, '/site/api/workitem/workItems/9/subItems/duplicate');
  });

  it('an add whose connection drops is not sent again (its outcome is unknown)', async () => {
    next = { status: 200, drop: true };
    const e = asServiceError(await rejection(() => client.addSubItems('9', { fields: { ItemTypeId: '4', Name: 'x' } })));
    assert.equal(e.kind, 'network');
    assert.equal(e.sent, true);
    next = { status: 200, drop: true };
    asServiceError(await rejection(() => client.deleteWorkItems(['9'])));
    assert.deepEqual(
      server.received.map((r) => r.method),
      ['POST', 'DELETE'],
      'one attempt each',
    );
  });

  it('project members named by userId and groups by userGroupId are read; a project without them gives undefined, not an empty list', async () => {
    next = {
      status: 200,
      body: JSON.stringify([{ id: '7', name: 'P', members: [{ userId: 21, name: 'U' }, { name: 'no id' }], userGroups: [{ userGroupId: '96' }] }]),
    };
    const r = await client.readProjectMembers('7');
    assert.deepEqual(r.members, [{ id: '21', name: 'U' }]);
    assert.deepEqual(r.userGroups, [{ id: '96' }]);
    assert.match(server.received[0]!.url, /^\/site\/api\/project\/projects\/7\?includes=Members%2CUserGroups$/);
    next = { status: 200, body: JSON.stringify([{ id: '7', name: 'P' }]) };
    const without = await client.readProjectMembers('7');
    assert.equal(without.members, undefined);
    assert.equal(without.userGroups, undefined);
    next = { status: 200, body: '[]' };
    assert.equal(asServiceError(await rejection(() => client.readProjectMembers('7'))).kind, 'invalid-response');
  });
});
