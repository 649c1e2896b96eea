// CSV and TSV text, without vscode: a reader (RFC 4180 quoting, CRLF / LF / CR line
// ends, a leading BOM, quoted cells holding delimiters, quotes and line breaks) for
// imported files and text pasted from Excel or Google Sheets, and a writer.
// CSV is written in UTF-8 with a BOM and CRLF (Excel in Japanese then reads it as
// UTF-8, not Shift_JIS); TSV without a BOM, as the clipboard carries it.
//
// Cells are read as written: a line break inside a quoted cell stays CRLF, LF or CR.
// The reader slices cells out of the text (indexOf / substring) and keeps the next
// delimiter, line end and control character found, so each character is looked at a
// few times at most, whatever the length of a cell.

export type DelimitedFormat = 'csv' | 'tsv';

/**
 * What went wrong with the quotes of a record:
 * - unclosedQuote: a quoted cell never closed (file: the record and every later one are not read);
 * - textAfterQuote: a quoted cell closed, then more text before the delimiter (file: the record is not read);
 * - quoteAsText: a quote not closed as a quoted cell should be, read as text (paste: the cell is kept as written).
 */
export type ParseProblemCode = 'unclosedQuote' | 'textAfterQuote' | 'quoteAsText';

export interface ParseProblem {
  /** 1-based line of the text where the quote opened. */
  line: number;
  code: ParseProblemCode;
  /** Index of the record (0: the first line's) and of the cell in it. */
  record: number;
  cell: number;
  /** textAfterQuote: the line where the quote closed (the lines after `line` up to it were taken into the cell). */
  endLine?: number;
  message: string;
}

/**
 * How quotes that do not close properly are read:
 * - 'file': RFC 4180. A record with such a quote is a problem; after a quote never closed,
 *   nothing more is read as meant (the later records are marked unread).
 * - 'paste': as spreadsheets read pasted text: a quote that does not close a quoted cell
 *   (never closed, or closed and followed by more text) is a character of the cell, and
 *   the rest of the text is read as the rows it is.
 */
export type QuoteMode = 'file' | 'paste';

export const BOM = '\ufeff';

/** Control characters a cell may not hold: C0 except TAB, LF and CR; DEL; C1. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/**
 * How far ahead the reader looks for the next control character at a time: the text is
 * searched piece by piece as it is read, so that reading a record never searches the whole
 * text (a sliced import yields between records).
 */
const CONTROL_WINDOW = 65_536;

const QUOTE = 34;
const LF = 10;
const CR = 13;

/** The delimiter of pasted or imported text: a tab when the first line has one, else a comma. */
export function detectDelimiter(text: string): ',' | '\t' {
  let end = text.length;
  const lf = text.indexOf('\n');
  const cr = text.indexOf('\r');
  if (lf >= 0) end = lf;
  if (cr >= 0 && cr < end) end = cr;
  const tab = text.indexOf('\t');
  return tab >= 0 && tab < end ? '\t' : ',';
}

/**
 * Reads records one at a time (`next`), so a large text is never held twice and a
 * caller can stop between records (sliced imports). After each `next`, `recordLine`,
 * `endLine`, `problem`, `unreadSince` and `controlCells` describe that record.
 */
export class DelimitedReader {
  /** 1-based line where the record just read starts, and where it ends. */
  recordLine = 1;
  endLine = 1;
  /** The quote problem of the record just read, if any. */
  problem: ParseProblem | undefined;
  /** Indexes of the record's cells holding a control character (undefined: none). */
  controlCells: number[] | undefined;
  /** 0, or the line of a quote never closed before this record (file mode): the record is not read as meant. */
  unreadSince = 0;
  /** Records read so far. */
  count = 0;
  readonly problems: ParseProblem[] = [];

  private pos: number;
  private line = 1;
  private readonly n: number;
  private readonly d: string;
  private readonly dc: number;
  // The next delimiter, LF, CR and control character at or after the last position asked
  // (n when there is none); refreshed only once the position passes them. For control
  // characters, `nx` is the end of the piece searched when `nxFound` is false (none before it).
  private nd = -1;
  private nl = -1;
  private nc = -1;
  private nx = -1;
  private nxFound = false;
  /** The record being read and how many cells it has so far. */
  private cells: string[] = [];
  private k = 0;
  private unclosedAt = 0;

