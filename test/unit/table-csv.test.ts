import * as assert from 'node:assert/strict';
import { BOM, TableEdits, exportTable, headerOf, importTable, mapHeader, parseDelimited, pickColumns, writeDelimited } from '../../src/table/model';
import { CATALOGUE, COLUMNS, ROWS, ROWS_BY_ID, resolveUser, userName } from './table-fixtures';

const importCtx = { columns: COLUMNS, rows: ROWS_BY_ID, catalogue: CATALOGUE, resolveUser, userName };

describe('table model: CSV / TSV writing and parsing', () => {
  it('writes CSV in UTF-8 with a BOM and CRLF, quoting commas, quotes, new lines and edge spaces', () => {
    const text = writeDelimited([['ID', '名称'], ['1', 'a,b'], ['2', 'say "hi"'], ['3', '一行目\n二行目'], ['4', ' pad']], { format: 'csv' });
    assert.equal(text, `${BOM}ID,名称\r\n1,"a,b"\r\n2,"say ""hi"""\r\n3,"一行目\n二行目"\r\n4," pad"\r\n`);
    const bytes = Buffer.from(text, 'utf8');
    assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'UTF-8 BOM bytes (not Shift_JIS)');
    assert.equal(Buffer.from('名称', 'utf8').toString('hex'), 'e5908de7a7b0');
    assert.ok(bytes.includes(Buffer.from('名称', 'utf8')), 'Japanese text as UTF-8 bytes');
  });

  it('writes TSV without a BOM, quoting tabs and new lines only where needed', () => {
    assert.equal(writeDelimited([['a', 'b\tc'], ['d,e', 'f\ng']], { format: 'tsv' }), 'a\t"b\tc"\nd,e\t"f\ng"\n');
  });

  it('parses RFC 4180 quotes, CRLF, LF and a BOM, keeping a quoted line break as written', () => {
    const p = parseDelimited(`${BOM}ID,名称\r\n1,"a,b"\r\n2,"say ""hi"""\n3,"x\r\ny"\r\n`);
    assert.deepEqual(p.records, [['ID', '名称'], ['1', 'a,b'], ['2', 'say "hi"'], ['3', 'x\r\ny']]);
    assert.deepEqual(p.lines, [1, 2, 3, 4]);
    assert.deepEqual(p.problems, []);
    assert.deepEqual(parseDelimited('a\tb\n"c\td"\te', '\t').records, [['a', 'b'], ['c\td', 'e']]);
    assert.deepEqual(parseDelimited('a,"b\n').problems.map((x) => x.line), [1]);
    assert.deepEqual(parseDelimited('x,y\n1,2\n\n3,4').records, [['x', 'y'], ['1', '2'], [''], ['3', '4']]);
  });

  it('reads the header alone, with its BOM removed and quoted cells unquoted, whatever follows', () => {
    assert.deepEqual(headerOf(`${BOM}ID,"名称, 正式"\r\n1,"never closed`), ['ID', '名称, 正式']);
    assert.deepEqual(headerOf('Id\tName\n'), ['Id', 'Name']);
    assert.deepEqual(headerOf(''), []);
  });

  it('round-trips what it writes', () => {
    const records = [['a', '"', '', 'x\ny', ' s ', '日本語,カンマ'], ['1', '2', '3', '4', '5', '6']];
    for (const format of ['csv', 'tsv'] as const) {
      const back = parseDelimited(writeDelimited(records, { format }), format === 'csv' ? ',' : '\t');
      assert.deepEqual(back.records, records, format);
    }
  });
});

