import * as assert from 'node:assert/strict';
import * as iconv from 'iconv-lite';
import { decodeAs, detectText, encodeText, importTable, looksLikeUtf16, unencodableCells, unencodableChars, type DetectedText } from '../../src/table/model';
import { CATALOGUE, COLUMNS, ROWS_BY_ID, resolveUser, userName } from './table-fixtures';

const bytes = (...parts: (number[] | string)[]) => Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p, 'latin1')] : p)));
const decoded = (r: DetectedText) => {
  assert.equal(r.kind, 'decoded', JSON.stringify(r));
  return (r as Extract<DetectedText, { kind: 'decoded' }>).decoded;
};

describe('table import: the encoding of a file', () => {
  it('reads a Shift_JIS (CP932) file of Japanese Excel, without a BOM, Microsoft extensions included', () => {
    // "Id,名前\r\n1,①㈱テスト\r\n" written by hand as CP932 bytes (no library on this side).
    const file = bytes('Id,', [0x96, 0xbc, 0x91, 0x4f], '\r\n1,', [0x87, 0x40, 0x87, 0x8a, 0x83, 0x65, 0x83, 0x58, 0x83, 0x67], '\r\n');
    const d = decoded(detectText(file));
    assert.equal(d.encoding, 'shiftjis');
    assert.equal(d.text, 'Id,名前\r\n1,①㈱テスト\r\n');
    assert.equal(d.bom, false);
  });

  it('reads a longer Shift_JIS file made by iconv-lite (kanji, kana, full-width forms, ～)', () => {
    const text = 'ID,名称,担当者,メモ\r\n101,設計レビュー,鈴木 一郎,①～③を確認\r\n102,ＡＢＣ社向け,田中 花子,㈱サンプル\r\n';
    const d = decoded(detectText(iconv.encode(text, 'cp932')));
    assert.equal(d.encoding, 'shiftjis');
    assert.equal(d.text, text);
  });

  it('imports a Shift_JIS file as the same edits as its UTF-8 twin (Japanese headers and names, no U+FFFD)', () => {
    const text = 'ID,名称,リーダー\r\n101,設計①レビュー,田中 花子\r\n102,ﾃｽﾄ実装㈱,鈴木 一郎\r\n';
    const ctx = { columns: COLUMNS, rows: ROWS_BY_ID, catalogue: CATALOGUE, resolveUser, userName };
    const fromSjis = importTable(decoded(detectText(iconv.encode(text, 'cp932'))).text, ctx);
    const fromUtf8 = importTable(decoded(detectText(Buffer.from(text, 'utf8'))).text, ctx);
    assert.deepEqual(fromSjis.problems, []);
    assert.deepEqual(fromSjis.changes, fromUtf8.changes);
    assert.deepEqual(fromSjis.changes.filter((c) => c.field === 'Name').map((c) => c.value), ['設計①レビュー', 'ﾃｽﾄ実装㈱']);
  });

  it('reads UTF-8 with a BOM and without one (Japanese text in three-byte sequences is taken as UTF-8)', () => {
    const text = 'ID,名称\r\n1,設計\r\n';
    const withBom = decoded(detectText(Uint8Array.from([0xef, 0xbb, 0xbf, ...Buffer.from(text, 'utf8')])));
    assert.deepEqual([withBom.encoding, withBom.bom, withBom.how, withBom.text], ['utf8', true, 'bom', text]);
    const without = decoded(detectText(Buffer.from(text, 'utf8')));
    assert.deepEqual([without.encoding, without.bom, without.how, without.text], ['utf8', false, 'detected', text]);
  });

  it('reads ASCII as UTF-8 without asking', () => {
    const d = decoded(detectText(Buffer.from('Id,Name\n1,abc\n')));
    assert.deepEqual([d.encoding, d.how], ['utf8', 'ascii']);
  });

  it('reads UTF-16 LE and BE with a BOM (Excel\'s "Unicode text", tab-separated)', () => {
    const text = 'ID\t名称\r\n1\t😀設計\r\n';
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.from(le);
    for (let i = 0; i < be.length; i += 2) [be[i], be[i + 1]] = [be[i + 1]!, be[i]!];
    const a = decoded(detectText(le));
    assert.deepEqual([a.encoding, a.bom, a.text], ['utf16le', true, text]);
    const b = decoded(detectText(be));
    assert.deepEqual([b.encoding, b.bom, b.text], ['utf16be', true, text]);
  });

  it('says that UTF-16 without a BOM (NUL in every other byte) looks like UTF-16, instead of reading NULs as text', () => {
    assert.deepEqual(detectText(Buffer.from('Id,Name\r\n1,abc\r\n', 'utf16le')), { kind: 'unsure', reason: 'utf16NoBom', likely: 'utf16le' });
    const be = Buffer.from('Id,Name\r\n1,名前\r\n', 'utf16le').swap16();
    assert.deepEqual(detectText(be), { kind: 'unsure', reason: 'utf16NoBom', likely: 'utf16be' });
    assert.equal(looksLikeUtf16(Buffer.from('Id,Name\n1,a\u0000b\n')), undefined, 'one NUL in a UTF-8 file is not UTF-16');
  });

  it('keeps a lone NUL of a UTF-8 file as U+0000 for the cell checks (it is valid UTF-8, not an encoding problem)', () => {
    const d = decoded(detectText(bytes('Id,Name\n1,a', [0], 'b\n')));
    assert.equal(d.text, 'Id,Name\n1,a\u0000b\n');
  });

  it('refuses bytes that decode in no encoding, naming the line and the byte (never U+FFFD)', () => {
    // Line 3 holds 0x82 0xFF: not UTF-8, and 0xFF is no Shift_JIS trail byte.
    const file = bytes('Id,', [0x96, 0xbc, 0x91, 0x4f], '\r\n1,', [0x83, 0x65], '\r\n2,ab', [0x82, 0xff], '\r\n');
    const r = detectText(file);
    assert.equal(r.kind, 'failed');
    if (r.kind !== 'failed') return;
    assert.deepEqual({ ...r.failure }, { encoding: 'shiftjis', offset: 19, line: 3, byteInLine: 5, bytes: '82 FF 0D 0A' });
    assert.deepEqual(r.failures.map((f) => [f.encoding, f.line]), [['shiftjis', 3], ['utf8', 1]], 'UTF-8 stops on line 1 already');
  });

  it('names the UTF-8 position when UTF-8 reads farther (one bad byte in a UTF-8 file)', () => {
    const file = Uint8Array.from([...Buffer.from('Id,名称\n1,設計\n2,x'), 0xc3, 0x28, ...Buffer.from('\n')]);
    const r = detectText(file);
    assert.equal(r.kind, 'failed');
    if (r.kind !== 'failed') return;
    assert.equal(r.failure.encoding, 'utf8');
    assert.deepEqual([r.failure.line, r.failure.byteInLine, r.failure.bytes], [3, 4, 'C3 28 0A']);
  });

  it('refuses a UTF-8 file with a BOM that holds a bad byte (the BOM decides; no other encoding is tried)', () => {
    const r = detectText(Uint8Array.from([0xef, 0xbb, 0xbf, ...Buffer.from('a\r\nb'), 0xff]));
    assert.equal(r.kind, 'failed');
    if (r.kind === 'failed') assert.deepEqual([r.failure.encoding, r.failure.line, r.failure.byteInLine, r.failure.offset], ['utf8', 2, 2, 7]);
  });

  it('refuses UTF-16 with an unpaired surrogate or an odd byte at the end, by line', () => {
    const lone = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a\nb', 'utf16le'), Buffer.from([0x00, 0xd8]), Buffer.from('c', 'utf16le')]);
    const r = decodeAs(lone, 'utf16le');
    assert.equal(r.ok, false);
    if (!r.ok) assert.deepEqual([r.failure.line, r.failure.byteInLine, r.failure.bytes], [2, 3, '00 D8 63 00']);
    const odd = decodeAs(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('ab', 'utf16le').swap16(), Buffer.from([0x41])]), 'utf16be');
    assert.equal(odd.ok, false);
    if (!odd.ok) assert.equal(odd.failure.offset, 6);
  });

  it('counts lone CR and CRLF as line ends in the position', () => {
    const r = decodeAs(bytes('a\rb\r\nc', [0xff]), 'utf8');
    assert.equal(r.ok, false);
    if (!r.ok) assert.deepEqual([r.failure.line, r.failure.byteInLine], [3, 2]);
  });

  it('is unsure when only two-byte UTF-8 sequences make the text (also valid Shift_JIS half-width katakana)', () => {
    assert.deepEqual(detectText(Buffer.from('Id,Name\n1,Café\n', 'utf8')), { kind: 'unsure', reason: 'bothDecode', likely: 'utf8' });
    const sjis = decodeAs(Buffer.from('Id,Name\n1,Café\n', 'utf8'), 'shiftjis');
    assert.ok(sjis.ok && sjis.decoded.text.includes('ﾃｩ'), 'the other reading');
  });

  it('is unsure when only Shift_JIS decodes it and the result is mostly half-width katakana (a Latin-1 file)', () => {
    assert.deepEqual(detectText(Buffer.from('Id,Name\n1,Ågren Öst\n', 'latin1')), { kind: 'unsure', reason: 'rareShiftJis', likely: 'shiftjis' });
    // Mostly full-width Japanese with some half-width katakana: sure.
    assert.equal(decoded(detectText(iconv.encode('Id,名前\n1,設計ﾃｽﾄ工程の確認\n', 'cp932'))).encoding, 'shiftjis');
  });

  it('decodes as the encoding the user chose, strictly, with its own BOM skipped', () => {
    const r = decodeAs(Buffer.from('Id,Name\n1,Café\n', 'utf8'), 'shiftjis');
    assert.ok(r.ok && r.decoded.how === 'chosen');
    const le = decodeAs(Buffer.from('Id\n', 'utf16le'), 'utf16le');
    assert.ok(le.ok && le.decoded.text === 'Id\n');
    const wrong = decodeAs(iconv.encode('名前', 'cp932'), 'utf8');
    assert.ok(!wrong.ok && wrong.failure.line === 1 && wrong.failure.byteInLine === 1);
  });
});