  constructor(
    private readonly s: string,
    delimiter: string = detectDelimiter(s),
    private readonly mode: QuoteMode = 'file',
  ) {
    this.pos = s.charCodeAt(0) === 0xfeff ? 1 : 0;
    this.n = s.length;
    this.d = delimiter;
    this.dc = delimiter.charCodeAt(0);
  }

  /** True when every record has been read. */
  get done(): boolean {
    return this.pos >= this.n;
  }

  /** How far the reading is (characters of the text). */
  get offset(): number {
    return this.pos;
  }

  get length(): number {
    return this.n;
  }

  /**
   * The next record's cells; undefined at the end of the text. With `into`, the cells are
   * written into that array (its earlier cells replaced) and it is returned: a caller that
   * keeps no record makes no array per record.
   */
  next(into?: string[]): string[] | undefined {
    const s = this.s;
    const n = this.n;
    if (this.pos >= n) return undefined;
    const cells = into ?? [];
    this.cells = cells;
    this.k = 0;
    this.recordLine = this.line;
    this.problem = undefined;
    this.controlCells = undefined;
    this.unreadSince = this.unclosedAt;
    for (;;) {
      let p = this.pos;
      if (s.charCodeAt(p) === QUOTE && this.quoted(p)) {
        p = this.pos;
      } else {
        const end = this.stop(p);
        this.control(this.k, p, end);
        cells[this.k++] = s.substring(p, end);
        p = end;
      }
      if (p < n && s.charCodeAt(p) === this.dc) {
        this.pos = p + 1;
        if (this.pos < n) continue;
        cells[this.k++] = ''; // a delimiter at the very end: one more empty cell
        p = n;
      }
      this.endLine = this.line;
      const c = s.charCodeAt(p);
      if (c === CR) p += s.charCodeAt(p + 1) === LF ? 2 : 1;
      else if (c === LF) p++;
      this.pos = p;
      this.line++;
      break;
    }
    this.count++;
    // (Written by index, not pushed after `length = 0`, which would let go of the array's room each record.)
    if (cells.length !== this.k) cells.length = this.k;
    return cells;
  }

  /** The first delimiter or line end at or after p (n when none). */
  private stop(p: number): number {
    const s = this.s;
    if (this.nd < p) this.nd = find(s, this.d, p, this.n);
    if (this.nl < p) this.nl = find(s, '\n', p, this.n);
    if (this.nc < p) this.nc = find(s, '\r', p, this.n);
    return Math.min(this.nd, this.nl, this.nc);
  }

  /** Notes cell k when [a, b) holds a control character. */
  private control(k: number, a: number, b: number): void {
    if (b <= a) return;
    if (this.nx < a || (!this.nxFound && this.nx < b)) {
      // Search from a, at least to b: in [a, end) the first control character, else none up to end.
      const end = Math.min(this.n, Math.max(b, a + CONTROL_WINDOW));
      const i = this.s.substring(a, end).search(CONTROL);
      this.nxFound = i >= 0;
      this.nx = i >= 0 ? a + i : end;
    }
    if (this.nxFound && this.nx < b) (this.controlCells ??= []).push(k);
  }

