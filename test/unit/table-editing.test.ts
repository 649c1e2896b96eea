// The table's edits as the webview shows them (src/table/model/editView.ts) and the
// editing messages of the protocol (src/table/protocol.ts), in plain Node.
import * as assert from 'node:assert/strict';
import { buildColumns, pickColumns } from '../../src/table/model/columns';
import { TableEdits, fillDown, pasteText } from '../../src/table/model/edits';
import { cellEditorFor, indexById, mergeReread, rowsWithEdits, shownEditedRow } from '../../src/table/model/editView';
import type { LoadedRow } from '../../src/table/model/load';
import { checkCellValue, parseCellInput } from '../../src/table/model/cells';
import { importTable } from '../../src/table/model/csv';
import * as V from '../../src/table/web/virtual';

const cols = pickColumns(buildColumns([], { statusTypes: [{ id: '51', name: '未着手' }, { id: '52', name: '進行中' }] }), [
  'Name', 'StatusTypeId', 'LeaderId', 'PlannedStartDate', 'PlannedFinishDate', 'PlannedTime', 'ActualProgress',
]);
const col = (k: string) => cols.find((c) => c.key === k)!;
const rows: LoadedRow[] = [
  { id: '101', level: 1, fields: { Name: 'A', StatusTypeId: '51', LeaderId: '2101', PlannedStartDate: '2026-03-02T00:00:00', PlannedFinishDate: '2026-03-06', PlannedTime: 480, ActualProgress: 0 } },
  { id: '102', level: 1, fields: { Name: 'B', StatusTypeId: '51', LeaderId: null, PlannedStartDate: '2026-03-09', PlannedFinishDate: '2026-03-13', PlannedTime: 60, ActualProgress: 50 } },
  { id: '103', level: 1, fields: { Name: 'C', StatusTypeId: '52', LeaderId: '2102', PlannedStartDate: null, PlannedFinishDate: null, PlannedTime: null, ActualProgress: 100 } },
];
const users = [{ id: '2101', name: '鈴木 一郎', loginName: 'suzuki' }, { id: '2102', name: 'Ada Lovelace', loginName: 'ada' }];
const userName = (id: string) => users.find((u) => u.id === id)?.name;

