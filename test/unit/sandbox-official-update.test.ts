// The sandbox's update operation as the official Web API help describes it
// (official-reference.md sections 3, 4 and 6: U1, U2, U3, F1), over real HTTP:
// official field names, read-only system fields, assignment updates by partyId, the
// answer's shape, custom fields checked by type, and "0" for none. Each test is named
// after the official fact it checks.
import * as assert from 'node:assert/strict';
import { responseFields } from '../../src/bulk/jobValues';
import { READ_FIELDS } from '../../src/sandbox/reads';
import type { DatasetInput } from '../../src/sandbox/model';
import type { WorkItemResult } from '../../src/schema/api';
import { Harness, STAMP, entry } from './sandbox-update-harness';
import { baseFixture, task } from './sandbox-update-fixtures';

/**
 * The base fixture plus what the help's examples name: users 13, 17, 21, 23 and the
 * user group 96 in project p1; T5 assigned to 13, 17 and 23 (U3); custom fields of
 * each kind (F1, A2: custom fields are addressed by system name like system fields).
 */
function officialFixture(): DatasetInput {
  const data = baseFixture([
    task('T5', 'F2', {
      plannedTime: 300,
      managedPlannedTime: 300,
      assignments: [
        { partyId: '13', partyType: 'User', plannedTime: 100 },
        { partyId: '17', partyType: 'User', plannedTime: 100 },
        { partyId: '23', partyType: 'User', plannedTime: 100 },
      ],
      customFields: { CustomText1: 'ACME', CustomList1: 'High' },
    }),
  ]);
  for (const [id, login] of [['13', 'user13'], ['17', 'user17'], ['21', 'user21'], ['23', 'user23']] as const) {
    data.users!.push({ id, name: `User ${id}`, loginName: login, organizationId: 'o1' });
  }
  data.userGroups!.push({ id: '96', name: 'Design team', memberIds: ['21'] });
  const p1 = data.projects!.find((p) => p.id === 'p1')!;
  p1.userGroupIds = [...(p1.userGroupIds ?? []), '96'];
  for (const id of ['13', '17', '21', '23']) p1.members!.push({ userId: id, permission: 'edit' });
  data.fieldTypes = [
    { id: '1001', name: 'Customer', systemName: 'CustomText1', dataType: 'String', maxLength: 10 },
    { id: '1002', name: 'Estimate', systemName: 'CustomNumber1', dataType: 'Integer', minValue: 0, maxValue: 100 },
    { id: '1003', name: 'Accepted on', systemName: 'CustomDate1', dataType: 'Date' },
    {
      id: '1004',
      name: 'Priority',
      systemName: 'CustomList1',
      dataType: 'List',
      choices: [
        { id: '1', name: 'High', code: 'H' },
        { id: '2', name: 'Low', code: 'L' },
      ],
    },
    { id: '1005', name: 'Old note', systemName: 'CustomText2', dataType: 'String', isDeleted: true },
  ];
  return data;
}

const UPDATED_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{7}$/;

