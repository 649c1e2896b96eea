// The work item table's page, by its own modules (src/table/web/): the keyboard and the
// selection as in a spreadsheet, what a cell shows (tree indent, users by name, long texts,
// edited cells with their value before), the status line, the headers' sort marks; and the
// messages it posts as the extension reads them.
import * as assert from 'node:assert/strict';
import { readMessage, type ColumnInfo, type FromWebview, type PageRow, type TableStrings } from '../../src/table/protocol';
import { cellShown, headerLabel, statusText } from '../../src/table/web/rowView';
import { boxCells, clampCell, gridKey, inBox, selectionBox, type KeyInput } from '../../src/table/web/selection';
import { toTsv } from '../../src/table/web/virtual';

const key = (k: string, mods: Partial<KeyInput> = {}): KeyInput => ({ key: k, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods });
const at = (r: number, c: number, o: { anchor?: { r: number; c: number } } = {}) => ({
  focus: { r, c },
  anchor: o.anchor ?? { r, c },
  total: 100,
  columns: 5,
  page: 10,
});

describe('table page: the keyboard as in a spreadsheet', () => {
  it('arrows move the focused cell, Shift extends the selection, Page Up/Down by a page, Home/End in the row (with Ctrl: the first or last row)', () => {
    assert.deepEqual(gridKey(key('ArrowDown'), at(3, 2)), { kind: 'move', r: 4, c: 2, extend: false });
    assert.deepEqual(gridKey(key('ArrowLeft', { shiftKey: true }), at(3, 2)), { kind: 'move', r: 3, c: 1, extend: true });
    assert.deepEqual(gridKey(key('PageDown'), at(3, 2)), { kind: 'move', r: 13, c: 2, extend: false });
    assert.deepEqual(gridKey(key('Home'), at(3, 2)), { kind: 'move', r: 3, c: 0, extend: false });
    assert.deepEqual(gridKey(key('End', { ctrlKey: true }), at(3, 2)), { kind: 'move', r: 99, c: 4, extend: false });
    assert.deepEqual(gridKey(key('Home', { metaKey: true, shiftKey: true }), at(3, 2)), { kind: 'move', r: 0, c: 0, extend: true }, 'Cmd is Ctrl on a Mac');
  });

  it('Tab and Shift+Tab move right and left, wrapping to the next or previous row, and leave the grid at its ends', () => {
    assert.deepEqual(gridKey(key('Tab'), at(3, 2)), { kind: 'move', r: 3, c: 3, extend: false });
    assert.deepEqual(gridKey(key('Tab'), at(3, 4)), { kind: 'move', r: 4, c: 0, extend: false });
    assert.deepEqual(gridKey(key('Tab', { shiftKey: true }), at(3, 0)), { kind: 'move', r: 2, c: 4, extend: false });
    assert.equal(gridKey(key('Tab'), at(99, 4)), undefined, 'the last cell: Tab leaves the grid');
    assert.equal(gridKey(key('Tab', { shiftKey: true }), at(0, 0)), undefined, 'the first cell: Shift+Tab leaves the grid');
  });

  it('Enter and F2 open the editor, Backspace opens it empty, Delete clears the selection; not with Ctrl or Alt', () => {
    assert.deepEqual(gridKey(key('Enter'), at(1, 1)), { kind: 'edit', empty: false });
    assert.deepEqual(gridKey(key('F2'), at(1, 1)), { kind: 'edit', empty: false });
    assert.deepEqual(gridKey(key('Backspace'), at(1, 1)), { kind: 'edit', empty: true });
    assert.deepEqual(gridKey(key('Delete'), at(1, 1)), { kind: 'clear' });
    for (const k of ['Enter', 'F2', 'Backspace', 'Delete']) {
      assert.equal(gridKey(key(k, { ctrlKey: true }), at(1, 1)), undefined, `Ctrl+${k}`);
      assert.equal(gridKey(key(k, { altKey: true }), at(1, 1)), undefined, `Alt+${k}`);
    }
  });

  it('Escape collapses the selection, then goes back to the filter; Ctrl+A selects all, Ctrl+C copies (Caps Lock too); a letter alone is typing', () => {
    assert.deepEqual(gridKey(key('Escape'), at(5, 3, { anchor: { r: 1, c: 1 } })), { kind: 'collapse' });
    assert.deepEqual(gridKey(key('Escape'), at(5, 3)), { kind: 'toFilter' });
    assert.deepEqual(gridKey(key('a', { ctrlKey: true }), at(5, 3)), { kind: 'selectAll' });
    assert.deepEqual(gridKey(key('C', { ctrlKey: true }), at(5, 3)), { kind: 'copy' });
    assert.equal(gridKey(key('a'), at(5, 3)), undefined);
    assert.equal(gridKey(key('x', { ctrlKey: true }), at(5, 3)), undefined);
  });

  it('the selection is the rectangle from the anchor to the focus, either way round; a move stays inside the table; copied cells are the rows received', () => {
    const b = selectionBox({ r: 4, c: 3 }, { r: 1, c: 1 });
    assert.deepEqual(b, { r0: 1, r1: 4, c0: 1, c1: 3 });
    assert.ok(inBox(b, 2, 2) && !inBox(b, 0, 2) && !inBox(b, 2, 4));
    assert.deepEqual(clampCell(-3, 9, 100, 5), { r: 0, c: 4 });
    const rows = [{ cells: ['a', 'b', 'c'] }, undefined, { cells: ['d', 'e\tf', 'g'] }];
    const cells = boxCells(rows, selectionBox({ r: 0, c: 1 }, { r: 2, c: 2 }));
    assert.deepEqual(
      cells,
      [
        ['b', 'c'],
        ['e\tf', 'g'],
      ],
      'a row not received yet is left out',
    );
    assert.equal(toTsv(cells), 'b\tc\r\n"e\tf"\tg');
  });
});

