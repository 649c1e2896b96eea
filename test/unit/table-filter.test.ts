import * as assert from 'node:assert/strict';
import {
  type Filter,
  type FilterCondition,
  type FilterNode,
  type FilterContext,
  compileFilter,
  compileFilterText,
  countMatches,
  formatFilterText,
  matchingIds,
  parseFilterText,
  readFilterJson,
} from '../../src/table/model';
import { COLUMNS, ROWS, TODAY, resolveUser, userName } from './table-fixtures';

const ctx: FilterContext = { columns: COLUMNS, today: TODAY, currentUserId: '2102', resolveUser, userName };

function ids(filter: Filter, c: FilterContext = ctx): string[] {
  const f = compileFilter(filter, c);
  if (!f.ok) throw new Error(f.problems.map((p) => p.message).join('; '));
  return matchingIds(ROWS, f.test);
}
function textIds(text: string, c: FilterContext = ctx): string[] {
  const f = compileFilterText(text, c);
  if (!f.ok) throw new Error(f.errors!.map((e) => e.message).join('; '));
  return matchingIds(ROWS, f.test);
}
function textErrors(text: string): { start: number; message: string }[] {
  const f = compileFilterText(text, ctx);
  assert.equal(f.ok, false, `${text} should not parse`);
  return (f as { errors: { start: number; message: string }[] }).errors;
}

