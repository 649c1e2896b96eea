// The import tells unchanged cells and checks edits by shorter ways than formatting every
// value: shown texts, parsed cells and checks kept per column and value, assignees
// compared name by name, the rows found in the table's order. These tests hold each
// shorter way to the answer of the plain one.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { type ColumnDef, type ImportResult, type TableRow, exportTable, formatCell, importTable, toCellValue } from '../../src/table/model';
import { ImportColumn, importMemo, sameAssignees } from '../../src/table/model/import-cells';
import { dateOf } from '../../src/table/model/text';
import { CATALOGUE, COLUMNS, ROWS, col, resolveUser, userName } from './table-fixtures';

const BREAKS = /\r\n?/g;
/** The comparison the import made before: what the export writes for the cell value, line breaks of a text column aside. */
function plainUnchanged(c: ColumnDef, raw: unknown, text: string, names: (id: string) => string | undefined): boolean {
  if (typeof raw === 'string' && ((c.type === 'text' && raw === text) || (c.type === 'date' && text.length === 10 && raw.startsWith(text) && dateOf(text) !== undefined))) return true;
  const shown = formatCell(toCellValue(raw, c), c, { userName: names });
  return shown === text || (c.type === 'text' && shown.replace(BREAKS, '\n') === text.replace(BREAKS, '\n') && (shown.includes('\r') || text.includes('\r')));
}

// Names with the separator in them, a name that is another's ID, a name that starts another.
const NAMES = new Map([['2101', '鈴木'], ['2102', 'Tanaka, Hana'], ['2103', '2101'], ['2104', '鈴木 一郎']]);
const names = (id: string): string | undefined => NAMES.get(id);
const ID = fc.constantFrom('2101', '2102', '2103', '2104', '9999', '0', '', 2101, 0, NaN);
const PARTY = fc.oneof(ID.map((partyId) => ({ partyId })), ID, fc.constantFrom(null, {}, { partyId: null }, ['2101']));
const ODD = [null, undefined, '', '0', 0, -0, 1, 1.5, 100, NaN, Infinity, true, false, {}, ['2101'], '2026-02-20', '2026-02-20T00:00:00', '2026-2-20', 'x', '\r\n', 'a\r\nb', 'a\nb', 450, -30, '1', '51', '2101'];

describe('table import: the shorter ways give the plain answer', () => {
  it('assignees compared name by name: the same as the text the export writes for them', () => {
    const c = col('Assignments');
    const texts = (raw: unknown): fc.Arbitrary<string> => {
      const shown = formatCell(toCellValue(raw, c), c, { userName: names });
      return fc.oneof(
        fc.constant(shown),
        fc.constantFrom('', ', ', '鈴木', '鈴木, Tanaka, Hana', '2101, 鈴木', '鈴木,Tanaka, Hana', '鈴木 一郎'),
        fc.constant(`${shown}, `),
        fc.constant(shown.slice(0, -1)),
        fc.constant(shown.replace(', ', ',')),
        fc.constant(` ${shown}`),
      );
    };
    const raw = fc.oneof(fc.array(PARTY, { maxLength: 4 }), fc.constantFrom(null, undefined, '2101', {}, 5));
    fc.assert(
      fc.property(raw.chain((r) => fc.tuple(fc.constant(r), texts(r))), ([r, text]) => {
        const want = formatCell(toCellValue(r, c), c, { userName: names }) === text;
        assert.equal(sameAssignees(r, text, names), want, JSON.stringify([r, text]));
        assert.equal(new ImportColumn(c, { userName: names }).unchanged(r, text), want);
      }),
      { numRuns: 3000 },
    );
  });

  it('every column tells unchanged cells as the plain comparison does, the first time and from what it kept', () => {
    for (const c of COLUMNS) {
      if (c.key === 'Id') continue;
      const column = new ImportColumn(c, { catalogue: CATALOGUE, resolveUser, userName: names });
      for (let round = 0; round < 2; round++) {
        for (const raw of [...ODD, ...ROWS.map((r) => r.fields[c.key])]) {
          const shown = formatCell(toCellValue(raw, c), c, { userName: names });
          for (const text of [shown, `${shown} `, '', String(raw), typeof raw === 'string' ? raw.replace(/\n/g, '\r\n') : 'x', '2026-02-20', '7:30', '50%', '高', '完了', '鈴木']) {
            assert.equal(column.unchanged(raw, text), plainUnchanged(c, raw, text, names), `${c.key}: ${JSON.stringify(raw)} as ${JSON.stringify(text)}`);
          }
        }
      }
    }
  });
});

/** Rows of the fixture table, `n` of them with new IDs. */
function manyRows(n: number): TableRow[] {
  return Array.from({ length: n }, (_, i) => {
    const base = ROWS[i % ROWS.length]!;
    const id = String(5000 + i);
    return { id, fields: { ...base.fields, Id: id } };
  });
}

let seed = 7;
const next = (): number => (seed = (seed * 48271) % 2147483647);

