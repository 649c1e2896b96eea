// Filters mean what they say: grouping (parentheses, OR, NOT / -), custom list fields as
// the reads return them (choice names), NFKC folding of text, impossible values as
// errors, short excerpts in messages, and 1 MB texts answered at once.
import * as assert from 'node:assert/strict';
import {
  type Filter,
  type FilterContext,
  type TableRow,
  MAX_FILTER_DEPTH,
  compileFilter,
  andFilterText,
  buildColumns,
  compileFilterText,
  countMatches,
  formatFilterText,
  matchingIds,
  parseFilterText,
  readFilterJson,
  readFilterList,
} from '../../src/table/model';
import { COLUMNS, ROWS, TODAY, resolveUser, userName } from './table-fixtures';

const ctx: FilterContext = { columns: COLUMNS, today: TODAY, currentUserId: '2102', resolveUser, userName };

function textIds(text: string, rows: readonly TableRow[] = ROWS): string[] {
  const f = compileFilterText(text, ctx);
  if (!f.ok) throw new Error(f.errors!.map((e) => e.message).join('; '));
  return matchingIds(rows, f.test);
}
function errors(text: string): { start: number; code: string; message: string }[] {
  const f = compileFilterText(text, ctx);
  assert.equal(f.ok, false, `${text.slice(0, 40)} should not parse`);
  return f.ok ? [] : f.errors!;
}

// Rows as the service reads them: a custom list field's value is the choice's name.
const row = (id: string, fields: Record<string, unknown>): TableRow => ({ id, fields: { Id: id, ...fields } });
const READ_ROWS: TableRow[] = [
  row('201', { Name: 'テスト計画', Custom_Priority: '高' }),
  row('202', { Name: 'ﾃｽﾄ実施', Custom_Priority: '中' }),
  row('203', { Name: 'ＡＰＩ設計', Custom_Priority: '1' }),
  row('204', { Name: 'api review', Custom_Priority: 'high' }),
  row('205', { Name: 'その他', Custom_Priority: null }),
];

describe('table filters: custom list fields match the form the reads return', () => {
  it('優先度:高 finds rows whose value is the choice name, its ID or its code', () => {
    assert.deepEqual(textIds('優先度:高', READ_ROWS), ['201', '203', '204']);
    assert.deepEqual(textIds('優先度:HIGH', READ_ROWS), ['201', '203', '204']);
    assert.deepEqual(textIds('Custom_Priority=1', READ_ROWS), ['201', '203', '204']);
  });

  it('the condition Add Condition… builds (choice IDs, an "in" list) matches rows read with names', () => {
    const f = compileFilter({ conditions: [{ op: 'in', field: 'Custom_Priority', values: ['1', '2'] }] }, ctx);
    assert.ok(f.ok);
    assert.deepEqual(matchingIds(READ_ROWS, f.test), ['201', '202', '203', '204']);
  });

  it('a choice the field does not have is an error naming it', () => {
    assert.match(errors('優先度:最高')[0]!.message, /^優先度 has no choice "最高" \(at column 1\)$/);
  });
});

describe('table filters: text folded with NFKC and case', () => {
  it('half-width katakana and full-width ASCII find each other', () => {
    assert.deepEqual(textIds('name:テスト', READ_ROWS), ['201', '202']);
    assert.deepEqual(textIds('name:ﾃｽﾄ', READ_ROWS), ['201', '202']);
    assert.deepEqual(textIds('name:api', READ_ROWS), ['203', '204']);
    assert.deepEqual(textIds('name:ＡＰＩ', READ_ROWS), ['203', '204']);
    assert.deepEqual(textIds('name="ﾃｽﾄ実施"', READ_ROWS), ['202']);
  });
});

