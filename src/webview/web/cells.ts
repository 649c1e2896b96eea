// The cells of the before/after table as the page paints them (the Before/After view and the
// result view): each field's text before and after with its state, and the hover that adds the
// minutes and user IDs the texts show as hours and names. Pure: unit tests run it as the page does.
import { CellState, type ChangeTableHead, type ItemRow } from '../protocol';
import { formatValue, valueTip } from '../values';

/** The settings the cells are formatted by (the table's head). */
export type CellSettings = Pick<ChangeTableHead, 'empty' | 'computed' | 'hours' | 'minutes' | 'choices'> & { people?: Record<string, string> };

/** A field's cell: the text before and after (the value before when unchanged; the "computed" word when the service computes it). */
export interface CellText {
  before: string;
  after: string;
  state: CellState;
}

/** The text of field `i` (named `field`) of a row. A value after of null is a cleared value (shown empty), never the value before. */
export function cellText(d: CellSettings, field: string, row: ItemRow, i: number): CellText {
  const labels = { people: d.people, hours: d.hours, ...(d.choices ? { choices: d.choices } : {}) };
  const state = row.state[i] ?? CellState.Unchanged;
  const before = formatValue(field, row.before[i], d.empty, labels);
  const after = state === CellState.Computed ? d.computed : state === CellState.Unchanged ? before : formatValue(field, row.after[i], d.empty, labels);
  return { before, after, state };
}

/** A cell as painted: one text, or before → after; its class and hover. */
export interface CellView {
  className: string;
  /** An unchanged cell's text (or the ID, name and remarks). */
  text?: string;
  /** A changed cell's texts. */
  change?: { before: string; after: string };
  title: string;
}

/** The cell of field `i`: its texts with the minutes and user IDs on hover. */
export function fieldCell(d: CellSettings, field: string, row: ItemRow, i: number): CellView {
  const c = cellText(d, field, row, i);
  const tb = valueTip(field, row.before[i], d.minutes);
  if (c.state === CellState.Unchanged) return { className: 'c0', text: c.before, title: tb ? `${c.before} (${tb})` : c.before };
  const ta = valueTip(field, row.after[i], d.minutes);
  const title = `${c.before}${tb ? ` (${tb})` : ''} → ${c.after}${ta && c.state !== CellState.Computed ? ` (${ta})` : ''}`;
  return { className: `c${c.state}`, change: { before: c.before, after: c.after }, title };
}

/** Whether the table has its own Name column: not when it shows the Name field (before → after), never two "Name" columns. */
export function hasNameColumn(fields: readonly string[]): boolean {
  return !fields.includes('Name');
}

/** A row's cells in column order: ID, the name (unless a field shows it), the fields, the remarks. */
export function rowCells(d: CellSettings & { fields: readonly string[] }, row: ItemRow): CellView[] {
  const plain = (text: string): CellView => ({ className: '', text, title: text });
  const out = [plain(row.id)];
  if (hasNameColumn(d.fields)) out.push(plain(row.name));
  d.fields.forEach((f, i) => out.push(fieldCell(d, f, row, i)));
  out.push(plain(row.remarks));
  return out;
}

/** The column headers: each field by the name people read, its system name on hover. */
export function headerCells(d: Pick<ChangeTableHead, 'fields' | 'labels' | 'col'>): { text: string; title: string }[] {
  const labels = d.labels.length ? d.labels : d.fields;
  return [
    { text: d.col.id, title: d.col.id },
    ...(hasNameColumn(d.fields) ? [{ text: d.col.name, title: 'Name' }] : []),
    ...d.fields.map((f, i) => {
      const label = labels[i] || f;
      return { text: label, title: labels[i] && labels[i] !== f ? `${labels[i]} (${f})` : f };
    }),
    { text: d.col.remarks, title: d.col.remarks },
  ];
}

/** A painted cell's text as a reader sees it (before→after for a change). */
export function cellViewText(c: CellView): string {
  return c.change ? `${c.change.before}→${c.change.after}` : (c.text ?? '');
}