describe('table page: what a cell and the status line show', () => {
  const columns: ColumnInfo[] = [
    { key: 'Name', label: 'Name', type: 'text', width: 200 },
    { key: 'LeaderId', label: 'Leader', type: 'user', width: 100 },
    { key: 'Description', label: 'Description', type: 'text', width: 100 },
  ];
  const strings = { editedBefore: 'Edited. Before: {0}', empty: '(empty)' };
  const row: PageRow = {
    id: '7',
    level: 3,
    container: true,
    cells: ['設計', '鈴木', 'a long description text'],
    titles: { LeaderId: '鈴木 (2101)' },
    edited: { Description: '' },
  };

  it("a tree's Name cell is indented by its level with a folder mark; users by name with the ID on hover; a long text in full on hover", () => {
    assert.deepEqual(cellShown(row, columns, 0, true, strings), { text: '▾ 設計', edited: false, indent: 6 + 2 * 14 });
    assert.deepEqual(cellShown({ ...row, container: false }, columns, 0, true, strings).text, '  設計');
    assert.deepEqual(cellShown(row, columns, 0, false, strings), { text: '設計', edited: false }, 'not a tree: as it is');
    assert.deepEqual(cellShown(row, columns, 1, true, strings), { text: '鈴木', title: '鈴木 (2101)', edited: false });
  });

  it('an edited cell says its value before (the empty mark for an empty one), and keeps the user hover under it', () => {
    assert.deepEqual(cellShown(row, columns, 2, false, strings), { text: 'a long description text', title: 'Edited. Before: (empty)', edited: true });
    const leader = cellShown({ ...row, edited: { LeaderId: '田中' } }, columns, 1, false, strings);
    assert.equal(leader.title, 'Edited. Before: 田中\n鈴木 (2101)');
  });

  it("the status line counts the rows in the page's language, of those loaded when a filter hides some, and says when rows are still read", () => {
    const s = { rows: '{0} items', rowsOne: '{0} item', loading: 'Reading work items…', noRows: 'No work items to show.' } as TableStrings;
    assert.equal(statusText(s, { total: 1, loaded: 1, loading: false }, 'en'), '1 item');
    assert.equal(statusText(s, { total: 1200, loaded: 5000, loading: false }, 'en'), '1,200 items / 5,000');
    assert.equal(statusText(s, { total: 40, loaded: 40, loading: true }, 'en'), 'Reading work items… 40 items');
    assert.equal(statusText(s, { total: 0, loaded: 0, loading: false }, 'en'), 'No work items to show.');
  });

  it('a header shows the sort of its column', () => {
    assert.deepEqual(headerLabel(columns[0]!, { key: 'Name', direction: 'asc' }), { text: 'Name ▲', ariaSort: 'ascending' });
    assert.deepEqual(headerLabel(columns[0]!, { key: 'Name', direction: 'desc' }), { text: 'Name ▼', ariaSort: 'descending' });
    assert.deepEqual(headerLabel(columns[1]!, { key: 'Name', direction: 'asc' }), { text: 'Leader', ariaSort: 'none' });
  });

  it('what the page posts is what the extension reads (one envelope, typed on both sides)', () => {
    const posted: FromWebview[] = [
      { type: 'ready' },
      { type: 'paste', id: '7', key: 'Description', text: '', rows: 2, columns: 1 },
      { type: 'fill', generation: 3, firstRow: 0, lastRow: 4, keys: ['Name'] },
      { type: 'copy', text: 'a\tb', cells: 2 },
      { type: 'selection', focus: { id: '7', key: 'Name' }, anchor: { id: '8', key: 'LeaderId' } },
      { type: 'command', name: 'review' },
    ];
    for (const m of posted) assert.deepEqual(readMessage(structuredClone(m)), m, m.type);
  });
});