describe('table filters: grouping, OR and NOT', () => {
  it('OR, or, または and | join alternatives', () => {
    for (const or of ['OR', 'or', 'または', '|']) assert.deepEqual(textIds(`status:未着手 ${or} status:完了`), ['102', '104'], or);
  });

  it('AND binds tighter than OR; spaces are AND; AND and かつ may be written', () => {
    // status:進行中 AND leader:suzuki, OR status:完了
    assert.deepEqual(textIds('status:進行中 leader:suzuki OR status:完了'), ['101', '104']);
    assert.deepEqual(textIds('status:進行中 AND leader:suzuki OR status:完了'), ['101', '104']);
    assert.deepEqual(textIds('status:進行中 かつ leader:suzuki'), ['101']);
    assert.deepEqual(textIds('status:完了 OR status:進行中 leader:suzuki'), ['101', '104']);
  });

  it('parentheses group: (a OR b) c', () => {
    assert.deepEqual(textIds('(status:進行中 OR status:完了) leader:suzuki'), ['101', '104']);
    assert.deepEqual(textIds('（status:進行中 OR status:完了） leader:sato'), ['105'], 'full-width parentheses');
    assert.deepEqual(textIds('leader:suzuki (progress<100 OR status:完了)'), ['101', '104']);
  });

  it('NOT term and -term exclude; NOT (group) negates the group', () => {
    assert.deepEqual(textIds('-status:進行中'), ['102', '103', '104']);
    assert.deepEqual(textIds('NOT status:進行中'), ['102', '103', '104']);
    assert.deepEqual(textIds('not leader:suzuki -status:未着手'), ['103', '105']);
    assert.deepEqual(textIds('NOT (status:進行中 OR status:完了)'), ['102', '103']);
    assert.deepEqual(textIds('-(leader:suzuki)'), ['102', '103', '105']);
    assert.deepEqual(textIds('NOT NOT status:完了'), ['104']);
    assert.deepEqual(textIds('start<today-30'), ['104'], 'a "-" inside a value is no NOT');
  });

  it('parentheses are never absorbed into values: ((name:a)) is Name contains "a"', () => {
    const p = parseFilterText('((name:design))', COLUMNS);
    assert.ok(p.ok);
    assert.deepEqual(p.filter, { conditions: [{ op: 'contains', field: 'Name', value: 'design' }] });
    assert.deepEqual(textIds('name:"(株)"'), [], 'quoted parentheses are text');
    const q = parseFilterText('name:"a)"', COLUMNS);
    assert.ok(q.ok);
    assert.deepEqual(q.filter.conditions, [{ op: 'contains', field: 'Name', value: 'a)' }]);
  });

  it('unbalanced parentheses, a dangling OR or NOT are errors at their position', () => {
    const open = errors('(status:完了');
    assert.equal(open[0]!.code, 'parenOpen');
    assert.match(open[0]!.message, /^the parenthesis opened here is not closed \(at column 1\)$/);
    const close = errors('status:完了)');
    assert.deepEqual([close[0]!.code, close[0]!.start], ['parenClose', 9]);
    assert.match(errors('status:完了 OR')[0]!.message, /^OR needs a condition on each side \(at column 11\)$/);
    assert.match(errors('or status:完了')[0]!.message, /^or needs a condition on each side \(at column 1\)$/);
    assert.match(errors('status:完了 OR OR status:未着手')[0]!.message, /OR needs a condition/);
    assert.match(errors('status:完了 NOT')[0]!.message, /^NOT needs a condition after it \(at column 11\)$/);
    assert.match(errors('(status:完了 -)')[0]!.message, /"-" is not a condition|needs a condition/);
    assert.equal(errors('()')[0]!.code, 'emptyGroup');
    assert.equal(errors('name:a(b')[0]!.code, 'unexpectedAfter');
  });

  it(`nesting deeper than ${MAX_FILTER_DEPTH} levels is an error, not a stack overflow`, () => {
    const deep = `${'('.repeat(500_000)}name:a${')'.repeat(500_000)}`;
    assert.equal(errors(deep)[0]!.code, 'tooDeep');
    const ok = `${'('.repeat(MAX_FILTER_DEPTH)}name:design${')'.repeat(MAX_FILTER_DEPTH)}`;
    assert.deepEqual(textIds(ok), ['105']);
    let node: Filter['conditions'][number] = { op: 'overdue' };
    for (let i = 0; i < MAX_FILTER_DEPTH + 5; i++) node = { op: 'not', condition: node };
    const compiled = compileFilter({ conditions: [node] }, ctx);
    assert.equal(compiled.ok, false);
  });

  it('a grouped filter formats as text that parses back to the same filter', () => {
    const filter: Filter = {
      conditions: [
        {
          op: 'any',
          conditions: [
            { op: 'all', conditions: [{ op: 'equals', field: 'StatusTypeId', value: '進行中' }, { op: 'leaderIs', user: 'suzuki' }] },
            { op: 'not', condition: { op: 'any', conditions: [{ op: 'contains', field: 'Name', value: 'or' }, { op: 'overdue' }] } },
            { op: 'not', condition: { op: 'contains', field: 'Name', value: '-x (y)' } },
          ],
        },
      ],
    };
    const text = formatFilterText(filter);
    const back = parseFilterText(text, COLUMNS);
    assert.ok(back.ok, text);
    assert.deepEqual(back.filter, filter, text);
    const nested: Filter = { conditions: [{ op: 'mine' }, { op: 'any', conditions: [{ op: 'overdue' }, { op: 'notStarted' }] }] };
    const t2 = formatFilterText(nested);
    assert.equal(t2, 'mine (overdue OR notstarted)');
    assert.deepEqual((parseFilterText(t2, COLUMNS) as { filter: Filter }).filter, nested);
  });
});

