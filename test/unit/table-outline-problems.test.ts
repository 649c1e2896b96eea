// What an outline paste refuses (src/table/model/outline.ts): each problem with its code, line
// and column; a block with any problem gives no draft at all and lists every problem; 1 MB
// blocks (one long cell, many lines, a deep indent, a long WBS number, an unclosed quote)
// are read in linear time; and the detector that offers "Paste as New Items (outline)".
import * as assert from 'node:assert/strict';
import { type OutlineOptions, looksLikeOutline, parseOutline } from '../../src/table/model';
import { CATALOGUE, COLUMNS, resolveUser, userName } from './table-fixtures';

const options: OutlineOptions = { parentId: '900', columns: COLUMNS, catalogue: CATALOGUE, resolveUser, userName, defaultItemTypes: { folder: '41', task: '42' } };
const clip = (...rows: string[][]): string => rows.map((r) => `${r.join('\t')}\r\n`).join('');
const outline = (text: string, o: Partial<OutlineOptions> = {}) => parseOutline(text, { ...options, ...o });
const codes = (text: string, o: Partial<OutlineOptions> = {}) => {
  const r = outline(text, o);
  assert.deepEqual(r.drafts, [], 'a block with a problem adds nothing');
  return r.problems.map((p) => [p.line, p.column, p.code]);
};
const time = <T>(fn: () => T): { value: T; ms: number } => {
  const t = performance.now();
  const value = fn();
  return { value, ms: performance.now() - t };
};
const MB = 1024 * 1024;

