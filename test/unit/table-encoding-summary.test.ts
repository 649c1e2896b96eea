import * as assert from 'node:assert/strict';
import { importTable, refusalReasons } from '../../src/table/model';
import { CATALOGUE, COLUMNS, ROWS_BY_ID, resolveUser, userName } from './table-fixtures';

const importCtx = { columns: COLUMNS, rows: ROWS_BY_ID, catalogue: CATALOGUE, resolveUser, userName };

describe('table import summary: refused rows grouped by reason', () => {
  it('counts each refused row once per reason, most frequent first', () => {
    const text = 'ID,名称,予定工数 (時間)\n101,a,1\n999,b,1\n998,c,1\n102,d,not hours\n,e,1\n103,f,x\n';
    const r = importTable(text, importCtx);
    assert.equal(r.badRecordCount, 5);
    assert.deepEqual(refusalReasons(r), [
      { code: 'unknownId', rows: 2 },
      { code: 'cell', rows: 2 },
      { code: 'emptyId', rows: 1 },
    ]);
  });

  it('counts rows refused by a header problem (no ID column) under that problem', () => {
    const r = importTable('名称\na\nb\n', importCtx);
    assert.deepEqual(refusalReasons(r), [{ code: 'noIdColumn', rows: 2 }]);
  });

  it('has no reasons when every row applied', () => {
    assert.deepEqual(refusalReasons(importTable('ID,名称\n101,new\n', importCtx)), []);
  });

  it('groups an ID written on two lines and a line with more cells than the header', () => {
    const r = importTable('ID,名称\n101,a\n101,b\n102,c,extra\n', importCtx);
    assert.deepEqual(refusalReasons(r), [
      { code: 'duplicateId', rows: 2 },
      { code: 'extraCells', rows: 1 },
    ]);
  });
});
