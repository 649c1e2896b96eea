// The table's unsent edits kept between sessions, without vscode: one entry per project
// and service (its URL and the signed-in login, never a secret) in a Memento-like store,
// written a short while after each change and at once when asked (a tab closed, the
// window going away). When a table opens again the kept edits are checked against the
// values read now: an edit whose item is gone, or whose value on the service changed
// since the edit was made, is held apart and said, never applied silently.
import { type CellChange, type CellEdit, sameValue } from './edits';

/** One kept edit: the item, the field, the value to send and the value read when it was made. */
export interface KeptEdit {
  id: string;
  field: string;
  value: unknown;
  before: unknown;
}

/** What is stored under a key (the shape is checked when read: a store is input too). */
export interface KeptEntry {
  v: 1;
  /** When it was written (ISO time): shown in the log, never used to decide. */
  savedAt: string;
  edits: KeptEdit[];
}

/** The part of a vscode.Memento the store uses. */
export interface KeptState {
  get(key: string): unknown;
  update(key: string, value: unknown): Thenable<void>;
}

const PREFIX = 'workItemStudio.table.kept';

/**
 * The service of a key: the URL without user name, password, query or fragment (a URL
 * typed as `https://user:secret@host/` must not put the secret in the store), its path
 * without the trailing slash; the login as given (the user's ID when the login is not known).
 */
