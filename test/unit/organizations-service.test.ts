// Organizations from the service: sub-organizations from
// `GET /system/organizations/{id}/subOrganizations` (official help O1: one Organization, a tree;
// `depth` = levels below the organization asked, as the sandbox documents in src/sandbox/profile.ts),
// organizations without users shown, the fallback to the discovery from users where the service
// has no such route, and the organizations Add Organization can offer. Against the real sandbox
// over HTTP; a tiny HTTP server where a server without the route is needed.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import { ServiceClient } from '../../src/api/client';
import { isServiceError } from '../../src/api/errors';
import { createSandbox, demoDataset, type Sandbox } from '../../src/sandbox/index';
import type { DatasetInput } from '../../src/sandbox/model';
import { belowFold, OrgDiscovery, summarizeBelow } from '../../src/organizations/model/discovery';
import { OrgTree, SubOrganizations, meansNoRoute } from '../../src/organizations/model/serviceTree';
import { rootChoices } from '../../src/organizations/model/rootChoices';
import { subOrganizationsOf, type OrganizationNode } from '../../src/schema/catalogue';
import { rejection, stringifyDeep } from './api-helpers';

const basic = (loginName: string) => ({ kind: 'basic', loginName, password: 'password' }) as const;

/** The demo data with two more organizations without users: 1901 below the root, 1902 below it. */
function dataWithEmptyOrganizations(): DatasetInput {
  const data = demoDataset();
  data.organizations!.push({ id: '1901', name: '新規事業室', code: 'D900', parentId: '1001' }, { id: '1902', name: '企画グループ', code: 'D910', parentId: '1901' });
  return data;
}
const DATA = dataWithEmptyOrganizations();
/** The live organizations directly below `id` in the data set, in its order (the sandbox answers in it). */
function childrenIn(id: string): { id: string; name: string }[] {
  return DATA.organizations!.filter((o) => o.parentId === id && !o.isDeleted).map((o) => ({ id: o.id, name: o.name }));
}
/** Every live organization of the data set below `id`. */
function liveBelow(id: string): string[] {
  return childrenIn(id).flatMap((c) => [c.id, ...liveBelow(c.id)]);
}

