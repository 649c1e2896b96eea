import * as assert from 'node:assert/strict';
import { TableEdits, checkCellValue, sameValue, editCellText, fillDown, parseCellInput, pasteText, readOnlyReason } from '../../src/table/model';
import { CATALOGUE, ROWS, col, resolveUser } from './table-fixtures';

const ctx = { catalogue: CATALOGUE, resolveUser };

describe('table model: cell edits', () => {
  it('refuses read-only system fields and says what to use instead', () => {
    for (const key of ['Id', 'ProjectName', 'FolderName', 'ParentName', 'ParentId']) {
      const c = { key, label: key, type: 'text' as const };
      assert.ok(readOnlyReason(c), key);
    }
    assert.match(readOnlyReason({ key: 'ParentId', label: 'Parent ID', type: 'text' })!, /moveParentTo/);
    assert.match(readOnlyReason(col('ItemTypeId'))!, /changeItemTypeTo/);
    assert.match(readOnlyReason(col('Custom_Locked'), ctx)!, /read only/);
    assert.equal(readOnlyReason(col('Name'), ctx), undefined);
    const r = editCellText(ROWS[0]!, col('ParentName'), '別の親', ROWS[0]!.fields, ctx);
    assert.ok(!r.ok && r.problem.code === 'readOnly' && /moveParentTo/.test(r.problem.message));
  });

  it('reads typed text for the column type: full-width digits, hours to minutes, dates, names to IDs', () => {
    assert.deepEqual(parseCellInput(col('ActualProgress'), '８０', ctx), { ok: true, value: 80 });
    assert.deepEqual(parseCellInput(col('PlannedTime'), '７．５', ctx), { ok: true, value: 450 });
    assert.deepEqual(parseCellInput(col('PlannedStartDate'), '２０２６/３/１', ctx), { ok: true, value: '2026-03-01' });
    assert.deepEqual(parseCellInput(col('StatusTypeId'), '完了', ctx), { ok: true, value: '53' });
    assert.deepEqual(parseCellInput(col('Custom_Priority'), 'LOW', ctx), { ok: true, value: '3' });
    assert.deepEqual(parseCellInput(col('LeaderId'), 'tanaka', ctx), { ok: true, value: '2102' });
    assert.deepEqual(parseCellInput(col('LeaderId'), '', ctx), { ok: true, value: null });
    const bad = parseCellInput(col('StatusTypeId'), '終わり', ctx);
    assert.ok(!bad.ok && /not one of 未着手, 進行中, 完了, 保留/.test(bad.problem.message));
    const date = parseCellInput(col('PlannedFinishDate'), '2026-02-30', ctx);
    assert.ok(!date.ok && date.problem.code === 'type');
    assert.deepEqual(parseCellInput(col('Custom_Flag'), 'はい', ctx), { ok: true, value: true });
    assert.deepEqual(parseCellInput(col('Custom_Flag'), 'FALSE', ctx), { ok: true, value: false });
    assert.equal(parseCellInput(col('Custom_Flag'), 'maybe', ctx).ok, false);
    assert.equal(checkCellValue(col('Custom_Flag'), true, {}, ctx), undefined);
    assert.ok(checkCellValue(col('Custom_Flag'), 'true', {}, ctx), 'a text is not a Boolean value of the catalogue');
    const ambiguous = parseCellInput(col('LeaderId'), '郎', ctx);
    assert.ok(!ambiguous.ok && /2 users match/.test(ambiguous.problem.message));
  });

  it('applies the request-document checks: ranges of the catalogue, name not empty, finish not before start', () => {
    assert.match(checkCellValue(col('ActualProgress'), 120, {}, ctx)!.message, /Progress/);
    assert.match(checkCellValue(col('Custom_Points'), 101, {}, ctx)!.message, /between 0 and 100/);
    assert.match(checkCellValue(col('Custom_Points'), 1.5, {}, ctx)!.message, /whole number/);
    assert.match(checkCellValue(col('Custom_Note'), 'x'.repeat(21), {}, ctx)!.message, /Custom_Note/);
    assert.ok(checkCellValue(col('Name'), '', {}, ctx));
    assert.equal(checkCellValue(col('Name'), '新しい名前', {}, ctx), undefined);
    const end = checkCellValue(col('PlannedFinishDate'), '2026-01-31', ROWS[0]!.fields, ctx);
    assert.ok(end && /earlier than the start/.test(end.message), end?.message);
    assert.equal(checkCellValue(col('PlannedFinishDate'), '2026-02-01', ROWS[0]!.fields, ctx), undefined);
  });
});