export function serviceOf(baseUrl: string, login: string | undefined): string {
  let url = baseUrl.trim();
  try {
    const u = new URL(url);
    url = `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    url = url.replace(/[?#].*$/, '').replace(/\/+$/, '');
  }
  return `${url}|${login ?? ''}`;
}

/** The store key of a project (or a table of items outside a known project) on a service. */
export function keptKey(o: { baseUrl: string; login: string | undefined; projectId: string | undefined }): string {
  return `${PREFIX}:${serviceOf(o.baseUrl, o.login)}|${o.projectId ? `project:${o.projectId}` : 'items'}`;
}

const isEdit = (e: unknown): e is KeptEdit =>
  typeof e === 'object' && e !== null && typeof (e as KeptEdit).id === 'string' && (e as KeptEdit).id !== '' && typeof (e as KeptEdit).field === 'string' && (e as KeptEdit).field !== '' && 'value' in e;

/** A stored value read back: the well-formed edits (the others counted), or none. */
export function readEntry(raw: unknown): { edits: KeptEdit[]; dropped: number; savedAt?: string } {
  if (typeof raw !== 'object' || raw === null || (raw as { v?: unknown }).v !== 1 || !Array.isArray((raw as { edits?: unknown }).edits)) {
    return { edits: [], dropped: raw === undefined ? 0 : 1 };
  }
  const list = (raw as { edits: unknown[] }).edits;
  const edits = list.filter(isEdit).map((e) => ({ id: e.id, field: e.field, value: e.value, before: e.before ?? null }));
  const savedAt = (raw as { savedAt?: unknown }).savedAt;
  return { edits, dropped: list.length - edits.length, ...(typeof savedAt === 'string' ? { savedAt } : {}) };
}

/** An edit held apart when a table opened: why, and the value read now. */
export interface HeldEdit extends KeptEdit {
  reason: 'gone' | 'changed';
  /** The value read now (when changed). */
  now?: unknown;
}

/** The kept edits sorted against the rows read now. */
export interface Reconciled {
  /** Apply these (the item is here and still holds the value the edit was made on). */
  apply: CellChange[];
  /** Not applied: said to the user, kept until applied anyway or discarded. */
  held: HeldEdit[];
  /** The service already holds the edited value (sent from elsewhere): nothing left to do. */
  done: KeptEdit[];
  /** Items this table does not show (another table of the project): kept as they are. */
  elsewhere: KeptEdit[];
}

/**
 * Sorts kept edits against the rows read. An item absent from the rows is `gone` when the
 * table shows the whole project or the service said it is missing, else it belongs to
 * another table of the project (`elsewhere`).
 */
export function reconcile(
  kept: readonly KeptEdit[],
  rows: ReadonlyMap<string, { fields: Readonly<Record<string, unknown>> }>,
  o: { wholeProject: boolean; missing?: ReadonlySet<string> },
): Reconciled {
  const out: Reconciled = { apply: [], held: [], done: [], elsewhere: [] };
  for (const e of kept) {
    const row = rows.get(e.id);
    if (!row) {
      if (o.wholeProject || o.missing?.has(e.id)) out.held.push({ ...e, reason: 'gone' });
      else out.elsewhere.push(e);
      continue;
    }
    const now = row.fields[e.field];
    if (sameValue(now, e.value)) out.done.push(e);
    else if (!sameValue(now, e.before)) out.held.push({ ...e, reason: 'changed', now: now ?? null });
    else out.apply.push({ id: e.id, field: e.field, value: e.value });
  }
  return out;
}

/**
 * What a table writes: the stored edits of items it does not show stay as they are; for the
 * items it shows, its pending edits and the edits it holds apart replace what was stored.
 */
export function mergeKept(stored: readonly KeptEdit[], shown: ReadonlySet<string>, pending: readonly CellEdit[], held: readonly KeptEdit[]): KeptEdit[] {
  const mine = new Set([...shown, ...held.map((h) => h.id)]);
  const out: KeptEdit[] = stored.filter((e) => !mine.has(e.id));
  const seen = new Set<string>();
  for (const e of [...pending, ...held]) {
    const k = `${e.id}\u0000${e.field}`;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push({ id: e.id, field: e.field, value: e.value, before: e.before ?? null });
  }
  return out;
}

/**
 * The kept edits of every table, over workspaceState (or globalState without a workspace).
 * `schedule` writes a key after `delayMs` (the last producer wins); `flush` writes every
 * scheduled key now. An entry with no edits is removed rather than stored empty.
 */
export class KeptStore {
  private readonly due = new Map<string, () => readonly KeptEdit[]>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly delayMs: number;
  private readonly now: () => Date;
  private readonly onError: (key: string, e: unknown) => void;

  constructor(
    private readonly state: () => KeptState,
    o: { delayMs?: number; now?: () => Date; onError?: (key: string, e: unknown) => void } = {},
  ) {
    this.delayMs = o.delayMs ?? 300;
    this.now = o.now ?? (() => new Date());
    this.onError = o.onError ?? (() => undefined);
  }

  /** What a key holds: a scheduled write's edits first, else the stored ones. */
  read(key: string): { edits: KeptEdit[]; dropped: number; savedAt?: string } {
    const later = this.due.get(key);
    if (later) return { edits: [...later()], dropped: 0 };
    return readEntry(this.state().get(key));
  }

  /** Writes the key soon with what `make` gives then. */
  schedule(key: string, make: () => readonly KeptEdit[]): void {
    this.due.set(key, make);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), this.delayMs);
  }

  /**
   * Writes every scheduled key now. The store is given the values before this returns (a
   * Memento holds a value once `update` is called), so a window closing right after still has them.
   */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const due = [...this.due];
    this.due.clear();
    return Promise.all(due.map(([key, make]) => this.put(key, make()))).then(() => undefined);
  }

  /** Writes a key now (a scheduled write of it is replaced). */
  write(key: string, edits: readonly KeptEdit[]): Promise<void> {
    this.due.delete(key);
    return this.put(key, edits);
  }

  private put(key: string, edits: readonly KeptEdit[]): Promise<void> {
    const value: KeptEntry | undefined = edits.length === 0 ? undefined : { v: 1, savedAt: this.now().toISOString(), edits: edits.map((e) => ({ ...e })) };
    let written: Thenable<void>;
    try {
      written = this.state().update(key, value);
    } catch (e) {
      this.onError(key, e);
      return Promise.resolve();
    }
    // On failure the previous entry stays; the next change writes again.
    return Promise.resolve(written).then(undefined, (e: unknown) => this.onError(key, e));
  }

  dispose(): Promise<void> {
    return this.flush();
  }
}

/** Items some of whose edits a re-read found on the service (sent): their rows stay in sight, marked. */
export function sentItems(before: readonly CellEdit[], after: readonly CellEdit[], reread: readonly { id: string }[]): string[] {
  const count = (list: readonly CellEdit[]): Map<string, number> => {
    const m = new Map<string, number>();
    for (const e of list) m.set(e.id, (m.get(e.id) ?? 0) + 1);
    return m;
  };
  const b = count(before);
  const a = count(after);
  return reread.filter((r) => (b.get(r.id) ?? 0) > (a.get(r.id) ?? 0)).map((r) => r.id);
}
