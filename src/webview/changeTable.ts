// The before → after table of a preview (current → expected) or of a job's
// results (before → after), as an HTML section for the webviews of the result
// view machinery: summary counts per field at the top, then a virtualized table
// (only the rows in sight are in the DOM), so 20,000 items stay fast.
// No vscode import; every sentence comes from `ChangeTableStrings`.
import type { EffectNote, EffectProblem, EffectsOptions, FieldVisitor, ItemEffect, ItemValues } from '../bulk/effects';
import type { UpdateWorkItemsBody } from '../schema/api';
import type { ChangeRow } from '../bulk/jobValues';
import { escapeHtml } from './html';
import { core } from '../core/load';
import { CellState, type ChangeTableHead, type ColumnWords, type FieldCounts, type ItemRow, type TableLine } from './protocol';
import { formatValue, USER_FIELDS } from './values';

export { CellState, type ChangeTableHead, type FieldCounts, type ItemRow } from './protocol';
export { formatValue, hoursText, MINUTE_FIELDS, USER_FIELDS, type ValueLabels } from './values';

export interface ChangeTable {
  kind: 'preview' | 'result';
  /** The fields' system names (ActualProgress), shown on hover. */
  fields: string[];
  /** The fields' names as people read them (進捗率, Progress), in `fields` order; the system name where absent. */
  labels?: string[];
  rows: ItemRow[];
  counts: FieldCounts[];
  /** Sentences shown above the table (notes, problems, what could not be read). */
  lines: TableLine[];
  /** Names of the user IDs the table shows (assignments, leaders), as the user directory knows them. */
  people?: Record<string, string>;
  /** Names of list values by field (item types, statuses), as the project's profile gives them. */
  choices?: Record<string, Record<string, string>>;
}

export interface ChangeTableStrings {
  heading: { preview: string; result: string };
  column: ColumnWords;
  computed: string;
  empty: string;
  filter: { all: string; changed: string; problems: string; unexpected: string; search: string; /** The label of the list that picks which items are shown. */ show?: string };
  shown(count: number, total: number): string;
  note(note: EffectNote, items: number): string;
  problem(p: EffectProblem): string;
  problemCount(code: EffectProblem['code'], items: number): string;
  /** A field's name as people read it (進捗率 for ActualProgress); the system name when not given. */
  field?(systemName: string): string;
  /** Hours and minutes, `{0}`-templates ("{0} h", "{0} min"); English when not given. */
  hours?: string;
  minutes?: string;
  /** An item to be added, in the ID column and as its values before; "(new)" when not given. */
  newItem?: string;
  /** The remark of an item to be added: where it goes. */
  addedBelow?(parentId: string): string;
  /** The remark of an item the change deletes. */
  toBeDeleted?: string;
}

/** An item a change adds, as the preview shows it: where it goes, how deep below that, its fields. */
export interface NewItemRow {
  parentId: string;
  /** 0 for the item added directly below the parent, 1 for its sub-items, ... */
  depth: number;
  fields: Readonly<Record<string, unknown>>;
}

export const ENGLISH_CHANGE_TABLE: ChangeTableStrings = {
  heading: { preview: 'Current → expected values', result: 'Before → after' },
  column: { id: 'ID', name: 'Name', remarks: 'Remarks', field: 'Field', changes: 'Change', unchanged: 'Unchanged', computed: 'Computed by the service', unexpected: 'Not as expected' },
  computed: 'computed by the service',
  empty: '(empty)',
  filter: { all: 'All items', changed: 'Changed items', problems: 'Items with problems', unexpected: 'Not as expected', search: 'Filter by ID or name', show: 'Items shown' },
  shown: (n, total) => `${n} of ${total} ${total === 1 ? 'item' : 'items'}`,
  note: (n, items) => `${items} ${items === 1 ? 'item' : 'items'}: ${n}`,
  problem: (p) => `${p.code}${p.field ? ` (${englishLabel(p.field)})` : ''}`,
  problemCount: (code, items) => `${items} ${items === 1 ? 'item' : 'items'}: ${code}`,
  field: englishLabel,
  hours: '{0} h',
  minutes: '{0} min',
  newItem: '(new)',
  addedBelow: (parentId) => `added below ${parentId}`,
  toBeDeleted: 'deleted by this change',
};

function englishLabel(systemName: string): string {
  return core().fieldLabel(systemName, 'en');
}

