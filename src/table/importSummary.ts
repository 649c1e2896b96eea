// What an import into the work item table says afterwards, in the UI's language: the rows
// applied, unchanged and refused with the reasons counted (by the model's problem codes), the
// encoding read, the cells edited, the cells whose quote was read as text; and the problems
// as a Markdown document by line and column, each worded from its code and params.
import * as vscode from 'vscode';
import type { ColumnDef, ImportProblem, ImportProblemCode, ImportResult } from './model';
import { type SummaryInput, importWords } from './importWords';
import { problemText } from './problems';

export type { SummaryInput } from './importWords';

const words = () => importWords(vscode.l10n, vscode.env.language);

export const rowsText = (n: number): string => words().rowsText(n);
export const cellsText = (n: number): string => words().cellsText(n);
export const columnsText = (n: number): string => words().columnsText(n);
export const moreCellsText = (n: number): string => words().moreCellsText(n);
export const reasonText = (code: ImportProblemCode): string => words().reasonText(code);
/** "Imported a.csv (Shift_JIS (CP932)). 3 rows applied, 1 row unchanged, 2 rows refused (ID not in the table: 2). 5 cells edited in the table; …" */
export const importSummary = (s: SummaryInput): string => words().importSummary(s);
/** An import problem in the UI's language, from its code and params (the English sentence when it has no code). */
export const importProblemText = (p: Parameters<ReturnType<typeof importWords>['importProblemText']>[0]): string => words().importProblemText(p);

/** The problems as Markdown: the summary, then one table row per problem (line, column, ID, what). */
export function problemsMarkdown(
  title: string,
  problems: readonly ImportProblem[],
  result: Pick<ImportResult, 'recordCount' | 'badRecordCount'> & Partial<Pick<ImportResult, 'problemsOmitted'>>,
  columns: readonly ColumnDef[] = [],
  summary?: string,
): string {
  const text = (p: ImportProblem): string => {
    const c = p.field ? columns.find((x) => x.key === p.field) : undefined;
    return p.problem && c ? problemText(p.problem, c, p.text) : importProblemText(p);
  };
  const esc = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
  const omitted = result.problemsOmitted ?? 0;
  const lines = [
    `# ${esc(title)}`,
    '',
    ...(summary ? [summary, ''] : []),
    vscode.l10n.t('Rows with problems: {0} of {1}. Nothing of those rows was applied; the other rows are edits in the table.', result.badRecordCount, result.recordCount),
    '',
    `| ${vscode.l10n.t('Line')} | ${vscode.l10n.t('Column')} | ID | ${vscode.l10n.t('Problem')} |`,
    '|---:|---|---|---|',
    ...problems.map((p) => `| ${p.line} | ${esc(p.column ?? '')} | ${esc(p.id ?? '')} | ${esc(text(p))} |`),
    '',
    ...(omitted > 0 ? [vscode.l10n.t('Counted but not listed: {0}.', words().moreProblemsText(omitted)), ''] : []),
  ];
  return lines.join('\n');
}
