// The member table as a whole (src/schema/members.ts, src/bulk/members/): it defines
// every member of the update body and no other, which members do something in a body,
// where a member names fields (the editor's assists), the generated descriptions, and
// what the forms and the work item table produce. Each member's behaviour against the
// sandbox: members.test.ts.
import * as assert from 'node:assert/strict';
import { MEMBERS } from '../../src/bulk/members';
import {
  FORM_IDS,
  addAssigneesBody,
  removeAssigneesBody,
  setCompletedBody,
  setLeaderBody,
  setStatusBody,
  setTimeEntryLockedBody,
  shiftScheduleBody,
  type FormBody,
  type FormId,
} from '../../src/forms/model';
import { UpdateWorkItemsBody } from '../../src/schema/api';
import {
  describeBody,
  fieldNameSlot,
  irreversibleChanges,
  MEMBER_MEANINGS,
  MEMBER_ORDER,
  membersInEffect,
  type DescriptionWords,
  type MemberName,
} from '../../src/schema/members';
import { editDescriptionParts } from '../../src/table/model/editDescription';
import { defaultDescription, groupEdits } from '../../src/table/model/group';

describe('member table: the members of the update body', () => {
  it('defines every member of UpdateWorkItemsBody and no other (a member the body gains needs its entry)', () => {
    const shape = Object.keys(UpdateWorkItemsBody.shape).sort();
    assert.deepEqual([...MEMBER_ORDER].sort(), shape, 'the meaning of each member (src/schema/members.ts)');
    assert.deepEqual(Object.keys(MEMBERS).sort(), shape, 'the prediction and inverse of each member (src/bulk/members/)');
    for (const name of MEMBER_ORDER) assert.ok(MEMBERS[name].inverse, `${name} says how it is put back, or why it is not`);
  });

  it('restore ignores every other member; restoreToParent means nothing without it', () => {
    assert.deepEqual(membersInEffect({ restore: true, restoreToParent: 'F2', moveScheduleDays: 3, fields: { Name: 'x' } }), ['restore', 'restoreToParent']);
    assert.deepEqual(membersInEffect({ restoreToParent: 'F2', moveScheduleDays: 3 }), ['moveScheduleDays']);
    assert.deepEqual(irreversibleChanges({ restore: true, clearSchedule: true }), []);
  });

  it('a value that does nothing counts as absent: clearSchedule, orderFirst, orderLast, clearAllFieldCalcTypes false, restore false, a shift of 0 days', () => {
    const idle: UpdateWorkItemsBody = {
      clearSchedule: false,
      orderFirst: false,
      orderLast: false,
      clearAllFieldCalcTypes: false,
      restore: false,
      moveScheduleDays: 0,
    };
    assert.deepEqual(membersInEffect(idle), []);
    assert.deepEqual(
      membersInEffect({ setCompleted: false, setTimeEntryLocked: false }),
      ['setCompleted', 'setTimeEntryLocked'],
      'false completes or locks nothing, but it reopens or unlocks',
    );
  });
});

describe('member table: where a member names fields (the editor assists)', () => {
  it('keys of fields and fieldCalcTypes, the lists of clearFieldCalcTypes and propagateToChildren.fields, nothing else', () => {
    assert.equal(fieldNameSlot(['fields', 'Name']), 'key');
    assert.equal(fieldNameSlot(['fieldCalcTypes', 'PlannedTime']), 'key');
    assert.equal(fieldNameSlot(['clearFieldCalcTypes']), 'list');
    assert.equal(fieldNameSlot(['propagateToChildren', 'fields']), 'list');
    for (const path of [
      ['fields'],
      ['fields', 'Assignments', 0],
      ['propagateToChildren'],
      ['clearFieldCalcTypes', 'x'],
      ['moveParentTo'],
      ['assignmentChange', 'removes'],
      ['toString'],
      ['constructor', 'x'],
      [],
    ]) {
      assert.equal(fieldNameSlot(path), undefined, JSON.stringify(path));
    }
    const naming = MEMBER_ORDER.filter((m) => MEMBER_MEANINGS[m].fieldNames !== undefined);
    assert.deepEqual(naming, ['fields', 'clearFieldCalcTypes', 'fieldCalcTypes', 'propagateToChildren']);
  });
});

describe('member table: descriptions', () => {
  const words: DescriptionWords = { field: (n, v) => `${n}=${String(v)}`, shiftDays: (d) => `shift ${d}`, member: (n, v) => `${n}:${JSON.stringify(v)}` };

  it('each member in the service’s order: the fields by name, the shift in words, any other member with its value', () => {
    assert.deepEqual(describeBody({ moveScheduleDays: 3, fields: { Name: 'A', PlannedTime: 60 }, setCompleted: true }, words), [
      'Name=A',
      'PlannedTime=60',
      'shift 3',
      'setCompleted:true',
    ]);
    assert.deepEqual(describeBody({ moveScheduleDays: 0 }, words), [], 'a shift of 0 days does nothing');
  });

  it('the table’s descriptions ask the member table: the default one and the one in the UI’s language', () => {
    assert.equal(
      defaultDescription({ fields: { StatusTypeId: '51' }, moveScheduleDays: -2 }, 3),
      'Table edits: StatusTypeId = "51", shift the schedule by -2 days (3 work items)',
    );
    assert.deepEqual(
      editDescriptionParts({ fields: { Unknown: 1 }, moveScheduleDays: 2, setTimeEntryLocked: true }, [], {
        language: 'en',
        empty: '(empty)',
        shiftDays: (d) => `+${d}d`,
      }),
      ['Unknown = 1', '+2d', 'setTimeEntryLocked = true'],
    );
  });
});

describe('member table: what the forms and the table produce', () => {
  const users = [
    { id: '2101', name: 'Hanako', loginName: 'hanako' },
    { id: '2103', name: 'Kenta', loginName: null },
  ];
  const FORM_BODIES: Record<FormId, FormBody> = {
    shiftSchedule: shiftScheduleBody(3),
    setStatus: setStatusBody('51'),
    setLeader: setLeaderBody('2101'),
    addAssignees: addAssigneesBody(users, 60),
    removeAssignees: removeAssigneesBody(users),
    setCompleted: setCompletedBody(true),
    setTimeEntryLocked: setTimeEntryLockedBody(false),
  };

  it('each form makes exactly the members whose entries name it', () => {
    for (const form of FORM_IDS) {
      const made = Object.keys(FORM_BODIES[form]).sort();
      const named = MEMBER_ORDER.filter((m) => MEMBER_MEANINGS[m].madeBy?.forms?.includes(form)).sort();
      assert.deepEqual(made, named, `the members the form ${form} makes`);
    }
  });

  it('the table’s edits make exactly the members whose entries say so: fields and moveScheduleDays', () => {
    const requests = groupEdits([
      { id: '1', field: 'PlannedStartDate', value: '2026-03-04', before: '2026-03-01' },
      { id: '1', field: 'PlannedFinishDate', value: '2026-03-08', before: '2026-03-05' },
      { id: '2', field: 'PlannedStartDate', value: '2026-04-04', before: '2026-04-01' },
      { id: '2', field: 'PlannedFinishDate', value: '2026-04-08', before: '2026-04-05' },
      { id: '3', field: 'Name', value: 'New', before: 'Old' },
    ]);
    const made = new Set(requests.flatMap((r) => Object.keys(r.document.update)));
    const byTable = MEMBER_ORDER.filter((m: MemberName) => MEMBER_MEANINGS[m].madeBy?.table);
    assert.deepEqual([...made].sort(), [...byTable].sort());
  });
});
