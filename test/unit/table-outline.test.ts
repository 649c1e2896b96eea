// An outline pasted from Excel as new work items (src/table/model/outline.ts): each of the four
// layouts of a WBS sheet (names by column, a level column, a WBS-number column, indents with
// spaces or full-width spaces), with Japanese and English headers or none, the other columns
// read as the import reads them, and the types of folders and leaves. The clipboard as Excel
// writes it: TAB between cells, CRLF after every row (the last one too).
import * as assert from 'node:assert/strict';
import { type NewItemDraft, type OutlineOptions, firstMisplacedDraft, parseOutline } from '../../src/table/model';
import { CATALOGUE, COLUMNS, resolveUser, userName } from './table-fixtures';

const FOLDER = '41';
const TASK = '42';
const options: OutlineOptions = { parentId: '900', columns: COLUMNS, catalogue: CATALOGUE, resolveUser, userName, defaultItemTypes: { folder: FOLDER, task: TASK } };
/** Rows of cells as Excel copies them. */
const clip = (...rows: string[][]): string => rows.map((r) => `${r.join('\t')}\r\n`).join('');
const outline = (text: string, o: Partial<OutlineOptions> = {}) => parseOutline(text, { ...options, ...o });
/** Each draft as [name, parent (an ID, or "#index" of a draft), type]. */
const tree = (drafts: readonly NewItemDraft[]) => drafts.map((d) => [d.fields['Name'], 'id' in d.parent ? d.parent.id : `#${d.parent.draft}`, d.fields['ItemTypeId']]);

/** The same WBS in each layout: 設計 > 基本設計 > 画面設計, 設計 > 詳細設計, 実装. */
const WBS_TREE = [
  ['設計', '900', FOLDER],
  ['基本設計', '#0', FOLDER],
  ['画面設計', '#1', TASK],
  ['詳細設計', '#0', TASK],
  ['実装', '900', TASK],
];

