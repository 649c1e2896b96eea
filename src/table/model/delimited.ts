// CSV and TSV text, without vscode: a parser (RFC 4180 quoting, CRLF / LF / CR line
// ends, a leading BOM, quoted cells holding delimiters, quotes and new lines) for
// imported files and text pasted from Excel or Google Sheets, and a writer.
// CSV is written in UTF-8 with a BOM and CRLF (Excel in Japanese then reads it as
// UTF-8, not Shift_JIS); TSV without a BOM, as the clipboard carries it.

export type DelimitedFormat = 'csv' | 'tsv';

export interface ParseProblem {
  /** 1-based line of the text where the problem starts. */
  line: number;
  message: string;
}

export interface ParsedTable {
  /** Records, each a list of cells; a final empty line is not a record. */
  records: string[][];
  /** 1-based line where each record starts (a quoted cell may span lines). */
  lines: number[];
  problems: ParseProblem[];
}

export const BOM = '\ufeff';

/** The delimiter of pasted or imported text: a tab when the first line has one, else a comma. */
export function detectDelimiter(text: string): ',' | '\t' {
  const first = text.replace(/^\ufeff/, '').split(/\r\n|\n|\r/, 1)[0] ?? '';
  return first.includes('\t') ? '\t' : ',';
}

/**
 * Parses CSV (`,`) or TSV (`\t`). A cell that starts with `"` is quoted: `""` inside is
 * one quote, delimiters and line ends inside are kept. A quote in the middle of an
 * unquoted cell is kept as written (Excel's way). A quote never closed is a problem
 * naming the line where it opened; the rest of the text is then that one cell.
 */
export function parseDelimited(text: string, delimiter: string = detectDelimiter(text)): ParsedTable {
  const s = text.startsWith(BOM) ? text.slice(1) : text;
  const records: string[][] = [];
  const lines: number[] = [];
  const problems: ParseProblem[] = [];
  let line = 1;
  let i = 0;
  const n = s.length;
  while (i < n) {
    const record: string[] = [];
    const recordLine = line;
    for (;;) {
      let cell = '';
      if (s[i] === '"') {
        const openLine = line;
        i++;
        let closed = false;
        while (i < n) {
          const c = s[i]!;
          if (c === '"') {
            if (s[i + 1] === '"') {
              cell += '"';
              i += 2;
              continue;
            }
            i++;
            closed = true;
            break;
          }
          if (c === '\n' || (c === '\r' && s[i + 1] !== '\n')) line++;
          cell += c;
          i++;
        }
        if (!closed) problems.push({ line: openLine, message: `line ${openLine}: a quoted cell is not closed (a " is missing)` });
        // Text after the closing quote up to the delimiter is kept (lenient, as Excel reads it).
        while (i < n && s[i] !== delimiter && s[i] !== '\n' && s[i] !== '\r') cell += s[i++];
      } else {
        while (i < n && s[i] !== delimiter && s[i] !== '\n' && s[i] !== '\r') cell += s[i++];
      }
      record.push(cell);
      if (i < n && s[i] === delimiter) {
        i++;
        continue;
      }
      break;
    }
    if (s[i] === '\r') i++;
    if (s[i] === '\n') i++;
    line++;
    records.push(record);
    lines.push(recordLine);
  }
  // Normalise CRLF inside quoted cells to LF (a cell's new lines are the same whichever way the file ends lines).
  for (const r of records) for (let k = 0; k < r.length; k++) if (r[k]!.includes('\r')) r[k] = r[k]!.replace(/\r\n?/g, '\n');
  return { records, lines, problems };
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
}

/** Writes records as CSV or TSV; cells with the delimiter, quotes, line ends or edge spaces are quoted. */
export function writeDelimited(records: readonly (readonly string[])[], options: WriteOptions): string {
  const d = options.format === 'csv' ? ',' : '\t';
  const eol = options.lineEnd ?? (options.format === 'csv' ? '\r\n' : '\n');
  const bom = options.bom ?? options.format === 'csv';
  const body = records.map((r) => r.map((c) => quoteCell(c, d)).join(d)).join(eol);
  return (bom ? BOM : '') + body + (records.length > 0 ? eol : '');
}