/** The names of a table's fields as people read them (its `labels`, else by `s.field`, else the system names). */
export function labelsOf(table: { fields: readonly string[]; labels?: readonly string[] }, s: Pick<ChangeTableStrings, 'field'>): string[] {
  return table.fields.map((f, i) => table.labels?.[i] ?? s.field?.(f) ?? f);
}

/** The user IDs a table shows (assignments' parties, leaders): the names to look up. */
export function userIdsInTable(table: ChangeTable): Set<string> {
  const out = new Set<string>();
  // One pass per user field over the rows' before and after values (no closure or check of the field per value).
  table.fields.forEach((field, i) => {
    const user = USER_FIELDS.includes(field);
    if (!user && field !== 'Assignments') return;
    for (const row of table.rows) {
      for (const v of [row.before[i], row.after[i]]) {
        if (v === undefined || v === null || v === '') continue;
        if (user) {
          if (typeof v === 'string') out.add(v);
          else if (typeof v === 'number') out.add(String(v));
        } else if (Array.isArray(v)) {
          for (const a of v as unknown[]) {
            const o = (a ?? {}) as Record<string, unknown>;
            const id = o.partyId ?? o.PartyId;
            if (typeof id === 'string') out.add(id);
            else if (typeof id === 'number') out.add(String(id));
          }
        }
      }
    }
  });
  return out;
}

/** The preview table: current → expected per item, computed in one pass (no object per field). */
export function previewTable(
  ids: readonly string[],
  body: UpdateWorkItemsBody,
  current: ReadonlyMap<string, ItemValues>,
  s: ChangeTableStrings,
  extraLines: ChangeTable['lines'] = [],
  options: EffectsOptions = {},
): ChangeTable {
  const b = new PreviewTableBuilder(ids, body, s, options);
  b.addRead(ids, current);
  return b.finish(current, extraLines);
}

/**
 * The preview table built as the reads come back: `addRead(batch, current)` after each batch
 * makes the rows of the items of `ids` settled so far (in `ids` order; their values do not
 * depend on later reads), `finish` the rest, the counts and the lines. The notes that depend on
 * whether an item has sub-items (core().SUB_ITEM_NOTES, known after the sub-item reads) are counted at
 * `finish`. The same table as computing it at once.
 */
export class PreviewTableBuilder {
  readonly table: ChangeTable;
  private readonly fields: string[];
  private readonly counts: FieldCounts[];
  private readonly notes = new Map<EffectNote, number>();
  private readonly problems = new Map<EffectProblem['code'], number>();
  /** Where each note was first given (row × 16 + its place among the row's notes): the lines keep that order. */
  private readonly firstAt = new Map<EffectNote, number>();
  /** Notes that depend on sub-items, flat (no array per row): the row's index × 16 + the note's place among the row's notes, and the note. */
  private readonly pendingAt: number[] = [];
  private readonly pendingNote: EffectNote[] = [];
  private readonly settled = new Set<string>();
  /** Rows made so far (ids[0 .. next - 1]), after the rows of the items to be added (`offset` of them, first). */
  private next = 0;
  private readonly offset: number;
  private handedOn = false;
  private row!: ItemRow;
  private i = 0;
  private readonly visit: FieldVisitor;
  /** For a change of several bodies: each item's body, and each field's place in the row (the fields of every body). */
  private readonly bodyOf?: ReadonlyMap<string, readonly UpdateWorkItemsBody[]>;
  private readonly place?: ReadonlyMap<string, number>;