describe('table: edits as the webview shows them', () => {
  it('applies pending edits to the rows the view filters and sorts, leaving unedited rows the same objects', () => {
    const edits = new TableEdits(rows);
    assert.equal(rowsWithEdits(rows, edits), rows, 'no edit: the same array');
    edits.apply([{ id: '102', field: 'StatusTypeId', value: '52' }]);
    const out = rowsWithEdits(rows, edits);
    assert.equal(out[0], rows[0]);
    assert.notEqual(out[1], rows[1]);
    assert.equal(out[1]!.fields['StatusTypeId'], '52');
    assert.equal(rows[1]!.fields['StatusTypeId'], '51', 'the rows as read are not changed');
  });

  it('marks edited cells with the value before as shown (names, hours), and drops the mark when the edit is undone', () => {
    const edits = new TableEdits(rows);
    edits.apply([{ id: '101', field: 'LeaderId', value: '2102' }, { id: '101', field: 'PlannedTime', value: 450 }]);
    const shown = shownEditedRow(rows[0]!, cols, edits, { userName });
    assert.equal(shown.cells[cols.indexOf(col('LeaderId'))], 'Ada Lovelace');
    assert.equal(shown.cells[cols.indexOf(col('PlannedTime'))], '7:30');
    assert.deepEqual(shown.edited, { LeaderId: '鈴木 一郎', PlannedTime: '8:00' });
    edits.undo();
    assert.equal(shownEditedRow(rows[0]!, cols, edits, { userName }).edited, undefined);
  });

  it('a paste of a TSV block from Excel (names, full-width digits) and a fill down become one undo step each, with refusals', () => {
    const edits = new TableEdits(rows);
    const ci = cols.indexOf(col('StatusTypeId'));
    const r = pasteText(edits, '進行中\t鈴木 一郎\n未着手\tada\r\n', rows, cols, { rowIndex: 1, columnIndex: ci }, { resolveUser: (t) => users.filter((u) => u.loginName === t || u.name === t).map((u) => u.id) });
    assert.deepEqual(r.rejected, []);
    assert.equal(edits.apply(r.changes), 3, "102's status and leader, 103's status (its leader is ada already: no edit)");
    const hours = pasteText(edits, '１２．５', rows, cols, { rowIndex: 1, columnIndex: cols.indexOf(col('PlannedTime')) });
    assert.deepEqual(hours.changes, [{ id: '102', field: 'PlannedTime', value: 750 }], 'full-width 12.5 hours → 750 minutes');
    const f = fillDown(edits, rows, cols, { firstRow: 0, lastRow: 2, columnIndexes: [cols.indexOf(col('PlannedTime'))] });
    assert.equal(f.changes.length, 2);
    edits.apply(f.changes);
    assert.equal(edits.fieldsOf(rows[2]!)['PlannedTime'], 480);
    edits.undo();
    assert.equal(edits.fieldsOf(rows[2]!)['PlannedTime'], null);
    const bad = pasteText(edits, '2026-03-20', rows, cols, { rowIndex: 0, columnIndex: cols.indexOf(col('PlannedFinishDate')) - 1 });
    assert.equal(bad.changes.length, 0, 'a start after the finish is refused');
    assert.equal(bad.rejected[0]!.problem.code, 'check');
    assert.ok(bad.rejected[0]!.problem.issue, 'the request-document issue comes with the problem (localized by its code)');
  });

  it('a checked cell carries the issue of the request-document checks', () => {
    const p = checkCellValue(col('ActualProgress'), 150, {});
    assert.equal(p?.code, 'check');
    assert.ok(p?.issue?.code);
  });

  it('gives each column type its editor: date picker, number, list of statuses, users by name, hours as text', () => {
    const f = rows[0]!.fields;
    assert.deepEqual(cellEditorFor(col('PlannedStartDate'), f), { kind: 'date', value: '2026-03-02' });
    assert.deepEqual(cellEditorFor(col('ActualProgress'), f), { kind: 'number', value: '0' });
    assert.deepEqual(cellEditorFor(col('PlannedTime'), f), { kind: 'text', value: '8:00' });
    const status = cellEditorFor(col('StatusTypeId'), f);
    assert.equal(status.kind, 'choice');
    assert.equal(status.value, '51');
    assert.deepEqual(status.choices, [{ value: '51', label: '未着手' }, { value: '52', label: '進行中' }]);
    const leader = cellEditorFor(col('LeaderId'), f, users, { userName });
    assert.equal(leader.kind, 'choice');
    assert.equal(leader.allowEmpty, true);
    assert.deepEqual(leader.choices!.map((c) => c.label), ['Ada Lovelace', '鈴木 一郎']);
    assert.equal(cellEditorFor(col('LeaderId'), f).kind, 'text', 'no known users: the ID as text');
    assert.deepEqual(cellEditorFor(col('Name'), f), { kind: 'text', value: 'A' });
    assert.deepEqual([...indexById(rows)], [['101', 0], ['102', 1], ['103', 2]]);
  });
});

describe('table: items read again after a send', () => {
  it('keep their level and path columns, take the fields read now, and drop the edits the service now holds', () => {
    const mine: LoadedRow[] = rows.map((r) => ({ ...r, fields: { ...r.fields, ParentName: 'Web / 設計' } }));
    const edits = new TableEdits(mine);
    edits.apply([{ id: '101', field: 'Name', value: 'A2' }, { id: '102', field: 'Name', value: 'B2' }]);
    const merged = mergeReread(mine, [{ id: '101', fields: { Id: '101', Name: 'A2' } }, { id: '999', fields: { Name: 'not in the table' } }]);
    assert.equal(merged.length, 1);
    assert.deepEqual([mine[0]!.level, mine[0]!.fields['ParentName'], mine[0]!.fields['Name']], [1, 'Web / 設計', 'A2']);
    edits.setRows(merged);
    assert.deepEqual(edits.all().map((e) => `${e.id}.${e.field}`), ['102.Name'], 'the edit the service now holds is dropped, the other stays');
  });
});