describe('table model: edit set, undo and redo', () => {
  it('keeps the value read as "before", drops an edit back to it, and undoes and redoes steps', () => {
    const edits = new TableEdits(ROWS);
    assert.equal(edits.apply([{ id: '101', field: 'PlannedTime', value: 480 }, { id: '102', field: 'PlannedTime', value: 480 }]), 2);
    assert.deepEqual(edits.get('101', 'PlannedTime'), { id: '101', field: 'PlannedTime', value: 480, before: 450 });
    assert.equal(edits.fieldsOf(ROWS[0]!).PlannedTime, 480);
    assert.equal(ROWS[0]!.fields.PlannedTime, 450, 'rows are not changed');
    edits.apply([{ id: '101', field: 'PlannedTime', value: 500 }]);
    edits.apply([{ id: '101', field: 'PlannedTime', value: 450 }]);
    assert.equal(edits.isEdited('101', 'PlannedTime'), false, 'back to the value read: no edit');
    assert.equal(edits.size, 1);
    assert.deepEqual(edits.undo(), [{ id: '101', field: 'PlannedTime' }]);
    assert.equal(edits.get('101', 'PlannedTime')!.value, 500);
    edits.undo();
    assert.equal(edits.get('101', 'PlannedTime')!.value, 480);
    edits.undo();
    assert.equal(edits.size, 0);
    assert.equal(edits.canUndo, false);
    assert.deepEqual(edits.undo(), []);
    edits.redo();
    assert.equal(edits.size, 2);
    edits.apply([{ id: '103', field: 'Name', value: 'x' }]);
    assert.equal(edits.canRedo, false, 'a new step drops the redo steps');
    assert.equal(edits.apply([{ id: '999', field: 'Name', value: 'x' }]), 0, 'an unknown item is not edited');
    assert.equal(edits.apply([{ id: '101', field: 'PlannedStartDate', value: '2026-02-01' }]), 0, 'the same date as read (with a time part) is no edit');
    edits.clear();
    assert.equal(edits.size, 0);
    edits.undo();
    assert.equal(edits.size, 3);
  });

  it('fills down the first selected value, refusing cells that cannot take it', () => {
    const edits = new TableEdits(ROWS);
    const cols = [col('StatusTypeId'), col('ParentName')];
    const r = fillDown(edits, ROWS, cols, { firstRow: 0, lastRow: 2, columnIndexes: [0, 1] }, ctx);
    assert.deepEqual(r.changes, [{ id: '102', field: 'StatusTypeId', value: '52' }, { id: '103', field: 'StatusTypeId', value: '52' }]);
    assert.deepEqual(r.rejected.map((x) => [x.rowIndex, x.columnIndex, x.problem.code]), [[1, 1, 'readOnly'], [2, 1, 'readOnly']]);
    edits.apply(r.changes);
    assert.equal(edits.size, 2);
  });

  it('fills down a date read with a time part as yyyy-MM-dd', () => {
    const edits = new TableEdits(ROWS);
    const r = fillDown(edits, ROWS, [col('PlannedStartDate')], { firstRow: 0, lastRow: 1, columnIndexes: [0] }, ctx);
    assert.deepEqual(r.rejected, []);
    assert.deepEqual(r.changes, [{ id: '102', field: 'PlannedStartDate', value: '2026-02-01' }]);
  });

  it('a text that starts like a date is compared as text, not as a date', () => {
    assert.equal(sameValue('2026-02-01 meeting', '2026-02-01 review'), false);
    assert.equal(sameValue('2026-02-01', '2026-02-01T00:00:00'), true);
    const edits = new TableEdits([{ id: '1', fields: { Name: '2026-02-01 meeting' } }]);
    assert.equal(edits.apply([{ id: '1', field: 'Name', value: '2026-02-01 review' }]), 1);
  });

  it('pastes a TSV rectangle from a spreadsheet: quoted cells with new lines, Japanese text, full-width digits', () => {
    const edits = new TableEdits(ROWS);
    const cols = [col('Name'), col('PlannedTime'), col('ActualProgress'), col('StatusTypeId')];
    const tsv = '"設計\n(改訂)"\t８\t５０\t完了\r\nテスト計画\t1:15\t１００\t進行中\r\n';
    const r = pasteText(edits, tsv, ROWS, cols, { rowIndex: 1, columnIndex: 0 }, ctx);
    assert.deepEqual(r.rejected, []);
    assert.deepEqual(r.changes, [
      { id: '102', field: 'Name', value: '設計\n(改訂)' },
      { id: '102', field: 'PlannedTime', value: 480 },
      { id: '102', field: 'ActualProgress', value: 50 },
      { id: '102', field: 'StatusTypeId', value: '53' },
      { id: '103', field: 'Name', value: 'テスト計画' },
      { id: '103', field: 'PlannedTime', value: 75 },
      { id: '103', field: 'ActualProgress', value: 100 },
      { id: '103', field: 'StatusTypeId', value: '52' },
    ]);
  });

  it('pastes cells that do not fit or are wrong as rejections naming the cell, and one value over a selection', () => {
    const edits = new TableEdits(ROWS);
    const cols = [col('PlannedTime'), col('ActualProgress')];
    const r = pasteText(edits, '1\tabc\textra\n2\t200', ROWS, cols, { rowIndex: 4, columnIndex: 0 }, ctx);
    assert.deepEqual(r.changes, [{ id: '105', field: 'PlannedTime', value: 60 }]);
    assert.deepEqual(r.rejected.map((x) => [x.rowIndex, x.columnIndex, x.problem.code]), [[4, 1, 'type'], [4, 2, 'check'], [5, 0, 'check'], [5, 1, 'check']]);
    const fill = pasteText(edits, '３\n', ROWS, cols, { rowIndex: 0, columnIndex: 0, rowCount: 3, columnCount: 1 }, ctx);
    assert.deepEqual(fill.changes.map((c) => [c.id, c.value]), [['101', 180], ['102', 180], ['103', 180]]);
  });

  it('checks pasted start and finish of a row together, not against the old finish', () => {
    const edits = new TableEdits(ROWS);
    const cols = [col('PlannedStartDate'), col('PlannedFinishDate')];
    const r = pasteText(edits, '2026-04-01\t2026-04-10', ROWS, cols, { rowIndex: 0, columnIndex: 0 }, ctx);
    assert.deepEqual(r.rejected, []);
    const bad = pasteText(edits, '2026-04-10\t2026-04-01', ROWS, cols, { rowIndex: 0, columnIndex: 0 }, ctx);
    assert.ok(bad.rejected.some((x) => /earlier than the start/.test(x.problem.message)));
  });
});
