// The table's parsers of numbers, hours and dates (cells typed, pasted or imported, and
// filter values): the formats people write, and answers at once for any input, 1 MB
// included (mocha's timeout is the only clock: a backtracking parser takes minutes).
import * as assert from 'node:assert/strict';
import { MAX_VALUE_TEXT, excerpt, foldForMatch, parseCellInput, parseDate, parseHours, parseNumber } from '../../src/table/model';
import { col } from './table-fixtures';

const MB = 1_000_000;
/** Inputs that made the old patterns backtrack, or that a careless scanner reads in quadratic time. */
const HOSTILE: Record<string, string> = {
  digits: '1'.repeat(MB),
  'digits then a letter': `${'1'.repeat(MB)}x`,
  'dots between digits': '1.'.repeat(MB / 2),
  colons: ':'.repeat(MB),
  spaces: ' '.repeat(MB),
  'spaces around a number': `${' '.repeat(MB / 2)}7${' '.repeat(MB / 2)}`,
  'digits and h': `${'1'.repeat(MB)}h`,
  'hours then minutes digits': `1h${'1'.repeat(MB)}`,
  commas: '1,'.repeat(MB / 2),
  'full-width digits': '１'.repeat(MB),
  'today plus digits': `today+${'9'.repeat(MB)}`,
};

describe('table text: numbers, hours and dates as people write them', () => {
  it('reads numbers with full-width digits, thousands separators, a trailing % and exponents', () => {
    assert.equal(parseNumber('１２３'), 123);
    assert.equal(parseNumber('1,234.5'), 1234.5);
    assert.equal(parseNumber(' 50 % '), 50);
    assert.equal(parseNumber('.5'), 0.5);
    assert.equal(parseNumber('5.'), 5);
    assert.equal(parseNumber('-3e2'), -300);
    assert.equal(parseNumber('－７'), -7);
    for (const bad of ['', '+', 'e5', '1e', '1.2.3', '0x10', 'Infinity', '1e400', '7h', '1 2']) assert.equal(parseNumber(bad), undefined, bad);
  });

  it('reads hours as 7.5, 7:30, 7h30m, 7時間30分, 450m and 450分', () => {
    for (const t of ['7.5', '7:30', '７：３０', '7h30m', '7.5h', '7 h 30 m', '7時間30分', '450m', '450min', '450分']) assert.equal(parseHours(t), 450, t);
    assert.equal(parseHours('1時間'), 60);
    assert.equal(parseHours('8:5'), 485);
    for (const bad of ['7:60', '7h30', 'h', ':30', '7::30', '7.h', 'abc']) assert.equal(parseHours(bad), undefined, bad);
  });

  it('reads real calendar dates as yyyy-MM-dd, with / or . and full-width digits', () => {
    assert.equal(parseDate('2026-05-25'), '2026-05-25');
    assert.equal(parseDate('2026/5/25'), '2026-05-25');
    assert.equal(parseDate('２０２６/５/２５'), '2026-05-25');
    assert.equal(parseDate(' 2026.1.1 '), '2026-01-01');
    for (const bad of ['2026-02-31', '2026-13-01', '26-1-1', '2026-001-01', '2026-1-1x', '2026-1']) assert.equal(parseDate(bad), undefined, bad);
  });

  it('folds compatibility forms with NFKC and case: half-width katakana, full-width ASCII', () => {
    assert.equal(foldForMatch('ﾃｽﾄ'), 'テスト');
    assert.equal(foldForMatch('ﾃﾞｻﾞｲﾝ'), 'デザイン');
    assert.equal(foldForMatch('ＡＢＣ'), 'abc');
    assert.equal(foldForMatch('㈱ 設計'), '(株) 設計');
    assert.equal(foldForMatch('Design レビュー'), 'design レビュー');
  });

  it('cuts excerpts for messages at 30 characters with …, not inside a surrogate pair', () => {
    assert.equal(excerpt('a'.repeat(100)), `${'a'.repeat(30)}…`);
    assert.equal(excerpt('short'), 'short');
    assert.equal(excerpt(`${'a'.repeat(29)}😀b`), `${'a'.repeat(29)}…`);
  });
});

describe('table text: no input can freeze the parsers (1 MB inputs)', function () {
  this.timeout(5000); // a backtracking pattern takes minutes on these
  for (const [name, text] of Object.entries(HOSTILE)) {
    it(`answers "not a value" at once for 1 MB of ${name}`, () => {
      assert.equal(parseNumber(text), undefined);
      assert.equal(parseHours(text), undefined);
      assert.equal(parseDate(text), undefined);
    });
  }

  it('refuses an over-long number, hours or date cell with its length and a short excerpt', () => {
    for (const key of ['ActualProgress', 'PlannedTime', 'PlannedFinishDate', 'Custom_Points']) {
      const r = parseCellInput(col(key), HOSTILE.digits!);
      assert.equal(r.ok, false, key);
      const message = (r as { problem: { message: string } }).problem.message;
      assert.match(message, /1,000,000 characters\) is too long/, key);
      assert.match(message, new RegExp(`at most ${MAX_VALUE_TEXT} characters`), key);
      assert.ok(message.length < 200, `${key}: ${message.length} characters`);
    }
  });

  it('quotes only an excerpt of a 1 MB list or user cell that matches nothing', () => {
    for (const key of ['StatusTypeId', 'Custom_Priority']) {
      const r = parseCellInput(col(key), 'x'.repeat(MB));
      assert.equal(r.ok, false);
      assert.ok((r as { problem: { message: string } }).problem.message.length < 300, key);
    }
  });

  it('still reads a value at the length cap', () => {
    const text = `${'0'.repeat(MAX_VALUE_TEXT - 1)}7`;
    assert.equal(parseNumber(text), 7);
    assert.equal(parseCellInput(col('ActualProgress'), text).ok, true);
  });
});
