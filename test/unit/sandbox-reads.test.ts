// The sandbox's read operations over real HTTP (undici): projects, work items by
// ID, sub-items with the absolute depth rule, the signed-in user, and the root
// folders that carry each project's hierarchy. One test per rule, named after it.
import * as assert from 'node:assert/strict';
import { createSandbox, DatasetError, DEMO_ROOT_FOLDERS, generateLargeProject, LARGE_PROJECT, parseDataset, type Sandbox } from '../../src/sandbox';
import { READ_FIELDS } from '../../src/sandbox/reads';
import { WorkItemField } from '../../src/schema/reads';
import { bearer, call, DatasetBuilder, signIn } from './sandbox-server-fixtures';

type Rec = { fields: Record<string, unknown>; isWarning?: unknown; warnings?: unknown; aclId?: unknown; permission?: unknown };
type Node = { fields: Record<string, unknown> & { SubItems?: Node[] } };
type Err = { message: string; code: string; params?: Record<string, unknown> };

/** Every node of a subItems answer with its level (the top node on `top`), found from the nesting (the help shows no Level field). */
function leveled(node: Node, top: number): { node: Node; level: number }[] {
  const out: { node: Node; level: number }[] = [];
  const stack = [{ node, level: top }];
  while (stack.length > 0) {
    const n = stack.pop()!;
    out.push(n);
    for (const c of n.node.fields.SubItems ?? []) stack.push({ node: c, level: n.level + 1 });
  }
  return out;
}

/** Every node of a subItems answer, depth first. */
function flatten(node: Node): Node[] {
  const out: Node[] = [];
  const stack = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    out.push(n);
    for (const c of n.fields.SubItems ?? []) stack.push(c);
  }
  return out;
}

