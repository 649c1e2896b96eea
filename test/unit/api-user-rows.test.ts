// Operation 3 read as the rows of a tree view (ServiceClient.readOrganizationUsers, scanUserList):
// the same users as the whole answer, each user decoded again from the answer's bytes, and
// every answer that is not a list of users refused with a clear invalid-response, never a crash.
import * as assert from 'node:assert/strict';
import { ServiceClient } from '../../src/api/client';
import { isServiceError } from '../../src/api/errors';
import { scanUserList } from '../../src/api/userScan';
import { createSandbox, generateDataset, type Sandbox } from '../../src/sandbox';
import { rejection, startServer, stringifyDeep, type TestServer } from './api-helpers';

const ADMIN = { kind: 'basic', loginName: 'admin', password: 'password' } as const;

describe('api: users of an organization as tree rows (readOrganizationUsers)', function () {
  this.timeout(60_000);

  describe('against the sandbox', () => {
    let sandbox: Sandbox;
    before(async () => {
      sandbox = await createSandbox({ port: 0, data: generateDataset({ users: 2000, organizations: 1, workItems: 2, processCategories: 0, seed: 7 }) });
    });
    after(async () => sandbox.close());

    it('gives the users of the whole answer, in order: each row its ID, name, login name and deleted flag, each user decoded again equal', async () => {
      const client = new ServiceClient({ baseUrl: sandbox.url, credentials: () => ADMIN });
      try {
        const whole = await client.listOrganizationUsers('1');
        const rows = await client.readOrganizationUsers('1');
        assert.equal(rows.totalCount, whole.totalCount);
        assert.equal(rows.rows.length, whole.data.length);
        assert.ok(rows.rows.length > 1000);
        whole.data.forEach((u, i) => {
          const r = rows.rows[i]!;
          assert.deepEqual([r.id, r.name, r.loginName, r.isDeleted], [u.id, u.name, u.loginName, u.isDeleted === true], `user ${i}`);
          assert.deepEqual(rows.user(r), u, `user ${i} decoded again`);
        });
        assert.ok(rows.keptBytes > 0 && rows.keptBytes <= 2 * Buffer.byteLength(JSON.stringify(whole)), 'the answer kept as bytes, once');
      } finally {
        await client.close();
      }
    });

    it('the response cap applies (response-too-large, the limit named)', async () => {
      const client = new ServiceClient({ baseUrl: sandbox.url, credentials: () => ADMIN, maxResponseBytes: 64 * 1024 });
      try {
        const e = await rejection(() => client.readOrganizationUsers('1'));
        assert.ok(isServiceError(e), stringifyDeep(e));
        assert.equal(e.reason, 'response-too-large');
        assert.equal(e.limitBytes, 64 * 1024);
      } finally {
        await client.close();
      }
    });
  });

  describe('answers of any shape (a server that answers a fixed body)', () => {
    let server: TestServer;
    let body = '';
    before(async () => {
      server = await startServer((_req, res) => {
        res.setHeader('content-type', 'application/json');
        res.end(body);
      });
    });
    after(async () => server.close());

    const read = async (text: string) => {
      body = text;
      const client = new ServiceClient({ baseUrl: server.baseUrl, credentials: () => ADMIN });
      try {
        return await client.readOrganizationUsers('o1');
      } finally {
        await client.close();
      }
    };
    const refused = async (text: string, message: RegExp) => {
      body = text;
      const client = new ServiceClient({ baseUrl: server.baseUrl, credentials: () => ADMIN });
      try {
        const e = await rejection(() => client.readOrganizationUsers('o1'));
        assert.ok(isServiceError(e), `not a ServiceError: ${stringifyDeep(e)}`);
        assert.equal(e.kind, 'invalid-response');
        assert.match(e.messages.join('\n'), message);
      } finally {
        await client.close();
      }
    };

    const tricky = [
      { id: '1', name: 'A "quoted" name, [with] {brackets}', loginName: 'a\\b', extra: { nested: [1, { data: '},{' }] }, isDeleted: true },
      { id: '2', name: 'あいう \u3042 \ud83d\ude42 tab\there', loginName: null, unitCost: -1.5e3, permission: 3, note: '},{"id":"x"' },
      { id: '3', name: '', email: 'c@example.com', canEdit: false },
    ];

    it('escapes, nested unknown members, `},{` inside strings, white space and a byte order mark: the same users as JSON.parse', async () => {
      for (const text of [JSON.stringify({ totalCount: 3, data: tricky }), `\ufeff ${JSON.stringify({ data: tricky, totalCount: 3, more: [null] }, null, 2)}\n`]) {
        const rows = await read(text);
        assert.equal(rows.totalCount, 3);
        assert.deepEqual(
          rows.rows.map((r) => [r.id, r.name, r.loginName, r.isDeleted]),
          tricky.map((u) => [u.id, u.name, u.loginName, u.isDeleted === true]),
        );
        rows.rows.forEach((r, i) => assert.deepEqual(rows.user(r), tricky[i]));
      }
      assert.deepEqual((await read('{"totalCount":0,"data":[]}')).rows, []);
      // A member name written with escapes is the name it stands for.
      assert.equal((await read('{"totalCount":1,"d\\u0061ta":[{"id":"9","n\\u0061me":"N"}]}')).rows[0]!.name, 'N');
    });

    it('a user without a name, or with a name that is not a string, is refused naming the user and the member', async () => {
      await refused('{"totalCount":2,"data":[{"id":"1","name":"A"},{"id":"2"}]}', /user 2 in "data" is not valid: .*data\[1\]\.name/);
      await refused('{"totalCount":1,"data":[{"id":"1","name":5}]}', /user 1 in "data" is not valid: .*data\[0\]\.name/);
      await refused('{"totalCount":1,"data":[{"id":"1","name":"A","isDeleted":"yes"}]}', /data\[0\]\.isDeleted/);
      await refused('{"totalCount":1,"data":[{"id":"1","name":"A","permission":1.5}]}', /data\[0\]\.permission/);
      await refused('{"totalCount":1,"data":["not a user"]}', /user 1 in "data" is not valid/);
    });

    it('a body that is not JSON, cut short, or not {totalCount, data} is refused with where and what', async () => {
      await refused('{"totalCount":1,"data":[{"id":"1","name":"A"}', /not JSON: .*"," or "\]"|not JSON: .*end of the body/);
      await refused('{"totalCount":1,"data":[{"id":"1","name":"A\u0001"}]}', /control character inside a string at byte \d+ \(in user 1 of "data"\)/);
      await refused('{"totalCount":1,"data":[{"id":"1","name":"A"}]} x', /after the end of the object/);
      await refused('{"totalCount":1,"data":[{"id":"1","name":tru}]}', /"true" was expected/);
      await refused('{"data":[]}', /totalCount: the member is missing/);
      await refused('{"totalCount":1}', /data: the member is missing/);
      await refused('{"totalCount":1,"data":{}}', /data: not an array/);
      await refused('{"totalCount":-1,"data":[]}', /totalCount: -1 is not a whole number from 0/);
      await refused('{"totalCount":0,"data":[],"data":[]}', /a second "data" member/);
      await refused('[]', /expected object|object/i);
      await refused('', /the body is empty/);
      // Deep nesting is refused, not a stack overflow.
      await refused(`{"totalCount":1,"data":[{"id":"1","name":"A","x":${'['.repeat(100_000)}`, /nested more than 256 deep/);
    });

    it('scanUserList leaves a body that is not an object to the usual reading (undefined)', () => {
      assert.equal(scanUserList(Buffer.from(' [1]')), undefined);
      assert.equal(scanUserList(Buffer.from('')), undefined);
    });
  });
});
