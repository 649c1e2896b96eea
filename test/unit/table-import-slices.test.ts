// The sliced import gives exactly importTable's result, yields to the event loop
// between slices (a timer set before it runs while it works), reports its progress and
// rejects with a recognisable cancel error when its signal aborts.
import * as assert from 'node:assert/strict';
import { ImportCancelledError, exportTable, importTable, importTableInSlices, type TableRow } from '../../src/table/model';
import { CATALOGUE, COLUMNS, ROWS, resolveUser, userName } from './table-fixtures';

/** 20,000 rows of the fixture table, some cells edited, one row with an unclosed quote near the end. */
function bigCase(): { text: string; rows: Map<string, TableRow> } {
  const rows = new Map<string, TableRow>();
  for (let i = 0; i < 20_000; i++) {
    const base = ROWS[i % ROWS.length]!;
    const id = String(10_000 + i);
    rows.set(id, { id, fields: { ...base.fields, Id: id } });
  }
  const lines = exportTable([...rows.values()], COLUMNS, { format: 'csv', userName }).split('\r\n');
  for (let i = 1; i < lines.length - 1; i += 7) lines[i] = lines[i]!.replace(/^(\d+),([^,]*),/, '$1,$2 (改),');
  lines[19_990] = lines[19_990]!.replace(/^(\d+),/, '$1,"'); // closes inside the next line's quoted cell: 2 rows refused
  return { text: lines.join('\r\n'), rows };
}

describe('table import in slices', () => {
  const { text, rows } = bigCase();
  const options = { columns: COLUMNS, rows, catalogue: CATALOGUE, resolveUser, userName };

  it('gives exactly the result of importTable', async () => {
    const whole = importTable(text, options);
    assert.ok(whole.changes.length > 2000 && whole.badRecordCount === 2, `${whole.changes.length} changes, ${whole.badRecordCount} refused`);
    const sliced = await importTableInSlices(text, options, { sliceMs: 1 });
    assert.deepEqual(sliced, whole);
  });

  it('yields between slices: timers run while it reads, and progress rises to the total', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    const progress: number[] = [];
    let total = 0;
    try {
      await importTableInSlices(text, options, { sliceMs: 2, onProgress: (done, t) => (progress.push(done), (total = t)) });
    } finally {
      clearInterval(timer);
    }
    assert.ok(ticks >= 3, `${ticks} timer ticks during the import`);
    assert.ok(progress.length >= 3);
    assert.deepEqual([...progress].sort((a, b) => a - b), progress, 'progress only rises');
    assert.equal(progress.at(-1), total);
    assert.equal(total, text.length);
  });

  it('rejects with ImportCancelledError (code "cancelled") when the signal aborts, and before starting when it already has', async () => {
    const ac = new AbortController();
    let slices = 0;
    const p = importTableInSlices(text, options, { signal: ac.signal, sliceMs: 1, onProgress: () => ++slices === 2 && ac.abort() });
    await assert.rejects(p, (e: unknown) => e instanceof ImportCancelledError && e.code === 'cancelled' && e.name === 'ImportCancelledError');
    assert.equal(slices, 2);
    await assert.rejects(importTableInSlices(text, options, { signal: AbortSignal.abort() }), ImportCancelledError);
  });
});