describe('sandbox: read operations', () => {
  let sb: Sandbox;
  let auth: Record<string, string>;
  const get = async (path: string, headers = auth) => call(`${sb.url}${path}`, { headers });
  const records = async (path: string): Promise<Rec[]> => {
    const r = await get(path);
    assert.equal(r.status, 200, r.text);
    assert.ok(Array.isArray(r.json));
    return r.json as Rec[];
  };
  const ids = (list: Rec[] | Node[]) => list.map((r) => r.fields['Id']);
  /** An item's level, from its ParentId chain up to the root folder (ParentId "0"). */
  const levelOf = async (id: string): Promise<number> => {
    let level = 0;
    for (let cur = id; ; level++) {
      const [r] = await records(`/workitem/workItems/${cur}?fields=ParentId`);
      const parent = String(r!.fields['ParentId']);
      if (parent === '0') return level;
      cur = parent;
    }
  };

  before(async () => {
    sb = await createSandbox({});
    auth = bearer(await signIn(sb.url));
  });
  after(() => sb.close());
  beforeEach(async () => {
    await call(`${sb.origin}/_sandbox/reset`, { method: 'POST' });
  });

  describe('GET /project/projects', () => {
    it('lists every project with totalCount, each with the members the real service has and a root folder', async () => {
      const r = await get('/project/projects');
      assert.equal(r.status, 200);
      const body = r.json as { totalCount: number; data: Record<string, unknown>[] };
      assert.equal(body.totalCount, 3);
      assert.deepEqual(body.data.map((p) => p['id']), ['3001', '3002', '3003']);
      const web = body.data[0]!;
      assert.equal(web['code'], 'PRJ-WEB');
      assert.equal(web['managerId'], '2001');
      assert.equal(typeof web['managerName'], 'string');
      assert.equal(web['plannedStartDate'], '2026-01-05T00:00:00');
      assert.equal(web['plannedFinishDate'], '2026-06-30T00:00:00');
      assert.equal(web['isFinished'], false);
      assert.equal(web['workItemRootFolderId'], DEMO_ROOT_FOLDERS.web);
      assert.equal(web['organizationId'], '1011');
      assert.equal(web['organizationName'], 'Webチーム');
      assert.equal(web['canEdit'], true);
      assert.match(String(web['createdAt']), /Z$/);
      assert.equal(body.data[2]!['isFinished'], true);
    });

    it('filters: name, code and keyword match partially and case-insensitively', async () => {
      const names = async (q: string) => ((await get(`/project/projects?${q}`)).json as { data: { id: string }[] }).data.map((p) => p.id);
      assert.deepEqual(await names('name=アプリ'), ['3002']);
      assert.deepEqual(await names('code=prj-'), ['3001', '3002', '3003']);
      assert.deepEqual(await names('code=web'), ['3001']);
      assert.deepEqual(await names('keyword=old'), ['3003']);
      assert.deepEqual(await names(`keyword=${encodeURIComponent('保守')}`), ['3003']);
      assert.deepEqual(await names('name=nothing-like-this'), []);
    });

    it('filters: isFinished, isManager (projects the caller manages), organizationIds, managerIds', async () => {
      const names = async (q: string, h = auth) => ((await get(`/project/projects?${q}`, h)).json as { data: { id: string }[] }).data.map((p) => p.id);
      assert.deepEqual(await names('isFinished=false'), ['3001', '3002']);
      assert.deepEqual(await names('isFinished=true'), ['3003']);
      assert.deepEqual(await names('isManager=true'), ['3001', '3003']);
      assert.deepEqual(await names('isManager=false'), ['3002']);
      assert.deepEqual(await names('isManager=true', bearer(await signIn(sb.url, 'viewer'))), []);
      assert.deepEqual(await names('organizationIds=1012,1006'), ['3002', '3003']);
      assert.deepEqual(await names('managerIds=2105'), ['3002']);
      assert.deepEqual(await names('managerIds=2105&isFinished=true'), []);
    });

    it('pages with limit/offset; totalCount is counted before paging', async () => {
      const r = (await get('/project/projects?limit=1&offset=1')).json as { totalCount: number; data: { id: string }[] };
      assert.equal(r.totalCount, 3);
      assert.deepEqual(r.data.map((p) => p.id), ['3002']);
      const none = (await get('/project/projects?limit=0&isFinished=false')).json as { totalCount: number; data: unknown[] };
      assert.equal(none.totalCount, 2);
      assert.deepEqual(none.data, []);
    });

    it('answers a bad query parameter with 400 naming it', async () => {
      for (const q of ['isFinished=maybe', 'limit=-1', 'limit=1001', 'name=a&name=b', 'managerIds=u-1,,u-2']) {
        const r = await get(`/project/projects?${q}`);
        assert.equal(r.status, 400, q);
        const e = (r.json as Err[])[0]!;
        assert.equal(e.code, 'INVALID_QUERY_PARAMETER', q);
        assert.ok(q.toLowerCase().startsWith(String(e.params?.['parameter']).toLowerCase()), `${q}: ${e.message}`);
      }
    });

    it('needs sign-in', async () => {
      assert.equal((await get('/project/projects', {})).status, 401);
    });
  });

  describe('GET /project/projects/{ids}', () => {
    it('answers an array, even for one ID, in the order asked', async () => {
      const one = await get('/project/projects/3002');
      assert.equal(one.status, 200);
      assert.deepEqual((one.json as { id: string }[]).map((p) => p.id), ['3002']);
      const two = (await get('/project/projects/3003,3001')).json as { id: string }[];
      assert.deepEqual(two.map((p) => p.id), ['3003', '3001']);
    });

    it('404 only when none exists: unknown IDs among known ones are left out', async () => {
      assert.deepEqual(((await get('/project/projects/nope,3001')).json as { id: string }[]).map((p) => p.id), ['3001']);
      const none = await get('/project/projects/nope,neither');
      assert.equal(none.status, 404);
      assert.equal((none.json as Err[])[0]!.code, 'PROJECT_NOT_FOUND');
    });

    it('a project ID is not a work item ID: its work items hang below workItemRootFolderId, whose ParentId and FolderId are "0" (official "0" for none)', async () => {
      assert.equal((await get('/workitem/workItems/3001')).status, 404);
      const [root] = await records(`/workitem/workItems/${DEMO_ROOT_FOLDERS.web}`);
      assert.equal(root!.fields['ProjectId'], '3001');
      assert.equal(root!.fields['ParentId'], '0');
      assert.equal(root!.fields['FolderId'], '0');
      assert.equal(root!.fields['ParentName'], '');
      assert.equal(root!.fields['ItemTypeId'], '40', 'the WorkItemRoot item type of the profile');
    });
  });

  describe('GET /workitem/workItems/{ids}', () => {
    it('answers {fields, isWarning, warnings, aclId, permission} for each ID, in the order asked', async () => {
      const list = await records('/workitem/workItems/112,111');
      assert.deepEqual(ids(list), ['112', '111']);
      for (const r of list) {
        assert.equal(r.isWarning, false);
        assert.deepEqual(r.warnings, []);
        assert.equal(r.aclId, '0');
        assert.equal(r.permission, 3);
      }
      const viewer = bearer(await signIn(sb.url, 'viewer'));
      const v = (await get('/workitem/workItems/111', viewer)).json as Rec[];
      assert.equal(v[0]!.permission, 1);
    });

    it('without fields every field comes back (official G1): the system names of WorkItemField, then the custom fields; times in minutes as stored', async () => {
      const [r] = await records('/workitem/workItems/111');
      const f = r!.fields;
      for (const name of Object.keys(WorkItemField).filter((n) => n !== 'SubItems')) assert.ok(name in f, `missing ${name}`);
      assert.deepEqual(Object.keys(f), [...Object.keys(READ_FIELDS), 'CustomText1', 'CustomNumber1', 'CustomDate1', 'CustomList1']);
      const stored = (await call(`${sb.origin}/_sandbox/workitems/111`)).json as Record<string, unknown>;
      assert.equal(f['Name'], stored['name']);
      assert.equal(f['PlannedTime'], stored['plannedTime']);
      assert.equal(f['PlannedTime'], 4800);
      assert.equal(f['ActualTime'], 5100);
      assert.equal(f['PlannedStartDate'], '2026-01-05T00:00:00');
      assert.equal(f['ActualProgress'], 100);
      assert.equal(f['StatusTypeId'], '53');
      assert.equal(f['ItemTypeId'], '42');
      assert.equal(f['ParentId'], '110');
      assert.equal(f['LeaderId'], '2101');
      assert.deepEqual((f['Assignments'] as { partyId: string }[]).map((a) => a.partyId), ['2101', '2102']);
      assert.deepEqual(f['FieldCalcTypes'], { PlannedTime: 'Assignments' });
    });

    it('fields: Id (and IsAclInherited) besides the asked ones; unknown names ignored; names match case-insensitively', async () => {
      const [r] = await records('/workitem/workItems/111?fields=Name,plannedtime,NoSuchField');
      assert.deepEqual(Object.keys(r!.fields).sort(), ['Id', 'IsAclInherited', 'Name', 'PlannedTime']);
      assert.equal(r!.fields['PlannedTime'], 4800);
      const [onlyUnknown] = await records('/workitem/workItems/111?fields=Bogus');
      assert.deepEqual(Object.keys(onlyUnknown!.fields).sort(), ['Id', 'IsAclInherited']);
    });

    it('404 only when none exists: the IDs found come back, the others are left out', async () => {
      assert.deepEqual(ids(await records('/workitem/workItems/nope,111,also-nope')), ['111']);
      const none = await get('/workitem/workItems/nope,also-nope');
      assert.equal(none.status, 404);
      assert.equal((none.json as Err[])[0]!.code, 'WORK_ITEMS_NOT_FOUND');
    });

    it('deleted items are hidden unless includeDeleted=true (an item in a deleted folder too)', async () => {
      // 115 is deleted; 151 lies in the deleted folder 150.
      assert.deepEqual(ids(await records('/workitem/workItems/111,115,151')), ['111']);
      assert.equal((await get('/workitem/workItems/115')).status, 404);
      const all = await records('/workitem/workItems/111,115,151?includeDeleted=true');
      assert.deepEqual(ids(all), ['111', '115', '151']);
      assert.equal(all[1]!.fields['IsDeleted'], true);
      assert.equal((await get('/workitem/workItems/115?includeDeleted=yes')).status, 400);
    });

    it('cost fields are left out for a caller without cost permission', async () => {
      const nocost = bearer(await signIn(sb.url, 'nocost'));
      const [r] = (await get('/workitem/workItems/111', nocost)).json as Rec[];
      assert.ok(!('PlannedCost' in r!.fields) && !('ActualCost' in r!.fields));
      assert.equal(r!.fields['PlannedTime'], 4800);
      const [a] = await records('/workitem/workItems/111');
      assert.equal(a!.fields['PlannedCost'], 400000);
    });

    it('an empty ID in the list is 400 ID_EMPTY; path matching is case-insensitive', async () => {
      const r = await get('/workitem/workItems/111,,112');
      assert.equal(r.status, 400);
      assert.equal((r.json as Err[])[0]!.code, 'ID_EMPTY');
      assert.deepEqual(ids((await get('/WorkItem/WORKITEMS/111')).json as Rec[]), ['111']);
    });

    it('reads what an update changed (no stale index after PUT)', async () => {
      const put = await call(`${sb.url}/workitem/workItems/112`, { method: 'PUT', headers: auth, body: { fields: { Name: '基本設計（改）' }, moveParentTo: '120' } });
      assert.equal(put.status, 200, put.text);
      const [r] = await records('/workitem/workItems/112?fields=Name,ParentId,ParentName,FolderId');
      assert.equal(r!.fields['Name'], '基本設計（改）');
      assert.equal(r!.fields['ParentId'], '120');
      assert.equal(r!.fields['ParentName'], '実装');
      assert.equal(r!.fields['FolderId'], '120');
      const parent = (await get('/workitem/workItems/120/subItems?depth=3&fields=Name')).json as Node[];
      assert.ok(ids(parent[0]!.fields.SubItems!).includes('112'));
    });
  });

  describe('GET /workitem/workItems/{id}/subItems', () => {
    const sub = async (path: string): Promise<Node> => {
      const r = await get(path);
      assert.equal(r.status, 200, r.text);
      assert.ok(Array.isArray(r.json) && r.json.length === 1, 'a one-element array');
      return (r.json as Node[])[0]!;
    };

    it('answers a one-element array, the item itself, its children nested in fields.SubItems in position order', async () => {
      const n = await sub('/workitem/workItems/110/subItems?depth=3');
      assert.equal(n.fields['Id'], '110');
      assert.deepEqual(ids(n.fields.SubItems!), ['111', '112', '113']);
    });

    it('depth rule: depth counts from the project root folder (level 0), not from the item asked', async () => {
      // 110 is on level 2: its children (level 3) come with depth=3, not depth=1.
      const one = await sub('/workitem/workItems/110/subItems?depth=1');
      assert.equal(one.fields.SubItems, undefined, 'depth above the item: the item alone');
      const own = await sub('/workitem/workItems/110/subItems?depth=2');
      assert.equal(own.fields.SubItems, undefined, 'depth = the item level: no children');
      const children = await sub('/workitem/workItems/110/subItems?depth=3');
      assert.deepEqual(ids(children.fields.SubItems!), ['111', '112', '113']);
      for (const c of children.fields.SubItems!) assert.equal(c.fields.SubItems, undefined, `${String(c.fields['Id'])} has no SubItems at the depth limit`);
      // From the root folder: depth=1 is the top-level items only.
      const root = await sub(`/workitem/workItems/${DEMO_ROOT_FOLDERS.web}/subItems?depth=1`);
      assert.equal(root.fields['ParentId'], '0');
      assert.deepEqual(ids(root.fields.SubItems!), ['100', '200']);
      assert.ok(root.fields.SubItems!.every((c) => c.fields['ParentId'] === DEMO_ROOT_FOLDERS.web && c.fields.SubItems === undefined));
      // depth=2 from the root: levels 0 to 2, nothing deeper.
      const two = leveled(await sub(`/workitem/workItems/${DEMO_ROOT_FOLDERS.web}/subItems?depth=2&fields=Name`), 0);
      assert.deepEqual([...new Set(two.map((x) => x.level))].sort(), [0, 1, 2]);
    });

    it('without depth the whole subtree comes back, down to level 16', async () => {
      const all = leveled(await sub(`/workitem/workItems/${DEMO_ROOT_FOLDERS.web}/subItems?fields=Name`), 0);
      const dump = (await call(`${sb.origin}/_sandbox/dump`)).json as { workItems: { id: string; projectId: string; isDeleted: boolean; parentId: string | null }[] };
      const byId = new Map(dump.workItems.map((w) => [w.id, w]));
      const visible = dump.workItems.filter((w) => {
        if (w.projectId !== '3001') return false;
        for (let c: (typeof w) | undefined = w; c; c = c.parentId === null ? undefined : byId.get(c.parentId)) if (c.isDeleted) return false;
        return true;
      });
      assert.equal(all.length, visible.length);
      assert.equal(Math.max(...all.map((x) => x.level)), 16);
    });

    it('deleted items are hidden unless includeDeleted=true (with their subtrees)', async () => {
      const live = flatten(await sub('/workitem/workItems/100/subItems'));
      assert.ok(!ids(live).includes('150') && !ids(live).includes('151') && !ids(live).includes('115'));
      const all = flatten(await sub('/workitem/workItems/100/subItems?includeDeleted=true'));
      for (const id of ['115', '150', '151', '152']) assert.ok(ids(all).includes(id), id);
      assert.equal((await get('/workitem/workItems/150/subItems')).status, 404);
      assert.equal((await get('/workitem/workItems/150/subItems?includeDeleted=true')).status, 200);
    });

    it('fields selection applies to every node; SubItems is always there for nodes within depth', async () => {
      const n = await sub('/workitem/workItems/120/subItems?depth=4&fields=Name');
      for (const x of flatten(n)) {
        const keys = Object.keys(x.fields).filter((k) => k !== 'SubItems').sort();
        assert.deepEqual(keys, ['Id', 'IsAclInherited', 'Name']);
      }
      assert.deepEqual(ids(n.fields.SubItems!.find((c) => c.fields['Id'] === '121')!.fields.SubItems!), ['122', '123', '127']);
    });

    it('every field of a node is the same as GET by ID answers for the item', async () => {
      const nodes = flatten(await sub(`/workitem/workItems/${DEMO_ROOT_FOLDERS.web}/subItems?includeDeleted=true`));
      const byId = await records(`/workitem/workItems/${nodes.map((n) => n.fields['Id']).join(',')}?includeDeleted=true`);
      assert.equal(byId.length, nodes.length);
      for (const [i, n] of nodes.entries()) {
        const { SubItems: _, ...fields } = n.fields;
        assert.deepEqual(fields, byId[i]!.fields, String(n.fields['Id']));
      }
    });

    it('404 for an unknown item; 400 for a bad depth; path matching is case-insensitive', async () => {
      const none = await get('/workitem/workItems/nope/subItems');
      assert.equal(none.status, 404);
      assert.equal((none.json as Err[])[0]!.code, 'WORK_ITEM_NOT_FOUND');
      for (const d of ['-1', 'x', '1.5']) assert.equal((await get(`/workitem/workItems/110/subItems?depth=${d}`)).status, 400, d);
      assert.equal((await get('/WORKITEM/workitems/110/SUBITEMS?depth=3')).status, 200);
    });
  });

  describe('subItems of a large project (streamed in pieces)', function () {
    this.timeout(60_000);
    let big: Sandbox;
    let h: Record<string, string>;
    before(async () => {
      big = await createSandbox({ data: generateLargeProject({ items: 6000, levels: 5, topLevelItems: 3 }) });
      h = bearer(await signIn(big.url));
    });
    after(() => big.close());

    it('answers the whole tree of subtrees larger than one piece, each visible item once, valid JSON', async () => {
      const r = await call(`${big.url}/workitem/workItems/${LARGE_PROJECT.rootFolderId}/subItems?fields=ParentId,FolderId`, { headers: h });
      assert.equal(r.status, 200);
      assert.equal(r.headers['transfer-encoding'], 'chunked');
      const all = flatten((r.json as Node[])[0]!);
      const visible = big.data.workItems.filter((w) => w.projectId === LARGE_PROJECT.id && !w.isDeleted);
      assert.equal(all.length, visible.length);
      assert.equal(new Set(all.map((n) => n.fields['Id'])).size, all.length);
      // Every child sits under its parent; its FolderId is its parent when the parent is a folder, else the parent's FolderId.
      const folders = new Set(big.data.workItems.filter((w) => w.itemTypeId === '40' || w.itemTypeId === '41').map((w) => w.id));
      const check = (n: Node): void => {
        for (const c of n.fields.SubItems ?? []) {
          assert.equal(c.fields['ParentId'], n.fields['Id']);
          assert.equal(c.fields['FolderId'], folders.has(String(n.fields['Id'])) ? n.fields['Id'] : n.fields['FolderId']);
          check(c);
        }
      };
      check((r.json as Node[])[0]!);
    });

    it('depth rule on a large tree: depth=2 from the root folder stops at level 2', async () => {
      const r = await call(`${big.url}/workitem/workItems/${LARGE_PROJECT.rootFolderId}/subItems?fields=Name&depth=2`, { headers: h });
      const all = leveled((r.json as Node[])[0]!, 0);
      assert.deepEqual([...new Set(all.map((n) => n.level))].sort(), [0, 1, 2]);
      assert.ok(all.filter((n) => n.level === 2).every((n) => n.node.fields.SubItems === undefined));
    });
  });

  describe('GET /system/users/me', () => {
    it('answers the signed-in user without a password', async () => {
      const r = await get('/system/users/me');
      assert.equal(r.status, 200);
      const me = r.json as Record<string, unknown>;
      assert.equal(me['id'], '2001');
      assert.equal(me['loginName'], 'admin');
      assert.equal(me['language'], 'ja-JP');
      assert.equal(typeof me['organizationName'], 'string');
      assert.equal(me['allowLocalAuthentication'], true);
      assert.ok(!('password' in me));
      const viewer = (await get('/system/users/me', bearer(await signIn(sb.url, 'viewer')))).json as Record<string, unknown>;
      assert.equal(viewer['id'], '2002');
      assert.equal((await get('/system/users/me', {})).status, 401);
    });
  });

  describe('root folders', () => {
    it('a data set without root folders still loads: each project gets one on level 0 above its top-level items', () => {
      const old = new DatasetBuilder().item('A', null).item('A1', 'A', { itemTypeId: 'task' }).item('B', null).build();
      const d = parseDataset(old);
      const root = d.projects[0]!.workItemRootFolderId!;
      assert.equal(root, 'p1-root');
      assert.equal(d.workItems.find((w) => w.id === 'A')!.parentId, root);
      assert.equal(d.workItems.find((w) => w.id === root)!.parentId, null);
      assert.equal(d.workItems.filter((w) => w.parentId === null).length, 1, 'only the root folder has no parent');
      assert.equal(d.itemTypes.find((t) => t.id === d.workItems.find((w) => w.id === root)!.itemTypeId)?.isFolder, true);
    });

    it('a data set without root folders is read over HTTP with the old top-level items on level 1', async () => {
      const old = new DatasetBuilder().org('o', null).user('u1', 'o', { loginName: 'u1' }).item('A', null).item('A1', 'A', { itemTypeId: 'task' }).build();
      const local = await createSandbox({ data: old });
      try {
        const h = bearer(await signIn(local.url, 'u1'));
        const projects = (await call(`${local.url}/project/projects`, { headers: h })).json as { data: { workItemRootFolderId: string }[] };
        const rootId = projects.data[0]!.workItemRootFolderId;
        const tree = (await call(`${local.url}/workitem/workItems/${rootId}/subItems?fields=ParentId,Name`, { headers: h })).json as Node[];
        assert.equal(tree[0]!.fields['ParentId'], '0');
        assert.equal(tree[0]!.fields['Name'], 'Project');
        assert.deepEqual(ids(tree[0]!.fields.SubItems!), ['A']);
        assert.equal(tree[0]!.fields.SubItems![0]!.fields['ParentId'], rootId);
        assert.deepEqual(ids(tree[0]!.fields.SubItems![0]!.fields.SubItems!), ['A1']);
      } finally {
        await local.close();
      }
    });

    it('a data set naming a root folder that is missing, not a folder or has a parent is rejected, naming the path', () => {
      const base = () => new DatasetBuilder().item('R', null).item('A', 'R').item('T', 'R', { itemTypeId: 'task' });
      const withRoot = (root: string, edit: (d: ReturnType<DatasetBuilder['build']>) => void = () => undefined) => {
        const d = base().build();
        d.projects![0]!.workItemRootFolderId = root;
        edit(d);
        return d;
      };
      assert.doesNotThrow(() => parseDataset(withRoot('R')));
      assert.throws(() => parseDataset(withRoot('nope')), (e: unknown) => e instanceof DatasetError && /projects\[0\]\.workItemRootFolderId: no work item with ID "nope"/.test(e.message));
      assert.throws(() => parseDataset(withRoot('T')), (e: unknown) => e instanceof DatasetError && /must have no parent/.test(e.message) && /folder item type/.test(e.message));
      assert.throws(
        () => parseDataset(withRoot('R', (d) => d.workItems!.push({ id: 'X', projectId: 'p1', parentId: null, order: 9, itemTypeId: 'folder', name: 'X' }))),
        (e: unknown) => e instanceof DatasetError && /workItems\[3\]\.parentId: only a project's root folder has no parent/.test(e.message),
      );
    });

    it('16-level rule: levels 1 to 16 lie below the root folder (level 0); an item on level 16 takes no children', async () => {
      assert.equal(await levelOf('215'), 16);
      const r = await call(`${sb.url}/workitem/workItems/133`, { method: 'PUT', headers: auth, body: { moveParentTo: '215' } });
      assert.equal(r.status, 400);
      assert.equal((r.json as Err[])[0]!.code, 'PARENT_AT_MAX_DEPTH');
      // Level 15 still takes a child, which lands on level 16.
      const ok = await call(`${sb.url}/workitem/workItems/133`, { method: 'PUT', headers: auth, body: { moveParentTo: '214' } });
      assert.equal(ok.status, 200, ok.text);
      assert.equal(await levelOf('133'), 16);
    });

    it('an item moves to the top level by moving it to the root folder', async () => {
      const r = await call(`${sb.url}/workitem/workItems/133`, { method: 'PUT', headers: auth, body: { moveParentTo: DEMO_ROOT_FOLDERS.web } });
      assert.equal(r.status, 200, r.text);
      const [x] = await records('/workitem/workItems/133?fields=ParentId');
      assert.equal(x!.fields['ParentId'], DEMO_ROOT_FOLDERS.web);
      assert.equal(await levelOf('133'), 1);
    });

    it('a root folder cannot be moved or change its item type (ROOT_FOLDER_FIXED); its name can change', async () => {
      for (const body of [{ moveParentTo: '110' }, { changeItemTypeTo: '42' }]) {
        const r = await call(`${sb.url}/workitem/workItems/${DEMO_ROOT_FOLDERS.web}`, { method: 'PUT', headers: auth, body });
        assert.equal(r.status, 400, JSON.stringify(body));
        assert.equal((r.json as Err[])[0]!.code, 'ROOT_FOLDER_FIXED');
      }
      const ok = await call(`${sb.url}/workitem/workItems/${DEMO_ROOT_FOLDERS.web}`, { method: 'PUT', headers: auth, body: { fields: { Name: '新しい名前' } } });
      assert.equal(ok.status, 200, ok.text);
    });

    it('the demo has several projects (one finished) with folders, leaves, completed and deleted items', () => {
      const d = sb.data;
      assert.ok(d.projects.length >= 3);
      assert.ok(d.projects.some((p) => p.isFinished));
      for (const p of d.projects) assert.ok(d.workItems.some((w) => w.id === p.workItemRootFolderId && w.parentId === null));
      assert.ok(d.workItems.some((w) => w.actualProgress === 100));
      assert.ok(d.workItems.some((w) => w.isDeleted));
    });
  });
});
