// The sandbox's read side as the official Web API help describes it
// (../shared/spec/official-reference.md sections 4, 5, 8, 9, 11), over real HTTP
// (undici): /system/fieldTypes, the project profile, subOrganizations, the
// read-only system fields and custom fields of work item reads, assignedUsers on
// subItems, and what public clients send. Each test is named after the fact it checks.
import * as assert from 'node:assert/strict';
import { createSandbox, DEMO_ROOT_FOLDERS, type Sandbox } from '../../src/sandbox';
import { FieldTypeListResponse, OrganizationNode, ProjectProfileResponse, type FieldType, type ProjectProfile } from '../../src/schema/catalogue';
import { bearer, call, signIn } from './sandbox-server-fixtures';

type Node = { fields: Record<string, unknown> & { SubItems?: Node[] } };
type Rec = { fields: Record<string, unknown> };
type Err = { message: string; code: string };
type Org = { id: string; name: string; parentId: string; isDeleted: boolean; subOrganizations?: Org[] };

function flatten(node: Node): Node[] {
  const out: Node[] = [node];
  for (const c of node.fields.SubItems ?? []) out.push(...flatten(c));
  return out;
}

function orgIds(node: Org): string[] {
  return [node.id, ...(node.subOrganizations ?? []).flatMap(orgIds)];
}

