// CSV / TSV round trip of the work item table (issue 24 §5): export of the rows shown
// (the shown columns or all of them) as CSV in UTF-8 with a BOM or as TSV; import of a
// file or the clipboard: columns matched by the model's mapHeader, unmatched ones mapped
// or skipped in a QuickPick, each good row becomes edits in the table (nothing is sent),
// and the problems are listed by line and column in a Markdown document.
import * as vscode from 'vscode';
import { UserInputError } from '../common/commands';
import {
  type ColumnDef, type ColumnMapping, type DelimitedFormat, type ImportProblem, type ImportResult, type TableRow,
  columnLabel, exportTable, importTable, mapHeader, parseDelimited,
} from './model';
import type { TablePanel } from './panel';
import { problemText } from './problems';

export interface ExportArgs {
  format?: DelimitedFormat;
  /** 'shown' (default when asked: the columns shown) or 'all'. */
  columns?: 'shown' | 'all';
  /** Where to write (no save dialog then). */
  uri?: vscode.Uri;
}

/** Writes the rows shown (filter and sort applied, edits included) to a file; returns the file and the text. */
export async function exportTableFile(panel: TablePanel, log: vscode.LogOutputChannel, args: ExportArgs = {}): Promise<{ uri: vscode.Uri; text: string } | undefined> {
  const format = args.format ?? 'csv';
  let which = args.columns;
  if (!which) {
    const picked = await vscode.window.showQuickPick(
      [
        { label: vscode.l10n.t('Shown Columns'), detail: vscode.l10n.t('{0} columns, in the order shown', panel.shownColumns().length), which: 'shown' as const },
        { label: vscode.l10n.t('All Columns'), detail: vscode.l10n.t('{0} columns (every field of the table)', panel.allColumns().length), which: 'all' as const },
      ],
      { title: format === 'csv' ? vscode.l10n.t('Export Table as CSV') : vscode.l10n.t('Export Table as TSV'), placeHolder: vscode.l10n.t('Which columns?') },
    );
    if (!picked) return undefined;
    which = picked.which;
  }
  const columns = which === 'all' ? [...panel.allColumns()] : panel.shownColumns();
  const edits = panel.editing.edits;
  const rows = panel.viewRows().map((r) => panel.editing.row(r.id) ?? r);
  const text = exportTable(rows, columns, { format, language: vscode.env.language, fieldsOf: (r) => edits.fieldsOf(r), userName: (id) => panel.userName(id) });
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
  // UTF-8; the CSV text starts with its BOM (exportTable), so Excel in Japanese reads it as UTF-8.
  await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
  log.info(`Work item table ${panel.source.title}: ${rows.length} rows × ${columns.length} columns exported as ${format.toUpperCase()} to ${uri.path.split('/').pop() ?? ''}`);
  void vscode.window.showInformationMessage(vscode.l10n.t('Exported {0} rows to {1}.', rows.length, vscode.workspace.asRelativePath(uri)));
  return { uri, text };
}

export interface ImportArgs {
  /** The text to import (no question about its source then). */
  text?: string;
  uri?: vscode.Uri;
  /** Header text → column key, or null to skip: columns not matched and not here are skipped without asking. */
  mapping?: Record<string, string | null>;
}

/** Reads a CSV / TSV text into edits of the table; returns the model's result (problems in English, shown localized). */
export async function importIntoTable(panel: TablePanel, log: vscode.LogOutputChannel, args: ImportArgs = {}): Promise<ImportResult | undefined> {
  let text = args.text;
  if (text === undefined && args.uri) text = new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(args.uri));
  if (text === undefined) {
    const picked = await vscode.window.showQuickPick(
      [
        { label: vscode.l10n.t('From a File…'), detail: vscode.l10n.t('A CSV or TSV file with an ID column and field columns'), from: 'file' as const },
        { label: vscode.l10n.t('From the Clipboard'), detail: vscode.l10n.t('Cells copied from Excel or Google Sheets, with a header row'), from: 'clipboard' as const },
      ],
      { title: vscode.l10n.t('Import CSV/TSV into Table') },
    );
    if (!picked) return undefined;
    if (picked.from === 'clipboard') text = await vscode.env.clipboard.readText();
    else {
      const uris = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { [vscode.l10n.t('CSV or TSV')]: ['csv', 'tsv', 'txt'] }, title: vscode.l10n.t('Import CSV/TSV into Table') });
      if (!uris?.[0]) return undefined;
      text = new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uris[0]));
    }
  }
  if (text.trim() === '') throw new UserInputError(vscode.l10n.t('There is nothing to import: the text is empty.'));
  const columns = panel.allColumns();
  const mapping = args.mapping ?? (await askMapping(text, columns));
  if (!mapping) return undefined;
  const edits = panel.editing.edits;
  const rows = new Map<string, TableRow>();
  for (const r of panel.allRows()) rows.set(r.id, panel.editing.row(r.id) ?? r);
  const result = importTable(text, { ...panel.editing.context(), columns, rows, mapping: withSkips(text, columns, mapping), fieldsOf: (r) => edits.fieldsOf(r), userName: (id) => panel.userName(id) });
  const changed = panel.editing.applyChanges(result.changes);
  log.info(`Work item table ${panel.source.title}: import of ${result.recordCount} rows: ${changed} cells edited, ${result.badRecordCount} rows with problems`);
  if (result.problems.length > 0) await showProblems(panel, result.problems, result);
  else void vscode.window.showInformationMessage(vscode.l10n.t('Imported {0} rows: {1} cells edited in the table. Nothing is sent until you review and send the changes.', result.recordCount, changed));
  return result;
}

