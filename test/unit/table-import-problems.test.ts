// An import applies only what the file means: texts as the bytes of real files arrive
// (decoded from UTF-8 bytes here, as the import command hands them over), with an
// unclosed quote, text after a closing quote, NUL and other control characters, CRLF /
// LF / CR mixes, a 1 MB cell and a 50 MB file; and a pasted block with an unclosed quote.
import * as assert from 'node:assert/strict';
import { DelimitedReader, TableEdits, importTable, parseDelimited, pasteText } from '../../src/table/model';
import { CATALOGUE, COLUMNS, ROWS, ROWS_BY_ID, col, resolveUser, userName } from './table-fixtures';

const importCtx = { columns: COLUMNS, rows: ROWS_BY_ID, catalogue: CATALOGUE, resolveUser, userName };
/** Text as the import command gets it: UTF-8 bytes decoded. */
const fromBytes = (bytes: number[] | Buffer): string => new TextDecoder('utf-8').decode(Uint8Array.from(bytes));
const utf8 = (s: string): number[] => [...Buffer.from(s, 'utf8')];

describe('table import: an unclosed quote refuses its row and every line after it', () => {
  it('Id,Name / 101,"abc / 102,def / 103,ghi: nothing applied, line 2 refused for the quote, lines 3 and 4 reported as not read', () => {
    const text = fromBytes(utf8('Id,Name\r\n101,"abc\r\n102,def\r\n103,ghi\r\n'));
    const r = importTable(text, importCtx);
    assert.deepEqual(r.changes, [], 'item 101 does not get "abc\\n102,def…" as its name');
    assert.deepEqual(r.problems.map((p) => [p.line, p.code, p.id, p.params?.['openLine']]), [
      [2, 'unclosedQuote', '101', 2],
      [3, 'notRead', '102', 2],
      [4, 'notRead', '103', 2],
    ]);
    assert.match(r.problems[1]!.message, /Line 3 is not read: the quote opened on line 2 is not closed/);
    assert.equal(r.recordCount, 3);
    assert.equal(r.badRecordCount, 3);
    assert.equal(r.appliedRowCount, 0);
    assert.deepEqual(r.refusedByCode, { unclosedQuote: 1, notRead: 2 });
  });

  it('rows before the unclosed quote are applied; the ones after are not, even when they look well formed', () => {
    const r = importTable('Id,Name\n101,新しい名前\n102,"unclosed\n103,x\n', importCtx);
    assert.deepEqual(r.changes, [{ id: '101', field: 'Name', value: '新しい名前' }]);
    assert.equal(r.appliedRowCount, 1);
    assert.equal(r.badRecordCount, 2);
  });

  it('a quoted cell closed and followed by more text refuses that row only', () => {
    const r = importTable('Id,Name\n101,"5 inch" screw\n102,ok\n', importCtx);
    assert.deepEqual(r.changes, [{ id: '102', field: 'Name', value: 'ok' }]);
    assert.deepEqual(r.problems.map((p) => [p.line, p.code]), [[2, 'textAfterQuote']]);
  });

  it('a quote that closes on a later line inside another cell refuses its row and reports each line it took in', () => {
    const r = importTable('Id,Name,Code\n101,"abc,A\n102,"def",B\n103,ok,C\n', importCtx);
    assert.deepEqual(r.changes, [{ id: '103', field: 'Name', value: 'ok' }, { id: '103', field: 'Code', value: 'C' }]);
    assert.deepEqual(r.problems.map((p) => [p.line, p.code]), [[2, 'textAfterQuote'], [3, 'notRead']]);
    assert.equal(r.recordCount, 3);
    assert.equal(r.badRecordCount, 2);
  });

  it('text from the clipboard (quotes: paste) reads a quote that closes no cell as text and notes where', () => {
    const r = importTable('Id\tName\tCode\r\n101\t"abc\tQ-1\r\n102\tdef\tQ-2\r\n', { ...importCtx, quotes: 'paste' });
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.changes, [
      { id: '101', field: 'Name', value: '"abc' },
      { id: '101', field: 'Code', value: 'Q-1' },
      { id: '102', field: 'Name', value: 'def' },
      { id: '102', field: 'Code', value: 'Q-2' },
    ]);
    assert.deepEqual(r.quoteAsText, [{ line: 2, column: 'Name', id: '101' }]);
  });

  it('an unclosed quote in the header applies nothing', () => {
    const r = importTable('Id,"Name\n101,x\n', importCtx);
    assert.deepEqual(r.changes, []);
    assert.equal(r.problems[0]!.code, 'unclosedQuote');
    assert.equal(r.badRecordCount, r.recordCount);
  });
});

