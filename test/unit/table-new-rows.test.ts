// The table's new rows (items to add): made from drafts as one undo step, put below their
// parents, turned into nested adds by the review, kept and made again after a reload.
import * as assert from 'node:assert/strict';
import { TableEdits, type LoadedRow, SYSTEM_COLUMNS, editCellText } from '../../src/table/model';
import type { NewItemDraft } from '../../src/table/model/drafts';
import { firstMisplacedDraft } from '../../src/table/model/drafts';
import { copiedFields, insertRows, keptNewRows, liveRows, makeNewRows, newRowAdds, NEW_ROW_MARK, placeOfRow, type ParentPlace } from '../../src/table/model/newRows';
import { mergeKept } from '../../src/table/model/pending';

const row = (id: string, level: number, name: string, parentId: string, parentName: string | null, hasChildren = false): LoadedRow => ({
  id, level, hasChildren, fields: { Name: name, ParentId: parentId, ParentName: parentName, ItemTypeId: hasChildren ? '1' : '4' },
});

/** A project: its root folder 100, folder 101 "Design" with tasks 102, 103; folder 104 "Build" with task 105. */
function project(): LoadedRow[] {
  return [
    row('101', 1, 'Design', '100', null, true),
    row('102', 2, 'Screens', '101', 'Design'),
    row('103', 2, 'Review', '101', 'Design'),
    row('104', 1, 'Build', '100', null, true),
    row('105', 2, 'Code', '104', 'Build'),
  ];
}

function placeIn(rows: readonly LoadedRow[]): (id: string) => ParentPlace | undefined {
  return (id) => {
    const r = rows.find((x) => x.id === id);
    if (r) return placeOfRow(r, r.fields);
    return id === '100' ? { id, level: 0, childPath: '' } : undefined;
  };
}

const outline: NewItemDraft[] = [
  { parent: { id: '101' }, fields: { Name: 'Prototype', ItemTypeId: '1' } },
  { parent: { draft: 0 }, fields: { Name: 'Sketch', ItemTypeId: '4', PlannedStartDate: '2026-12-07' } },
  { parent: { draft: 0 }, fields: { Name: 'Click-through', ItemTypeId: '1' } },
  { parent: { draft: 2 }, fields: { Name: 'Test with users', ItemTypeId: '4', Assignments: ['2001', '2002'] } },
];

