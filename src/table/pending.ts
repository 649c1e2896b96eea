// Keeping a table's unsent work: the edits (per project and service, in the store of
// src/table/model/pending.ts), and the tab's own state (source, filter, selection) that
// the webview keeps with setState so that a window reload restores the tab.
//
// A WebviewPanel cannot refuse to close (there is no onWillDispose), so a close never
// depends on an answer: the edits are written when they change and again when the tab
// closes, and only then the question comes: keep them for next time (the default, also
// when the dialog is dismissed), discard them, or reopen the table. A custom editor
// with a dirty state could veto the close, but its dialog speaks of saving a file and
// cannot be answered by the tests; the table is not a document.
import * as vscode from 'vscode';
import type { HeldEdit, KeptStore, TableEdits } from './model';
import { core } from '../core/load';

/** The answers; undefined: the dialog was dismissed. */
export type CloseAnswer = 'keep' | 'discard' | 'reopen' | undefined;
export type HeldAnswer = 'apply' | 'discard' | undefined;

/** The questions about kept edits, behind one interface (tests answer them through the extension's setPrompts). */
export interface TablePrompts {
  /** A table closed with unsent edits: they are already kept; keep, discard or reopen. */
  closeWithEdits(q: { title: string; count: number; message: string; detail: string }): Promise<CloseAnswer>;
  /** Kept edits not applied when the table opened (item gone, value changed on the service). */
  heldEdits(q: { count: number; canApply: boolean; message: string; detail: string }): Promise<HeldAnswer>;
  /** Discard Edits: true to discard. */
  discardEdits(q: { count: number; message: string }): Promise<boolean>;
}

export const modalTablePrompts: TablePrompts = {
  async closeWithEdits(q) {
    const keep = vscode.l10n.t('Keep for Next Time');
    const reopen = vscode.l10n.t('Reopen Table');
    const discard = vscode.l10n.t('Discard Edits');
    const pick = await vscode.window.showWarningMessage(q.message, { modal: true, detail: q.detail }, keep, reopen, discard);
    return pick === keep ? 'keep' : pick === reopen ? 'reopen' : pick === discard ? 'discard' : undefined;
  },
  async heldEdits(q) {
    const apply = vscode.l10n.t('Apply Anyway');
    const discard = vscode.l10n.t('Discard Them');
    const pick = await vscode.window.showWarningMessage(`${q.message} ${q.detail}`, ...(q.canApply ? [apply] : []), discard);
    return pick === apply ? 'apply' : pick === discard ? 'discard' : undefined;
  },
  async discardEdits(q) {
    const discard = vscode.l10n.t('Discard Edits');
    return (await vscode.window.showWarningMessage(q.message, { modal: true }, discard)) === discard;
  },
};

/** "1 unsent edit" / "N unsent edits" in the UI's language. */
export function unsentEdits(n: number): string {
  return n === 1 ? vscode.l10n.t('1 unsent edit') : vscode.l10n.t('{0} unsent edits', n);
}

/** The close question's sentences. */
export function closeQuestion(title: string, count: number): { message: string; detail: string } {
  return {
    message: vscode.l10n.t('{0} was closed with {1}.', title, unsentEdits(count)),
    detail: vscode.l10n.t('They are kept and come back when this table is opened again. Discard them only if you do not want to send them.'),
  };
}

/** What a table's keeping needs of its panel. */
export interface KeeperHost {
  readonly store: KeptStore;
  readonly log: vscode.LogOutputChannel;
  readonly title: string;
  prompts(): TablePrompts;
  edits(): TableEdits;
  /** The IDs of the rows read. */
  shownIds(): ReadonlySet<string>;
  /** A field's name in the UI's language. */
  label(field: string): string;
  /** Applies changes as one undo step, the rows repainted; returns the cells changed. */
  apply(changes: readonly { id: string; field: string; value: unknown }[]): number;
}

const shortValue = (v: unknown): string => {
  const s = v === undefined || v === null || v === '' ? vscode.l10n.t('(empty)') : typeof v === 'string' ? v : JSON.stringify(v);
  return s.length > 40 ? `${s.slice(0, 39)}…` : s;
};

/** The kept edits of one open table: restored once its rows are read, written when they change. */
export class TableKeeper {
  private key: string | undefined;
  /** Kept edits not applied (said when the table opened), kept until applied anyway or discarded. */
  held: HeldEdit[] = [];
  /** The question about held edits, while it is open (tests wait for it). */
  asked: Promise<HeldAnswer> = Promise.resolve(undefined);

