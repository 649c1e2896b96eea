// What an import into the work item table says afterwards, in the UI's language: the rows
// applied and refused with the reasons grouped (src/table/model/importReport.ts), the encoding
// read, the cells edited; and the problems as a Markdown document by line and column.
import * as vscode from 'vscode';
import { type ColumnDef, type ImportProblem, type ImportResult, type RefusalReason, refusalReasons } from './model';
import { problemText } from './problems';

export function rowsText(n: number): string {
  return n === 1 ? vscode.l10n.t('1 row') : vscode.l10n.t('{0} rows', n);
}

function cellsEditedText(n: number): string {
  return n === 1 ? vscode.l10n.t('1 cell edited') : vscode.l10n.t('{0} cells edited', n);
}

export function reasonText(r: RefusalReason): string {
  switch (r) {
    case 'unknownId':
      return vscode.l10n.t('ID not in the table');
    case 'duplicateId':
      return vscode.l10n.t('ID on more than one line');
    case 'emptyId':
      return vscode.l10n.t('empty ID');
    case 'cellCount':
      return vscode.l10n.t('more cells than the header');
    case 'unclosedQuote':
      return vscode.l10n.t('unclosed quote');
    case 'controlCharacter':
      return vscode.l10n.t('control character in a cell');
    case 'value':
      return vscode.l10n.t('value not valid for its column');
    case 'readOnly':
      return vscode.l10n.t('read-only column changed');
    case 'check':
      return vscode.l10n.t("value refused by the field's rules");
    case 'header':
      return vscode.l10n.t('problem in the header');
    case 'other':
      return vscode.l10n.t('other problem');
  }
}

export interface SummaryInput {
  /** The file (relative path) or the clipboard. */
  source: string;
  /** The encoding read, shown by name (none for the clipboard or a given text). */
  encoding?: string;
  result: Pick<ImportResult, 'problems' | 'badRecordCount' | 'recordCount'>;
  changedCells: number;
}

/** "Imported a.csv (Shift_JIS (CP932)): 3 rows applied, 2 refused (ID not in the table: 2). 5 cells edited in the table; …" */
export function importSummary(s: SummaryInput): string {
  const applied = s.result.recordCount - s.result.badRecordCount;
  const head = s.encoding ? vscode.l10n.t('Imported {0} ({1}).', s.source, s.encoding) : vscode.l10n.t('Imported {0}.', s.source);
  const ja = vscode.env.language.startsWith('ja');
  const sep = ja ? '、' : ', ';
  const reasons = refusalReasons(s.result).map((r) => `${reasonText(r.reason)}: ${r.rows}`).join(sep);
  const counts =
    s.result.badRecordCount > 0
      ? vscode.l10n.t('{0} applied, {1} refused ({2}).', rowsText(applied), rowsText(s.result.badRecordCount), reasons)
      : vscode.l10n.t('{0} applied.', rowsText(applied));
  const tail = vscode.l10n.t('{0} in the table; nothing is sent until you review and send the changes.', cellsEditedText(s.changedCells));
  // Japanese sentences follow each other without a space (each ends with 。).
  return [head, counts, tail].join(ja ? '' : ' ');
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

/** The problems as Markdown: the summary, then one table row per problem (line, column, ID, what). */
export function problemsMarkdown(title: string, problems: readonly ImportProblem[], result: Pick<ImportResult, 'recordCount' | 'badRecordCount'>, columns: readonly ColumnDef[] = [], summary?: string): string {
  const text = (p: ImportProblem): string => {
    const c = p.field ? columns.find((x) => x.key === p.field) : undefined;
    return p.problem && c ? problemText(p.problem, c, p.text) : importProblemText(p.message);
  };
  const esc = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
  const lines = [
    `# ${esc(title)}`,
    '',
    ...(summary ? [summary, ''] : []),
    vscode.l10n.t('{0} of {1} rows have problems: nothing of those rows was applied. The other rows are edits in the table.', result.badRecordCount, result.recordCount),
    '',
    `| ${vscode.l10n.t('Line')} | ${vscode.l10n.t('Column')} | ID | ${vscode.l10n.t('Problem')} |`,
    '|---:|---|---|---|',
    ...problems.map((p) => `| ${p.line} | ${esc(p.column ?? '')} | ${esc(p.id ?? '')} | ${esc(text(p))} |`),
    '',
  ];
  return lines.join('\n');
}
