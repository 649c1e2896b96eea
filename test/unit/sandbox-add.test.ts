// The sandbox's add (POST /workitem/workItems/{workItemId}/subItems) as the official help
// describes it (official-reference.md section 7, A1, A2), with the update's rules where
// they apply and the sandbox's choices where the help is silent (docs/compatibility.md),
// over real HTTP. Each test is named after the rule it checks; every refusal is checked to
// leave the data set as it was (Harness.refused).
import * as assert from 'node:assert/strict';
import type { DatasetInput, WorkItem } from '../../src/sandbox/model';
import { MAX_ITEMS_PER_ADD, METADATA_LIMITS } from '../../src/sandbox/additions/choices';
import { Harness, STAMP, childOrder } from './sandbox-update-harness';
import { baseFixture, chain } from './sandbox-update-fixtures';

interface AddAnswer {
  items: Record<string, unknown>[];
}

const task = <T extends object = object>(name: string, extra: T = {} as T) => ({
  fields: { ItemTypeId: 'task', Name: name } as Record<string, unknown>,
  ...extra,
});
const folder = <T extends object = object>(name: string, extra: T = {} as T) => ({
  fields: { ItemTypeId: 'folder', Name: name } as Record<string, unknown>,
  ...extra,
});

describe('sandbox add: POST /workitem/workItems/{id}/subItems (official help A1, A2)', function () {
  const h = new Harness('professional');
  before(() => h.start());
  after(() => h.stop());
  beforeEach(() => h.reset());

  const add = (parentId: string, body: unknown, login = 'admin') => h.api('POST', `/workitem/workItems/${encodeURIComponent(parentId)}/subItems`, body, login);
  const adds = async (parentId: string, body: unknown, login = 'admin'): Promise<AddAnswer> => {
    const r = await add(parentId, body, login);
    assert.equal(r.status, 200, r.raw);
    return r.json as AddAnswer;
  };
  const refuses = (parentId: string, body: unknown, status: number, expected: Parameters<Harness['refused']>[2], login = 'admin') =>
    h.refused(() => add(parentId, body, login), status, expected);

  it("adds directly below the item; the answer's items hold the added item's fields (A1: answer items)", async () => {
    const before = await h.dump();
    const answer = await adds(
      'F1a',
      task('Write tests', {
        fields: { ItemTypeId: 'task', Name: 'Write tests', Code: 'WT', PlannedStartDate: '2026-04-01', PlannedFinishDate: '2026-04-03', PlannedTime: 240 },
      }),
    );
    assert.equal(answer.items.length, 1);
    const item = answer.items[0]!;
    const id = String(item['id']);
    assert.match(id, /^\d+$/, 'a new ID is decimal digits (official help section 3)');
    assert.ok(!before.workItems.some((w) => w.id === id), 'an ID no item had');
    assert.equal(item['name'], 'Write tests');
    assert.equal(item['code'], 'WT');
    assert.equal(item['parentId'], 'F1a');
    assert.equal(item['projectId'], 'p1');
    assert.equal(item['itemTypeId'], 'task');
    assert.equal(item['plannedStartDate'], '2026-04-01T00:00:00');
    assert.equal(item['plannedTime'], 240);
    assert.equal(item['statusTypeId'], '51', 'the first available status when none is given');
    assert.equal(item['createdAt'], STAMP);
    assert.equal(item['updatedBy'], '2001');
    // Kept: the reads show it below its parent, at the end.
    assert.deepEqual(childOrder(await h.dump(), 'F1a'), ['T1', 'T2', 'T3', id]);
    const read = await h.read([id], ['Name', 'ParentId', 'ItemTypeId']);
    assert.deepEqual([read.get(id)!['Name'], read.get(id)!['ParentId'], read.get(id)!['ItemTypeId']], ['Write tests', 'F1a', 'task']);
  });

  it('fields is required, with ItemTypeId and Name (A1, A2: a POST without a required member is an error)', async () => {
    await refuses('F1a', {}, 400, { code: 'MEMBER_REQUIRED', field: 'fields' });
    await refuses('F1a', { fields: { Name: 'no type' } }, 400, { code: 'MEMBER_REQUIRED', field: 'ItemTypeId' });
    await refuses('F1a', { fields: { ItemTypeId: 'task' } }, 400, { code: 'MEMBER_REQUIRED', field: 'Name' });
    await refuses('F1a', task('   '), 400, { code: 'NAME_EMPTY', rule: 1, field: 'Name' });
    await refuses('F1a', task('x'.repeat(257)), 400, { code: 'NAME_TOO_LONG', rule: 2 });
    const r = await add('F1a', '');
    assert.equal(r.status, 400);
    assert.equal((r.json as { code: string }[])[0]!.code, 'BODY_REQUIRED');
  });

  it('nested subItems are added in one transaction: all or nothing', async () => {
    const tree = folder('Phase', { subItems: [folder('Step 1', { subItems: [task('1a'), task('1b')] }), task('Step 2')] });
    // One bad item three levels down: nothing at all is added.
    const bad = folder('Phase', {
      subItems: [folder('Step 1', { subItems: [task('1a'), task('1b', { fields: { ItemTypeId: 'task', Name: '1b', PlannedTime: 'soon' } })] }), task('Step 2')],
    });
    const errors = await refuses('F2', bad, 400, { code: 'FIELD_VALUE_INVALID', field: 'subItems[0].subItems[1].PlannedTime' });
    assert.match(errors[0]!.message, /^New item subItems\[0\]\.subItems\[1\]: /);
    assert.equal(errors[0]!.itemId, undefined, 'a new item has no ID the caller knows');
    // The whole tree, depth first, each below its parent in the order sent.
    const answer = await adds('F2', tree);
    const names = answer.items.map((i) => i['name']);
    assert.deepEqual(names, ['Phase', 'Step 1', '1a', '1b', 'Step 2']);
    const [phase, step1, a, b, step2] = answer.items.map((i) => String(i['id']));
    const data = await h.dump();
    assert.deepEqual(childOrder(data, phase!), [step1, step2]);
    assert.deepEqual(childOrder(data, step1!), [a, b]);
    assert.equal(data.workItems.find((w) => w.id === phase)!.parentId, 'F2');
  });

  it('at most 16 levels: a parent on level 16 takes no child, and a nested tree may not go below level 16 (as error 19 of updates)', async () => {
    await h.reset(baseFixture(chain(16)));
    await refuses('C16', task('too deep'), 400, { code: 'PARENT_AT_MAX_DEPTH', rule: 19 });
    await refuses('C14', folder('15', { subItems: [folder('16', { subItems: [task('17')] })] }), 400, { code: 'HIERARCHY_TOO_DEEP' });
    const answer = await adds('C14', folder('15', { subItems: [task('16')] }));
    assert.equal(answer.items.length, 2);
  });

  it("only project members and the project's groups can be assigned, and only a member leads (U3; errors 14, 15)", async () => {
    await refuses('F1a', task('x', { assignments: [{ partyId: 'u-out', partyType: 'User' }] }), 400, {
      code: 'ASSIGNEE_NOT_MEMBER',
      rule: 15,
      field: 'assignments[0]',
    });
    await refuses('F1a', task('x', { assignments: [{ partyId: 'g-ext', partyType: 'UserGroup' }] }), 400, { code: 'ASSIGNEE_NOT_MEMBER', rule: 15 });
    await refuses('F1a', { fields: { ItemTypeId: 'task', Name: 'x', LeaderId: 'u-bob' } }, 400, { code: 'LEADER_NOT_MEMBER', rule: 14 });
    // A member (by login name) and a group of the project: the planned time is their sum when not given.
    const answer = await adds('F1a', {
      fields: { ItemTypeId: 'task', Name: 'x', LeaderId: 'u-alice' },
      assignments: [
        { user: 'carol', plannedTime: 120 },
        { partyId: 'g-dev', partyType: 'UserGroup', plannedTime: 60 },
      ],
    });
    const item = answer.items[0]!;
    assert.deepEqual(item['assignments'], [
      { partyId: 'u-carol', plannedTime: 120, partyType: 'User' },
      { partyId: 'g-dev', plannedTime: 60, partyType: 'UserGroup' },
    ]);
    assert.equal(item['plannedTime'], 180);
    assert.equal(item['managedPlannedTime'], 180);
    assert.equal(item['leaderId'], 'u-alice');
  });

  it('a user who does not exist is an error (A1)', async () => {
    await refuses('F1a', { fields: { ItemTypeId: 'task', Name: 'x', LeaderId: 'nobody' } }, 400, { code: 'USER_NOT_FOUND', rule: 4 });
    await refuses('F1a', task('x', { assignments: [{ user: 'nobody' }] }), 400, { code: 'USER_NOT_FOUND', rule: 4 });
    await refuses('F1a', task('x', { assignments: [{ partyId: 'u-gone', partyType: 'User' }] }), 400, { code: 'USER_NOT_FOUND', rule: 4 });
  });

  it('a locked project is an error (A1)', async () => {
    const data = baseFixture();
    data.projects!.find((p) => p.id === 'p1')!.isLocked = true;
    await h.reset(data);
    await refuses('F1a', task('x'), 400, { code: 'PROJECT_LOCKED' });
  });

  it('process category, work category, item type and status type must be usable (A1; errors 8-11)', async () => {
    await refuses('F1a', { fields: { ItemTypeId: 'task', Name: 'x', ProcessCategoryId: 'pc-old' } }, 400, { code: 'PROCESS_CATEGORY_NOT_AVAILABLE', rule: 9 });
    await refuses('F1a', { fields: { ItemTypeId: 'task', Name: 'x', TimeEntryCategoryId: '73' } }, 400, { code: 'WORK_CATEGORY_NOT_AVAILABLE', rule: 10 });
    await refuses('F1a', { fields: { ItemTypeId: 'task', Name: 'x', StatusTypeId: 'st-old' } }, 400, { code: 'STATUS_TYPE_NOT_AVAILABLE', rule: 8 });
    await refuses('F1a', { fields: { ItemTypeId: 'retired', Name: 'x' } }, 400, { code: 'ITEM_TYPE_NOT_AVAILABLE', rule: 11, field: 'ItemTypeId' });
    await refuses('F1a', { fields: { ItemTypeId: 'no-such-type', Name: 'x' } }, 400, { code: 'ITEM_TYPE_NOT_AVAILABLE', rule: 11 });
    const answer = await adds('F1a', {
      fields: { ItemTypeId: 'milestone', Name: 'x', ProcessCategoryId: 'pc-1', TimeEntryCategoryId: 'wc-1', StatusTypeId: '53' },
    });
    const item = answer.items[0]!;
    assert.deepEqual([item['itemTypeId'], item['processCategoryId'], item['timeEntryCategoryId'], item['statusTypeId']], ['milestone', 'pc-1', 'wc-1', '53']);
    // The type of the projects' root folders (system name WorkItemRoot) is not one to add.
    const data = baseFixture();
    data.itemTypes!.push({ id: 'root-type', name: 'Root', systemName: 'WorkItemRoot', isFolder: true });
    await h.reset(data);
    await refuses('F1a', { fields: { ItemTypeId: 'root-type', Name: 'x' } }, 400, { code: 'ITEM_TYPE_NOT_AVAILABLE', rule: 11 });
  });

  it('folder placement: a folder is added only below a folder (as error 18 of updates); anything goes below a folder', async () => {
    await refuses('T3', folder('folder below a task'), 400, { code: 'FOLDER_UNDER_NON_FOLDER', rule: 18 });
    await refuses('F1a', task('task', { subItems: [folder('folder below a new task')] }), 400, {
      code: 'FOLDER_UNDER_NON_FOLDER',
      rule: 18,
      field: 'subItems[0].ItemTypeId',
    });
    const answer = await adds('F1a', folder('f', { subItems: [folder('g'), task('t', { subItems: [task('t below t')] })] }));
    assert.equal(answer.items.length, 4);
    assert.equal((await adds('T3', task('a task below a task'))).items.length, 1);
  });

  it('nothing is added below an item that has actuals (as error 17 of updates)', async () => {
    await refuses('T4', task('x'), 400, { code: 'PARENT_HAS_ACTUALS', rule: 17 });
  });

  it('field types and read-only system fields: a value of the wrong type, an unknown field and a read-only field are errors (error 29)', async () => {
    await refuses('F1a', { fields: { ItemTypeId: 'task', Name: 'x', PlannedTime: 'soon' } }, 400, { code: 'FIELD_VALUE_INVALID', field: 'PlannedTime' });
    await refuses('F1a', { fields: { ItemTypeId: 'task', Name: 'x', PlannedStartDate: '2026-02-30' } }, 400, {
      code: 'FIELD_VALUE_INVALID',
      field: 'PlannedStartDate',
    });
    await refuses('F1a', { fields: { ItemTypeId: 'task', Name: 'x', ParentId: 'F2' } }, 400, { code: 'FIELD_NOT_EDITABLE', rule: 29, field: 'ParentId' });
    await refuses('F1a', { fields: { ItemTypeId: 'task', Name: 'x', Id: '5' } }, 400, { code: 'FIELD_NOT_EDITABLE', rule: 29, field: 'Id' });
    await refuses('F1a', { fields: { ItemTypeId: 'task', Name: 'x', ActualTime: 60 } }, 400, { code: 'FIELD_NOT_EDITABLE', rule: 29, field: 'ActualTime' });
    await refuses('F1a', { fields: { ItemTypeId: 'task', Name: 'x', name: 'lower case' } }, 400, { code: 'FIELD_UNKNOWN_NAME', rule: 29, field: 'name' });
    await refuses('F1a', { fields: { ItemTypeId: 'task', Name: 'x', PlannedStartDate: '2026-05-02', PlannedFinishDate: '2026-05-01' } }, 400, {
      code: 'END_BEFORE_START',
      rule: 5,
    });
    await refuses('F1a', { fields: { ItemTypeId: 7, Name: 'x' } }, 400, { code: 'FIELD_VALUE_INVALID', field: 'ItemTypeId' });
  });

  it('fieldCalcTypes: the calculation types of updates; a formula cannot be set (A1)', async () => {
    await refuses('F1a', task('x', { fieldCalcTypes: { PlannedTime: 'Formula' } }), 400, { code: 'CALC_TYPE_FORMULA' });
    await refuses('F1a', task('x', { fieldCalcTypes: { PlannedTime: 'Guess' } }), 400, { code: 'CALC_TYPE_NOT_ALLOWED', rule: 16 });
    const answer = await adds('F1a', task('x', { fieldCalcTypes: { PlannedTime: 'Assignments' } }));
    assert.deepEqual(answer.items[0]!['fieldCalcTypes'], { PlannedTime: 'Assignments' });
  });

  it(`the per-request size limit: at most ${MAX_ITEMS_PER_ADD} items in one add, nested ones counted (sandbox choice), and the body limit`, async () => {
    const many = folder('many', { subItems: Array.from({ length: MAX_ITEMS_PER_ADD }, (_, i) => task(`t${i}`)) });
    await refuses('F2', many, 400, { code: 'TOO_MANY_ITEMS_TO_ADD' });
    many.subItems.pop();
    assert.equal((await adds('F2', many)).items.length, MAX_ITEMS_PER_ADD);
    await h.reset();
    await refuses('F2', task('x', { fields: { ItemTypeId: 'task', Name: 'x', Description: 'd'.repeat(1024 * 1024) } }), 413, { code: 'BODY_TOO_LARGE' });
  });

  it('order members: orderBefore ("0": the end), orderAfter ("0": the beginning), orderFirst, orderLast; one at most (A1; error 20)', async () => {
    const place = async (extra: Record<string, unknown>): Promise<string[]> => {
      await h.reset();
      const id = String((await adds('F1a', task('new', extra))).items[0]!['id']);
      return childOrder(await h.dump(), 'F1a').map((c) => (c === id ? 'new' : c));
    };
    assert.deepEqual(await place({}), ['T1', 'T2', 'T3', 'new'], 'the end by default');
    assert.deepEqual(await place({ orderFirst: true }), ['new', 'T1', 'T2', 'T3']);
    assert.deepEqual(await place({ orderLast: true }), ['T1', 'T2', 'T3', 'new']);
    assert.deepEqual(await place({ orderAfter: 'T1' }), ['T1', 'new', 'T2', 'T3']);
    assert.deepEqual(await place({ orderBefore: 'T2' }), ['T1', 'new', 'T2', 'T3']);
    assert.deepEqual(await place({ orderBefore: '0' }), ['T1', 'T2', 'T3', 'new']);
    assert.deepEqual(await place({ orderAfter: '0' }), ['new', 'T1', 'T2', 'T3']);
    assert.deepEqual(await place({ orderFirst: false }), ['T1', 'T2', 'T3', 'new'], 'orderFirst: false does nothing');
    await refuses('F1a', task('x', { orderFirst: true, orderAfter: 'T1' }), 400, { code: 'ORDER_MULTIPLE', rule: 20 });
    await refuses('F1a', task('x', { orderAfter: 'T4' }), 400, { code: 'ORDER_REFERENCE_NOT_SIBLING' });
    await refuses('F1a', task('x', { orderBefore: 'no-such-item' }), 400, { code: 'REFERENCED_ITEM_NOT_FOUND', rule: 23 });
    // Nested items take their own order members among the items added before them.
    await h.reset();
    const answer = await adds('F2', folder('f', { subItems: [task('a'), task('b'), task('c', { orderFirst: true })] }));
    const [f, a, b, c] = answer.items.map((i) => String(i['id']));
    assert.deepEqual(childOrder(await h.dump(), f!), [c, a, b]);
  });

  it('metadata is a string map kept with the item and shown beside its fields by the reads (sandbox choice; the member is not in every copy of the help)', async () => {
    const answer = await adds('F2', folder('f', { metadata: { key: 'job-1/0' }, subItems: [task('t', { metadata: { key: 'job-1/1' } })] }));
    const [f, t] = answer.items.map((i) => String(i['id']));
    assert.deepEqual(
      answer.items.map((i) => i['metadata']),
      [{ key: 'job-1/0' }, { key: 'job-1/1' }],
    );
    const byId = await h.api('GET', `/workitem/workItems/${f},${t}?fields=Name`);
    assert.deepEqual(
      (byId.json as { metadata?: unknown }[]).map((r) => r.metadata),
      [{ key: 'job-1/0' }, { key: 'job-1/1' }],
    );
    const tree = await h.api('GET', `/workitem/workItems/F2/subItems?fields=Name`);
    const node = (tree.json as { fields: { SubItems: { fields: { Id: string }; metadata?: unknown }[] } }[])[0]!.fields.SubItems.find(
      (n) => n.fields.Id === f,
    )!;
    assert.deepEqual(node.metadata, { key: 'job-1/0' });
    const plain = (await h.api('GET', '/workitem/workItems/T1?fields=Name')).json as Record<string, unknown>[];
    assert.equal('metadata' in plain[0]!, false, 'an item without metadata has no member');
    // Bounds.
    const tooMany = Object.fromEntries(Array.from({ length: METADATA_LIMITS.entries + 1 }, (_, i) => [`k${i}`, 'v']));
    await refuses('F2', task('x', { metadata: tooMany }), 400, { code: 'METADATA_TOO_MANY', field: 'metadata' });
    await refuses('F2', task('x', { metadata: { k: 'v'.repeat(METADATA_LIMITS.valueLength + 1) } }), 400, {
      code: 'METADATA_VALUE_TOO_LONG',
      field: 'metadata.k',
    });
    await refuses('F2', task('x', { metadata: { '': 'v' } }), 400, { code: 'METADATA_KEY_INVALID' });
    await refuses('F2', task('x', { metadata: { k: 1 } }), 400, { code: 'WRONG_TYPE', field: 'metadata.k' });
  });

  it('metadata comes back with an item whose subtree is large enough to be streamed in pieces (subItems)', async () => {
    const big = (
      await adds('F2', folder('big', { metadata: { key: 'big' }, subItems: Array.from({ length: MAX_ITEMS_PER_ADD - 1 }, (_, i) => task(`a${i}`)) }))
    ).items[0]!;
    const id = String(big['id']);
    for (let round = 0; round < 2; round++) {
      const more = await adds(id, folder(`more${round}`, { subItems: Array.from({ length: MAX_ITEMS_PER_ADD - 1 }, (_, i) => task(`b${round}-${i}`)) }));
      assert.equal(more.items.length, MAX_ITEMS_PER_ADD);
    }
    // 1 + 999 + 2 × 1000 items below F2: more than one piece of the streamed answer.
    const tree = await h.api('GET', '/workitem/workItems/F2/subItems?fields=Name');
    assert.equal(tree.status, 200);
    const nodes = (tree.json as { fields: { SubItems: { fields: { Id: string; SubItems: unknown[] }; metadata?: unknown }[] } }[])[0]!.fields.SubItems;
    const node = nodes.find((n) => n.fields.Id === id)!;
    assert.deepEqual(node.metadata, { key: 'big' });
    assert.equal(node.fields.SubItems.length, MAX_ITEMS_PER_ADD + 1);
  });

  it('member names of the body are bound in any casing, as for updates; an unknown member is an error', async () => {
    const answer = await adds('F2', {
      Fields: { ItemTypeId: 'folder', Name: 'f' },
      SUBITEMS: [{ fields: { ItemTypeId: 'task', Name: 't' }, Assignments: [{ PartyId: 'u-alice' }] }],
      orderfirst: true,
    });
    assert.equal(answer.items.length, 2);
    assert.deepEqual(answer.items[1]!['assignments'], [{ partyId: 'u-alice', plannedTime: 0, partyType: 'User' }]);
    await refuses('F2', task('x', { colour: 'red' }), 400, { code: 'UNKNOWN_MEMBER', field: 'colour' });
    await refuses('F2', task('x', { subItems: [task('y', { moveParentTo: 'F1' })] }), 400, { code: 'UNKNOWN_MEMBER', field: 'subItems[0].moveParentTo' });
  });

  it('the item added below must exist (404) and be live; a root folder takes items (level 1)', async () => {
    await refuses('no-such-item', task('x'), 404, { code: 'WORK_ITEM_NOT_FOUND' });
    await refuses('D2', task('x'), 400, { code: 'ADD_PARENT_DELETED' });
    await refuses('D2a', task('x'), 400, { code: 'ADD_PARENT_DELETED' });
    const answer = await adds('p1-root', folder('top level'));
    const item = (await h.dump()).workItems.find((w) => w.id === answer.items[0]!['id']) as WorkItem;
    assert.equal(item.parentId, 'p1-root');
  });

  it('only a member with edit permission adds (403); a viewer and an outsider are refused', async () => {
    await refuses('F1a', task('x'), 403, { code: 'ADD_FORBIDDEN' }, 'viewer');
    await refuses('F1a', task('x'), 403, { code: 'ADD_FORBIDDEN' }, 'outsider');
    await refuses('Q1', task('x'), 403, { code: 'ADD_FORBIDDEN' }, 'alice');
  });

  it('costs: PlannedCost is ignored and not answered for a caller without cost permission (rule 2 of updates)', async () => {
    const answer = await adds('F1a', { fields: { ItemTypeId: 'task', Name: 'x', PlannedCost: 500 } }, 'nocost');
    assert.equal('plannedCost' in answer.items[0]!, false);
    const stored = (await h.dump()).workItems.find((w) => w.id === answer.items[0]!['id'])!;
    assert.equal(stored.plannedCost, 0);
  });
});