describe('sandbox update as the official Web API help describes it', function () {
  const h = new Harness('professional');
  before(() => h.start(officialFixture()));
  after(() => h.stop());
  beforeEach(() => h.reset(officialFixture()));

  describe('field names (official help section 4)', () => {
    it('fields are system names: PlannedStartDate and PlannedFinishDate written as "2022-10-10", TimeEntryCategoryId (official help U2, F1)', async () => {
      await h.accepts('T3', { fields: { PlannedStartDate: '2026-10-10', PlannedFinishDate: '2026-10-17', TimeEntryCategoryId: 'wc-1' } });
      const t3 = await h.item('T3');
      assert.deepEqual([t3.plannedStartDate, t3.plannedFinishDate, t3.timeEntryCategoryId], ['2026-10-10', '2026-10-17', 'wc-1']);
    });

    it('the old names StartDate, EndDate and WorkCategoryId are unknown fields, and the message names the official one (official help: not seen anywhere)', async () => {
      for (const [old, official, value] of [
        ['StartDate', 'PlannedStartDate', '2026-10-10'],
        ['EndDate', 'PlannedFinishDate', '2026-10-17'],
        ['WorkCategoryId', 'TimeEntryCategoryId', 'wc-1'],
      ] as const) {
        const errors = await h.rejects('T3', { fields: { [old]: value } }, 400, { code: 'FIELD_UNKNOWN_NAME', rule: 29, itemId: 'T3', field: old });
        assert.match(errors[0]!.message, new RegExp(`"${old}".*unknown field.*official system name is "${official}"`), errors[0]!.message);
      }
      // Also where field names are listed: propagateToChildren, fieldCalcTypes, clearFieldCalcTypes.
      await h.rejects('F1', { propagateToChildren: { fields: 'EndDate' } }, 400, { code: 'FIELD_UNKNOWN_NAME', rule: 29, field: 'EndDate' });
      await h.rejects('T1', { fieldCalcTypes: { StartDate: 'Children' } }, 400, { code: 'FIELD_UNKNOWN_NAME', rule: 29, field: 'StartDate' });
      await h.rejects('T1', { clearFieldCalcTypes: 'WorkCategoryId' }, 400, { code: 'FIELD_UNKNOWN_NAME', rule: 29, field: 'WorkCategoryId' });
    });

    it('a name the service does not know is refused as an unknown field with error 29, and nothing changes (official help F1, A2)', async () => {
      const errors = await h.rejects('T3', { fields: { Name: 'kept?', Priority: 'High' } }, 400, { code: 'FIELD_UNKNOWN_NAME', rule: 29, field: 'Priority' });
      assert.match(errors[0]!.message, /"Priority" may not be edited: there is no such field \(unknown field\)/);
      // A deleted custom field is not a field any more.
      await h.rejects('T3', { fields: { CustomText2: 'x' } }, 400, { code: 'FIELD_UNKNOWN_NAME', rule: 29, field: 'CustomText2' });
      // Case matters (rule 3), for custom fields too.
      const c = await h.rejects('T3', { fields: { customText1: 'x' } }, 400, { code: 'FIELD_UNKNOWN_NAME', rule: 29 });
      assert.match(c[0]!.message, /did you mean "CustomText1"/);
    });

    it('the read-only system fields Id, ProjectId, ProjectName, ProjectCode, FolderId, FolderName are refused with error 29 (official help F1)', async () => {
      for (const name of ['Id', 'ProjectId', 'ProjectName', 'ProjectCode', 'FolderId', 'FolderName']) {
        const errors = await h.rejects('T3', { fields: { [name]: 'x' } }, 400, { rule: 29, itemId: 'T3', field: name });
        assert.match(errors[0]!.message, /read.only/, errors[0]!.message);
        assert.doesNotMatch(errors[0]!.message, /no such field/);
      }
    });

    it('ItemTypeId is changed with changeItemTypeTo, ParentId and ParentName with moveParentTo: error 29 names the member (official help F1)', async () => {
      for (const [name, member, value] of [
        ['ItemTypeId', 'changeItemTypeTo', 'milestone'],
        ['ParentId', 'moveParentTo', 'F2'],
        ['ParentName', 'moveParentTo', 'Item F2'],
      ] as const) {
        const errors = await h.rejects('T3', { fields: { [name]: value } }, 400, { code: 'FIELD_NOT_EDITABLE_HERE', rule: 29, itemId: 'T3', field: name });
        assert.match(errors[0]!.message, new RegExp(`"${name}" may not be edited: it is a read-only system field; change it with "${member}"`), errors[0]!.message);
      }
      // The members themselves do it.
      await h.accepts('T3', { changeItemTypeTo: 'milestone', moveParentTo: 'F2' });
      const t3 = await h.item('T3');
      assert.deepEqual([t3.itemTypeId, t3.parentId], ['milestone', 'F2']);
    });
  });

  describe('assignments (official help U3)', () => {
    it('the help\'s own assignment example is accepted: updates by partyId and plannedTime without user, removes as one comma-separated string (official help U3)', async () => {
      const a = await h.accepts('T5', {
        assignmentChange: {
          adds: [
            { partyId: '21', partyType: 'User', plannedTime: 320 },
            { partyId: '96', partyType: 'UserGroup' },
          ],
          updates: [{ partyId: '23', plannedTime: 120 }],
          removes: '13,17',
          recalculatePlannedTimeByAssignment: true,
        },
      });
      const expected = [
        { partyId: '23', partyType: 'User', plannedTime: 120 },
        { partyId: '21', partyType: 'User', plannedTime: 320 },
        { partyId: '96', partyType: 'UserGroup', plannedTime: 0 },
      ];
      const t5 = await h.item('T5');
      assert.deepEqual(t5.assignments, expected);
      assert.equal(t5.plannedTime, 440, 'recalculatePlannedTimeByAssignment: the sum of the assignments');
      // Set by the server (nothing was sent in fields): answered.
      assert.deepEqual(entry(a.items, 'T5')['assignments'], expected.map((x) => ({ partyId: x.partyId, plannedTime: x.plannedTime, partyType: x.partyType })));
      assert.equal(entry(a.items, 'T5')['plannedTime'], 440);
      assert.equal(entry(a.items, 'T5')['managedPlannedTime'], 440);
    });

    it('an assignment update named by user is still accepted, alone or with partyId (service-api.md AssignmentUpdate)', async () => {
      await h.accepts('T5', { assignmentChange: { updates: [{ user: 'user23', plannedTime: 50 }] } });
      assert.equal((await h.item('T5')).assignments.find((x) => x.partyId === '23')!.plannedTime, 50);
      await h.accepts('T5', { assignmentChange: { updates: [{ user: '#23', partyId: '21' }] } });
      assert.deepEqual((await h.item('T5')).assignments.map((x) => x.partyId), ['13', '17', '21']);
    });

    it('an assignment update naming neither partyId nor user is refused, naming the entry; nothing changes', async () => {
      const errors = await h.rejects('T5', { assignmentChange: { updates: [{ partyId: '23', plannedTime: 1 }, { plannedTime: 120 }] } }, 400, {
        code: 'FIELD_VALUE_INVALID',
        itemId: 'T5',
        field: 'assignmentChange.updates[1]',
      });
      assert.match(errors[0]!.message, /assignmentChange\.updates\[1\].*"partyId".*"user".*\{"plannedTime":120\}/);
    });

    it('an assignment update by partyId needs the party to be assigned (or to exist: error 4)', async () => {
      await h.rejects('T5', { assignmentChange: { updates: [{ partyId: '21', plannedTime: 1 }] } }, 400, { code: 'ASSIGNMENT_NOT_FOUND', itemId: 'T5' });
      await h.rejects('T5', { assignmentChange: { updates: [{ partyId: '999', plannedTime: 1 }] } }, 400, {
        code: 'USER_NOT_FOUND',
        rule: 4,
        field: 'assignmentChange.updates[0].partyId',
      });
    });
  });

  describe('the answer (official help U2)', () => {
    it('an update answers {items, affectedItems, addedTimeEntryIds, addedScheduleDependencyIds}, one item per updated ID in request order (official help U2)', async () => {
      const r = await h.put(['T2', 'T1'], { fields: { Description: 'x' } });
      assert.equal(r.status, 200, r.raw);
      const answer = r.json as Record<string, unknown>;
      assert.deepEqual(Object.keys(answer), ['items', 'affectedItems', 'addedTimeEntryIds', 'addedScheduleDependencyIds']);
      assert.deepEqual(answer['affectedItems'], []);
      assert.deepEqual(answer['addedTimeEntryIds'], []);
      assert.deepEqual(answer['addedScheduleDependencyIds'], []);
      assert.deepEqual((answer['items'] as { id: string }[]).map((i) => i.id), ['T2', 'T1']);
    });

    it('each item has id, itemWarnings [], updatedAt without zone and with 7 fractional digits, and updatedBy; stored the same way (official help U2)', async () => {
      const clock = new Harness('professional', new Date('2026-10-14T05:18:49.671Z'));
      await clock.start(officialFixture());
      try {
        const a = await clock.accepts('T3', { fields: { Description: 'x' } }, 'alice');
        assert.deepEqual(entry(a.items, 'T3'), { id: 'T3', itemWarnings: [], updatedAt: '2026-10-14T05:18:49.6710000', updatedBy: 'u-alice' });
        const t3 = await clock.item('T3');
        assert.equal(t3.updatedAt, '2026-10-14T05:18:49.6710000');
        assert.match(t3.updatedAt, UPDATED_AT);
        assert.equal(t3.userUpdatedAt, '2026-10-14T05:18:49.6710000');
        assert.equal(t3.updatedBy, 'u-alice');
      } finally {
        await clock.stop();
      }
      assert.match(STAMP, UPDATED_AT);
    });

    it('an update answers only values that differ from the values sent (official help U2)', async () => {
      // The help's example: the dates sent are stored as sent, so the item answers none of them.
      const a = await h.accepts('T3', { fields: { PlannedStartDate: '2026-10-10', PlannedFinishDate: '2026-10-17', Name: 'New name', LeaderId: 'u-carol' } });
      assert.deepEqual(entry(a.items, 'T3'), { id: 'T3', itemWarnings: [], updatedAt: STAMP, updatedBy: '2001' });
      // A date written with a time part is the same date: stored as sent.
      const b = await h.accepts('T3', { fields: { PlannedFinishDate: '2026-10-18T00:00:00' } });
      assert.deepEqual(entry(b.items, 'T3'), { id: 'T3', itemWarnings: [], updatedAt: STAMP, updatedBy: '2001' });
      // Sent, then changed by the server in the same request (shifted; completed): answered with the resulting value.
      const c = await h.accepts('T3', { fields: { PlannedStartDate: '2026-10-01', ActualProgress: 40 }, moveScheduleDays: 2, setCompleted: true });
      assert.deepEqual(entry(c.items, 'T3'), {
        id: 'T3',
        plannedStartDate: '2026-10-03T00:00:00',
        plannedFinishDate: '2026-10-20T00:00:00',
        actualProgress: 100,
        itemWarnings: [],
        updatedAt: STAMP,
        updatedBy: '2001',
      });
    });

    it('values the server recalculates are answered, with camelCase names of the system names (official help U2)', async () => {
      const a = await h.accepts('T1', { moveScheduleDays: -1, setTimeEntryLocked: true, changeItemTypeTo: 'milestone' });
      assert.deepEqual(entry(a.items, 'T1'), {
        id: 'T1',
        itemTypeId: 'milestone',
        plannedStartDate: '2026-02-28T00:00:00',
        plannedFinishDate: '2026-03-09T00:00:00',
        isTimeEntryLocked: true,
        itemWarnings: [],
        updatedAt: STAMP,
        updatedBy: '2001',
      });
    });

    it('items changed through other items (setCompleted on children, propagation) are answered in affectedItems, not in items (official help U2)', async () => {
      const a = await h.accepts('F1a', { setCompleted: true, fields: { LeaderId: 'u-carol' }, propagateToChildren: { fields: 'LeaderId' } });
      assert.deepEqual(a.items.map((i) => i['id']), ['F1a']);
      assert.deepEqual(entry(a.items, 'F1a'), { id: 'F1a', actualProgress: 100, itemWarnings: [], updatedAt: STAMP, updatedBy: '2001' });
      assert.deepEqual(a.affectedItems.map((i) => i['id']).sort(), ['T1', 'T2', 'T3']);
      // Sent to F1a, not to its children: they answer the propagated leader.
      assert.deepEqual(entry(a.affectedItems, 'T2'), { id: 'T2', actualProgress: 100, leaderId: 'u-carol', itemWarnings: [], updatedAt: STAMP, updatedBy: '2001' });
    });

    it('every answered member, its first letter upper-cased (the client\'s responseFields), is a read field or a custom field system name', async () => {
      await h.accepts('T1', { fieldCalcTypes: { PlannedTime: 'Manual' } });
      const answers: WorkItemResult[] = [];
      const collect = (a: { items: Record<string, unknown>[]; affectedItems: Record<string, unknown>[] }) =>
        answers.push(...(a.items as WorkItemResult[]), ...(a.affectedItems as WorkItemResult[]));
      collect(await h.accepts('T4', { moveParentTo: 'F2', setCompleted: true, setTimeEntryLocked: true, changeItemTypeTo: 'milestone' }));
      collect(await h.accepts('T1', { moveScheduleDays: 1, clearAllFieldCalcTypes: true, fields: { Assignments: [{ partyId: 'u-carol' }], CustomList1: 'L' } }));
      collect(await h.accepts('T1', { assignmentChange: { adds: [{ partyId: 'u-alice', plannedTime: 5 }], recalculatePlannedTimeByAssignment: true } }));
      collect(await h.accepts('D2', { restore: true }));
      collect(await h.accepts('F2', { fields: { CustomText1: 'x', StatusTypeId: '53' }, propagateToChildren: { fields: 'CustomText1,StatusTypeId' } }));
      const names = new Set(answers.flatMap((i) => Object.keys(responseFields(i))));
      assert.ok(names.size >= 10, [...names].join(', '));
      const custom = new Set(officialFixture().fieldTypes!.map((f) => f.systemName));
      const strays = [...names].filter((n) => !(n in READ_FIELDS) && !custom.has(n));
      assert.deepEqual(strays, [], `answered members that are no read field: ${strays.join(', ')}`);
    });
  });

  describe('answered values in the form reads give them', () => {
    it('each answered value equals what GET /workitem/workItems/{ids} then reads for that field: no ID is "0", dates yyyy-MM-ddT00:00:00 (official help section 3, G1)', async () => {
      const bodies: [string[], Record<string, unknown>][] = [
        [['F1a'], { fields: { LeaderId: '0', CustomDate1: '2026-10-10', CustomList1: 'H' }, propagateToChildren: { fields: 'LeaderId,CustomDate1,CustomList1' }, moveScheduleDays: 1, setCompleted: true }],
        [['T1', 'T2'], { clearSchedule: true, setTimeEntryLocked: true, fields: { ProcessCategoryId: 'pc-1' }, propagateToChildren: { fields: 'ProcessCategoryId' } }],
        [['T4'], { moveParentTo: 'F2', changeItemTypeTo: 'milestone', fieldCalcTypes: { PlannedTime: 'Manual' }, assignmentChange: { adds: [{ partyId: 'u-carol', plannedTime: 30 }], recalculatePlannedTimeByAssignment: true } }],
        [['T5'], { fields: { CustomText1: null, CustomList1: 'L' }, assignmentChange: { removes: '13', updates: [{ partyId: '23', plannedTime: 7 }] } }],
      ];
      let compared = 0;
      for (const [ids, body] of bodies) {
        const a = await h.accepts(ids, body);
        for (const item of [...a.items, ...a.affectedItems]) {
          const fields = Object.keys(responseFields(item as WorkItemResult));
          if (fields.length === 0) continue;
          const read = (await h.read([String(item['id'])], fields)).get(String(item['id']))!;
          for (const f of fields) {
            const member = f.charAt(0).toLowerCase() + f.slice(1);
            const answered = item[member];
            // Reads add each assignee's name; the answer has partyId, plannedTime and partyType.
            const expected = f === 'Assignments' ? (read[f] as Record<string, unknown>[]).map(({ partyName: _n, ...rest }) => rest) : read[f];
            assert.deepEqual(answered, expected, `${String(item['id'])}.${member}`);
            compared++;
          }
        }
      }
      assert.ok(compared >= 20, `${compared} values compared`);
    });
  });

  describe('custom fields (official help section 4: addressed by system name like system fields)', () => {
    it('a custom field of each type is accepted by its system name and stored; a value the server changes (a list choice by code) is answered', async () => {
      const a = await h.accepts('T3', { fields: { CustomText1: 'Globex', CustomNumber1: 100, CustomDate1: '2026-10-10', CustomList1: 'L' } });
      // Stored as sent but for the list value, which is stored as the choice's name.
      assert.deepEqual(entry(a.items, 'T3'), { id: 'T3', customList1: 'Low', itemWarnings: [], updatedAt: STAMP, updatedBy: '2001' });
      const t3 = (await h.item('T3')) as unknown as { customFields: Record<string, unknown> };
      assert.deepEqual(t3.customFields, { CustomText1: 'Globex', CustomNumber1: 100, CustomDate1: '2026-10-10', CustomList1: 'Low' });
      // null clears a value.
      await h.accepts('T3', { fields: { CustomNumber1: null } });
      assert.equal('CustomNumber1' in ((await h.item('T3')) as unknown as { customFields: Record<string, unknown> }).customFields, false);
    });

    it('a custom value of the wrong kind is refused naming the field, the value and what was expected; the whole request is refused, nothing changes', async () => {
      const cases: [string, unknown, RegExp][] = [
        ['CustomText1', 'much too long for ten', /text of at most 10 characters/],
        ['CustomText1', 5, /text/],
        ['CustomNumber1', 101, /a number from 0 to 100/],
        ['CustomNumber1', 1.5, /a whole number/],
        ['CustomDate1', '2026-02-30', /a date as yyyy-MM-dd/],
        ['CustomDate1', '10/10/2026', /a date as yyyy-MM-dd/],
        ['CustomList1', 'Medium', /one of the choices "High", "Low"/],
      ];
      for (const [field, value, expected] of cases) {
        const errors = await h.rejects(['T3', 'T2'], { fields: { Name: 'changed', [field]: value } }, 400, { code: 'FIELD_VALUE_INVALID', itemId: 'T3', field });
        const message = errors[0]!.message;
        assert.ok(message.includes(`"${field}"`) && message.includes(JSON.stringify(value)), message);
        assert.match(message, expected);
      }
    });

    it('propagateToChildren copies a custom field to the lowest-level sub-items (affectedItems); fieldCalcTypes has none for it (error 16)', async () => {
      const a = await h.accepts('F1a', { fields: { CustomNumber1: 7 }, propagateToChildren: { fields: 'CustomNumber1' } });
      assert.deepEqual(a.affectedItems.map((i) => [i['id'], i['customNumber1']]).sort(), [['T1', 7], ['T2', 7], ['T3', 7]]);
      await h.rejects('T1', { fieldCalcTypes: { CustomNumber1: 'Manual' } }, 400, { code: 'CALC_TYPE_NOT_ALLOWED', rule: 16, field: 'CustomNumber1' });
    });
  });

  describe('"0" means none for IDs (official help section 3)', () => {
    it('LeaderId, ProcessCategoryId and TimeEntryCategoryId "0" clear the value, null too (official help section 3, F1: default 0 (unset))', async () => {
      await h.accepts('T1', { fields: { ProcessCategoryId: 'pc-1', TimeEntryCategoryId: 'wc-1' } });
      const a = await h.accepts('T1', { fields: { LeaderId: '0', ProcessCategoryId: '0', TimeEntryCategoryId: '0' } });
      const t1 = await h.item('T1');
      assert.deepEqual([t1.leaderId, t1.processCategoryId, t1.timeEntryCategoryId], [null, null, null]);
      // "0" is none, as sent: not answered.
      assert.deepEqual(entry(a.items, 'T1'), { id: 'T1', itemWarnings: [], updatedAt: STAMP, updatedBy: '2001' });
      await h.accepts('T1', { fields: { LeaderId: 'u-alice', ProcessCategoryId: 'pc-1' } });
      await h.accepts('T1', { fields: { LeaderId: null, ProcessCategoryId: null } });
      const again = await h.item('T1');
      assert.deepEqual([again.leaderId, again.processCategoryId], [null, null]);
    });

    it('StatusTypeId "0" is not an available status type (error 8): every item has a status', async () => {
      await h.rejects('T1', { fields: { StatusTypeId: '0' } }, 400, { code: 'STATUS_TYPE_NOT_AVAILABLE', rule: 8, field: 'StatusTypeId' });
    });
  });
});
