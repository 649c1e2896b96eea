// The generated filter compares list and user values and numeric or date bounds in its own
// code; these tests hold it to the answers of the value tests it stands for (the closure
// path), for values as read, edited, in every form a choice has, and odd ones.
import * as assert from 'node:assert/strict';
import { type FilterContext, type TableRow, buildColumns, compileFilter, countMatches, matchingIds, parseFilterText } from '../../src/table/model';
import { runLimits } from '../../src/table/model/filter-run';
import { COLUMNS, TODAY, resolveUser, userName } from './table-fixtures';

const ctx: FilterContext = { columns: COLUMNS, today: TODAY, currentUserId: '2102', resolveUser, userName };

/** The filter compiled as one generated function (default) or joined from closures. */
function compiled(text: string, c: FilterContext, closures: boolean) {
  const parsed = parseFilterText(text, c.columns);
  if (!parsed.ok) return undefined;
  const saved = runLimits.maxGenerated;
  if (closures) runLimits.maxGenerated = 0;
  try {
    const f = compileFilter(parsed.filter, c, parsed.names);
    return f.ok ? f.test : undefined;
  } finally {
    runLimits.maxGenerated = saved;
  }
}

let seed = 31;
const next = () => (seed = (seed * 48271) % 2147483647);
const pick = <T>(xs: readonly T[]): T => xs[next() % xs.length]!;

// Every form the values may take: IDs as text and as numbers, choice names, codes (any case, full width), none, and odd values.
const ODD = ['', '0', 0, null, undefined, NaN, {}, ['52'], true, ' 52'];
const STATUS = ['51', '52', '53', '54', 52, 54, '進行中', '保留', '完了', 'done', 'DONE', 'ｄｏｎｅ', '未着手 ', ...ODD];
const PRIORITY = ['1', '2', '3', 1, 3, '高', '中', '低', 'high', 'HIGH', 'ｈｉｇｈ', 'mid', ...ODD];
const LEADER = ['2101', '2102', '2103', 2101, 2102, 'suzuki', ...ODD];
const PROGRESS = [0, 20, 50, 99.5, 100, -0, Infinity, -Infinity, '50', ...ODD];
const NAME = ['設計', '詳細設計', 'ﾃｽﾄ', 'テスト', 'DESIGN', 'design review', 12, ...ODD];
const FINISH = ['2026-02-20T00:00:00', '2026-02-22', '2026-03-01', '2026-01-31T23:59:59', '2026/02/20', '2026-2-20', 20260220, 'x', ...ODD];

function oddRow(id: string): Record<string, unknown> {
  const fields: Record<string, unknown> = { Id: id };
  const put = (key: string, values: readonly unknown[]) => {
    const v = pick(values);
    if (v !== undefined) fields[key] = v;
  };
  put('StatusTypeId', STATUS);
  put('Custom_Priority', PRIORITY);
  put('LeaderId', LEADER);
  put('ActualProgress', PROGRESS);
  put('PlannedFinishDate', FINISH);
  put('Name', NAME);
  fields.Assignments = [{ partyId: pick(LEADER) }];
  return fields;
}

const ROWS: TableRow[] = Array.from({ length: 400 }, (_, i) => ({ id: String(1000 + i), fields: oddRow(String(1000 + i)) }));
// Edited values: every third row has others, in other forms.
const EDITED = new Map(ROWS.filter((_, i) => i % 3 === 0).map((r) => [r.id, oddRow(r.id)]));
const edited: FilterContext = { ...ctx, fieldsOf: (r) => EDITED.get(r.id) ?? r.fields };

const TEXTS = [
  'status:進行中,保留',
  'status:52',
  'status:done',
  'status:完了 OR status:51',
  '-status:進行中',
  '優先度:高',
  '優先度:1,low',
  '優先度:HIGH OR 優先度:中',
  'leader:suzuki',
  '-leader:suzuki',
  'leader:suzuki,tanaka',
  'leader:2101 OR leader:sato',
  'mine',
  'progress<100',
  'progress>=50',
  'progress>0 progress<=99.5',
  'finish>=2026-02-01 finish<2026-03-01',
  'finish<=2026-02-22',
  'finish>2026-02-20',
  'overdue',
  '(status:未着手 OR status:保留) -leader:suzuki progress<100',
  // Conditions of one group on the same field, joined into one comparison chain in the generated code.
  'status:進行中 status:51',
  'status:進行中 OR status:51 OR status:done',
  'leader:suzuki OR leader:tanaka OR leader:2101',
  '(優先度:高 OR 優先度:mid) (status:done OR status:進行中) -leader:suzuki',
  '(status:進行中 OR -status:51) 優先度:高 優先度:1',
  // Comparisons joined without branches beside conditions that call their test (text contains).
  'name:設計 status:進行中',
  'name:テスト OR -status:進行中',
  '-(name:design OR progress<50) leader:suzuki',
  '(name:設計 OR finish>=2026-02-20) -(優先度:高 name:ﾃｽﾄ)',
  'progress>=50 OR name:review',
];
const PIECES = ['name:設計', 'status:進行中', 'status:51,done', '優先度:高', '優先度:mid,3', 'leader:suzuki', 'leader:tanaka,sato', 'progress<100', 'progress>=20', 'finish>=2026-02-20', 'finish<2026-03-01', 'mine', 'overdue'];

function randomText(): string {
  const n = 1 + (next() % 5);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(`${next() % 4 === 0 ? '-' : ''}${pick(PIECES)}`);
  return next() % 2 === 0 ? parts.join(' ') : parts.join(' OR ');
}

