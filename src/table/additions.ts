// The new rows of one open table (items to add): made from drafts (Add Row, Add Sub-item,
// Duplicate Rows, an outline pasted, an import's rows without an ID) as one step of the
// table's undo, brought back with the kept edits after a reload, and, once their adds
// are sent, replaced by the items the service created, read with their IDs.
import type { ColumnDef, LoadedRow } from './model';
import type { NewItemDraft } from './model/drafts';
import type { NewRowAdds, ParentPlace } from './model/newRows';
import type { AddSpec } from '../schema/add-rules';
import type { JobPlan, RequestResult } from '../bulk/types';
import type { TableEditing } from './editing';
import type { PageRow, TableSource } from './protocol';
import { tableStrings } from './strings';
import { core } from '../core/load';

export interface AdditionsHost {
  rows(): LoadedRow[];
  setRows(rows: LoadedRow[]): void;
  readonly editing: TableEditing;
  readonly source: TableSource;
  /** Rows kept in sight after a send. */
  readonly sent: Set<string>;
  shownColumns(): ColumnDef[];
  /** The view computed again: now (awaited) or soon. */
  refresh(now: boolean): Promise<void>;
  /** Items read by ID. */
  read(ids: readonly string[]): Promise<LoadedRow[]>;
  /** Selects a cell in the page. */
  select(id: string, key: string): void;
}

export class TableAdditions {
  /** The number the next new row takes (new-1, new-2, …). */
  private next = 1;
  /** The adds of the last reviews, by their body: the new rows each carries (several reviews of the same rows: the same list). */
  private readonly reviewedAdds = new Map<string, string[]>();
  /** The view with the last new rows in it (tests and the selection wait for it). */
  settled: Promise<void> = Promise.resolve();

  constructor(private readonly host: AdditionsHost) {}

  /** Some new row was made in this table (the view then marks them). */
  get made(): boolean {
    return this.next > 1;
  }

  /** A new row as the page shows it (marked, its ID cell saying "New"). */
  shown<R extends PageRow>(row: R): R {
    return core().shownNewRow(row, this.host.shownColumns(), tableStrings().newRow);
  }

  /** Where an item sits as a parent: a row of the table, or the parent its rows name (the table's root folder). */
  placeOf(id: string): ParentPlace | undefined {
    const row = this.host.editing.row(id);
    if (row) return core().placeOfRow(row, this.host.editing.edits.fieldsOf(row));
    const child = this.host.rows().find((r) => core().idValue(r.fields['ParentId']) === id && !core().isNewRowId(r.id));
    if (child) return { id, level: child.level - 1, childPath: typeof child.fields['ParentName'] === 'string' ? child.fields['ParentName'] : '' };
    return id === this.host.source.rootId ? { id, level: this.host.source.level ?? 0, childPath: '' } : undefined;
  }

  /** New rows for drafts (tree order), made as one step of the table's undo; returns their IDs. */
  add(drafts: readonly NewItemDraft[]): string[] {
    return this.addWith(drafts, []).ids;
  }

  /** New rows and edits of other rows (an import's) as one step of the table's undo; `changed`: the cells of `also` that changed. */
  addWith(drafts: readonly NewItemDraft[], also: readonly { id: string; field: string; value: unknown }[]): { ids: string[]; changed: number } {
    if (drafts.length === 0) return { ids: [], changed: this.host.editing.applyChanges(also) };
    const made = core().makeNewRows(drafts, (id) => this.placeOf(id), this.next);
    this.put(made.rows, made.next);
    // Every cell of a new row is new: the rest of the count is of `also`.
    const changed = this.host.editing.applyChanges([...made.changes, ...also]) - made.changes.length;
    this.settled = this.host.refresh(true);
    return { ids: made.rows.map((r) => r.id), changed };
  }

  /** Selects a cell once the view has the new rows. */
  select(id: string, key: string): void {
    void this.settled.then(() => this.host.select(id, key));
  }

