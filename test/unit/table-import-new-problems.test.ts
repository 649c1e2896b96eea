// What an import refuses of its rows without an ID (ImportOptions.newRows): a parent not found
// (by ID or by path, also a path of a later row), a path two items have, a parent row that was
// refused, an ID and a path naming two items, no parent at all, no name, no type, cells as an
// edit refuses them; each problem by line and column with its code, counted by reason, and
// worded in English and Japanese (src/table/importWords.ts with the bundles); the summary's
// count of new items; 1 MB cells and a file of 20,000 new rows.
import * as assert from 'node:assert/strict';
import { type ImportOptions, type ImportProblemCode, type NewRowsOptions, type TableRow, importTable, parseOutline, refusalReasons } from '../../src/table/model';
import { en, jaWords, missing } from './import-words-fixtures';
import { CATALOGUE, COLUMNS, ROWS, ROWS_BY_ID, resolveUser, userName } from './table-fixtures';

const NEW: NewRowsOptions = { parentId: '900', parentPath: '', defaultItemTypes: { folder: '41', task: '42' } };
const ctx: ImportOptions = { columns: COLUMNS, rows: ROWS_BY_ID, catalogue: CATALOGUE, resolveUser, userName };
const imp = (text: string, newRows: NewRowsOptions = NEW, more: Partial<ImportOptions> = {}) => importTable(text, { ...ctx, newRows, ...more });
const problems = (text: string, newRows: NewRowsOptions = NEW, more: Partial<ImportOptions> = {}) => imp(text, newRows, more).problems.map((p) => [p.line, p.column, p.code]);
const MB = 1024 * 1024;

