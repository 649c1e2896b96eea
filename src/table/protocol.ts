// The messages between the work item table's webview (its page, src/table/web/) and the
// extension (src/table/panel.ts), the editing's (cell editors, fill down, paste, undo) with the
// rest. Both sides import these types (the envelope every view shares: `{ type, ... }`,
// src/webview/protocol.ts). No vscode import.
//
// Flow: the webview posts `ready`; the extension answers `init` (strings, columns,
// layout), then `reset` (how many rows the current view has) followed by `rows`
// chunks of at most ROW_CHUNK rows in order (src/table/model/window.ts). Every sort,
// filter, column or "lowest level only" change sends a new `reset` + `rows` with a
// new `generation`; the webview drops rows of an older generation. The webview paints
// only the rows in sight (src/table/web/virtual.ts) and says what it painted (`painted`).
//
// Cells are addressed by row ID and column key (never by index in the view, which a
// sort changes). Rows hold the shown text of each column in `init.columns` order.
//
// Editing (src/table/editing.ts):
//   webview → extension  { type: 'activate', id, key }         Enter or double-click on a cell: begin editing it
//                        (the extension answers `editor` with the cell's editor, value and choices, or `refused` with the read-only reason)
//   webview → extension  { type: 'commit', id, key, text }     the typed text of an edited cell (parsed by the model's parseCellInput)
//                        (the extension answers `committed` once the value is taken, or `refused` with the reason: the editor then stays open)
//   webview → extension  { type: 'paste', id, key, text, rows?, columns? }  a TSV rectangle pasted with its top-left cell here (pasteText);
//                        rows × columns: the selection a single value fills
//   webview → extension  { type: 'fill', generation, firstRow, lastRow, keys }  Ctrl+D over rows [firstRow, lastRow] of that view
//   webview → extension  { type: 'undo' } / { type: 'redo' }  Ctrl+Z / Ctrl+Y
//   extension → webview  { type: 'cells', generation, rows: [{index, row}] }  changed rows in place, `row.edited`: key → value before
//   extension → webview  { type: 'edits', count, canUndo, canRedo }         the pending edits (status and buttons)
//
// Keeping the tab across a window reload (src/table/pending.ts):
//   extension → webview  { type: 'keep', state }              the page keeps `state` with setState (the serializer gets it back)
//   webview → extension  { type: 'selection', focus, anchor } the selected cells ({id, key} each) changed
//   extension → webview  { type: 'select', focus, anchor }    a restored tab: select these cells again
// Rows of `rows` may carry `sent: true`: their edits were sent; shown until the user applies a filter.

import type { CellEditorSpec, EditedShownRow } from './model/shown';

export type { CellEditorSpec, EditedShownRow, ShownRow } from './model/shown';

/** Where a table's rows come from: a project's or folder's subtree, or items by ID. */
export interface TableSource {
  title: string;
  /** The project (layout remembered per project; statuses and types from its profile). */
  projectId?: string;
  /** Subtree: the item whose descendants are rows (a project's root folder, a folder). */
  rootId?: string;
  /** The level of `rootId` (0: the project's root folder). */
  level?: number;
  /** The name of `rootId` (empty for a project's root folder); its ancestors' names are read and put before it (parent paths start below the project's root folder). */
  basePath?: string;
  /** Items by ID (the selection, a request document's workItemIds). */
  ids?: string[];
}

/** A row as the page gets it: its cells' texts in `init.columns` order, the values before of its edited cells, and `sent` once its edits were sent (shown until the user applies a filter). */
export type PageRow = EditedShownRow & { sent?: boolean; added?: boolean };

export interface ColumnInfo {
  key: string;
  /** Header in the UI's language. */
  label: string;
  /** Column type (text, number, date, list, user, hours, progress): alignment in the webview. */
  type: string;
  width: number;
  /** Its cells cannot be edited (the page marks them aria-readonly). */
  readOnly?: boolean;
  /** Read only, except in new rows (set with the add: the item type, the assignees). */
  editableWhenNew?: boolean;
}

