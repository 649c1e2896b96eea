// The client's read operations and the batched reader, against the real sandbox
// over HTTP (and a small recording server for shapes the sandbox never sends).
import * as assert from 'node:assert/strict';
import { ServiceClient, type Credentials } from '../../src/api/client';
import { isServiceError, ServiceError } from '../../src/api/errors';
import { workItemsPath } from '../../src/api/paths';
import { planWorkItemReads, readWorkItems, ReadPlanError } from '../../src/api/reads';
import { createSandbox, DEMO_PASSWORD, DEMO_ROOT_FOLDERS, DEMO_SIGN_IN, generateDataset, type Sandbox } from '../../src/sandbox';
import { checkSubItemsResponse, TREE_FIELDS, workItemIdOf, type SubItemNode } from '../../src/schema/reads';
import { json, rejection, startServer, stringifyDeep, type TestServer } from './api-helpers';
import { FakeClock } from './bulk-helpers';

function asServiceError(e: unknown): ServiceError {
  assert.ok(isServiceError(e), `expected a ServiceError, got ${stringifyDeep(e)}`);
  return e;
}

const flatten = (n: SubItemNode): SubItemNode[] => [n, ...(n.fields.SubItems ?? []).flatMap(flatten)];

describe('api reads: client calls against the sandbox', () => {
  let sandbox: Sandbox;
  let client: ServiceClient;
  let creds: Credentials = { kind: 'none' };

  before(async () => {
    sandbox = await createSandbox({});
    client = new ServiceClient({ baseUrl: sandbox.url, credentials: () => creds });
    creds = { kind: 'bearer', token: await client.signIn(DEMO_SIGN_IN.admin, DEMO_PASSWORD) };
  });
  after(async () => {
    await client.close();
    await sandbox.close();
  });

  it('listProjects: a page of projects with totalCount, filters sent as query parameters', async () => {
    const all = await client.listProjects();
    assert.equal(all.totalCount, 3);
    assert.ok(all.data.every((p) => typeof p.workItemRootFolderId === 'string'));
    const open = await client.listProjects({ isFinished: false, limit: 1 });
    assert.equal(open.totalCount, 2);
    assert.deepEqual(open.data.map((p) => p.id), ['3001']);
    const mine = await client.listProjects({ isManager: true, keyword: 'old' });
    assert.deepEqual(mine.data.map((p) => p.code), ['PRJ-OLD']);
    const orgs = await client.listProjects({ organizationIds: '1011,1012' });
    assert.deepEqual(orgs.data.map((p) => p.id), ['3001', '3002']);
  });

  it('listProjects refuses a bad query before sending, naming the member', async () => {
    const e = asServiceError(await rejection(() => client.listProjects({ limit: -1 })));
    assert.equal(e.kind, 'invalid-request');
    assert.match(e.messages.join(), /query\.limit/);
  });

  it('getProjects: an array in the order asked; 404 only when none exists', async () => {
    assert.deepEqual((await client.getProjects(['3003', 'nope', '3001'])).map((p) => p.id), ['3003', '3001']);
    const e = asServiceError(await rejection(() => client.getProjects(['nope'])));
    assert.equal(e.status, 404);
    const bad = asServiceError(await rejection(() => client.getProjects(['a/b'])));
    assert.equal(bad.kind, 'invalid-request');
    assert.match(bad.messages.join(), /project ID #1/);
  });

  it('getWorkItems: one GET; fields as a comma-separated query; Id comes back too', async () => {
    const list = await client.getWorkItems(['112', '111'], ['Name', 'PlannedTime']);
    assert.deepEqual(list.map(workItemIdOf), ['112', '111']);
    assert.deepEqual(Object.keys(list[1]!.fields).sort(), ['Id', 'IsAclInherited', 'Name', 'PlannedTime']);
    assert.equal(list[1]!.fields['PlannedTime'], 4800);
    const all = await client.getWorkItems(['111']);
    assert.ok('ActualTime' in all[0]!.fields && 'UpdatedAt' in all[0]!.fields);
    const e = asServiceError(await rejection(() => client.getWorkItems(['nope'])));
    assert.equal(e.status, 404);
  });

  it('getWorkItems refuses a bad ID or field name before sending', async () => {
    for (const [ids, fields, what] of [
      [['1', '1'], undefined, /given more than once/],
      [['a,b'], undefined, /contains a comma/],
      [['1'], ['Na,me'], /fields\[0\].*must not contain ","/],
      [['1'], [''], /fields\[0\]: a field name must not be empty/],
    ] as const) {
      const e = asServiceError(await rejection(() => client.getWorkItems(ids, fields)));
      assert.equal(e.kind, 'invalid-request');
      assert.match(e.messages.join(), what);
    }
  });

  it('getSubItems: the item with its children nested; depth counts from the root folder (level 0)', async () => {
    const root = await client.getSubItems(DEMO_ROOT_FOLDERS.web, { fields: TREE_FIELDS, depth: 1 });
    assert.equal(root.fields['ParentId'], '0', 'the root folder (level 0) has no parent: "0"');
    assert.deepEqual(root.fields.SubItems!.map(workItemIdOf), ['100', '200']);
    // Children of 121 (level 3) come with depth 4.
    const n = await client.getSubItems('121', { fields: ['Name'], depth: 4 });
    assert.deepEqual(n.fields.SubItems!.map(workItemIdOf), ['122', '123', '127']);
    assert.ok(n.fields.SubItems!.every((c) => c.fields.SubItems === undefined));
    const whole = await client.getSubItems('121', { fields: ['Name'] });
    assert.deepEqual(flatten(whole).map(workItemIdOf), ['121', '122', '123', '127', '128', '129']);
  });

  it('getSubItems: deleted items only with includeDeleted; a bad depth is refused before sending', async () => {
    const live = flatten(await client.getSubItems('110', { fields: ['Name'] })).map(workItemIdOf);
    const all = flatten(await client.getSubItems('110', { fields: ['Name'], includeDeleted: true })).map(workItemIdOf);
    assert.ok(!live.includes('115') && all.includes('115'));
    const e = asServiceError(await rejection(() => client.getSubItems('110', { depth: -1 })));
    assert.equal(e.kind, 'invalid-request');
    assert.match(e.messages.join(), /query\.depth/);
  });

  it('getCurrentUser: the signed-in user', async () => {
    const me = await client.getCurrentUser();
    assert.equal(me?.id, '2001');
    assert.equal(me?.loginName, 'admin');
  });
});

describe('api reads: shapes (recording server)', () => {
  let server: TestServer;
  let answer: (path: string) => { status: number; body: unknown };
  let client: ServiceClient;
  before(async () => {
    server = await startServer((req, res) => {
      const a = answer(req.url ?? '');
      json(res, a.status, a.body);
    });
    client = new ServiceClient({ baseUrl: server.baseUrl });
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it('sends fields with literal commas and each name encoded on its own', async () => {
    answer = () => ({ status: 200, body: [{ fields: { Id: '1' } }] });
    await client.getWorkItems(['1', 'é'], ['Name', 'Ü']);
    const url = server.received.at(-1)!.url;
    assert.equal(url, '/site/api/workitem/workItems/1,%C3%A9?fields=Name,%C3%9C');
    await client.getSubItems('7', { fields: ['Id', 'Name'], depth: 3, includeDeleted: false });
    assert.equal(server.received.at(-1)!.url, '/site/api/workitem/workItems/7/subItems?fields=Id,Name&depth=3&includeDeleted=false');
  });

  it('readWorkItems keeps only the records a batch asked for, in any order the server answers; the others are missing', async () => {
    const rec = (id: string) => ({ fields: { Id: id, Name: `n${id}` } });
    // In the order asked, one left out at the end.
    answer = () => ({ status: 200, body: [rec('1'), rec('2')] });
    let r = await readWorkItems(client, ['1', '2', '3'], { clock: new FakeClock() });
    assert.deepEqual([...r.items.keys()], ['1', '2']);
    assert.deepEqual(r.missing, ['3']);
    // Out of order, with a record not asked for, one asked for missing, an ID answered twice.
    answer = () => ({ status: 200, body: [rec('3'), rec('99'), rec('1'), rec('3')] });
    r = await readWorkItems(client, ['1', '2', '3', '1'], { clock: new FakeClock() });
    assert.deepEqual([...r.items.keys()].sort(), ['1', '3']);
    assert.ok(!r.items.has('99'), 'a record not asked for is left out');
    assert.deepEqual(r.missing, ['2']);
    // Numeric IDs in the answer match the IDs asked as strings.
    answer = () => ({ status: 200, body: [{ fields: { Id: 1 } }, { fields: { Id: 2 } }] });
    r = await readWorkItems(client, ['1', '2'], { clock: new FakeClock() });
    assert.deepEqual([...r.items.keys()], ['1', '2']);
    assert.deepEqual(r.missing, []);
  });

  it('getCurrentUser answers undefined when the server answers 404 (servers before version 6)', async () => {
    answer = () => ({ status: 404, body: [{ message: 'no such route' }] });
    assert.equal(await client.getCurrentUser(), undefined);
    answer = () => ({ status: 500, body: [{ message: 'boom' }] });
    assert.equal(asServiceError(await rejection(() => client.getCurrentUser())).status, 500);
  });

  it('unknown members are kept: projects, work item records, sub-item nodes, the user', async () => {
    answer = (p) => {
      if (p.includes('/users/me')) return { status: 200, body: { id: 5, name: 'A', theme: 'dark' } };
      if (p.includes('/subItems')) return { status: 200, body: [{ fields: { Id: 1, Extra: { a: 1 }, SubItems: [{ fields: { Id: '2', Novel: true }, rank: 3 }] }, meta: 'x' }] };
      if (p.includes('/project/projects?') || p.endsWith('/project/projects')) return { status: 200, body: { totalCount: 1, data: [{ id: 'p', name: 'P', futureFlag: 1 }], next: null } };
      if (p.includes('/project/projects/')) return { status: 200, body: [{ id: 'p', name: 'P', futureFlag: 1 }] };
      return { status: 200, body: [{ fields: { Id: '1', NewField: [1, 2] }, isWarning: false, newTopLevel: 'kept' }] };
    };
    const me = await client.getCurrentUser();
    assert.equal((me as Record<string, unknown>)['theme'], 'dark');
    assert.equal(me?.id, '5', 'a numeric ID is turned into a string');
    const node = await client.getSubItems('1');
    assert.deepEqual(node.fields['Extra'], { a: 1 });
    assert.equal(node['meta'], 'x');
    assert.equal(node.fields.SubItems![0]!['rank'], 3);
    assert.equal(node.fields.SubItems![0]!.fields['Novel'], true);
    assert.equal(workItemIdOf(node), '1');
    const list = await client.listProjects();
    assert.equal((list.data[0] as Record<string, unknown>)['futureFlag'], 1);
    assert.equal((list as Record<string, unknown>)['next'], null);
    assert.equal(((await client.getProjects(['p']))[0] as Record<string, unknown>)['futureFlag'], 1);
    const [rec] = await client.getWorkItems(['1']);
    assert.deepEqual(rec!.fields['NewField'], [1, 2]);
    assert.equal(rec!['newTopLevel'], 'kept');
  });

  it('wrong shapes of known members are rejected with a clear error naming the path', async () => {
    const cases: [string, () => Promise<unknown>, unknown, RegExp][] = [
      ['subItems fields not an object', () => client.getSubItems('1'), [{ fields: { Id: '1', SubItems: [{ fields: { Id: '2' } }, { fields: [] }] } }], /response\[0\]\.fields\.SubItems\[1\]\.fields: expected an object, got an array/],
      ['subItems SubItems not an array', () => client.getSubItems('1'), [{ fields: { SubItems: { a: 1 } } }], /response\[0\]\.fields\.SubItems: expected an array, got an object/],
      ['subItems Id of a wrong type', () => client.getSubItems('1'), [{ fields: { Id: true } }], /response\[0\]\.fields\.Id: expected a string, got boolean true/],
      ['subItems not one element', () => client.getSubItems('1'), [{ fields: {} }, { fields: {} }], /exactly one element.*got 2/],
      ['subItems not an array', () => client.getSubItems('1'), { fields: {} }, /response: expected an array, got an object/],
      ['work item record without fields', () => client.getWorkItems(['1']), [{ isWarning: false }], /response\[0\]\.fields/],
      ['work item fields an array', () => client.getWorkItems(['1']), [{ fields: [] }], /response\[0\]\.fields/],
      ['project without a name', () => client.getProjects(['p']), [{ id: 'p' }], /response\[0\]\.name/],
      ['project list without totalCount', () => client.listProjects(), { data: [] }, /response\.totalCount/],
      ['user with a wrong name', () => client.getCurrentUser(), { id: '1', name: 7 }, /response\.name/],
    ];
    for (const [what, run, body, message] of cases) {
      answer = () => ({ status: 200, body });
      const e = asServiceError(await rejection(run));
      assert.equal(e.kind, 'invalid-response', what);
      assert.match(e.messages.join('\n'), message, what);
    }
  });

  it('a sub-item answer is checked without recursion limits (a chain 100,000 deep)', async () => {
    // A recursive checker would overflow the stack on this; the checker walks a stack of its own.
    let deep: unknown = { fields: { Id: 'last' } };
    for (let i = 0; i < 100_000; i++) deep = { fields: { Id: String(i), SubItems: [deep] } };
    const r = checkSubItemsResponse([deep]);
    assert.equal(r.ok, true);
    let bad: unknown = { fields: 'oops' };
    for (let i = 0; i < 3; i++) bad = { fields: { SubItems: [bad] } };
    const b = checkSubItemsResponse([bad]);
    assert.ok(!b.ok && b.problems[0] === 'response[0].fields.SubItems[0].fields.SubItems[0].fields.SubItems[0].fields: expected an object, got the string "oops"');
  });
});

describe('api reads: planWorkItemReads', () => {
  const base = 'http://127.0.0.1:1/TimeTrackerNX/api';
  const ids = Array.from({ length: 3000 }, (_, i) => String(100000 + i));

  it('batches 3,000 IDs so that every URL fits the budget, in order, each ID once', () => {
    const fields = [...TREE_FIELDS];
    const batches = planWorkItemReads(base, [...ids, ...ids.slice(0, 10)], fields, 2000);
    assert.ok(batches.length > 1);
    assert.deepEqual(batches.flat(), ids);
    const query = `?fields=${fields.join(',')}`;
    for (const b of batches) {
      const url = `${base}/workitem/workItems/${b.join(',')}${query}`;
      assert.ok(url.length <= 2000, `URL of ${url.length} characters`);
      assert.doesNotThrow(() => new URL(url));
    }
    // Full: adding the next ID to a batch would have broken the budget.
    for (let i = 0; i < batches.length - 1; i++) {
      const next = batches[i + 1]![0]!;
      assert.ok(`${base}/workitem/workItems/${[...batches[i]!, next].join(',')}${query}`.length > 2000);
    }
  });

  it('the default budget is the bulk default (8000 characters) and the count cap is 1000 IDs', () => {
    const batches = planWorkItemReads(base, ids, undefined);
    for (const b of batches) assert.ok(`${base}/workitem/workItems/${b.join(',')}`.length <= 8000);
    assert.ok(planWorkItemReads(base, ids, undefined, 1_000_000).every((b) => b.length <= 1000));
    assert.deepEqual(planWorkItemReads(base, ids.slice(0, 5), undefined, 8000, 2).map((b) => b.length), [2, 2, 1]);
  });

  it('a planned batch is frozen and its path is the one a full check of every ID makes (IDs needing encoding too)', () => {
    const mixed = ['120', '日本語', 'a.b', '~x', 'user@example', '121'];
    const batches = planWorkItemReads(base, mixed, undefined, 8000, 4);
    for (const b of batches) {
      assert.ok(Object.isFrozen(b), 'frozen: what was checked is what is sent');
      assert.throws(() => (b as string[]).push('../x'));
      assert.equal(workItemsPath(b), workItemsPath([...b]), 'the same path as a copy checked ID by ID');
    }
    assert.equal(workItemsPath(batches[0]!), `/workitem/workItems/120,${encodeURIComponent('日本語')},a.b,~x`);
    // A list that was not planned is still checked ID by ID.
    assert.throws(() => workItemsPath(['1', '../x']), /work item ID #2/);
  });

  it('fields make the URLs longer, so more batches', () => {
    assert.ok(planWorkItemReads(base, ids, [...TREE_FIELDS], 1000).length > planWorkItemReads(base, ids, undefined, 1000).length);
  });

  it('rejects invalid IDs, an ID too long for any URL, bad fields and limits, naming each', () => {
    assert.throws(() => planWorkItemReads(base, ['1', 'a/b', ''], undefined, 8000), (e: unknown) => e instanceof ReadPlanError && e.problems.length === 2 && /#2/.test(e.problems[0]!));
    assert.throws(() => planWorkItemReads(base, ['x'.repeat(150)], undefined, 100), (e: unknown) => e instanceof ReadPlanError && /does not fit/.test(e.message));
    assert.throws(() => planWorkItemReads(base, ['1'], ['a b'], 8000), (e: unknown) => e instanceof ReadPlanError && /fields\[0\]/.test(e.message));
    assert.throws(() => planWorkItemReads(base, ['1'], undefined, 0), /maxUrlLength/);
    assert.throws(() => planWorkItemReads('ftp://x', ['1'], undefined, 8000), /http/);
    assert.deepEqual(planWorkItemReads(base, [], undefined), []);
  });
});

describe('api reads: readWorkItems against the sandbox', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let client: ServiceClient;
  let token = '';
  const ids = Array.from({ length: 3000 }, (_, i) => String(i + 3));

  before(async () => {
    sandbox = await createSandbox({ data: generateDataset({ users: 10, organizations: 2, workItems: 3200, processCategories: 0 }) });
    client = new ServiceClient({ baseUrl: sandbox.url, credentials: () => ({ kind: 'bearer', token }) });
    token = await client.signIn('admin', DEMO_PASSWORD);
  });
  after(async () => {
    await client.close();
    await sandbox.close();
  });

  /** The client with each getWorkItems recorded (IDs and the pacing clock's time at the start). */
  function recording(clock?: FakeClock) {
    const calls: { ids: readonly string[]; at: number }[] = [];
    const original = client.getWorkItems.bind(client);
    const wrapped = Object.create(client) as ServiceClient;
    wrapped.getWorkItems = (list, fields, o) => {
      calls.push({ ids: list, at: clock?.now() ?? 0 });
      return original(list, fields, o);
    };
    return { client: wrapped, calls };
  }

  it('reads 3,000 IDs in batches within the URL budget, reporting missing and deleted-or-unknown IDs', async () => {
    const clock = new FakeClock();
    const r = recording(clock);
    const asked = [...ids, 'no-such-1', 'no-such-2'];
    const progress: [number, number][] = [];
    const result = await readWorkItems(r.client, asked, { fields: ['Name', 'ParentName'], maxUrlLength: 4000, clock, onProgress: (d, t) => progress.push([d, t]) });
    assert.equal(result.items.size, 3000);
    assert.deepEqual(result.missing, ['no-such-1', 'no-such-2']);
    assert.equal(result.requests, r.calls.length);
    assert.ok(r.calls.length > 3);
    for (const c of r.calls) assert.ok(`${sandbox.url}/workitem/workItems/${c.ids.join(',')}?fields=Name,ParentName`.length <= 4000);
    assert.deepEqual(progress.at(-1), [3002, 3002]);
    assert.ok(progress.every(([d], i) => i === 0 || d > progress[i - 1]![0]));
    const one = result.items.get('500')!;
    assert.deepEqual(Object.keys(one.fields).sort(), ['Id', 'IsAclInherited', 'Name', 'ParentName']);
  });

  it('a batch answering 404 means none of its IDs exists: all reported missing, the rest still read', async () => {
    const clock = new FakeClock();
    const r = recording(clock);
    const result = await readWorkItems(r.client, ['nope-1', 'nope-2', '3', '4'], { maxUrlLength: `${sandbox.url}/workitem/workItems/nope-1,nope-2`.length, clock });
    assert.deepEqual(r.calls.map((c) => c.ids), [['nope-1', 'nope-2'], ['3', '4']]);
    assert.deepEqual(result.missing, ['nope-1', 'nope-2']);
    assert.deepEqual([...result.items.keys()], ['3', '4']);
  });

  it('paces request starts by 60000/requestsPerMinute, on the pacing clock', async () => {
    const small = `${sandbox.url}/workitem/workItems/`.length + 14; // a few IDs a request
    const clock = new FakeClock();
    const r = recording(clock);
    await readWorkItems(r.client, ids.slice(0, 50), { maxUrlLength: small, requestsPerMinute: 300, clock });
    const starts = r.calls.map((c) => c.at);
    assert.ok(starts.length >= 5);
    assert.deepEqual(starts.slice(1).map((t, i) => t - starts[i]!), Array(starts.length - 1).fill(200));
    const fast = new FakeClock();
    const f = recording(fast);
    await readWorkItems(f.client, ids.slice(0, 20), { maxUrlLength: small, requestsPerMinute: 1500, clock: fast });
    assert.ok(f.calls.length >= 3);
    const s2 = f.calls.map((c) => c.at);
    assert.ok(s2.slice(1).every((t, i) => t - s2[i]! === 40), 'the service limit of 1500 a minute: 40 ms');
    await assert.rejects(readWorkItems(client, ['3'], { requestsPerMinute: 5000 }), /requestsPerMinute/);
  });

  it('is cancelled by its signal while waiting for the pace: no more requests, a cancelled error', async () => {
    const r = recording();
    const ac = new AbortController();
    const run = readWorkItems(r.client, ids.slice(0, 50), {
      maxUrlLength: 120,
      requestsPerMinute: 6, // 10 s apart: the second request waits
      signal: ac.signal,
      onProgress: () => ac.abort(),
    });
    const e = asServiceError(await rejection(() => run));
    assert.equal(e.kind, 'cancelled');
    assert.equal(r.calls.length, 1);
  });

  it('waits and tries a batch again after 429 or 503 (Retry-After), as one job', async () => {
    await fetch(`${sandbox.origin}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ status: 429, retryAfterSeconds: 2 }) });
    const clock = new FakeClock();
    const r = recording(clock);
    const result = await readWorkItems(r.client, ['3', '4'], { clock });
    assert.equal(result.items.size, 2);
    assert.equal(result.requests, 2);
    assert.ok(r.calls[1]!.at - r.calls[0]!.at >= 2000, 'waited for Retry-After on the pacing clock');
  });
});