describe('table import: problems of rows without an ID', () => {
  it('a parent ID no row of the table has (unknownParent), on the parent ID column', () => {
    const r = imp('名称,親 ID\n画面,999\n帳票,101\n');
    assert.deepEqual(r.problems.map((p) => [p.line, p.column, p.code, p.params]), [[2, '親 ID', 'unknownParent', { parent: '999' }]]);
    assert.deepEqual(r.drafts.map((d) => d.fields['Name']), ['帳票'], 'the other rows are added');
    assert.deepEqual([r.newRowCount, r.badRecordCount, r.refusedByCode], [1, 1, { unknownParent: 1 }]);
  });

  it('a parent path nothing has (unknownParent), also the path of a new row further down: parents come first', () => {
    assert.deepEqual(problems('名称,親\n画面,どこにもない\n'), [[2, '親', 'unknownParent']]);
    assert.deepEqual(problems('名称,親\n画面,新機能\n新機能,\n'), [[2, '親', 'unknownParent']]);
  });

  it('a path two items have (ambiguousParent): two rows of the table, or a row of the table and a new row', () => {
    const rows: TableRow[] = [...ROWS, { id: '106', fields: { Id: '106', Name: '設計', ParentName: '開発' } }];
    assert.deepEqual(problems('名称,親\n画面,開発 / 設計\n', NEW, { rows: new Map(rows.map((r) => [r.id, r])) }), [[2, '親', 'ambiguousParent']]);
    assert.deepEqual(problems('名称,親\n設計,開発\n画面,開発 / 設計\n', { ...NEW, parentId: '100', parentPath: '開発' }), [[3, '親', 'ambiguousParent']]);
    assert.deepEqual(problems('名称,親\n新機能,\n新機能,\n画面,新機能\n'), [[4, '親', 'ambiguousParent']]);
  });

  it('a parent that is a refused new row (parentRefused) names that row\'s line', () => {
    const r = imp('名称,親,予定開始日\n新機能,,2026/13/1\n設計,新機能,\n画面,新機能 / 設計,\n');
    assert.deepEqual(r.problems.map((p) => [p.line, p.column, p.code, p.params?.['parentLine']]), [[2, '予定開始日', 'cell', undefined], [3, '親', 'parentRefused', 2], [4, '親', 'parentRefused', 3]]);
    assert.deepEqual(r.drafts, []);
  });

  it('a parent ID and a parent path that name two items (parentMismatch)', () => {
    const rows = new Map<string, TableRow>([...ROWS_BY_ID, ['100', { id: '100', fields: { Id: '100', Name: '開発', ParentName: null } }]]);
    const r = imp('名称,親,親 ID\n画面,開発 / 設計,102\n', NEW, { rows });
    assert.deepEqual(r.problems.map((p) => [p.line, p.column, p.code, p.params]), [[2, '親', 'parentMismatch', { parent: '開発 / 設計', parentId: '102' }]]);
  });

  it('no parent cell and no folder chosen (noParent); a parent cell alone needs no folder', () => {
    assert.deepEqual(problems('名称,親 ID\n画面,\n', { defaultItemTypes: NEW.defaultItemTypes }), [[2, undefined, 'noParent']]);
    assert.equal(imp('名称,親 ID\n画面,101\n', { defaultItemTypes: NEW.defaultItemTypes }).newRowCount, 1);
  });

  it('a new row needs a name (nameMissing) and a type (typeMissing); a bad type cell is said once, as a cell', () => {
    assert.deepEqual(problems('ID,名称,予定開始日\n,,2026/5/1\n, \u3000,\n'), [[2, '名称', 'nameMissing'], [3, '名称', 'nameMissing']]);
    assert.deepEqual(problems('ID,予定開始日\n,2026/5/1\n'), [[2, undefined, 'nameMissing']]);
    assert.deepEqual(problems('名称\n画面\n', { parentId: '900' }), [[2, undefined, 'typeMissing']]);
    assert.deepEqual(problems('名称,項目タイプ\n画面,ないタイプ\n', { parentId: '900' }), [[2, '項目タイプ', 'cell']]);
  });

  it('the cells of a new row are refused as an edit refuses them, with the cell problem', () => {
    const r = imp('名称,予定開始日,予定終了日,進捗率,リーダー,担当者,実績工数 (時間),メモ\n画面,2026/5/10,2026/5/1,120,誰か,"鈴木 一郎, 誰も",1:00,' + 'x'.repeat(21) + '\n');
    // (Within a line, as for an edited row: the cells that do not parse first, then those the checks refuse.)
    assert.deepEqual(r.problems.map((p) => [p.column, p.code, p.problem?.code]), [
      ['リーダー', 'cell', 'user'], ['担当者', 'cell', 'user'], ['実績工数 (時間)', 'cell', 'readOnly'], ['予定開始日', 'cell', 'check'], ['予定終了日', 'cell', 'check'], ['進捗率', 'cell', 'check'], ['メモ', 'cell', 'check'],
    ]);
    assert.deepEqual(r.drafts, []);
  });

  it('the text problems of a new row (more cells than the header, a control character, an unclosed quote) refuse it as any row', () => {
    assert.deepEqual(problems('名称,予定開始日\n画面,2026/5/1,extra\n'), [[2, undefined, 'extraCells']]);
    assert.deepEqual(problems('名称\na\u0000b\n'), [[2, '名称', 'control']]);
    const r = imp('名称,メモ\n画面,"open\n帳票,x\n');
    assert.deepEqual(r.problems.map((p) => [p.line, p.code]), [[2, 'unclosedQuote'], [3, 'notRead']]);
    assert.deepEqual(r.drafts, []);
  });

  it('problems are listed by line, the reasons counted (the parents with the IDs)', () => {
    const r = imp('ID,名称,親 ID\n,a,999\n101,設計 v2,555\n,,\n999,x,\n');
    assert.deepEqual(r.problems.map((p) => [p.line, p.code]), [[2, 'unknownParent'], [3, 'cell'], [4, 'nameMissing'], [5, 'unknownId']]);
    assert.deepEqual(refusalReasons(r).map((x) => x.code), ['unknownId', 'unknownParent', 'nameMissing', 'cell']);
  });
});

