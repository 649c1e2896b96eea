// The rules the client checks on an update body before sending (service-api.md
// rules and errors 1-3, 5, 16, 20, 21, 29; known-facts.md), each reported on the
// exact member with a message a user can act on.
import * as assert from 'node:assert/strict';
import { checkUpdateBody, normalizeUpdateBody, validateWorkItemId, workItemIdProblem } from '../../src/schema/rules';
import type { DocumentIssue } from '../../src/schema/issues';
import { ERROR_CODES } from '../../src/schema/error-codes';

/** The issues of one body, as `severity code @path: message` for readable failures. */
function check(body: unknown) {
  return checkUpdateBody(body, ['update']);
}
function find(issues: DocumentIssue[], code: string, path?: (string | number)[]): DocumentIssue {
  const hit = issues.find((i) => i.code === code && (!path || JSON.stringify(i.path) === JSON.stringify(path)));
  assert.ok(hit, `expected ${code} at ${JSON.stringify(path)}; got:\n${issues.map((i) => `${i.code} ${JSON.stringify(i.path)} ${i.message}`).join('\n')}`);
  return hit;
}
function none(issues: DocumentIssue[], code: string) {
  assert.deepEqual(issues.filter((i) => i.code === code), [], `unexpected ${code}`);
}
function clean(body: unknown) {
  const r = check(body);
  assert.deepEqual(r.issues.map((i) => `${i.code} ${JSON.stringify(i.path)} ${i.message}`), []);
  assert.equal(r.ok, true);
  return r;
}
const longText = (n: number) => 'x'.repeat(n);