async function fault(sandbox: Sandbox, spec: Record<string, unknown>): Promise<void> {
  const r = await fetch(`${sandbox.origin}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(spec) });
  assert.ok(r.ok, `fault not accepted: ${r.status}`);
}
async function clearFaults(sandbox: Sandbox): Promise<void> {
  await fetch(`${sandbox.origin}/_sandbox/faults`, { method: 'DELETE' });
}
async function faultsLeft(sandbox: Sandbox): Promise<number> {
  const pending = (await (await fetch(`${sandbox.origin}/_sandbox/faults`)).json()) as { remaining: number }[];
  return pending.reduce((n, f) => n + f.remaining, 0);
}

function ids(node: OrganizationNode, level = 0, out: string[] = []): string[] {
  out.push(`${'.'.repeat(level)}${node.id}`);
  for (const c of subOrganizationsOf(node)) ids(c, level + 1, out);
  return out;
}

/** Sub-organizations as the Organizations view reads them: the service's tree, or users. */
function subOrganizations(client: ServiceClient, said: unknown[] = []): SubOrganizations {
  return new SubOrganizations(
    (orgId, depth, signal) => client.getSubOrganizations(orgId, { depth }, { signal }),
    async (orgId, signal) => {
      const fold = belowFold(orgId);
      await client.foldAllAssignedUsers(orgId, {}, fold.start, { signal });
      return fold.below();
    },
    (why) => said.push(why),
  );
}

describe('organizations: from the service (official help O1)', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let client: ServiceClient;
  before(async () => {
    sandbox = await createSandbox({ port: 0, data: DATA });
    client = new ServiceClient({ baseUrl: sandbox.url, credentials: () => basic('admin') });
  });
  afterEach(async () => clearFaults(sandbox));
  after(async () => {
    await client?.close();
    await sandbox?.close();
  });

  describe('the client: getSubOrganizations', () => {
    it('subOrganizations answers one Organization, a tree, with depth counting the levels below the one asked (official help O1)', async () => {
      const one = await client.getSubOrganizations('1001', { depth: 1 });
      assert.equal(one.id, '1001');
      assert.equal(one.name, '株式会社サンプル');
      assert.deepEqual(ids(one), ['1001', ...childrenIn('1001').map((c) => `.${c.id}`)]);
      assert.ok(ids(one).includes('.1901'), 'an organization without users');
      assert.deepEqual(ids(await client.getSubOrganizations('1002', { depth: 1 })), ['1002', '.1005', '.1006'], 'a deleted one (1016) is left out');
      const two = await client.getSubOrganizations('1001', { depth: 2 });
      assert.deepEqual(
        ids(two).filter((i) => /^\.\.\d/.test(i)).sort(),
        childrenIn('1001').flatMap((c) => childrenIn(c.id)).map((c) => `..${c.id}`).sort(),
      );
      const whole = await client.getSubOrganizations('1001');
      assert.ok(ids(whole).includes('...1014'), ids(whole).join(' '));
      const self = await client.getSubOrganizations('1011', { depth: 0 });
      assert.equal(self.parentId, '1005', 'each node names its parent');
      assert.deepEqual(subOrganizationsOf(self), []);
    });

    it('a depth that is not a whole number from 0 is refused before anything is sent', async () => {
      for (const depth of [-1, 1.5, Number.NaN]) {
        const e = await rejection(() => client.getSubOrganizations('1001', { depth }));
        assert.ok(isServiceError(e) && e.kind === 'invalid-request', stringifyDeep(e));
        assert.match(e.messages.join(), /query\.depth/);
      }
      const bad = await rejection(() => client.getSubOrganizations('a/b'));
      assert.ok(isServiceError(bad) && bad.kind === 'invalid-request', stringifyDeep(bad));
    });
  });

  describe('the view\'s model', () => {
    it('sub-organizations come from subOrganizations (official help O1), named by the service, two levels a request', async () => {
      const subs = subOrganizations(client);
      const top = await subs.childrenOf('1001');
      assert.equal(top.source, 'service');
      assert.deepEqual(top.refs, childrenIn('1001'));
      assert.deepEqual(top.refs.slice(0, 3), [
        { id: '1002', name: '開発本部' },
        { id: '1003', name: '営業本部' },
        { id: '1004', name: '管理本部' },
      ]);
      assert.equal(subs.nameOf('1001'), '株式会社サンプル', 'the root is named by the service, not by its users');
      assert.equal(subs.tree.requests, 1);
      assert.deepEqual((await subs.childrenOf('1002')).refs.map((r) => r.id), ['1005', '1006']);
      assert.equal(subs.tree.requests, 1, 'the level below came with the first answer');
      assert.deepEqual((await subs.childrenOf('1005')).refs.map((r) => r.id), ['1011', '1012']);
      assert.equal(subs.tree.requests, 2);
      assert.deepEqual((await subs.childrenOf('1011')).refs, [], 'a team without sub-organizations');
      assert.equal(subs.tree.requests, 2);
      assert.equal(subs.discovery.requests, 0, 'no user list read to find organizations');
    });

    it('an organization without users is shown (and one below it), where the users never show it', async () => {
      const subs = subOrganizations(client);
      assert.ok((await subs.childrenOf('1001')).refs.some((r) => r.id === '1901' && r.name === '新規事業室'));
      assert.deepEqual(await subs.childrenOf('1901'), { refs: [{ id: '1902', name: '企画グループ' }], source: 'service' });
      assert.equal((await client.listOrganizationUsers('1901')).totalCount, 0, '1901 has no users');
      assert.equal((await client.listAllAssignedUsers('1901')).totalCount, 0, 'nor below it');
      const fromUsers = new OrgDiscovery(async (orgId) => summarizeBelow(orgId, (await client.listAllAssignedUsers(orgId)).data));
      assert.ok(!(await fromUsers.childrenOf('1001')).some((r) => r.id === '1901'), 'the discovery from users cannot see it');
    });

    it('falls back to users\' organizations when the service has no subOrganizations (404), and says so once', async () => {
      await fault(sandbox, { status: 404, times: 50, pathContains: 'subOrganizations' });
      const said: unknown[] = [];
      const subs = subOrganizations(client, said);
      const top = await subs.childrenOf('1001');
      assert.equal(top.source, 'users');
      assert.deepEqual(top.refs.map((r) => r.id).sort(), ['1002', '1003', '1004'], 'organizations with users only (not 1901)');
      assert.equal(top.refs.find((r) => r.id === '1002')?.name, '開発本部', 'named from their users');
      assert.equal(said.length, 1);
      assert.ok(isServiceError(said[0]) && said[0].status === 404);
      const left = await faultsLeft(sandbox);
      assert.deepEqual((await subs.childrenOf('1002')).refs.map((r) => r.id).sort(), ['1005', '1006']);
      assert.equal(await faultsLeft(sandbox), left, 'once decided, subOrganizations is not asked again');
      assert.equal(subs.source, 'users');
      assert.equal(said.length, 1, 'said once');
      assert.equal(subs.nameOf('1001'), undefined, 'no name from the service then');
    });

    it('a 405 or a refusal decides at once; a 500 is a failure to show, not a fallback', async () => {
      await fault(sandbox, { status: 405, times: 1, pathContains: 'subOrganizations' });
      const s405 = subOrganizations(client);
      assert.equal((await s405.childrenOf('1901')).source, 'users');
      assert.equal(s405.source, 'users');
      await fault(sandbox, { status: 500, times: 5, pathContains: 'subOrganizations' });
      const s500 = subOrganizations(client);
      const e = await rejection(() => s500.childrenOf('1001'));
      assert.ok(isServiceError(e) && e.status === 500, stringifyDeep(e));
      assert.equal(s500.source, undefined);
      await clearFaults(sandbox);
      assert.equal((await s500.childrenOf('1001')).source, 'service', 'the next load reads the service');
      assert.ok(meansNoRoute(await rejection(() => client.getSubOrganizations('no-such-org'))), 'the sandbox answers 404 for an unknown organization');
    });

    it('a 404 for an organization that does not exist leaves the service\'s tree on for the others', async () => {
      const said: unknown[] = [];
      const subs = subOrganizations(client, said);
      assert.deepEqual(await subs.childrenOf('9999'), { refs: [], source: 'users' });
      assert.equal(subs.source, undefined, 'undecided: the 404 may be about the organization');
      assert.equal((await subs.childrenOf('1001')).source, 'service');
      assert.deepEqual(said, []);
    });

    it('a 404 for an organization that has users means the service lacks the route', async () => {
      await fault(sandbox, { status: 404, times: 50, pathContains: 'subOrganizations' });
      const said: unknown[] = [];
      const subs = subOrganizations(client, said);
      // 1011 has users of its own but none below it: the discovery finds nothing, the users list tells.
      assert.deepEqual(await subs.childrenOf('1011'), { refs: [], source: 'users' });
      assert.equal(subs.source, undefined);
      subs.noteExists('1011');
      assert.equal(subs.source, 'users');
      assert.equal(said.length, 1);
    });

    it('with a filter, whether a sub-organization holds a match comes from its whole subtree, read once', async () => {
      const subs = subOrganizations(client);
      await subs.childrenOf('1001');
      const before = subs.tree.requests;
      assert.equal(await subs.holdsAny('1002', new Set(['1013']), undefined), true);
      assert.equal(await subs.holdsAny('1002', new Set(['1014']), undefined), false);
      assert.equal(subs.tree.requests, before + 1, 'one request for 1002\'s whole subtree');
      assert.equal(await subs.holdsAny('1901', new Set(['1902']), undefined), true);
    });

    it('refreshing an organization reads it and what lies below it again', async () => {
      let calls = 0;
      const tree = new OrgTree(async (orgId, depth) => {
        calls++;
        return client.getSubOrganizations(orgId, { depth });
      });
      await tree.childrenOf('1001');
      await tree.childrenOf('1002');
      assert.equal(calls, 1);
      tree.clear('1001');
      await tree.childrenOf('1002');
      assert.equal(calls, 2, '1002 was forgotten with 1001');
      assert.equal(tree.info('1001')?.name, '株式会社サンプル', 'names are kept');
    });
  });

  describe('the organizations Add Organization offers', () => {
    it('the signed-in user\'s organization (users/me) and its tree, up to the top through parentId (official help O1)', async () => {
      const nocost = new ServiceClient({ baseUrl: sandbox.url, credentials: () => basic('nocost') });
      try {
        const r = await rootChoices(nocost, []);
        assert.equal(r.problem, undefined, stringifyDeep(r.problem));
        assert.deepEqual(r.choices[0], { id: '1001', name: '株式会社サンプル', code: 'C000', level: 0, mine: false });
        const mine = r.choices.filter((c) => c.mine);
        assert.deepEqual(mine.map((c) => [c.id, c.level]), [['1011', 3]]);
        assert.deepEqual(r.choices.map((c) => c.id).sort(), ['1001', ...liveBelow('1001')].sort(), 'every live organization, with and without users');
        assert.ok(!r.choices.some((c) => c.id === '1016'), 'not a deleted one');
      } finally {
        await nocost.close();
      }
    });

    it('the trees of organizations already shown too, each organization once', async () => {
      const data = dataWithEmptyOrganizations();
      data.organizations!.push({ id: '1801', name: '別会社', code: 'X', parentId: null }, { id: '1802', name: '別会社 支店', code: 'Y', parentId: '1801' });
      const sb = await createSandbox({ port: 0, data });
      const c = new ServiceClient({ baseUrl: sb.url, credentials: () => basic('admin') });
      try {
        const r = await rootChoices(c, ['1802', '1003']);
        const got = r.choices.map((x) => x.id);
        assert.equal(new Set(got).size, got.length);
        assert.ok(got.includes('1801') && got.includes('1802') && got.includes('1001'), got.join(' '));
        assert.deepEqual(r.choices.filter((x) => x.id.startsWith('18')).map((x) => [x.id, x.level]), [['1801', 0], ['1802', 1]]);
        assert.equal(r.choices.find((x) => x.id === '1001')?.mine, true, 'admin belongs to the root');
      } finally {
        await c.close();
        await sb.close();
      }
    });

    it('without subOrganizations, only the user\'s own organization as users/me names it', async () => {
      await fault(sandbox, { status: 404, times: 50, pathContains: 'subOrganizations' });
      const viewer = new ServiceClient({ baseUrl: sandbox.url, credentials: () => basic('viewer') });
      try {
        const r = await rootChoices(viewer, ['1003']);
        assert.deepEqual(r.choices, [{ id: '1005', name: 'アプリケーション開発部', level: 0, mine: true }]);
        assert.ok(isServiceError(r.problem) && r.problem.status === 404);
      } finally {
        await viewer.close();
      }
    });
  });
});

describe('organizations: a server with neither subOrganizations nor users/me', function () {
  this.timeout(30_000);
  let server: http.Server;
  let client: ServiceClient;
  const seen: string[] = [];
  before(async () => {
    server = http.createServer((req, res) => {
      seen.push(req.url ?? '');
      res.statusCode = 404;
      res.setHeader('content-type', 'application/json');
      res.end('[{"message":"not found"}]');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    client = new ServiceClient({ baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}/api`, credentials: () => basic('admin') });
  });
  after(async () => {
    await client.close();
    server.close();
  });

  it('offers nothing, so Add Organization asks for IDs as before', async () => {
    const r = await rootChoices(client, []);
    assert.deepEqual(r.choices, []);
    assert.ok(seen.some((u) => u.startsWith('/api/system/users/me')));
  });
});