describe('table outline: the four layouts of a WBS sheet', () => {
  it('names by the column they start in (no header): level 1 in the first column, level 2 one to the right', () => {
    const r = outline(clip(['設計', '', ''], ['', '基本設計', ''], ['', '', '画面設計'], ['', '詳細設計', ''], ['実装', '', '']));
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.layout, { kind: 'columns', header: false, nameColumn: 0, lastNameColumn: 2 });
    assert.deepEqual(tree(r.drafts), WBS_TREE);
    assert.deepEqual(r.drafts.map((d) => d.line), [1, 2, 3, 4, 5]);
    assert.equal(firstMisplacedDraft(r.drafts), -1, 'every parent draft comes before its children');
  });

  it('names by column with a header (大項目 / 中項目 / 小項目) and dates to the right of the deepest level', () => {
    const r = outline(clip(['大項目', '中項目', '小項目', '開始日', '終了日'], ['設計', '', '', '2026/5/1', '2026/5/31'], ['', '基本設計', '', '2026/5/1', '2026/5/15'], ['', '', '画面設計', '2026/5/1', '2026/5/10'], ['', '詳細設計', '', '2026/5/16', '2026/5/31'], ['実装', '', '', '', '']));
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.layout, { kind: 'columns', header: true, nameColumn: 0, lastNameColumn: 2 });
    assert.deepEqual(tree(r.drafts), WBS_TREE);
    assert.deepEqual(r.drafts[2]!.fields, { Name: '画面設計', PlannedStartDate: '2026-05-01', PlannedFinishDate: '2026-05-10', ItemTypeId: TASK });
    assert.deepEqual(r.drafts.map((d) => d.line), [2, 3, 4, 5, 6], 'lines of the pasted text: the header is line 1');
  });

  it('a merged name header (タスク名 over three columns copies as "タスク名\\t\\t") spans the level columns', () => {
    const r = outline(clip(['タスク名', '', '', '予定工数'], ['設計', '', '', ''], ['', '基本設計', '', '8'], ['', '', '画面設計', '7:30']));
    assert.deepEqual(r.problems, []);
    assert.equal(r.layout.kind, 'columns');
    assert.deepEqual(r.drafts.map((d) => [d.fields['Name'], d.fields['PlannedTime']]), [['設計', undefined], ['基本設計', 480], ['画面設計', 450]]);
  });

  it('a level column with an English header (Level | Name | Start | Finish)', () => {
    const r = outline(clip(['Level', 'Name', 'Start', 'Finish'], ['1', 'Design', '2026-05-01', '2026-05-31'], ['2', 'Basic design', '', ''], ['3', 'Screens', '2026-05-02', '2026-05-09'], ['2', 'Detailed design', '', ''], ['1', 'Build', '', '']));
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.layout, { kind: 'levelColumn', header: true, levelColumn: 0, nameColumn: 1 });
    assert.deepEqual(tree(r.drafts).map((x) => x.slice(1)), WBS_TREE.map((x) => x.slice(1)));
    assert.deepEqual(r.drafts[0]!.fields, { Name: 'Design', PlannedStartDate: '2026-05-01', PlannedFinishDate: '2026-05-31', ItemTypeId: FOLDER });
  });

  it('a level column with a Japanese header (階層 | 作業名) and full-width digits', () => {
    const r = outline(clip(['階層', '作業名'], ['１', '設計'], ['２', '基本設計'], ['３', '画面設計'], ['２', '詳細設計'], ['１', '実装']));
    assert.deepEqual(r.problems, []);
    assert.equal(r.layout.kind, 'levelColumn');
    assert.deepEqual(tree(r.drafts), WBS_TREE);
  });

  it('a level column without a header: the first column of small whole numbers, the names next to it', () => {
    const r = outline(clip(['1', '設計'], ['2', '基本設計'], ['3', '画面設計'], ['2', '詳細設計'], ['1', '実装']));
    assert.deepEqual(r.layout, { kind: 'levelColumn', header: false, levelColumn: 0, nameColumn: 1 });
    assert.deepEqual(tree(r.drafts), WBS_TREE);
  });

  it('a WBS-number column with the header WBS | タスク名 | 開始日 | 終了日', () => {
    const r = outline(clip(['WBS', 'タスク名', '開始日', '終了日'], ['1', '設計', '2026/5/1', '2026/5/31'], ['1.1', '基本設計', '', ''], ['1.1.1', '画面設計', '', ''], ['1.2', '詳細設計', '', ''], ['2', '実装', '2026/6/1', '2026/6/30']));
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.layout, { kind: 'wbsColumn', header: true, levelColumn: 0, nameColumn: 1 });
    assert.deepEqual(tree(r.drafts), WBS_TREE);
    assert.deepEqual(r.drafts[4]!.fields, { Name: '実装', PlannedStartDate: '2026-06-01', PlannedFinishDate: '2026-06-30', ItemTypeId: TASK });
  });

  it('WBS numbers with a trailing dot (1.2.3.) and in full-width digits (１．１), without a header', () => {
    const r = outline(clip(['1.', '設計'], ['１．１．', '基本設計'], ['1.1.1.', '画面設計'], ['１．２', '詳細設計'], ['2.', '実装']));
    assert.deepEqual(r.problems, []);
    assert.equal(r.layout.kind, 'wbsColumn');
    assert.deepEqual(tree(r.drafts), WBS_TREE);
  });

  it('a WBS number column under an empty header cell is found from its cells', () => {
    const r = outline(clip(['', 'タスク名'], ['1', '設計'], ['1.1', '基本設計'], ['1.1.1', '画面設計'], ['1.2', '詳細設計'], ['2', '実装']));
    assert.equal(r.layout.kind, 'wbsColumn');
    assert.deepEqual(tree(r.drafts), WBS_TREE);
  });

  it('a part of a WBS (1.2 and below) is read relative to its top: 1.2 and 1.3 go directly below the chosen row', () => {
    const r = outline(clip(['1.2', '詳細設計'], ['1.2.1', '画面'], ['1.2.2', '帳票'], ['1.3', 'レビュー']));
    assert.deepEqual(r.problems, []);
    assert.deepEqual(tree(r.drafts), [['詳細設計', '900', FOLDER], ['画面', '#0', TASK], ['帳票', '#0', TASK], ['レビュー', '900', TASK]]);
  });

  it('indents of full-width spaces (U+3000), one per level', () => {
    const r = outline(clip(['設計'], ['\u3000基本設計'], ['\u3000\u3000画面設計'], ['\u3000詳細設計'], ['実装']));
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.layout, { kind: 'indent', header: false, nameColumn: 0, indentUnit: 2 });
    assert.deepEqual(tree(r.drafts), WBS_TREE);
  });

  it('indents of spaces: the width of one level is the smallest indent seen (here 4)', () => {
    const r = outline(clip(['設計'], ['    基本設計'], ['        画面設計'], ['    詳細設計'], ['実装']));
    assert.deepEqual(r.problems, []);
    assert.equal(r.layout.indentUnit, 4);
    assert.deepEqual(tree(r.drafts), WBS_TREE);
  });

  it('a full-width space is as wide as two spaces: both indent one level of width 2', () => {
    const r = outline(clip(['設計'], ['  基本設計'], ['\u3000\u3000画面設計'], ['\u3000詳細設計'], ['実装']));
    assert.deepEqual(r.problems, []);
    assert.deepEqual(tree(r.drafts), WBS_TREE);
  });

  it('indents in the name column under a header (タスク名 | 担当者), the names without their indent', () => {
    const r = outline(clip(['タスク名', '担当者'], ['設計', ''], ['\u3000基本設計', '鈴木 一郎, 田中 花子'], ['\u3000\u3000画面設計', 'sato'], ['\u3000詳細設計', ''], ['実装  ', '']));
    assert.deepEqual(r.problems, []);
    assert.equal(r.layout.kind, 'indent');
    assert.deepEqual(tree(r.drafts), WBS_TREE);
    assert.deepEqual(r.drafts[1]!.fields['Assignments'], ['2101', '2102']);
    assert.deepEqual(r.drafts[2]!.fields['Assignments'], ['2103']);
  });

  it('a flat list of names is one level', () => {
    const r = outline(clip(['要件定義'], ['設計'], ['実装']));
    assert.deepEqual(tree(r.drafts), [['要件定義', '900', TASK], ['設計', '900', TASK], ['実装', '900', TASK]]);
  });

  it('every draft keeps the line of the pasted text, also after a quoted cell with a line break and empty lines', () => {
    const r = outline('WBS\tタスク名\r\n1\t"設計\n(全体)"\r\n\r\n1.1\t基本設計\r\n');
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.drafts.map((d) => [d.fields['Name'], d.line]), [['設計\n(全体)', 2], ['基本設計', 5]]);
    assert.equal(r.lineCount, 2);
  });
});