/** The file of `rows` (all columns) with up to two cells a line replaced at random by texts good and bad for their column. */
function editedFile(rows: readonly TableRow[]): string {
  const lines = exportTable(rows, COLUMNS, { format: 'csv', userName, allColumns: COLUMNS }).replace(/^\ufeff/, '').split('\r\n');
  const header = lines[0]!.split(',');
  const TEXTS = ['', '0', '12', '-5', '150', '50%', '7:30', '8h', 'x', '2026-02-30', '2026-03-01', '2026/2/1', '1999-01-01', '完了', 'done', '高', 'low', 'nope', 'suzuki', '田中 花子', 'nobody', '=1+1', "'=1+1", 'true', 'いいえ', 'a'.repeat(300), '999999999999', '１２'];
  for (let i = 1; i < lines.length; i++) {
    if (!lines[i] || lines[i]!.includes('"')) continue; // quoted cells stay as written
    const cells = lines[i]!.split(',');
    if (cells.length !== header.length) continue;
    for (let m = next() % 3; m > 0; m--) cells[1 + (next() % (cells.length - 1))] = TEXTS[next() % TEXTS.length]!;
    lines[i] = cells.join(',');
  }
  return lines.join('\r\n');
}

describe('table import: kept answers and the rows\' order change no result', () => {
  const rows = manyRows(600);
  const text = editedFile(rows);
  const options = (order: readonly TableRow[]) => ({ columns: COLUMNS, rows: new Map(order.map((r) => [r.id, r])), catalogue: CATALOGUE, resolveUser, userName });

  it('answers kept per column (shown texts, parsed cells, checks) give the result of working each out', () => {
    const kept = importTable(text, options(rows));
    assert.ok(kept.changes.length > 50 && kept.problems.length > 200, `${kept.changes.length} edits, ${kept.problems.length} problems`);
    const saved = importMemo.max;
    importMemo.max = 0;
    let plain: ImportResult;
    try {
      plain = importTable(text, options(rows));
    } finally {
      importMemo.max = saved;
    }
    assert.deepEqual(kept, plain);
    // A few kept: the first answers kept, the later ones worked out.
    importMemo.max = 3;
    try {
      assert.deepEqual(importTable(text, options(rows)), plain);
    } finally {
      importMemo.max = saved;
    }
  });

  it('rows given in another order than the file\'s, and IDs on several lines (in order and not), give the same result', () => {
    const lines = text.split('\r\n');
    // The line of item 5010 again after 5020, the one of 5030 again before 5000, an unknown ID twice.
    const dup = [...lines.slice(0, 1), lines[31]!, ...lines.slice(1, 22), lines[11]!, ...lines.slice(22), '9999,x', '9999,y', lines[5]!];
    const file = dup.join('\r\n');
    const inOrder = importTable(file, options(rows));
    assert.ok(inOrder.refusedByCode.duplicateId! >= 6 && inOrder.refusedByCode.unknownId === 2, JSON.stringify(inOrder.refusedByCode));
    const reversed = [...rows].reverse();
    const shuffled = [...rows].sort((a, b) => ((Number(a.id) * 7919) % 601) - ((Number(b.id) * 7919) % 601));
    const halves = [...rows.slice(300), ...rows.slice(0, 300)];
    for (const order of [reversed, shuffled, halves]) assert.deepEqual(importTable(file, options(order)), inOrder);
    assert.deepEqual(importTable(text, options(shuffled)), importTable(text, options(rows)));
  });
  it('a planned date is checked with its row\'s other date, edited or not, whatever an earlier row with the same value gave', () => {
    // Rows alike but for their finish date; the same new start on each, and on some a new finish too.
    const dated = Array.from({ length: 40 }, (_, i): TableRow => {
      const id = String(7000 + i);
      return { id, fields: { Id: id, Name: `n${i}`, PlannedStartDate: '2026-02-01T00:00:00', PlannedFinishDate: i % 2 === 0 ? '2026-02-20T00:00:00' : '2026-03-20T00:00:00' } };
    });
    const lines = ['ID,予定開始日,予定終了日'];
    for (let i = 0; i < dated.length; i++) {
      const finish = (dated[i]!.fields['PlannedFinishDate'] as string).slice(0, 10);
      if (i % 4 < 2) lines.push(`${7000 + i},2026-03-01,${finish}`); // start moved past the finish on every other row
      else lines.push(`${7000 + i},2026-04-01,${i % 8 < 6 ? '2026-04-10' : '2026-03-31'}`); // both moved: good, or finish before start
    }
    const r = importTable(lines.join('\r\n'), { columns: COLUMNS, rows: new Map(dated.map((x) => [x.id, x])), catalogue: CATALOGUE });
    const refused = new Set(r.problems.map((p) => Number(p.id) - 7000));
    const want = dated.map((_, i) => i).filter((i) => (i % 4 < 2 ? i % 2 === 0 : i % 8 >= 6));
    assert.deepEqual([...refused].sort((a, b) => a - b), want);
    assert.ok(r.problems.every((p) => p.code === 'cell' && p.problem?.code === 'check'), JSON.stringify(r.problems[0]));
    assert.equal(r.appliedRowCount, dated.length - want.length);
  });
});
