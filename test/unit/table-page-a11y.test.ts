// The work item table's page for screen readers: what a cell says beyond its text (a new or sent
// row, an edited cell's value before), which cells are read only (the columns the extension marks,
// a new row's item type and assignees editable), the label of the grid's text box, and the
// columns as the extension sends them.
import * as assert from 'node:assert/strict';
import { pageColumns } from '../../src/table/columnInfo';
import { buildColumns } from '../../src/table/model';
import type { ColumnInfo, PageRow } from '../../src/table/protocol';
import { cellId, cellSpoken } from '../../src/table/web/rowView';

const strings = { editedBefore: 'Edited. Before: {0}', empty: '(empty)', newRowState: 'New item', sentState: 'Sent' };
const ja = { editedBefore: '編集済み。変更前: {0}', empty: '(空)', newRowState: '新しい項目', sentState: '送信済み' };
const name: ColumnInfo = { key: 'Name', label: 'Name', type: 'text', width: 100 };
const code: ColumnInfo = { key: 'Id', label: 'ID', type: 'text', width: 60, readOnly: true };
const type: ColumnInfo = { key: 'ItemTypeId', label: 'Type', type: 'list', width: 80, readOnly: true, editableWhenNew: true };
const row = (o: Partial<PageRow> = {}): PageRow => ({ id: '7', level: 1, container: false, cells: ['設計', '7', 'Task'], ...o });

describe('table page: cells for screen readers', () => {
  it('a plain cell adds nothing to its text; the text box names the column and the text', () => {
    assert.deepEqual(cellSpoken(row(), name, '設計', strings), { readOnly: false, label: 'Name: 設計' });
    assert.equal(cellSpoken(row(), name, '▾ 設計 ', strings).label, 'Name: ▾ 設計', 'spaces of the tree mark trimmed');
  });

  it('an edited cell says it was edited and its value before (the empty mark for an empty one), in the strings given', () => {
    const edited = cellSpoken(row({ edited: { Name: '設計書' } }), name, '設計', strings);
    assert.equal(edited.description, 'Edited. Before: 設計書');
    assert.equal(edited.label, 'Name: 設計. Edited. Before: 設計書');
    assert.equal(cellSpoken(row({ edited: { Name: '' } }), name, '設計', strings).description, 'Edited. Before: (empty)');
    assert.equal(cellSpoken(row({ edited: { Name: '' } }), name, '設計', ja).description, '編集済み。変更前: (空)');
    assert.equal(cellSpoken(row({ edited: { Code: 'x' } }), name, '設計', strings).description, undefined, "another column's edit is not this cell's");
  });

  it("a new row's and a sent row's cells say so, before the edit", () => {
    assert.equal(cellSpoken(row({ added: true }), name, '設計', strings).description, 'New item');
    assert.equal(cellSpoken(row({ sent: true, edited: { Name: 'a' } }), name, '設計', strings).description, 'Sent. Edited. Before: a');
    assert.equal(cellSpoken(row({ added: true }), name, '設計', ja).label, 'Name: 設計. 新しい項目');
  });

  it("cells of read-only columns are read only, except a new row's item type (set with the add); a row not received yet follows its column", () => {
    assert.equal(cellSpoken(row(), code, '7', strings).readOnly, true);
    assert.equal(cellSpoken(row({ added: true }), code, '', strings).readOnly, true);
    assert.equal(cellSpoken(row(), type, 'Task', strings).readOnly, true);
    assert.equal(cellSpoken(row({ added: true }), type, 'Task', strings).readOnly, false);
    assert.equal(cellSpoken(undefined, code, '', strings).readOnly, true);
    assert.deepEqual(cellSpoken(undefined, name, '', strings), { readOnly: false, label: 'Name: ' });
  });

  it('painted cells have ids by row and column (the text box points at the focused one)', () => {
    assert.equal(cellId(0, 0), 'cell-0-0');
    assert.notEqual(cellId(1, 11), cellId(11, 1));
  });
});

describe('table columns as the page gets them: read only from the model', () => {
  const all = buildColumns();
  const keys = ['Name', 'ItemTypeId', 'Id', 'PlannedStartDate'];

  it('marks the columns whose cells cannot be edited, and those editable only in new rows', () => {
    const cols = pageColumns(
      keys.map((k) => all.find((c) => c.key === k)!).filter(Boolean),
      'en',
      { Name: 250 },
      {},
    );
    const by = new Map(cols.map((c) => [c.key, c]));
    assert.equal(by.get('Name')?.readOnly, undefined, 'Name is editable');
    assert.equal(by.get('Name')?.width, 250, 'the width kept for the column');
    assert.deepEqual([by.get('ItemTypeId')?.readOnly, by.get('ItemTypeId')?.editableWhenNew], [true, true], 'the item type: set with an add');
    assert.deepEqual([by.get('Id')?.readOnly, by.get('Id')?.editableWhenNew], [true, undefined], 'the ID: never');
  });
});