  constructor(private readonly host: KeeperHost) {}

  get bound(): boolean {
    return this.key !== undefined;
  }

  /** Unsent edits of this table: pending and held. */
  get count(): number {
    return this.host.edits().size + this.held.length;
  }

  /**
   * Binds the table to its key and brings back what was kept there: edits that still fit
   * are applied as one undo step; the others are held and said.
   */
  restore(key: string, rows: ReadonlyMap<string, { fields: Readonly<Record<string, unknown>> }>, o: { wholeProject: boolean; missing?: ReadonlySet<string> }): { applied: number; held: number; done: number } {
    this.key = key;
    const kept = this.host.store.read(key);
    if (kept.dropped > 0) this.host.log.warn(`Work item table ${this.host.title}: ${kept.dropped} kept edits were unreadable and are dropped`);
    if (kept.edits.length === 0) return { applied: 0, held: 0, done: 0 };
    const r = core().reconcile(kept.edits, rows, o);
    const applied = r.apply.length > 0 ? this.host.apply(r.apply) : 0;
    this.held = r.held;
    const { log, title } = this.host;
    log.info(`Work item table ${title}: ${kept.edits.length} kept edits (saved ${kept.savedAt ?? '?'}): ${applied} applied, ${r.held.length} held, ${r.done.length} already on the service, ${r.elsewhere.length} of items not in this table`);
    for (const h of r.held) log.info(`  held: ${h.id}/${h.field} ${h.reason === 'gone' ? 'item gone' : `was ${JSON.stringify(h.before)}, now ${JSON.stringify(h.now)}`}, kept ${JSON.stringify(h.value)}`);
    if (r.done.length > 0) this.changed();
    if (r.held.length > 0) this.asked = this.askHeld();
    return { applied, held: r.held.length, done: r.done.length };
  }

  private async askHeld(): Promise<HeldAnswer> {
    const held = this.held;
    const lines = held.slice(0, 10).map((h) =>
      h.reason === 'gone'
        ? vscode.l10n.t('#{0} {1}: the item is no longer in the table (kept: {2})', h.id, this.host.label(h.field), shortValue(h.value))
        : vscode.l10n.t('#{0} {1}: was {2} when edited, now {3} on the service (kept: {4})', h.id, this.host.label(h.field), shortValue(h.before), shortValue(h.now), shortValue(h.value)),
    );
    if (held.length > lines.length) lines.push(vscode.l10n.t('({0} more)', held.length - lines.length));
    const canApply = held.some((h) => h.reason === 'changed');
    const message = held.length === 1 ? vscode.l10n.t('1 kept edit of {0} was not applied:', this.host.title) : vscode.l10n.t('{0} kept edits of {1} were not applied:', held.length, this.host.title);
    const answer = await this.host.prompts().heldEdits({ count: held.length, canApply, message, detail: lines.join('; ') });
    if (answer === 'apply') {
      const changed = held.filter((h) => h.reason === 'changed');
      this.held = held.filter((h) => h.reason !== 'changed');
      this.host.apply(changed.map((h) => ({ id: h.id, field: h.field, value: h.value })));
      this.changed();
    } else if (answer === 'discard') {
      this.held = [];
      this.host.log.info(`Work item table ${this.host.title}: ${held.length} held edits discarded`);
      this.changed();
    }
    return answer;
  }

  /** The edits changed: written soon. */
  changed(): void {
    if (!this.key) return;
    const key = this.key;
    const stored = this.host.store.read(key).edits;
    this.host.store.schedule(key, () => core().mergeKept(stored, this.host.shownIds(), this.host.edits().all(), this.held));
  }

  /** Writes now (the tab closing, the window going away). */
  async flush(): Promise<void> {
    if (!this.key) return;
    this.changed();
    await this.host.store.flush();
  }

  /** Discard Edits: every pending edit taken back as one undo step, held ones dropped, the store updated; returns how many. */
  discard(): number {
    const n = this.count;
    this.held = [];
    this.host.apply(this.host.edits().all().map((e) => ({ id: e.id, field: e.field, value: e.before })));
    this.changed();
    return n;
  }

  /** Removes this table's edits (pending and held) from the store; the pending ones stay in memory (an undo step). */
  async forget(): Promise<void> {
    const mine = new Set([...this.host.shownIds(), ...this.held.map((h) => h.id)]);
    this.held = [];
    if (!this.key) return;
    await this.host.store.write(this.key, this.host.store.read(this.key).edits.filter((e) => !mine.has(e.id)));
  }
}