describe('table filters: saved JSON with any / all / not nodes, old saved filters still valid', () => {
  it('reads filters saved in the flat form of earlier versions unchanged', () => {
    const old = [
      { name: 'Open tasks of Suzuki', filter: { conditions: [{ op: 'equals', field: 'LeaderId', value: 'suzuki' }, { op: 'range', field: 'PlannedFinishDate', max: '2026-03-01', maxExclusive: true }] } },
      { name: 'Mine', filter: { conditions: [{ op: 'mine' }, { op: 'in', field: 'StatusTypeId', values: ['51', '進行中'] }] } },
      { name: 'Nothing', filter: { conditions: [] } },
    ];
    const r = readFilterList(old, 'user', 'setting');
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.filters.map((f) => f.filter), old.map((f) => f.filter));
  });

  it('reads and runs any / all / not nodes, and names the member of a bad one', () => {
    const json = { conditions: [{ op: 'not', condition: { op: 'any', conditions: [{ op: 'equals', field: 'status', value: '進行中' }, { op: 'equals', field: 'status', value: '完了' }] } }] };
    const r = readFilterJson(json);
    assert.ok(r.ok);
    const f = compileFilter(r.filter, ctx);
    assert.ok(f.ok);
    assert.deepEqual(matchingIds(ROWS, f.test), ['102', '103']);
    const bad = readFilterJson({ conditions: [{ op: 'any', conditions: [{ op: 'equals', field: 'x' }] }] });
    assert.equal(bad.ok, false);
    assert.match((bad as { errors: string[] }).errors[0]!, /^conditions\.0\.conditions\.0\.value/);
    assert.equal(readFilterJson({ conditions: [{ op: 'any', conditions: [] }] }).ok, false, 'an empty group is refused');
  });
});

describe('table filters: impossible values are errors under the bar, never exceptions', () => {
  it('start<today+99999999999 is an error, not a RangeError', () => {
    const e = errors('start<today+99999999999');
    assert.equal(e[0]!.code, 'todayRange');
    assert.match(e[0]!.message, /"today\+99999999999" is too far from today/);
    assert.deepEqual(textIds('finish<today+36500').length, 4);
  });

  it('a date that does not exist and a number out of range are errors naming the field as typed', () => {
    assert.match(errors('finish<2026-02-31')[0]!.message, /^finish takes a date yyyy-MM-dd or "today", not "2026-02-31" \(at column 1\)$/);
    assert.match(errors('進捗<1e400')[0]!.message, /^進捗 takes a number, not "1e400"/);
    assert.match(errors('hours>7:75')[0]!.message, /^hours takes hours/);
  });

  it('an error quotes a short excerpt, never the whole 100 kB input', () => {
    const long = 'x'.repeat(100_000);
    for (const text of [`${long}`, `name:${long})`, `progress<${long}`, `${long}:1`, `"${long}`, `status:${long}`, `leader:${long}`]) {
      const e = errors(text);
      for (const x of e) assert.ok(x.message.length < 250, `${text.slice(0, 20)}…: ${x.message.length} characters`);
    }
  });
});