describe('sandbox add in the Standard edition', function () {
  const h = new Harness('standard');
  before(() => h.start());
  after(() => h.stop());

  it('item types of the Professional edition cannot be added (error 11); fieldCalcTypes only for ActualProgress', async () => {
    const add = (body: unknown) => h.api('POST', '/workitem/workItems/F1a/subItems', body);
    await h.refused(() => add({ fields: { ItemTypeId: 'pro-task', Name: 'x' } }), 400, { code: 'STANDARD_EDITION_ITEM_TYPE', rule: 11 });
    await h.refused(() => add({ fields: { ItemTypeId: 'task', Name: 'x' }, fieldCalcTypes: { PlannedTime: 'Manual' } }), 400, {
      code: 'STANDARD_EDITION_CALC_TYPE',
    });
    const r = await add({ fields: { ItemTypeId: 'task', Name: 'x' }, fieldCalcTypes: { ActualProgress: 'Manual' } });
    assert.equal(r.status, 200, r.raw);
  });
});

describe('sandbox: GET /project/projects/{id}?includes=Members,UserGroups (official help U3)', function () {
  const h = new Harness('professional');
  const data: DatasetInput = baseFixture();
  before(() => h.start(data));
  after(() => h.stop());

  it("gives the project's members (as users) and its groups, the only parties that can be assigned", async () => {
    const r = await h.api('GET', '/project/projects/p1?includes=Members,UserGroups');
    assert.equal(r.status, 200, r.raw);
    const [p] = r.json as {
      id: string;
      members: { id: string; loginName: string; password?: string }[];
      userGroups: { id: string; name: string; memberIds: string[] }[];
    }[];
    assert.equal(p!.id, 'p1');
    assert.deepEqual(
      p!.members.map((m) => m.id),
      data.projects!.find((x) => x.id === 'p1')!.members!.map((m) => m.userId),
    );
    assert.equal(p!.members.find((m) => m.id === 'u-alice')!.loginName, 'alice');
    assert.ok(
      p!.members.every((m) => !('password' in m) && !('apiKeys' in m)),
      'no credential is answered',
    );
    assert.deepEqual(p!.userGroups, [{ id: 'g-dev', name: 'Developers', memberIds: ['u-alice', 'u-carol'] }]);
  });

  it('without includes neither is answered; includes is case-insensitive; an unknown name is a 400 (sandbox choice)', async () => {
    const plain = (await h.api('GET', '/project/projects/p1')).json as Record<string, unknown>[];
    assert.equal('members' in plain[0]!, false);
    assert.equal('userGroups' in plain[0]!, false);
    const lower = (await h.api('GET', '/project/projects/p1?includes=members')).json as Record<string, unknown>[];
    assert.ok(Array.isArray(lower[0]!['members']));
    assert.equal('userGroups' in lower[0]!, false);
    const bad = await h.api('GET', '/project/projects/p1?includes=Members,Budget');
    assert.equal(bad.status, 400);
    assert.equal((bad.json as { code: string }[])[0]!.code, 'INVALID_QUERY_PARAMETER');
  });
});