describe('table import: big cells and files of new rows', () => {
  it('a 1 MB name is refused by its length, a 1 MB parent path is not found; messages quote an excerpt', () => {
    const t0 = performance.now();
    const r = imp(`名称,親\n${'長'.repeat(MB)},\n画面,${'パ'.repeat(MB)}\n`);
    assert.deepEqual(r.problems.map((p) => [p.line, p.code, p.problem?.issue?.code]), [[2, 'cell', 'NAME_TOO_LONG'], [3, 'unknownParent', undefined]]);
    for (const p of r.problems) assert.ok(p.message.length < 300 && String(p.params?.['parent'] ?? '').length <= 31, p.code);
    assert.ok(performance.now() - t0 < 2000);
  });

  it('25,000 new rows with dates and parents by path (1 MB) are read in linear time', () => {
    const lines = ['名称,親,予定開始日,予定終了日'];
    for (let i = 0; lines.length <= 25_000; i++) {
      lines.push(`フェーズ ${i},,2026/5/1,2026/5/31`);
      for (let j = 0; j < 4; j++) lines.push(`作業 ${i}-${j},フェーズ ${i},2026/5/1,2026/5/10`);
    }
    const text = `${lines.join('\r\n')}\r\n`;
    assert.ok(Buffer.byteLength(text) > MB);
    const t0 = performance.now();
    const r = imp(text);
    const ms = performance.now() - t0;
    assert.deepEqual(r.problems, []);
    assert.equal(r.newRowCount, lines.length - 1);
    assert.deepEqual(r.drafts[1]!.parent, { draft: 0 });
    assert.equal(r.drafts[0]!.fields['ItemTypeId'], '41');
    assert.ok(ms < 5000, `${ms.toFixed(0)} ms`);
  });
});