describe('table filters: 1 MB texts answer at once', function () {
  this.timeout(5000); // a backtracking pattern or a quadratic scan takes minutes on these
  const MB = 1_000_000;
  const cases: Record<string, string> = {
    digits: '1'.repeat(MB),
    'a number value': `progress<${'1'.repeat(MB)}`,
    'dots in an hours value': `hours>${'1.'.repeat(MB / 2)}`,
    colons: ':'.repeat(MB),
    'colons in a value': `name:${':'.repeat(MB)}`,
    spaces: ' '.repeat(MB),
    'today plus digits': `start<today+${'9'.repeat(MB)}`,
    'an unclosed quote': `name:"${'a'.repeat(MB)}`,
    'many bad terms': 'x '.repeat(MB / 2),
    'many NOTs': `${'-'.repeat(MB)}name:a`,
    'many ORs': 'name:a OR '.repeat(MB / 10),
    'many terms': 'name:a '.repeat(MB / 7),
    parentheses: '('.repeat(MB),
  };
  for (const [name, text] of Object.entries(cases)) {
    it(`answers promptly for 1 MB of ${name}`, () => {
      const f = compileFilterText(text, ctx);
      if (!f.ok) {
        assert.ok(f.errors!.length <= 10);
        for (const e of f.errors!) assert.ok(e.message.length < 250, e.message.slice(0, 80));
      }
    });
  }
  it('a filter of 1 MB of spaces matches every row; many terms work', () => {
    assert.deepEqual(textIds(' '.repeat(MB)), ROWS.map((r) => r.id));
    assert.deepEqual(textIds('name:design '.repeat(10_000)), ['105']);
    assert.deepEqual(textIds('name:design OR '.repeat(10_000) + 'name:実装'), ['102', '105']);
  });
});

describe('table filters: compiled once, cheap on every keystroke', () => {
  it('two ranges of one field in an AND hold as both bounds (tighter bound, exclusive where either is)', () => {
    assert.deepEqual(textIds('progress>=20 progress<100'), ['101', '105']);
    assert.deepEqual(textIds('progress>20 progress>=20'), ['101', '104']);
    assert.deepEqual(textIds('progress<=50 progress<50'), ['102', '103', '105']);
    assert.deepEqual(textIds('finish>=2026-02-20 finish<=2026-02-20'), ['101']);
    assert.deepEqual(textIds('finish>2026-03-01 finish<2026-02-01'), [], 'an empty range');
    assert.deepEqual(textIds('finish=2026-02-20'), ['101']);
    assert.deepEqual(textIds('NOT progress>=20 progress<50'), ['102', '103']);
  });

  it('an OR of values of one list or user field equals the list of them; other fields stay apart', () => {
    assert.deepEqual(textIds('status:未着手 OR status:完了 OR leader:sato'), ['102', '104', '105']);
    assert.deepEqual(textIds('status:未着手 OR 優先度:高'), ['101', '102']);
    assert.deepEqual(textIds('leader:suzuki OR leader:sato'), ['101', '104', '105']);
  });

  it('IDs read as numbers match like IDs read as text', () => {
    const rows = [row('301', { StatusTypeId: 52, LeaderId: 2101 }), row('302', { StatusTypeId: 0, LeaderId: 0 })];
    assert.deepEqual(textIds('status:進行中 leader:suzuki', rows), ['301']);
    assert.deepEqual(textIds('status:empty leader:empty', rows), ['302']);
  });

  it('the same text against the same context reuses its compiled matchers', () => {
    const a = compileFilterText('status:進行中 progress<100', ctx);
    assert.equal(compileFilterText('status:進行中 progress<100', ctx), a);
    assert.notEqual(compileFilterText('status:進行中 progress<100', { ...ctx, today: '2026-03-01' }), a);
  });

  it('every prefix of a typed filter compiles to a test or to errors inside the text, never an exception', () => {
    const texts = ['(status:"進行中" OR -leader:suzuki) finish<today+7 進捗＜１００ 優先度:高,低', 'NOT (name:"a ""b""" OR hours>=7:30) start>=2026/2/1'];
    for (const text of texts) {
      for (let i = 0; i <= text.length; i++) {
        const typed = text.slice(0, i);
        const f = compileFilterText(typed, ctx);
        if (f.ok) continue;
        for (const e of f.errors!) assert.ok(e.start >= 0 && e.start <= typed.length && e.message.length > 0, `${typed}: ${e.message}`);
      }
    }
  });
});

describe('table filters: the compiled test as a plain predicate', () => {
  it('gives the same rows through Array.filter (which passes the index) as called with the row alone', () => {
    const f = compileFilterText('status:進行中 OR progress<=0', ctx);
    assert.ok(f.ok);
    assert.deepEqual(ROWS.filter(f.test).map((r) => r.id), ['101', '102', '103', '105']);
    assert.deepEqual(ROWS.filter((r) => f.test(r)).map((r) => r.id), ['101', '102', '103', '105']);
  });
});

