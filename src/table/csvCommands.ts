// CSV / TSV export and import of the work item table. Export: the rows shown (the shown
// columns or all of them) as CSV in UTF-8 with a BOM (or Shift_JIS / CP932 for tools that read
// only that: characters it cannot hold are listed, and the user cancels or writes UTF-8) or as
// TSV. Import of a file or the clipboard: the file decoded and the limits checked before any
// parse (src/table/importSource.ts), columns matched by the model's mapHeader, unmatched ones
// mapped or skipped in a QuickPick, the parse inside a cancellable progress notification, each
// good row becomes edits in the table (nothing is sent); the summary says the rows applied and
// refused and why (src/table/importSummary.ts), the problems are listed by line and column.
import * as vscode from 'vscode';
import { abortOn } from '../common/abortOn';
import { UserInputError } from '../common/commands';
import type { ColumnDef, ColumnMapping, DelimitedFormat, ExportEncodingId, ImportOptions, ImportResult, TableRow, TextEncodingId } from './model';
import type { TablePanel } from './panel';
import { ImportRefused, checkTextLimits, currentLimits, encodingName, readImportFile } from './importSource';
import { cellsText, columnsText, importSummary, moreCellsText, problemsMarkdown, rowsText } from './importSummary';
import { defaultItemTypes } from './addCommands';
import { core } from '../core/load';

export interface ExportArgs {
  format?: DelimitedFormat;
  /** 'shown' (default when asked: the columns shown) or 'all'. */
  columns?: 'shown' | 'all';
  /** Where to write (no save dialog then). */
  uri?: vscode.Uri;
  /** 'utf8' (CSV with a BOM) or 'shiftjis' (CP932); asked when neither this nor `uri` is given. */
  encoding?: ExportEncodingId;
  /** When some characters have no Shift_JIS form: 'utf8' writes UTF-8 instead, 'cancel' writes nothing (asked when not given). */
  onUnencodable?: 'utf8' | 'cancel';
}

export interface ExportOutcome {
  uri: vscode.Uri;
  text: string;
  encoding: ExportEncodingId;
  /** The cells that held characters with no Shift_JIS form (then written as UTF-8). */
  unencodable: { row: number; id: string; column: string; chars: string[] }[];
}

/** Writes the rows shown (filter and sort applied, edits included) to a file; returns the file and the text. */
export async function exportTableFile(panel: TablePanel, log: vscode.LogOutputChannel, args: ExportArgs = {}): Promise<ExportOutcome | undefined> {
  const format = args.format ?? 'csv';
  let which = args.columns;
  if (!which) {
    const picked = await vscode.window.showQuickPick(
      [
        { label: vscode.l10n.t('Shown Columns'), detail: vscode.l10n.t('{0}, in the order shown', columnsText(panel.shownColumns().length)), which: 'shown' as const },
        { label: vscode.l10n.t('All Columns'), detail: vscode.l10n.t('{0} (every field of the table)', columnsText(panel.allColumns().length)), which: 'all' as const },
      ],
      { title: format === 'csv' ? vscode.l10n.t('Export Table as CSV') : vscode.l10n.t('Export Table as TSV'), placeHolder: vscode.l10n.t('Which columns?') },
    );
    if (!picked) return undefined;
    which = picked.which;
  }
  const columns = which === 'all' ? [...panel.allColumns()] : panel.shownColumns();
  const edits = panel.editing.edits;
  const rows = panel.viewRows().map((r) => panel.editing.row(r.id) ?? r);
  // Every column of the table, so that a header two columns share is written with its system name.
  const text = core().exportTable(rows, columns, { format, language: vscode.env.language, allColumns: panel.allColumns(), fieldsOf: (r) => edits.fieldsOf(r), userName: (id) => panel.userName(id) });
  let encoding = args.encoding ?? (args.uri ? 'utf8' : await askExportEncoding(format));
  if (!encoding) return undefined;
  const unencodable = encoding === 'shiftjis' ? unencodableIn(text, format) : [];
  if (unencodable.length > 0) {
    const choice = args.onUnencodable ?? (await askUnencodable(unencodable));
    if (choice !== 'utf8') return undefined;
    encoding = 'utf8';
  }
  let uri = args.uri;
  if (!uri) {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const name = `${panel.source.title.replace(/[\\/:*?"<>|]+/g, '_')}.${format}`;
    uri = await vscode.window.showSaveDialog({
      defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
      filters: format === 'csv' ? { CSV: ['csv'] } : { TSV: ['tsv', 'txt'] },
      title: format === 'csv' ? vscode.l10n.t('Export Table as CSV') : vscode.l10n.t('Export Table as TSV'),
    });
    if (!uri) return undefined;
  }
  // UTF-8: the CSV text starts with its BOM (exportTable), so Excel in Japanese reads it as UTF-8.
  // Shift_JIS: CP932 bytes without a BOM, as Japanese Excel's "CSV (コンマ区切り)" writes.
  await vscode.workspace.fs.writeFile(uri, core().encodeText(text, encoding));
  const name = encodingName(encoding, encoding === 'utf8' && format === 'csv');
  log.info(`Work item table ${panel.source.title}: ${rows.length} rows × ${columns.length} columns exported as ${format.toUpperCase()} (${name}) to ${uri.path.split('/').pop() ?? ''}`);
  void vscode.window.showInformationMessage(vscode.l10n.t('Exported {0} to {1} ({2}).', rowsText(rows.length), vscode.workspace.asRelativePath(uri), name));
  return { uri, text, encoding, unencodable };
}

