// The words of an import into the work item table, without vscode (the caller gives its
// l10n, vscode.l10n in the extension, the bundle in tests): counts with their singular, the
// reasons rows were refused by the model's problem code, the summary (rows applied, unchanged
// and refused, the encoding read, the cells edited, quotes read as text, problems not listed)
// and each import problem worded from its code and params.
import type { ImportProblem, ImportProblemCode, ImportResult } from './model';
import { core } from '../core/load';

/** vscode.l10n's t: a message with placeholders {0}, {1}, … filled by `args`. */
export interface L10n {
  t(message: string, ...args: (string | number | boolean)[]): string;
}

export interface SummaryInput {
  /** The file (relative path) or the clipboard. */
  source: string;
  /** The encoding read, shown by name (none for the clipboard or a given text). */
  encoding?: string;
  result: Pick<ImportResult, 'badRecordCount' | 'recordCount' | 'appliedRowCount' | 'unchangedRowCount' | 'refusedByCode' | 'problemsOmitted' | 'quoteAsText'>;
  changedCells: number;
}

/** The words in the UI's language: `l10n` translates, `language` tells how sentences join (Japanese: no space). */
export function importWords(l10n: L10n, language: string) {
  /** "1 row" / "100,000 rows". */
  function rowsText(n: number): string {
    return n === 1 ? l10n.t('1 row') : l10n.t('{0} rows', n.toLocaleString('en-US'));
  }

  function cellsText(n: number): string {
    return n === 1 ? l10n.t('1 cell') : l10n.t('{0} cells', n);
  }

  function columnsText(n: number): string {
    return n === 1 ? l10n.t('1 column') : l10n.t('{0} columns', n);
  }

  /** "1 more cell" / "3 more cells". */
  function moreCellsText(n: number): string {
    return n === 1 ? l10n.t('1 more cell') : l10n.t('{0} more cells', n);
  }

  function cellsEditedText(n: number): string {
    return n === 1 ? l10n.t('1 cell edited') : l10n.t('{0} cells edited', n);
  }

  /** Why rows were refused, by the model's problem code, as a short phrase. */
  function reasonText(code: ImportProblemCode): string {
    switch (code) {
      case 'unknownId':
        return l10n.t('ID not in the table');
      case 'duplicateId':
        return l10n.t('ID on more than one line');
      case 'emptyId':
        return l10n.t('empty ID');
      case 'extraCells':
        return l10n.t('more cells than the header');
      case 'unclosedQuote':
        return l10n.t('unclosed quote');
      case 'notRead':
        return l10n.t('line inside an unclosed quote');
      case 'textAfterQuote':
        return l10n.t('text after a closing quote');
      case 'control':
        return l10n.t('control character in a cell');
      case 'cell':
        return l10n.t('value not valid for its column');
      case 'noIdColumn':
        return l10n.t('no ID column');
      case 'unknownColumn':
      case 'sameField':
      case 'mappingField':
        return l10n.t('problem in the header');
    }
  }

  /** "Imported a.csv (Shift_JIS (CP932)). 3 rows applied, 1 row unchanged, 2 rows refused (ID not in the table: 2). 5 cells edited in the table; …" */
  function importSummary(s: SummaryInput): string {
    const r = s.result;
    const ja = language.startsWith('ja');
    const sep = ja ? '、' : ', ';
    const head = s.encoding ? l10n.t('Imported {0} ({1}).', s.source, s.encoding) : l10n.t('Imported {0}.', s.source);
    const parts = [l10n.t('{0} applied', rowsText(r.appliedRowCount))];
    if (r.unchangedRowCount > 0) parts.push(l10n.t('{0} unchanged', rowsText(r.unchangedRowCount)));
    if (r.badRecordCount > 0) {
      const reasons = core().refusalReasons(r).map((x) => `${reasonText(x.code)}: ${x.rows}`).join(sep);
      parts.push(reasons ? l10n.t('{0} refused ({1})', rowsText(r.badRecordCount), reasons) : l10n.t('{0} refused', rowsText(r.badRecordCount)));
    }
    const sentences = [head, `${parts.join(sep)}${ja ? '。' : '.'}`];
    if (r.quoteAsText.length > 0) sentences.push(l10n.t('In {0}, a quote that closes no quoted cell was read as a character of the cell.', cellsText(r.quoteAsText.length)));
    if (r.problemsOmitted > 0) sentences.push(l10n.t('Counted but not listed: {0}.', moreProblemsText(r.problemsOmitted)));
    sentences.push(l10n.t('{0} in the table; nothing is sent until you review and send the changes.', cellsEditedText(s.changedCells)));
    // Japanese sentences follow each other without a space (each ends with 。).
    return sentences.join(ja ? '' : ' ');
  }

  const str = (v: string | number | undefined): string => (v === undefined ? '' : String(v));
  const num = (v: string | number | undefined, or = 0): number => (typeof v === 'number' ? v : or);

  /** An import problem in the UI's language, from its code and params (the English sentence when it has no code). */
  function importProblemText(p: Pick<ImportProblem, 'message' | 'line' | 'column' | 'id' | 'params'> & { code?: ImportProblemCode }): string {
    const q = p.params ?? {};
    switch (p.code) {
      case 'emptyId':
        return l10n.t('The ID is empty.');
      case 'unknownId':
        return l10n.t('Unknown ID {0}: no such work item in the table.', str(p.id));
      case 'duplicateId':
        return l10n.t('ID {0} is on more than one line ({1}).', str(p.id), str(q.lines));
      case 'extraCells':
        return l10n.t('The line has more cells ({0}) than the header ({1}).', num(q.cells), num(q.headerCells));
      case 'unknownColumn':
        return l10n.t('Unknown column "{0}": no field has this system name or display name; map it to a field or leave it out.', str(p.column));
      case 'sameField':
        return l10n.t('Column "{0}" is the same field ({1}) as column "{2}": only the first is read.', str(p.column), str(q.key), str(q.otherColumn));
      case 'mappingField':
        return l10n.t('The mapping names the field "{0}", which the table does not have.', str(q.key));
      case 'noIdColumn':
        return l10n.t('No ID column: the file needs a column "Id" (or "ID") naming each row\'s work item.');
      case 'unclosedQuote':
        return l10n.t('Line {0}: a quoted cell is not closed (a " is missing): this row and the lines after it are not read.', num(q.openLine, p.line));
      case 'notRead':
        return l10n.t('Line {0} is not read: the quote opened on line {1} does not close where a cell ends.', p.line, num(q.openLine));
      case 'textAfterQuote':
        return l10n.t('Line {0}: a quoted cell is closed and followed by more text before the delimiter (as in "5 inch" screw); the row is not read.', num(q.openLine, p.line));
      case 'control':
        return l10n.t('Column {0}: the cell holds the control character {1} (at character {2}); the row is not read.', str(p.column), str(q.char), num(q.position));
      case 'cell':
      case undefined:
        return p.message;
    }
  }

  /** "1 more problem" / "25 more problems". */
  function moreProblemsText(n: number): string {
    return n === 1 ? l10n.t('1 more problem') : l10n.t('{0} more problems', n);
  }

  return { rowsText, cellsText, columnsText, moreCellsText, reasonText, importSummary, importProblemText, moreProblemsText };
}