describe('table: import problems carry their field and cell problem (worded by the UI)', () => {
  it('a wrong type, a read-only change and a failed check name the field, the code and the text', () => {
    const all = buildColumns([], {});
    const text = 'ID,Planned time (h),Parent,Progress\n101,abc,,0%\n102,1:00,Elsewhere,50%\n103,,,150\n';
    const r = importTable(text, { columns: all, rows: new Map(rows.map((x) => [x.id, x])) });
    const byLine = new Map(r.problems.map((p) => [p.line, p]));
    assert.deepEqual(r.problems.map((p) => p.line), [2, 3, 4], JSON.stringify(r.problems));
    assert.deepEqual([byLine.get(2)?.field, byLine.get(2)?.problem?.code, byLine.get(2)?.text], ['PlannedTime', 'type', 'abc']);
    assert.deepEqual([byLine.get(3)?.field, byLine.get(3)?.problem?.code], ['ParentName', 'readOnly']);
    assert.deepEqual([byLine.get(4)?.field, byLine.get(4)?.problem?.code], ['ActualProgress', 'check']);
    assert.ok(byLine.get(4)?.problem?.issue, 'the request-document issue for its code and params');
    assert.equal(r.changes.length, 0);
  });
});

describe('table: editing messages from the webview', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { readMessage } = require('../../src/table/protocol') as typeof import('../../src/table/protocol');
  it('accepts commit, paste, fill, undo, redo and the new bar commands; refuses malformed ones', () => {
    assert.ok(readMessage({ type: 'commit', id: '1', key: 'Name', text: '' }));
    assert.equal(readMessage({ type: 'commit', id: '1', key: 'Name' }), undefined);
    assert.ok(readMessage({ type: 'paste', id: '1', key: 'Name', text: 'a\tb', rows: 2, columns: 1 }));
    assert.equal(readMessage({ type: 'paste', id: '1', key: 'Name', text: 'a', rows: 0 }), undefined);
    assert.equal(readMessage({ type: 'paste', id: '1', key: 'Name', text: 'a', columns: 1.5 }), undefined);
    assert.ok(readMessage({ type: 'fill', generation: 3, firstRow: 0, lastRow: 4, keys: ['Name'] }));
    assert.equal(readMessage({ type: 'fill', generation: 3, firstRow: -1, lastRow: 4, keys: ['Name'] }), undefined);
    assert.equal(readMessage({ type: 'fill', generation: 3, firstRow: 0, lastRow: 4, keys: [1] }), undefined);
    assert.ok(readMessage({ type: 'undo' }));
    assert.ok(readMessage({ type: 'redo' }));
    assert.equal(readMessage({ type: 'activate', key: 'Name' }), undefined, 'activate needs the row ID');
    for (const name of ['review', 'export', 'import']) assert.ok(readMessage({ type: 'command', name }));
    assert.equal(readMessage({ type: 'command', name: 'send' }), undefined);
  });
});

