import * as assert from 'node:assert/strict';
import { DEFAULT_IMPORT_LIMITS, checkByteLimit, checkRowLimit, countRows, importLimits, utf8Length } from '../../src/table/model';

describe('table import: limits checked before any parse', () => {
  it('counts data rows by line breaks of every kind (LF, CRLF, lone CR), the header not counted', () => {
    assert.deepEqual(countRows('Id,Name\r\n1,a\r\n2,b\r\n'), { rows: 2, upperBound: false });
    assert.deepEqual(countRows('Id,Name\n1,a\n2,b'), { rows: 2, upperBound: false }, 'no line end after the last row');
    assert.deepEqual(countRows('Id\r1\r2\r3\r'), { rows: 3, upperBound: false });
    assert.deepEqual(countRows('Id'), { rows: 0, upperBound: false });
    assert.deepEqual(countRows(''), { rows: 0, upperBound: false });
  });

  it('says the count is an upper bound when the text has quotes (a quoted cell may hold line breaks)', () => {
    assert.deepEqual(countRows('Id,Note\n1,"two\nlines"\n'), { rows: 2, upperBound: true });
  });

  it('refuses more rows than the limit with both numbers, and accepts the limit itself', () => {
    const text = `Id\n${Array.from({ length: 5 }, (_, i) => i + 1).join('\n')}\n`;
    assert.equal(checkRowLimit(text, { maxRows: 5, maxBytes: 1e9 }), undefined);
    assert.deepEqual(checkRowLimit(text, { maxRows: 4, maxBytes: 1e9 }), { what: 'rows', actual: 5, limit: 4, upperBound: false });
  });

  it('refuses a file larger than the byte limit with its size and the limit', () => {
    assert.deepEqual(checkByteLimit(2049, { maxRows: 1, maxBytes: 2048 }), { what: 'bytes', actual: 2049, limit: 2048 });
    assert.equal(checkByteLimit(2048, { maxRows: 1, maxBytes: 2048 }), undefined);
  });

  it('counts the rows of a 50 MB text and refuses it under the default limit', () => {
    const line = '12345,作業項目の名前,2026-05-25,7:30,50\n';
    const text = 'Id,Name,Start,Hours,Progress\n' + line.repeat(Math.ceil((50 * 2 ** 20) / utf8Length(line)));
    const r = countRows(text);
    assert.equal(r.rows, Math.ceil((50 * 2 ** 20) / utf8Length(line)));
    assert.ok(utf8Length(text) > 50 * 2 ** 20);
    assert.deepEqual(checkRowLimit(text, DEFAULT_IMPORT_LIMITS)?.what, 'rows');
  });

  it('measures the UTF-8 size of a text (ASCII 1, kana 3, emoji 4, a lone surrogate 3)', () => {
    assert.equal(utf8Length('a'), 1);
    assert.equal(utf8Length('é'), 2);
    assert.equal(utf8Length('名'), 3);
    assert.equal(utf8Length('😀'), 4);
    assert.equal(utf8Length('\ud800x'), 4);
    assert.equal(utf8Length('Id,名称😀'), Buffer.byteLength('Id,名称😀', 'utf8'));
  });

  it('reads the settings (rows, MiB) and falls back to the defaults for values that are not whole positive numbers', () => {
    assert.deepEqual(importLimits(500, 2), { maxRows: 500, maxBytes: 2 * 1024 * 1024 });
    assert.deepEqual(importLimits(undefined, 'x'), DEFAULT_IMPORT_LIMITS);
    assert.deepEqual(importLimits(0, -1), DEFAULT_IMPORT_LIMITS);
    assert.deepEqual(importLimits(10.7, 1.5), { maxRows: 10, maxBytes: 1024 * 1024 });
    assert.deepEqual(DEFAULT_IMPORT_LIMITS, { maxRows: 100_000, maxBytes: 64 * 1024 * 1024 });
  });
});
