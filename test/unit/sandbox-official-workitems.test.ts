// Work item reads of the sandbox as the official help shows them (G1, G2, F1 of
// ../shared/spec/official-reference.md), assignedUsers on subItems, what public
// clients send (known-facts.md), and the custom-field checks the update engine
// uses. Over real HTTP (undici) where the sandbox answers. Named after the facts.
import * as assert from 'node:assert/strict';
import { Agent, request } from 'undici';
import { createSandbox, DatasetError, DEMO_ROOT_FOLDERS, generateDataset, generateLargeProject, parseDataset, type Sandbox } from '../../src/sandbox';
import { checkCustomFieldValue, customFieldDefinition, customFieldStoredValue, SYSTEM_FIELD_TYPES } from '../../src/sandbox/catalogue';
import { demoDataset } from '../../src/sandbox/demo';
import { READ_FIELDS } from '../../src/sandbox/reads';
import { CustomFieldDefinition } from '../../src/sandbox/model';
import { bearer, call, signIn } from './sandbox-server-fixtures';

type Node = { fields: Record<string, unknown> & { SubItems?: Node[] } };
type Rec = { fields: Record<string, unknown> };

function flatten(node: Node): Node[] {
  const out: Node[] = [node];
  for (const c of node.fields.SubItems ?? []) out.push(...flatten(c));
  return out;
}

const REMOVED = ['IsFolder', 'HasChildren', 'Level', 'DisplayOrder', 'ItemTypeName', 'StatusTypeName', 'LeaderName'];

