// The forms' vscode-free model (src/forms/model): reading what is typed, the pickers'
// choices, and the request documents, which must pass the checks a written document gets.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  addAssigneesBody,
  daysBetween,
  findStatus,
  findUser,
  formDocument,
  INPUT_MESSAGES,
  oneProject,
  readDate,
  readPlannedHours,
  readShiftDays,
  removeAssigneesBody,
  setCompletedBody,
  setLeaderBody,
  setStatusBody,
  setTimeEntryLockedBody,
  shiftScheduleBody,
  statusChoices,
  userChoices,
} from '../../src/forms/model';
import { checkUpdateBody } from '../../src/schema/rules';
import { documentValue, templateById } from '../../src/schema/templates';

const USERS = [
  { id: '2101', name: '佐藤 花子', loginName: 'hanako.sato' },
  { id: '2102', name: '鈴木 一郎', loginName: 'ichiro.suzuki' },
  { id: '2103', name: '鈴木 健太', loginName: null },
];

function passes(body: unknown): void {
  const r = checkUpdateBody(body, ['update']);
  assert.deepEqual(r.issues.filter((i) => i.severity === 'error'), [], JSON.stringify(body));
  assert.ok(r.ok, JSON.stringify(body));
}

describe('forms model: reading inputs', () => {
  it('days to shift: signs, full-width digits and minus, whole numbers only, not 0, at most 100 years', () => {
    assert.deepEqual(readShiftDays('7'), { ok: true, value: 7 });
    assert.deepEqual(readShiftDays(' +14 '), { ok: true, value: 14 });
    assert.deepEqual(readShiftDays('-3'), { ok: true, value: -3 });
    assert.deepEqual(readShiftDays('－１０'), { ok: true, value: -10 });
    assert.deepEqual(readShiftDays('３６５００'), { ok: true, value: 36_500 });
    const problem = (t: string) => {
      const r = readShiftDays(t);
      assert.ok(!r.ok, t);
      return r.problem;
    };
    assert.deepEqual(problem(''), { message: 'Enter the number of days (negative: earlier).', args: [] });
    assert.deepEqual(problem('1.5'), { message: '"{0}" is not a whole number of days.', args: ['1.5'] });
    assert.deepEqual(problem('a week'), { message: '"{0}" is not a whole number of days.', args: ['a week'] });
    assert.deepEqual(problem('0'), { message: '0 days does not move the schedule.', args: [] });
    assert.deepEqual(problem('-0'), { message: '0 days does not move the schedule.', args: [] });
    assert.deepEqual(problem('36501'), { message: 'At most {0} days at once.', args: ['36500'] });
  });

  it('dates: yyyy-MM-dd or yyyy/M/d (full-width too), only days of the calendar', () => {
    assert.deepEqual(readDate('2026-03-09'), { ok: true, value: '2026-03-09' });
    assert.deepEqual(readDate('2026/3/9'), { ok: true, value: '2026-03-09' });
    assert.deepEqual(readDate('２０２８／２／２９'), { ok: true, value: '2028-02-29' });
    const r1 = readDate('2026-02-29');
    assert.ok(!r1.ok && r1.problem.message === '{0} is not a day of the calendar.' && r1.problem.args[0] === '2026-02-29');
    const r2 = readDate('9 March');
    assert.ok(!r2.ok && r2.problem.message === '"{0}" is not a date (yyyy-MM-dd).');
    const r3 = readDate(' ');
    assert.ok(!r3.ok && r3.problem.message === 'Enter a date (yyyy-MM-dd).');
  });

  it('days between two dates (date-times count by their day), across months and years', () => {
    assert.equal(daysBetween('2026-03-02', '2026-03-09'), 7);
    assert.equal(daysBetween('2026-03-02T00:00:00', '2026-02-27'), -3);
    assert.equal(daysBetween('2025-12-31', '2026-01-01'), 1);
    assert.equal(daysBetween('2028-02-28', '2028-03-01'), 2);
    assert.equal(daysBetween('', '2026-01-01'), undefined);
  });

  it('planned hours: optional, in minutes, decimal hours that make whole minutes', () => {
    assert.deepEqual(readPlannedHours(''), { ok: true, value: undefined });
    assert.deepEqual(readPlannedHours('8'), { ok: true, value: 480 });
    assert.deepEqual(readPlannedHours('1.5'), { ok: true, value: 90 });
    assert.deepEqual(readPlannedHours('１．２５h'), { ok: true, value: 75 });
    assert.deepEqual(readPlannedHours('0'), { ok: true, value: 0 });
    const bad = (t: string) => {
      const r = readPlannedHours(t);
      assert.ok(!r.ok, t);
      return r.problem.message;
    };
    assert.equal(bad('-1'), '"{0}" is not a number of hours (for example 8 or 1.5).');
    assert.equal(bad('eight'), '"{0}" is not a number of hours (for example 8 or 1.5).');
    assert.equal(bad('0.001'), '{0} hours is not a whole number of minutes.');
    assert.equal(bad('9000'), 'At most {0} hours per assignment.');
  });

  it('every message of the readers has a Japanese translation', () => {
    const ja = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'l10n', 'bundle.l10n.ja.json'), 'utf8')) as Record<string, string>;
    assert.deepEqual(INPUT_MESSAGES.filter((m) => !ja[m]), []);
  });
});