  /**
   * A cell starting with a quote at p. Adds the cell and returns true, with `pos` after
   * it; returns false (paste mode) when the quote is to be read as text.
   */
  private quoted(p: number): boolean {
    const cells = this.cells;
    const s = this.s;
    const n = this.n;
    const openLine = this.line;
    let q = p + 1;
    let doubled = false;
    let j: number;
    for (;;) {
      j = s.indexOf('"', q);
      if (j < 0 || s.charCodeAt(j + 1) !== QUOTE) break;
      doubled = true;
      q = j + 2;
    }
    if (j < 0) {
      if (this.mode === 'paste') {
        this.report('quoteAsText', openLine, this.k, `line ${openLine}: a quote is not closed; the cell is read as written`);
        return false;
      }
      this.report('unclosedQuote', openLine, this.k, `line ${openLine}: a quoted cell is not closed (a " is missing)`);
      // The record ends with the line the quote opened on; what follows is not read as meant.
      const end = Math.min(find(s, '\n', p, n), find(s, '\r', p, n));
      this.control(this.k, p + 1, end);
      cells[this.k++] = s.substring(p + 1, end);
      this.pos = end;
      if (this.unclosedAt === 0) this.unclosedAt = openLine;
      return true;
    }
    const after = j + 1;
    const a = s.charCodeAt(after);
    const closes = after >= n || a === this.dc || a === LF || a === CR;
    if (!closes && this.mode === 'paste') {
      this.report('quoteAsText', openLine, this.k, `line ${openLine}: a quote does not close the cell; the cell is read as written`);
      return false;
    }
    const lines = this.lineBreaks(p + 1, j);
    this.line += lines;
    this.control(this.k, p + 1, j);
    let cell = s.substring(p + 1, j);
    if (doubled) cell = cell.replaceAll('""', '"');
    let end = after;
    if (!closes) {
      this.report('textAfterQuote', openLine, this.k, `line ${openLine}: a quoted cell closed on line ${this.line} is followed by text before the delimiter`);
      if (this.line > openLine) this.problem!.endLine = this.line;
      end = this.stop(after);
      this.control(this.k, after, end);
      cell += s.substring(after, end);
    }
    cells[this.k++] = cell;
    this.pos = end;
    return true;
  }

  /** Line breaks (CRLF, LF, CR each one) in [a, b). */
  private lineBreaks(a: number, b: number): number {
    const s = this.s;
    if (this.nl < a) this.nl = find(s, '\n', a, this.n);
    if (this.nc < a) this.nc = find(s, '\r', a, this.n);
    if (this.nl >= b && this.nc >= b) return 0;
    let count = 0;
    for (let i = Math.min(this.nl, this.nc); i < b; i++) {
      const c = s.charCodeAt(i);
      if (c === LF) count++;
      else if (c === CR && s.charCodeAt(i + 1) !== LF) count++;
    }
    return count;
  }

  private report(code: ParseProblemCode, line: number, cell: number, message: string): void {
    const p: ParseProblem = { line, code, record: this.count, cell, message };
    this.problems.push(p);
    this.problem ??= p; // the record's first problem says where it went wrong
  }
}

function find(s: string, what: string, from: number, n: number): number {
  const i = s.indexOf(what, from);
  return i < 0 ? n : i;
}

export interface ParsedTable {
  /** Records, each a list of cells; a final empty line is not a record. */
  records: string[][];
  /** 1-based line where each record starts (a quoted cell may span lines). */
  lines: number[];
  problems: ParseProblem[];
  /** Index of the first record after a quote never closed (file mode), -1 when none: those records are not read as meant. */
  firstUnread: number;
}

/**
 * Parses CSV (`,`) or TSV (`\t`). A cell that starts with `"` is quoted: `""` inside is
 * one quote, delimiters and line breaks inside are kept as written. A quote in the
 * middle of an unquoted cell is kept as written (Excel's way). Quotes that do not
 * close are read as `mode` says (see QuoteMode).
 */
export function parseDelimited(text: string, delimiter: string = detectDelimiter(text), mode: QuoteMode = 'file'): ParsedTable {
  const reader = new DelimitedReader(text, delimiter, mode);
  const records: string[][] = [];
  const lines: number[] = [];
  let firstUnread = -1;
  for (let r = reader.next(); r !== undefined; r = reader.next()) {
    if (firstUnread < 0 && reader.unreadSince > 0) firstUnread = records.length;
    records.push(r);
    lines.push(reader.recordLine);
  }
  return { records, lines, problems: reader.problems, firstUnread };
}

/** The first record of a text (its header), read without reading the rest. */
export function headerOf(text: string, delimiter: string = detectDelimiter(text)): string[] {
  return new DelimitedReader(text, delimiter).next() ?? [];
}