describe('users/me without name (public clients expect only id and loginName)', function () {
  this.timeout(30_000);
  let server: http.Server;
  let answer: unknown;
  let client: ServiceClient;
  before(async () => {
    server = http.createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(answer));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    client = new ServiceClient({ baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}/api`, credentials: () => basic('admin') });
  });
  after(async () => {
    await client.close();
    server.close();
  });

  it('the name falls back to the login name, and every other member is kept', async () => {
    answer = { id: '64', loginName: 'okamoto', organizationId: '7', language: 'ja-JP' };
    const me = await client.getCurrentUser();
    assert.equal(me?.name, 'okamoto');
    assert.equal(me?.id, '64');
    assert.equal((me as Record<string, unknown>)['organizationId'], '7');
    answer = { id: 65, name: null, loginName: 'tanaka' };
    assert.equal((await client.getCurrentUser())?.name, 'tanaka', 'a null name and a numeric ID too');
    answer = { id: '66', name: '' };
    assert.equal((await client.getCurrentUser())?.name, '66', 'neither name nor login name: the ID');
    answer = { id: '67', name: '岡本 太郎', loginName: 'okamoto' };
    assert.equal((await client.getCurrentUser())?.name, '岡本 太郎', 'a name is kept');
  });

  it('an answer without an ID is still refused as invalid', async () => {
    answer = { loginName: 'okamoto' };
    const e = await rejection(() => client.getCurrentUser());
    assert.ok(isServiceError(e) && e.kind === 'invalid-response', stringifyDeep(e));
  });
});