/** The header cells no column matches: null (skip) unless the mapping names them. */
function withSkips(text: string, columns: readonly ColumnDef[], mapping: ColumnMapping): ColumnMapping {
  const header = parseDelimited(text).records[0] ?? [];
  const mapped = mapHeader(header, columns, mapping);
  const out: Record<string, string | null> = { ...mapping };
  header.forEach((h, i) => {
    const t = h.trim();
    if (t !== '' && !mapped.columns[i] && !(t in out)) out[t] = null;
  });
  return out;
}

/** Asks, for each header cell no column matches, which field it is (or to skip it). */
async function askMapping(text: string, columns: readonly ColumnDef[]): Promise<Record<string, string | null> | undefined> {
  const header = parseDelimited(text).records[0] ?? [];
  const mapped = mapHeader(header, columns);
  const mapping: Record<string, string | null> = {};
  const lang = vscode.env.language;
  for (let i = 0; i < header.length; i++) {
    const h = header[i]!.trim();
    if (h === '' || mapped.columns[i]) continue;
    const items = [
      { label: vscode.l10n.t('Skip this column'), key: null as string | null },
      { label: 'ID', description: 'Id', key: 'Id' as string | null },
      ...columns.filter((c) => c.key !== 'Id').map((c) => ({ label: columnLabel(c, lang), description: c.key, key: c.key as string | null })),
    ];
    const picked = await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('Import CSV/TSV into Table'),
      placeHolder: vscode.l10n.t('No field matches the column "{0}": map it to a field, or skip it', h),
      matchOnDescription: true,
    });
    if (!picked) return undefined;
    mapping[h] = picked.key;
  }
  return mapping;
}

/** The model's English import problem in the UI's language (the known sentences; others as written). */
export function importProblemText(message: string): string {
  let m: RegExpExecArray | null;
  if (message === 'The ID is empty.') return vscode.l10n.t('The ID is empty.');
  if ((m = /^Unknown ID (.+): no such work item in the table\.$/.exec(message))) return vscode.l10n.t('Unknown ID {0}: no such work item in the table.', m[1]!);
  if ((m = /^ID (.+) is on more than one line \((.+)\)\.$/.exec(message))) return vscode.l10n.t('ID {0} is on more than one line ({1}).', m[1]!, m[2]!);
  if ((m = /^The line has (\d+) cells, the header (\d+)\.$/.exec(message))) return vscode.l10n.t('The line has {0} cells, the header {1}.', m[1]!, m[2]!);
  if ((m = /^Unknown column "(.*)": /.exec(message))) return vscode.l10n.t('Unknown column "{0}": no field has this system name or display name; map it to a field or leave it out.', m[1]!);
  if ((m = /^Column "(.*)" is the same field \((.*)\) as column "(.*)": only the first is read\.$/.exec(message))) return vscode.l10n.t('Column "{0}" is the same field ({1}) as column "{2}": only the first is read.', m[1]!, m[2]!, m[3]!);
  if ((m = /^The mapping names the field "(.*)", which the table does not have\.$/.exec(message))) return vscode.l10n.t('The mapping names the field "{0}", which the table does not have.', m[1]!);
  if (message.startsWith('No ID column')) return vscode.l10n.t('No ID column: the file needs a column "Id" (or "ID") naming each row\'s work item.');
  if ((m = /^line (\d+): a quoted cell is not closed/.exec(message))) return vscode.l10n.t('Line {0}: a quoted cell is not closed (a " is missing).', m[1]!);
  return message;
}

/** The problems as Markdown: one table row per problem (line, column, ID, what). */
export function problemsMarkdown(title: string, problems: readonly ImportProblem[], result: Pick<ImportResult, 'recordCount' | 'badRecordCount'>, columns: readonly ColumnDef[] = []): string {
  const text = (p: ImportProblem): string => {
    const c = p.field ? columns.find((x) => x.key === p.field) : undefined;
    return p.problem && c ? problemText(p.problem, c, p.text) : importProblemText(p.message);
  };
  const esc = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
  const lines = [
    `# ${esc(title)}`,
    '',
    vscode.l10n.t('{0} of {1} rows have problems: nothing of those rows was applied. The other rows are edits in the table.', result.badRecordCount, result.recordCount),
    '',
    `| ${vscode.l10n.t('Line')} | ${vscode.l10n.t('Column')} | ID | ${vscode.l10n.t('Problem')} |`,
    '|---:|---|---|---|',
    ...problems.map((p) => `| ${p.line} | ${esc(p.column ?? '')} | ${esc(p.id ?? '')} | ${esc(text(p))} |`),
    '',
  ];
  return lines.join('\n');
}

async function showProblems(panel: TablePanel, problems: readonly ImportProblem[], result: ImportResult): Promise<void> {
  const content = problemsMarkdown(vscode.l10n.t('Import into {0}: problems', panel.source.title), problems, result, panel.allColumns());
  const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content });
  await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
  void vscode.window.showWarningMessage(vscode.l10n.t('{0} of {1} imported rows have problems and were not applied; the list is open beside the table.', result.badRecordCount, result.recordCount));
}