describe('table model: export and import', () => {
  it('exports the shown columns as shown (names, hours, dates), headers in Japanese, ID first', () => {
    const csv = exportTable(ROWS.slice(0, 1), pickColumns(COLUMNS, ['Name', 'LeaderId', 'PlannedTime', 'PlannedStartDate']), { format: 'csv', language: 'ja', userName });
    assert.equal(csv, `${BOM}ID,名称,リーダー,予定工数 (時間),予定開始日\r\n101,設計,鈴木 一郎,7:30,2026-02-01\r\n`);
    const tsv = exportTable(ROWS.slice(0, 1), pickColumns(COLUMNS, ['Id', 'PlannedTime']), { format: 'tsv', header: 'systemName' });
    assert.equal(tsv, 'Id\tPlannedTime\n101\t7:30\n');
  });

  it('an export of all columns imports back as no edit and no problem', () => {
    const csv = exportTable(ROWS, COLUMNS, { format: 'csv', userName });
    const r = importTable(csv, importCtx);
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.changes, []);
    assert.equal(r.recordCount, ROWS.length);
    const ja = importTable(exportTable(ROWS, COLUMNS, { format: 'tsv', language: 'ja', userName }), importCtx);
    assert.deepEqual(ja.problems, []);
    assert.deepEqual(ja.changes, []);
  });

  it('maps headers by system name, English or Japanese display name, alias or explicit mapping', () => {
    const m = mapHeader(['id', 'PlannedTime', 'Planned finish', '優先度', 'ステータス', 'status', '見積', 'メモ欄'], COLUMNS, { 見積: 'Custom_Points', メモ欄: null });
    assert.deepEqual(m.columns.map((c) => c?.key), ['Id', 'PlannedTime', 'PlannedFinishDate', 'Custom_Priority', 'StatusTypeId', undefined, 'Custom_Points', undefined]);
    assert.equal(m.idIndex, 0);
    assert.deepEqual(m.problems.map((p) => [p.line, p.column]), [[1, 'status']], 'a second column for the same field is a problem');
    assert.match(mapHeader(['Name'], COLUMNS).problems[0]!.message, /No ID column/);
  });

  it('turns rows into edits, full-width digits read for numeric columns', () => {
    const text = 'ID\t予定工数 (時間)\t進捗率\t優先度\tステータス\tリーダー\n101\t８\t５０\t低\t完了\ttanaka\n102\t16:00\t0\t中\t未着手\t田中 花子\n';
    const r = importTable(text, importCtx);
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.changes, [
      { id: '101', field: 'PlannedTime', value: 480 },
      { id: '101', field: 'Custom_Priority', value: '3' },
      { id: '101', field: 'StatusTypeId', value: '53' },
      { id: '101', field: 'LeaderId', value: '2102' },
    ]);
    const edits = new TableEdits(ROWS);
    edits.apply(r.changes);
    assert.equal(edits.size, 4);
  });

  it('lists unknown IDs, unknown columns, wrong types and duplicated IDs by line and column; nothing of a bad row becomes an edit', () => {
    const csv = [
      'Id,Name,PlannedTime,ActualProgress,謎の列',
      '101,設計2,8,60,x', // good
      '999,x,1,1,x', // unknown ID
      '102,実装2,abc,10,x', // wrong type in PlannedTime: Name not taken either
      '104,リリース2,1,150,x', // out of range
      '105,a,1,1,x', // duplicated ID (both lines bad)
      '105,b,1,1,x',
      '103,"テスト,改",2,0,x', // good, quoted comma
    ].join('\r\n');
    const r = importTable(csv, importCtx);
    assert.deepEqual(r.changes, [
      { id: '101', field: 'Name', value: '設計2' },
      { id: '101', field: 'PlannedTime', value: 480 },
      { id: '101', field: 'ActualProgress', value: 60 },
      { id: '103', field: 'Name', value: 'テスト,改' },
      { id: '103', field: 'PlannedTime', value: 120 },
    ]);
    const by = r.problems.map((p) => [p.line, p.column ?? null]);
    assert.deepEqual(by, [[1, '謎の列'], [3, 'Id'], [4, 'PlannedTime'], [5, 'ActualProgress'], [6, 'Id'], [7, 'Id']]);
    assert.match(r.problems[0]!.message, /Unknown column "謎の列"/);
    assert.match(r.problems[1]!.message, /Unknown ID 999/);
    assert.match(r.problems[2]!.message, /"abc" is not a time in hours/);
    assert.match(r.problems[3]!.message, /ActualProgress/);
    assert.match(r.problems[4]!.message, /ID 105 is on more than one line \(6, 7\)/);
    assert.equal(r.recordCount, 7);
    assert.equal(r.badRecordCount, 5);
  });

  it('refuses a changed read-only column but accepts it unchanged', () => {
    const r = importTable('Id,ParentName,Name\n101,開発,新\n102,別,新\n', importCtx);
    assert.deepEqual(r.changes, [{ id: '101', field: 'Name', value: '新' }]);
    assert.deepEqual(r.problems.map((p) => [p.line, p.column]), [[3, 'ParentName']]);
    assert.match(r.problems[0]!.message, /moveParentTo/);
  });

  it('names the line where a quote is not closed', () => {
    const r = importTable('Id,Name\n101,"open\n102,x\n', importCtx);
    assert.ok(r.problems.some((p) => p.line === 2 && /not closed/.test(p.message)));
  });
});