describe('table filters: a condition added to the bar', () => {
  it('is ANDed to the whole text: a text with an OR of its own is put in parentheses first', () => {
    assert.equal(andFilterText('', 'mine'), 'mine');
    assert.equal(andFilterText(' status:完了 ', 'mine'), 'status:完了 mine');
    assert.equal(andFilterText('status:完了 OR status:保留', 'mine'), '(status:完了 OR status:保留) mine');
    assert.equal(andFilterText('status:完了 または status:保留', 'mine'), '(status:完了 または status:保留) mine');
    assert.equal(andFilterText('(status:完了 OR status:保留) leader:suzuki', 'mine'), '(status:完了 OR status:保留) leader:suzuki mine');
    assert.equal(andFilterText('name:"a OR b"', 'mine'), 'name:"a OR b" mine');
    assert.deepEqual(textIds(andFilterText('status:未着手 OR status:完了', 'leader:suzuki')), ['104']);
  });
});

describe('table filters: random texts', () => {
  it('texts made of the grammar\'s pieces compile or give errors, never an exception', () => {
    const pieces = ['(', ')', ' ', 'OR', 'or', 'NOT', '-', 'AND', '"', 'name:', 'status:', '進行中', 'progress<', '100', 'finish>=', 'today+', '2026-02-31', ',', ':', '=', '<', 'mine', 'ﾃｽﾄ', '　', '（', '）', 'is:', 'empty', '優先度:', '高'];
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    for (let n = 0; n < 3000; n++) {
      let text = '';
      const len = next() % 12;
      for (let i = 0; i < len; i++) text += pieces[next() % pieces.length]!;
      const f = compileFilterText(text, ctx);
      if (f.ok) matchingIds(ROWS, f.test);
      else assert.ok(f.errors!.length > 0 && f.errors!.every((e) => e.message.length > 0), text);
    }
  });
});

describe('table filters: the generated test and its count', () => {
  it('counts as the test tests, for the filters made of the grammar\'s pieces, and for more than 32 conditions', () => {
    const texts = [
      '(status:未着手 OR status:保留) -leader:suzuki progress<100',
      'finish>=2026-02-01 finish<2026-03-01 OR mine',
      'id:10 OR Id=102',
      'NOT (overdue OR notstarted) name:e',
      Array.from({ length: 40 }, (_, i) => `progress>=${i}`).join(' OR '),
    ];
    for (const text of texts) {
      const f = compileFilterText(text, ctx);
      assert.ok(f.ok, text);
      assert.equal(countMatches(ROWS, f.test), ROWS.filter((r) => f.test(r)).length, text);
    }
  });

  it('reads fields whose system names are not plain identifiers, or are names every object has', () => {
    const cols = buildColumns([
      { systemName: 'Custom Field-1', name: 'Odd name', dataType: 'String' },
      { systemName: 'constructor', name: 'Builder', dataType: 'String' },
      { systemName: '__proto__', name: 'Proto', dataType: 'Integer' },
    ]);
    const rows: TableRow[] = [
      { id: '1', fields: JSON.parse('{"Id":"1","Custom Field-1":"alpha","constructor":"bob","__proto__":5}') as Record<string, unknown> },
      { id: '2', fields: { Id: '2' } },
    ];
    const c: FilterContext = { columns: cols, today: TODAY };
    const count = (text: string) => {
      const f = compileFilterText(text, c);
      assert.ok(f.ok, text);
      return matchingIds(rows, f.test);
    };
    assert.deepEqual(count('"Odd name":alp'), ['1']);
    assert.deepEqual(count('Builder:bob'), ['1']);
    assert.deepEqual(count('Builder:empty'), ['2'], 'the inherited constructor of a row without the field is no value');
    assert.deepEqual(count('Proto>=5'), ['1']);
  });

  it('tests the edited values when given fieldsOf, also when counting', () => {
    const edited = new Map([['102', { ...ROWS[1]!.fields, StatusTypeId: '53' }]]);
    const c: FilterContext = { ...ctx, fieldsOf: (r) => edited.get(r.id) ?? r.fields };
    const f = compileFilterText('status:完了', c);
    assert.ok(f.ok);
    assert.equal(countMatches(ROWS, f.test), 2);
    assert.deepEqual(matchingIds(ROWS, f.test), ['102', '104']);
  });
});
