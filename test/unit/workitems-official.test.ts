// The Work Items view speaks the official help's names only, against the real
// sandbox over HTTP: the fields it asks for, folders from the project's profile (or
// from FolderId and the answers' shape), names of item types and statuses from the
// profile, "0" as no value, periods from PlannedStartDate/PlannedFinishDate, and a
// tree that still loads when a service ignores or refuses a name it does not know.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ServiceClient } from '../../src/api/client';
import { isFieldRefusal, planWorkItemReads } from '../../src/api/reads';
import { ServiceError } from '../../src/api/errors';
import { fieldsToRead, itemEffect, neededFields } from '../../src/bulk/effects';
import { readValues, type WorkItemReader } from '../../src/bulk/readValues';
import { readWorkItems } from '../../src/api/reads';
import { createSandbox, type Sandbox } from '../../src/sandbox';
import { CORE_TREE_FIELDS, TREE_FIELDS, WorkItemField } from '../../src/schema/reads';
import { TreeFieldPolicy } from '../../src/workItems/model/fieldPolicy';
import { Hierarchy, loadLevel } from '../../src/workItems/model/hierarchy';
import { reorderedLevels } from '../../src/workItems/model/orderCheck';
import { PROFILE_INCLUDES, ProjectTypesCache } from '../../src/workItems/model/profiles';
import { idText, itemKind, period } from '../../src/workItems/model/rows';
import { loadTreeLevel, type TreeLevelDeps } from '../../src/workItems/model/treeLevel';

/** Names the official help never shows, which the tree once asked for. */
const NOT_IN_THE_HELP = ['IsFolder', 'HasChildren', 'Level', 'DisplayOrder', 'ItemTypeName', 'StatusTypeName', 'LeaderName'];