  /**
   * `body`: the one body of every item; or, for a change set, each item's bodies (of the
   * requests it is in, which change different fields of it): the table's fields are then
   * those of every body, and a field no body of an item touches shows its current value,
   * unchanged and not counted.
   */
  constructor(
    private readonly ids: readonly string[],
    private readonly body: UpdateWorkItemsBody | ReadonlyMap<string, readonly UpdateWorkItemsBody[]>,
    private readonly s: ChangeTableStrings,
    private readonly options: EffectsOptions = {},
    added: readonly NewItemRow[] = [],
    /** Items the change deletes: their rows say so. */
    private readonly deleted: ReadonlySet<string> = new Set(),
  ) {
    // Items to be added give the table their fields too: each item of the change then has its fields' places.
    const bodies = added.length > 0 && !(body instanceof Map) ? new Map(ids.map((id) => [id, [body as UpdateWorkItemsBody]])) : body;
    if (bodies instanceof Map) {
      this.bodyOf = bodies;
      const fields = core().touchedFieldsOfAll([...new Set([...bodies.values()].flat())]);
      for (const a of added) for (const f of Object.keys(a.fields)) if (!fields.includes(f)) fields.push(f);
      this.fields = fields;
      this.place = new Map(this.fields.map((f, i) => [f, i]));
    } else {
      this.fields = core().touchedFields(body as UpdateWorkItemsBody);
    }
    this.offset = added.length;
    this.counts = this.fields.map((field) => ({ field, changes: 0, unchanged: 0, computed: 0, unexpected: 0 }));
    this.table = { kind: 'preview', fields: this.fields, labels: labelsOf({ fields: this.fields }, s), rows: [], counts: this.counts, lines: [] };
    added.forEach((a, r) => (this.table.rows[r] = this.newRow(a)));
    // Each row's cells made at their full length and filled in place (no growing arrays: 20,000 rows make little garbage).
    this.visit = (field, before, expected, changes) => {
      // One body: its fields come in the row's order. Several: each field goes to its own place.
      const i = this.place ? this.place.get(field)! : this.i++;
      const c = this.counts[i]!;
      const row = this.row;
      if (expected.kind === 'computed') {
        c.computed++;
        row.state[i] = CellState.Computed;
        row.after[i] = null;
      } else if (changes) {
        c.changes++;
        row.state[i] = CellState.Changes;
        row.after[i] = expected.value;
      } else {
        c.unchanged++;
        row.state[i] = CellState.Unchanged;
        row.after[i] = null;
      }
      row.before[i] = before;
    };
  }

  /** Rows made so far (the items to be added, made first, among them). */
  get made(): number {
    return this.offset + this.next;
  }

  /** The row of an item to be added: "(new)" before, its fields after (each counted as a change). */
  private newRow(a: NewItemRow): ItemRow {
    const mark = this.s.newItem ?? ENGLISH_CHANGE_TABLE.newItem!;
    const name = typeof a.fields.Name === 'string' ? a.fields.Name : '';
    const row: ItemRow = { id: mark, name: `${'  '.repeat(a.depth)}${name}`, remarks: this.s.addedBelow?.(a.parentId) ?? ENGLISH_CHANGE_TABLE.addedBelow!(a.parentId), flagged: false, state: [], before: [], after: [] };
    this.fields.forEach((f, i) => {
      const set = Object.prototype.hasOwnProperty.call(a.fields, f);
      if (set) this.counts[i]!.changes++;
      row.state.push(set ? CellState.Changes : CellState.Unchanged);
      row.before.push(mark);
      row.after.push(set ? a.fields[f] : null);
    });
    return row;
  }

  /** The reads of `batch` came back (values in `current`): the rows of the items settled so far; answers the index of the first new row. */
  addRead(batch: readonly string[], current: ReadonlyMap<string, ItemValues>): number {
    // The first rows handed on start with the items to be added (made first, at the top).
    const from = this.handedOn ? this.offset + this.next : 0;
    this.handedOn = true;
    const all = batch === this.ids;
    if (!all) for (const id of batch) this.settled.add(id);
    while (this.next < this.ids.length && (all || this.settled.has(this.ids[this.next]!))) this.makeRow(this.next++, current);
    return from;
  }

  private makeRow(r: number, current: ReadonlyMap<string, ItemValues>): void {
    const id = this.ids[r]!;
    const width = this.fields.length;
    const row: ItemRow = (this.row = { id, name: '', remarks: '', flagged: false, state: new Array<CellState>(width), before: new Array<unknown>(width), after: new Array<unknown>(width) });
    this.i = 0;
    const values = current.get(id);
    if (this.place) {
      // Fields this item's body does not touch: its current value, unchanged (filled in by the visit for the others).
      for (let f = 0; f < width; f++) {
        row.state[f] = CellState.Unchanged;
        row.before[f] = values?.[this.fields[f]!];
        row.after[f] = null;
      }
      this.i = width;
    }
    const e = this.bodyOf ? this.effectOfAll(id, values) : core().itemEffect(id, this.body as UpdateWorkItemsBody, values, this.options, this.visit);
    if (e.name !== undefined) row.name = e.name;
    if (e.problems.length > 0) {
      row.remarks = e.problems.map((p) => this.s.problem(p)).join(' · ');
      row.flagged = true;
      for (const p of e.problems) this.problems.set(p.code, (this.problems.get(p.code) ?? 0) + 1);
    }
    if (this.deleted.has(id)) {
      const mark = this.s.toBeDeleted ?? ENGLISH_CHANGE_TABLE.toBeDeleted!;
      row.remarks = row.remarks ? `${mark} · ${row.remarks}` : mark;
    }
    for (let j = 0; j < e.notes.length; j++) {
      const n = e.notes[j]!;
      if (core().SUB_ITEM_NOTES.has(n)) {
        this.pendingAt.push(r * 16 + j);
        this.pendingNote.push(n);
      } else this.noted(n, r * 16 + j);
    }
    // An item not read: its cells unchanged, their values unknown.
    for (let i = this.i; i < width; i++) {
      row.state[i] = CellState.Unchanged;
      row.before[i] = undefined;
      row.after[i] = null;
    }
    this.table.rows[this.offset + r] = row;
  }