async function askExportEncoding(format: DelimitedFormat): Promise<ExportEncodingId | undefined> {
  const picked = await vscode.window.showQuickPick(
    [
      { label: encodingName('utf8', format === 'csv'), detail: vscode.l10n.t('Recommended: Excel, Google Sheets and most tools read it, every character included'), encoding: 'utf8' as const },
      { label: encodingName('shiftjis'), detail: vscode.l10n.t('For tools that read only Shift_JIS; characters it cannot hold are listed first'), encoding: 'shiftjis' as const },
    ],
    { title: format === 'csv' ? vscode.l10n.t('Export Table as CSV') : vscode.l10n.t('Export Table as TSV'), placeHolder: vscode.l10n.t('Which encoding?') },
  );
  return picked?.encoding;
}

/** The cells of the written text with characters that Shift_JIS cannot hold: data row (1-based), ID, column header. */
function unencodableIn(text: string, format: DelimitedFormat): ExportOutcome['unencodable'] {
  if (core().unencodableChars(text).length === 0) return [];
  const records = core().parseDelimited(text, format === 'csv' ? ',' : '\t').records;
  const header = records[0] ?? [];
  const idAt = Math.max(0, header.findIndex((h) => h === 'ID' || h === 'Id'));
  return core().unencodableCells(records).map((c) => ({ row: c.record, id: c.record === 0 ? '' : (records[c.record]?.[idAt] ?? ''), column: header[c.cell] ?? '', chars: c.chars }));
}

async function askUnencodable(cells: ExportOutcome['unencodable']): Promise<'utf8' | 'cancel'> {
  const shown = cells.slice(0, 10).map((c) =>
    c.row === 0 ? vscode.l10n.t('header "{0}": {1}', c.column, c.chars.join(' ')) : vscode.l10n.t('row {0} (ID {1}), {2}: {3}', c.row, c.id, c.column, c.chars.join(' ')),
  );
  if (cells.length > shown.length) shown.push(vscode.l10n.t('and {0}', moreCellsText(cells.length - shown.length)));
  const utf8 = vscode.l10n.t('Export as UTF-8 Instead');
  const pick = await vscode.window.showWarningMessage(
    vscode.l10n.t('Characters that Shift_JIS (CP932) cannot hold are in {0}. Nothing is replaced or dropped: export as UTF-8 instead, or cancel.', cellsText(cells.length)),
    { modal: true, detail: shown.join('\n') },
    utf8,
  );
  return pick === utf8 ? 'utf8' : 'cancel';
}


export interface ImportArgs {
  /** The text to import (no question about its source then). */
  text?: string;
  uri?: vscode.Uri;
  /** The file's encoding (no detection and no question then). */
  encoding?: TextEncodingId;
  /** The text was copied from a spreadsheet (as From the Clipboard): a quote that closes no quoted cell is read as text. */
  clipboard?: boolean;
  /** Header text → column key, or null to skip: columns not matched and not here are skipped without asking. */
  mapping?: Record<string, string | null>;
}

/** What an import did: the model's result, the summary shown, the encoding read and the cells edited; or why it was refused. */
export type ImportOutcome = (ImportResult & { summary: string; encoding?: TextEncodingId; changedCells: number; refused?: undefined }) | { refused: string };

/** Progress of an import: characters of the text read, of its length. */
export type ImportProgress = (done: number, total: number) => void;