describe('table import words: the problems of new items in English and Japanese', () => {
  afterEach(() => assert.deepEqual(missing.splice(0), [], 'every message used has a Japanese translation'));

  it('each problem of a row without an ID is worded from its code and params', () => {
    const rows = new Map<string, TableRow>([...ROWS_BY_ID, ['100', { id: '100', fields: { Id: '100', Name: '開発', ParentName: null } }]]);
    const r = imp('名称,親,親 ID,予定開始日\n新機能,,,2026/13/1\n設計,新機能,,\n画面,どこ,,\n帳票,開発 / 設計,102,\n,,,\n', NEW, { rows });
    const by = (code: ImportProblemCode) => r.problems.find((p) => p.code === code)!;
    assert.equal(en.importProblemText(by('parentRefused')), 'The parent "新機能" is the new row on line 2, which is not applied: this row is not applied either.');
    assert.equal(jaWords.importProblemText(by('parentRefused')), '親「新機能」は 2 行目の新しい行ですが、その行は反映していないため、この行も反映しません。');
    assert.equal(en.importProblemText(by('unknownParent')), 'The parent "どこ" is not found: no row of the table, and no new row above, has this ID or path.');
    assert.equal(jaWords.importProblemText(by('parentMismatch')), '親のパス「開発 / 設計」と親 ID 102 は同じ作業項目を指していません。');
    assert.equal(jaWords.importProblemText(by('nameMissing')), '名称が空です。新しい作業項目には名称が必要です。');
    assert.equal(en.importProblemText({ ...by('unknownParent'), message: 'something else' }), en.importProblemText(by('unknownParent')), 'worded from the code, not the sentence');
    const none = importTable('名称\n画面\n', { ...ctx, newRows: {} }).problems;
    assert.deepEqual(none.map((p) => p.code), ['noParent', 'typeMissing']);
    assert.match(jaWords.importProblemText(none[0]!), /^この行には親の指定がなく/);
    assert.match(jaWords.importProblemText(none[1]!), /^項目タイプがありません。/);
  });

  it('each problem of an outline line is worded from its code and params', () => {
    const o = { parentId: '900', columns: COLUMNS, defaultItemTypes: { task: '42' } };
    const all = [
      ...parseOutline('WBS\tName\r\n1\tA\r\n1.1.1\tB\r\n2.2\tC\r\nx\tD\r\n', o).problems,
      ...parseOutline('Level\tName\r\n2\tA\r\n1\tB\r\n2\tC\r\n3\tD\r\n', { ...o, maxDepth: 2 }).problems,
      ...parseOutline('A\r\n  B\r\n   C\r\n', o).problems,
      ...parseOutline('A\t\t\r\n\tB\tC\r\n\t\tD\r\n', o).problems,
      ...parseOutline('WBS\t開始日\r\n1\t2026/5/1\r\n', o).problems,
      ...parseOutline('A\r\nB\r\nC\r\n', { ...o, maxLines: 2 }).problems,
    ];
    const by = (code: ImportProblemCode) => all.find((p) => p.code === code) ?? assert.fail(`no ${code} in ${all.map((p) => p.code).join(', ')}`);
    const expected: [ImportProblemCode, string, string][] = [
      ['levelJump', 'The line is on level 3, more than one level below the line above it (level 1).', 'この行はレベル 3 で、前の行 (レベル 1) より 2 段以上深くなっています。'],
      ['wbsMismatch', 'The WBS number 2.2 does not continue 1, the number of its parent on line 2.', 'WBS 番号 2.2 は、2 行目の親の番号 1 に続く番号ではありません。'],
      ['badLevel', '"x" is not a level: write a whole number from 1, or a WBS number such as 1.2.3.', '「x」はレベルではありません。1 以上の整数か、1.2.3 のような WBS 番号を書いてください。'],
      ['noTopLevel', 'The line comes before any line of the top level: an outline starts on its top level.', 'この行は最上位の行より前にあります。アウトラインは最上位の行から始めてください。'],
      ['tooDeep', 'The line is on level 3: at most 2 levels can be added below the chosen row.', 'この行はレベル 3 です。選んだ行の下に追加できるのは 2 段までです。'],
      ['unevenIndent', 'The indent (3 spaces wide) is not a whole number of levels (2 spaces each; a full-width space is 2).', 'インデント (半角スペース 3 個分) がレベルの幅 (半角スペース 2 個分、全角スペースは 2 個分) の整数倍ではありません。'],
      ['extraName', 'The line has more than one name in the columns of the outline (also in column #3).', 'この行にはアウトラインの列に名称が複数あります (列「#3」にもあります)。'],
      ['noNameColumn', 'No name column: the header names no column of names of work items.', '名称の列がありません。見出しに作業項目の名称の列がありません。'],
      ['tooManyLines', 'More than 2 lines: at most 2 new items are added at once. Nothing was read.', '2 行を超えています。一度に追加できる新しい作業項目は 2 件までです。何も読み込んでいません。'],
    ];
    for (const [code, english, japanese] of expected) {
      assert.equal(en.importProblemText(by(code)), english, code);
      assert.equal(jaWords.importProblemText(by(code)), japanese, code);
    }
  });

  it('every code of new items has a reason phrase in both languages', () => {
    const codes: ImportProblemCode[] = ['nameMissing', 'typeMissing', 'noParent', 'unknownParent', 'ambiguousParent', 'parentRefused', 'parentMismatch', 'badLevel', 'noTopLevel', 'levelJump', 'tooDeep', 'unevenIndent', 'extraName', 'wbsMismatch', 'noNameColumn', 'tooManyLines'];
    const phrases = new Set<string>();
    for (const c of codes) {
      phrases.add(en.reasonText(c));
      assert.notEqual(jaWords.reasonText(c), en.reasonText(c), `${c} in Japanese`);
    }
    assert.equal(phrases.size, codes.length, 'one phrase per code');
  });

  it('the summary counts the new items, singular for one', () => {
    const r = imp('ID,名称\n,新機能\n101,設計 v2\n999,x\n');
    assert.equal(
      en.importSummary({ source: 'a.csv', encoding: 'UTF-8', result: r, changedCells: 1 }),
      'Imported a.csv (UTF-8). 1 row applied, 1 new item, 1 row refused (ID not in the table: 1). 1 cell edited in the table; nothing is sent until you review and send the changes.',
    );
    const two = imp('名称\nA\nB\n');
    assert.equal(
      jaWords.importSummary({ source: 'b.csv', result: two, changedCells: 0 }),
      'b.csvをインポートしました。0 行を反映、新しい作業項目 2 件。テーブルで 0 個のセルを編集しました。変更を確認して送信するまで何も送信されません。',
    );
    assert.doesNotMatch(en.importSummary({ source: 'c.csv', result: imp('ID,名称\n101,設計 v2\n'), changedCells: 1 }), /new item/, 'no new items: not said');
  });
});
