// What a cell of the table shows: its text (the Name column of a tree with its level's indent
// and a folder mark), its hover (users by name with the ID, a long text in full, an edited
// cell's value before) and whether it is edited; and the status line's texts. Pure.
import type { ColumnInfo, PageRow, TableStrings, ToWebview } from '../protocol';
import { fmt, pluralOf } from './virtual';

export interface CellShown {
  text: string;
  title?: string;
  edited: boolean;
  /** The indent of a tree's Name cell, in pixels. */
  indent?: number;
}

/** The cell of column `c` of a row; `tree`: the Name column shows the tree. */
export function cellShown(
  row: PageRow,
  columns: readonly ColumnInfo[],
  c: number,
  tree: boolean,
  strings: Pick<TableStrings, 'editedBefore' | 'empty'>,
): CellShown {
  const col = columns[c]!;
  const raw = row.cells[c] ?? '';
  const out: CellShown = { text: raw, edited: false };
  if (tree && col.key === 'Name') {
    out.indent = 6 + Math.max(0, row.level - 1) * 14;
    out.text = (row.container ? '▾ ' : '  ') + raw;
  }
  // Users by name; the hover names each with the ID.
  const tip = row.titles ? row.titles[col.key] : undefined;
  if (tip !== undefined) out.title = tip;
  else if (raw.length > 12) out.title = raw;
  const before = row.edited ? row.edited[col.key] : undefined;
  if (before !== undefined) {
    out.edited = true;
    out.title = fmt(strings.editedBefore, before === '' ? strings.empty : before) + (tip !== undefined ? `\n${tip}` : '');
  }
  return out;
}

/** The id of the painted cell at row `r`, column `c` (the grid's aria-activedescendant names the focused one). */
export const cellId = (r: number, c: number): string => `cell-${r}-${c}`;

/** What a screen reader says of a cell beyond its text: its row's state (new, sent), its value before an edit; whether it is read only. */
export interface CellSpoken {
  /** The cell's aria-description (undefined: nothing to add). */
  description?: string;
  /** The cell's aria-readonly. */
  readOnly: boolean;
  /** The label of the grid's text box while this cell is focused: the column, the text and the description. */
  label: string;
}

/** `text`: what the cell shows (cellShown); `row` undefined: a row not received yet. */
export function cellSpoken(
  row: PageRow | undefined,
  col: Pick<ColumnInfo, 'key' | 'label' | 'readOnly' | 'editableWhenNew'>,
  text: string,
  strings: Pick<TableStrings, 'editedBefore' | 'empty' | 'newRowState' | 'sentState'>,
): CellSpoken {
  const parts: string[] = [];
  if (row?.added) parts.push(strings.newRowState);
  if (row?.sent) parts.push(strings.sentState);
  const before = row?.edited ? row.edited[col.key] : undefined;
  if (before !== undefined) parts.push(fmt(strings.editedBefore, before === '' ? strings.empty : before));
  const readOnly = !!col.readOnly && !(row?.added && col.editableWhenNew);
  const out: CellSpoken = { readOnly, label: `${col.label}: ${text.trim()}` };
  if (parts.length) {
    out.description = parts.join('. ');
    out.label += `. ${out.description}`;
  }
  return out;
}

type Counted = 'rows' | 'matches' | 'edits';

/** A count's text in the page's language (`name` and `nameOne` of the strings are its plural and singular templates). */
export function countText(strings: TableStrings, name: Counted, n: number, lang: string, ...args: unknown[]): string {
  return fmt(pluralOf(n, { one: strings[`${name}One`], other: strings[name] }, lang), ...args);
}

/** The status line: the rows of the view (of those loaded when a filter hides some), "loading" while rows are read. */
export function statusText(strings: TableStrings, o: { total: number; loaded: number; loading: boolean }, lang: string): string {
  if (o.total === 0 && !o.loading) return strings.noRows;
  const what = o.loading ? `${strings.loading} ` : '';
  return what + countText(strings, 'rows', o.total, lang, o.total.toLocaleString()) + (o.loaded > o.total ? ` / ${o.loaded.toLocaleString()}` : '');
}

export type Sort = Extract<ToWebview, { type: 'init' }>['sort'];

/** The header's label and aria-sort of a column under the sort. */
export function headerLabel(c: Pick<ColumnInfo, 'key' | 'label'>, sort: Sort): { text: string; ariaSort: 'ascending' | 'descending' | 'none' } {
  const sorted = sort && sort.key === c.key ? sort.direction : undefined;
  return {
    text: c.label + (sorted === 'asc' ? ' ▲' : sorted === 'desc' ? ' ▼' : ''),
    ariaSort: sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none',
  };
}
