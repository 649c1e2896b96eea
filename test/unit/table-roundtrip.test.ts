// Export then import, unchanged, gives no edit and no problem: every column set and
// header style, line breaks of any kind in cells, commas and quotes, users written by
// name, custom fields (one named like a built-in column), dates, hours, progress and
// formula-looking cells; as fixed cases and as a property over random tables.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import type { FieldType } from '../../src/schema/catalogue';
import { serviceFieldCatalogue } from '../../src/schema/service-fields';
import {
  type ColumnDef, type DelimitedFormat, type TableRow, buildColumns, exportHeaders, exportTable, importTable, mapHeader, pickColumns, userNames, userResolver,
} from '../../src/table/model';

const FIELDS: FieldType[] = [
  { systemName: 'Name', name: 'Name', dataType: 'String', isSystemField: true, maxLength: 256 },
  { systemName: 'PlannedTime', name: 'Planned time', dataType: 'Integer', isSystemField: true, minValue: 0 },
  { systemName: 'ActualProgress', name: 'Progress', dataType: 'Decimal', isSystemField: true, minValue: 0, maxValue: 100 },
  // Named like built-in columns: the Japanese header of Project, the English one of Status.
  { systemName: 'Custom_Project', name: 'プロジェクト', dataType: 'String' },
  { systemName: 'Custom_Status', name: 'Status', dataType: 'String' },
  // A name that looks like "label (SystemName)" of another column.
  { systemName: 'Custom_Cost', name: 'Cost (Code)', dataType: 'Decimal' },
  { systemName: 'Custom_Priority', name: '優先度', dataType: 'List', choices: [{ id: '1', name: '高', code: 'high' }, { id: '2', name: '中' }, { id: '3', name: '=低' }] },
  { systemName: 'Custom_Points', name: 'ポイント', dataType: 'Decimal' },
  { systemName: 'Custom_Due', name: 'Review, "final" date', dataType: 'Date' },
  { systemName: 'Custom_Flag', name: 'フラグ', dataType: 'Boolean' },
  { systemName: 'Custom_Owner', name: '=Owner', dataType: 'User' },
];
const CATALOGUE = serviceFieldCatalogue(FIELDS);
const COLUMNS = buildColumns(FIELDS, {
  itemTypes: [{ id: '41', name: 'フォルダー' }, { id: '42', name: 'タスク' }],
  statusTypes: [{ id: '51', name: '未着手' }, { id: '52', name: '進行中, 確認中' }, { id: '53', name: '"完了"' }],
});
const USERS = [
  { id: '2101', name: '鈴木 一郎', loginName: 'suzuki' },
  { id: '2102', name: 'Tanaka, "Hana"', loginName: 'tanaka' },
  { id: '2103', name: '@sato', loginName: 'sato' },
];
// The table shows names it knows from the rows alone (a guest, a group) but cannot resolve them by the directory.
const CARRIED = new Map([['3001', 'ゲスト 様']]);
const userName = (id: string): string | undefined => userNames(USERS)(id) ?? CARRIED.get(id);
const resolveUser = userResolver(USERS);

function row(id: string, fields: Record<string, unknown>): TableRow {
  return { id, fields: { Id: id, ...fields } };
}

const ROWS: TableRow[] = [
  row('101', {
    Name: '=HYPERLINK("http://x","y")', Code: '-cmd|/c calc', ItemTypeId: '42', StatusTypeId: '52', LeaderId: '2102', Assignments: [{ partyId: '2101' }, { partyId: '2103' }],
    PlannedStartDate: '2026-02-01T00:00:00', PlannedFinishDate: '2026-02-20', PlannedTime: 450, ActualTime: 30, ActualProgress: 33.333, ParentName: '開発, 第1期', FolderName: 'F',
    ParentId: '100', Description: '一行目\r\n二行目\r\n', ProjectName: 'P', Custom_Project: 'プロジェクトA', Custom_Status: '+81 3-1234', Custom_Priority: '3', Custom_Points: -5,
    Custom_Due: '2026-03-01', Custom_Flag: true, Custom_Owner: '3001',
  }),
  row('102', {
    Name: '"quoted" name', Code: '@SUM(1)', ItemTypeId: '42', StatusTypeId: '53', LeaderId: '3001', Assignments: [], PlannedStartDate: null, PlannedFinishDate: null,
    PlannedTime: null, ActualProgress: 0, Description: 'LF\nonly\rCR\r\nCRLF', Custom_Project: "'=already quoted", Custom_Status: '\tTAB first', Custom_Points: 1.5, Custom_Flag: false,
  }),
  row('103', { Name: ' edge spaces ', Code: '-5', ItemTypeId: '41', StatusTypeId: '0', LeaderId: '0', PlannedTime: 0, ActualProgress: 100, Description: '\rCR first', Custom_Status: "'plain" }),
];
const BY_ID = new Map(ROWS.map((r) => [r.id, r]));
const importCtx = { columns: COLUMNS, rows: BY_ID, catalogue: CATALOGUE, resolveUser, userName };