describe('sandbox: work item reads of the official help (G1, G2, F1)', () => {
  let sb: Sandbox;
  let auth: Record<string, string>;
  const get = async (path: string, headers = auth) => call(`${sb.url}${path}`, { headers });
  const records = async (path: string): Promise<Rec[]> => {
    const r = await get(path);
    assert.equal(r.status, 200, r.text);
    return r.json as Rec[];
  };
  const sub = async (path: string): Promise<Node> => {
    const r = await get(path);
    assert.equal(r.status, 200, r.text);
    assert.equal((r.json as Node[]).length, 1);
    return (r.json as Node[])[0]!;
  };

  before(async () => {
    sb = await createSandbox({});
    auth = bearer(await signIn(sb.url));
  });
  after(() => sb.close());

  it('members come in the order of the help sample: Id, ProjectId, ProjectName, ProjectCode, ItemTypeId, StatusTypeId, FolderId, FolderName, ParentId, ParentName, ProcessCategoryId, TimeEntryCategoryId, Name, Code (G1)', async () => {
    const [r] = await records('/workitem/workItems/111');
    assert.deepEqual(Object.keys(r!.fields).slice(0, 14), [
      'Id', 'ProjectId', 'ProjectName', 'ProjectCode', 'ItemTypeId', 'StatusTypeId', 'FolderId', 'FolderName', 'ParentId', 'ParentName', 'ProcessCategoryId', 'TimeEntryCategoryId', 'Name', 'Code',
    ]);
    const [node] = (await get('/workitem/workItems/110/subItems?depth=3')).json as Node[];
    assert.deepEqual(Object.keys(node!.fields.SubItems![0]!.fields).slice(0, 14), Object.keys(r!.fields).slice(0, 14));
  });

  it('reads answer the read-only system fields ProjectName, ProjectCode, FolderId (nearest folder), FolderName, ParentName (F1)', async () => {
    // 122 lies under the task 121, which lies in the folder 120.
    const [r] = await records('/workitem/workItems/122?fields=ProjectName,ProjectCode,FolderId,FolderName,ParentId,ParentName');
    assert.deepEqual(r!.fields, { Id: '122', IsAclInherited: true, ProjectName: 'Webサイト刷新', ProjectCode: 'PRJ-WEB', FolderId: '120', FolderName: '実装', ParentId: '121', ParentName: 'トップページ' });
    // A top-level item: its folder is the root folder.
    const [top] = await records('/workitem/workItems/100?fields=FolderId,ParentName');
    assert.equal(top!.fields['FolderId'], DEMO_ROOT_FOLDERS.web);
    assert.equal(top!.fields['ParentName'], 'Webサイト刷新');
    // subItems answers the same values (computed along the walk).
    const tree = flatten(await sub(`/workitem/workItems/${DEMO_ROOT_FOLDERS.web}/subItems?fields=FolderId,FolderName,ParentName,ProjectCode`));
    assert.deepEqual(tree.find((n) => n.fields['Id'] === '122')!.fields['FolderName'], '実装');
    assert.ok(tree.every((n) => n.fields['ProjectCode'] === 'PRJ-WEB'));
  });

  it('ID fields without a value answer "0" (F1: default 0 未設定; ParentId of a root folder)', async () => {
    // 113 (a milestone) has no status, classifications or leader.
    const [r] = await records('/workitem/workItems/113?fields=StatusTypeId,ProcessCategoryId,TimeEntryCategoryId,LeaderId');
    assert.deepEqual([r!.fields['StatusTypeId'], r!.fields['ProcessCategoryId'], r!.fields['TimeEntryCategoryId'], r!.fields['LeaderId']], ['0', '0', '0', '0']);
    const [root] = await sub(`/workitem/workItems/${DEMO_ROOT_FOLDERS.mobile}/subItems?depth=0&fields=ParentId,FolderId`).then((n) => [n]);
    assert.equal(root!.fields['ParentId'], '0');
    assert.equal(root!.fields['FolderId'], '0');
  });

  it('names the help never shows are not answered, and asking for them is ignored like any unknown name (C3, G1)', async () => {
    const [all] = await records('/workitem/workItems/111');
    for (const n of REMOVED) assert.ok(!(n in all!.fields), n);
    const [asked] = await records(`/workitem/workItems/111?fields=${REMOVED.join(',')},Name`);
    assert.deepEqual(Object.keys(asked!.fields), ['Id', 'IsAclInherited', 'Name']);
    const node = await sub(`/workitem/workItems/110/subItems?depth=3&fields=${REMOVED.join(',')}`);
    for (const n of flatten(node)) assert.deepEqual(Object.keys(n.fields).filter((k) => k !== 'SubItems'), ['Id', 'IsAclInherited']);
  });

  it('custom fields are read by system name like system fields (F1, A2); a Date as yyyy-MM-ddT00:00:00; none: null; deleted ones never', async () => {
    const [r] = await records('/workitem/workItems/111');
    assert.deepEqual(
      [r!.fields['CustomText1'], r!.fields['CustomNumber1'], r!.fields['CustomDate1'], r!.fields['CustomList1']],
      ['株式会社ABC商事', 80, '2026-01-30T00:00:00', '高'],
    );
    assert.ok(!('CustomText2' in r!.fields));
    const [none] = await records('/workitem/workItems/113?fields=customtext1,CustomDate1,CustomText2');
    assert.deepEqual(none!.fields, { Id: '113', IsAclInherited: true, CustomText1: null, CustomDate1: null });
    const node = await sub('/workitem/workItems/110/subItems?depth=3&fields=CustomList1,CustomDate1');
    assert.deepEqual(node.fields.SubItems!.map((c) => [c.fields['CustomList1'], c.fields['CustomDate1']]), [['高', '2026-01-30T00:00:00'], ['中', null], [null, null]]);
  });

  describe('subItems assignedUsers and includeDeleted (public clients, known-facts.md)', () => {
    it('assignedUsers=<login name> keeps the items assigned to that user (directly or through a group) and the ancestors that connect them', async () => {
      // hanako.sato is 2101: 111 and 140 directly, 112 through group 81.
      const n = await sub(`/workitem/workItems/${DEMO_ROOT_FOLDERS.web}/subItems?assignedUsers=hanako.sato&includeDeleted=false&fields=Name,Assignments`);
      const ids = flatten(n).map((x) => x.fields['Id']);
      assert.deepEqual([...ids].sort(), ['10', '100', '110', '111', '112', '130', '140'].sort());
      const leaves = flatten(n).filter((x) => (x.fields.SubItems ?? []).length === 0);
      assert.ok(leaves.every((x) => (x.fields['Assignments'] as unknown[]).length > 0), 'every leaf is an assigned item');
      // Login names match case-insensitively; several may be given.
      const upper = await sub(`/workitem/workItems/${DEMO_ROOT_FOLDERS.web}/subItems?assignedusers=HANAKO.SATO&fields=Name`);
      assert.deepEqual(flatten(upper).map((x) => x.fields['Id']), ids);
      const two = flatten(await sub(`/workitem/workItems/${DEMO_ROOT_FOLDERS.web}/subItems?assignedUsers=hanako.sato,kenta.takahashi&fields=Name`)).map((x) => x.fields['Id']);
      assert.ok(two.length > ids.length && ids.every((id) => two.includes(id)));
    });

    it('assignedUsers with a user assigned to nothing answers the item asked alone; with depth the depth rule still holds', async () => {
      const none = await sub(`/workitem/workItems/${DEMO_ROOT_FOLDERS.web}/subItems?assignedUsers=nobody-here`);
      assert.equal(none.fields['Id'], DEMO_ROOT_FOLDERS.web);
      assert.deepEqual(none.fields.SubItems, []);
      const shallow = await sub(`/workitem/workItems/${DEMO_ROOT_FOLDERS.web}/subItems?assignedUsers=hanako.sato&depth=1&fields=Name`);
      assert.deepEqual(shallow.fields.SubItems!.map((c) => c.fields['Id']), ['100']);
      assert.equal(shallow.fields.SubItems![0]!.fields.SubItems, undefined);
    });

    it('assignedUsers leaves deleted items out unless includeDeleted=true', async () => {
      const d = sb.data.workItems.find((w) => w.id === '115')!;
      d.assignments = [{ partyId: '2101', partyType: 'User', plannedTime: 0 }];
      try {
        const res = await call(`${sb.origin}/_sandbox/reset`, { method: 'POST', body: sb.data });
        assert.equal(res.status, 200, res.text);
        const live = flatten(await sub(`/workitem/workItems/${DEMO_ROOT_FOLDERS.web}/subItems?assignedUsers=hanako.sato&includeDeleted=false`)).map((x) => x.fields['Id']);
        assert.ok(!live.includes('115'));
        const all = flatten(await sub(`/workitem/workItems/${DEMO_ROOT_FOLDERS.web}/subItems?assignedUsers=hanako.sato&includeDeleted=true`)).map((x) => x.fields['Id']);
        assert.ok(all.includes('115'));
      } finally {
        await call(`${sb.origin}/_sandbox/reset`, { method: 'POST' });
      }
    });
  });

  describe('tolerance of what public clients send (known-facts.md)', () => {
    const READS = [
      '/project/projects',
      '/project/projects/3001',
      '/project/projects/3001/profile?includes=ItemTypes,FieldTypes,StatusTypes',
      '/workitem/workItems/111',
      `/workitem/workItems/${DEMO_ROOT_FOLDERS.web}/subItems?depth=1`,
      '/system/users/me',
      '/system/fieldTypes',
      '/system/organizations/1001/subOrganizations',
      '/system/organizations/1001/users',
      '/system/organizations/1001/allassignedusers',
      '/system/processCategories',
    ];

    it('a GET with Content-Type: application/json and Content-Length: 0 works on every read route', async () => {
      const agent = new Agent({ connections: 2 });
      try {
        for (const path of READS) {
          const r = await request(`${sb.url}${path}`, { method: 'GET', headers: { ...auth, 'content-type': 'application/json', 'content-length': '0' }, dispatcher: agent });
          const text = await r.body.text();
          assert.equal(r.statusCode, 200, `${path}: ${text}`);
          JSON.parse(text);
        }
      } finally {
        await agent.close();
      }
    });

    it('every read route answers its lowercase path the same as the documented one', async () => {
      for (const path of READS) {
        const lower = path.replace(/^[^?]*/, (p) => p.toLowerCase());
        const a = await get(path);
        const b = await get(lower);
        assert.equal(b.status, 200, `${lower}: ${b.text}`);
        assert.equal(b.text, a.text, lower);
      }
    });

    it('/system/users/me still answers with id and loginName (public clients read them)', async () => {
      const me = (await get('/system/users/me')).json as Record<string, unknown>;
      assert.equal(me['id'], '2001');
      assert.equal(me['loginName'], 'admin');
    });
  });
});