describe('table: new rows', () => {
  it('a three-level outline below a row becomes rows below it, after its children, with levels and parent paths; one undo step takes them away', () => {
    const rows = project();
    const edits = new TableEdits(rows);
    const made = makeNewRows(outline, placeIn(rows), 1);
    assert.deepEqual(made.rows.map((r) => [r.id, r.level, r.fields['ParentId'], r.fields['ParentName'], r.hasChildren]), [
      ['new-1', 2, '101', 'Design', true],
      ['new-2', 3, 'new-1', 'Design / Prototype', false],
      ['new-3', 3, 'new-1', 'Design / Prototype', true],
      ['new-4', 4, 'new-3', 'Design / Prototype / Click-through', false],
    ]);
    assert.equal(made.next, 5);
    const all = insertRows(rows, made.rows);
    assert.deepEqual(all.map((r) => r.id), ['101', '102', '103', 'new-1', 'new-2', 'new-3', 'new-4', '104', '105'], 'at the end of the parent\'s children, the rest in place');
    edits.setRows(all);
    assert.ok(edits.apply(made.changes) > 0);
    assert.equal(liveRows(all, edits).length, 9);
    edits.undo();
    assert.deepEqual(liveRows(all, edits).map((r) => r.id), ['101', '102', '103', '104', '105'], 'undo takes the rows away');
    edits.redo();
    assert.equal(liveRows(all, edits).length, 9, 'redo brings them back');
  });

  it('a new row below the table\'s root goes last; a parent that is not a row is refused', () => {
    const rows = project();
    const made = makeNewRows([{ parent: { id: '100' }, fields: { Name: 'Test' } }], placeIn(rows), 7);
    assert.deepEqual(insertRows(rows, made.rows).map((r) => r.id).slice(-1), ['new-7']);
    assert.equal(made.rows[0]!.level, 1);
    assert.equal(made.rows[0]!.fields['ParentName'], null);
    assert.throws(() => makeNewRows([{ parent: { id: '999' }, fields: {} }], placeIn(rows), 1), /parent is not a row/);
  });

  it('rows made at different times below each other are each put below their own parent', () => {
    const rows = project();
    const first = makeNewRows([{ parent: { id: '101' }, fields: { Name: 'A', ItemTypeId: '1' } }], placeIn(rows), 1);
    let all = insertRows(rows, first.rows);
    const second = makeNewRows([{ parent: { id: '104' }, fields: { Name: 'B', ItemTypeId: '4' } }], placeIn(all), first.next);
    all = insertRows(all, second.rows);
    const third = makeNewRows([{ parent: { id: 'new-1' }, fields: { Name: 'A.1', ItemTypeId: '4' } }], placeIn(all), second.next);
    all = insertRows(all, third.rows);
    assert.deepEqual(all.map((r) => r.id), ['101', '102', '103', 'new-1', 'new-3', '104', '105', 'new-2']);
    assert.equal(all.find((r) => r.id === 'new-1')!.hasChildren, true, 'a new row with a child shows as a container');
  });

  it('the review: one add per new row below an existing item, the rows below it nested in order, assignments as the add\'s, the derived fields not sent', () => {
    const rows = project();
    const made = makeNewRows(outline, placeIn(rows), 1);
    const all = insertRows(rows, made.rows);
    const edits = new TableEdits(all);
    edits.apply(made.changes);
    edits.apply([{ id: '102', field: 'Name', value: 'Screens v2' }]);
    const r = newRowAdds(all, edits);
    assert.equal(r.count, 4);
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.adds, [
      {
        parentId: '101',
        item: {
          fields: { Name: 'Prototype', ItemTypeId: '1' },
          subItems: [
            { fields: { Name: 'Sketch', ItemTypeId: '4', PlannedStartDate: '2026-12-07' } },
            { fields: { Name: 'Click-through', ItemTypeId: '1' }, subItems: [{ fields: { Name: 'Test with users', ItemTypeId: '4' }, assignments: [{ partyId: '2001' }, { partyId: '2002' }] }] },
          ],
        },
      },
    ]);
    assert.deepEqual(r.rowsOf, [['new-1', 'new-2', 'new-3', 'new-4']]);
  });

  it('a new row without a name or an item type is a problem of the review, named by where it goes', () => {
    const rows = project();
    const made = makeNewRows([{ parent: { id: '104' }, fields: { ItemTypeId: '4' } }, { parent: { id: '104' }, fields: {} }], placeIn(rows), 1);
    const all = insertRows(rows, made.rows);
    const edits = new TableEdits(all);
    edits.apply(made.changes);
    const r = newRowAdds(all, edits);
    assert.deepEqual(r.problems, [
      { id: 'new-1', path: 'Build', missing: ['Name'] },
      { id: 'new-2', path: 'Build', missing: ['Name', 'ItemTypeId'] },
    ]);
    // A name emptied again is missing again.
    edits.apply([{ id: 'new-1', field: 'Name', value: 'Deploy' }]);
    assert.equal(newRowAdds(all, edits).problems.length, 1);
    edits.apply([{ id: 'new-1', field: 'Name', value: '' }]);
    assert.equal(newRowAdds(all, edits).problems.length, 2);
  });

  it('undone new rows are in no add', () => {
    const rows = project();
    const made = makeNewRows(outline, placeIn(rows), 1);
    const all = insertRows(rows, made.rows);
    const edits = new TableEdits(all);
    edits.apply(made.changes);
    edits.undo();
    assert.equal(newRowAdds(all, edits).count, 0);
    assert.equal(edits.size, 0);
  });

  it('sent rows are forgotten: out of the edits and of every undo and redo step', () => {
    const rows = project();
    const made = makeNewRows(outline.slice(0, 2), placeIn(rows), 1);
    const all = insertRows(rows, made.rows);
    const edits = new TableEdits(all);
    edits.apply(made.changes);
    edits.apply([{ id: '105', field: 'Name', value: 'Code v2' }]);
    edits.forget(new Set(['new-1', 'new-2']));
    assert.deepEqual(edits.all().map((e) => e.id), ['105']);
    edits.undo();
    assert.equal(edits.size, 0);
    assert.equal(edits.canUndo, false, 'the step that made the rows is gone too');
  });

  it('kept with the table\'s unsent edits and made again after a reload, below the same parents, numbers going on', () => {
    const rows = project();
    const made = makeNewRows(outline, placeIn(rows), 1);
    const all = insertRows(rows, made.rows);
    const edits = new TableEdits(all);
    edits.apply(made.changes);
    const kept = JSON.parse(JSON.stringify(mergeKept([], new Set(all.map((r) => r.id)), edits.all(), []))) as { id: string; field: string; value: unknown }[];
    assert.ok(kept.some((e) => e.field === NEW_ROW_MARK));
    const again = keptNewRows(kept, placeIn(rows));
    assert.deepEqual(again.rows.map((r) => [r.id, r.level, r.fields['ParentId'], r.fields['ParentName']]), made.rows.map((r) => [r.id, r.level, r.fields['ParentId'], r.fields['ParentName']]));
    assert.equal(again.next, 5);
    // Below a parent that is gone: not made (its edits are then held as those of an item gone).
    assert.equal(keptNewRows(kept, () => undefined).rows.length, 0);
  });

  it('Duplicate Rows copies what an add can set: not the status, the progress, the actuals or the derived fields', () => {
    const fields = { Name: 'Code', ItemTypeId: '4', StatusTypeId: '3', ActualProgress: 50, ActualTime: 600, PlannedTime: 480, ParentName: 'Build', ParentId: '104', Assignments: [{ partyId: '2001' }], Custom_Risk: 'High' };
    const cols = [...SYSTEM_COLUMNS, { key: 'Custom_Risk', label: 'Risk', type: 'text' as const, field: { systemName: 'Custom_Risk', name: 'Risk', dataType: 'String' } as never }];
    assert.deepEqual(copiedFields(fields, cols, () => true), { ItemTypeId: '4', Name: 'Code', Assignments: ['2001'], PlannedTime: 480, Custom_Risk: 'High' });
  });

  it('a new row\'s item type and assignees are cells to fill (set with the add); an existing row\'s stay read only', () => {
    const type = { ...SYSTEM_COLUMNS.find((c) => c.key === 'ItemTypeId')!, choices: [{ id: '41', name: 'Folder' }, { id: '42', name: 'Task' }] };
    const fresh = { id: 'new-1', fields: {} };
    const existing = { id: '102', fields: { ItemTypeId: '42' } };
    assert.deepEqual(editCellText(fresh, type, 'Folder', {}), { ok: true, id: 'new-1', field: 'ItemTypeId', value: '41' });
    const refused = editCellText(existing, type, 'Folder', existing.fields);
    assert.equal(refused.ok, false);
    assert.match(!refused.ok ? refused.problem.message : '', /changeItemTypeTo/);
  });

  it('producers promise a parent draft before its children', () => {
    assert.equal(firstMisplacedDraft(outline), -1);
    assert.equal(firstMisplacedDraft([{ parent: { draft: 1 }, fields: {} }, { parent: { id: '1' }, fields: {} }]), 0);
  });
});