describe('work items: the official help\'s names against the sandbox', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let client: ServiceClient;
  let token: string;

  before(async () => {
    sandbox = await createSandbox({ port: 0 });
    const bare = new ServiceClient({ baseUrl: sandbox.url });
    token = await bare.signIn('admin', 'password');
    await bare.close();
    client = new ServiceClient({ baseUrl: sandbox.url, credentials: () => ({ kind: 'bearer', token }) });
  });
  after(async () => {
    await client?.close();
    await sandbox?.close();
  });
  beforeEach(async () => {
    await fetch(`${sandbox.origin}/_sandbox/faults`, { method: 'DELETE' });
  });

  async function fault(spec: Record<string, unknown>): Promise<void> {
    const r = await fetch(`${sandbox.origin}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(spec) });
    assert.ok(r.ok, `fault not queued: ${r.status}`);
  }

  /** The view's dependencies, with the log lines they say. */
  function treeDeps(c: ServiceClient = client): TreeLevelDeps & { said: string[] } {
    const said: string[] = [];
    const types = new ProjectTypesCache((projectId, signal) => c.getProjectProfile(projectId, PROFILE_INCLUDES, { signal }), (m) => said.push(m));
    return { types, fields: new TreeFieldPolicy((m) => said.push(m)), said };
  }

  /** Loads the path of levels down to `ids` (each the parent of the next), as the view does on expansion. */
  async function expand(deps: TreeLevelDeps, c: ServiceClient, ids: string[], projectId = '3001'): Promise<Hierarchy> {
    const h = new Hierarchy();
    for (let level = 0; level < ids.length; level++) {
      const { rows } = await loadTreeLevel(c, deps, { id: ids[level]!, level }, projectId);
      h.setLevel(ids[level]!, rows);
    }
    return h;
  }

  it('the tree asks only names of the official help or of the service\'s catalogue (official help F1, G1, P2)', async () => {
    const official = new Set<string>(Object.values(WorkItemField));
    for (const f of TREE_FIELDS) assert.ok(official.has(f), `${f} is not a name of the help or of service-api.md`);
    for (const f of NOT_IN_THE_HELP) assert.ok(!TREE_FIELDS.includes(f as never) && !official.has(f), `${f} is not asked for`);
    assert.deepEqual([...CORE_TREE_FIELDS], ['Id', 'Name', 'Code', 'ParentId', 'ItemTypeId']);
    // Every name the tree asks is one the sandbox's catalogue names for the project.
    const profile = await client.getProjectProfile('3001');
    const catalogue = new Set<string>((profile.fieldTypes ?? []).map((f) => f.systemName));
    for (const f of TREE_FIELDS) assert.ok(catalogue.has(f), `${f} is in the sandbox's catalogue`);
    const deps = treeDeps();
    await loadTreeLevel(client, deps, { id: '10', level: 0 }, '3001');
    assert.deepEqual([...deps.fields.fieldsFor(deps.types.known('3001'))], [...TREE_FIELDS]);
  });

  it('the tree decides folders from the profile\'s item types (official help P2)', async () => {
    const deps = treeDeps();
    const h = await expand(deps, client, ['10', '100', '110']);
    const types = deps.types.known('3001');
    assert.equal(types.fromProfile, true);
    const row = (id: string) => h.row(id)!;
    assert.equal(types.isFolder(row('100')), true, '100 is of the folder type 41');
    assert.equal(types.isFolder(row('110')), true);
    assert.equal(itemKind(row('111'), types), 'task');
    assert.equal(itemKind(row('113'), types), 'milestone', 'the milestone type by its systemName or name');
    assert.equal(types.itemTypeName(row('111').fields['ItemTypeId']), '作業');
    assert.equal(deps.said.length, 0, 'nothing to say');
    // A task with sub-items is not a folder (service-api.md error 13 allows it; demo item 127).
    const deeper = await loadTreeLevel(client, deps, { id: '121', level: 3 }, '3001');
    const t127 = deeper.rows.find((r) => r.id === '127')!;
    await loadTreeLevel(client, deps, { id: '127', level: 4 }, '3001');
    assert.equal(types.isFolder(t127), false);
  });

  it('without a profile, the tree decides folders from FolderId and the answers\' shape (official help F1), saying so once', async () => {
    await fault({ status: 404, times: 10, pathContains: '/profile' });
    const deps = treeDeps();
    const h = await expand(deps, client, ['10', '100', '120', '121']);
    const types = deps.types.known('3001');
    assert.equal(types.fromProfile, false);
    assert.equal(deps.said.length, 1, deps.said.join('\n'));
    assert.match(deps.said[0]!, /profile of project 3001 could not be read.*shape/);
    assert.equal(types.isFolder(h.row('100')!), true, 'its children name it as their folder');
    assert.equal(types.isFolder(h.row('120')!), true);
    assert.equal(types.isFolder(h.row('130')!), true, 'unexpanded, of a type seen as a folder type');
    assert.equal(types.isFolder(h.row('122')!), false);
    // 127 is a task holding tasks: its children name 120 as their folder, not 127.
    const kids = await loadTreeLevel(client, deps, { id: '127', level: 4 }, '3001');
    assert.ok(kids.rows.length > 0);
    assert.equal(types.isFolder(h.row('127')!), false);
    // Another project's profile fails too: nothing more is said.
    await loadTreeLevel(client, deps, { id: '30', level: 0 }, '3002');
    assert.equal(deps.said.length, 1);
  });

  it('item type and status names come from the profile; "0" is no status, leader or parent (official help P1, T1, F1)', async () => {
    const deps = treeDeps();
    const root = await client.getSubItems('10', { fields: [...TREE_FIELDS], depth: 1 });
    assert.equal(root.fields['ParentId'], '0', 'the root folder\'s parent is "0"');
    assert.equal(idText(root.fields['ParentId']), undefined);
    const h = await expand(deps, client, ['10']);
    const types = deps.types.known('3001');
    const web = h.row('100')!;
    assert.equal(web.parentId, '10');
    assert.equal(idText(web.fields['LeaderId']), '2001');
    assert.equal(types.statusName(web.fields['StatusTypeId']), (await client.getProjectProfile('3001')).statusTypes!.find((s) => (s.statusTypeId ?? s.id) === '52')!.name);
    const deep = h.row('200')!;
    assert.equal(deep.fields['LeaderId'], '0');
    assert.equal(idText(deep.fields['LeaderId']), undefined, 'no leader');
    assert.equal(types.statusName(deep.fields['StatusTypeId']), undefined, 'no status');
  });

  it('periods come from PlannedStartDate/PlannedFinishDate (official help U2)', async () => {
    const deps = treeDeps();
    const h = await expand(deps, client, ['10', '100', '120', '121']);
    const header = h.row('122')!;
    assert.equal(header.fields['PlannedStartDate'], '2026-03-02T00:00:00');
    assert.equal(period(header.fields['PlannedStartDate'], header.fields['PlannedFinishDate']), '2026-03-02 – 2026-03-13');
    // Written as the help writes it ("2022-10-10"), read back in the tree's fields.
    await client.updateWorkItems(['123'], { fields: { PlannedStartDate: '2026-03-17', PlannedFinishDate: '2026-03-27' } });
    const fresh = await readWorkItems(client, ['123'], { fields: TREE_FIELDS });
    const f = fresh.items.get('123')!.fields;
    assert.equal(period(f['PlannedStartDate'], f['PlannedFinishDate']), '2026-03-17 – 2026-03-27');
    assert.equal(period('2022-10-10', '2022-10-17'), '2022-10-10 – 2022-10-17', 'date-only values are read too');
    assert.equal(period(null, '2022-10-17'), '… – 2022-10-17');
    assert.equal(period(null, undefined), undefined);
  });

  it('the tree loads when the service ignores an unknown field name: levels from the position, order from the answer', async () => {
    const rows = await loadLevel(client, { id: '100', level: 1 }, undefined, { fields: [...TREE_FIELDS, ...NOT_IN_THE_HELP] });
    assert.deepEqual(
      rows.map((r) => r.id).slice(0, 3),
      ['110', '120', '130'],
    );
    assert.ok(rows.every((r) => r.level === 2));
    for (const f of NOT_IN_THE_HELP) assert.ok(!(f in rows[0]!.fields), `the sandbox does not answer ${f}`);
  });

  describe('a service that refuses a name it does not know', () => {
    let proxy: http.Server;
    let strict: ServiceClient;
    const asked: string[][] = [];
    /** Names the strict service knows: the core names and a few more, not the ones only service-api.md shows. */
    const CORE_KNOWN = ['Id', 'Name', 'Code', 'ParentId', 'ItemTypeId', 'IsAclInherited'];
    let known = new Set(CORE_KNOWN);
    afterEach(() => {
      known = new Set(CORE_KNOWN);
    });

    before(async () => {
      // A strict front of the real sandbox: a `fields=` with a name it does not know is refused (400, no code).
      proxy = http.createServer((req, res) => {
        const url = new URL(req.url ?? '/', 'http://x');
        const fields = url.searchParams.get('fields');
        if (fields !== null) {
          const names = fields.split(',');
          asked.push(names);
          const unknown = names.filter((n) => !known.has(n));
          if (unknown.length > 0) {
            res.writeHead(400, { 'content-type': 'application/json' });
            res.end(JSON.stringify([{ message: `unknown field: ${unknown[0]}` }]));
            return;
          }
        }
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
          void fetch(`${sandbox.origin}${req.url}`, { method: req.method, headers, body: chunks.length > 0 ? Buffer.concat(chunks) : undefined }).then(async (r) => {
            res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
            res.end(Buffer.from(await r.arrayBuffer()));
          });
        });
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      const port = (proxy.address() as AddressInfo).port;
      strict = new ServiceClient({ baseUrl: `http://127.0.0.1:${port}${new URL(sandbox.url).pathname}`, credentials: () => ({ kind: 'bearer', token }) });
    });
    after(async () => {
      await strict?.close();
      await new Promise((resolve) => proxy?.close(resolve));
    });

    it('the tree loads when the service refuses an unknown field name: once more with the core names, said once', async () => {
      asked.length = 0;
      const deps = treeDeps(strict);
      const h = await expand(deps, strict, ['10', '100']);
      assert.ok(h.children('10')!.some((r) => r.id === '100' && r.name === 'Webサイト刷新'), 'level 1 loaded');
      assert.ok(h.children('100')!.some((r) => r.id === '120'), 'level 2 loaded');
      assert.equal(h.row('120')!.level, 2);
      assert.deepEqual(asked[0], [...TREE_FIELDS], 'first the tree\'s fields');
      assert.deepEqual(asked[1], [...CORE_TREE_FIELDS], 'then the core official names');
      assert.deepEqual(asked.slice(2), [[...CORE_TREE_FIELDS]], 'the next level asks the core names at once');
      const refusals = deps.said.filter((m) => /refused/.test(m));
      assert.equal(refusals.length, 1, deps.said.join('\n'));
      assert.match(refusals[0]!, /status 400.*Id,Name,Code,ParentId,ItemTypeId/);
      // Folders still from the profile (the strict front passes it through).
      assert.equal(deps.types.known('3001').isFolder(h.row('120')!), true);
    });

    it('a read refused for another reason (the core names refused too) fails as it is and switches nothing', async () => {
      const deps = treeDeps(strict);
      await fault({ status: 400, times: 2, pathContains: '/subItems' });
      await assert.rejects(loadTreeLevel(client, deps, { id: '10', level: 0 }, '3001'), (e: unknown) => e instanceof ServiceError && e.status === 400);
      assert.equal(deps.fields.fallenBack, false);
      assert.deepEqual(deps.said.filter((m) => /refused/.test(m)), []);
    });

    /** readValues through the strict front, with the `fields=` of each read it asks. */
    function strictReader(maxUrlLength?: number): { asked: string[][]; read: WorkItemReader } {
      const seen: string[][] = [];
      return {
        asked: seen,
        read: (ids, fields, o) => {
          seen.push([...fields]);
          return readWorkItems(strict, ids, { fields, signal: o.signal, onBatch: o.onBatch, ...(maxUrlLength ? { maxUrlLength } : {}) });
        },
      };
    }
    const COMPLETE_AND_SHIFT = { setCompleted: true, moveScheduleDays: 2 };
    const PREVIEW_NAMES = ['ActualProgress', 'PlannedStartDate', 'PlannedFinishDate', 'ProjectId'];

    it('a preview\'s read refused for a name the help does not show (TracksProgress) is read again with the names it needs (official help C3: no error code is promised)', async () => {
      known = new Set([...CORE_KNOWN, ...PREVIEW_NAMES]);
      const { asked, read } = strictReader();
      const r = await readValues(read, ['122', '123'], COMPLETE_AND_SHIFT);
      assert.deepEqual(asked, [fieldsToRead(COMPLETE_AND_SHIFT), neededFields(COMPLETE_AND_SHIFT)]);
      assert.ok(asked[0]!.includes('TracksProgress'), 'first the full list');
      assert.deepEqual(r.refused, { asked: asked[0], left: ['TracksProgress'], status: 400 });
      assert.deepEqual(r.fields, neededFields(COMPLETE_AND_SHIFT));
      assert.equal(r.requests, 2, 'the refused read counts as a call');
      const v = r.items.get('122')!;
      assert.equal(typeof v.PlannedStartDate, 'string');
      assert.ok('ActualProgress' in v && !('TracksProgress' in v));
      // Without TracksProgress the item is predicted as tracking its progress (what the service does for most items).
      const e = itemEffect('122', COMPLETE_AND_SHIFT, v);
      assert.deepEqual(e.problems, []);
      assert.deepEqual(e.fields.find((f) => f.field === 'ActualProgress')?.expected, { kind: 'value', value: 100 });
    });

    it('a caller that knows the service refused them asks the needed names at once (no refused call)', async () => {
      known = new Set([...CORE_KNOWN, ...PREVIEW_NAMES]);
      const { asked, read } = strictReader();
      const r = await readValues(read, ['122'], COMPLETE_AND_SHIFT, { neededOnly: true });
      assert.deepEqual(asked, [neededFields(COMPLETE_AND_SHIFT)]);
      assert.equal(r.refused, undefined);
      assert.equal(r.requests, 1);
    });

    it('a read whose needed names are refused too fails with the service\'s answer (nothing is guessed)', async () => {
      const { asked, read } = strictReader();
      await assert.rejects(readValues(read, ['122'], COMPLETE_AND_SHIFT), (e: unknown) => e instanceof ServiceError && e.status === 400);
      assert.deepEqual(asked, [fieldsToRead(COMPLETE_AND_SHIFT), neededFields(COMPLETE_AND_SHIFT)]);
    });

    it('a 4xx after a batch came back is not taken for a refused name: thrown as it is, read once', async () => {
      // One ID per request (a URL limit that fits one ID); the third request fails.
      const ids = ['122', '123', '127'];
      const fits = (limit: number): boolean => {
        try {
          return planWorkItemReads(client.baseUrl, ids, fieldsToRead(COMPLETE_AND_SHIFT), limit).length === ids.length;
        } catch {
          return false;
        }
      };
      let limit = 100;
      while (!fits(limit)) limit++;
      const asked: string[][] = [];
      const read: WorkItemReader = (ids, fields, o) => {
        asked.push([...fields]);
        return readWorkItems(client, ids, { fields, signal: o.signal, onBatch: o.onBatch, maxUrlLength: limit });
      };
      await fault({ status: 400, times: 1, pathContains: '/workItems/127' });
      await assert.rejects(readValues(read, ids, COMPLETE_AND_SHIFT), (e: unknown) => e instanceof ServiceError && e.status === 400);
      assert.equal(asked.length, 1, 'no second read with fewer names');
    });

    it('a refusal is a 4xx other than sign-in, permission, not found and rate limit', () => {
      const err = (status: number) => new ServiceError({ kind: 'http', method: 'GET', path: '/x', status });
      assert.equal(isFieldRefusal(err(400)), true);
      assert.equal(isFieldRefusal(err(422)), true);
      for (const s of [401, 403, 404, 429, 500]) assert.equal(isFieldRefusal(err(s)), false, String(s));
      assert.equal(isFieldRefusal(new Error('x')), false);
    });
  });

  it('after an update that reorders siblings, the level\'s answer shows it (the help shows no DisplayOrder)', async () => {
    const h = new Hierarchy();
    h.setLevel('121', await loadLevel(client, { id: '121', level: 3 }));
    assert.deepEqual(h.children('121')!.map((r) => r.id), ['122', '123', '127']);
    const levelOf = (id: string) => (id === '121' ? 3 : undefined);
    const fail = (_p: string, e: unknown) => assert.fail(String(e));
    const same = await reorderedLevels((read) => read(client), h, ['122'], new Set(), levelOf, fail);
    assert.deepEqual(same, { reordered: [], reads: 1 });
    await client.updateWorkItems(['127'], { moveParentTo: '121', orderFirst: true });
    const moved = await reorderedLevels((read) => read(client), h, ['127'], new Set(), levelOf, fail);
    assert.deepEqual(moved, { reordered: ['121'], reads: 1 });
    assert.deepEqual(await reorderedLevels((read) => read(client), h, ['127'], new Set(['121']), levelOf, fail), { reordered: [], reads: 0 }, 'a level reloaded anyway is not checked');
  });

  it('a move\'s preview reads the siblings in the answer\'s order, the parent\'s level from ParentId (official help G2: depth from the root)', async () => {
    const subCalls: { id: string; depth?: number; fields?: readonly string[] }[] = [];
    const fieldsAsked: string[][] = [];
    const r = await readValues(
      (ids, fields, o) => {
        fieldsAsked.push([...fields]);
        return readWorkItems(client, ids, { fields, signal: o.signal });
      },
      ['128'],
      { moveParentTo: '121' },
      {
        subItems: (id, q, o) => {
          subCalls.push({ id, ...q });
          return client.getSubItems(id, q, o);
        },
      },
    );
    for (const asked of fieldsAsked) for (const f of NOT_IN_THE_HELP) assert.ok(!asked.includes(f), `${f} is not read`);
    // 128's parent is 127 on level 4 (10 → 100 → 120 → 121 → 127): its children need depth 5.
    assert.deepEqual(subCalls, [{ id: '127', fields: ['Id'], depth: 5 }]);
    assert.deepEqual(r.siblings!.get('127'), ['128', '129'], 'the answer\'s order');
  });
});
