// Editing a work item table like a spreadsheet: the in-cell editor of a
// cell (or why it cannot be edited), a typed value committed, fill down over a selection,
// a TSV rectangle pasted, undo / redo; every cell parsed and checked by the model
// (src/table/model/cells.ts, edits.ts) and refused with the reason in the UI's language.
// The edited rows are sent back to the webview in place (`cells`), marked with the value
// before. The panel owns the rows and the view; this file owns the pending edits.
import * as vscode from 'vscode';
import type { ServiceFieldCatalogue } from '../schema/service-fields';
import type { CellContext, CellRejection, ColumnDef, EditedShownRow, FormatContext, GridEditResult, KnownUser, LoadedRow } from './model';
import { moreCellsText } from './importSummary';
import { problemText, readOnlyText } from './problems';
import type { ToWebview } from './protocol';
import { core } from '../core/load';

/** What the editing needs of its panel. */
export interface EditingHost {
  readonly log: vscode.LogOutputChannel;
  /** The rows shown now, in order (the panel's view; edited rows are replaced in it). */
  view(): LoadedRow[];
  allColumns(): readonly ColumnDef[];
  shownColumns(): ColumnDef[];
  knownUsers(): KnownUser[];
  format(): FormatContext;
  catalogue(): ServiceFieldCatalogue | undefined;
  generation(): number;
  post(m: ToWebview): void;
  /** New rows came or went (an undo or redo of their making): the view is computed again. */
  rowsChanged(): void;
  /** A row as the page shows it (new rows marked). */
  pageRow(row: EditedShownRow, id: string): EditedShownRow;
}

/** The outcome of an edit: cells changed, the refused ones with their reasons and what the user was told (in the UI's language). */
export interface EditOutcome {
  changed: number;
  refused: { id?: string; key?: string; message: string }[];
  /** A paste whose quote closed no quoted cell: the notice shown, naming the cell. */
  notice?: string;
}

export class TableEditing {
  readonly edits = new (core().TableEdits)([]);
  private readonly byId = new Map<string, LoadedRow>();

  constructor(private readonly host: EditingHost) {}

  /** Rows read (first read or a re-read after a send): edits that now match what was read are dropped. */
  setRows(rows: readonly LoadedRow[]): void {
    for (const r of rows) this.byId.set(r.id, r);
    this.edits.setRows(rows);
  }

  /** Rows that leave the table with their edits, out of undo and redo too. */
  forget(ids: ReadonlySet<string>): void {
    for (const id of ids) this.byId.delete(id);
    this.edits.forget(ids);
    this.sendState();
  }

  row(id: string): LoadedRow | undefined {
    return this.byId.get(id);
  }

  context(): CellContext {
    const catalogue = this.host.catalogue();
    return { ...(catalogue ? { catalogue } : {}), resolveUser: core().userResolver(this.host.knownUsers()) };
  }

  private column(key: string): ColumnDef | undefined {
    return this.host.allColumns().find((c) => c.key === key);
  }

  /** Enter or double-click: the cell's editor, or why it cannot be edited. */
  activate(id: string, key: string): ToWebview | undefined {
    const c = this.column(key);
    const row = this.byId.get(id);
    // Answered all the same: the page waits for an answer before it edits (text typed on the cell is dropped).
    if (!c || !row) return this.gone(id, key);
    const ro = core().readOnlyReason(c, core().cellContextOf(row, this.context()));
    const m: ToWebview = ro
      ? { type: 'refused', id, key, message: `${this.label(c)}: ${readOnlyText(c, ro) ?? ro}` }
      : { type: 'editor', id, key, editor: core().cellEditorFor(c, this.edits.fieldsOf(row), this.host.knownUsers(), this.host.format()) };
    this.host.post(m);
    return m;
  }

  /** The answer for a cell no longer read (the row or the column went away). */
  private gone(id: string, key: string): ToWebview & { type: 'refused' } {
    const m = { type: 'refused' as const, id, key, message: vscode.l10n.t('The cell is no longer in the table.') };
    this.host.post(m);
    return m;
  }

  private label(c: ColumnDef): string {
    return vscode.env.language.startsWith('ja') && c.labelJa ? c.labelJa : c.label;
  }

  /** A typed value committed (Enter): parsed for the column, checked, applied as one undo step; or refused with the reason. */
  commit(id: string, key: string, text: string): EditOutcome {
    const c = this.column(key);
    const row = this.byId.get(id);
    if (!c || !row) {
      const { message } = this.gone(id, key);
      return { changed: 0, refused: [{ id, key, message }] };
    }
    const r = core().editCellText(row, c, text, this.edits.fieldsOf(row), this.context());
    if (!r.ok) {
      const message = problemText(r.problem, c, text);
      this.host.post({ type: 'refused', id, key, message });
      return { changed: 0, refused: [{ id, key, message }] };
    }
    const changed = this.edits.apply([{ id: r.id, field: r.field, value: r.value }]);
    this.sendCells([id]);
    // The editor, kept open until the answer (a refusal keeps it open, as typed), closes.
    this.host.post({ type: 'committed', id, key });
    return { changed, refused: [] };
  }

