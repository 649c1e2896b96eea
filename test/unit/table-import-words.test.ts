// The words of an import (src/table/importWords.ts) from the model's real results: each problem
// code worded from its params, in English and through the Japanese bundle; the summary's counts
// with their singular; the reasons counted by code; nothing worded from English sentences.
import * as assert from 'node:assert/strict';
import { type ImportProblemCode, importTable } from '../../src/table/model';
import { en, ja, jaWords, missing } from './import-words-fixtures';
import { CATALOGUE, COLUMNS, ROWS_BY_ID, resolveUser, userName } from './table-fixtures';

const ctx = { columns: COLUMNS, rows: ROWS_BY_ID, catalogue: CATALOGUE, resolveUser, userName };
const lines = (text: string) => importTable(text, ctx);

describe('table import words: problem codes in English and Japanese', () => {
  afterEach(() => assert.deepEqual(missing.splice(0), [], 'every message used has a Japanese translation'));

  it('an unclosed quote names its line, and each line it swallowed is "not read" with the line the quote opened on', () => {
    const r = lines('ID,名称\n101,"abc\n102,def\n103,ghi\n');
    const [open, ...after] = r.problems;
    assert.equal(open!.code, 'unclosedQuote');
    assert.equal(en.importProblemText(open!), 'Line 2: a quoted cell is not closed (a " is missing): this row and the lines after it are not read.');
    assert.equal(jaWords.importProblemText(open!), '2 行目: 引用符で囲んだセルが閉じていません (" がありません)。この行とその後の行は読み込んでいません。');
    assert.deepEqual(after.map((p) => p.code), ['notRead', 'notRead']);
    assert.equal(en.importProblemText(after[0]!), 'Line 3 is not read: the quote opened on line 2 does not close where a cell ends.');
    assert.equal(jaWords.importProblemText(after[1]!), '4 行目は読み込んでいません: 2 行目で開いた引用符がセルの終わりで閉じていません。');
  });

  it('text after a closing quote and a control character are worded with their line, column, character and position', () => {
    const quote = lines('ID,名称\n101,"5 inch" screw\n').problems[0]!;
    assert.equal(quote.code, 'textAfterQuote');
    assert.match(en.importProblemText(quote), /^Line 2: a quoted cell is closed and followed by more text/);
    assert.match(jaWords.importProblemText(quote), /^2 行目: 引用符で囲んだセルが閉じた後/);
    const control = lines('ID,名称\n101,ab\u0000c\n').problems[0]!;
    assert.equal(control.code, 'control');
    assert.equal(en.importProblemText(control), 'Column 名称: the cell holds the control character U+0000 (at character 3); the row is not read.');
    assert.equal(jaWords.importProblemText(control), '列「名称」: セルに制御文字 (U+0000) があります (3 文字目)。この行は読み込んでいません。');
  });

  it('ID and header problems are worded from their params (not from the English sentence)', () => {
    const r = lines('ID,名称,Nope\n999,a,x\n101,b,x\n101,c,x\n,d,x\n102,e,x,extra\n');
    const by = (code: ImportProblemCode) => r.problems.find((p) => p.code === code)!;
    assert.equal(en.importProblemText(by('unknownColumn')), 'Unknown column "Nope": no field has this system name or display name; map it to a field or leave it out.');
    assert.equal(jaWords.importProblemText(by('unknownId')), ja['Unknown ID {0}: no such work item in the table.']!.replace('{0}', '999'));
    assert.equal(en.importProblemText(by('duplicateId')), 'ID 101 is on more than one line (3, 4).');
    assert.equal(en.importProblemText(by('emptyId')), 'The ID is empty.');
    assert.equal(en.importProblemText(by('extraCells')), 'The line has more cells (4) than the header (3).');
    assert.equal(jaWords.importProblemText(by('extraCells')), 'この行のセル (4 個) が見出し (3 個) より多くあります。');
    // A changed sentence does not change the words: they come from the code and params.
    assert.equal(en.importProblemText({ ...by('duplicateId'), message: 'something else' }), 'ID 101 is on more than one line (3, 4).');
    assert.equal(en.importProblemText({ line: 2, message: 'An old sentence.' }), 'An old sentence.', 'no code: the sentence as written');
  });

  it('every code of the model has a reason phrase in both languages', () => {
    const codes: ImportProblemCode[] = ['unknownColumn', 'sameField', 'mappingField', 'noIdColumn', 'unclosedQuote', 'notRead', 'textAfterQuote', 'control', 'emptyId', 'unknownId', 'duplicateId', 'extraCells', 'cell'];
    for (const c of codes) {
      assert.ok(en.reasonText(c).length > 0, c);
      assert.notEqual(jaWords.reasonText(c), en.reasonText(c), `${c} in Japanese`);
    }
  });
});

