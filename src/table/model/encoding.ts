// The bytes of an imported file as text, and the text of an export as bytes, without vscode.
//
// Reading: a byte order mark decides (UTF-8, UTF-16 LE, UTF-16 BE). Without one, a strict
// UTF-8 decode first (a file that decodes strictly as UTF-8 and has bytes >= 0x80 is almost
// always UTF-8), then a strict Shift_JIS decode (Windows-31J / CP932, what Japanese Excel's
// "CSV (コンマ区切り)" writes, the Microsoft extensions such as ① and ㈱ included). Bytes that
// decode in no encoding are a failure naming the line and the byte, never U+FFFD in the text.
//
// "Unsure" (the caller asks which encoding it is, as VS Code's Reopen with Encoding does):
// - both strict decodes succeed and the UTF-8 reading has no character from U+0800 up (text of
//   only two-byte UTF-8 sequences, such as "Café", is also valid Shift_JIS: "Cafﾃｩ"); a UTF-8
//   file with Japanese text has three-byte sequences and is taken as UTF-8;
// - only Shift_JIS decodes it, but more than half of its non-ASCII characters are half-width
//   katakana, user-defined (private use) characters or U+0080: what a file in another
//   single-byte encoding (Latin-1, Windows-1252) usually becomes when read as Shift_JIS;
// - it looks like UTF-16 without a byte order mark (a NUL in most even or most odd bytes).
//
// Writing: UTF-8 (with a BOM for CSV, so that Excel reads it as UTF-8), or Shift_JIS (CP932)
// through iconv-lite for tools that read only that; characters with no CP932 form are found by
// a round trip (encode, then decode as the import does) so that nothing is dropped unseen.
import * as iconv from 'iconv-lite';

export type TextEncodingId = 'utf8' | 'utf16le' | 'utf16be' | 'shiftjis';

/** The encodings offered when the file does not say (the order of the question). */
export const TEXT_ENCODINGS: readonly TextEncodingId[] = ['utf8', 'shiftjis', 'utf16le', 'utf16be'];

/** Names as VS Code's status bar shows them (the same in every language). */
export const ENCODING_NAMES: Readonly<Record<TextEncodingId, string>> = {
  utf8: 'UTF-8',
  shiftjis: 'Shift_JIS (CP932)',
  utf16le: 'UTF-16 LE',
  utf16be: 'UTF-16 BE',
};

export function isTextEncodingId(v: unknown): v is TextEncodingId {
  return typeof v === 'string' && (TEXT_ENCODINGS as readonly string[]).includes(v);
}

/** Where a decode failed. */
export interface DecodeFailure {
  encoding: TextEncodingId;
  /** 0-based offset of the first byte that does not decode. */
  offset: number;
  /** 1-based line of that byte (LF, CRLF or a lone CR end a line) and 1-based byte within the line. */
  line: number;
  byteInLine: number;
  /** The bytes from there (up to 4), as hex: "82 FF". */
  bytes: string;
}

export interface DecodedText {
  /** The text, without its byte order mark. */
  text: string;
  encoding: TextEncodingId;
  bom: boolean;
  /** How the encoding was known: its BOM, only ASCII bytes, a strict decode, or the caller's choice. */
  how: 'bom' | 'ascii' | 'detected' | 'chosen';
}

export type UnsureReason = 'bothDecode' | 'rareShiftJis' | 'utf16NoBom';

export type DetectedText =
  | { kind: 'decoded'; decoded: DecodedText }
  /** Ask: `likely` first; decodeAs with the answer. */
  | { kind: 'unsure'; reason: UnsureReason; likely: TextEncodingId }
  /** No encoding reads it: `failure` is that of the encoding that reads most of it. */
  | { kind: 'failed'; failure: DecodeFailure; failures: DecodeFailure[] };

const BOMS: readonly { encoding: TextEncodingId; bytes: readonly number[] }[] = [
  { encoding: 'utf8', bytes: [0xef, 0xbb, 0xbf] },
  { encoding: 'utf16le', bytes: [0xff, 0xfe] },
  { encoding: 'utf16be', bytes: [0xfe, 0xff] },
];

/** The encoding a byte order mark at the start names, and the mark's length. */
export function byteOrderMark(bytes: Uint8Array): { encoding: TextEncodingId; length: number } | undefined {
  const b = BOMS.find((m) => m.bytes.every((x, i) => bytes[i] === x));
  return b ? { encoding: b.encoding, length: b.bytes.length } : undefined;
}

