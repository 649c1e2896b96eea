import * as assert from 'node:assert/strict';
import { extractIds, looksLikeId, looksLikeIdList } from '../../src/editors/model/ids';

describe('editors: work item IDs from free text', () => {
  it('reads IDs separated by commas, spaces and new lines', () => {
    assert.deepEqual(extractIds('120, 121 122\n123,124').ids, ['120', '121', '122', '123', '124']);
  });

  it('reads mixed whitespace: tabs, CRLF, non-breaking and ideographic spaces', () => {
    const r = extractIds('  120\t121\r\n122\u00a0123\u3000124 ;125 \n\n');
    assert.deepEqual(r.ids, ['120', '121', '122', '123', '124', '125']);
    assert.deepEqual(r.junk, []);
  });

  it('reads a spreadsheet column with a header row', () => {
    const r = extractIds('Work Item ID\r\nWI-0001\r\nWI-0002\r\nWI-0003\r\n');
    assert.deepEqual(r.ids, ['WI-0001', 'WI-0002', 'WI-0003']);
    assert.deepEqual(r.junk, ['Work', 'Item', 'ID']);
  });

  it('picks the ID column of a multi-column spreadsheet paste, ignoring the other cells', () => {
    const text = 'Name\tID\tPlanned\nDesign\t120\t480\nBuild\t121\t960\nTest, QA\t122\t240\n';
    // The first column holds names, the second the IDs; planned efforts are not IDs.
    const r = extractIds(text);
    assert.deepEqual(r.ids, ['120', '121', '122']);
    assert.deepEqual(r.junk, ['ID']);
  });

  it('accepts a JSON array and quoted cells', () => {
    assert.deepEqual(extractIds('["120", 121, "a1b2"]').ids, ['120', '121', 'a1b2']);
    assert.deepEqual(extractIds('"120"\n"121"').ids, ['120', '121']);
  });

  it('deduplicates, keeping the first occurrence, and reports the duplicates', () => {
    const r = extractIds('3 1 3 2 1 3');
    assert.deepEqual(r.ids, ['3', '1', '2']);
    assert.deepEqual(r.duplicates, ['3', '1']);
  });

  it('reports junk and never takes words, dates, decimals or unsafe tokens as IDs', () => {
    const r = extractIds('hello 120 2025-04-01 3.5 ../etc a/b 50% 121 ok');
    assert.deepEqual(r.ids, ['120', '121']);
    assert.deepEqual(r.junk, ['hello', '2025-04-01', '3.5', '../etc', 'a/b', '50%', 'ok']);
  });

  it('accepts GUID-like and prefixed IDs but not words without digits', () => {
    assert.equal(looksLikeId('8f14e45f-ceea-467a-9575-8c7d2e1f0a11'), true);
    assert.equal(looksLikeId('TASK_12'), true);
    assert.equal(looksLikeId('ID'), false);
    assert.equal(looksLikeId(''), false);
    assert.equal(looksLikeId('-12'), false);
  });

  it('gives nothing for empty or junk-only text', () => {
    assert.deepEqual(extractIds('').ids, []);
    assert.deepEqual(extractIds('   \n\t ').ids, []);
    assert.deepEqual(extractIds('no ids here').ids, []);
  });

  it('judges clipboard text: a list of IDs (optionally with one header) yes, prose no', () => {
    assert.equal(looksLikeIdList('120\n121\n122'), true);
    assert.equal(looksLikeIdList('ID\n120\n121'), true);
    assert.equal(looksLikeIdList('Please update item 120 today'), false);
    assert.equal(looksLikeIdList(''), false);
    assert.equal(looksLikeIdList('https://example.com/120'), false);
  });

  it('handles a pasted column of 100,000 IDs', () => {
    const text = Array.from({ length: 100_000 }, (_, i) => String(100000 + i)).join('\r\n');
    const r = extractIds(text);
    assert.equal(r.ids.length, 100_000);
    assert.equal(r.ids[99_999], '199999');
  });
});