describe('table import: control characters', () => {
  it('refuses a NUL in a cell by line and column, with the character and its position; the row gives no edit at all', () => {
    const text = fromBytes([...utf8('Id,Name,PlannedTime\r\n101,ab'), 0x00, ...utf8('c,8\r\n102,ok,9\r\n')]);
    const r = importTable(text, importCtx);
    assert.deepEqual(r.changes, [{ id: '102', field: 'Name', value: 'ok' }, { id: '102', field: 'PlannedTime', value: 540 }]);
    assert.deepEqual(r.problems.map((p) => [p.line, p.column, p.code, p.params?.['char'], p.params?.['position']]), [[2, 'Name', 'control', 'U+0000', 3]]);
    assert.deepEqual(r.refusedByCode, { control: 1 });
  });

  it('refuses other C0 and C1 controls but reads TAB inside a quoted CSV cell', () => {
    const r = importTable('Id,Name\n101,"a\tb"\n102,x\u001by\n104,x\u0085y\n', importCtx);
    assert.deepEqual(r.changes, [{ id: '101', field: 'Name', value: 'a\tb' }]);
    assert.deepEqual(r.problems.map((p) => [p.line, p.params?.['char']]), [[3, 'U+001B'], [4, 'U+0085']]);
  });
});

describe('table import: control characters far into a long text', () => {
  it('finds each one by record and cell wherever it is: in a cell of its own, at a piece the reader searches ahead ends, in a long quoted cell', () => {
    // Records of about 40 characters: the reader searches ahead 65,536 characters at a time.
    const lines = Array.from({ length: 6000 }, (_, i) => `${i},name ${String(i).padStart(8, '0')},"quoted, ${i}"`);
    const at = (record: number, cell: number, char: string): void => {
      const parts = lines[record]!.split(',');
      parts[cell] = char + parts[cell]!;
      lines[record] = parts.join(',');
    };
    at(1700, 1, '\u0000');
    at(5999, 1, '\u0007');
    lines[3000] = `3000,"${'x'.repeat(70_000)}\u0085${'y'.repeat(10)}",z`; // a cell longer than a piece
    const text = ['Id,Name,Code', ...lines].join('\r\n');
    // Every record whose cell spans position 65,536 (or a multiple of it), with a control character put where it falls.
    const where: [number, number][] = [];
    let pos = 'Id,Name,Code\r\n'.length;
    for (let r = 0; r < lines.length; r++) {
      const next = pos + lines[r]!.length + 2;
      const edge = Math.ceil(pos / 65_536) * 65_536;
      if (edge > pos && edge < next && r !== 3000 && where.length < 3) where.push([r, edge - pos]);
      pos = next;
    }
    for (const [r, offset] of where) lines[r] = `${lines[r]!.slice(0, offset)}\u001f${lines[r]!.slice(offset)}`;
    const withEdges = ['Id,Name,Code', ...lines].join('\r\n');
    for (const t of [text, withEdges]) {
      const reader = new DelimitedReader(t);
      const found: string[] = [];
      for (let r = reader.next(), k = -1; r !== undefined; r = reader.next(), k++) for (const cell of reader.controlCells ?? []) found.push(`${k}:${cell}`);
      const want = new Set(['1700:1', '5999:1', '3000:1']);
      if (t === withEdges) for (const [r, offset] of where) {
        const cells = lines[r]!.slice(0, offset).split(',').length - 1;
        want.add(`${r}:${cells}`);
      }
      assert.deepEqual(new Set(found), want);
      assert.equal(found.length, want.size);
    }
    assert.ok(where.length >= 2, 'records at the edge of a piece');
  });
});

describe('table import: line ends of every kind', () => {
  it('reads rows ended by CRLF, LF and CR in one file, with line numbers counted per break', () => {
    const text = fromBytes(utf8('Id,Name\r\n101,一\n102,"二\r\n行"\r103,三\r\n104,bad,extra\n'));
    const r = importTable(text, importCtx);
    assert.deepEqual(r.changes, [
      { id: '101', field: 'Name', value: '一' },
      { id: '102', field: 'Name', value: '二\r\n行' },
      { id: '103', field: 'Name', value: '三' },
    ]);
    assert.deepEqual(r.problems.map((p) => [p.line, p.code]), [[6, 'extraCells']], 'the quoted break counts as a line');
    assert.deepEqual(parseDelimited(text).lines, [1, 2, 3, 5, 6]);
  });

  it('a UTF-8 BOM before the header is not part of the first column name', () => {
    const r = importTable(fromBytes([0xef, 0xbb, 0xbf, ...utf8('ID,名称\r\n101,設計改\r\n')]), importCtx);
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.changes, [{ id: '101', field: 'Name', value: '設計改' }]);
  });
});