/** Decodes the bytes as the BOM says, or as the strict decodes find (see the file header). */
export function detectText(bytes: Uint8Array): DetectedText {
  const bom = byteOrderMark(bytes);
  if (bom) {
    const r = decodeAs(bytes, bom.encoding);
    return r.ok ? { kind: 'decoded', decoded: { ...r.decoded, how: 'bom' } } : { kind: 'failed', failure: r.failure, failures: [r.failure] };
  }
  const utf16 = looksLikeUtf16(bytes);
  if (utf16) return { kind: 'unsure', reason: 'utf16NoBom', likely: utf16 };
  const utf8 = decodeAs(bytes, 'utf8');
  if (utf8.ok && utf8.decoded.text.length === bytes.length) return { kind: 'decoded', decoded: { ...utf8.decoded, how: 'ascii' } };
  const sjis = decodeAs(bytes, 'shiftjis');
  if (utf8.ok) {
    if (sjis.ok && !hasCharFrom(utf8.decoded.text, 0x800)) return { kind: 'unsure', reason: 'bothDecode', likely: 'utf8' };
    return { kind: 'decoded', decoded: { ...utf8.decoded, how: 'detected' } };
  }
  if (sjis.ok) return mostlyRare(sjis.decoded.text) ? { kind: 'unsure', reason: 'rareShiftJis', likely: 'shiftjis' } : { kind: 'decoded', decoded: { ...sjis.decoded, how: 'detected' } };
  const failures = [utf8.failure, sjis.failure].sort((a, b) => b.offset - a.offset);
  return { kind: 'failed', failure: failures[0]!, failures };
}

/** Decodes strictly as `encoding` (its own BOM skipped): the text, or where the bytes stop decoding. */
export function decodeAs(bytes: Uint8Array, encoding: TextEncodingId): { ok: true; decoded: DecodedText } | { ok: false; failure: DecodeFailure } {
  const bom = byteOrderMark(bytes);
  const skip = bom && bom.encoding === encoding ? bom.length : 0;
  const body = bytes.subarray(skip);
  try {
    const text = decoder(encoding).decode(body);
    return { ok: true, decoded: { text, encoding, bom: skip > 0, how: 'chosen' } };
  } catch {
    const at = firstInvalid(body, encoding);
    return { ok: false, failure: failureAt(bytes, skip + at, encoding) };
  }
}

/** The failure of `encoding` at byte `offset` of `bytes`, with its line (line ends counted in that encoding's units). */
export function failureAt(bytes: Uint8Array, offset: number, encoding: TextEncodingId): DecodeFailure {
  const unit = encoding === 'utf16le' || encoding === 'utf16be' ? 2 : 1;
  const lf = (i: number) => (encoding === 'utf16le' ? bytes[i] === 0x0a && bytes[i + 1] === 0 : encoding === 'utf16be' ? bytes[i] === 0 && bytes[i + 1] === 0x0a : bytes[i] === 0x0a);
  const cr = (i: number) => (encoding === 'utf16le' ? bytes[i] === 0x0d && bytes[i + 1] === 0 : encoding === 'utf16be' ? bytes[i] === 0 && bytes[i + 1] === 0x0d : bytes[i] === 0x0d);
  let line = 1;
  let start = 0;
  for (let i = 0; i + unit <= offset; i += unit) {
    if (lf(i) || (cr(i) && !lf(i + unit))) {
      line++;
      start = i + unit;
    }
  }
  const hex = [...bytes.subarray(offset, offset + 4)].map((b) => b.toString(16).toUpperCase().padStart(2, '0')).join(' ');
  return { encoding, offset, line, byteInLine: offset - start + 1, bytes: hex };
}

/** The English sentence of a failure (the log; the UI words it in its language). */
export function decodeFailureMessage(f: DecodeFailure): string {
  return `Line ${f.line}, byte ${f.byteInLine} (${f.bytes}): the bytes are not valid ${ENCODING_NAMES[f.encoding]}.`;
}

const decoders = new Map<TextEncodingId, InstanceType<typeof TextDecoder>>();

function decoder(encoding: TextEncodingId): InstanceType<typeof TextDecoder> {
  let d = decoders.get(encoding);
  if (!d) {
    const label = encoding === 'utf8' ? 'utf-8' : encoding === 'utf16le' ? 'utf-16le' : encoding === 'utf16be' ? 'utf-16be' : 'shift_jis';
    d = new TextDecoder(label, { fatal: true, ignoreBOM: true });
    decoders.set(encoding, d);
  }
  return d;
}

/** 0-based offset of the first byte that `encoding` does not decode (the length when the end is cut short). */
function firstInvalid(b: Uint8Array, encoding: TextEncodingId): number {
  switch (encoding) {
    case 'utf8':
      return firstInvalidUtf8(b);
    case 'shiftjis':
      return firstInvalidShiftJis(b);
    default:
      return firstInvalidUtf16(b, encoding === 'utf16le');
  }
}

function firstInvalidUtf8(b: Uint8Array): number {
  const n = b.length;
  let i = 0;
  while (i < n) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    const need = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : 0;
    if (need === 0) return i;
    // The second byte's range excludes overlong forms, surrogates and code points above U+10FFFF.
    const lo = c === 0xe0 ? 0xa0 : c === 0xf0 ? 0x90 : 0x80;
    const hi = c === 0xed ? 0x9f : c === 0xf4 ? 0x8f : 0xbf;
    if (i + 1 >= n || b[i + 1]! < lo || b[i + 1]! > hi) return i;
    for (let k = 2; k <= need; k++) if (i + k >= n || b[i + k]! < 0x80 || b[i + k]! > 0xbf) return i;
    i += need + 1;
  }
  return n;
}