  /** The new rows kept edits name, made again (their values are applied with the other kept edits). */
  restore(kept: readonly { id: string; field: string; value: unknown }[]): void {
    const again = core().keptNewRows(kept, (id) => this.placeOf(id));
    if (again.rows.length > 0) this.put(again.rows, again.next);
  }

  private put(rows: readonly LoadedRow[], next: number): void {
    this.next = Math.max(this.next, next);
    const all = core().insertRows(this.host.rows(), rows);
    this.host.setRows(all);
    // The new rows, and their parents now shown as containers.
    const parents = new Set(rows.map((r) => core().idValue(r.fields['ParentId'])));
    this.host.editing.setRows([...rows, ...all.filter((r) => parents.has(r.id) && !rows.includes(r))]);
  }

  /** A review opened these adds: a job that sends one of them takes its rows out of the table. */
  reviewed(added: NewRowAdds): void {
    added.adds.forEach((add, i) => this.reviewedAdds.set(addKey(add), added.rowsOf[i]!));
  }

  /**
   * A job ended: the new rows of each add it made (as reviewed, whatever the service keeps
   * of the body) and the items it created. Undefined when none of its adds is this table's.
   */
  sentBy(plan: Pick<JobPlan, 'parts' | 'requests'>, requests: readonly RequestResult[]): { rows: string[]; created: string[] } | undefined {
    const rows: string[] = [];
    const created: string[] = [];
    for (const a of core().addedItems(plan, requests)) {
      if (a.state !== 'succeeded') continue;
      const part = plan.parts[a.part]?.add;
      const mine = part ? this.reviewedAdds.get(addKey(part)) : undefined;
      if (!mine) continue;
      this.reviewedAdds.delete(addKey(part!));
      rows.push(...mine);
      created.push(...a.ids);
    }
    return rows.length > 0 ? { rows, created } : undefined;
  }

  /**
   * After a send: the new rows whose adds were sent leave the table (their edits with them),
   * and the items the service created take their place, read by ID and put below their
   * parents, kept in sight as sent rows. Returns how many were read.
   */
  async replace(sent: readonly string[], created: readonly string[]): Promise<number> {
    const gone = new Set(sent);
    const { editing } = this.host;
    if (gone.size > 0) {
      editing.forget(gone);
      this.host.setRows(this.host.rows().filter((r) => !gone.has(r.id)));
    }
    const wanted = created.filter((id) => !editing.row(id));
    if (wanted.length > 0) {
      const read = await this.host.read(wanted);
      const kids = new Set(read.map((x) => core().idValue(x.fields['ParentId'])));
      // Depth first as created (a parent before its children): each placed below a row of the table or one placed before it, all put in at once.
      const placed = new Map<string, ParentPlace>();
      const fresh: LoadedRow[] = [];
      for (const row of read) {
        const parentId = core().idValue(row.fields['ParentId']) ?? '';
        const parent = placed.get(parentId) ?? this.placeOf(parentId);
        if (!parent) continue;
        const r: LoadedRow = { ...row, level: parent.level + 1, hasChildren: kids.has(row.id), fields: { ...row.fields, ParentName: parent.childPath === '' ? null : parent.childPath } };
        placed.set(r.id, core().placeOfRow(r, r.fields));
        fresh.push(r);
        this.host.sent.add(r.id);
      }
      if (fresh.length > 0) this.put(fresh, this.next);
    }
    await this.host.refresh(true);
    return wanted.length;
  }
}

/** An add told by its parent and its body, without `metadata` (which the job may add to). */
function addKey(add: AddSpec): string {
  const strip = (item: AddSpec['item']): unknown => {
    const { metadata: _metadata, subItems, ...rest } = item;
    return { ...rest, ...(subItems ? { subItems: subItems.map(strip) } : {}) };
  };
  return canonical([add.parentId, strip(add.item)]);
}

/** JSON with object keys sorted (a body read back from a document may order its members otherwise). */
function canonical(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v ?? null);
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o).filter((k) => o[k] !== undefined).sort().map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
}