describe('table model: filters (structured form)', () => {
  it('text contains ignores case and full width; equals matches the whole text', () => {
    assert.deepEqual(ids({ conditions: [{ op: 'contains', field: 'Name', value: 'DESIGN' }] }), ['105']);
    assert.deepEqual(ids({ conditions: [{ op: 'contains', field: 'Code', value: 'Ａ－１' }] }), ['101', '103']);
    assert.deepEqual(ids({ conditions: [{ op: 'equals', field: 'Code', value: 'a-1' }] }), ['101']);
  });

  it('list values by name, code or ID; in list; users by login name', () => {
    assert.deepEqual(ids({ conditions: [{ op: 'equals', field: 'StatusTypeId', value: '進行中' }] }), ['101', '105']);
    assert.deepEqual(ids({ conditions: [{ op: 'equals', field: 'StatusTypeId', value: 'done' }] }), ['104']);
    assert.deepEqual(ids({ conditions: [{ op: 'in', field: 'status', values: ['51', '完了'] }] }), ['102', '104']);
    assert.deepEqual(ids({ conditions: [{ op: 'equals', field: '優先度', value: '中' }] }), ['102']);
  });

  it('number, hours and date ranges with inclusive and exclusive bounds', () => {
    assert.deepEqual(ids({ conditions: [{ op: 'range', field: 'ActualProgress', max: 100, maxExclusive: true, min: 20 }] }), ['101', '105']);
    assert.deepEqual(ids({ conditions: [{ op: 'range', field: 'PlannedTime', min: '7.5' }] }), ['101', '102'], 'hours, 7.5 h = 450 min');
    assert.deepEqual(ids({ conditions: [{ op: 'range', field: 'PlannedFinishDate', max: '2026-02-25' }] }), ['101', '104', '105']);
    assert.deepEqual(ids({ conditions: [{ op: 'range', field: 'PlannedFinishDate', max: '2026-02-25', maxExclusive: true }] }), ['101', '104']);
  });

  it('empty and not empty (ID "0" is empty)', () => {
    assert.deepEqual(ids({ conditions: [{ op: 'empty', field: 'LeaderId' }] }), ['103']);
    assert.deepEqual(ids({ conditions: [{ op: 'empty', field: 'Assignments' }] }), ['103']);
    assert.deepEqual(ids({ conditions: [{ op: 'notEmpty', field: 'Custom_Note' }] }), ['105']);
  });

  it('my items (leader or assignee), overdue (finish before today, progress < 100), not started, assigned to, leader is', () => {
    assert.deepEqual(ids({ conditions: [{ op: 'mine' }] }), ['101', '102']);
    assert.deepEqual(ids({ conditions: [{ op: 'overdue' }] }), ['101'], 'finish 2026-02-20 < 2026-02-22 and 50%; 104 is complete');
    assert.deepEqual(ids({ conditions: [{ op: 'notStarted' }] }), ['102', '103']);
    assert.deepEqual(ids({ conditions: [{ op: 'assignedTo', user: '鈴木' }] }), ['101', '105']);
    assert.deepEqual(ids({ conditions: [{ op: 'leaderIs', user: 'suzuki' }] }), ['101', '104']);
  });

  it('combines conditions with AND and counts matches', () => {
    const f = compileFilter({ conditions: [{ op: 'leaderIs', user: 'suzuki' }, { op: 'range', field: 'ActualProgress', max: 100, maxExclusive: true }] }, ctx);
    assert.ok(f.ok);
    assert.equal(countMatches(ROWS, f.test), 1);
    assert.deepEqual(matchingIds(ROWS, f.test), ['101']);
    const all = compileFilter({ conditions: [] }, ctx);
    assert.ok(all.ok);
    assert.equal(countMatches(ROWS, all.test), ROWS.length);
  });

  it('filters the edited values when given fieldsOf', () => {
    const fieldsOf = (r: (typeof ROWS)[number]) => (r.id === '103' ? { ...r.fields, StatusTypeId: '52' } : r.fields);
    assert.deepEqual(ids({ conditions: [{ op: 'equals', field: 'StatusTypeId', value: '進行中' }] }, { ...ctx, fieldsOf }), ['101', '103', '105']);
  });

  it('says which condition is wrong: unknown field, unknown user or choice, a range on text, "my items" without a user', () => {
    const f = compileFilter(
      { conditions: [{ op: 'equals', field: 'Nope', value: 'x' }, { op: 'leaderIs', user: 'nobody' }, { op: 'range', field: 'Name', min: 'a' }, { op: 'equals', field: 'status', value: '完' }, { op: 'range', field: 'PlannedTime', min: 'abc' }] },
      ctx,
    );
    assert.ok(!f.ok);
    assert.deepEqual(f.problems.map((p) => p.index), [0, 1, 2, 3, 4]);
    assert.match(f.problems[0]!.message, /unknown field "Nope"/);
    assert.match(f.problems[1]!.message, /no user matches "nobody"/);
    assert.match(f.problems[2]!.message, /not a number or date/);
    assert.match(f.problems[3]!.message, /no choice "完"/);
    assert.match(f.problems[4]!.message, /hours/);
    const me = compileFilter({ conditions: [{ op: 'mine' }] }, { ...ctx, currentUserId: undefined });
    assert.ok(!me.ok && /signed-in user/.test(me.problems[0]!.message));
  });

  it('reads saved filters as JSON and refuses bad ones naming the member', () => {
    const good = readFilterJson({ conditions: [{ op: 'overdue' }, { op: 'in', field: 'StatusTypeId', values: ['51', 52] }] });
    assert.ok(good.ok);
    const bad = readFilterJson({ conditions: [{ op: 'in', field: 'StatusTypeId', values: [] }, { op: 'between' }] });
    assert.ok(!bad.ok);
    assert.ok(bad.errors.some((e) => e.startsWith('conditions.0.values')), bad.errors.join('\n'));
    assert.ok(bad.errors.some((e) => e.startsWith('conditions.1')), bad.errors.join('\n'));
  });
});