describe('sandbox: the official read side (official-reference.md 4, 5, 8, 9, 11)', () => {
  let sb: Sandbox;
  let auth: Record<string, string>;
  const get = async (path: string, headers = auth) => call(`${sb.url}${path}`, { headers });
  const ok = async (path: string): Promise<unknown> => {
    const r = await get(path);
    assert.equal(r.status, 200, `${path}: ${r.text}`);
    return r.json;
  };
  const fieldTypes = async (query = ''): Promise<FieldTypeListResponse> => FieldTypeListResponse.parse(await ok(`/system/fieldTypes${query}`));
  const profile = async (projectId: string, query = ''): Promise<ProjectProfile> => {
    const list = ProjectProfileResponse.parse(await ok(`/project/projects/${projectId}/profile${query}`));
    assert.equal(list.length, 1, 'exactly one element');
    return list[0]!;
  };
  const tree = async (orgId: string, query = ''): Promise<Org> => {
    const json = await ok(`/system/organizations/${orgId}/subOrganizations${query}`);
    OrganizationNode.parse(json);
    return json as Org;
  };
  const names = (list: FieldType[]) => list.map((f) => f.systemName);

  before(async () => {
    sb = await createSandbox({});
    auth = bearer(await signIn(sb.url));
  });
  after(() => sb.close());

  describe('GET /system/fieldTypes (L1, section 11)', () => {
    it('fieldTypes answers {totalCount, data} of FieldType, the system fields with official names and the custom fields (official help L1)', async () => {
      const all = await fieldTypes();
      assert.equal(all.totalCount, all.data.length);
      for (const n of ['Id', 'ProjectId', 'ProjectName', 'ProjectCode', 'ItemTypeId', 'StatusTypeId', 'FolderId', 'FolderName', 'ParentId', 'ParentName', 'ProcessCategoryId', 'TimeEntryCategoryId', 'Name', 'Code', 'PlannedStartDate', 'PlannedFinishDate']) {
        assert.ok(names(all.data).includes(n), n);
      }
      for (const old of ['StartDate', 'EndDate', 'WorkCategoryId', 'IsFolder', 'Level', 'HasChildren']) assert.ok(!names(all.data).includes(old), old);
      const byName = new Map(all.data.map((f) => [f.systemName, f]));
      assert.equal(byName.get('ProjectName')!.isReadOnly, true);
      assert.equal(byName.get('Name')!.isReadOnly, false);
      assert.equal(byName.get('PlannedStartDate')!.dataType, 'Date');
      assert.ok(all.data.every((f) => /^\d+$/.test(String(f.id))), 'IDs are decimal digits (section 3)');
    });

    it('custom fields carry their data type and value range: maxLength for text, minValue/maxValue for numbers, choices for List (L1, 4)', async () => {
      const custom = (await fieldTypes('?isSystemField=false')).data;
      assert.deepEqual(names(custom), ['CustomText1', 'CustomNumber1', 'CustomDate1', 'CustomList1']);
      const [text, num, date, list] = custom;
      assert.equal(text!.name, '顧客名');
      assert.equal(text!.dataType, 'String');
      assert.equal(text!.maxLength, 50);
      assert.deepEqual([num!.dataType, num!.minValue, num!.maxValue], ['Decimal', 0, 9999]);
      assert.equal(date!.dataType, 'Date');
      assert.deepEqual(list!.choices!.map((c) => c.name), ['高', '中', '低']);
      assert.ok(custom.every((f) => f.isSystemField === false));
    });

    it('fieldTypes filters by name, systemName, code and keyword (partial, case-insensitive) and isSystemField (L1 query)', async () => {
      assert.deepEqual(names((await fieldTypes(`?name=${encodeURIComponent('顧客')}`)).data), ['CustomText1']);
      assert.deepEqual(names((await fieldTypes('?systemName=plannedst')).data), ['PlannedStartDate']);
      assert.deepEqual(names((await fieldTypes('?code=priority')).data), ['CustomList1']);
      assert.deepEqual(names((await fieldTypes('?keyword=customnumber')).data), ['CustomNumber1']);
      const system = await fieldTypes('?isSystemField=true');
      assert.ok(system.totalCount > 20 && system.data.every((f) => f.isSystemField === true));
      assert.equal((await get('/system/fieldTypes?isSystemField=maybe')).status, 400);
    });

    it('fieldTypes leaves deleted fields out unless includeDeleted=true; isDeleted counts only with includeDeleted=true (section 11)', async () => {
      assert.ok(!names((await fieldTypes()).data).includes('CustomText2'));
      assert.ok(names((await fieldTypes('?includeDeleted=true')).data).includes('CustomText2'));
      assert.deepEqual(names((await fieldTypes('?includeDeleted=true&isDeleted=true')).data), ['CustomText2']);
      assert.ok(!names((await fieldTypes('?includeDeleted=true&isDeleted=false')).data).includes('CustomText2'));
      assert.ok(!names((await fieldTypes('?isDeleted=true')).data).includes('CustomText2'), 'isDeleted alone has no effect');
    });

    it('fieldTypes pages with limit and offset; totalCount counts the matches before paging (section 11)', async () => {
      const all = await fieldTypes();
      const page = await fieldTypes('?limit=3&offset=2');
      assert.equal(page.totalCount, all.totalCount);
      assert.deepEqual(names(page.data), names(all.data).slice(2, 5));
      assert.equal((await fieldTypes('?limit=0')).data.length, 0);
      assert.equal((await get('/system/fieldTypes?limit=-1')).status, 400);
    });

    it('fieldTypes orders by a field name, optionally asc or desc (section 11 orderby); an unknown field is a 400', async () => {
      const desc = await fieldTypes('?orderby=systemName%20desc');
      const sorted = [...names(desc.data)].sort().reverse();
      assert.deepEqual(names(desc.data), sorted);
      const byId = await fieldTypes('?orderby=id%20desc&limit=1');
      assert.equal(byId.data[0]!.id, '104', 'IDs ordered as numbers');
      const bad = await get('/system/fieldTypes?orderby=nope');
      assert.equal(bad.status, 400);
      assert.equal((bad.json as Err[])[0]!.code, 'INVALID_ORDERBY');
    });
  });

  describe('GET /project/projects/{projectId}/profile (P2, A2)', () => {
    it('profile answers an array with exactly one element, members only for what includes asks (P2)', async () => {
      const bare = await profile('3001');
      assert.equal(bare.itemTypes, undefined);
      assert.equal(bare.fieldTypes, undefined);
      assert.equal(bare.statusTypes, undefined);
      const onlyTypes = await profile('3001', '?includes=ItemTypes');
      assert.ok(onlyTypes.itemTypes && onlyTypes.fieldTypes === undefined && onlyTypes.statusTypes === undefined);
      const all = await profile('3001', '?includes=ItemTypes,FieldTypes,StatusTypes');
      assert.ok(all.itemTypes!.length > 0 && all.fieldTypes!.length > 0 && all.statusTypes!.length > 0);
      assert.ok(names(all.fieldTypes!).includes('CustomList1'));
      // Names are matched case-insensitively; blanks around them are ignored.
      assert.ok((await profile('3001', '?includes=itemtypes,%20statustypes')).statusTypes);
    });

    it('profile itemTypes carry itemTypeId, name, systemName (WorkItemRoot for the root folder type, Task, Folder, Milestone), code and the fields usable for the type (P2, A2)', async () => {
      const p = await profile('3001', '?includes=ItemTypes');
      const bySystemName = new Map(p.itemTypes!.map((t) => [t.systemName, t]));
      for (const n of ['WorkItemRoot', 'Folder', 'Task', 'Milestone']) assert.ok(bySystemName.has(n), n);
      const [root] = (await ok(`/workitem/workItems/${DEMO_ROOT_FOLDERS.web}?fields=ItemTypeId`)) as Rec[];
      assert.equal(bySystemName.get('WorkItemRoot')!.itemTypeId, root!.fields['ItemTypeId']);
      assert.equal(bySystemName.get('WorkItemRoot')!.isFolder, true);
      assert.equal(bySystemName.get('Task')!.isFolder, false);
      assert.equal(bySystemName.get('Task')!.code, 'TASK');
      const taskFields = bySystemName.get('Task')!.fields as string[];
      for (const n of ['Name', 'PlannedStartDate', 'CustomText1', 'CustomList1']) assert.ok(taskFields.includes(n), n);
      assert.ok(!taskFields.includes('CustomText2'), 'a deleted custom field is not usable');
      // Every item's type resolves through the profile.
      const items = (await ok(`/workitem/workItems/${DEMO_ROOT_FOLDERS.web}/subItems?fields=ItemTypeId`)) as Node[];
      const typeIds = new Set(p.itemTypes!.map((t) => t.itemTypeId));
      for (const n of flatten(items[0]!)) assert.ok(typeIds.has(String(n.fields['ItemTypeId'])), String(n.fields['Id']));
    });

    it('profile statusTypes carry statusTypeId and name (P2)', async () => {
      const p = await profile('3002', '?includes=StatusTypes');
      assert.deepEqual(p.statusTypes!.map((s) => [s.statusTypeId, s.name]).slice(0, 3), [['51', '未着手'], ['52', '進行中'], ['53', '完了']]);
    });

    it('profile of an unknown project is a 404; an unknown include is a 400 naming it (sandbox choice); lowercase path', async () => {
      const none = await get('/project/projects/9999/profile?includes=ItemTypes');
      assert.equal(none.status, 404);
      assert.equal((none.json as Err[])[0]!.code, 'PROJECT_NOT_FOUND');
      const bad = await get('/project/projects/3001/profile?includes=ItemTypes,Nope');
      assert.equal(bad.status, 400);
      assert.match((bad.json as Err[])[0]!.message, /"Nope"/);
    });

    it('in the Standard edition, Professional item types are listed as not available', async () => {
      const std = await createSandbox({ edition: 'standard' });
      try {
        const h = bearer(await signIn(std.url));
        const r = await call(`${std.url}/project/projects/3001/profile?includes=ItemTypes`, { headers: h });
        const types = ProjectProfileResponse.parse(r.json)[0]!.itemTypes!;
        assert.equal(types.find((t) => t.systemName === 'Review')!['isAvailable'], false);
        assert.equal(types.find((t) => t.systemName === 'Task')!['isAvailable'], true);
      } finally {
        await std.close();
      }
    });
  });

  describe('GET /system/organizations/{organizationId}/subOrganizations (O1)', () => {
    it('subOrganizations answers one Organization, a tree: the whole tree without depth, organizations without users included (O1)', async () => {
      const root = await tree('1001');
      assert.equal(root.id, '1001');
      assert.equal(root.parentId, '0', 'a root organization has parentId "0"');
      const ids = orgIds(root);
      const live = sb.data.organizations.filter((o) => !o.isDeleted).map((o) => o.id);
      assert.deepEqual([...ids].sort(), [...live].sort());
      assert.ok(ids.includes('1015'), 'an organization without users appears');
      assert.ok(!sb.data.users.some((u) => u.organizationId === '1015'));
    });

    it('subOrganizations depth=N goes N levels below the organization asked (O1 depth)', async () => {
      const one = await tree('1001', '?depth=1');
      assert.deepEqual(one.subOrganizations!.map((o) => o.id), ['1002', '1003', '1004', '1015']);
      assert.ok(one.subOrganizations!.every((o) => o.subOrganizations === undefined && o.parentId === '1001'));
      const two = await tree('1002', '?depth=2');
      assert.deepEqual(orgIds(two), ['1002', '1005', '1011', '1012', '1006', '1013']);
      assert.equal((await tree('1002', '?depth=0')).subOrganizations, undefined);
      assert.equal((await get('/system/organizations/1002/subOrganizations?depth=x')).status, 400);
    });

    it('subOrganizations leaves deleted organizations out unless includeDeleted=true; isDeleted=true keeps the deleted ones (O1, section 11)', async () => {
      assert.ok(!orgIds(await tree('1001')).includes('1016'));
      const all = await tree('1001', '?includeDeleted=true');
      assert.ok(orgIds(all).includes('1016'));
      const onlyDeleted = await tree('1001', '?includeDeleted=true&isDeleted=true');
      assert.deepEqual(orgIds(onlyDeleted), ['1001', '1002', '1016'], 'the deleted one and the organizations that connect it');
      assert.ok(!orgIds(await tree('1001', '?isDeleted=true')).includes('1016'), 'isDeleted alone has no effect');
      assert.equal((await get('/system/organizations/1016/subOrganizations')).status, 404);
      assert.equal((await tree('1016', '?includeDeleted=true')).isDeleted, true);
    });

    it('subOrganizations of an unknown organization is a 404 naming it', async () => {
      const r = await get('/system/organizations/9999/subOrganizations');
      assert.equal(r.status, 404);
      assert.equal((r.json as Err[])[0]!.code, 'ORGANIZATION_NOT_FOUND');
      assert.match((r.json as Err[])[0]!.message, /9999/);
    });
  });
});