function sameAnswers(text: string, c: FilterContext, rows: readonly TableRow[]): void {
  const gen = compiled(text, c, false);
  const joined = compiled(text, c, true);
  assert.ok(gen && joined, text);
  const want = rows.filter((r) => joined(r)).map((r) => r.id);
  assert.deepEqual(matchingIds(rows, gen), want, `${text}: rows tested one by one`);
  assert.equal(countMatches(rows, gen), want.length, `${text}: the count`);
  assert.equal(countMatches(rows, joined), want.length, `${text}: the count of the closures`);
}

describe('table filters: values compared in the generated code answer as the value tests do', () => {
  it('for the values as read: IDs as text or numbers, choice names, codes in any case or width, none and odd values', () => {
    for (const text of TEXTS) sameAnswers(text, ctx, ROWS);
  });

  it('for edited values (fieldsOf)', () => {
    for (const text of TEXTS) sameAnswers(text, edited, ROWS);
  });

  it('for random filters of list, user, number and date conditions, as read and edited', () => {
    for (let n = 0; n < 300; n++) {
      const text = randomText();
      sameAnswers(text, n % 2 === 0 ? ctx : edited, ROWS);
    }
  });

  it('counts right whichever form the rows read a list in, also when the first rows read another form than the rest', () => {
    const status = (v: unknown, i: number): TableRow => ({ id: String(i), fields: { Id: String(i), StatusTypeId: v } });
    const ids = Array.from({ length: 300 }, (_, i) => status(['51', '52', '53', '54'][i % 4], i));
    const names = Array.from({ length: 300 }, (_, i) => status(['未着手', '進行中', '完了', '保留'][i % 4], 300 + i));
    for (const rows of [ids, names, [...ids, ...names], [...names, ...ids], [...ids, status(null, 900), status(52, 901), status('ｄｏｎｅ', 902)]]) {
      sameAnswers('status:進行中,done', ctx, rows);
      const f = compiled('status:進行中,done', ctx, false)!;
      assert.equal(countMatches(rows, f), rows.filter((r) => ['52', '53', '進行中', '完了', 52, 'ｄｏｎｅ'].includes(r.fields.StatusTypeId as string)).length);
    }
  });

  it('matches every choice of a list longer than the values compared in the code', () => {
    const choices = Array.from({ length: 40 }, (_, i) => ({ id: String(i + 1), name: `選択${i + 1}`, code: `c${i + 1}` }));
    const cols = buildColumns([{ systemName: 'Custom_Big', name: 'Big', dataType: 'List', choices }]);
    const c: FilterContext = { columns: cols, today: TODAY };
    const rows: TableRow[] = [];
    for (let i = 0; i < 40; i++) for (const v of [String(i + 1), `選択${i + 1}`, `c${i + 1}`, i + 1]) rows.push({ id: String(rows.length), fields: { Custom_Big: v } });
    for (const text of ['Big:選択40', 'Big:1,c39', 'Big:選択2 OR Big:40', '-Big:c20']) sameAnswers(text, c, rows);
    sameAnswers('Big:選択40,c1', c, rows);
    const f = compiled('Big:選択40,c1', c, false)!;
    assert.equal(countMatches(rows, f), 8);
  });

  it('a user condition of many users still matches every one of them', () => {
    const users = Array.from({ length: 30 }, (_, i) => ({ id: String(3000 + i), name: `user ${i}`, loginName: `u${i}` }));
    const c: FilterContext = { ...ctx, resolveUser: (s) => (s === 'all' ? users.map((u) => u.id) : []) };
    const rows: TableRow[] = users.flatMap((u, i) => [{ id: `a${i}`, fields: { LeaderId: u.id } }, { id: `b${i}`, fields: { LeaderId: Number(u.id) } }, { id: `c${i}`, fields: { LeaderId: '0' } }]);
    sameAnswers('leader:all', c, rows);
    assert.equal(countMatches(rows, compiled('leader:all', c, false)!), 60);
  });
  it('counts right when the rows its sample reads have fewer forms than the others (values not compared get the test\'s answer)', () => {
    // The count compares the values a sample of its rows has: every tenth row here (the
    // sample's step for 640 rows) reads an ID, the rows between read names, codes, numbers and none.
    const others = ['進行中', '保留', '完了', 'done', 52, null, '53', '54', 'ｄｏｎｅ'];
    const rows: TableRow[] = Array.from({ length: 640 }, (_, i) => ({
      id: String(i),
      fields: { StatusTypeId: i % 10 === 0 ? '51' : others[i % others.length], LeaderId: i % 10 === 0 ? '2101' : (['2102', 2101, '0', null] as const)[i % 4], ActualProgress: i % 7 },
    }));
    for (const text of ['status:進行中,done', 'status:51', '-status:未着手', '(status:未着手 OR status:保留) -leader:suzuki progress<5', 'leader:suzuki OR status:done']) {
      sameAnswers(text, ctx, rows);
      sameAnswers(text, edited, rows);
    }
    const f = compiled('status:進行中,done', ctx, false)!;
    assert.equal(countMatches(rows, f), rows.filter((r) => ['52', '53', '進行中', '完了', 'done', 52, 'ｄｏｎｅ'].includes(r.fields.StatusTypeId as string)).length);
  });

  it('a count over rows of one form, then of another, answers for each (the values compared follow the rows)', () => {
    const status = (v: unknown, i: number): TableRow => ({ id: String(i), fields: { StatusTypeId: v } });
    const f = compiled('status:進行中', ctx, false)!;
    const ids = Array.from({ length: 200 }, (_, i) => status(['51', '52'][i % 2], i));
    const names = Array.from({ length: 200 }, (_, i) => status(['未着手', '進行中'][i % 2], i));
    assert.equal(countMatches(ids, f), 100);
    assert.equal(countMatches(names, f), 100);
    assert.equal(countMatches([...ids, ...names], f), 200);
    assert.equal(countMatches([], f), 0);
  });
});
