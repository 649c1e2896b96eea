import * as assert from 'node:assert/strict';
import { DEFAULT_COLUMN_KEYS, cellValue, columnLabel, formatCell, formatHours, parseHours, pickColumns, rowsFromRecords, sortRows } from '../../src/table/model';
import { COLUMNS, ROWS, col, userName } from './table-fixtures';

const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

describe('table model: rows and columns', () => {
  it('builds the system columns, custom fields of the catalogue (typed by dataType), and leaves deleted fields out', () => {
    assert.equal(col('Custom_Priority').type, 'list');
    assert.deepEqual(col('Custom_Priority').choices?.map((c) => c.name), ['高', '中', '低']);
    assert.equal(col('Custom_Points').type, 'number');
    assert.equal(col('Custom_Due').type, 'date');
    assert.equal(col('PlannedTime').type, 'hours');
    assert.equal(col('ActualProgress').type, 'progress');
    assert.equal(columnLabel(col('Custom_Note'), 'ja'), 'メモ');
    assert.equal(columnLabel(col('StatusTypeId'), 'ja'), 'ステータス');
    assert.ok(!COLUMNS.some((c) => c.key === 'Custom_Old'));
    assert.equal(COLUMNS.filter((c) => c.key === 'Name').length, 1);
  });

  it('has the default column set in order', () => {
    assert.deepEqual(pickColumns(COLUMNS).map((c) => c.key), [...DEFAULT_COLUMN_KEYS]);
  });

  it('reads rows from records, skipping records without an ID', () => {
    const rows = rowsFromRecords([{ fields: { Id: '7', Name: 'x' } }, { fields: { Name: 'no id' } }, { fields: { Id: 8 } }]);
    assert.deepEqual(ids(rows), ['7', '8']);
  });

  it('formats cells: users by name, "0" as empty, hours H:MM, dates without time, progress and list names', () => {
    const [r1, , r3] = ROWS;
    const f = (row: typeof r1, key: string) => formatCell(cellValue(row!, col(key)), col(key), { userName });
    assert.equal(f(r1, 'LeaderId'), '鈴木 一郎');
    assert.equal(f(r1, 'Assignments'), '鈴木 一郎, 田中 花子');
    assert.equal(f(r1, 'PlannedTime'), '7:30');
    assert.equal(f(r1, 'PlannedStartDate'), '2026-02-01');
    assert.equal(f(r1, 'ActualProgress'), '50%');
    assert.equal(f(r1, 'StatusTypeId'), '進行中');
    assert.equal(f(r1, 'Custom_Priority'), '高');
    assert.equal(f(r3, 'LeaderId'), '');
    assert.equal(f(r3, 'StatusTypeId'), '');
    assert.equal(formatCell('2999', col('LeaderId'), { userName }), '2999', 'an unknown user shows its ID');
  });

  it('reads and writes hours with minutes, full-width digits included', () => {
    assert.equal(formatHours(480), '8:00');
    assert.equal(formatHours(5), '0:05');
    assert.equal(parseHours('7.5'), 450);
    assert.equal(parseHours('７：３０'), 450);
    assert.equal(parseHours('7h30m'), 450);
    assert.equal(parseHours('1時間15分'), 75);
    assert.equal(parseHours('90分'), 90);
    assert.equal(parseHours('abc'), undefined);
  });

  it('sorts text in Japanese collation with numbers by value, stable, empty last in both directions', () => {
    // Numbers inside text by value, case after letter: A-1 < A-2 < a-3 < A-10 < B-1 (code units would put A-10 before A-2).
    assert.deepEqual(sortRows(ROWS, col('Code')).map((r) => r.fields.Code), ['A-1', 'A-2', 'a-3', 'A-10', 'B-1']);
    assert.deepEqual(sortRows(ROWS, col('Code'), 'desc').map((r) => r.fields.Code), ['B-1', 'A-10', 'a-3', 'A-2', 'A-1']);
    assert.deepEqual(ids(sortRows(ROWS, col('PlannedTime'))), ['105', '104', '101', '102', '103']);
    assert.deepEqual(ids(sortRows(ROWS, col('PlannedTime'), 'desc')), ['102', '101', '104', '105', '103']);
    // Equal progress (0 for 102 and 103) keeps the input order in both directions.
    assert.deepEqual(ids(sortRows(ROWS, col('ActualProgress'))), ['102', '103', '105', '101', '104']);
    assert.deepEqual(ids(sortRows(ROWS, col('ActualProgress'), 'desc')), ['104', '101', '105', '102', '103']);
    // Leader by the name shown (佐藤 105, 田中 102, 鈴木 101/104 in ja collation), ties stable, empty (103) last.
    assert.deepEqual(ids(sortRows(ROWS, col('LeaderId'), 'asc', { userName })), ['105', '102', '101', '104', '103']);
    assert.deepEqual(ids(sortRows(ROWS, col('LeaderId'), 'desc', { userName })), ['101', '104', '102', '105', '103']);
    assert.deepEqual(ids(sortRows(ROWS, col('PlannedFinishDate'))), ['104', '101', '105', '102', '103']);
  });

  it('sorts kana and kanji names by the ja collator, not by code unit', () => {
    const rows = ['さとう', 'アベ', 'いとう'].map((n, i) => ({ id: String(i), fields: { Name: n } }));
    assert.deepEqual(sortRows(rows, col('Name')).map((r) => r.fields.Name), ['アベ', 'いとう', 'さとう']);
  });

  it('sorts by edited values when given fieldsOf', () => {
    const sorted = sortRows(ROWS, col('PlannedTime'), 'asc', { fieldsOf: (r) => (r.id === '102' ? { ...r.fields, PlannedTime: 1 } : r.fields) });
    assert.equal(sorted[0]!.id, '102');
  });
});