/** Localized strings the webview shows (sent once with `init`). */
export interface TableStrings {
  filterPlaceholder: string;
  build: string;
  named: string;
  save: string;
  columns: string;
  lowestOnly: string;
  useInRequest: string;
  loading: string;
  /** Counts: `x` is the template of the plural ("other") form, `xOne` of the singular; the page picks by the language's rule. */
  matches: string;
  matchesOne: string;
  rows: string;
  rowsOne: string;
  noRows: string;
  sortHint: string;
  review: string;
  exportCsv: string;
  importCsv: string;
  undo: string;
  redo: string;
  edits: string;
  editsOne: string;
  editedBefore: string;
  empty: string;
  discard: string;
  sentRow: string;
  /** The "…" button of the bar (the actions that do not fit in one row). */
  moreActions: string;
  /** The calendar button beside a date cell's editor. */
  pickDate: string;
  /** A new row's ID cell, and its hover. */
  newRow: string;
  newRowTitle: string;
  /** Said by screen readers with each cell of a new row, of a sent row. */
  newRowState: string;
  sentState: string;
  addRow: string;
  addSubItem: string;
  duplicateRows: string;
  pasteNewItems: string;
}

/** Buttons of the bar that run a command in the extension. */
export const BAR_COMMANDS = ['build', 'named', 'save', 'columns', 'useInRequest', 'review', 'export', 'import', 'discard', 'addRow', 'addSubItem', 'duplicateRows', 'pasteNewItems'] as const;
export type BarCommand = (typeof BAR_COMMANDS)[number];

export type ToWebview =
  | { type: 'init'; title: string; service?: string; strings: TableStrings; columns: ColumnInfo[]; sort?: { key: string; direction: 'asc' | 'desc' }; lowestOnly: boolean; filterText: string; rowHeight: number }
  /** A new view: `total` rows will follow in `rows` chunks; `tree` true when the name column shows the tree (no sort, folders shown). */
  | { type: 'reset'; generation: number; total: number; loaded: number; tree: boolean }
  | { type: 'rows'; generation: number; start: number; rows: PageRow[] }
  /** The count of the filter text typed (not applied yet), or its errors at positions of the text. */
  | { type: 'count'; text: string; matches: number; total: number; errors: { start: number; end: number; message: string }[] }
  /** The text of the filter bar set by the extension (a named filter, the pickers). */
  | { type: 'setFilter'; text: string }
  | { type: 'progress'; loaded: number; total?: number; done: boolean; message?: string }
  | { type: 'editor'; id: string; key: string; editor: CellEditorSpec }
  | { type: 'refused'; id: string; key: string; message: string }
  /** The value of a `commit` was taken (the cell's editor closes; a refusal keeps it open). */
  | { type: 'committed'; id: string; key: string }
  | { type: 'cells'; generation: number; rows: { index: number; row: PageRow }[] }
  | { type: 'edits'; count: number; canUndo: boolean; canRedo: boolean }
  /** A keybinding of the table (Ctrl+Z, Ctrl+Y, Ctrl+D): the page acts on its selection or its open editor. */
  | { type: 'key'; name: 'undo' | 'redo' | 'fillDown' }
  | { type: 'keep'; state: TableViewState }
  | ({ type: 'select' } & CellSelection);

export type FromWebview =
  | { type: 'ready' }
  /** Typed text: `apply` false counts only (debounced while typing), true applies it (Enter). */
  | { type: 'filter'; text: string; apply: boolean }
  | { type: 'sort'; key: string }
  | { type: 'resize'; key: string; width: number }
  /** `key` dragged before `before` (to the end without one). */
  | { type: 'reorder'; key: string; before?: string }
  | { type: 'lowestOnly'; value: boolean }
  | { type: 'command'; name: BarCommand }
  /** Ctrl+C: the selected cells as TSV (the extension writes the clipboard). */
  | { type: 'copy'; text: string; cells: number }
  /** What the webview painted: rows [first, first + count) of `total`, after `ms` of webview time since `reset`. */
  | { type: 'painted'; generation: number; first: number; count: number; total: number; received: number; ms: number }
  | { type: 'activate'; id: string; key: string }
  | { type: 'commit'; id: string; key: string; text: string }
  | { type: 'paste'; id: string; key: string; text: string; rows?: number; columns?: number }
  | { type: 'fill'; generation: number; firstRow: number; lastRow: number; keys: string[] }
  | { type: 'undo' }
  | { type: 'redo' }
  | ({ type: 'selection' } & CellSelection);

/** What the webview keeps with setState: enough to open the same table again after a reload. */
export interface TableViewState {
  v: 1;
  source: TableSource;
  filterText: string;
  selection?: CellSelection;
}

