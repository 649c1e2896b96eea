// The text of an import into the work item table: a file's bytes decoded (its BOM, a strict
// UTF-8 or Shift_JIS decode; where the bytes do not say, the encoding the user chose for this
// file before, else a question: src/table/model/encoding.ts) and the import limits checked
// before anything is parsed. A refusal is a sentence with the numbers (or the line and byte).
import * as vscode from 'vscode';
import { rowsText } from './importSummary';
import type { DecodeFailure, DecodedText, ImportLimits, LimitExceeded, TextEncodingId, UnsureReason } from './model';
import { core } from '../core/load';

/** workspaceState key: file URI → the encoding the user chose for it. */
export const ENCODINGS_KEY = 'workItemStudio.table.importEncodings';
const REMEMBERED_MAX = 100;

/** A refused import: the sentence shown, in the UI's language. */
export class ImportRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportRefused';
  }
}

export function currentLimits(): ImportLimits {
  const c = vscode.workspace.getConfiguration('workItemStudio.table');
  return core().importLimits(c.get('importMaxRows'), c.get('importMaxMegabytes'));
}

const num = (n: number) => n.toLocaleString('en-US');
const mib = (n: number) => (n / (1024 * 1024)).toLocaleString('en-US', { maximumFractionDigits: 1 });

/** The sentence of an exceeded limit; `source` names the file or the clipboard. */
export function limitMessage(source: string, e: LimitExceeded): string {
  if (e.what === 'bytes') {
    return vscode.l10n.t(
      'Nothing was imported: {0} is {1} MiB ({2} bytes), and an import may be at most {3} MiB (setting workItemStudio.table.importMaxMegabytes).',
      source, mib(e.actual), num(e.actual), mib(e.limit),
    );
  }
  return e.upperBound
    ? vscode.l10n.t(
      'Nothing was imported: {0} has up to {1} (counted by line breaks; quoted cells may hold line breaks, so there may be fewer), and an import may have at most {2} (setting workItemStudio.table.importMaxRows).',
      source, rowsText(e.actual), rowsText(e.limit),
    )
    : vscode.l10n.t('Nothing was imported: {0} has {1}, and an import may have at most {2} (setting workItemStudio.table.importMaxRows).', source, rowsText(e.actual), rowsText(e.limit));
}

/** Refuses a text over the row or byte limit (before any parse). */
export function checkTextLimits(source: string, text: string, limits: ImportLimits, bytes?: number): void {
  const over = core().checkByteLimit(bytes ?? core().utf8Length(text), limits) ?? core().checkRowLimit(text, limits);
  if (over) throw new ImportRefused(limitMessage(source, over));
}

export function encodingName(e: TextEncodingId, bom = false): string {
  return e === 'utf8' && bom ? vscode.l10n.t('UTF-8 with BOM') : core().ENCODING_NAMES[e];
}

function failureMessage(source: string, f: DecodeFailure, only: boolean): string {
  return only
    ? vscode.l10n.t('Cannot read {0} as {1}: line {2}, byte {3} of the line ({4}) is not valid {1}. Nothing was imported.', source, core().ENCODING_NAMES[f.encoding], f.line, f.byteInLine, f.bytes)
    : vscode.l10n.t(
      'Cannot read {0}: line {1}, byte {2} of the line ({3}) is neither UTF-8 nor Shift_JIS. Save it as "CSV UTF-8" and import it again. Nothing was imported.',
      source, f.line, f.byteInLine, f.bytes,
    );
}

export interface ReadFileOptions {
  /** The encoding to read it in (no detection, no question). */
  encoding?: TextEncodingId;
  state?: vscode.Memento;
  limits: ImportLimits;
}