describe('table model: filters (typed form)', () => {
  it('parses the documented example (status, leader, finish, progress) into four conditions', () => {
    const p = parseFilterText('status:"進行中" leader:suzuki finish<2026-03-01 progress<100', COLUMNS);
    assert.ok(p.ok);
    assert.deepEqual(p.filter.conditions, [
      { op: 'equals', field: 'StatusTypeId', value: '進行中' },
      { op: 'leaderIs', user: 'suzuki' },
      { op: 'range', field: 'PlannedFinishDate', max: '2026-03-01', maxExclusive: true },
      { op: 'range', field: 'ActualProgress', max: '100', maxExclusive: true },
    ]);
    assert.deepEqual(p.spans.map((s) => [s.start, s.end]), [[0, 12], [13, 26], [27, 44], [45, 57]]);
    assert.deepEqual(textIds('status:"進行中" leader:suzuki finish<2026-03-01 progress<100'), ['101']);
  });

  it('accepts full-width spaces, digits and symbols, Japanese headers and keywords', () => {
    assert.deepEqual(textIds('ステータス：進行中　進捗＜１００　担当者：tanaka'), ['101']);
    assert.deepEqual(textIds('自分 未着手'), ['102']);
    // The item type by its header (the glossary's 項目タイプ) and by the header of earlier versions (種別).
    assert.deepEqual(textIds('項目タイプ：マイルストーン'), ['104']);
    assert.deepEqual(textIds('種別:マイルストーン'), ['104']);
    assert.deepEqual(textIds('is:overdue'), ['101']);
    assert.deepEqual(textIds('mine AND overdue'), ['101']);
    assert.deepEqual(textIds('finish<=today+3 finish>=2026-02-01'), ['101', '105']);
    assert.deepEqual(textIds('finish<today+3 finish>=2026-02-01'), ['101']);
    assert.deepEqual(textIds('hours>=7:30'), ['101', '102']);
    assert.deepEqual(textIds('start:2026/2/1'), ['101', '105']);
  });

  it('":" is contains for text and equals otherwise; "=" is equals; lists are "any of"; empty / notempty', () => {
    assert.deepEqual(textIds('name:設'), ['101']);
    assert.deepEqual(textIds('code=A-1'), ['101']);
    assert.deepEqual(textIds('status:未着手,完了'), ['102', '104']);
    assert.deepEqual(textIds('leader:empty'), ['103']);
    assert.deepEqual(textIds('メモ:notempty'), ['105']);
    assert.deepEqual(textIds('name:"design review"'), ['105']);
    assert.deepEqual(textIds(''), ROWS.map((r) => r.id));
  });

  it('gives errors that name the position', () => {
    const e1 = textErrors('status:進行中 sttus:x');
    assert.equal(e1[0]!.start, 11);
    assert.match(e1[0]!.message, /unknown field "sttus" \(at column 12\)/);
    const e2 = textErrors('name:"open');
    assert.match(e2[0]!.message, /quote opened at column 6 is not closed/);
    const e3 = textErrors('progress<');
    assert.match(e3[0]!.message, /value is missing after "progress<" \(at column 10\)/);
    const e4 = textErrors('progress<abc');
    assert.equal(e4[0]!.start, 0);
    assert.match(e4[0]!.message, /^progress takes a number, not "abc" \(at column 1\)$/);
    const e5 = textErrors('設計');
    assert.match(e5[0]!.message, /"設計" is not a condition/);
    const e6 = textErrors('is:late');
    assert.match(e6[0]!.message, /unknown "is:late"/);
    const e7 = textErrors('leader:nobody');
    assert.match(e7[0]!.message, /no user matches "nobody"/);
    const e8 = textErrors('progress<1,2');
    assert.match(e8[0]!.message, /one value/);
    // Several errors at once, each at its place.
    assert.deepEqual(textErrors('foo:1 bar:2').map((e) => e.start), [0, 6]);
  });

  it('formats a structured filter as text that parses back to the same filter', () => {
    const filter: Filter = {
      conditions: [
        { op: 'equals', field: 'StatusTypeId', value: '進行中' },
        { op: 'contains', field: 'Name', value: 'a "b" c' },
        { op: 'in', field: 'StatusTypeId', values: ['51', '53'] },
        { op: 'range', field: 'ActualProgress', min: '10', max: '90', maxExclusive: true },
        { op: 'empty', field: 'LeaderId' },
        { op: 'notEmpty', field: 'Custom_Note' },
        { op: 'leaderIs', user: 'suzuki' },
        { op: 'assignedTo', user: '田中 花子' },
        { op: 'mine' },
        { op: 'overdue' },
        { op: 'notStarted' },
      ],
    };
    const text = formatFilterText(filter);
    const back = parseFilterText(text, COLUMNS);
    assert.ok(back.ok, text);
    const expected = filter.conditions.flatMap((c): FilterNode[] =>
      c.op === 'range' ? [{ op: 'range', field: c.field, min: c.min }, { op: 'range', field: c.field, max: c.max, maxExclusive: true }] : [c],
    );
    assert.deepEqual(back.filter.conditions, expected);
  });
});
