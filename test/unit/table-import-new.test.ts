// An import of CSV / TSV rows without an ID as new work items (ImportOptions.newRows,
// src/table/model/import-new.ts): where each new row goes (the folder chosen, a parent ID
// column, a parent path column matched against the table and against the file's earlier new
// rows), its type, its cells read as an edit reads them, with Japanese and English headers; the
// counts of the result; the file an export wrote with a row copied and its ID cleared; and the
// old behaviour without the option.
import * as assert from 'node:assert/strict';
import { type ImportOptions, type NewItemDraft, type NewRowsOptions, type TableRow, buildColumns, exportTable, firstMisplacedDraft, importTable, importTableInSlices } from '../../src/table/model';
import { CATALOGUE, COLUMNS, FIELD_TYPES, ROWS, ROWS_BY_ID, resolveUser, userName } from './table-fixtures';

const FOLDER = '41';
const TASK = '42';
const NEW: NewRowsOptions = { parentId: '900', parentPath: '', defaultItemTypes: { folder: FOLDER, task: TASK } };
const ctx: ImportOptions = { columns: COLUMNS, rows: ROWS_BY_ID, catalogue: CATALOGUE, resolveUser, userName };
const imp = (text: string, newRows: NewRowsOptions | null = NEW, more: Partial<ImportOptions> = {}) => importTable(text, { ...ctx, ...(newRows ? { newRows } : {}), ...more });
/** Each draft as [name, parent (an ID, or "#index" of a draft), type, line]. */
const tree = (drafts: readonly NewItemDraft[]) => drafts.map((d) => [d.fields['Name'], 'id' in d.parent ? d.parent.id : `#${d.parent.draft}`, d.fields['ItemTypeId'], d.line]);

/** The table of a project: the folder 開発 on level 1 with the fixture's rows below it. */
const PROJECT_ROWS: TableRow[] = [{ id: '100', fields: { Id: '100', Name: '開発', ItemTypeId: FOLDER, ParentName: null } }, ...ROWS];
const PROJECT = new Map(PROJECT_ROWS.map((r) => [r.id, r]));

