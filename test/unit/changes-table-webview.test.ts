// The Before/After view's table as data the webview paints itself: the extension's messages
// (src/webview/changeTableData.ts) run through the page's own modules (src/webview/web/): the
// page asks for its table with its page mark, paints the rows in sight from the first message,
// takes every row from the bytes of the second after the first paint, and paints names learned
// later. The result view's embedded data still paints the same way.
import * as assert from 'node:assert/strict';
import { renderChangesPage } from '../../src/changes/model/page';
import { previewState, readPreviewMessage } from '../../src/changes/model/protocol';
import { changeTableSection, ENGLISH_CHANGE_TABLE, HEAD_ROWS, previewTable, renderChangeTable, resultTable, type ChangeTableHead } from '../../src/webview/changeTable';
import { PostedTable, rowsBytes } from '../../src/webview/changeTableData';
import { isTableRequest, type ChangeTableMessage, type ItemRow } from '../../src/webview/protocol';
import { tableAsk } from '../../src/webview/web/posted';
import { ModelGrid, postedPage } from './change-page';

const S = ENGLISH_CHANGE_TABLE;

/** 200 items shifted by a week, with assignments (minutes) of people 2101/2102. */
function shiftTable() {
  const current = new Map(
    Array.from({ length: 200 }, (_, i) => [
      String(1000 + i),
      { Id: String(1000 + i), Name: `Item ${i}`, PlannedStartDate: '2026-03-02T00:00:00', PlannedFinishDate: '2026-03-06T00:00:00', Assignments: [{ partyId: i % 2 ? '2101' : '2102', plannedTime: 450 }], ManagedPlannedTime: 450 },
    ]),
  );
  return previewTable([...current.keys(), '9999'], { moveScheduleDays: 7, assignmentChange: { removes: '2102' } }, current, S);
}

