// The Before/After view's table as data the webview paints itself: the extension's messages
// (src/webview/changeTableData.ts) run through the very scripts the page loads
// (media/changes/page.js, cells.js, table.js) over a small stand-in DOM: the page asks for its
// table with its page mark, paints the rows in sight from the first message, takes every row
// from the bytes of the second after the first paint, and paints names learned later.
// The result view's embedded data still paints the same way.
import * as assert from 'node:assert/strict';
import { renderChangesPage } from '../../src/changes/model/page';
import { changeTableSection, ENGLISH_CHANGE_TABLE, HEAD_ROWS, previewTable, renderChangeTable, resultTable } from '../../src/webview/changeTable';
import { isTableRequest, PostedTable, rowsBytes, type TableMessage } from '../../src/webview/changeTableData';
import { runChangesPage } from './webview-fake-dom';

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

/** Through a structured clone, as postMessage delivers a message (a Uint8Array stays one). */
const delivered = (m: TableMessage): unknown => structuredClone(m);

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
    const page = runChangesPage({ body: { page: 'p-1', document: 'file:///a.workitems.json' }, rows: 'posted' });
    assert.deepEqual(page.posted, [{ command: 'ready', page: 'p-1' }]);
    assert.ok(isTableRequest(page.posted[0]));
    assert.ok(!isTableRequest({ command: 'ready' }) && !isTableRequest({ command: 'send', page: 'p-1' }));
    assert.deepEqual(page.state, { document: 'file:///a.workitems.json' }, 'the document is still kept for a reload');
  });

  it('paints the rows in sight from the first message, then takes every row after the first paint; hours, minutes on hover, names', () => {
    const t = shiftTable();
    const posted = new PostedTable('p-2', t, S);
    const page = runChangesPage({ body: { page: 'p-2' }, rows: 'posted' });
    const head = posted.head() as Extract<TableMessage, { type: 'table' }>;
    assert.equal(head.head.rows.length, HEAD_ROWS, 'the first message carries the first rows only');
    assert.equal(head.head.total, 201);
    page.deliver(delivered(head));
    const header = page.elements['wis-grid']!.children[0]!.children.map((c) => c.textContent);
    assert.deepEqual(header, ['ID', 'Name', 'Planned start', 'Planned finish', 'Assignees', 'Managed planned time', 'Remarks']);
    const tips = page.elements['wis-grid']!.children[0]!.children.map((c) => c.title);
    assert.deepEqual(tips.slice(2, 6), ['Planned start (PlannedStartDate)', 'Planned finish (PlannedFinishDate)', 'Assignees (Assignments)', 'Managed planned time (ManagedPlannedTime)'], 'the system names on hover');
    const rows = page.shownRows();
    assert.equal(rows.length, 20, 'only the rows in sight (240 px of 24 px rows, and some more)');
    assert.deepEqual(rows[0], ['1000', 'Item 0', '2026-03-02→2026-03-09', '2026-03-06→2026-03-13', '2102 (7.5 h)→(empty)', '450→0', '']);
    assert.deepEqual(rows[1]!.slice(4), ['2101 (7.5 h)', '450', ''], 'unchanged cells show their value');
    const cell = page.elements['wis-grid']!.children[1]!.children[1]!.children[4]!;
    assert.equal(cell.title, '2101 (7.5 h) (2101: 450 min)', 'minutes on hover');
    assert.equal(page.elements['wis-shown']!.textContent, '201 of 201 items');
    // Every row: kept until the first paint, then taken.
    page.deliver(delivered(posted.rows()));
    assert.equal(page.document.body.dataset.rowsReady, undefined, 'not before the first paint');
    page.flush();
    assert.equal(page.document.body.dataset.rowsReady, '1');
    assert.equal(page.document.body.dataset.rows, '201');
    // The missing item is flagged, and a filter over every row finds it.
    page.elements['wis-filter']!.value = 'flag';
    page.elements['wis-filter']!.listeners.change![0]!();
    assert.deepEqual(
      page.shownRows().map((r) => [r[0], r.at(-1)]),
      [['9999', 'missing']],
    );
    assert.equal(page.elements['wis-shown']!.textContent, '1 of 201 items');
    page.elements['wis-filter']!.value = 'all';
    page.elements['wis-search']!.value = 'item 19';
    page.elements['wis-search']!.listeners.input![0]!();
    assert.deepEqual(page.shownRows().map((r) => r[1]), ['Item 19', ...Array.from({ length: 10 }, (_, i) => `Item ${190 + i}`)]);
    // Names learned after the first paint: the rows in sight are painted again with them.
    t.people = { '2101': 'Tanaka Misaki', '2102': 'Sato Ken' };
    page.deliver(delivered(posted.people()));
    assert.deepEqual(page.shownRows()[0]!.slice(1, 5), ['Item 19', '2026-03-02→2026-03-09', '2026-03-06→2026-03-13', 'Tanaka Misaki (7.5 h)']);
    assert.equal(page.elements['wis-grid']!.children[1]!.children[0]!.children[4]!.title, 'Tanaka Misaki (7.5 h) (2101: 450 min)', 'the user ID and minutes on hover');
    assert.equal(page.shownRows()[1]![4], 'Sato Ken (7.5 h)→(empty)');
  });

  it('ignores messages for another page (a page replaced since), and a page without a posted table asks for nothing', () => {
    const t = shiftTable();
    const page = runChangesPage({ body: { page: 'p-new' }, rows: 'posted' });
    page.deliver(delivered(new PostedTable('p-old', t, S).head()));
    assert.equal(page.elements['wis-grid']!.children.length, 0, 'nothing painted');
    const message = runChangesPage({ body: { page: 'p-3' }, rows: 'embedded' });
    assert.deepEqual(message.posted, [], 'no ask without data-rows="posted"');
  });

  it('every row travels as UTF-8 JSON bytes that read back exactly (also text that looks like markup)', () => {
    const t = previewTable(['X'], { fields: { Name: '</script><img src=x onerror=alert(1)>' } }, new Map([['X', { Id: 'X', Name: '<b>名前</b>' }]]), S);
    const bytes = rowsBytes(t);
    assert.ok(bytes instanceof Uint8Array);
    assert.deepEqual(JSON.parse(new TextDecoder().decode(bytes)), JSON.parse(JSON.stringify(t.rows)));
    const posted = new PostedTable('p', t, S);
    assert.equal((posted.rows() as { rows: Uint8Array }).rows, (posted.rows() as { rows: Uint8Array }).rows, 'made once per table');
    const page = runChangesPage({ body: { page: 'p' }, rows: 'posted' });
    page.deliver(delivered(posted.head()));
    page.flush();
    assert.deepEqual(page.shownRows()[0]!.slice(0, 2), ['X', '<b>名前</b>→</script><img src=x onerror=alert(1)>'], 'the Name field shown before → after (no second Name column)');
  });

  it('the result view still paints from the data in its page', () => {
    const t = resultTable([{ id: 'A', name: 'Alpha', field: 'PlannedTime', before: 60, after: 90, unexpected: false }], ['PlannedTime'], new Map(), S);
    const html = renderChangeTable(t, S);
    assert.match(html, /data-rows="embedded"/);
    const json = (id: string) => new RegExp(`<script type="application/json" id="${id}">([\\s\\S]*?)</script>`).exec(html)![1]!;
    const page = runChangesPage({ body: {}, rows: 'embedded', json: { head: json('wis-head'), data: json('wis-data') } });
    assert.deepEqual(page.shownRows(), [['A', 'Alpha', '1 h→1.5 h', '']]);
    page.flush();
    assert.equal(page.document.body.dataset.rowsReady, '1');
  });
});