describe('sandbox: custom field definitions and checks (for the update engine)', () => {
  const defs = demoDataset().fieldTypes!.map((f) => CustomFieldDefinition.parse(f));
  const def = (systemName: string) => defs.find((f) => f.systemName === systemName)!;

  it('system fields of /system/fieldTypes are exactly the fields work item reads answer', () => {
    assert.deepEqual(SYSTEM_FIELD_TYPES.map((f) => f.systemName), Object.keys(READ_FIELDS));
  });

  it('customFieldDefinition finds a live custom field by its exact system name', () => {
    const data = { fieldTypes: defs };
    assert.equal(customFieldDefinition(data, 'CustomText1')!.name, '顧客名');
    assert.equal(customFieldDefinition(data, 'customtext1'), undefined, 'system names are case-sensitive');
    assert.equal(customFieldDefinition(data, 'CustomText2'), undefined, 'a deleted field');
    assert.equal(customFieldDefinition(data, 'Name'), undefined, 'a system field is not a custom one');
  });

  it('checkCustomFieldValue accepts values of the field type within its range, and null', () => {
    for (const [name, value] of [
      ['CustomText1', '株式会社ABC'],
      ['CustomText1', 'x'.repeat(50)],
      ['CustomNumber1', 0],
      ['CustomNumber1', 12.5],
      ['CustomNumber1', 9999],
      ['CustomDate1', '2026-02-28'],
      ['CustomDate1', '2026-02-28T00:00:00'],
      ['CustomList1', '高'],
      ['CustomList1', 'LOW'],
      ['CustomList1', null],
    ] as const) {
      assert.equal(checkCustomFieldValue(def(name), value), undefined, `${name} ${JSON.stringify(value)}`);
    }
  });

  it('checkCustomFieldValue names what is expected for a value of the wrong type or out of range', () => {
    assert.equal(checkCustomFieldValue(def('CustomText1'), 5), 'expected text (a JSON string)');
    assert.equal(checkCustomFieldValue(def('CustomText1'), 'x'.repeat(51)), 'expected text of at most 50 characters');
    assert.equal(checkCustomFieldValue(def('CustomText1'), 'a\nb'), 'expected one line of text (no line breaks)');
    assert.equal(checkCustomFieldValue(def('CustomNumber1'), '5'), 'expected a number');
    assert.equal(checkCustomFieldValue(def('CustomNumber1'), -1), 'expected a number from 0 to 9999');
    assert.equal(checkCustomFieldValue(def('CustomDate1'), '2026-02-30'), 'expected a date as yyyy-MM-dd');
    assert.equal(checkCustomFieldValue(def('CustomDate1'), '2026/02/01'), 'expected a date as yyyy-MM-dd');
    assert.equal(checkCustomFieldValue(def('CustomList1'), '最高'), 'expected one of the choices "高", "中", "低"');
    const integer = CustomFieldDefinition.parse({ id: '900', name: 'n', systemName: 'CustomNumber9', dataType: 'Integer', maxValue: 10 });
    assert.equal(checkCustomFieldValue(integer, 1.5), 'expected a whole number');
    assert.equal(checkCustomFieldValue(integer, 11), 'expected a number of at most 10');
    const flag = CustomFieldDefinition.parse({ id: '901', name: 'f', systemName: 'CustomFlag1', dataType: 'Boolean' });
    assert.equal(checkCustomFieldValue(flag, 'true'), 'expected true or false');
  });

  it('customFieldStoredValue stores a Date as yyyy-MM-dd and a List value as the choice name', () => {
    assert.equal(customFieldStoredValue(def('CustomDate1'), '2026-02-28T00:00:00'), '2026-02-28');
    assert.equal(customFieldStoredValue(def('CustomList1'), 'HIGH'), '高');
    assert.equal(customFieldStoredValue(def('CustomList1'), '3'), '低');
    assert.equal(customFieldStoredValue(def('CustomNumber1'), 7), 7);
    assert.equal(customFieldStoredValue(def('CustomText1'), null), undefined);
  });

  it('a data set with a custom value that does not fit its field, or a custom field named like a system field, is refused naming the path', () => {
    const bad = demoDataset();
    bad.workItems!.find((w) => w.id === '111')!.customFields = { CustomDate1: '30/01/2026' };
    assert.throws(() => parseDataset(bad), (e: unknown) => e instanceof DatasetError && /workItems\[\d+\]\.customFields\.CustomDate1: expected a date as yyyy-MM-dd/.test(e.message));
    const clash = demoDataset();
    clash.fieldTypes!.push({ id: '199', name: '名前', systemName: 'Name', dataType: 'String' });
    assert.throws(() => parseDataset(clash), (e: unknown) => e instanceof DatasetError && /fieldTypes\[5\]\.systemName: "Name" is a system field/.test(e.message));
  });

  it('generated data sets have the same custom fields, with values on about half the tasks', () => {
    const d = parseDataset(generateDataset({ users: 10, organizations: 3, workItems: 200, processCategories: 2, seed: 3 }));
    assert.deepEqual(d.fieldTypes.map((f) => f.systemName), defs.map((f) => f.systemName));
    const withValues = d.workItems.filter((w) => Object.keys(w.customFields).length > 0);
    assert.ok(withValues.length > 50 && withValues.some((w) => 'CustomDate1' in w.customFields));
    const large = parseDataset(generateLargeProject({ items: 500, levels: 4, topLevelItems: 3 }));
    assert.ok(large.workItems.filter((w) => w.projectId === '9' && w.customFields['CustomList1'] !== undefined).length > 100);
    assert.equal(large.itemTypes.find((t) => t.id === large.workItems.find((w) => w.id === '1000000')!.itemTypeId)!.systemName, 'WorkItemRoot');
  });
});