describe('table import: rows without an ID as new items', () => {
  it('without newRows, a row without an ID is refused as before (emptyId) and no draft is made', () => {
    const r = imp('ID,名称\n,新しい作業\n101,設計 v2\n', null);
    assert.deepEqual(r.problems.map((p) => [p.line, p.code]), [[2, 'emptyId']]);
    assert.deepEqual(r.drafts, []);
    assert.equal(r.newRowCount, 0);
    assert.deepEqual(r.changes, [{ id: '101', field: 'Name', value: '設計 v2' }]);
    assert.deepEqual(imp('名称\n新しい作業\n', null).problems.map((p) => p.code), ['noIdColumn']);
  });

  it('with newRows, a row without an ID is a draft below the chosen folder; the other rows are edits as before', () => {
    const r = imp('ID,名称,予定開始日\n,新しい作業,2026/5/1\n101,設計 v2,2026-02-01\n,もう一つ,\n');
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.drafts, [
      { parent: { id: '900' }, fields: { Name: '新しい作業', PlannedStartDate: '2026-05-01', ItemTypeId: TASK }, line: 2 },
      { parent: { id: '900' }, fields: { Name: 'もう一つ', ItemTypeId: TASK }, line: 4 },
    ]);
    assert.deepEqual(r.changes, [{ id: '101', field: 'Name', value: '設計 v2' }]);
    assert.deepEqual([r.recordCount, r.appliedRowCount, r.unchangedRowCount, r.newRowCount, r.badRecordCount], [3, 1, 0, 2, 0]);
  });

  it('a file without an ID column is a file of new rows (no noIdColumn problem)', () => {
    const r = imp('Name,Type\nDesign,タスク\nBuild,\n');
    assert.deepEqual(r.problems, []);
    assert.deepEqual(tree(r.drafts), [['Design', '900', TASK, 2], ['Build', '900', TASK, 3]]);
  });

  it('a parent ID column (親 ID as the export heads it, Parent ID, ParentId) puts the row below that row of the table', () => {
    for (const h of ['親 ID', '親ID', 'Parent ID', 'ParentId']) {
      const r = imp(`ID,名称,${h}\n,画面設計,101\n,帳票設計,\n`);
      assert.deepEqual(r.problems, [], h);
      assert.deepEqual(tree(r.drafts), [['画面設計', '101', TASK, 2], ['帳票設計', '900', TASK, 3]], h);
    }
  });

  it('a parent path column (親 / Parent, as the export writes ParentName) is matched against the paths of the table', () => {
    const r = importTable('ID,名称,親\n,画面設計,開発 / 設計\n,リリース準備,開発\n', { ...ctx, rows: PROJECT, newRows: NEW });
    assert.deepEqual(r.problems, []);
    assert.deepEqual(tree(r.drafts), [['画面設計', '101', TASK, 2], ['リリース準備', '100', TASK, 3]]);
    const en = importTable('Id,Name,Parent\n,Screens,開発 / 設計\n', { ...ctx, rows: PROJECT, newRows: NEW });
    assert.deepEqual(tree(en.drafts), [['Screens', '101', TASK, 2]]);
  });

  it('a file adds a folder and its children: a path names the new rows above it, folders get the folder type', () => {
    const r = imp('ID,名称,親\n,新機能,\n,設計,新機能\n,画面,新機能 / 設計\n,帳票,新機能 / 設計\n,実装,新機能\n');
    assert.deepEqual(r.problems, []);
    assert.deepEqual(tree(r.drafts), [['新機能', '900', FOLDER, 2], ['設計', '#0', FOLDER, 3], ['画面', '#1', TASK, 4], ['帳票', '#1', TASK, 5], ['実装', '#0', TASK, 6]]);
    assert.equal(firstMisplacedDraft(r.drafts), -1);
  });

  it('below a chosen folder that is a row, the paths of the new rows start with that row\'s path', () => {
    const r = imp('名称,親\n新機能,\n設計,開発 / 設計 / 新機能\n', { ...NEW, parentId: '101', parentPath: undefined });
    assert.deepEqual(r.problems, []);
    assert.deepEqual(tree(r.drafts), [['新機能', '101', FOLDER, 2], ['設計', '#0', TASK, 3]]);
  });

  it('below a chosen folder that is no row, its path (newRows.parentPath) starts the paths of the new rows', () => {
    const r = imp('名称,親\n新機能,\n設計,A / B / 新機能\n直下,A / B\n', { ...NEW, parentId: '777', parentPath: 'A / B' });
    assert.deepEqual(r.problems, []);
    assert.deepEqual(tree(r.drafts), [['新機能', '777', FOLDER, 2], ['設計', '#0', TASK, 3], ['直下', '777', TASK, 4]]);
  });

  it('a parent ID and a parent path that name the same item are taken', () => {
    const r = importTable('ID,名称,親,親 ID\n,画面設計,開発 / 設計,101\n', { ...ctx, rows: PROJECT, newRows: NEW });
    assert.deepEqual(r.problems, []);
    assert.deepEqual(tree(r.drafts), [['画面設計', '101', TASK, 2]]);
  });

  it('the type: a type column (項目タイプ / Type) by name, code or ID, else the default by children', () => {
    const r = imp('名称,項目タイプ,親\nリリース,マイルストーン,\n設計,,\n画面,,設計\nメモ,42,\n');
    assert.deepEqual(tree(r.drafts).map((x) => x[2]), ['43', FOLDER, TASK, TASK]);
    const one = imp('Name,Type\nA,\n', { parentId: '900', defaultItemTypes: { folder: FOLDER } });
    assert.deepEqual(tree(one.drafts).map((x) => x[2]), [FOLDER], 'one default type alone serves leaves too');
  });

  it('each cell is read as an edit reads it: dates, hours, status, leader, assignees by the names the export writes, custom fields', () => {
    const r = imp('名称,ステータス,リーダー,担当者,予定開始日,予定終了日,予定工数 (時間),進捗率,優先度,ポイント,フラグ,Review date\n'
      + '新しい作業,進行中,鈴木 一郎,"鈴木 一郎, 田中 花子",２０２６/５/１,2026-05-10,7:30,50%,high,１０,はい,2026/6/1\n');
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.drafts[0]!.fields, {
      Name: '新しい作業', StatusTypeId: '52', LeaderId: '2101', Assignments: ['2101', '2102'], PlannedStartDate: '2026-05-01', PlannedFinishDate: '2026-05-10',
      PlannedTime: 450, ActualProgress: 50, Custom_Priority: '1', Custom_Points: 10, Custom_Flag: true, Custom_Due: '2026-06-01', ItemTypeId: TASK,
    });
  });

  it('English headers read the same fields', () => {
    const r = imp('Name,Status,Leader,Assignees,Planned start,Planned finish,Planned time (h),Progress\nNew task,done,tanaka,sato,2026-05-01,2026-05-02,2,10\n');
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.drafts[0]!.fields, { Name: 'New task', StatusTypeId: '53', LeaderId: '2102', Assignments: ['2103'], PlannedStartDate: '2026-05-01', PlannedFinishDate: '2026-05-02', PlannedTime: 120, ActualProgress: 10, ItemTypeId: TASK });
  });

  it('a row copied in an exported file (every column, Japanese headers) with its ID cleared is a new row below the same parent', () => {
    const columns = buildColumns(FIELD_TYPES, { itemTypes: COLUMNS.find((c) => c.key === 'ItemTypeId')!.choices, statusTypes: COLUMNS.find((c) => c.key === 'StatusTypeId')!.choices });
    const text = exportTable(PROJECT_ROWS, columns, { format: 'csv', language: 'ja', userName, allColumns: columns });
    const lines = text.split('\r\n');
    const copy = lines[2]!.replace(/^101,設計,/, ',設計 (複製),');
    assert.notEqual(copy, lines[2]);
    const r = importTable([...lines.slice(0, -1), copy, ''].join('\r\n'), { ...ctx, columns, rows: PROJECT, newRows: NEW });
    assert.deepEqual(r.problems, []);
    assert.equal(r.changes.length, 0, 'the exported rows are unchanged');
    assert.equal(r.unchangedRowCount, PROJECT_ROWS.length);
    assert.deepEqual(r.drafts, [{
      parent: { id: '100' },
      fields: {
        Name: '設計 (複製)', Code: 'A-1', ItemTypeId: TASK, StatusTypeId: '52', LeaderId: '2101', Assignments: ['2101', '2102'], PlannedStartDate: '2026-02-01', PlannedFinishDate: '2026-02-20',
        PlannedTime: 450, ActualProgress: 50, Custom_Priority: '1', Custom_Points: 5,
      },
      line: lines.length,
    }]);
  });

  it('the import in slices gives the same drafts and counts', async () => {
    const text = 'ID,名称,親\n,新機能,\n101,設計 v2,開発\n,設計,新機能\n';
    const whole = imp(text);
    const sliced = await importTableInSlices(text, { ...ctx, newRows: NEW }, { sliceMs: 0 });
    assert.deepEqual(sliced.drafts, whole.drafts);
    assert.deepEqual([sliced.newRowCount, sliced.appliedRowCount], [2, 1]);
    assert.deepEqual(sliced.problems, whole.problems);
  });

  it('a new row does not count as an ID on several lines, and an ID on several lines is still refused', () => {
    const r = imp('ID,名称\n,a\n,a\n101,x\n101,y\n');
    assert.equal(r.newRowCount, 2);
    assert.deepEqual(r.problems.map((p) => [p.line, p.code]), [[4, 'duplicateId'], [5, 'duplicateId']]);
  });
});