describe('forms model: choices', () => {
  it('statuses of a profile by ID (statusTypeId or id), each once, in the profile order', () => {
    const profile = { statusTypes: [{ id: '51', name: '未着手' }, { statusTypeId: '52', name: '進行中', code: 'DOING' }, { id: '51', name: 'again' }, { name: 'no id' }] };
    const choices = statusChoices(profile);
    assert.deepEqual(choices, [{ id: '51', name: '未着手' }, { id: '52', name: '進行中', code: 'DOING' }]);
    assert.equal(findStatus(choices, '52')?.name, '進行中');
    assert.equal(findStatus(choices, '未着手')?.id, '51');
    assert.equal(findStatus(choices, 'doing')?.id, '52');
    assert.equal(findStatus(choices, '完了'), undefined);
    assert.deepEqual(statusChoices(undefined), []);
    // A status the profile marks unavailable is not offered (the sandbox's 54 保留（利用不可）).
    assert.deepEqual(statusChoices({ statusTypes: [{ statusTypeId: '53', name: '完了', isAvailable: true }, { statusTypeId: '54', name: '保留（利用不可）', isAvailable: false }] }).map((c) => c.id), ['53']);
  });

  it('users by ID, login name or name (spaces and case ignored), a unique part, and the ambiguous ones named', () => {
    const users = userChoices(USERS);
    assert.equal(findUser(users, '2102').ok && (findUser(users, '2102') as { user: { id: string } }).user.id, '2102');
    const byLogin = findUser(users, 'HANAKO.SATO');
    assert.ok(byLogin.ok && byLogin.user.id === '2101');
    const byName = findUser(users, '佐藤花子');
    assert.ok(byName.ok && byName.user.id === '2101');
    const partial = findUser(users, '健太');
    assert.ok(partial.ok && partial.user.id === '2103');
    const several = findUser(users, '鈴木');
    assert.ok(!several.ok && several.problem === 'several');
    assert.deepEqual(several.candidates.map((u) => u.id).sort(), ['2102', '2103']);
    const none = findUser(users, 'nobody');
    assert.ok(!none.ok && none.problem === 'none');
    assert.ok(!findUser(users, '  ').ok);
  });

  it('one project for every item, or which items and projects are the problem', () => {
    const of = (id: string) => ({ a: '3001', b: '3001', c: '3002' })[id];
    assert.deepEqual(oneProject(['a', 'b'], of), { ok: true, projectId: '3001' });
    assert.deepEqual(oneProject(['a', 'c'], of), { ok: false, unknown: [], projects: ['3001', '3002'] });
    assert.deepEqual(oneProject(['a', 'x'], of), { ok: false, unknown: ['x'], projects: ['3001'] });
  });
});

describe('forms model: bodies and documents', () => {
  it('each form body passes checkUpdateBody', () => {
    for (const body of [
      shiftScheduleBody(7),
      shiftScheduleBody(-36_500),
      setStatusBody('52'),
      setLeaderBody('2101'),
      addAssigneesBody(USERS),
      addAssigneesBody(USERS.slice(0, 1), 90),
      addAssigneesBody(USERS, 0),
      removeAssigneesBody(USERS),
      removeAssigneesBody(USERS.slice(0, 2)),
      removeAssigneesBody(USERS.slice(2)),
      setCompletedBody(true),
      setCompletedBody(false),
      setTimeEntryLockedBody(true),
      setTimeEntryLockedBody(false),
    ])
      passes(body);
  });

  it('bodies have the shapes the templates write', () => {
    assert.deepEqual(shiftScheduleBody(-3), { moveScheduleDays: -3 });
    assert.throws(() => shiftScheduleBody(0), RangeError);
    assert.throws(() => shiftScheduleBody(1.5), RangeError);
    assert.deepEqual(setStatusBody('52'), { fields: { StatusTypeId: '52' } });
    assert.deepEqual(setLeaderBody('2101'), { fields: { LeaderId: '2101' } });
    assert.deepEqual(addAssigneesBody([USERS[0]!, USERS[2]!, USERS[0]!], 480), {
      assignmentChange: {
        adds: [
          { partyType: 'User', user: 'hanako.sato', plannedTime: 480 },
          { partyType: 'User', partyId: '2103', plannedTime: 480 },
        ],
      },
    });
    assert.deepEqual(addAssigneesBody([USERS[1]!]), { assignmentChange: { adds: [{ partyType: 'User', user: 'ichiro.suzuki' }] } });
    assert.deepEqual(removeAssigneesBody(USERS), { assignmentChange: { removeUsers: ['hanako.sato', 'ichiro.suzuki'], removes: '2103' } });
    assert.deepEqual(removeAssigneesBody([USERS[2]!]), { assignmentChange: { removes: '2103' } });
    assert.throws(() => addAssigneesBody([]), RangeError);
    assert.throws(() => removeAssigneesBody([]), RangeError);
    // The same documents as the templates (complete, lock time entry) with the defaults accepted.
    for (const [id, body] of [['complete', setCompletedBody(true)], ['reopen', setCompletedBody(false)], ['lockTimeEntry', setTimeEntryLockedBody(true)], ['unlockTimeEntry', setTimeEntryLockedBody(false)], ['shiftSchedule', shiftScheduleBody(7)]] as const) {
      assert.deepEqual(formDocument(['122'], body, 'd').document, documentValue(templateById(id)!, ['122'], 'd'), id);
    }
  });

  it('the request document lists the IDs, the description and the body, and passes validateRequestDocument', () => {
    const d = formDocument(['122', '123'], setStatusBody('52'), 'Set the status to "進行中".');
    assert.deepEqual(d.document, { description: 'Set the status to "進行中".', workItemIds: ['122', '123'], update: { fields: { StatusTypeId: '52' } } });
    assert.deepEqual(d.errors, []);
    assert.throws(() => formDocument([], setCompletedBody(true)), RangeError);
    // A bad ID is reported, not hidden: the command refuses to open such a document.
    assert.ok(formDocument(['12/3'], setCompletedBody(true)).errors.length > 0);
  });
});
