// The table's virtual window (src/table/web/virtual.ts, the page's own module),
// the chunks rows are sent in, the layout remembered per project, and rows shown.
import * as assert from 'node:assert/strict';
import { chunkRanges, shownRow, ROW_CHUNK } from '../../src/table/model/window';
import { clampWidth, defaultLayout, moveColumn, nextSort, readLayout } from '../../src/table/model/layout';
import { buildColumns, pickColumns } from '../../src/table/model/columns';

import * as V from '../../src/table/web/virtual';

describe('table: virtual window (webview)', () => {
  it('paints only the rows in sight plus the overscan, for 100,000 rows', () => {
    const r = V.visibleRange(240_000, 600, 24, 100_000, 8);
    assert.equal(r.height, 2_400_000);
    assert.equal(r.start, 10_000 - 8);
    assert.equal(r.end, 10_000 + 26 + 8);
    assert.equal(r.offset, r.start * 24);
    assert.ok(r.end - r.start < 60, 'a few dozen rows, not 100,000');
  });
  it('clamps at the top and at the bottom, and paints nothing without rows', () => {
    assert.deepEqual(V.visibleRange(-50, 600, 24, 100, 8), { start: 0, end: 34, offset: 0, height: 2400 });
    const bottom = V.visibleRange(10_000, 600, 24, 100, 8);
    assert.equal(bottom.end, 100);
    assert.ok(bottom.start <= 100);
    assert.deepEqual(V.visibleRange(0, 600, 24, 0), { start: 0, end: 0, offset: 0, height: 0 });
  });
  it('scrolls a focused row into sight and not when it is in sight', () => {
    assert.equal(V.scrollToRow(5, 0, 240, 24), 0);
    assert.equal(V.scrollToRow(20, 0, 240, 24), 21 * 24 - 240);
    assert.equal(V.scrollToRow(2, 480, 240, 24), 48);
  });
  it('copies cells as TSV, quoting tabs, new lines and quotes (Japanese kept as is)', () => {
    assert.equal(V.toTsv([['設計', '7:30'], ['a\tb', 'say "hi"'], ['x\ny', '']]), '設計\t7:30\r\n"a\tb"\t"say ""hi"""\r\n"x\ny"\t');
  });
});

describe('table: rows sent in chunks', () => {
  it('cuts 100,000 rows into chunks of at most ROW_CHUNK, in order, covering every row once', () => {
    const ranges = chunkRanges(100_000);
    assert.equal(ranges.length, Math.ceil(100_000 / ROW_CHUNK));
    assert.deepEqual(ranges[0], [0, ROW_CHUNK]);
    let next = 0;
    for (const [s, e] of ranges) {
      assert.equal(s, next);
      assert.ok(e - s <= ROW_CHUNK && e > s);
      next = e;
    }
    assert.equal(next, 100_000);
    assert.deepEqual(chunkRanges(0), []);
    assert.deepEqual(chunkRanges(5, 2), [[0, 2], [2, 4], [4, 5]]);
  });
  it('shows a row as the texts of its columns (users by name, hours, progress, parent path)', () => {
    const cols = pickColumns(buildColumns([], { statusTypes: [{ id: '52', name: '進行中' }] }), ['Name', 'StatusTypeId', 'LeaderId', 'PlannedTime', 'ActualProgress', 'ParentName']);
    const row = { id: '7', level: 2, hasChildren: false, fields: { Name: '設計', StatusTypeId: '52', LeaderId: '2101', PlannedTime: 450, ActualProgress: 40, ParentName: 'Web / 画面' } };
    const shown = shownRow(row, cols, { userName: (id) => (id === '2101' ? '鈴木' : undefined) });
    assert.deepEqual(shown, { id: '7', level: 2, container: false, cells: ['設計', '進行中', '鈴木', '7:30', '40%', 'Web / 画面'], titles: { LeaderId: '鈴木 (2101)' } });
  });
});

describe('table: layout remembered per project', () => {
  const known = ['Name', 'Code', 'StatusTypeId', 'PlannedFinishDate', 'Custom_1'];
  it('falls back to the default set for nothing or a bad value', () => {
    assert.deepEqual(readLayout(undefined, known), defaultLayout(known));
    assert.deepEqual(readLayout('x', known).columns, ['Name', 'Code', 'StatusTypeId', 'PlannedFinishDate']);
  });
  it('keeps known columns (custom fields included) in the stored order, drops unknown ones, bounds widths and checks the sort', () => {
    const l = readLayout({ columns: ['Custom_1', 'Gone', 'Name', 'Name'], widths: { Name: 5, Code: 99999, Gone: 100, Custom_1: 'wide' }, sort: { key: 'Code', direction: 'desc' }, lowestOnly: true }, known);
    assert.deepEqual(l, { columns: ['Custom_1', 'Name'], widths: { Name: 40, Code: 1200 }, sort: { key: 'Code', direction: 'desc' }, lowestOnly: true });
    assert.equal(readLayout({ sort: { key: 'Gone', direction: 'asc' } }, known).sort, undefined);
    assert.equal(readLayout({ sort: { key: 'Name', direction: 'up' } }, known).sort, undefined);
    assert.equal(clampWidth(123.6), 124);
  });
  it('a header click sorts ascending, then descending, then not; another column starts ascending', () => {
    const a = nextSort(undefined, 'Name');
    assert.deepEqual(a, { key: 'Name', direction: 'asc' });
    const b = nextSort(a, 'Name');
    assert.deepEqual(b, { key: 'Name', direction: 'desc' });
    assert.equal(nextSort(b, 'Name'), undefined);
    assert.deepEqual(nextSort(b, 'Code'), { key: 'Code', direction: 'asc' });
  });
  it('moves a column before another or to the end', () => {
    assert.deepEqual(moveColumn(['A', 'B', 'C', 'D'], 'D', 'B'), ['A', 'D', 'B', 'C']);
    assert.deepEqual(moveColumn(['A', 'B', 'C'], 'A', undefined), ['B', 'C', 'A']);
    assert.deepEqual(moveColumn(['A', 'B'], 'X', 'A'), ['A', 'B']);
  });
});

describe('table: messages from the webview', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { readMessage } = require('../../src/table/protocol') as typeof import('../../src/table/protocol');
  it('accepts the messages of the protocol and refuses malformed ones', () => {
    assert.deepEqual(readMessage({ type: 'filter', text: 'overdue', apply: true }), { type: 'filter', text: 'overdue', apply: true });
    assert.deepEqual(readMessage({ type: 'activate', id: '7', key: 'Name' }), { type: 'activate', id: '7', key: 'Name' });
    assert.equal(readMessage({ type: 'filter' }), undefined);
    assert.equal(readMessage({ type: 'resize', key: 'Name', width: '9' }), undefined);
    assert.equal(readMessage({ type: 'command', name: 'deleteEverything' }), undefined);
    assert.equal(readMessage({ type: 'unknown' }), undefined);
    assert.equal(readMessage(null), undefined);
  });
});