describe('table import: large texts', () => {
  it('a 1 MB cell (quoted, with quotes and breaks) is read whole and checked against the field (Name max 256)', () => {
    const big = `${'あ"'.repeat(100_000)}\r\n${'x'.repeat(800_000)}`;
    const text = `Id,Description,Name\r\n101,"${big.replaceAll('"', '""')}",短い\r\n102,"${'y'.repeat(1_000_000)}",\r\n`;
    const t0 = performance.now();
    const r = importTable(text, importCtx);
    assert.ok(performance.now() - t0 < 5000);
    assert.deepEqual(r.changes.map((c) => [c.id, c.field, (c.value as string).length]), [
      ['101', 'Description', big.length],
      ['101', 'Name', 2],
    ]);
    assert.equal(r.changes[0]!.value, big);
    assert.deepEqual(r.problems.map((p) => [p.line, p.code, p.field]), [[4, 'cell', 'Name']], 'an empty Name is refused by the field check: nothing of row 102');
  });

  it('a 50 MB file generated here is read in one pass: every row counted, the last line numbered right, problems listed up to the cap', function () {
    this.timeout(120_000);
    // Items not in the table (refused by ID), then one row of the table with a new name.
    const line = (i: number) => `${900_000 + i},"名前 ${i}, ""引用"" と改行\r\nの行",${i % 100},説明`;
    const parts = ['Id,Name,ActualProgress,Description'];
    let size = 0;
    let n = 0;
    while (size < 50 * 1024 * 1024) {
      const l = line(n++);
      parts.push(l);
      size += Buffer.byteLength(l) + 2;
    }
    parts.push('101,"最後の, 行"');
    const text = `${parts.join('\r\n')}\r\n`;
    assert.ok(Buffer.byteLength(text) > 50 * 1024 * 1024);
    const r = importTable(text, { ...importCtx, maxProblems: 1000 });
    assert.deepEqual(r.changes, [{ id: '101', field: 'Name', value: '最後の, 行' }]);
    assert.equal(r.recordCount, n + 1);
    assert.equal(r.badRecordCount, n);
    assert.equal(r.appliedRowCount, 1);
    assert.deepEqual(r.refusedByCode, { unknownId: n });
    assert.equal(r.problems.length, 1000);
    assert.equal(r.problemsOmitted, n - 1000);
    assert.deepEqual(r.problems.slice(0, 2).map((p) => [p.line, p.id]), [[2, '900000'], [4, '900001']], 'each record spans two lines');
  });
});

describe('table paste: an unclosed quote is read as text', () => {
  const cols = [col('Name'), col('Code'), col('PlannedTime')];

  it('a block whose first cell starts with an unclosed quote is pasted as the rows it is, the quote kept, the line reported', () => {
    const edits = new TableEdits(ROWS);
    const r = pasteText(edits, '"abc\tX-1\t8\r\ndef\tX-2\t9\r\nghi\tX-3\t10\r\n', ROWS, cols, { rowIndex: 0, columnIndex: 0 }, { resolveUser });
    assert.deepEqual(r.rejected, []);
    assert.deepEqual(r.changes, [
      { id: '101', field: 'Name', value: '"abc' },
      { id: '101', field: 'Code', value: 'X-1' },
      { id: '101', field: 'PlannedTime', value: 480 },
      { id: '102', field: 'Name', value: 'def' },
      { id: '102', field: 'Code', value: 'X-2' },
      { id: '102', field: 'PlannedTime', value: 540 },
      { id: '103', field: 'Name', value: 'ghi' },
      { id: '103', field: 'Code', value: 'X-3' },
      { id: '103', field: 'PlannedTime', value: 600 },
    ]);
    assert.deepEqual(r.quoteAsText, [{ rowIndex: 0, columnIndex: 0, line: 1 }]);
  });

  it('a cell that only starts with a quote ("5 inch" screw) keeps its text; a well-quoted cell with a break is still one cell', () => {
    const r = pasteText(new TableEdits(ROWS), '"5 inch" screw\tA\r\n"two\nlines"\tB\r\n', ROWS, cols, { rowIndex: 0, columnIndex: 0 });
    assert.deepEqual(r.changes.map((c) => c.value), ['"5 inch" screw', 'A', 'two\nlines', 'B']);
    assert.deepEqual(r.quoteAsText, [{ rowIndex: 0, columnIndex: 0, line: 1 }]);
  });

  it('a pasted cell with NUL is refused by row and column; the other cells of the block are applied', () => {
    const r = pasteText(new TableEdits(ROWS), 'a\u0000b\tA\r\n', ROWS, cols, { rowIndex: 0, columnIndex: 0 });
    assert.deepEqual(r.changes, [{ id: '101', field: 'Code', value: 'A' }]);
    assert.deepEqual(r.rejected.map((x) => [x.rowIndex, x.columnIndex, x.problem.code]), [[0, 0, 'control']]);
    assert.match(r.rejected[0]!.problem.message, /control character/);
  });
});
