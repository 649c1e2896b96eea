// Limits of an import into the work item table, checked before any parse, without vscode.
//
// Measured on this code (one thread, as the extension host runs it): a CSV of 1,000,000 rows
// and 10 columns (91 MiB) took about 15 s and 600 MiB to import, wider files about 21 s and
// 1.2 GB; 100,000 rows took about 1 s and 60 MiB. The defaults keep an import near a second:
// 100,000 rows (a project larger than that is rare; Excel itself stops at 1,048,576), and 64 MiB
// (100,000 rows of about 670 bytes each, descriptions included). The rows are counted by line
// breaks (cheap); a quoted cell may hold line breaks, so with a quote in the text the count is an
// upper bound of the records.

export interface ImportLimits {
  maxRows: number;
  maxBytes: number;
}

export const DEFAULT_IMPORT_LIMITS: ImportLimits = { maxRows: 100_000, maxBytes: 64 * 1024 * 1024 };

export interface LimitExceeded {
  what: 'bytes' | 'rows';
  actual: number;
  limit: number;
  /** Rows only: the text has quotes, so some line breaks may be inside cells (the real count may be lower). */
  upperBound?: boolean;
}

/** The data rows of a delimited text (the header not counted), by line breaks (LF, CRLF, lone CR). */
export function countRows(text: string): { rows: number; upperBound: boolean } {
  let breaks = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) breaks++;
  for (let i = text.indexOf('\r'); i >= 0; i = text.indexOf('\r', i + 1)) if (text.charCodeAt(i + 1) !== 0x0a) breaks++;
  const last = text.charCodeAt(text.length - 1);
  const lines = breaks + (text.length > 0 && last !== 0x0a && last !== 0x0d ? 1 : 0);
  return { rows: Math.max(0, lines - 1), upperBound: text.includes('"') };
}

/** The UTF-8 size of a text (what a file of it would hold), without building the bytes. */
export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

export function checkByteLimit(size: number, limits: ImportLimits): LimitExceeded | undefined {
  return size > limits.maxBytes ? { what: 'bytes', actual: size, limit: limits.maxBytes } : undefined;
}

export function checkRowLimit(text: string, limits: ImportLimits): LimitExceeded | undefined {
  const { rows, upperBound } = countRows(text);
  return rows > limits.maxRows ? { what: 'rows', actual: rows, limit: limits.maxRows, upperBound } : undefined;
}

/** Limits from settings: whole numbers of at least 1 (rows) and 1 MiB (bytes given in MiB), else the default. */
export function importLimits(maxRows: unknown, maxMegabytes: unknown): ImportLimits {
  const whole = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 1 ? Math.floor(v) : undefined);
  const mb = whole(maxMegabytes);
  return { maxRows: whole(maxRows) ?? DEFAULT_IMPORT_LIMITS.maxRows, maxBytes: mb !== undefined ? mb * 1024 * 1024 : DEFAULT_IMPORT_LIMITS.maxBytes };
}
