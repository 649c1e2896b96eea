// Previews kept across window reloads: the values a Preview read, per request
// document, so that Send can still say which items changed since the preview after
// the window was reloaded (in memory they would be gone). One file per document
// (its URI hashed), replaced by the document's next preview; it counts only for the
// same document text and the same service, and only for MAX_AGE_MS. Files older
// than that are removed when a preview is kept. No vscode import.
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { ItemValues } from '../bulk/effects';
import { core } from '../core/load';

const FORMAT = 'workitem-studio.preview-values';
const VERSION = 1;
/** How long a kept preview counts: a week. */
export const MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** A document's send after its preview: when, which job (absent when the values before were not kept), and which text. */
export interface SentMark {
  at: Date;
  jobId?: string;
  /** sha256 of the text sent. */
  textHash: string;
}

export interface StoredPreview {
  /** The request document's URI. */
  uri: string;
  /** The service the values were read from (its base URL). */
  baseUrl: string;
  takenAt: Date;
  fields: string[];
  items: Map<string, ItemValues>;
  missing: string[];
  /** Set once the document was sent after this preview: its Before/After view sends no more. */
  sent?: SentMark;
}

interface Kept {
  uri: string;
  textHash: string;
  baseUrl: string;
  takenAt: string;
  fields: string[];
  items: Record<string, Record<string, unknown>>;
  missing: string[];
  sent?: { at: string; jobId?: string; textHash: string };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** The kept preview in `raw`, or undefined when it is not one (of this format and version). */
function parseKept(raw: string): Kept | undefined {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!isRecord(v) || v.format !== FORMAT || v.version !== VERSION) return undefined;
  const { uri, textHash, baseUrl, takenAt, fields, items } = v;
  const missing = v.missing ?? [];
  if (typeof uri !== 'string' || typeof textHash !== 'string' || typeof baseUrl !== 'string' || typeof takenAt !== 'string') return undefined;
  if (!isStrings(fields) || !isStrings(missing) || !isRecord(items) || !Object.values(items).every(isRecord)) return undefined;
  const kept: Kept = { uri, textHash, baseUrl, takenAt, fields, items: items as Kept['items'], missing };
  const sent = v.sent;
  if (isRecord(sent) && typeof sent.at === 'string' && typeof sent.textHash === 'string' && (sent.jobId === undefined || typeof sent.jobId === 'string')) {
    kept.sent = { at: sent.at, textHash: sent.textHash, ...(sent.jobId !== undefined ? { jobId: sent.jobId } : {}) };
  }
  return kept;
}

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

function sentOfKept(k: Kept): SentMark | undefined {
  if (!k.sent) return undefined;
  const at = new Date(k.sent.at);
  if (Number.isNaN(at.getTime())) return undefined;
  return { at, textHash: k.sent.textHash, ...(k.sent.jobId !== undefined ? { jobId: k.sent.jobId } : {}) };
}

function sentForFile(m: SentMark): Kept['sent'] {
  return { at: m.at.toISOString(), textHash: m.textHash, ...(m.jobId !== undefined ? { jobId: m.jobId } : {}) };
}

export class PreviewStore {
  private counter = 0;

  constructor(
    readonly dir: string,
    private readonly maxAgeMs = MAX_AGE_MS,
  ) {}

  private fileOf(uri: string): string {
    return path.join(this.dir, `${sha256(uri).slice(0, 32)}.json`);
  }

  /** Keeps the values of a document's preview (replacing its previous one), then removes the expired ones. */
  async save(p: StoredPreview & { text: string }): Promise<void> {
    await fsp.mkdir(this.dir, { recursive: true });
    const data = {
      format: FORMAT,
      version: VERSION,
      uri: p.uri,
      textHash: sha256(p.text),
      baseUrl: p.baseUrl,
      takenAt: p.takenAt.toISOString(),
      fields: p.fields,
      items: Object.fromEntries(p.items),
      missing: p.missing,
      ...(p.sent ? { sent: sentForFile(p.sent) } : {}),
    };
    await core().writeFileDurably(this.fileOf(p.uri), JSON.stringify(data), `${process.pid}.${++this.counter}`);
    await this.prune(p.takenAt);
  }

  /**
   * The preview kept for `uri`, when it was taken of this very `text` on the service at
   * `baseUrl` less than the maximum age before `now`; else undefined (also when the
   * file is unreadable: a kept preview is a convenience, never a reason to fail a send).
   */
  async load(uri: string, text: string, baseUrl: string, now = new Date()): Promise<StoredPreview | undefined> {
    let raw: string;
    try {
      raw = await fsp.readFile(this.fileOf(uri), 'utf8');
    } catch {
      return undefined;
    }
    const parsed = parseKept(raw);
    if (!parsed) return undefined;
    const takenAt = new Date(parsed.takenAt);
    const age = now.getTime() - takenAt.getTime();
    if (parsed.uri !== uri || parsed.textHash !== sha256(text) || parsed.baseUrl !== baseUrl || !(age >= 0 && age < this.maxAgeMs)) return undefined;
    const sent = sentOfKept(parsed);
    return { uri, baseUrl, takenAt, fields: parsed.fields, items: new Map(Object.entries(parsed.items)), missing: parsed.missing, ...(sent ? { sent } : {}) };
  }

  private async readKept(uri: string, now: Date): Promise<Kept | undefined> {
    let raw: string;
    try {
      raw = await fsp.readFile(this.fileOf(uri), 'utf8');
    } catch {
      return undefined;
    }
    const parsed = parseKept(raw);
    if (!parsed || parsed.uri !== uri) return undefined;
    const age = now.getTime() - new Date(parsed.takenAt).getTime();
    return age >= 0 && age < this.maxAgeMs ? parsed : undefined;
  }

  /**
   * Marks the preview kept for `uri` as sent (whatever text it was taken of: its view is of
   * this document, which has been sent since). Returns false when no preview is kept.
   */
  async markSent(uri: string, mark: SentMark, now = new Date()): Promise<boolean> {
    const kept = await this.readKept(uri, now);
    if (!kept) return false;
    const data = { format: FORMAT, version: VERSION, ...kept, sent: sentForFile(mark) };
    await core().writeFileDurably(this.fileOf(uri), JSON.stringify(data), `${process.pid}.${++this.counter}`);
    return true;
  }

  /** The send mark of the preview kept for `uri`, whatever text or service it was taken of. */
  async sentOf(uri: string, now = new Date()): Promise<SentMark | undefined> {
    const kept = await this.readKept(uri, now);
    return kept ? sentOfKept(kept) : undefined;
  }

  /** Removes kept previews older than the maximum age (by file time). Returns how many. */
  async prune(now = new Date()): Promise<number> {
    let names: string[];
    try {
      names = await fsp.readdir(this.dir);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names) {
      if (!/^[0-9a-f]{32}\.json$/.test(name)) continue;
      const file = path.join(this.dir, name);
      try {
        const st = await fsp.stat(file);
        if (now.getTime() - st.mtimeMs >= this.maxAgeMs) {
          await fsp.rm(file, { force: true });
          removed++;
        }
      } catch {
        /* gone meanwhile */
      }
    }
    return removed;
  }
}