/** A block pasted into the table: its cells, and where they need a word to the user. */
export interface PastedBlock {
  records: string[][];
  /** Cells whose quote was read as text (paste mode), with the line of the block it is on. */
  quoteAsText: { record: number; cell: number; line: number }[];
  /** Cells holding a control character (other than TAB, LF and CR). */
  control: { record: number; cell: number }[];
}

/** Reads pasted text as TSV in paste mode (see QuoteMode); one final line end is not an empty row. */
export function parsePastedBlock(text: string): PastedBlock {
  const reader = new DelimitedReader(text.replace(/(\r\n|\n|\r)$/, '\n'), '\t', 'paste');
  const out: PastedBlock = { records: [], quoteAsText: [], control: [] };
  for (let r = reader.next(); r !== undefined; r = reader.next()) {
    const record = out.records.length;
    for (const cell of reader.controlCells ?? []) out.control.push({ record, cell });
    out.records.push(r);
  }
  for (const p of reader.problems) out.quoteAsText.push({ record: p.record, cell: p.cell, line: p.line });
  return out;
}

// Formula injection: a spreadsheet runs a cell starting with = + - @ (and TAB, CR or NUL
// can hide one) as a formula, also when the cell is quoted. Such cells are written with
// a leading apostrophe, as OWASP recommends for CSV exports. A plain number (-5, +81,
// 1.5, -20%) is left as it is: a spreadsheet reads it as a number, never as a formula,
// and an apostrophe would turn it into text there. To keep the escape reversible, a cell
// already starting with apostrophes before such a character gets one more; the import
// removes exactly one (restoreFormula).
const PLAIN_NUMBER = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?%?$/;

function isFormulaLike(cell: string): boolean {
  let i = 0;
  while (cell.charCodeAt(i) === 39) i++; // leading apostrophes
  if (i >= cell.length) return false;
  const c = cell.charCodeAt(i);
  if (c !== 61 && c !== 43 && c !== 45 && c !== 64 && c !== 9 && c !== 13 && c !== 0) return false; // = + - @ TAB CR NUL
  return !PLAIN_NUMBER.test(i === 0 ? cell : cell.slice(i));
}

/** The cell as written to a file: formula-like text gets a leading apostrophe. */
export function neutralizeFormula(cell: string): string {
  return isFormulaLike(cell) ? `'${cell}` : cell;
}

/** The cell as it was before neutralizeFormula (a cell it did not change is returned as it is). */
export function restoreFormula(cell: string): string {
  return cell.charCodeAt(0) === 39 && isFormulaLike(cell) ? cell.slice(1) : cell;
}

function quoteCell(cell: string, delimiter: string): string {
  const needs = cell.includes(delimiter) || cell.includes('"') || cell.includes('\n') || cell.includes('\r') || /^\s|\s$/.test(cell);
  return needs ? `"${cell.replace(/"/g, '""')}"` : cell;
}

export interface WriteOptions {
  format: DelimitedFormat;
  /** Default: true for CSV, false for TSV. */
  bom?: boolean;
  /** Default: CRLF for CSV, LF for TSV. */
  lineEnd?: '\r\n' | '\n';
  /** Formula-like cells get a leading apostrophe (neutralizeFormula). Default: true. */
  neutralize?: boolean;
}

/** Writes records as CSV or TSV; cells with the delimiter, quotes, line ends or edge spaces are quoted. */
export function writeDelimited(records: readonly (readonly string[])[], options: WriteOptions): string {
  const d = options.format === 'csv' ? ',' : '\t';
  const eol = options.lineEnd ?? (options.format === 'csv' ? '\r\n' : '\n');
  const bom = options.bom ?? options.format === 'csv';
  const safe = options.neutralize ?? true;
  const body = records.map((r) => r.map((c) => quoteCell(safe ? neutralizeFormula(c) : c, d)).join(d)).join(eol);
  return (bom ? BOM : '') + body + (records.length > 0 ? eol : '');
}