function firstInvalidUtf16(b: Uint8Array, le: boolean): number {
  const n = b.length - (b.length % 2);
  for (let i = 0; i < n; i += 2) {
    const u = le ? b[i]! | (b[i + 1]! << 8) : (b[i]! << 8) | b[i + 1]!;
    if (u >= 0xdc00 && u <= 0xdfff) return i;
    if (u >= 0xd800 && u <= 0xdbff) {
      const v = i + 3 < b.length ? (le ? b[i + 2]! | (b[i + 3]! << 8) : (b[i + 2]! << 8) | b[i + 3]!) : -1;
      if (v < 0xdc00 || v > 0xdfff) return i;
      i += 2;
    }
  }
  return n;
}

/** Which single bytes and which byte pairs the Shift_JIS decoder reads, learned from the decoder itself once. */
let sjisTables: { single: Uint8Array; pair: Uint8Array } | undefined;

function shiftJisTables(): { single: Uint8Array; pair: Uint8Array } {
  if (sjisTables) return sjisTables;
  const d = decoder('shiftjis');
  const reads = (bytes: number[]) => {
    try {
      d.decode(Uint8Array.from(bytes));
      return 1;
    } catch {
      return 0;
    }
  };
  const single = new Uint8Array(256);
  const pair = new Uint8Array(65536);
  for (let c = 0; c < 256; c++) {
    single[c] = reads([c]);
    if (single[c] || c < 0x81) continue;
    for (let t = 0x40; t < 0x100; t++) pair[(c << 8) | t] = reads([c, t]);
  }
  sjisTables = { single, pair };
  return sjisTables;
}

function firstInvalidShiftJis(b: Uint8Array): number {
  const { single, pair } = shiftJisTables();
  const n = b.length;
  let i = 0;
  while (i < n) {
    const c = b[i]!;
    if (single[c]) i++;
    else if (i + 1 < n && pair[(c << 8) | b[i + 1]!]) i += 2;
    else return i;
  }
  return n;
}

/** 'utf16le' / 'utf16be' when a NUL is in most odd (LE) or most even (BE) bytes of the first 64 KiB, and rarely in the others. */
export function looksLikeUtf16(bytes: Uint8Array): 'utf16le' | 'utf16be' | undefined {
  const n = Math.min(bytes.length, 65536) & ~1;
  if (n < 4) return undefined;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) even++;
    if (bytes[i + 1] === 0) odd++;
  }
  const pairs = n / 2;
  if (odd >= pairs * 0.3 && even <= pairs * 0.05) return 'utf16le';
  if (even >= pairs * 0.3 && odd <= pairs * 0.05) return 'utf16be';
  return undefined;
}

function hasCharFrom(text: string, from: number): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= from) return true;
  return false;
}

/** More than half of the non-ASCII characters are half-width katakana, private use (user-defined) or U+0080. */
function mostlyRare(text: string): boolean {
  let other = 0;
  let rare = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if ((c >= 0xff61 && c <= 0xff9f) || (c >= 0xe000 && c <= 0xf8ff) || c === 0x80) rare++;
    else other++;
  }
  return rare > other;
}

export type ExportEncodingId = 'utf8' | 'shiftjis';

/** The text as bytes: UTF-8 as written (a CSV's BOM included), or Shift_JIS (CP932) without a BOM. Check `unencodableChars` first. */
export function encodeText(text: string, encoding: ExportEncodingId): Uint8Array {
  if (encoding === 'utf8') return new TextEncoder().encode(text);
  return Uint8Array.from(iconv.encode(text.startsWith('\ufeff') ? text.slice(1) : text, 'cp932'));
}

/** The distinct characters of `text` that do not come back unchanged from CP932 (no form there), in order of appearance. */
export function unencodableChars(text: string): string[] {
  const body = text.startsWith('\ufeff') ? text.slice(1) : text;
  if (roundTrips(body)) return [];
  const out: string[] = [];
  const seen = new Set<string>();
  for (const ch of body) {
    if (ch.charCodeAt(0) < 0x80 || seen.has(ch)) continue;
    seen.add(ch);
    if (!roundTrips(ch)) out.push(ch);
  }
  return out;
}

function roundTrips(s: string): boolean {
  const bytes = iconv.encode(s, 'cp932');
  try {
    return decoder('shiftjis').decode(bytes) === s;
  } catch {
    return false;
  }
}

/** A cell with characters that have no CP932 form: its record (0: the header) and cell index. */
export interface UnencodableCell {
  record: number;
  cell: number;
  chars: string[];
}

/** The cells of `records` holding characters with no CP932 form (a fast whole-text check first). */
export function unencodableCells(records: readonly (readonly string[])[]): UnencodableCell[] {
  const out: UnencodableCell[] = [];
  records.forEach((r, record) =>
    r.forEach((text, cell) => {
      if (!/[^\x00-\x7f]/.test(text)) return;
      const chars = unencodableChars(text);
      if (chars.length > 0) out.push({ record, cell, chars });
    }),
  );
  return out;
}