describe('table export: Shift_JIS (CP932)', () => {
  it('writes CP932 bytes without the BOM, Microsoft extensions included, and they read back', () => {
    const text = '\ufeffID,名称\r\n1,①㈱～テスト\r\n';
    const out = encodeText(text, 'shiftjis');
    assert.deepEqual([...out.subarray(0, 3)], [0x49, 0x44, 0x2c], 'no BOM');
    assert.ok(Buffer.from(out).includes(Buffer.from([0x87, 0x40, 0x87, 0x8a])), '① ㈱ as NEC special characters');
    assert.equal(decoded(detectText(out)).text, text.slice(1));
    assert.deepEqual([...encodeText('\ufeffa', 'utf8')], [0xef, 0xbb, 0xbf, 0x61], 'UTF-8 keeps the BOM');
  });

  it('finds characters with no CP932 form (emoji, accented Latin, U+2212) instead of writing "?"', () => {
    assert.deepEqual(unencodableChars('設計 😀 café − ?'), ['😀', 'é', '−']);
    assert.deepEqual(unencodableChars('ID,名称,①'), []);
  });

  it('names the cells (record and cell) that hold them', () => {
    assert.deepEqual(unencodableCells([['ID', '名称'], ['1', 'ok'], ['2', 'naïve 😀']]), [{ record: 2, cell: 1, chars: ['ï', '😀'] }]);
  });
});