const HEADER_STYLES = [
  { name: 'system names', header: 'systemName' as const },
  { name: 'English headers', language: 'en' },
  { name: 'Japanese headers', language: 'ja' },
];
const COLUMN_SETS: { name: string; columns: ColumnDef[] }[] = [
  { name: 'all columns', columns: COLUMNS },
  { name: 'shown columns', columns: pickColumns(COLUMNS, ['Name', 'StatusTypeId', 'LeaderId', 'PlannedTime', 'ActualProgress', 'Custom_Project', 'Custom_Owner']) },
  { name: 'a custom field named like a built-in, alone', columns: pickColumns(COLUMNS, ['Custom_Project', 'Custom_Status']) },
];

describe('table model: export then import gives no edit', () => {
  for (const set of COLUMN_SETS) {
    for (const style of HEADER_STYLES) {
      for (const format of ['csv', 'tsv'] as DelimitedFormat[]) {
        it(`${set.name}, ${style.name}, ${format.toUpperCase()}: no edit, no problem, every row unchanged`, () => {
          const text = exportTable(ROWS, set.columns, { format, ...style, userName, allColumns: COLUMNS });
          const r = importTable(text, importCtx);
          assert.deepEqual(r.problems, []);
          assert.deepEqual(r.changes, []);
          assert.equal(r.recordCount, ROWS.length);
          assert.equal(r.unchangedRowCount, ROWS.length);
          assert.equal(r.badRecordCount, 0);
        });
      }
    }
  }

  it('every header the export writes maps back to its own column; shared display names carry the system name', () => {
    for (const language of ['en', 'ja']) {
      const headers = exportHeaders(COLUMNS, { language, allColumns: COLUMNS });
      const mapped = mapHeader(headers, COLUMNS);
      assert.deepEqual(mapped.problems, [], language);
      assert.deepEqual(mapped.columns.map((c) => c?.key), COLUMNS.map((c) => c.key), language);
    }
    const ja = exportHeaders(COLUMNS, { language: 'ja', allColumns: COLUMNS });
    assert.ok(ja.includes('プロジェクト (ProjectName)') && ja.includes('プロジェクト (Custom_Project)'), ja.join(' | '));
    assert.ok(exportHeaders(COLUMNS, { language: 'en' }).includes('Status (StatusTypeId)'));
    assert.ok(exportHeaders(COLUMNS, { language: 'ja' }).includes('名称'), 'a header no other column has is written as it is');
  });

  it('an older file with the same header twice maps them in column order: the built-in column first, then the custom field', () => {
    const m = mapHeader(['ID', 'プロジェクト', 'プロジェクト'], COLUMNS);
    assert.deepEqual(m.columns.map((c) => c?.key), ['Id', 'ProjectName', 'Custom_Project']);
    assert.deepEqual(m.problems, []);
  });

  it('a header is first the exact display name: "Cost (Code)" is the custom field so named, not the Code column', () => {
    assert.deepEqual(mapHeader(['ID', 'Cost (Code)', 'Code'], COLUMNS).columns.map((c) => c?.key), ['Id', 'Custom_Cost', 'Code']);
    assert.ok(exportHeaders(COLUMNS, { language: 'en' }).includes('Cost (Code)'));
  });

  it('a description written with CRLF comes back as no edit when the file has LF or CR breaks, and an edit keeps its breaks as written', () => {
    const header = 'ID,Description\r\n';
    const lf = importTable(`${header}101,"一行目\n二行目\n"\r\n`, importCtx);
    assert.deepEqual(lf.changes, []);
    const cr = importTable(`${header}101,"一行目\r二行目\r"\r\n`, importCtx);
    assert.deepEqual(cr.changes, []);
    const edited = importTable(`${header}101,"一行目\r\n三行目"\r\n`, importCtx);
    assert.deepEqual(edited.changes, [{ id: '101', field: 'Description', value: '一行目\r\n三行目' }]);
  });

  it('neutralizes formula-like cells with an apostrophe, leaves plain numbers, and reads both back as they were', () => {
    const text = exportTable(ROWS, pickColumns(COLUMNS, ['Name', 'Code', 'Custom_Status', 'Custom_Points', 'Custom_Project']), { format: 'csv', header: 'systemName' });
    const lines = text.split('\r\n');
    assert.equal(lines[1], `101,"'=HYPERLINK(""http://x"",""y"")",'-cmd|/c calc,'+81 3-1234,-5,プロジェクトA`);
    assert.equal(lines[2], `102,"""quoted"" name",'@SUM(1),'\tTAB first,1.5,''=already quoted`);
    assert.equal(lines[3], `103," edge spaces ",-5,'plain,,`);
  });

  it('reads a user back as the export wrote them: a name only the rows carry, and a user picked by that name', () => {
    const text = 'ID,LeaderId,Custom_Owner\r\n101,ゲスト 様,鈴木 一郎\r\n102,"Tanaka, ""Hana""",\r\n';
    const r = importTable(text, importCtx);
    assert.deepEqual(r.problems.map((p) => [p.line, p.code]), []);
    assert.deepEqual(r.changes, [
      { id: '101', field: 'LeaderId', value: '3001' },
      { id: '101', field: 'Custom_Owner', value: '2101' },
      { id: '102', field: 'LeaderId', value: '2102' },
    ]);
    assert.equal(r.appliedRowCount, 2);
  });
});