  /** The effects of an item's bodies in a change set, as one: each visits its own fields' places. */
  private effectOfAll(id: string, values: ItemValues | undefined): ItemEffect {
    const bodies = this.bodyOf!.get(id) ?? [{}];
    const effects = bodies.map((b) => core().itemEffect(id, b, values, this.options, this.visit));
    if (effects.length === 1) return effects[0]!;
    const first = effects[0]!;
    return { ...first, fields: effects.flatMap((e) => e.fields), problems: effects.flatMap((e) => e.problems), notes: [...new Set(effects.flatMap((e) => e.notes))] };
  }

  private noted(n: EffectNote, at: number): void {
    this.notes.set(n, (this.notes.get(n) ?? 0) + 1);
    const first = this.firstAt.get(n);
    if (first === undefined || at < first) this.firstAt.set(n, at);
  }

  /** Every read is done (the sub-item reads too): the rows left, the counts and the lines. */
  finish(current: ReadonlyMap<string, ItemValues>, extraLines: ChangeTable['lines'] = []): ChangeTable {
    this.addRead(this.ids, current);
    for (let p = 0; p < this.pendingAt.length; p++) {
      const at = this.pendingAt[p]!;
      if (current.get(this.ids[Math.floor(at / 16)]!)?.[core().HAS_SUB_ITEMS] !== false) this.noted(this.pendingNote[p]!, at);
    }
    this.pendingAt.length = 0;
    this.pendingNote.length = 0;
    const notes = [...this.notes].sort((a, b) => this.firstAt.get(a[0])! - this.firstAt.get(b[0])!);
    const s = this.s;
    this.table.lines = [
      ...extraLines,
      ...[...this.problems].map(([code, n]) => ({ text: s.problemCount(code, n), level: 'error' as const })),
      ...notes.map(([n, items]) => ({ text: s.note(n, items), level: 'info' as const })),
    ];
    return this.table;
  }
}

/** The result table: before → after per item (after from the response and the re-read), marked where not as expected. */
export function resultTable(rows: readonly ChangeRow[], fields: readonly string[], remarks: ReadonlyMap<string, string[]>, s: ChangeTableStrings, lines: ChangeTable['lines'] = []): ChangeTable {
  const byItem = new Map<string, ChangeRow[]>();
  for (const r of rows) {
    const list = byItem.get(r.id);
    if (list) list.push(r);
    else byItem.set(r.id, [r]);
  }
  const counts = new Map(fields.map((f) => [f, { field: f, changes: 0, unchanged: 0, computed: 0, unexpected: 0 }]));
  const out: ItemRow[] = [];
  for (const [id, list] of byItem) {
    const itemRemarks = remarks.get(id) ?? [];
    const row: ItemRow = { id, name: list[0]?.name ?? '', remarks: itemRemarks.join(' · '), flagged: itemRemarks.length > 0, state: [], before: [], after: [] };
    const cell = (state: CellState, before: unknown, after: unknown): void => {
      row.state.push(state);
      row.before.push(before);
      row.after.push(after);
    };
    for (const f of fields) {
      const r = list.find((x) => x.field === f);
      const c = counts.get(f)!;
      if (!r) {
        cell(CellState.Unchanged, undefined, null);
        continue;
      }
      const known = r.after !== undefined;
      if (r.unexpected) {
        row.flagged = true;
        c.unexpected++;
        cell(CellState.Unexpected, r.before, r.after);
      } else if (!known) {
        c.computed++;
        cell(CellState.Computed, r.before, null);
      } else if (formatValue(f, r.before, s.empty) === formatValue(f, r.after, s.empty)) {
        c.unchanged++;
        cell(CellState.Unchanged, r.before, null);
      } else {
        c.changes++;
        cell(CellState.Changes, r.before, r.after);
      }
    }
    out.push(row);
  }
  return { kind: 'result', fields: [...fields], labels: labelsOf({ fields }, s), rows: out, counts: [...counts.values()], lines };
}