export interface CellSelection {
  focus: { id: string; key: string };
  anchor: { id: string; key: string };
}

const cell = (v: unknown): v is { id: string; key: string } => typeof v === 'object' && v !== null && typeof (v as { id?: unknown }).id === 'string' && typeof (v as { key?: unknown }).key === 'string';

/** A selection as the webview said it (checked: a message is input). */
export function readSelection(v: unknown): CellSelection | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const { focus, anchor } = v as { focus?: unknown; anchor?: unknown };
  return cell(focus) && cell(anchor) ? { focus: { id: focus.id, key: focus.key }, anchor: { id: anchor.id, key: anchor.key } } : undefined;
}

const str = (v: unknown): v is string => typeof v === 'string';

/** The state a restored tab brings back, checked; undefined when it does not name a table. */
export function readViewState(raw: unknown): TableViewState | undefined {
  if (typeof raw !== 'object' || raw === null || (raw as { v?: unknown }).v !== 1) return undefined;
  const s = (raw as { source?: unknown }).source as Record<string, unknown> | undefined;
  if (typeof s !== 'object' || s === null || !str(s['title'])) return undefined;
  const source: TableSource = { title: s['title'] };
  if (str(s['projectId'])) source.projectId = s['projectId'];
  if (str(s['rootId'])) source.rootId = s['rootId'];
  if (typeof s['level'] === 'number' && Number.isInteger(s['level']) && s['level'] >= 0) source.level = s['level'];
  if (str(s['basePath'])) source.basePath = s['basePath'];
  if (Array.isArray(s['ids'])) source.ids = s['ids'].filter(str);
  if (source.rootId === undefined && (source.ids === undefined || source.ids.length === 0)) return undefined;
  const filterText = (raw as { filterText?: unknown }).filterText;
  const selection = readSelection((raw as { selection?: unknown }).selection);
  return { v: 1, source, filterText: str(filterText) ? filterText : '', ...(selection ? { selection } : {}) };
}

export const ROW_HEIGHT = 24;

/** A message from the webview, checked (the webview is ours, but a message is still input). */
export function readMessage(m: unknown): FromWebview | undefined {
  if (typeof m !== 'object' || m === null) return undefined;
  const t = (m as { type?: unknown }).type;
  const s = (k: string): boolean => typeof (m as Record<string, unknown>)[k] === 'string';
  switch (t) {
    case 'ready':
    case 'undo':
    case 'redo':
      return m as FromWebview;
    case 'commit':
      return s('id') && s('key') && s('text') ? (m as FromWebview) : undefined;
    case 'paste': {
      const o = m as Record<string, unknown>;
      const count = (k: string) => o[k] === undefined || (typeof o[k] === 'number' && Number.isInteger(o[k]) && (o[k] as number) >= 1);
      return s('id') && s('key') && s('text') && count('rows') && count('columns') ? (m as FromWebview) : undefined;
    }
    case 'fill': {
      const o = m as Record<string, unknown>;
      const int = (k: string) => typeof o[k] === 'number' && Number.isInteger(o[k]) && (o[k] as number) >= 0;
      return int('generation') && int('firstRow') && int('lastRow') && Array.isArray(o['keys']) && (o['keys'] as unknown[]).every((k) => typeof k === 'string') ? (m as FromWebview) : undefined;
    }
    case 'filter':
      return s('text') ? (m as FromWebview) : undefined;
    case 'sort':
      return s('key') ? (m as FromWebview) : undefined;
    case 'activate':
      return s('id') && s('key') ? (m as FromWebview) : undefined;
    case 'resize':
      return s('key') && typeof (m as { width?: unknown }).width === 'number' ? (m as FromWebview) : undefined;
    case 'reorder':
      return s('key') ? (m as FromWebview) : undefined;
    case 'lowestOnly':
      return typeof (m as { value?: unknown }).value === 'boolean' ? (m as FromWebview) : undefined;
    case 'command':
      return (BAR_COMMANDS as readonly string[]).includes(String((m as { name?: unknown }).name)) ? (m as FromWebview) : undefined;
    case 'copy':
      return s('text') ? (m as FromWebview) : undefined;
    case 'painted':
      return m as FromWebview;
    case 'selection':
      return readSelection(m) ? (m as FromWebview) : undefined;
    default:
      return undefined;
  }
}
