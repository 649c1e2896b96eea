// The sandbox's update operation (PUT /workitem/workItems/{ids}) over real HTTP:
// every error condition 1-29, the limits and the state transitions of service-api.md,
// each checked in the answer and through /_sandbox/ (the Standard edition's rules:
// sandbox-update-standard.test.ts).
import * as assert from 'node:assert/strict';
import { Harness, STAMP, childOrder, entry } from './sandbox-update-harness';
import { baseFixture, chain, task } from './sandbox-update-fixtures';

describe('sandbox update (PUT /workitem/workItems/{ids})', function () {
  const h = new Harness('professional');
  before(() => h.start());
  after(() => h.stop());
  beforeEach(() => h.reset());

  describe('errors 1-29', () => {
    it('error 1: the name is empty', async () => {
      await h.rejects('T1', { fields: { Name: '' } }, 400, { code: 'NAME_EMPTY', rule: 1, itemId: 'T1', field: 'Name' });
      await h.rejects('T1', { fields: { Name: '   ' } }, 400, { code: 'NAME_EMPTY', rule: 1 });
      await h.rejects('T1', { fields: { Name: null } }, 400, { code: 'NAME_EMPTY', rule: 1 });
    });

    it('error 2: the name is longer than 256 characters', async () => {
      await h.rejects('T1', { fields: { Name: 'n'.repeat(257) } }, 400, { code: 'NAME_TOO_LONG', rule: 2, itemId: 'T1', field: 'Name' });
    });

    it('error 3: the code is longer than 256 characters', async () => {
      await h.rejects('T1', { fields: { Code: 'c'.repeat(257) } }, 400, { code: 'CODE_TOO_LONG', rule: 3, itemId: 'T1', field: 'Code' });
    });

    it('error 4: a specified user does not exist', async () => {
      await h.rejects('T1', { fields: { LeaderId: 'u-nobody' } }, 400, { code: 'USER_NOT_FOUND', rule: 4, field: 'LeaderId' });
      await h.rejects('T1', { fields: { LeaderId: 'u-gone' } }, 400, { code: 'USER_NOT_FOUND', rule: 4 });
      await h.rejects('T1', { assignmentChange: { adds: [{ user: 'nobody@example.com' }] } }, 400, {
        code: 'USER_NOT_FOUND',
        rule: 4,
        field: 'assignmentChange.adds[0].user',
      });
      await h.rejects('T1', { assignmentChange: { removeUsers: ['alice', 'nobody'] } }, 400, {
        code: 'USER_NOT_FOUND',
        rule: 4,
        field: 'assignmentChange.removeUsers[1]',
      });
      await h.rejects('T1', { assignmentChange: { removes: 'u-alice,u-nobody' } }, 400, { code: 'USER_NOT_FOUND', rule: 4 });
      await h.rejects('T1', { assignmentChange: { adds: [{ partyId: 'g-nobody', partyType: 'UserGroup' }] } }, 400, {
        code: 'USER_GROUP_NOT_FOUND',
        rule: 4,
      });
      // Two users share the name "Taro Yamada": a name that matches several users is not a user.
      await h.rejects('T1', { assignmentChange: { adds: [{ user: 'Taro Yamada' }] } }, 400, { code: 'USER_AMBIGUOUS', rule: 4 });
    });

    it('error 5: the end date is earlier than the start date', async () => {
      await h.rejects('T1', { fields: { PlannedStartDate: '2026-03-10', PlannedFinishDate: '2026-03-01' } }, 400, {
        code: 'END_BEFORE_START',
        rule: 5,
        itemId: 'T1',
        field: 'PlannedFinishDate',
      });
      // Only the end date sent: compared with the stored start date (2026-03-01).
      await h.rejects('T1', { fields: { PlannedFinishDate: '2026-02-28' } }, 400, { code: 'END_BEFORE_START', rule: 5 });
    });

    it('error 6: after a schedule shift the start date is outside the allowed range', async () => {
      // T1 starts 2026-03-01; the allowed range starts 2026-01-01.
      const errors = await h.rejects('T1', { moveScheduleDays: -100 }, 400, {
        code: 'SHIFTED_START_OUT_OF_RANGE',
        rule: 6,
        itemId: 'T1',
        field: 'PlannedStartDate',
      });
      assert.ok(errors[0]!.message.includes('2025-11-21'), errors[0]!.message);
    });

    it('error 7: after a schedule shift the end date is outside the allowed range', async () => {
      // T2 is 2026-12-20..12-28; +5 days keeps the start (12-25) but the end (2027-01-02) leaves the range.
      const errors = await h.rejects('T2', { moveScheduleDays: 5 }, 400, { code: 'SHIFTED_END_OUT_OF_RANGE', rule: 7, itemId: 'T2', field: 'PlannedFinishDate' });
      assert.equal(errors.length, 1);
    });

    it('error 8: the status type is not available', async () => {
      await h.rejects('T1', { fields: { StatusTypeId: 'st-old' } }, 400, { code: 'STATUS_TYPE_NOT_AVAILABLE', rule: 8, field: 'StatusTypeId' });
      await h.rejects('T1', { fields: { StatusTypeId: 'st-none' } }, 400, { code: 'STATUS_TYPE_NOT_AVAILABLE', rule: 8 });
    });

    it('error 9: the process classification is not available', async () => {
      await h.rejects('T1', { fields: { ProcessCategoryId: 'pc-old' } }, 400, { code: 'PROCESS_CATEGORY_NOT_AVAILABLE', rule: 9, field: 'ProcessCategoryId' });
    });

    it('error 10: the work classification is not available', async () => {
      await h.rejects('T1', { fields: { TimeEntryCategoryId: '73' } }, 400, { code: 'WORK_CATEGORY_NOT_AVAILABLE', rule: 10, field: 'TimeEntryCategoryId' });
    });

    it('error 11: the item type is not available', async () => {
      await h.rejects('T1', { changeItemTypeTo: 'retired' }, 400, { code: 'ITEM_TYPE_NOT_AVAILABLE', rule: 11, itemId: 'T1', field: 'changeItemTypeTo' });
      await h.rejects('T1', { changeItemTypeTo: 'no-such-type' }, 400, { code: 'ITEM_TYPE_NOT_AVAILABLE', rule: 11 });
    });

    it('error 12: item type changed to a folder type while the parent is not a folder', async () => {
      // T4a's parent T4 is a task.
      await h.rejects('T4a', { changeItemTypeTo: 'folder' }, 400, { code: 'FOLDER_TYPE_UNDER_NON_FOLDER', rule: 12, itemId: 'T4a' });
    });

    it('error 13: item type changed to a non-folder type while a child is a folder', async () => {
      // F1 has the folder child F1a.
      await h.rejects('F1', { changeItemTypeTo: 'task' }, 400, { code: 'NON_FOLDER_TYPE_WITH_FOLDER_CHILD', rule: 13, itemId: 'F1' });
    });

    it('error 14: a user who is not a project member is given as leader', async () => {
      await h.rejects('T1', { fields: { LeaderId: 'u-bob' } }, 400, { code: 'LEADER_NOT_MEMBER', rule: 14, itemId: 'T1', field: 'LeaderId' });
    });

    it('error 15: a user who is not a project member is given in an assignment', async () => {
      await h.rejects('T1', { assignmentChange: { adds: [{ partyId: 'u-bob' }] } }, 400, { code: 'ASSIGNEE_NOT_MEMBER', rule: 15, itemId: 'T1' });
      await h.rejects('T1', { assignmentChange: { adds: [{ user: 'bob' }] } }, 400, { code: 'ASSIGNEE_NOT_MEMBER', rule: 15 });
      await h.rejects('T1', { fields: { Assignments: [{ partyId: 'u-bob', plannedTime: 60 }] } }, 400, {
        code: 'ASSIGNEE_NOT_MEMBER',
        rule: 15,
        field: 'Assignments',
      });
      // A user group that is not a group of the project.
      await h.rejects('T1', { assignmentChange: { adds: [{ partyId: 'g-ext', partyType: 'UserGroup' }] } }, 400, { code: 'ASSIGNEE_NOT_MEMBER', rule: 15 });
    });

    it('error 16: a field determination method is outside its allowed range', async () => {
      await h.rejects('T1', { fieldCalcTypes: { PlannedTime: 'Bogus' } }, 400, { code: 'CALC_TYPE_NOT_ALLOWED', rule: 16, itemId: 'T1', field: 'PlannedTime' });
      await h.rejects('T1', { fieldCalcTypes: { Name: 'Manual' } }, 400, { code: 'CALC_TYPE_NOT_ALLOWED', rule: 16, field: 'Name' });
      await h.rejects('T1', { fieldCalcTypes: { ActualProgress: 'Formula' } }, 400, { code: 'CALC_TYPE_FORMULA', rule: 16, field: 'ActualProgress' });
    });

    it('error 17: the destination parent item has actuals entered', async () => {
      await h.rejects('T1', { moveParentTo: 'T4' }, 400, { code: 'PARENT_HAS_ACTUALS', rule: 17, itemId: 'T1', field: 'moveParentTo' });
    });

    it('error 18: the destination parent is not a folder while the moved item is a folder', async () => {
      await h.rejects('F2', { moveParentTo: 'T3' }, 400, { code: 'FOLDER_UNDER_NON_FOLDER', rule: 18, itemId: 'F2', field: 'moveParentTo' });
      // A task may go under a task (without actuals).
      await h.accepts('T1', { moveParentTo: 'T3' });
      assert.equal((await h.item('T1')).parentId, 'T3');
    });

    it('error 19: the destination parent is on the 16th level', async () => {
      await h.reset(baseFixture(chain(16)));
      await h.rejects('T3', { moveParentTo: 'C16' }, 400, { code: 'PARENT_AT_MAX_DEPTH', rule: 19, itemId: 'T3', field: 'moveParentTo' });
    });

    it('error 20: more than one of orderAfter, orderBefore, orderFirst, orderLast is given', async () => {
      await h.rejects('T3', { moveParentTo: 'F1a', orderFirst: true, orderAfter: 'T1' }, 400, { code: 'ORDER_MULTIPLE', rule: 20 });
      await h.rejects('T3', { moveParentTo: 'F1a', orderBefore: 'T1', orderLast: true }, 400, { code: 'ORDER_MULTIPLE', rule: 20 });
    });

    it('error 21: one of the order parameters is given while moveParentTo is missing', async () => {
      await h.rejects('T3', { orderFirst: true }, 400, { code: 'ORDER_WITHOUT_PARENT', rule: 21, field: 'orderFirst' });
      await h.rejects('T3', { orderBefore: '0' }, 400, { code: 'ORDER_WITHOUT_PARENT', rule: 21, field: 'orderBefore' });
    });

    it('error 22: an item named by those parameters is not in the same project', async () => {
      await h.rejects('T3', { moveParentTo: 'Q1' }, 400, { code: 'OTHER_PROJECT', rule: 22, itemId: 'T3', field: 'moveParentTo' });
      await h.rejects('T3', { moveParentTo: 'F1a', orderBefore: 'Q2' }, 400, { code: 'OTHER_PROJECT', rule: 22, field: 'orderBefore' });
      await h.rejects('T3', { copyAssignmentsFrom: 'Q2' }, 400, { code: 'OTHER_PROJECT', rule: 22, field: 'copyAssignmentsFrom' });
    });

    it('error 23: an item named by those parameters does not exist or is deleted', async () => {
      await h.rejects('T3', { moveParentTo: 'nope' }, 400, { code: 'REFERENCED_ITEM_NOT_FOUND', rule: 23, itemId: 'T3', field: 'moveParentTo' });
      await h.rejects('T3', { moveParentTo: 'D2' }, 400, { code: 'REFERENCED_ITEM_NOT_FOUND', rule: 23 });
      await h.rejects('T3', { moveParentTo: 'F1a', orderAfter: 'D1' }, 400, { code: 'REFERENCED_ITEM_NOT_FOUND', rule: 23, field: 'orderAfter' });
      await h.rejects('T3', { copyAssignmentsFrom: 'D2a' }, 400, { code: 'REFERENCED_ITEM_NOT_FOUND', rule: 23, field: 'copyAssignmentsFrom' });
    });

    it('error 24: the item to restore is a folder and the restore destination is not a folder', async () => {
      await h.rejects('D2', { restore: true, restoreToParent: 'T3' }, 400, { code: 'RESTORE_FOLDER_UNDER_NON_FOLDER', rule: 24, itemId: 'D2', field: 'restoreToParent' });
    });

    it('error 25: the restore destination folder is deleted', async () => {
      // DX's own parent DF is deleted.
      await h.rejects('DX', { restore: true }, 400, { code: 'RESTORE_DESTINATION_DELETED', rule: 25, itemId: 'DX' });
      await h.rejects('T3', { restore: true }, 400, { code: 'NOT_DELETED' });
      await h.rejects('D1', { restore: true, restoreToParent: 'D2' }, 400, { code: 'RESTORE_DESTINATION_DELETED', rule: 25, field: 'restoreToParent' });
    });

    it('error 26: the restore destination folder belongs to another project', async () => {
      await h.rejects('D1', { restore: true, restoreToParent: 'Q1' }, 400, { code: 'RESTORE_DESTINATION_OTHER_PROJECT', rule: 26, itemId: 'D1' });
    });

    it('error 27: the restore destination item is on the 16th level', async () => {
      await h.reset(baseFixture(chain(16)));
      await h.rejects('D1', { restore: true, restoreToParent: 'C16' }, 400, { code: 'RESTORE_DESTINATION_AT_MAX_DEPTH', rule: 27, itemId: 'D1' });
    });

    it('error 28: the restored item has an item type that the system does not permit', async () => {
      await h.rejects('DR', { restore: true }, 400, { code: 'RESTORE_ITEM_TYPE_NOT_PERMITTED', rule: 28, itemId: 'DR' });
    });

    it('error 29: a field is specified that may not be edited', async () => {
      await h.rejects('T1', { fields: { ActualTime: 5 } }, 400, { code: 'FIELD_NOT_EDITABLE', rule: 29, itemId: 'T1', field: 'ActualTime' });
      await h.rejects('T1', { fields: { Bogus: 1 } }, 400, { code: 'FIELD_UNKNOWN_NAME', rule: 29, field: 'Bogus' });
      await h.rejects('T1', { propagateToChildren: { fields: 'Name' } }, 400, { code: 'FIELD_NOT_EDITABLE_HERE', rule: 29, field: 'Name' });
      await h.rejects('NT', { fields: { ActualProgress: 50 } }, 400, { code: 'FIELD_NOT_EDITABLE_HERE', rule: 29, itemId: 'NT' });
    });
  });

  describe('rules of the operation', () => {
    it('rule 1: several related fields are processed in one documented order', async () => {
      // clearSchedule runs before fields, fields before moveScheduleDays: the new dates are set, then shifted.
      const a = await h.accepts('T1', { clearSchedule: true, fields: { PlannedStartDate: '2026-05-01', PlannedFinishDate: '2026-05-03' }, moveScheduleDays: 2 });
      assert.equal(entry(a.items, 'T1')['plannedStartDate'], '2026-05-03T00:00:00');
      assert.equal(entry(a.items, 'T1')['plannedFinishDate'], '2026-05-05T00:00:00');
      // setCompleted runs after fields.ActualProgress and wins.
      await h.accepts('T3', { fields: { ActualProgress: 40 }, setCompleted: true });
      assert.equal((await h.item('T3')).actualProgress, 100);
    });

    it('rule 2: cost values are ignored for a caller without cost permission (and not returned)', async () => {
      const a = await h.accepts('T1', { fields: { PlannedCost: 5, Description: 'x' }, fieldCalcTypes: { PlannedCost: 'Manual' } }, 'nocost');
      assert.equal('plannedCost' in entry(a.items, 'T1'), false);
      const stored = await h.item('T1');
      assert.equal(stored.plannedCost, 1000);
      assert.equal(stored.description, 'x');
      assert.deepEqual(stored.fieldCalcTypes, {});
      const b = await h.accepts('T1', { fields: { PlannedCost: 5 } }, 'admin');
      assert.equal('plannedCost' in entry(b.items, 'T1'), false, 'stored as sent: not answered (official help U2)');
      assert.equal(entry(b.items, 'T1')['updatedAt'], STAMP);
      assert.equal((await h.item('T1')).plannedCost, 5);
    });

    it('rule 3: field names in fields are case-sensitive', async () => {
      const errors = await h.rejects('T1', { fields: { name: 'lower case' } }, 400, { code: 'FIELD_UNKNOWN_NAME', rule: 29, field: 'name' });
      assert.match(errors[0]!.message, /did you mean "Name"/);
    });

    it('rule 4: one order parameter, with moveParentTo, and value 0 for orderBefore/orderAfter', async () => {
      // F1a children: T1, T2, T3.
      await h.accepts('T3', { moveParentTo: 'F1a', orderFirst: true });
      assert.deepEqual(childOrder(await h.dump(), 'F1a'), ['T3', 'T1', 'T2']);
      await h.accepts('T3', { moveParentTo: 'F1a', orderLast: true });
      assert.deepEqual(childOrder(await h.dump(), 'F1a'), ['T1', 'T2', 'T3']);
      await h.accepts('T3', { moveParentTo: 'F1a', orderBefore: 'T2' });
      assert.deepEqual(childOrder(await h.dump(), 'F1a'), ['T1', 'T3', 'T2']);
      await h.accepts('T1', { moveParentTo: 'F1a', orderAfter: 'T2' });
      assert.deepEqual(childOrder(await h.dump(), 'F1a'), ['T3', 'T2', 'T1']);
      await h.accepts('T1', { moveParentTo: 'F1a', orderAfter: '0' }); // 0: the beginning
      assert.deepEqual(childOrder(await h.dump(), 'F1a'), ['T1', 'T3', 'T2']);
      await h.accepts('T1', { moveParentTo: 'F1a', orderBefore: '0' }); // 0: the end
      assert.deepEqual(childOrder(await h.dump(), 'F1a'), ['T3', 'T2', 'T1']);
      // false does nothing and needs no moveParentTo.
      await h.accepts('T1', { orderFirst: false, orderLast: false });
    });
  });

  describe('state transitions', () => {
    it('deleted item -> restored (restore = true; all other parameters ignored)', async () => {
      const a = await h.accepts('D2', { restore: true, fields: { Name: '' }, moveScheduleDays: 999, orderFirst: true });
      const e = entry(a.items, 'D2');
      assert.equal(e['isDeleted'], false);
      assert.equal(e['updatedAt'], STAMP);
      assert.equal(e['updatedBy'], '2001');
      // Its deleted child comes back with it.
      assert.equal(entry(a.affectedItems, 'D2a')['isDeleted'], false);
      const d2 = await h.item('D2');
      assert.equal(d2.isDeleted, false);
      assert.equal(d2.name, 'Item D2');
      assert.equal(d2.parentId, 'F1');
      assert.equal((await h.item('D2a')).isDeleted, false);
    });

    it('deleted item -> restored into restoreToParent', async () => {
      const a = await h.accepts('D1', { restore: true, restoreToParent: 'F1a' });
      assert.equal(entry(a.items, 'D1')['parentId'], 'F1a');
      const d1 = await h.item('D1');
      assert.deepEqual([d1.isDeleted, d1.parentId], [false, 'F1a']);
      assert.deepEqual(childOrder(await h.dump(), 'F1a'), ['T1', 'T2', 'T3', 'D1']);
    });

    it('restoring an item that is not deleted is an error; updating a deleted item without restore is an error', async () => {
      await h.rejects('T1', { restore: true }, 400, { code: 'NOT_DELETED', itemId: 'T1' });
      await h.rejects('D1', { fields: { Name: 'x' } }, 400, { code: 'WORK_ITEM_DELETED', rule: 23, itemId: 'D1' });
    });

    it('any item -> complete (setCompleted = true): the item and its child items get progress 100', async () => {
      const a = await h.accepts('F1', { setCompleted: true });
      assert.equal(entry(a.items, 'F1')['actualProgress'], 100);
      for (const id of ['F1a', 'T1', 'T2', 'T3', 'T4', 'T4a']) {
        assert.equal(entry(a.affectedItems, id)['actualProgress'], 100);
        assert.equal(entry(a.affectedItems, id)['updatedAt'], STAMP);
        assert.equal((await h.item(id)).actualProgress, 100);
      }
      assert.equal((await h.item('D2a')).actualProgress, 0, 'deleted items stay as they are');
    });

    it('any item -> incomplete (setCompleted = false): the item and its child items get progress 0', async () => {
      await h.accepts('F1', { setCompleted: true });
      const a = await h.accepts('F1a', { setCompleted: false });
      assert.equal(entry(a.items, 'F1a')['actualProgress'], 0);
      for (const id of ['T1', 'T2', 'T3']) assert.equal((await h.item(id)).actualProgress, 0);
      assert.equal((await h.item('F1')).actualProgress, 100);
    });

    it('setCompleted leaves an item that does not track progress alone', async () => {
      const a = await h.accepts('NT', { setCompleted: true });
      assert.deepEqual(entry(a.items, 'NT'), { id: 'NT', itemWarnings: [] });
      assert.equal((await h.item('NT')).actualProgress, 10);
    });

    it('time entry unlocked -> locked (setTimeEntryLocked = true) for the item and its descendants', async () => {
      const a = await h.accepts('F1a', { setTimeEntryLocked: true });
      assert.equal(entry(a.items, 'F1a')['isTimeEntryLocked'], true);
      for (const id of ['T1', 'T2', 'T3']) {
        assert.equal(entry(a.affectedItems, id)['isTimeEntryLocked'], true);
        assert.equal((await h.item(id)).timeEntryLocked, true);
      }
      assert.equal((await h.item('F1')).timeEntryLocked, false);
    });

    it('time entry locked -> unlocked (setTimeEntryLocked = false) for the item and its descendants', async () => {
      await h.accepts('F1', { setTimeEntryLocked: true });
      await h.accepts('F1a', { setTimeEntryLocked: false });
      for (const id of ['F1a', 'T1', 'T2', 'T3']) assert.equal((await h.item(id)).timeEntryLocked, false);
      for (const id of ['F1', 'T4', 'T4a']) assert.equal((await h.item(id)).timeEntryLocked, true);
    });
  });

  describe('limits', () => {
    it('limit: more than 1000 items at once are rejected (1000 are accepted)', async () => {
      const many = Array.from({ length: 1001 }, (_, i) => task(`M${i}`, 'F2'));
      await h.reset(baseFixture(many));
      await h.rejects(many.map((m) => m.id), { fields: { Description: 'bulk' } }, 400, { code: 'TOO_MANY_ITEMS' });
      const a = await h.accepts(many.slice(0, 1000).map((m) => m.id), { fields: { Description: 'bulk' } });
      assert.equal(a.items.length, 1000);
      const data = await h.dump();
      assert.equal(data.workItems.filter((w) => w.description === 'bulk').length, 1000);
    });

    it('limit: a name of 256 characters is accepted, 257 are not', async () => {
      const a = await h.accepts('T1', { fields: { Name: 'n'.repeat(256) } });
      assert.equal('name' in entry(a.items, 'T1'), false, 'stored as sent: not answered');
      assert.equal((await h.item('T1')).name, 'n'.repeat(256));
      await h.rejects('T1', { fields: { Name: 'n'.repeat(257) } }, 400, { code: 'NAME_TOO_LONG', rule: 2 });
    });

    it('limit: a code of 256 characters is accepted, 257 are not', async () => {
      await h.accepts('T1', { fields: { Code: 'c'.repeat(256) } });
      assert.equal((await h.item('T1')).code, 'c'.repeat(256));
      await h.rejects('T1', { fields: { Code: 'c'.repeat(257) } }, 400, { code: 'CODE_TOO_LONG', rule: 3 });
    });

    it('limit: hierarchy depth 16 — a moved subtree must fit within 16 levels', async () => {
      await h.reset(baseFixture(chain(15)));
      // T3 (one level) under C15 lands on level 16: allowed.
      await h.accepts('T3', { moveParentTo: 'C15' });
      assert.equal((await h.item('T3')).parentId, 'C15');
      // F1a (F1a > T1, T2: two levels) under C15 would put T1 on level 17.
      await h.rejects('F1a', { moveParentTo: 'C15' }, 400, { code: 'HIERARCHY_TOO_DEEP', rule: 19, itemId: 'F1a' });
    });

    it('limit: hierarchy depth 16 — a restored subtree must fit within 16 levels', async () => {
      await h.reset(baseFixture(chain(15)));
      // D2 > D2a is two levels: under C15 it would reach level 17.
      await h.rejects('D2', { restore: true, restoreToParent: 'C15' }, 400, { code: 'HIERARCHY_TOO_DEEP', rule: 27, itemId: 'D2' });
      await h.accepts('D1', { restore: true, restoreToParent: 'C15' });
      assert.equal((await h.item('D1')).parentId, 'C15');
    });
  });

  describe('permissions and item IDs', () => {
    it('403 without membership of the item\'s project', async () => {
      await h.rejects('T1', { fields: { Name: 'x' } }, 403, { code: 'FORBIDDEN', itemId: 'T1' }, 'outsider');
      await h.rejects('Q2', { fields: { Name: 'x' } }, 403, { code: 'FORBIDDEN', itemId: 'Q2' }, 'alice');
    });

    it('view permission: ActualProgress and setCompleted only; anything else is error 29 with 403', async () => {
      const a = await h.accepts('T1', { fields: { ActualProgress: 30 } }, 'viewer');
      assert.equal((await h.item('T1')).actualProgress, 30);
      assert.equal(entry(a.items, 'T1')['updatedBy'], '2002');
      await h.accepts('T2', { setCompleted: true }, 'viewer');
      assert.equal((await h.item('T2')).actualProgress, 100);
      await h.rejects('T1', { fields: { Name: 'x' } }, 403, { code: 'VIEW_PERMISSION_NOT_EDITABLE', rule: 29, itemId: 'T1', field: 'Name' }, 'viewer');
      await h.rejects('T1', { moveScheduleDays: 1 }, 403, { code: 'VIEW_PERMISSION_NOT_EDITABLE', rule: 29, field: 'moveScheduleDays' }, 'viewer');
      await h.rejects('D1', { restore: true }, 403, { code: 'VIEW_PERMISSION_NOT_EDITABLE', rule: 29, field: 'restore' }, 'viewer');
    });

    it('404 when any named ID does not exist (every missing ID is named)', async () => {
      const errors = await h.rejects(['T1', 'X1', 'X2'], { fields: { Description: 'x' } }, 404, { code: 'WORK_ITEM_NOT_FOUND', itemId: 'X1' });
      assert.deepEqual(errors.map((e) => e.itemId), ['X1', 'X2']);
    });

    it('duplicate IDs in the path are processed once', async () => {
      const a = await h.accepts(['T1', 'T2', 'T1'], { moveScheduleDays: 1 });
      assert.deepEqual(a.items.map((i) => i['id']), ['T1', 'T2']);
      assert.equal((await h.item('T1')).plannedStartDate, '2026-03-02');
    });
  });

  describe('atomicity and errors', () => {
    it('a request is atomic: when one item fails nothing changes, and every error is reported', async () => {
      const errors = await h.rejects(['T1', 'T2', 'T3'], { moveScheduleDays: 5, fields: { Description: 'changed' } }, 400, {
        code: 'SHIFTED_END_OUT_OF_RANGE',
        itemId: 'T2',
      });
      assert.equal(errors.length, 1);
      const many = await h.rejects(['T1', 'F1'], { fields: { Name: '', LeaderId: 'u-bob' } }, 400, { itemId: 'F1', code: 'NAME_EMPTY' });
      assert.deepEqual(
        many.map((e) => `${e.itemId}:${e.rule}`),
        ['T1:1', 'T1:14', 'F1:1', 'F1:14'],
      );
    });

    it('moving an item under itself or its own descendant is an error', async () => {
      await h.rejects('F1', { moveParentTo: 'T1' }, 400, { code: 'MOVE_INTO_OWN_SUBTREE', itemId: 'F1' });
      await h.rejects('F1', { moveParentTo: 'F1' }, 400, { code: 'MOVE_INTO_OWN_SUBTREE' });
    });

    it('an order reference must be a child of the destination parent', async () => {
      await h.rejects('T3', { moveParentTo: 'F2', orderBefore: 'T1' }, 400, { code: 'ORDER_REFERENCE_NOT_SIBLING', field: 'orderBefore' });
    });
  });

  describe('body binding', () => {
    it('member names are bound case-insensitively (the spec example: Adds, PartyId, PlannedTime, PartyType)', async () => {
      const a = await h.accepts('T3', {
        AssignmentChange: { Adds: [{ PartyId: 'u-carol', PlannedTime: 120, PartyType: 'User' }] },
        MoveScheduleDays: 0,
      });
      assert.deepEqual(entry(a.items, 'T3')['assignments'], [{ partyId: 'u-carol', plannedTime: 120, partyType: 'User' }]);
      assert.deepEqual((await h.item('T3')).assignments, [{ partyId: 'u-carol', plannedTime: 120, partyType: 'User' }]);
    });

    it('unknown members, wrong types and a member given twice are 400 naming the member and the value', async () => {
      const u = await h.rejects('T1', { moveScheduleDay: 1 }, 400, { code: 'UNKNOWN_MEMBER', field: 'moveScheduleDay' });
      assert.match(u[0]!.message, /moveScheduleDay/);
      const w = await h.rejects('T1', { moveScheduleDays: '3' }, 400, { code: 'WRONG_TYPE', field: 'moveScheduleDays' });
      assert.match(w[0]!.message, /"3"/);
      await h.rejects('T1', { moveScheduleDays: 1.5 }, 400, { code: 'WRONG_TYPE', field: 'moveScheduleDays' });
      await h.rejects('T1', { assignmentChange: { adds: [{ partyid: 'u-carol', hours: 1 }] } }, 400, {
        code: 'UNKNOWN_MEMBER',
        field: 'assignmentChange.adds[0].hours',
      });
      await h.rejects('T1', { fields: { Name: 'a' }, Fields: { Name: 'b' } }, 400, { code: 'MEMBER_DUPLICATE' });
      await h.rejects('T1', [1, 2], 400, { code: 'BODY_NOT_OBJECT' });
      await h.rejects('T1', { fields: { PlannedTime: 'lots' } }, 400, { code: 'FIELD_VALUE_INVALID', field: 'PlannedTime' });
      await h.rejects('T1', { fields: { PlannedStartDate: '2026-02-30' } }, 400, { code: 'FIELD_VALUE_INVALID', field: 'PlannedStartDate' });
    });
  });

  describe('members', () => {
    it('fields: every editable catalogue field is stored; the answer has only what differs from the values sent (official help U2)', async () => {
      const a = await h.accepts('T3', {
        fields: {
          Name: 'Renamed',
          Code: 'C-1',
          Description: 'About',
          ActualProgress: 25,
          PlannedTime: 300,
          PlannedCost: 42.5,
          LeaderId: 'u-carol',
          PlannedStartDate: '2026-04-01',
          PlannedFinishDate: '2026-04-30T00:00:00',
          StatusTypeId: '53',
          ProcessCategoryId: 'pc-1',
          TimeEntryCategoryId: 'wc-1',
          Assignments: [{ partyId: 'g-dev', partyType: 'UserGroup', plannedTime: 100 }, { partyId: 'u-alice' }],
        },
      });
      // Stored as sent: not answered. The assignments were completed by the server (u-alice's
      // partyType and plannedTime) and managedPlannedTime recalculated: answered.
      assert.deepEqual(entry(a.items, 'T3'), {
        id: 'T3',
        managedPlannedTime: 100,
        assignments: [
          { partyId: 'g-dev', plannedTime: 100, partyType: 'UserGroup' },
          { partyId: 'u-alice', plannedTime: 0, partyType: 'User' },
        ],
        itemWarnings: [],
        updatedAt: STAMP,
        updatedBy: '2001',
      });
      const t3 = await h.item('T3');
      assert.deepEqual(
        [t3.name, t3.code, t3.description, t3.actualProgress, t3.plannedTime, t3.plannedCost, t3.leaderId, t3.plannedStartDate, t3.plannedFinishDate],
        ['Renamed', 'C-1', 'About', 25, 300, 42.5, 'u-carol', '2026-04-01', '2026-04-30'],
      );
      assert.deepEqual([t3.statusTypeId, t3.processCategoryId, t3.timeEntryCategoryId], ['53', 'pc-1', 'wc-1']);
      assert.deepEqual([t3.updatedAt, t3.updatedBy, t3.userUpdatedAt, t3.userUpdatedBy], [STAMP, '2001', STAMP, '2001']);
      // Nothing changed: only the id and the (empty) warnings, no stamp.
      const b = await h.accepts('T3', { fields: { Name: 'Renamed' } });
      assert.deepEqual(entry(b.items, 'T3'), { id: 'T3', itemWarnings: [] });
    });

    it('moveScheduleDays shifts start and end; clearSchedule clears them and deletes the links', async () => {
      const a = await h.accepts('T1', { moveScheduleDays: -3 });
      assert.deepEqual([entry(a.items, 'T1')['plannedStartDate'], entry(a.items, 'T1')['plannedFinishDate']], ['2026-02-26T00:00:00', '2026-03-07T00:00:00']);
      await h.accepts('T2', { clearSchedule: true });
      const data = await h.dump();
      const t2 = data.workItems.find((w) => w.id === 'T2')!;
      assert.deepEqual([t2.plannedStartDate, t2.plannedFinishDate], [null, null]);
      assert.deepEqual(data.scheduleLinks.map((l) => l.id), ['L3']);
      await h.accepts('T1', { clearSchedule: false });
      assert.equal((await h.item('T1')).plannedStartDate, '2026-02-26');
    });

    it('assignmentChange: users matched by login name, LDAP login name, e-mail or name, and #<party ID>', async () => {
      for (const user of ['carol', 'CORP\\cjones', 'carol@example.com', 'Carol Jones', '#u-carol']) {
        await h.reset();
        const a = await h.accepts('T3', { assignmentChange: { adds: [{ user, plannedTime: 60 }] } });
        assert.deepEqual(entry(a.items, 'T3')['assignments'], [{ partyId: 'u-carol', plannedTime: 60, partyType: 'User' }], user);
      }
      await h.reset();
      await h.accepts('T3', { assignmentChange: { adds: [{ user: '#g-dev' }] } });
      assert.deepEqual((await h.item('T3')).assignments, [{ partyId: 'g-dev', partyType: 'UserGroup', plannedTime: 0 }]);
    });

    it('assignmentChange: removes (comma-separated IDs), removeUsers and updates', async () => {
      await h.accepts('T1', { assignmentChange: { adds: [{ partyId: 'u-carol', plannedTime: 60 }, { partyId: 'g-dev', plannedTime: 30 }] } });
      await h.accepts('T1', { assignmentChange: { removes: 'u-carol,g-dev' } });
      assert.deepEqual((await h.item('T1')).assignments.map((a) => a.partyId), ['u-alice']);
      await h.accepts('T1', { assignmentChange: { updates: [{ user: 'alice@example.com', plannedTime: 90 }] } });
      assert.deepEqual((await h.item('T1')).assignments, [{ partyId: 'u-alice', partyType: 'User', plannedTime: 90 }]);
      await h.accepts('T1', { assignmentChange: { updates: [{ user: 'alice', partyId: 'u-carol' }] } });
      assert.deepEqual((await h.item('T1')).assignments, [{ partyId: 'u-carol', partyType: 'User', plannedTime: 90 }]);
      await h.rejects('T1', { assignmentChange: { updates: [{ user: 'alice', plannedTime: 1 }] } }, 400, { code: 'ASSIGNMENT_NOT_FOUND' });
      const a = await h.accepts('T1', { assignmentChange: { removeUsers: ['Carol Jones'] } });
      assert.deepEqual(entry(a.items, 'T1')['assignments'], []);
      assert.equal(entry(a.items, 'T1')['managedPlannedTime'], 0);
    });

    it('recalculatePlannedTimeByAssignment true: planned time becomes the sum of the assignments', async () => {
      const a = await h.accepts('T1', { assignmentChange: { adds: [{ partyId: 'u-carol', plannedTime: 100 }], recalculatePlannedTimeByAssignment: true } });
      assert.equal(entry(a.items, 'T1')['plannedTime'], 580);
      assert.equal((await h.item('T1')).plannedTime, 580);
    });

    it('recalculatePlannedTimeByAssignment false: planned time is redistributed over the assignments (evenly, remainder to the first)', async () => {
      await h.accepts('T1', { fields: { PlannedTime: 481 } });
      const a = await h.accepts('T1', { assignmentChange: { adds: [{ partyId: 'u-carol' }], recalculatePlannedTimeByAssignment: false } });
      assert.deepEqual(entry(a.items, 'T1')['assignments'], [
        { partyId: 'u-alice', plannedTime: 241, partyType: 'User' },
        { partyId: 'u-carol', plannedTime: 240, partyType: 'User' },
      ]);
      assert.equal((await h.item('T1')).plannedTime, 481);
    });

    it('copyAssignmentsFrom copies the assignments of another item of the project', async () => {
      const a = await h.accepts('T3', { copyAssignmentsFrom: 'T1' });
      assert.deepEqual(entry(a.items, 'T3')['assignments'], [{ partyId: 'u-alice', plannedTime: 480, partyType: 'User' }]);
      assert.equal(entry(a.items, 'T3')['managedPlannedTime'], 480);
    });

    it('changeItemTypeTo changes the item type', async () => {
      const a = await h.accepts('T3', { changeItemTypeTo: 'milestone' });
      assert.equal(entry(a.items, 'T3')['itemTypeId'], 'milestone');
      await h.accepts('F2', { changeItemTypeTo: 'pro-folder' });
      assert.equal((await h.item('F2')).itemTypeId, 'pro-folder');
    });

    it('moveParentTo moves the item (several items keep their request order)', async () => {
      const a = await h.accepts(['T3', 'T1'], { moveParentTo: 'F2', orderFirst: true });
      assert.equal(entry(a.items, 'T1')['parentId'], 'F2');
      assert.deepEqual(childOrder(await h.dump(), 'F2'), ['T3', 'T1']);
      assert.deepEqual(childOrder(await h.dump(), 'F1a'), ['T2']);
    });

    it('fieldCalcTypes, clearFieldCalcTypes and clearAllFieldCalcTypes', async () => {
      const a = await h.accepts('T1', { fieldCalcTypes: { PlannedTime: 'Assignments', ActualProgress: 'Children', PlannedStartDate: 'Children' } });
      assert.deepEqual(entry(a.items, 'T1')['fieldCalcTypes'], { PlannedTime: 'Assignments', ActualProgress: 'Children', PlannedStartDate: 'Children' });
      await h.accepts('T1', { clearFieldCalcTypes: 'PlannedTime, PlannedStartDate' });
      assert.deepEqual((await h.item('T1')).fieldCalcTypes, { ActualProgress: 'Children' });
      await h.accepts('T1', { clearAllFieldCalcTypes: true });
      assert.deepEqual((await h.item('T1')).fieldCalcTypes, {});
      await h.rejects('T1', { clearFieldCalcTypes: 'plannedTime' }, 400, { code: 'FIELD_UNKNOWN_NAME', rule: 29 });
    });

    it('propagateToChildren copies fields to the lowest-level sub-items, reported in affectedItems', async () => {
      const a = await h.accepts('F1', {
        fields: { Description: 'shared', StatusTypeId: '51' },
        propagateToChildren: { fields: 'Description,StatusTypeId' },
      });
      // Leaves under F1: T1, T2, T3 (under F1a) and T4a (under T4); F1a and T4 are not leaves.
      assert.deepEqual(a.affectedItems.map((x) => x['id']).sort(), ['T1', 'T2', 'T3', 'T4a']);
      assert.deepEqual(entry(a.affectedItems, 'T4a'), { id: 'T4a', statusTypeId: '51', description: 'shared', itemWarnings: [], updatedAt: STAMP, updatedBy: '2001' });
      // F1 keeps the values sent to it: its own answer has none of them.
      assert.deepEqual(entry(a.items, 'F1'), { id: 'F1', itemWarnings: [], updatedAt: STAMP, updatedBy: '2001' });
      const data = await h.dump();
      const byId = new Map(data.workItems.map((w) => [w.id, w]));
      for (const id of ['T1', 'T2', 'T3', 'T4a']) assert.equal(byId.get(id)!.description, 'shared');
      for (const id of ['F1a', 'T4']) assert.equal(byId.get(id)!.description, '');
      assert.equal(byId.get('T4a')!.userUpdatedAt, '2025-01-01T00:00:00', 'a propagated change is not a user update');
    });
  });
});