/** The grid's row height in px (also in media/changes/table.css). */
const ROW_HEIGHT = 24;
/** Rows painted first (more than a screenful): the rest follow after the first paint. */
export const HEAD_ROWS = 80;

/** The section's stylesheet (its script is in the page's bundle). */
export const CHANGE_TABLE_STYLES: readonly string[] = ['media/changes/table.css'];

/** The table's settings and first rows (small: sent first, painted at once). */
export function changeTableHead(table: ChangeTable, s: ChangeTableStrings): ChangeTableHead {
  return {
    fields: table.fields,
    labels: labelsOf(table, s),
    h: ROW_HEIGHT,
    empty: s.empty,
    computed: s.computed,
    col: s.column,
    kind: table.kind,
    people: table.people ?? {},
    ...(table.choices ? { choices: table.choices } : {}),
    hours: s.hours ?? ENGLISH_CHANGE_TABLE.hours!,
    minutes: s.minutes ?? ENGLISH_CHANGE_TABLE.minutes!,
    rows: table.rows.slice(0, HEAD_ROWS),
    total: table.rows.length,
  };
}

/**
 * The section's HTML: summary counts, the lines, the filter tools and an empty grid that
 * the page's script (src/webview/web/grid.ts) fills. `data` says where the rows come from: `embedded` (in the page,
 * #wis-head and #wis-data JSON: the result view) or `posted` (sent to the webview as messages
 * after the page asks for them, src/webview/changeTableData.ts: the Before/After view). A table
 * still being read (`pending`) has no counts or lines yet: they come as its `summary` message
 * when the last read is done (src/webview/web/page.ts).
 */
export function changeTableSection(table: ChangeTable, s: ChangeTableStrings, data: 'embedded' | 'posted', pending = false): string {
  const e = escapeHtml;
  const labels = labelsOf(table, s);
  const labelOf = (field: string): string => labels[table.fields.indexOf(field)] ?? field;
  const counts = (pending ? [] : table.counts)
    .map(
      (c) =>
        `<tr><th title="${e(c.field)}">${e(labelOf(c.field))}</th><td>${c.changes}</td><td>${c.unchanged}</td><td>${c.computed}</td>${table.kind === 'result' ? `<td>${c.unexpected}</td>` : ''}</tr>`,
    )
    .join('');
  const lines = table.lines.length && !pending ? `<ul class="wis-lines" id="wis-lines">${table.lines.map((l) => `<li class="${l.level}">${e(l.text)}</li>`).join('')}</ul>` : pending ? '<ul class="wis-lines" id="wis-lines"></ul>' : '';
  // Embedded: the first rows with the table's settings (the first paint parses only them), every row beside them.
  const embedded =
    data === 'embedded'
      ? `<script type="application/json" id="wis-head">${JSON.stringify(changeTableHead(table, s)).replace(/</g, '\\u003c')}</script>
<script type="application/json" id="wis-data">${JSON.stringify({ rows: table.rows }).replace(/</g, '\\u003c')}</script>
`
      : '';
  return `<section id="wis-changes" data-kind="${table.kind}" data-rows="${data}">
<h2>${e(table.kind === 'preview' ? s.heading.preview : s.heading.result)}</h2>
${lines}
<table class="wis-counts"><thead><tr><th>${e(s.column.field)}</th><th>${e(s.column.changes)}</th><th>${e(s.column.unchanged)}</th><th>${e(s.column.computed)}</th>${table.kind === 'result' ? `<th>${e(s.column.unexpected)}</th>` : ''}</tr></thead><tbody id="wis-counts-body">${counts}</tbody></table>
<div class="wis-tools"><select id="wis-filter" aria-label="${e(s.filter.show ?? ENGLISH_CHANGE_TABLE.filter.show!)}"><option value="all">${e(s.filter.all)}</option><option value="changed">${e(s.filter.changed)}</option><option value="flag">${e(table.kind === 'preview' ? s.filter.problems : s.filter.unexpected)}</option></select>
<input id="wis-search" type="search" placeholder="${e(s.filter.search)}" aria-label="${e(s.filter.search)}"><span id="wis-shown" data-template="${e(s.shown(-1, -2))}"></span></div>
<div id="wis-grid" class="wis-grid" role="table" tabindex="0"></div>
${embedded}</section>`;
}

/** The section's HTML with its rows in the page (summary and an empty grid filled by the page's script). */
export function renderChangeTable(table: ChangeTable, s: ChangeTableStrings): string {
  return changeTableSection(table, s, 'embedded');
}