describe('table outline: problems by line and column', () => {
  it('a level that goes down by more than one (levelJump), with the levels in its params', () => {
    const r = outline(clip(['1', '設計'], ['3', '画面設計']));
    assert.deepEqual(r.problems.map((p) => [p.line, p.column, p.code, p.params]), [[2, '#1', 'levelJump', { level: 3, previous: 1 }]]);
    assert.deepEqual(codes(clip(['設計'], ['', '', '画面設計'])), [[2, '#3', 'levelJump']]);
    assert.deepEqual(codes(clip(['設計'], ['\u3000基本設計'], ['\u3000\u3000\u3000画面'])), [[3, '#1', 'levelJump']]);
  });

  it('lines before the first line of the top level (noTopLevel), each of them', () => {
    assert.deepEqual(codes(clip(['1.1', '基本設計'], ['1.1.1', '画面'], ['1', '設計'])), [[1, '#1', 'noTopLevel'], [2, '#1', 'noTopLevel']]);
    assert.deepEqual(codes(clip(['', '基本設計'], ['設計'])), [[1, '#2', 'noTopLevel']]);
  });

  it('a line deeper than the levels allowed below the chosen row (tooDeep)', () => {
    const text = clip(['1', 'A'], ['2', 'B'], ['3', 'C'], ['2', 'D']);
    assert.deepEqual(outline(text, { maxDepth: 3 }).problems, []);
    const r = outline(text, { maxDepth: 2 });
    assert.deepEqual(r.problems.map((p) => [p.line, p.code, p.params]), [[3, 'tooDeep', { level: 3, max: 2 }]]);
    // 16 levels in all by default.
    const deep = Array.from({ length: 17 }, (_, i) => [String(i + 1), `L${i + 1}`]);
    assert.deepEqual(outline(clip(['Level', 'Name'], ...deep.slice(0, 16))).problems, []);
    assert.deepEqual(codes(clip(['Level', 'Name'], ...deep)), [[18, 'Level', 'tooDeep']]);
  });

  it('an empty name (nameMissing) on the name cell, in each layout', () => {
    assert.deepEqual(codes(clip(['1', '設計'], ['1.1', ''], ['1.2', '\u3000 '])), [[2, '#2', 'nameMissing'], [3, '#2', 'nameMissing']]);
    assert.deepEqual(codes(clip(['タスク名', '開始日'], ['設計', ''], ['', '2026/5/1'])), [[3, 'タスク名', 'nameMissing']]);
    assert.deepEqual(codes(clip(['大項目', '中項目', '開始日'], ['設計', '', ''], ['', '', '2026/5/1'])), [[3, '大項目', 'nameMissing']]);
  });

  it('a level or WBS number that is none (badLevel), the text in its params', () => {
    const r = outline(clip(['Level', 'Name'], ['1', 'A'], ['two', 'B'], ['0', 'C'], ['', 'D']));
    assert.deepEqual(r.problems.map((p) => [p.line, p.column, p.code, p.params?.['text']]), [[3, 'Level', 'badLevel', 'two'], [4, 'Level', 'badLevel', '0'], [5, 'Level', 'badLevel', '']]);
    assert.deepEqual(codes(clip(['WBS', 'Name'], ['1', 'A'], ['1..2', 'B'], ['1.a', 'C'])), [[3, 'WBS', 'badLevel'], [4, 'WBS', 'badLevel']]);
  });

  it('an indent that is not a whole number of levels (unevenIndent)', () => {
    const r = outline(clip(['設計'], ['  基本設計'], ['   画面']));
    assert.deepEqual(r.problems.map((p) => [p.line, p.code, p.params]), [[3, 'unevenIndent', { width: 3, unit: 2 }]]);
  });

  it('two names in the columns of the outline on one line (extraName), on the second one', () => {
    assert.deepEqual(codes(clip(['設計', '', ''], ['', '基本設計', '画面'], ['', '', '詳細'])), [[2, '#3', 'extraName']]);
    assert.deepEqual(codes(clip(['大項目', '中項目', '開始日'], ['設計', '基本設計', ''])), [[2, '中項目', 'extraName']]);
  });

  it('a WBS number that does not continue its parent (wbsMismatch), with both numbers and the parent line', () => {
    const r = outline(clip(['1', '設計'], ['1.1', '基本'], ['2.2', '詳細']));
    assert.deepEqual(r.problems.map((p) => [p.line, p.code, p.params]), [[3, 'wbsMismatch', { number: '2.2', parentNumber: '1', parentLine: 1 }]]);
  });

  it('a cell value that does not parse or pass the checks is a "cell" problem with the cell problem, as in an edit', () => {
    const r = outline(clip(
      ['WBS', 'タスク名', '開始日', '終了日', '進捗率', '担当者', '項目タイプ', '実績工数 (時間)'],
      ['1', '設計', '2026/5/10', '2026/5/1', '', '', '', ''],
      ['2', '実装', '2026/13/1', '', '150', 'nobody', 'ないタイプ', '3'],
    ));
    assert.deepEqual(r.problems.map((p) => [p.line, p.column, p.code, p.problem?.code, p.field]), [
      [2, '開始日', 'cell', 'check', 'PlannedStartDate'],
      [2, '終了日', 'cell', 'check', 'PlannedFinishDate'],
      [3, '開始日', 'cell', 'type', 'PlannedStartDate'],
      [3, '進捗率', 'cell', 'check', 'ActualProgress'],
      [3, '担当者', 'cell', 'user', 'Assignments'],
      [3, '項目タイプ', 'cell', 'choice', 'ItemTypeId'],
      [3, '実績工数 (時間)', 'cell', 'readOnly', 'ActualTime'],
    ]);
  });

  it('a name longer than the service allows is refused with the name check (256 characters)', () => {
    const r = outline(clip(['Level', 'Name'], ['1', 'x'.repeat(256)], ['1', 'y'.repeat(257)]));
    assert.deepEqual(r.problems.map((p) => [p.line, p.code, p.problem?.issue?.code]), [[3, 'cell', 'NAME_TOO_LONG']]);
  });

  it('no type column and no default types: each line says it has no type (typeMissing)', () => {
    assert.deepEqual(codes(clip(['A'], ['B']), { defaultItemTypes: undefined }), [[1, undefined, 'typeMissing'], [2, undefined, 'typeMissing']]);
  });

  it('a header with a level column and no free column for names (noNameColumn)', () => {
    assert.deepEqual(codes(clip(['WBS', '開始日'], ['1', '2026/5/1'])), [[1, undefined, 'noNameColumn']]);
  });

  it('a control character in a cell read is refused; one in a cell not read is not', () => {
    assert.deepEqual(codes(clip(['1', 'A\u0000B'])), [[1, '#2', 'control']]);
    assert.deepEqual(outline(clip(['1', 'A', 'x\u0001'])).problems, []);
  });

  it('more lines than the limit (tooManyLines): refused at the first line past it, nothing else read', () => {
    const lines = Array.from({ length: 6 }, (_, i) => [`item ${i + 1}`]);
    assert.equal(outline(clip(...lines.slice(0, 5)), { maxLines: 5 }).drafts.length, 5);
    const r = outline(clip(...lines), { maxLines: 5 });
    assert.deepEqual(r.problems.map((p) => [p.line, p.code, p.params]), [[6, 'tooManyLines', { max: 5 }]]);
    // The header is not counted.
    assert.equal(outline(clip(['Name'], ...lines.slice(0, 5)), { maxLines: 5 }).drafts.length, 5);
  });

  it('a block with one problem among many good lines gives no draft, and every problem is listed by line then column', () => {
    const good = Array.from({ length: 200 }, (_, i) => ['1', `item ${i}`, '2026/5/1']);
    const r = outline(clip(['WBS', 'Name', 'Start'], ...good, ['1.1.1', 'bad', 'never'], ...good, ['1', '', 'x']));
    assert.deepEqual(r.drafts, []);
    assert.deepEqual(r.problems.map((p) => [p.line, p.column, p.code]), [
      [202, 'WBS', 'levelJump'],
      [202, 'Start', 'cell'],
      [403, 'Name', 'nameMissing'],
      [403, 'Start', 'cell'],
    ]);
  });

  it('at most maxProblems problems are listed; the rest are counted', () => {
    const r = outline(clip(...Array.from({ length: 30 }, () => ['1', ''])), { maxProblems: 10 });
    assert.equal(r.problems.length, 10);
    assert.equal(r.problemsOmitted, 20);
  });
});

