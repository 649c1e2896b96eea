import * as assert from 'node:assert/strict';
import { expandIdRanges, extractIds, idRanges, idsPreview, looksLikeId, looksLikeIdList, removeIdsFromDocumentText } from '../../src/common/model/ids';
import { idRange, MAX_RANGE_IDS } from '../../src/schema/id-ranges';

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

  it('offers the clipboard as IDs only for whole numbers separated by commas, spaces or line breaks', () => {
    assert.equal(looksLikeIdList('120, 121 122\r\n123;124'), true);
    assert.equal(looksLikeIdList('["120", 121]'), true, 'a JSON array of IDs');
    assert.equal(looksLikeIdList('131-140'), true, 'a range is offered (and expanded after a question)');
    assert.equal(looksLikeIdList('7'), true, 'one ID copied from a cell');
  });

  it('never offers a block pasted from a spreadsheet: cells with tabs, times, percentages, decimals', () => {
    // A block of times and progress: its numbers are data (the second column would look like IDs).
    assert.equal(looksLikeIdList('7:30\t50\n8:00\t30\n'), false);
    assert.equal(looksLikeIdList('7.5\t50\r\n8\t30'), false);
    assert.equal(looksLikeIdList('120\t121\t122'), false, 'tab-separated cells are a block, even of whole numbers');
    assert.equal(looksLikeIdList('ID\tName\n120\tDesign\n121\tBuild'), false);
    assert.equal(looksLikeIdList('7:30\n8:15'), false, 'times');
    assert.equal(looksLikeIdList('50%\n30%'), false, 'percentages');
    assert.equal(looksLikeIdList('50 %'), false, 'a percentage with a space');
    assert.equal(looksLikeIdList('7.5\n3.25'), false, 'decimals');
    assert.equal(looksLikeIdList('120\n7.5'), false, 'one decimal among whole numbers');
    assert.equal(looksLikeIdList('2026-05-25\n2026-05-26'), false, 'dates');
    assert.equal(looksLikeIdList('120\nabc12'), false, 'a token with letters');
    assert.equal(looksLikeIdList('ID\nName\n120'), false, 'one header word at most');
    // Typed into the input box, the same block is still read leniently (the user chose it).
    assert.deepEqual(extractIds('120\t121\t122').ids, ['120', '121', '122']);
  });

  it('handles a pasted column of 100,000 IDs', () => {
    const text = Array.from({ length: 100_000 }, (_, i) => String(100000 + i)).join('\r\n');
    const r = extractIds(text);
    assert.equal(r.ids.length, 100_000);
    assert.equal(r.ids[99_999], '199999');
  });
});

describe('editors: numeric ranges in ID lists', () => {
  it('reads 131-140 as a range of ten IDs, keeping zero-padded widths', () => {
    assert.deepEqual(idRange('131-140')?.ids, ['131', '132', '133', '134', '135', '136', '137', '138', '139', '140']);
    assert.deepEqual(idRange('0098-0101')?.ids, ['0098', '0099', '0100', '0101']);
  });

  it('is not a range when the start is not below the end, the range is huge, or a part is not a number', () => {
    for (const t of ['140-131', '5-5', '1-20000', 'WI-12', '12-a', '-3', '3-', '1-2-3', '8f14e45f-ceea']) assert.equal(idRange(t), undefined, t);
    assert.equal(idRange('1-10000')?.ids.length, MAX_RANGE_IDS);
  });

  it('lists the ranges among IDs once and expands them in place, each ID once', () => {
    const ids = extractIds('120, 131-133 131-133 132 WI-9').ids;
    assert.deepEqual(ids, ['120', '131-133', '132', 'WI-9'], 'extractIds keeps a range as written (it asks first)');
    assert.deepEqual(idRanges(ids).map((r) => r.text), ['131-133']);
    assert.deepEqual(expandIdRanges(ids), ['120', '131', '132', '133', 'WI-9']);
  });

  it('shows a few IDs of a long list', () => {
    assert.equal(idsPreview(['133', '134', '135']), '133, 134, 135');
    assert.equal(idsPreview(['1', '2', '3', '4'], 2), '1, 2, …');
  });
});

describe('editors: removing missing IDs from a request document', () => {
  const doc = (ids: string) => `{\n  "description": "d",\n  "workItemIds": ${ids},\n  "update": { "setCompleted": true }\n}\n`;

  it("removes them from every request's list of a change set, the rest of the text as it was", () => {
    const text = '{\n  "requests": [\n    { "workItemIds": ["1", "999", "2"], "update": { "setCompleted": true } },\n    { "workItemIds": "3, 998", "update": { "moveScheduleDays": 1 } }\n  ]\n}\n';
    const edited = removeIdsFromDocumentText(text, ['999', '998'])!;
    assert.deepEqual(
      (JSON.parse(edited) as { requests: { workItemIds: unknown }[] }).requests.map((r) => r.workItemIds),
      [['1', '2'], '3'],
    );
    assert.equal(edited, '{\n  "requests": [\n    { "workItemIds": ["1", "2"], "update": { "setCompleted": true } },\n    { "workItemIds": "3", "update": { "moveScheduleDays": 1 } }\n  ]\n}\n');
  });

  it('removes list entries with their commas and keeps the layout of the others', () => {
    assert.equal(removeIdsFromDocumentText(doc('["120", "999", 121,\n    "122", "998"]'), ['999', '998']), doc('["120", 121,\n    "122"]'));
    assert.equal(removeIdsFromDocumentText(doc('["999", "120"]'), ['999']), doc('["120"]'));
    assert.equal(removeIdsFromDocumentText(doc('["999"]'), ['999']), doc('[]'));
    const edited = removeIdsFromDocumentText(doc('[\n    "120",\n    "999",\n    "121"\n  ]'), ['999'])!;
    assert.deepEqual(JSON.parse(edited).workItemIds, ['120', '121']);
    assert.equal(edited, doc('[\n    "120",\n    "121"\n  ]'));
  });

  it('rewrites a string of IDs without them, keeping new lines when it had them', () => {
    assert.equal(JSON.parse(removeIdsFromDocumentText(doc('"120, 999 121"'), ['999'])!).workItemIds, '120, 121');
    assert.equal(JSON.parse(removeIdsFromDocumentText(doc('"120\\n999\\n121"'), ['999'])!).workItemIds, '120\n121');
  });

  it('leaves a document without readable IDs alone', () => {
    assert.equal(removeIdsFromDocumentText('{"update": {}}', ['1']), undefined);
    assert.equal(removeIdsFromDocumentText('not json', ['1']), undefined);
  });
});