/**
 * The model's import in slices that yield to the extension host between them, cancellable:
 * an AbortSignal from `token`, progress through `onProgress`. Cancelled: rejects with the
 * model's ImportCancelledError (code 'cancelled'), and there is nothing to apply.
 */
export async function runImport(text: string, options: ImportOptions, token: vscode.CancellationToken, onProgress: ImportProgress): Promise<ImportResult> {
  const abort = abortOn(token);
  try {
    return await core().importTableInSlices(text, options, { signal: abort.signal, onProgress });
  } finally {
    abort.dispose();
  }
}

interface ImportInput {
  text: string;
  /** The file (relative path) or "the clipboard", for the messages. */
  source: string;
  /** Cells copied from a spreadsheet: a quote that closes no quoted cell is read as text (ImportOptions.quotes 'paste'). */
  clipboard?: boolean;
  encoding?: { id: TextEncodingId; bom: boolean };
}

async function importInput(args: ImportArgs, state: vscode.Memento | undefined): Promise<ImportInput | undefined> {
  const limits = currentLimits();
  const fromFile = async (uri: vscode.Uri): Promise<ImportInput | undefined> => {
    const d = await readImportFile(uri, { encoding: args.encoding, state, limits });
    return d && { text: d.text, source: vscode.workspace.asRelativePath(uri), encoding: { id: d.encoding, bom: d.bom } };
  };
  const fromText = (text: string, source: string): ImportInput => {
    checkTextLimits(source, text, limits);
    return { text, source };
  };
  if (args.text !== undefined) return fromText(args.text, vscode.l10n.t('the text'));
  if (args.uri) return fromFile(args.uri);
  const picked = await vscode.window.showQuickPick(
    [
      { label: vscode.l10n.t('From a File…'), detail: vscode.l10n.t('A CSV or TSV file with an ID column and field columns'), from: 'file' as const },
      { label: vscode.l10n.t('From the Clipboard'), detail: vscode.l10n.t('Cells copied from Excel or Google Sheets, with a header row'), from: 'clipboard' as const },
    ],
    { title: vscode.l10n.t('Import CSV/TSV into Table') },
  );
  if (!picked) return undefined;
  if (picked.from === 'clipboard') return { ...fromText(await vscode.env.clipboard.readText(), vscode.l10n.t('the text on the clipboard')), clipboard: true };
  const uris = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { [vscode.l10n.t('CSV or TSV')]: ['csv', 'tsv', 'txt'] }, title: vscode.l10n.t('Import CSV/TSV into Table') });
  return uris?.[0] ? fromFile(uris[0]) : undefined;
}

/** Reads a CSV / TSV file or text into edits of the table; returns what it did (problems in English, shown localized). */
export async function importIntoTable(panel: TablePanel, log: vscode.LogOutputChannel, args: ImportArgs = {}, state?: vscode.Memento): Promise<ImportOutcome | undefined> {
  let input: ImportInput | undefined;
  try {
    input = await importInput(args, state);
  } catch (e) {
    if (!(e instanceof ImportRefused)) throw e;
    log.warn(`Work item table ${panel.source.title}: import refused: ${e.message}`);
    void vscode.window.showErrorMessage(e.message);
    return { refused: e.message };
  }
  if (!input) return undefined;
  const { text } = input;
  if (text.trim() === '') throw new UserInputError(vscode.l10n.t('There is nothing to import: the text is empty.'));
  const columns = panel.allColumns();
  const header = core().headerOf(text);
  const mapping = args.mapping ?? (await askMapping(header, columns));
  if (!mapping) return undefined;
  const edits = panel.editing.edits;
  const rows = new Map<string, TableRow>();
  for (const r of panel.allRows()) rows.set(r.id, panel.editing.row(r.id) ?? r);
  const options: ImportOptions = {
    ...panel.editing.context(),
    columns,
    rows,
    mapping: withSkips(header, columns, mapping),
    fieldsOf: (r) => edits.fieldsOf(r),
    userName: (id) => panel.userName(id),
    // Text from a spreadsheet's clipboard: a quote that closes no quoted cell is a character of its cell.
    ...(input.clipboard || args.clipboard ? { quotes: 'paste' as const } : {}),
    // Rows without an ID are items to add: below their parent cell, else the selected folder (the table's folder).
    newRows: newRowsOptions(panel),
  };
  let cancelled = false;
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Importing into {0}', panel.source.title), cancellable: true },
    async (progress, token) => {
      let shown = 0;
      try {
        return await runImport(text, options, token, (done, total) => {
          const pct = total > 0 ? Math.min(100, (done / total) * 100) : 100;
          progress.report({ message: vscode.l10n.t('{0}% read', Math.floor(pct)), increment: pct - shown });
          shown = pct;
        });
      } catch (e) {
        if (!(e instanceof core().ImportCancelledError) && !token.isCancellationRequested) throw e;
        cancelled = true;
        return undefined;
      }
    },
  );
  if (cancelled || !result) {
    log.info(`Work item table ${panel.source.title}: import of ${input.source} cancelled; the table is unchanged`);
    void vscode.window.showInformationMessage(vscode.l10n.t('Import cancelled: the table is unchanged.'));
    return undefined;
  }
  const changedCells = panel.additions.addWith(result.drafts, result.changes).changed;
  const encoding = input.encoding ? encodingName(input.encoding.id, input.encoding.bom) : undefined;
  const summary = importSummary({ source: input.source, encoding, result, changedCells });
  log.info(
    `Work item table ${panel.source.title}: import of ${input.source}${encoding ? ` (${encoding})` : ''}: ${result.recordCount} rows, ${result.appliedRowCount} applied, ${result.unchangedRowCount} unchanged, ${result.badRecordCount} refused, ${changedCells} cells edited`,
  );
  if (result.problems.length > 0) await showProblems(panel, result, summary);
  else void vscode.window.showInformationMessage(summary);
  return { ...result, summary, changedCells, ...(input.encoding ? { encoding: input.encoding.id } : {}) };
}