describe('schema rules: update body', () => {
  describe('shapes (strict zod model, translated)', () => {
    it('accepts every member with its documented type', () => {
      clean({
        moveScheduleDays: -3,
        clearSchedule: false,
        assignmentChange: {
          adds: [{ partyType: 'User', user: 'alice', partyId: '7', plannedTime: 480 }],
          updates: [{ user: 'bob', partyId: '8', plannedTime: 0 }],
          removes: '13,17',
          removeUsers: ['carol@example.com'],
          recalculatePlannedTimeByAssignment: true,
        },
        moveParentTo: 'P1',
        changeItemTypeTo: 'T1',
        setCompleted: true,
        setTimeEntryLocked: false,
        fields: { Name: 'Review', PlannedTime: 480 },
        fieldCalcTypes: { PlannedTime: 'Assignments' },
        propagateToChildren: { fields: 'LeaderId,StatusTypeId' },
        clearFieldCalcTypes: 'ActualProgress',
        clearAllFieldCalcTypes: false,
        orderLast: true,
        copyAssignmentsFrom: 'X1',
      });
    });

    it('an unknown member is an error naming it and where it is', () => {
      const r = check({ moveScheduleDays: 1, colour: 'red' });
      assert.equal(r.ok, false);
      const i = find(r.issues, 'UNKNOWN_MEMBER', ['update', 'colour']);
      assert.equal(i.severity, 'error');
      assert.match(i.message, /Unknown member "colour" in the update/);
      assert.match(i.message, /moveScheduleDays/);
    });

    it('an unknown member close to a known one suggests it with a rename fix', () => {
      const r = check({ moveScheduleDay: 1 });
      const i = find(r.issues, 'UNKNOWN_MEMBER_DID_YOU_MEAN', ['update', 'moveScheduleDay']);
      assert.match(i.message, /Did you mean "moveScheduleDays"\?/);
      assert.deepEqual(i.fix, { kind: 'rename-member', to: 'moveScheduleDays' });
      assert.equal(i.severity, 'error');
    });

    it('unknown members inside assignmentChange entries are errors on the entry member', () => {
      const r = check({ assignmentChange: { adds: [{ user: 'a', hours: 3 }] } });
      const i = find(r.issues, 'UNKNOWN_MEMBER', ['update', 'assignmentChange', 'adds', 0, 'hours']);
      assert.match(i.message, /in assignmentChange\.adds\[0\]/);
    });

    it('a wrong type names the member, the expected and the given value (no zod dump)', () => {
      const r = check({ clearSchedule: 'yes' });
      const i = find(r.issues, 'WRONG_TYPE', ['update', 'clearSchedule']);
      assert.equal(i.message, '"clearSchedule" must be true or false, not the text "yes".');
      assert.doesNotMatch(i.message, /Invalid input|expected boolean/);
    });

    it('moveScheduleDays must be a whole number', () => {
      const i = find(check({ moveScheduleDays: 1.5 }).issues, 'NOT_INTEGER', ['update', 'moveScheduleDays']);
      assert.equal(i.message, '"moveScheduleDays" must be a whole number, not the number 1.5.');
      clean({ moveScheduleDays: -30 });
    });

    it('partyType must be User or UserGroup', () => {
      const i = find(check({ assignmentChange: { adds: [{ user: 'a', partyType: 'Team' }] } }).issues, 'INVALID_VALUE');
      assert.deepEqual(i.path, ['update', 'assignmentChange', 'adds', 0, 'partyType']);
      assert.match(i.message, /must be one of "User" or "UserGroup", not the text "Team"/);
    });

    it('a body that is not an object is an error on the body', () => {
      const r = check([1, 2]);
      assert.equal(r.ok, false);
      assert.equal(find(r.issues, 'WRONG_TYPE', ['update']).message, '"update" must be an object, not a list.');
    });

    it('an empty body is accepted with a warning that it changes nothing', () => {
      const r = check({});
      assert.equal(r.ok, true);
      assert.equal(find(r.issues, 'UPDATE_EMPTY', ['update']).severity, 'warning');
    });
  });

  describe('ordering: only one of orderAfter/orderBefore/orderFirst/orderLast, each with moveParentTo (rules 20, 21)', () => {
    it('one ordering member with moveParentTo is accepted', () => {
      for (const m of [{ orderAfter: 'S1' }, { orderBefore: '0' }, { orderFirst: true }, { orderLast: true }]) {
        clean({ moveParentTo: 'P1', ...m });
      }
    });

    it('each extra ordering member is an error on that member', () => {
      const r = check({ moveParentTo: 'P1', orderFirst: true, orderAfter: 'S1', orderLast: true });
      assert.equal(r.ok, false);
      none(r.issues.filter((i) => i.path[1] === 'orderFirst'), 'ORDER_MULTIPLE');
      const a = find(r.issues, 'ORDER_MULTIPLE', ['update', 'orderAfter']);
      find(r.issues, 'ORDER_MULTIPLE', ['update', 'orderLast']);
      assert.equal(a.message, 'Only one of orderAfter, orderBefore, orderFirst and orderLast may be given; remove "orderAfter" or "orderFirst".');
    });

    it('an ordering member without moveParentTo is an error on that member', () => {
      const r = check({ orderBefore: 'S1' });
      const i = find(r.issues, 'ORDER_WITHOUT_PARENT', ['update', 'orderBefore']);
      assert.equal(i.message, '"orderBefore" needs "moveParentTo": name the parent item to move under.');
    });

    it('moveParentTo alone is fine', () => {
      clean({ moveParentTo: 'P1' });
    });
  });

  describe('name and code lengths (errors 1-3, limits from fields.ts)', () => {
    it('a name of 1 and of 256 characters is accepted', () => {
      clean({ fields: { Name: 'a' } });
      clean({ fields: { Name: longText(256), Code: longText(256) } });
    });

    it('an empty or blank name is an error on fields.Name', () => {
      for (const Name of ['', '   ']) {
        const i = find(check({ fields: { Name } }).issues, 'NAME_EMPTY', ['update', 'fields', 'Name']);
        assert.equal(i.message, 'The name (fields.Name) must not be empty.');
      }
    });

    it('a name of 257 characters is an error giving the length and the limit', () => {
      const i = find(check({ fields: { Name: longText(257) } }).issues, 'NAME_TOO_LONG', ['update', 'fields', 'Name']);
      assert.equal(i.message, 'The name (fields.Name) is 257 characters long; at most 256 are allowed.');
    });

    it('a code of 257 characters is an error; an empty code is fine', () => {
      const i = find(check({ fields: { Code: longText(257) } }).issues, 'CODE_TOO_LONG', ['update', 'fields', 'Code']);
      assert.match(i.message, /fields\.Code\) is 257 characters long; at most 256/);
      clean({ fields: { Code: '' } });
    });

    it('a name that is not a string is an error', () => {
      const i = find(check({ fields: { Name: 5 } }).issues, 'FIELD_VALUE_TYPE', ['update', 'fields', 'Name']);
      assert.equal(i.message, 'Field "Name" must be a string, not the number 5.');
    });
  });

  describe('restore: true ignores every other member (except restoreToParent)', () => {
    it('restore with restoreToParent alone has no warning', () => {
      clean({ restore: true, restoreToParent: 'F1' });
    });

    it('each other member gets a warning that it is ignored', () => {
      const r = check({ restore: true, moveScheduleDays: 3, fields: { Name: 'x' }, restoreToParent: 'F1' });
      assert.equal(r.ok, true);
      const w = r.issues.filter((i) => i.code === 'RESTORE_IGNORES_MEMBER');
      assert.deepEqual(w.map((i) => i.path), [['update', 'moveScheduleDays'], ['update', 'fields']]);
      assert.equal(w[0]!.severity, 'warning');
      assert.match(w[0]!.message, /^"moveScheduleDays" is ignored: with "restore": true/);
    });

    it('restore: false warns about nothing', () => {
      clean({ restore: false, moveScheduleDays: 3 });
    });
  });

  describe('field names are case-sensitive', () => {
    for (const member of ['fields', 'fieldCalcTypes'] as const) {
      it(`${member}: a name differing only in case is a warning "did you mean" with a rename fix`, () => {
        const body = member === 'fields' ? { fields: { plannedtime: 8 } } : { fieldCalcTypes: { plannedtime: 'Manual' } };
        const r = check(body);
        const i = find(r.issues, 'FIELD_NAME_CASE', ['update', member, 'plannedtime']);
        assert.equal(i.severity, 'warning');
        assert.equal(i.message, 'Unknown field "plannedtime": field names are case-sensitive. Did you mean "PlannedTime"?');
        assert.deepEqual(i.fix, { kind: 'rename-member', to: 'PlannedTime' });
        // Field names are never renamed silently: the body is sent as written.
        assert.ok(r.body && Object.keys((r.body as Record<string, object>)[member]!).includes('plannedtime'));
      });
    }

    it('clearFieldCalcTypes: a name in the wrong case is a warning with a fix that rewrites the list', () => {
      const i = find(check({ clearFieldCalcTypes: 'ActualProgress, plannedTime' }).issues, 'FIELD_NAME_CASE', ['update', 'clearFieldCalcTypes']);
      assert.match(i.message, /Did you mean "PlannedTime"\?/);
      assert.deepEqual(i.fix, { kind: 'replace-value', to: 'ActualProgress,PlannedTime', all: 'ActualProgress,PlannedTime' });
    });

    it('propagateToChildren.fields: a name in the wrong case is a warning on that member', () => {
      const i = find(check({ propagateToChildren: { fields: 'leaderId' } }).issues, 'FIELD_NAME_CASE', ['update', 'propagateToChildren', 'fields']);
      assert.deepEqual(i.fix, { kind: 'replace-value', to: 'LeaderId', all: 'LeaderId' });
    });

    it('an unknown field name is a warning (the catalogue is not public), not an error', () => {
      for (const body of [{ fields: { Colour: 'red' } }, { fieldCalcTypes: { Colour: 'Manual' } }, { clearFieldCalcTypes: 'Colour' }, { propagateToChildren: { fields: 'Colour' } }]) {
        const r = check(body);
        assert.equal(r.ok, true);
        const i = find(r.issues, 'FIELD_UNKNOWN');
        assert.equal(i.severity, 'warning');
        assert.equal(i.message, 'Field "Colour" is not in the known field list; the service may reject it.');
      }
    });

    it('a read-only field is an error (error 29) in fields, fieldCalcTypes and name lists', () => {
      const a = find(check({ fields: { ActualTime: 5 } }).issues, 'FIELD_NOT_EDITABLE', ['update', 'fields', 'ActualTime']);
      assert.equal(a.message, 'Field "ActualTime" cannot be edited (it is read only).');
      find(check({ fieldCalcTypes: { Id: 'Manual' } }).issues, 'FIELD_NOT_EDITABLE', ['update', 'fieldCalcTypes', 'Id']);
      find(check({ propagateToChildren: { fields: 'ProjectId' } }).issues, 'FIELD_NOT_EDITABLE', ['update', 'propagateToChildren', 'fields']);
    });

    it('a field that is not known to propagate gets a warning', () => {
      const i = find(check({ propagateToChildren: { fields: 'LeaderId,Name' } }).issues, 'FIELD_NOT_PROPAGATABLE');
      assert.match(i.message, /"Name"/);
      assert.equal(i.severity, 'warning');
    });

    it('empty entries in a comma list are a warning', () => {
      const i = find(check({ clearFieldCalcTypes: 'PlannedTime,,ActualProgress' }).issues, 'LIST_EMPTY_ENTRY', ['update', 'clearFieldCalcTypes']);
      assert.equal(i.severity, 'warning');
    });
  });

  describe('fieldCalcTypes values', () => {
    it('a known calculation type is accepted', () => {
      clean({ fieldCalcTypes: { ActualProgress: 'ActualTime', PlannedTime: 'Children' } });
    });

    it('an unknown value is a warning listing the known ones (values are not public)', () => {
      const r = check({ fieldCalcTypes: { PlannedTime: 'Average' } });
      assert.equal(r.ok, true);
      const i = find(r.issues, 'CALC_TYPE_UNKNOWN', ['update', 'fieldCalcTypes', 'PlannedTime']);
      assert.equal(i.message, '"Average" is not a known calculation type of field "PlannedTime" (known: Manual, Assignments, Children); the service may reject it.');
    });

    it('Formula is an error: a formula cannot be set through fieldCalcTypes', () => {
      const r = check({ fieldCalcTypes: { PlannedTime: 'Formula' } });
      assert.equal(r.ok, false);
      const i = find(r.issues, 'CALC_TYPE_FORMULA', ['update', 'fieldCalcTypes', 'PlannedTime']);
      assert.equal(i.message, 'A formula cannot be set through fieldCalcTypes (field "PlannedTime").');
    });

    it('a value that is not a string is a shape error', () => {
      find(check({ fieldCalcTypes: { PlannedTime: 1 } }).issues, 'WRONG_TYPE', ['update', 'fieldCalcTypes', 'PlannedTime']);
    });
  });

  describe('values of known fields', () => {
    it('PlannedTime must be a whole number of 0 or more', () => {
      clean({ fields: { PlannedTime: 0 } });
      assert.equal(find(check({ fields: { PlannedTime: 1.5 } }).issues, 'FIELD_VALUE_TYPE').message, 'Field "PlannedTime" must be a whole number, not the number 1.5.');
      assert.equal(find(check({ fields: { PlannedTime: '480' } }).issues, 'FIELD_VALUE_TYPE').message, 'Field "PlannedTime" must be a whole number, not the text "480".');
      assert.equal(find(check({ fields: { PlannedTime: -1 } }).issues, 'FIELD_VALUE_RANGE').message, 'Field "PlannedTime" must be 0 or more, not the number -1.');
    });

    it('ActualProgress must be between 0 and 100', () => {
      clean({ fields: { ActualProgress: 0 } });
      clean({ fields: { ActualProgress: 37.5 } });
      clean({ fields: { ActualProgress: 100 } });
      for (const v of [-1, 100.5]) {
        const i = find(check({ fields: { ActualProgress: v } }).issues, 'FIELD_VALUE_RANGE', ['update', 'fields', 'ActualProgress']);
        assert.equal(i.message, `Field "ActualProgress" must be between 0 and 100, not the number ${v}.`);
      }
    });

    it('dates must be real dates written yyyy-MM-dd', () => {
      clean({ fields: { PlannedStartDate: '2024-02-29' } });
      for (const v of ['2025-02-30', '2025/04/01', '01-04-2025', '2025-04-01T00:00:00']) {
        const i = find(check({ fields: { PlannedStartDate: v } }).issues, 'FIELD_DATE_FORMAT', ['update', 'fields', 'PlannedStartDate']);
        assert.match(i.message, /^Field "PlannedStartDate" must be a date written yyyy-MM-dd \(e\.g\. 2025-04-01\), not the text/);
      }
    });

    it('PlannedFinishDate earlier than PlannedStartDate is an error on PlannedFinishDate (error 5); equal is fine', () => {
      clean({ fields: { PlannedStartDate: '2025-04-01', PlannedFinishDate: '2025-04-01' } });
      const i = find(check({ fields: { PlannedStartDate: '2025-04-02', PlannedFinishDate: '2025-04-01' } }).issues, 'END_BEFORE_START', ['update', 'fields', 'PlannedFinishDate']);
      assert.equal(i.message, 'The end date (fields.PlannedFinishDate 2025-04-01) is earlier than the start date (fields.PlannedStartDate 2025-04-02).');
    });

    it('ID-valued fields must be non-empty strings', () => {
      clean({ fields: { LeaderId: 'u1', StatusTypeId: 's1' } });
      find(check({ fields: { LeaderId: 12 } }).issues, 'FIELD_VALUE_TYPE', ['update', 'fields', 'LeaderId']);
      find(check({ fields: { LeaderId: '' } }).issues, 'VALUE_EMPTY', ['update', 'fields', 'LeaderId']);
    });

    it('unknown fields keep any value', () => {
      assert.equal(check({ fields: { Custom1: { any: ['thing'] } } }).ok, true);
    });
  });

  describe('assignments', () => {
    it('removeUsers entries must not be empty (entry named by its position)', () => {
      const r = check({ assignmentChange: { removeUsers: ['alice', ' '] } });
      assert.equal(r.ok, false);
      const i = find(r.issues, 'REMOVE_USERS_EMPTY_ENTRY', ['update', 'assignmentChange', 'removeUsers', 1]);
      assert.equal(i.message, 'Entry 2 of assignmentChange.removeUsers is empty: give a login name, e-mail address or name.');
      assert.equal(check({ assignmentChange: { removeUsers: [''] } }).issues.filter((x) => x.code === 'REMOVE_USERS_EMPTY_ENTRY').length, 1);
    });

    it('AssignmentUpdate.user is required and must not be empty', () => {
      const missing = find(check({ assignmentChange: { updates: [{ plannedTime: 8 }] } }).issues, 'ASSIGNMENT_USER_REQUIRED', ['update', 'assignmentChange', 'updates', 0]);
      assert.match(missing.message, /needs "user"/);
      find(check({ assignmentChange: { updates: [{ user: '' }] } }).issues, 'ASSIGNMENT_USER_REQUIRED', ['update', 'assignmentChange', 'updates', 0, 'user']);
    });

    it('an added assignment naming nobody is a warning', () => {
      const i = find(check({ assignmentChange: { adds: [{ plannedTime: 8 }] } }).issues, 'ASSIGNMENT_ADD_NO_PARTY', ['update', 'assignmentChange', 'adds', 0]);
      assert.equal(i.severity, 'warning');
    });

    it('negative planned effort in an assignment is an error', () => {
      find(check({ assignmentChange: { adds: [{ user: 'a', plannedTime: -8 }] } }).issues, 'VALUE_OUT_OF_RANGE', ['update', 'assignmentChange', 'adds', 0, 'plannedTime']);
    });

    it('removes: an empty list entry is a warning', () => {
      find(check({ assignmentChange: { removes: '13,,17' } }).issues, 'LIST_EMPTY_ENTRY', ['update', 'assignmentChange', 'removes']);
    });
  });

  describe('ID-valued members must not be empty', () => {
    for (const m of ['moveParentTo', 'changeItemTypeTo', 'restoreToParent', 'copyAssignmentsFrom']) {
      it(`${m}: "" is an error`, () => {
        const i = find(check({ [m]: ' ' }).issues, 'VALUE_EMPTY', ['update', m]);
        assert.equal(i.message, `"${m}" must not be empty.`);
      });
    }
  });

  describe('capitalised member names are accepted with a warning and normalized', () => {
    const specExample = {
      assignmentChange: {
        Adds: [{ PartyId: '7', PlannedTime: 480, PartyType: 'User' }],
        Updates: [{ User: 'bob', PlannedTime: 60 }],
        Removes: '13',
        RemoveUsers: ['carol'],
      },
    };

    it('the spec example (Adds, PartyId, PlannedTime, PartyType, ...) passes with one warning per member and rename fixes', () => {
      const r = check(specExample);
      assert.equal(r.ok, true, JSON.stringify(r.issues));
      const w = r.issues.filter((i) => i.code === 'MEMBER_NAME_CASE');
      assert.ok(w.every((i) => i.severity === 'warning'));
      const adds = find(w, 'MEMBER_NAME_CASE', ['update', 'assignmentChange', 'Adds']);
      assert.deepEqual(adds.fix, { kind: 'rename-member', to: 'adds' });
      assert.equal(adds.message, 'Member "Adds" should be written "adds" (member names are camelCase); it is sent as "adds".');
      // Paths of nested members use the names as written, so the editor finds them.
      find(w, 'MEMBER_NAME_CASE', ['update', 'assignmentChange', 'Adds', 0, 'PartyId']);
      find(w, 'MEMBER_NAME_CASE', ['update', 'assignmentChange', 'Updates', 0, 'User']);
      assert.equal(w.length, 9);
    });

    it('the returned body is camelCase', () => {
      assert.deepEqual(check(specExample).body, {
        assignmentChange: {
          adds: [{ partyId: '7', plannedTime: 480, partyType: 'User' }],
          updates: [{ user: 'bob', plannedTime: 60 }],
          removes: '13',
          removeUsers: ['carol'],
        },
      });
    });

    it('top-level members too (MoveScheduleDays)', () => {
      const r = check({ MoveScheduleDays: 3 });
      assert.deepEqual(r.body, { moveScheduleDays: 3 });
      find(r.issues, 'MEMBER_NAME_CASE', ['update', 'MoveScheduleDays']);
    });

    it('errors inside renamed members point at the names as written', () => {
      const r = check({ assignmentChange: { Adds: [{ User: 'a', PlannedTime: 'x' }] } });
      const i = find(r.issues, 'WRONG_TYPE', ['update', 'assignmentChange', 'Adds', 0, 'PlannedTime']);
      assert.match(i.message, /^"assignmentChange\.Adds\[0\]\.PlannedTime" must be a number/);
    });

    it('a member given twice in different case is an error', () => {
      const r = check({ assignmentChange: { adds: [], Adds: [] } });
      assert.equal(r.ok, false);
      const i = find(r.issues, 'MEMBER_DUPLICATE', ['update', 'assignmentChange', 'Adds']);
      assert.equal(i.message, 'Both "Adds" and "adds" are given; keep only "adds".');
    });

    it('field names inside fields are not renamed (they are case-sensitive)', () => {
      const r = normalizeUpdateBody({ Fields: { name: 'x' } });
      assert.deepEqual(r.body, { fields: { name: 'x' } });
      assert.deepEqual(r.issues.map((i) => i.path), [['Fields']]);
    });

    it('normalizeUpdateBody prefixes paths with the base path', () => {
      assert.deepEqual(normalizeUpdateBody({ Restore: true }, ['x', 2]).issues[0]!.path, ['x', 2, 'Restore']);
    });
  });

  describe('work item IDs', () => {
    it('accepts ordinary IDs', () => {
      for (const id of ['120', 'WI-7', 'a.b', 'ä123', '00042']) assert.equal(validateWorkItemId(id), undefined, id);
    });

    const rejected: [string, string, RegExp][] = [
      ['', 'ID_EMPTY', /must not be empty/],
      ['.', 'ID_DOT_SEGMENT', /"\." and "\.\." are not IDs/],
      ['..', 'ID_DOT_SEGMENT', /are not IDs/],
      ['a/b', 'ID_SLASH', /contains "\/" or "\\"/],
      ['a\\b', 'ID_SLASH', /contains/],
      ['1,2', 'ID_COMMA', /commas separate IDs/],
      ['%2e', 'ID_PERCENT', /"%"/],
      ['a?b', 'ID_QUERY_CHARACTER', /"\?" or "#"/],
      ['a#b', 'ID_QUERY_CHARACTER', /"\?" or "#"/],
      ['a\u0000b', 'ID_CONTROL_CHARACTER', /control/],
      ['a\u200eb', 'ID_CONTROL_CHARACTER', /invisible/],
      ['a b', 'ID_WHITESPACE', /space/],
      ['a\u00a0b', 'ID_WHITESPACE', /space/],
      ['a\ud800', 'ID_MALFORMED_UNICODE', /Unicode/],
      ['x'.repeat(10_000), 'ID_TOO_LONG', /10000 characters long; at most 200/],
    ];
    for (const [id, code, message] of rejected) {
      it(`rejects ${JSON.stringify(id.slice(0, 12))} (${code})`, () => {
        assert.equal(workItemIdProblem(id)?.code, code);
        assert.match(validateWorkItemId(id)!, message);
      });
    }

    it('shows control characters escaped and long IDs shortened in messages', () => {
      assert.match(validateWorkItemId('a\u0001b')!, /"a\\u0001b"/);
      assert.ok(validateWorkItemId('y'.repeat(300))!.length < 200);
    });
  });

  it('every code the checks produce is in ERROR_CODES with a message template', () => {
    const r = check({ x: 1, orderFirst: true, fields: { Name: '', Id: 1 }, assignmentChange: { Adds: [{}] } });
    for (const i of r.issues) assert.ok(i.code in ERROR_CODES, i.code);
  });
});
