// The Before/After table built as the reads come back (src/webview/changeTable.ts
// PreviewTableBuilder): the same table as computed at once, rows made batch by batch, the
// notes that depend on sub-items counted when those are read; and the page (its own modules,
// src/webview/web/) painting the first batch, appending the next ones and setting the counts,
// lines and read line from the summary.
import * as assert from 'node:assert/strict';
import { HAS_SUB_ITEMS, type ItemValues } from '../../src/bulk/effects';
import { ENGLISH_CHANGE_TABLE, PreviewTableBuilder, changeTableSection, previewTable } from '../../src/webview/changeTable';
import { PostedTable } from '../../src/webview/changeTableData';
import type { ChangeTableMessage } from '../../src/webview/protocol';
import type { UpdateWorkItemsBody } from '../../src/schema/api';
import { postedPage } from './change-page';

const S = ENGLISH_CHANGE_TABLE;
const BODY: UpdateWorkItemsBody = { fields: { Description: 'x' }, moveScheduleDays: 7, setCompleted: true, assignmentChange: { removes: '2102' } };

function items(n: number): Map<string, ItemValues> {
  return new Map(
    Array.from({ length: n }, (_, i) => [
      String(1000 + i),
      {
        Id: String(1000 + i),
        Name: `Item ${i}`,
        Description: i % 3 ? 'x' : 'old',
        PlannedStartDate: '2026-03-02T00:00:00',
        PlannedFinishDate: i === 7 ? '2026-02-01T00:00:00' : '2026-03-06T00:00:00',
        Assignments: [{ partyId: i % 2 ? '2101' : '2102', plannedTime: 450 }],
        ManagedPlannedTime: 450,
        ActualProgress: 0,
        TracksProgress: true,
      } as ItemValues,
    ]),
  );
}


describe('changes: the Before/After table built batch by batch as the reads come back', () => {
  it('the same rows, counts and lines as computed at once; rows made in ID order as their batches settle; sub-item notes counted at the end', () => {
    const all = items(250);
    const ids = [...all.keys(), '9999'];
    // The sub-item reads say which items have none (after the last batch).
    const after = new Map(all);
    for (const [id, v] of all) if (Number(id) % 2 === 0) after.set(id, { ...v, [HAS_SUB_ITEMS]: false });
    const atOnce = previewTable(ids, BODY, after, S, [{ text: 'missing', level: 'error' }]);
    const b = new PreviewTableBuilder(ids, BODY, S);
    const batches = [ids.slice(0, 100), ids.slice(100, 200), ids.slice(200)];
    const seen = new Map<string, ItemValues>();
    const froms: number[] = [];
    for (const batch of batches) {
      for (const id of batch) if (all.has(id)) seen.set(id, all.get(id)!);
      froms.push(b.addRead(batch, seen));
      assert.equal(b.made, Math.min(ids.length, froms.at(-1)! + batch.length));
    }
    assert.deepEqual(froms, [0, 100, 200]);
    const t = b.finish(after, [{ text: 'missing', level: 'error' }]);
    assert.deepEqual(t, atOnce);
    assert.ok(t.lines.some((l) => l.text === '125 items: children-progress'), t.lines.map((l) => l.text).join(' | '));
    assert.ok(t.lines.some((l) => /end-before-start/.test(l.text)) && t.lines.some((l) => /missing/.test(l.text)));
  });

  it('a batch in another order than the IDs: rows wait for the IDs before them', () => {
    const all = items(6);
    const ids = [...all.keys()];
    const b = new PreviewTableBuilder(ids, BODY, S);
    assert.equal(b.addRead(ids.slice(3), all), 0);
    assert.equal(b.made, 0, 'the first IDs are not read yet');
    b.addRead(ids.slice(0, 3), all);
    assert.equal(b.made, 6);
    assert.deepEqual(b.finish(all), previewTable(ids, BODY, all, S));
  });

  it('the page paints the first batch, appends the next ones (the filter kept), then sets the counts, lines and read line', () => {
    const all = items(250);
    const ids = [...all.keys()];
    const b = new PreviewTableBuilder(ids, BODY, S);
    const section = changeTableSection(b.table, S, 'posted', true);
    assert.match(section, /<tbody id="wis-counts-body"><\/tbody>/, 'no counts before every item is read');
    assert.match(section, /<ul class="wis-lines" id="wis-lines"><\/ul>/);
    const seen = new Map<string, ItemValues>();
    const read = (batch: string[]) => {
      for (const id of batch) seen.set(id, all.get(id)!);
      return b.addRead(batch, seen);
    };
    const posted = new PostedTable('p', b.table, S, {}, ids.length);
    const first = posted.more(read(ids.slice(0, 100)));
    const page = postedPage('p');
    const head = posted.head() as Extract<ChangeTableMessage, { type: 'table' }>;
    assert.equal(head.head.total, 250, 'the rows to come are counted');
    page.deliver(head);
    page.deliver(first);
    const grid = page.grid()!;
    grid.flush();
    assert.equal(grid.marks.rowsShown, '100');
    assert.equal(grid.marks.rowsReady, undefined);
    assert.equal(grid.shownRows()[0]![0], '1000');
    grid.filter('all', 'item 2');
    assert.equal(grid.shown(), '11 of 250 items');
    page.deliver(posted.more(read(ids.slice(100, 200))));
    page.deliver(posted.more(read(ids.slice(200))));
    assert.equal(grid.marks.rowsReady, '1');
    assert.equal(grid.shown(), '61 of 250 items', 'the filter applies to the rows appended');
    // A page loaded again (the view shown again) gets the same batches and the summary.
    const t = b.finish(seen);
    const summary = posted.summary({ counts: t.counts, lines: t.lines, status: 'Read 250 items with 3 requests.' });
    page.deliver(summary);
    const counts = page.summary()!.rows.map((r) => [r.label, ...r.counts.map(String)]);
    assert.deepEqual(counts[0], ['Description', '84', '166', '0']);
    assert.equal(counts.length, t.counts.length);
    assert.deepEqual(
      page.summary()!.s.lines.map((l) => [l.level, l.text]),
      t.lines.map((l) => [l.level, l.text]),
    );
    assert.equal(page.summary()!.s.status, 'Read 250 items with 3 requests.');
    const again = posted.forPage('p2');
    assert.deepEqual(
      again.rest().map((m) => [m.type, 'from' in m ? m.from : undefined]),
      [
        ['more', 0],
        ['more', 100],
        ['more', 200],
        ['summary', undefined],
      ],
    );
    const page2 = postedPage('p2');
    page2.deliver(again.head());
    for (const m of again.rest()) page2.deliver(m);
    page2.grid()!.flush();
    assert.equal(page2.grid()!.marks.rowsReady, '1');
    assert.equal(page2.grid()!.model.total, 250);
    assert.equal(page2.summary()!.s.status, 'Read 250 items with 3 requests.');
  });
});