/** The header cells no column matches: null (skip) unless the mapping names them. */
function withSkips(header: readonly string[], columns: readonly ColumnDef[], mapping: ColumnMapping): ColumnMapping {
  const mapped = core().mapHeader(header, columns, mapping);
  const out: Record<string, string | null> = { ...mapping };
  header.forEach((h, i) => {
    const t = h.trim();
    if (t !== '' && !mapped.columns[i] && !(t in out)) out[t] = null;
  });
  return out;
}

/** Asks, for each header cell no column matches, which field it is (or to skip it). */
async function askMapping(header: readonly string[], columns: readonly ColumnDef[]): Promise<Record<string, string | null> | undefined> {
  const mapped = core().mapHeader(header, columns);
  const mapping: Record<string, string | null> = {};
  const lang = vscode.env.language;
  for (let i = 0; i < header.length; i++) {
    const h = header[i]!.trim();
    if (h === '' || mapped.columns[i]) continue;
    const items = [
      { label: vscode.l10n.t('Skip this column'), key: null as string | null },
      { label: 'ID', description: 'Id', key: 'Id' as string | null },
      ...columns.filter((c) => c.key !== 'Id').map((c) => ({ label: core().columnLabel(c, lang), description: c.key, key: c.key as string | null })),
    ];
    const picked = await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('Import CSV/TSV into Table'),
      // A header cell that swallowed the file (an unclosed quote) is shown by its start.
      placeHolder: vscode.l10n.t('No field matches the column "{0}": map it to a field, or skip it', h.length > 80 ? `${h.slice(0, 80)}…` : h),
      matchOnDescription: true,
    });
    if (!picked) return undefined;
    mapping[h] = picked.key;
  }
  return mapping;
}

/** Where an import's rows without an ID go when they name no parent: the selected container, else the table's folder. */
function newRowsOptions(panel: TablePanel): NonNullable<ImportOptions['newRows']> {
  const selected = panel.selectedRows()[0];
  const folder = selected && (selected.hasChildren === true || panel.isFolderType(core().idValue(selected.fields['ItemTypeId']))) ? selected.id : panel.source.rootId;
  const types = defaultItemTypes(panel);
  const place = folder !== undefined ? panel.additions.placeOf(folder) : undefined;
  return {
    ...(folder !== undefined ? { parentId: folder } : {}),
    ...(place && !panel.editing.row(place.id) ? { parentPath: place.childPath } : {}),
    defaultItemTypes: { ...(types.folder !== undefined ? { folder: types.folder } : {}), ...(types.leaf !== undefined ? { task: types.leaf } : {}) },
  };
}

async function showProblems(panel: TablePanel, result: ImportResult, summary: string): Promise<void> {
  const content = problemsMarkdown(vscode.l10n.t('Import into {0}: problems', panel.source.title), result.problems, result, panel.allColumns(), summary);
  const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content });
  await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
  void vscode.window.showWarningMessage(vscode.l10n.t('{0} The list of problems is open beside the table.', summary));
}