describe('table outline: big blocks are read in linear time', () => {
  it('a 1 MB name is refused by its length, with a short excerpt, at once', () => {
    const { value: r, ms } = time(() => outline(`1\t${'長'.repeat(MB)}\r\n`));
    assert.deepEqual(r.problems.map((p) => [p.code, p.problem?.issue?.code]), [['cell', 'NAME_TOO_LONG']]);
    assert.ok(r.problems[0]!.message.length < 300, 'the message quotes no 1 MB text');
    assert.ok(ms < 2000, `${ms.toFixed(0)} ms`);
  });

  it('1 MB of lines over the default limit is refused when the limit is passed', () => {
    const text = clip(...Array.from({ length: 100_000 }, (_, i) => [`task ${i}`]));
    assert.ok(text.length > MB);
    const { value: r, ms } = time(() => outline(text));
    assert.deepEqual(r.problems.map((p) => [p.line, p.code]), [[10_001, 'tooManyLines']]);
    assert.ok(ms < 2000, `${ms.toFixed(0)} ms`);
  });

  it('1 MB of a WBS with dates, all read when the limit allows it (60,000 lines)', () => {
    const rows: string[][] = [['WBS', 'タスク名', '開始日', '終了日']];
    for (let i = 1; rows.length <= 60_000; i++) {
      rows.push([String(i), `フェーズ ${i}`, '2026/5/1', '2026/5/31']);
      for (let j = 1; j <= 3; j++) rows.push([`${i}.${j}`, `作業 ${i}-${j}`, '2026/5/1', '2026/5/10']);
    }
    const text = clip(...rows);
    assert.ok(text.length > MB);
    const { value: r, ms } = time(() => outline(text, { maxLines: 100_000 }));
    assert.deepEqual(r.problems, []);
    assert.equal(r.drafts.length, rows.length - 1);
    assert.deepEqual(r.drafts[2]!.parent, { draft: 0 });
    assert.ok(ms < 5000, `${ms.toFixed(0)} ms`);
  });

  it('a 1 MB indent, a 1 MB level and a 1 MB WBS number are no level, refused at once', () => {
    // (The width of a level is the smallest indent: one space here.)
    const indent = time(() => outline(clip(['A'], [' B'], [`${' '.repeat(MB)}C`])));
    assert.deepEqual(indent.value.problems.map((p) => [p.line, p.code]), [[3, 'levelJump'], [3, 'tooDeep']]);
    const level = time(() => outline(clip(['Level', 'Name'], ['1'.repeat(MB), 'A'])));
    assert.deepEqual(level.value.problems.map((p) => p.code), ['badLevel']);
    assert.ok(String(level.value.problems[0]!.params?.['text']).length <= 31);
    const wbs = time(() => outline(clip(['WBS', 'Name'], ['1.'.repeat(MB / 2), 'A'])));
    assert.deepEqual(wbs.value.problems.map((p) => p.code), ['badLevel']);
    for (const t of [indent, level, wbs]) assert.ok(t.ms < 2000, `${t.ms.toFixed(0)} ms`);
  });

  it('1 MB of assignees in one cell is refused before it is split', () => {
    const { value: r, ms } = time(() => outline(clip(['Level', 'Name', '担当者'], ['1', 'A', 'suzuki,'.repeat(MB / 7)])));
    assert.deepEqual(r.problems.map((p) => [p.code, p.problem?.code]), [['cell', 'user']]);
    assert.ok(ms < 2000, `${ms.toFixed(0)} ms`);
  });

  it('an unclosed quote before 1 MB of lines takes none of them into its cell', () => {
    const text = `"設計\r\n${clip(...Array.from({ length: 100_000 }, () => ['\u3000作業']))}`;
    assert.ok(Buffer.byteLength(text) > MB);
    const { value: r, ms } = time(() => outline(text, { maxLines: 200_000 }));
    assert.deepEqual(r.problems, []);
    assert.equal(r.drafts.length, 100_001);
    assert.equal(r.drafts[0]!.fields['Name'], '"設計');
    assert.ok(ms < 5000, `${ms.toFixed(0)} ms`);
  });
});