describe('changes: the Before/After table painted by the webview from posted data', () => {
  it('the section of a posted table holds no rows; the page asks for them with its mark once loaded', () => {
    const t = shiftTable();
    const section = changeTableSection(t, S, 'posted');
    assert.match(section, /<section id="wis-changes" data-kind="preview" data-rows="posted">/);
    assert.ok(!section.includes('application/json'), 'no rows in the page');
    assert.ok(!section.includes('Item 1'), 'no row text in the page');
    assert.match(section, /<tr><th title="PlannedStartDate">Planned start<\/th><td>200<\/td><td>0<\/td><td>0<\/td><\/tr>/, 'the counts are in the page, each field by its name, its system name on hover');
    const html = renderChangesPage({ title: 'T', lines: [], section, buttons: [], nonce: 'N', cspSource: 'c', page: 'p-1' });
    assert.match(html, /<body data-document="" data-page="p-1">/);
    const ask = tableAsk('p-1', 'posted');
    assert.deepEqual(ask, { type: 'ready', page: 'p-1' });
    assert.ok(isTableRequest(ask));
    assert.deepEqual(readPreviewMessage(ask), ask, 'the extension reads the ask as one');
    assert.ok(!isTableRequest({ type: 'ready' }) && !isTableRequest({ type: 'command', name: 'send', page: 'p-1' }));
    assert.ok(!isTableRequest({ command: 'ready', page: 'p-1' }), 'one envelope: a message says what it is by its type');
    assert.deepEqual(previewState('file:///a.workitems.json'), { document: 'file:///a.workitems.json' }, 'the document is still kept for a reload');
  });

  it('paints the rows in sight from the first message, then takes every row after the first paint; hours, minutes on hover, names', () => {
    const t = shiftTable();
    const posted = new PostedTable('p-2', t, S);
    const page = postedPage('p-2');
    const head = posted.head() as Extract<ChangeTableMessage, { type: 'table' }>;
    assert.equal(head.head.rows.length, HEAD_ROWS, 'the first message carries the first rows only');
    assert.equal(head.head.total, 201);
    page.deliver(head);
    const grid = page.grid()!;
    assert.deepEqual(
      grid.header().map((c) => c.text),
      ['ID', 'Name', 'Planned start', 'Planned finish', 'Assignees', 'Managed planned time', 'Remarks'],
    );
    assert.deepEqual(
      grid
        .header()
        .map((c) => c.title)
        .slice(2, 6),
      ['Planned start (PlannedStartDate)', 'Planned finish (PlannedFinishDate)', 'Assignees (Assignments)', 'Managed planned time (ManagedPlannedTime)'],
      'the system names on hover',
    );
    const rows = grid.shownRows();
    assert.equal(rows.length, 20, 'only the rows in sight (240 px of 24 px rows, and some more)');
    assert.deepEqual(rows[0], ['1000', 'Item 0', '2026-03-02→2026-03-09', '2026-03-06→2026-03-13', '2102 (7.5 h)→(empty)', '450→0', '']);
    assert.deepEqual(rows[1]!.slice(4), ['2101 (7.5 h)', '450', ''], 'unchanged cells show their value');
    assert.equal(grid.shownCells()[1]![4]!.title, '2101 (7.5 h) (2101: 450 min)', 'minutes on hover');
    assert.equal(grid.shown(), '201 of 201 items');
    // Every row: kept until the first paint, then taken.
    page.deliver(posted.rows());
    assert.equal(grid.marks.rowsReady, undefined, 'not before the first paint');
    grid.flush();
    assert.equal(grid.marks.rowsReady, '1');
    assert.equal(grid.model.all.length, 201);
    // The missing item is flagged, and a filter over every row finds it.
    grid.filter('flag');
    assert.deepEqual(
      grid.shownRows().map((r) => [r[0], r.at(-1)]),
      [['9999', 'missing']],
    );
    assert.equal(grid.shown(), '1 of 201 items');
    grid.filter('all', 'item 19');
    assert.deepEqual(
      grid.shownRows().map((r) => r[1]),
      ['Item 19', ...Array.from({ length: 10 }, (_, i) => `Item ${190 + i}`)],
    );
    // Names learned after the first paint: the rows in sight are painted again with them.
    t.people = { '2101': 'Tanaka Misaki', '2102': 'Sato Ken' };
    page.deliver(posted.people());
    assert.deepEqual(grid.shownRows()[0]!.slice(1, 5), ['Item 19', '2026-03-02→2026-03-09', '2026-03-06→2026-03-13', 'Tanaka Misaki (7.5 h)']);
    assert.equal(grid.shownCells()[0]![4]!.title, 'Tanaka Misaki (7.5 h) (2101: 450 min)', 'the user ID and minutes on hover');
    assert.equal(grid.shownRows()[1]![4], 'Sato Ken (7.5 h)→(empty)');
  });

  it('ignores messages for another page (a page replaced since), and a page without a posted table asks for nothing', () => {
    const t = shiftTable();
    const page = postedPage('p-new');
    page.deliver(new PostedTable('p-old', t, S).head());
    assert.equal(page.grid(), undefined, 'nothing painted');
    assert.equal(tableAsk('p-3', 'embedded'), undefined, 'no ask without data-rows="posted"');
    assert.equal(tableAsk(undefined, 'posted'), undefined, 'no ask without a page mark');
  });

  it('every row travels as UTF-8 JSON bytes that read back exactly (also text that looks like markup)', () => {
    const t = previewTable(['X'], { fields: { Name: '</script><img src=x onerror=alert(1)>' } }, new Map([['X', { Id: 'X', Name: '<b>名前</b>' }]]), S);
    const bytes = rowsBytes(t);
    assert.ok(bytes instanceof Uint8Array);
    assert.deepEqual(JSON.parse(new TextDecoder().decode(bytes)), JSON.parse(JSON.stringify(t.rows)));
    const posted = new PostedTable('p', t, S);
    assert.equal((posted.rows() as { rows: Uint8Array }).rows, (posted.rows() as { rows: Uint8Array }).rows, 'made once per table');
    const page = postedPage('p');
    page.deliver(posted.head());
    page.grid()!.flush();
    assert.deepEqual(page.grid()!.shownRows()[0]!.slice(0, 2), ['X', '<b>名前</b>→</script><img src=x onerror=alert(1)>'], 'the Name field shown before → after (no second Name column)');
  });

  it('the result view still paints from the data in its page', () => {
    const t = resultTable([{ id: 'A', name: 'Alpha', field: 'PlannedTime', before: 60, after: 90, unexpected: false }], ['PlannedTime'], new Map(), S);
    const html = renderChangeTable(t, S);
    assert.match(html, /data-rows="embedded"/);
    const json = (id: string) => new RegExp(`<script type="application/json" id="${id}">([\\s\\S]*?)</script>`).exec(html)![1]!;
    const grid = new ModelGrid(JSON.parse(json('wis-head')) as ChangeTableHead);
    assert.deepEqual(grid.shownRows(), [['A', 'Alpha', '1 h→1.5 h', '']]);
    grid.all((JSON.parse(json('wis-data')) as { rows: ItemRow[] }).rows);
    grid.flush();
    assert.equal(grid.marks.rowsReady, '1');
  });
});