  /** A TSV rectangle pasted with its top-left cell at (id, key); a single value fills a selection of rowCount × columnCount. */
  paste(id: string, key: string, text: string, rowCount = 1, columnCount = 1): EditOutcome {
    const view = this.host.view();
    const cols = this.host.shownColumns();
    const rowIndex = view.findIndex((r) => r.id === id);
    const columnIndex = cols.findIndex((c) => c.key === key);
    if (rowIndex < 0 || columnIndex < 0) return { changed: 0, refused: [{ id, key, message: vscode.l10n.t('The cell is no longer in the table.') }] };
    const rows = view.map((r) => this.byId.get(r.id) ?? r);
    return this.applyGrid(core().pasteText(this.edits, text, rows, cols, { rowIndex, columnIndex, rowCount, columnCount }, this.context()), cols);
  }

  /** Ctrl+D: the first selected row's values copied down the selected rows, for each selected column. */
  fillDown(firstRow: number, lastRow: number, keys: readonly string[]): EditOutcome {
    const view = this.host.view();
    const cols = this.host.shownColumns();
    const rows = view.map((r) => this.byId.get(r.id) ?? r);
    const columnIndexes = keys.map((k) => cols.findIndex((c) => c.key === k)).filter((i) => i >= 0);
    return this.applyGrid(core().fillDown(this.edits, rows, cols, { firstRow, lastRow, columnIndexes }, this.context()), cols);
  }

  undo(): number {
    return this.walked(this.edits.undo());
  }

  redo(): number {
    return this.walked(this.edits.redo());
  }

  private walked(cells: { id: string; field: string }[]): number {
    if (cells.some((c) => c.field === core().NEW_ROW_MARK)) this.host.rowsChanged();
    else this.sendCells(cells.map((c) => c.id));
    return cells.length;
  }

  /** Applies rows of the import (already checked by the model) as one undo step. */
  applyChanges(changes: readonly { id: string; field: string; value: unknown }[]): number {
    const n = this.edits.apply(changes);
    this.sendCells([...new Set(changes.map((c) => c.id))]);
    return n;
  }

  private applyGrid(result: GridEditResult, cols: readonly ColumnDef[]): EditOutcome {
    const changed = this.edits.apply(result.changes);
    this.sendCells([...new Set(result.changes.map((c) => c.id))]);
    const refused = result.rejected.map((r: CellRejection) => ({ id: r.id, key: r.field, message: problemText(r.problem, cols[r.columnIndex]) }));
    if (refused.length > 0) {
      this.host.post({ type: 'refused', id: refused[0]!.id ?? '', key: refused[0]!.key ?? '', message: refusedSummary(refused) });
      this.host.log.info(`Work item table: ${refused.length} cells refused: ${refused.map((r) => `${r.id ?? '?'}/${r.key ?? '?'}: ${r.message}`).join('; ').slice(0, 2000)}`);
    }
    const notice = result.quoteAsText?.length ? this.quoteNotice(result.quoteAsText, cols) : undefined;
    if (notice) void vscode.window.showInformationMessage(notice);
    return { changed, refused, ...(notice ? { notice } : {}) };
  }

  /** Pasted cells whose quote closes no quoted cell (kept as text): the first named by its row's ID and its column, the others counted. */
  private quoteNotice(cells: NonNullable<GridEditResult['quoteAsText']>, cols: readonly ColumnDef[]): string {
    const first = cells[0]!;
    const id = this.host.view()[first.rowIndex]?.id ?? String(first.rowIndex + 1);
    const c = cols[first.columnIndex];
    const text = vscode.l10n.t(
      'A quote in the pasted cell of ID {0}, {1} (line {2} of the pasted text) closes no quoted cell: it was kept as a character of the cell.',
      id, c ? this.label(c) : String(first.columnIndex + 1), first.line,
    );
    return cells.length > 1 ? `${text} ${vscode.l10n.t('The same for {0}.', moreCellsText(cells.length - 1))}` : text;
  }

  /** Sends the rows of these IDs in place (their edited cells marked) and the count of edits. */
  sendCells(ids: readonly string[]): void {
    const view = this.host.view();
    const wanted = new Set(ids);
    const cols = this.host.shownColumns();
    const format = this.host.format();
    const rows: { index: number; row: EditedShownRow }[] = [];
    if (wanted.size > 0) {
      for (let i = 0; i < view.length; i++) {
        const v = view[i]!;
        if (!wanted.has(v.id)) continue;
        const orig = this.byId.get(v.id) ?? v;
        const fields = this.edits.fieldsOf(orig);
        view[i] = fields === orig.fields ? orig : { ...orig, fields };
        rows.push({ index: i, row: this.host.pageRow(core().shownEditedRow(orig, cols, this.edits, format), v.id) });
      }
    }
    this.host.post({ type: 'cells', generation: this.host.generation(), rows });
    this.sendState();
  }

  sendState(): void {
    this.host.post({ type: 'edits', count: this.editedCells(), canUndo: this.edits.canUndo, canRedo: this.edits.canRedo });
  }

  /** Edited cells as the bar counts them: a new row's cells, not the mark that makes the row. */
  editedCells(): number {
    return this.edits.size - this.edits.fieldCount(core().NEW_ROW_MARK);
  }
}

/** The first refused cells in one message (the rest counted). */
export function refusedSummary(refused: readonly { message: string }[], max = 3): string {
  const shown = refused.slice(0, max).map((r) => r.message);
  const more = refused.length - shown.length;
  if (more <= 0) return shown.join(' ');
  return `${shown.join(' ')} ${more === 1 ? vscode.l10n.t('(1 more cell refused)') : vscode.l10n.t('({0} more cells refused)', more)}`;
}