describe('table outline: the detector that offers "Paste as New Items (outline)"', () => {
  it('several lines of names, with or without a header, in each layout', () => {
    assert.equal(looksLikeOutline(clip(['設計'], ['\u3000基本設計'])), true);
    assert.equal(looksLikeOutline(clip(['設計', ''], ['', '基本設計'])), true);
    assert.equal(looksLikeOutline(clip(['1', '設計'], ['1.1', '基本設計'])), true);
    assert.equal(looksLikeOutline(clip(['Level', 'Name'], ['1', 'Design'])), true);
    assert.equal(looksLikeOutline(clip(['WBS', 'タスク名', '開始日'], ['1', '設計', '2026/5/1']), COLUMNS), true);
  });

  it('not a single line, not a block with an ID column, not a first column of IDs, not numbers or dates only', () => {
    assert.equal(looksLikeOutline('設計\r\n'), false);
    assert.equal(looksLikeOutline(clip(['ID', '名称'], ['101', '設計'], ['102', '実装']), COLUMNS), false);
    assert.equal(looksLikeOutline(clip(['Id', 'Name'], ['101', 'Design'])), false);
    assert.equal(looksLikeOutline(clip(['3101', '設計'], ['2577', '実装'])), false);
    assert.equal(looksLikeOutline(clip(['2026/5/1', '8'], ['2026/5/2', '7.5'])), false);
    assert.equal(looksLikeOutline(''), false);
  });

  it('reads the first lines only: a 1 MB block is told at once', () => {
    const text = clip(...Array.from({ length: 60_000 }, (_, i) => [i % 3 === 0 ? 'フェーズ' : '\u3000作業']));
    const { value, ms } = time(() => looksLikeOutline(text));
    assert.equal(value, true);
    assert.ok(ms < 200, `${ms.toFixed(0)} ms`);
  });
});