// Random tables: text of Japanese, line breaks of every kind, quotes, commas, tabs and
// formula starts; users known, unknown and carried; dates with and without a time part.
const PIECES = ['設計', 'ﾃｽﾄ', '漢字', 'a', 'Z', ' ', '\u3000', '\r\n', '\n', '\r', '"', '""', ',', '\t', '=', '+', '-', '@', "'", '1', '-5', '%', '(', ')', 'x"y'];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 8 }).map((a) => a.join(''));
const userId = fc.constantFrom('2101', '2102', '2103', '3001', '9999', '0');
const date = fc.tuple(fc.integer({ min: 2000, max: 2099 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }), fc.boolean()).map(
  ([y, m, d, t]) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}${t ? 'T00:00:00' : ''}`,
);
const maybe = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | null> => fc.option(a, { nil: null });
const fieldsArb = fc.record({
  Name: text, Code: maybe(text), Description: maybe(text), ParentName: maybe(text), ProjectName: maybe(text),
  ItemTypeId: fc.constantFrom('41', '42'), StatusTypeId: fc.constantFrom('51', '52', '53', '0'),
  LeaderId: maybe(userId), Assignments: fc.array(userId.map((partyId) => ({ partyId })), { maxLength: 3 }),
  PlannedStartDate: maybe(date), PlannedFinishDate: maybe(date),
  PlannedTime: maybe(fc.integer({ min: 0, max: 200_000 })), ActualProgress: maybe(fc.double({ min: 0, max: 100, noNaN: true })),
  Custom_Project: maybe(text), Custom_Status: maybe(text), Custom_Priority: maybe(fc.constantFrom('1', '2', '3')),
  Custom_Points: maybe(fc.double({ min: -1e6, max: 1e6, noNaN: true })), Custom_Due: maybe(date), Custom_Flag: maybe(fc.boolean()), Custom_Owner: maybe(userId),
});

describe('table model: export then import of random tables (property)', () => {
  for (const format of ['csv', 'tsv'] as DelimitedFormat[]) {
    it(`${format.toUpperCase()}: any table, any header style, all or some columns: no edit and no problem`, () => {
      fc.assert(
        fc.property(
          fc.array(fieldsArb, { minLength: 1, maxLength: 8 }),
          fc.constantFrom(...HEADER_STYLES),
          fc.subarray(COLUMNS.map((c) => c.key), { minLength: 1 }),
          (list, style, keys) => {
            const rows = list.map((f, i) => row(String(1000 + i), f));
            const text = exportTable(rows, pickColumns(COLUMNS, keys), { format, ...style, userName, allColumns: COLUMNS });
            const r = importTable(text, { ...importCtx, rows: new Map(rows.map((x) => [x.id, x])) });
            assert.deepEqual(r.problems, []);
            assert.deepEqual(r.changes, []);
            assert.equal(r.unchangedRowCount, rows.length);
          },
        ),
        { numRuns: 150 },
      );
    });
  }
});