describe('table outline: the header and the other columns', () => {
  it('a Japanese header maps type, dates, hours, leader, assignees and custom fields as the import does', () => {
    const r = outline(clip(
      ['WBS', 'タスク名', '項目タイプ', '予定開始日', '予定終了日', '工数', 'リーダー', '担当者', '優先度', 'ポイント'],
      ['1', '設計', 'マイルストーン', '2026/5/1', '2026/5/31', '', 'suzuki', '', '高', ''],
      ['1.1', '基本設計', '', '2026-05-01', '2026年5月15日', '７．５', '田中 花子', '鈴木 一郎、佐藤 次郎', 'mid', '５'],
    ));
    // A date written 2026年5月15日 is no date the cells read: every problem is said, nothing is added.
    assert.deepEqual(r.drafts, []);
    assert.deepEqual(r.problems.map((p) => [p.line, p.column, p.code, p.problem?.code]), [[3, '予定終了日', 'cell', 'type']]);
    const ok = outline(clip(
      ['WBS', 'タスク名', '項目タイプ', '予定開始日', '予定終了日', '工数', 'リーダー', '担当者', '優先度', 'ポイント'],
      ['1', '設計', 'マイルストーン', '2026/5/1', '2026/5/31', '', 'suzuki', '', '高', ''],
      ['1.1', '基本設計', '', '2026-05-01', '2026/5/15', '７．５', '田中 花子', '鈴木 一郎、佐藤 次郎', 'mid', '５'],
    ));
    assert.deepEqual(ok.problems, []);
    assert.deepEqual(ok.drafts[0]!.fields, { Name: '設計', ItemTypeId: '43', PlannedStartDate: '2026-05-01', PlannedFinishDate: '2026-05-31', LeaderId: '2101', Custom_Priority: '1' });
    assert.deepEqual(ok.drafts[1]!.fields, {
      Name: '基本設計', ItemTypeId: TASK, PlannedStartDate: '2026-05-01', PlannedFinishDate: '2026-05-15', PlannedTime: 450, LeaderId: '2102',
      Assignments: ['2101', '2103'], Custom_Priority: '2', Custom_Points: 5,
    });
  });

  it('an English header (Name | Type | Start | Finish | Hours | Leader | Assignees | Review date) maps the same fields', () => {
    const r = outline(clip(['Level', 'Name', 'Type', 'Start', 'Finish', 'Hours', 'Leader', 'Assignees', 'Review date'], ['1', 'Design', 'タスク', '2026-05-01', '2026-05-03', '2h30m', 'tanaka', 'suzuki, sato', '2026/6/1']));
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.drafts[0]!.fields, { Name: 'Design', ItemTypeId: TASK, PlannedStartDate: '2026-05-01', PlannedFinishDate: '2026-05-03', PlannedTime: 150, LeaderId: '2102', Assignments: ['2101', '2103'], Custom_Due: '2026-06-01' });
  });

  it('the type column wins over the default types; an empty type cell takes the default by children', () => {
    const r = outline(clip(['Level', 'Name', 'Type'], ['1', 'Release', 'マイルストーン'], ['1', 'Design', ''], ['2', 'Screens', '']));
    assert.deepEqual(tree(r.drafts), [['Release', '900', '43'], ['Design', '900', FOLDER], ['Screens', '#1', TASK]]);
  });

  it('one default type alone is used for folders and leaves alike', () => {
    const r = outline(clip(['設計'], ['\u3000基本設計']), { defaultItemTypes: { task: TASK } });
    assert.deepEqual(tree(r.drafts), [['設計', '900', TASK], ['基本設計', '#0', TASK]]);
  });

  it('columns that are no field of the table, or say where an item is (ID, parent), are listed and not read', () => {
    const r = outline(clip(['WBS', 'タスク名', '備考', '親', '開始日'], ['1', '設計', 'メモ書き', 'どこか', '2026/5/1']));
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.ignoredColumns, ['備考', '親']);
    assert.deepEqual(r.drafts[0]!.fields, { Name: '設計', PlannedStartDate: '2026-05-01', ItemTypeId: TASK });
  });

  it('without a header, only names and levels are read (the other cells are not fields)', () => {
    const r = outline(clip(['1', '設計', '2026/5/1', 'garbage'], ['1.1', '基本設計', 'x', 'y']));
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.drafts.map((d) => d.fields), [{ Name: '設計', ItemTypeId: FOLDER }, { Name: '基本設計', ItemTypeId: TASK }]);
  });

  it('a first line of names is no header: "設計 / 実装" are items', () => {
    const r = outline(clip(['設計', '2026/5/1'], ['実装', '2026/6/1']));
    assert.equal(r.layout.header, false);
    assert.equal(r.drafts.length, 2);
  });

  it('the caller can force the header, the layout and the columns', () => {
    // "1, 2, 3" alone reads as WBS numbers of one level; forced, as levels.
    const text = clip(['1', 'A'], ['2', 'B'], ['3', 'C']);
    assert.deepEqual(tree(outline(text).drafts).map((x) => x[1]), ['900', '900', '900']);
    assert.deepEqual(tree(outline(text, { layout: 'levelColumn' }).drafts).map((x) => x[1]), ['900', '#0', '#1']);
    // A name that looks like a header read as an item.
    assert.equal(outline(clip(['Name'], ['Design']), { header: false }).drafts.length, 2);
    assert.equal(outline(clip(['Name'], ['Design'])).drafts.length, 1);
    // Names in the second column, levels in the third.
    const r = outline(clip(['x', 'Design', '1'], ['y', 'Screens', '2']), { layout: 'levelColumn', levelColumn: 2, nameColumn: 1 });
    assert.deepEqual(r.problems, []);
    assert.deepEqual(tree(r.drafts), [['Design', '900', FOLDER], ['Screens', '#0', TASK]]);
    // Indents forced where the names also move right: only the indent counts.
    assert.equal(outline(clip(['設計'], ['　基本設計']), { layout: 'indent' }).layout.indentUnit, 2);
  });

  it('a header mapping of the caller maps a column the labels do not know', () => {
    const r = outline(clip(['WBS', 'タスク名', '着手日'], ['1', '設計', '2026/5/1']), { mapping: { 着手日: 'PlannedStartDate' } });
    assert.deepEqual(r.problems, []);
    assert.equal(r.drafts[0]!.fields['PlannedStartDate'], '2026-05-01');
  });

  it('a formula neutralized by an export (a leading apostrophe) is read back without it', () => {
    const r = outline(clip(['Level', 'Name'], ['1', "'=SUM(A1)"]));
    assert.equal(r.drafts[0]!.fields['Name'], '=SUM(A1)');
  });

  it('a quote that closes no cell is a character of the name, and later lines are read as they are', () => {
    const r = outline(clip(['Level', 'Name'], ['1', '"5 inch screws'], ['2', 'nuts']));
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.drafts.map((d) => d.fields['Name']), ['"5 inch screws', 'nuts']);
    assert.deepEqual(r.quoteAsText, [{ line: 2, column: 'Name' }]);
  });
});