describe('table import words: the summary', () => {
  afterEach(() => assert.deepEqual(missing.splice(0), [], 'every message used has a Japanese translation'));

  it('counts rows applied, unchanged and refused with the reasons by code, singular for one', () => {
    const r = lines('ID,名称\n101,new name\n102,実装\n999,x\n103,"open\n');
    assert.deepEqual([r.appliedRowCount, r.unchangedRowCount, r.badRecordCount], [1, 1, 2]);
    const s = en.importSummary({ source: 'a.csv', encoding: 'UTF-8', result: r, changedCells: 1 });
    assert.equal(
      s,
      'Imported a.csv (UTF-8). 1 row applied, 1 row unchanged, 2 rows refused (unclosed quote: 1, ID not in the table: 1). 1 cell edited in the table; nothing is sent until you review and send the changes.',
    );
    assert.doesNotMatch(s, /\b1 rows\b|\b1 cells\b/);
    const j = jaWords.importSummary({ source: 'a.csv', encoding: 'UTF-8', result: r, changedCells: 1 });
    assert.match(j, /^a\.csv \(UTF-8\) をインポートしました。1 行を反映、1 行は変更なし、2 行は反映せず \(閉じていない引用符: 1、テーブルにない ID: 1\)。/);
    assert.match(j, /テーブルにない ID: 1/);
    assert.doesNotMatch(j, /[A-Za-z]{4,}/, 'no English in the Japanese summary');
  });

  it('says the rows unchanged, the problems not listed and the cells whose quote was read as text', () => {
    const result = { recordCount: 6, badRecordCount: 3, appliedRowCount: 2, unchangedRowCount: 1, refusedByCode: { unknownId: 3 }, problemsOmitted: 1, quoteAsText: [{ line: 2, column: 'Name' }, { line: 3, column: 'Name' }] };
    const s = en.importSummary({ source: 'the clipboard', result, changedCells: 4 });
    assert.equal(
      s,
      'Imported the clipboard. 2 rows applied, 1 row unchanged, 3 rows refused (ID not in the table: 3). In 2 cells, a quote that closes no quoted cell was read as a character of the cell. Counted but not listed: 1 more problem. 4 cells edited in the table; nothing is sent until you review and send the changes.',
    );
    const j = jaWords.importSummary({ source: 'クリップボード', result, changedCells: 4 });
    assert.match(j, /2 行を反映、1 行は変更なし、3 行は反映せず \(テーブルにない ID: 3\)。2 個のセルでは/);
  });

  it('the reasons come from the model\'s counts by code, complete when the list of problems is capped', () => {
    const body = Array.from({ length: 30 }, (_, i) => `${900 + i},x`).join('\n');
    const r = importTable(`ID,名称\n${body}\n`, { ...ctx, maxProblems: 5 });
    assert.equal(r.problems.length, 5);
    assert.equal(r.problemsOmitted, 25);
    assert.match(en.importSummary({ source: 'a.csv', result: r, changedCells: 0 }), /30 rows refused \(ID not in the table: 30\)\. Counted but not listed: 25 more problems\./);
  });
});