/** Reads and decodes an import file: size checked before reading, rows after decoding. */
export async function readImportFile(uri: vscode.Uri, o: ReadFileOptions): Promise<DecodedText | undefined> {
  const source = vscode.workspace.asRelativePath(uri);
  const size = (await vscode.workspace.fs.stat(uri)).size;
  const over = core().checkByteLimit(size, o.limits);
  if (over) throw new ImportRefused(limitMessage(source, over));
  const bytes = await vscode.workspace.fs.readFile(uri);
  const decoded = await decodeFile(bytes, uri, source, o);
  if (decoded) checkTextLimits(source, decoded.text, o.limits, bytes.length);
  return decoded;
}

async function decodeFile(bytes: Uint8Array, uri: vscode.Uri, source: string, o: ReadFileOptions): Promise<DecodedText | undefined> {
  const as = (e: TextEncodingId): DecodedText => {
    const r = core().decodeAs(bytes, e);
    if (!r.ok) throw new ImportRefused(failureMessage(source, r.failure, true));
    return r.decoded;
  };
  if (o.encoding) return as(o.encoding);
  const detected = core().detectText(bytes);
  switch (detected.kind) {
    case 'decoded':
      return detected.decoded;
    case 'failed':
      throw new ImportRefused(failureMessage(source, detected.failure, detected.failures.length === 1));
    case 'unsure': {
      // The answer given for this file before stands for the question (only where the bytes do not say).
      const remembered = rememberedEncoding(o.state, uri);
      const again = remembered ? core().decodeAs(bytes, remembered) : undefined;
      if (again?.ok) return again.decoded;
      const picked = await askEncoding(bytes, source, detected.reason, detected.likely);
      if (!picked) return undefined;
      const decoded = as(picked);
      await remember(o.state, uri, picked);
      return decoded;
    }
  }
}

function rememberedEncoding(state: vscode.Memento | undefined, uri: vscode.Uri): TextEncodingId | undefined {
  const v = state?.get<Record<string, unknown>>(ENCODINGS_KEY)?.[uri.toString()];
  return core().isTextEncodingId(v) ? v : undefined;
}

async function remember(state: vscode.Memento | undefined, uri: vscode.Uri, e: TextEncodingId): Promise<void> {
  if (!state) return;
  const all = { ...(state.get<Record<string, unknown>>(ENCODINGS_KEY) ?? {}) };
  delete all[uri.toString()];
  all[uri.toString()] = e;
  const keys = Object.keys(all);
  for (const k of keys.slice(0, Math.max(0, keys.length - REMEMBERED_MAX))) delete all[k];
  await state.update(ENCODINGS_KEY, all);
}

/** Which encoding is it (as VS Code's Reopen with Encoding asks): each item shows a line as that encoding reads it. */
async function askEncoding(bytes: Uint8Array, source: string, reason: UnsureReason, likely: TextEncodingId): Promise<TextEncodingId | undefined> {
  const placeHolder =
    reason === 'utf16NoBom'
      ? vscode.l10n.t('{0} looks like UTF-16 without a byte order mark (every other byte is 0): which encoding is it?', source)
      : reason === 'bothDecode'
        ? vscode.l10n.t('{0} reads as UTF-8 and as Shift_JIS: which encoding is it?', source)
        : vscode.l10n.t('{0} is not UTF-8, and as Shift_JIS it is mostly half-width katakana: which encoding is it?', source);
  const order = [likely, ...core().TEXT_ENCODINGS.filter((e) => e !== likely)];
  const items = order.map((e) => {
    const r = core().decodeAs(bytes, e);
    return {
      label: core().ENCODING_NAMES[e],
      description: e === likely ? vscode.l10n.t('most likely') : undefined,
      detail: r.ok ? sampleLine(r.decoded.text) : vscode.l10n.t('does not decode: line {0}, byte {1}', r.failure.line, r.failure.byteInLine),
      encoding: e,
    };
  });
  const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Import CSV/TSV into Table'), placeHolder, matchOnDetail: true });
  return picked?.encoding;
}

/** The first line with a non-ASCII character (else the first line), shortened. */
function sampleLine(text: string): string {
  const lines = text.slice(0, 65536).split(/\r\n|\r|\n/);
  const line = lines.find((l) => /[^\x00-\x7f]/.test(l)) ?? lines[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
