// The Before/After table of a change that adds: the items to be added are rows of their
// own, first, marked as new ("(new)" in the ID column and as their values before), their
// fields after counted as changes; the updated items keep their rows, and the columns are
// the fields of both. Batches handed on start with the new rows.
import * as assert from 'node:assert/strict';
import { deletedIds, planChange, newItemRows } from '../../src/bulk';
import type { ItemValues } from '../../src/bulk/effects';
import { CellState, ENGLISH_CHANGE_TABLE, PreviewTableBuilder, type ItemRow } from '../../src/webview/changeTable';

const cellOf = (row: ItemRow, i: number): [CellState, unknown, unknown] => [row.state[i]!, row.before[i], row.after[i]];
import { renderPreview } from '../../src/changes/model/markdownPreview';

const BASE = 'https://pm.example.com/api';

describe('changes: new rows of the items a change adds', () => {
  const plan = planChange({
    requests: [
      { workItemIds: ['120'], update: { fields: { Code: 'C-1' } } },
      {
        workItemIds: [],
        update: {},
        kind: 'add',
        add: { parentId: '10', item: { fields: { ItemTypeId: '41', Name: 'Release' }, subItems: [{ fields: { ItemTypeId: '42', Name: 'Plan', PlannedTime: 120 } }] } },
      },
    ],
    baseUrl: BASE,
  });
  const current = new Map<string, ItemValues>([['120', { Id: '120', Name: 'Old', Code: 'C-0' }]]);

  it('newItemRows gives every item to be added, depth first, with its parent and depth', () => {
    assert.deepEqual(newItemRows(plan), [
      { parentId: '10', depth: 0, fields: { ItemTypeId: '41', Name: 'Release' } },
      { parentId: '10', depth: 1, fields: { ItemTypeId: '42', Name: 'Plan', PlannedTime: 120 } },
    ]);
  });

  it('the new rows come first, marked as new, their fields after counted as changes; the updated item keeps its row', () => {
    const b = new PreviewTableBuilder(plan.ids, new Map([['120', [plan.parts[0]!.update]]]), ENGLISH_CHANGE_TABLE, {}, newItemRows(plan));
    const table = b.finish(current);
    assert.deepEqual(table.fields, ['Code', 'ItemTypeId', 'Name', 'PlannedTime']);
    assert.deepEqual(
      table.rows.map((r) => [r.id, r.name, r.remarks]),
      [
        ['(new)', 'Release', 'added below 10'],
        ['(new)', '  Plan', 'added below 10'],
        ['120', 'Old', ''],
      ],
    );
    const plannedTime = table.fields.indexOf('PlannedTime');
    assert.deepEqual(cellOf(table.rows[1]!, plannedTime), [CellState.Changes, '(new)', 120]);
    assert.deepEqual(cellOf(table.rows[0]!, plannedTime), [CellState.Unchanged, '(new)', null], 'a field the new item does not set');
    assert.deepEqual(cellOf(table.rows[2]!, table.fields.indexOf('Code')), [CellState.Changes, 'C-0', 'C-1']);
    // The updated item's Name is no field of its body: shown as it is, not counted.
    assert.deepEqual(table.counts.find((c) => c.field === 'Name'), { field: 'Name', changes: 2, unchanged: 0, computed: 0, unexpected: 0 });
  });

  it('one body for every item (a document of one update beside adds) works the same way', () => {
    const b = new PreviewTableBuilder(['120'], { fields: { Code: 'C-1' } }, ENGLISH_CHANGE_TABLE, {}, newItemRows(plan));
    assert.deepEqual(b.finish(current).rows.map((r) => r.id), ['(new)', '(new)', '120']);
  });

  it('the rows handed on batch by batch start with the new rows', () => {
    const b = new PreviewTableBuilder(plan.ids, new Map([['120', [plan.parts[0]!.update]]]), ENGLISH_CHANGE_TABLE, {}, newItemRows(plan));
    assert.equal(b.addRead(['120'], current), 0, 'the first rows handed on are the new ones');
    assert.equal(b.made, 3);
  });

  it('the Preview document shows the POST of the add with its body, counted by the items it makes, and the PUT of the update', () => {
    const text = renderPreview({ documentName: 'a.workitems.json', serviceLabel: 'S', plan, documentWarnings: [] });
    assert.match(text, /\*\*3 items in 2 requests\*\*/);
    assert.match(text, /## Request 2 of 2 in the document: 2 items/);
    assert.match(text, /POST https:\/\/pm\.example\.com\/api\/workitem\/workItems\/10\/subItems/);
    assert.match(text, /PUT https:\/\/pm\.example\.com\/api\/workitem\/workItems\/120/);
    assert.match(text, /"Name": "Plan"/, 'the body of the POST, sub-items included');
  });

  it('an item the change deletes says so in its row', () => {
    const del = planChange({ requests: [{ workItemIds: ['120'], update: {}, kind: 'delete' }], baseUrl: BASE });
    const b = new PreviewTableBuilder(del.ids, new Map([['120', [{}]]]), ENGLISH_CHANGE_TABLE, {}, newItemRows(del), deletedIds(del));
    assert.deepEqual(b.finish(current).rows.map((r) => [r.id, r.remarks]), [['120', 'deleted by this change']]);
  });

  it('a change that only adds has its new rows and nothing to read', () => {
    const only = planChange({ requests: [{ workItemIds: [], update: {}, kind: 'add', add: plan.parts[1]!.add! }], baseUrl: BASE });
    const b = new PreviewTableBuilder(only.ids, new Map(), ENGLISH_CHANGE_TABLE, {}, newItemRows(only));
    assert.deepEqual(b.finish(new Map()).rows.map((r) => r.name), ['Release', '  Plan']);
  });
});