describe('table: the cell editor as in a spreadsheet (the page\'s rules, src/table/web/virtual.ts)', () => {

  it('takes a date typed in the date editor as the table shows it or as a paste accepts it (2026/5/25, full-width digits), and refuses a day that does not exist with the column and the text', () => {
    const finish = col('PlannedFinishDate');
    for (const typed of ['2026-05-25', '2026/5/25', '２０２６／５／２５', '２０２６－０５－２５', ' 2026-5-25 ']) {
      assert.deepEqual(parseCellInput(finish, typed), { ok: true, value: '2026-05-25' }, typed);
    }
    const bad = parseCellInput(finish, '2026-13-45');
    assert.equal(bad.ok, false);
    assert.match(!bad.ok ? bad.problem.message : '', /2026-13-45/);
    assert.deepEqual(parseCellInput(finish, ''), { ok: true, value: null }, 'an empty date clears the field');
  });

  it('takes a number typed as text in the number editor: a percent sign and full-width digits (a number box would have dropped them as empty)', () => {
    assert.deepEqual(parseCellInput(col('ActualProgress'), '５０'), { ok: true, value: 50 });
    assert.equal(parseCellInput(col('ActualProgress'), 'abc').ok, false);
  });

  it('Delete asks to clear the selected cells as a paste of an empty text: a field the service cannot leave empty is refused, by cell, with the reason, and nothing is applied', () => {
    const edits = new TableEdits(rows);
    const ci = cols.indexOf(col('PlannedTime'));
    const r = pasteText(edits, '', rows, cols, { rowIndex: 0, columnIndex: ci, rowCount: 2, columnCount: 2 });
    assert.deepEqual(r.changes, []);
    assert.deepEqual(r.rejected.map((x) => [x.id, x.field]), [['101', 'PlannedTime'], ['101', 'ActualProgress'], ['102', 'PlannedTime'], ['102', 'ActualProgress']]);
    assert.match(r.rejected[0]!.problem.message, /^Planned time \(h\): .*not null/);
    const readMessage = (require('../../src/table/protocol') as typeof import('../../src/table/protocol')).readMessage;
    assert.ok(readMessage({ type: 'paste', id: '101', key: 'PlannedTime', text: '', rows: 2, columns: 2 }), 'the message of Delete is accepted');
  });

  it('picks the singular template for one in English and the one form in Japanese', () => {
    const forms = { one: '{0} edited cell', other: '{0} edited cells' };
    assert.equal(V.pluralOf(1, forms, 'en'), '{0} edited cell');
    assert.equal(V.pluralOf(2, forms, 'en'), '{0} edited cells');
    assert.equal(V.pluralOf(0, forms, 'en'), '{0} edited cells');
    assert.equal(V.pluralOf(1, { one: '{0} 件', other: '{0} 件' }, 'ja'), '{0} 件');
    assert.equal(V.pluralOf(1, { other: '{0} items' }, 'en'), '{0} items', 'without a singular: the plural');
    assert.equal(V.pluralOf(1, forms, 'not a tag!'), '{0} edited cell', 'an unknown language: English\'s rule');
  });

  it('keeps the bar\'s actions in their order while they fit in one row beside the filter\'s width; the rest go to the menu', () => {
    // 900 px: fixed items 400, the filter's placeholder 480: no action fits.
    assert.equal(V.itemsInBar(884, 400, 480, [110, 115, 90], 6), 0);
    // 1400 px: three fit, the fourth (150) does not, and neither does the smaller fifth after it (a stable menu).
    assert.equal(V.itemsInBar(1380, 400, 480, [120, 120, 90, 150, 60], 6), 3);
    assert.equal(V.itemsInBar(3000, 400, 480, [120, 120, 90, 150, 60], 6), 5);
  });

  it('picks the choice a text typed on a list cell names: exact, then the start of a name, then a part, folding width and case', () => {
    const choices = [{ value: '51', label: '未着手' }, { value: '52', label: '進行中' }, { value: '53', label: 'Done' }, { value: '54', label: 'テスト中' }];
    assert.equal(V.choiceFor(choices, '進行中'), '52');
    assert.equal(V.choiceFor(choices, '未'), '51');
    assert.equal(V.choiceFor(choices, 'done'), '53');
    assert.equal(V.choiceFor(choices, 'ＤＯ'), '53', 'full-width letters');
    assert.equal(V.choiceFor(choices, 'ﾃｽﾄ'), '54', 'half-width katakana');
    assert.equal(V.choiceFor(choices, '行'), '52', 'a part of a name');
    assert.equal(V.choiceFor(choices, 'x'), undefined);
    assert.equal(V.choiceFor(choices, ''), undefined);
  });

  it('opens the calendar on the cell\'s date when the text is one in the table\'s form, else on today', () => {
    assert.equal(V.pickerValue('2026-05-25'), '2026-05-25');
    assert.equal(V.pickerValue('2026-5-3'), '2026-05-03');
    assert.equal(V.pickerValue('2026/5/3'), '');
    assert.equal(V.pickerValue(''), '');
  });
});
