// The words of an import into the work item table, without vscode (the caller gives its
// l10n, vscode.l10n in the extension, the bundle in tests): counts with their singular, the
// reasons rows were refused by the model's problem code, the summary (rows applied, unchanged,
// added as new items and refused, the encoding read, the cells edited, quotes read as text,
// problems not listed) and each import problem worded from its code and params, the problems
// of new items (rows without an ID, lines of a pasted outline) included.
import type { ImportProblem, ImportProblemCode, ImportResult, NewItemProblemCode } from './model';
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
  result: Pick<ImportResult, 'badRecordCount' | 'recordCount' | 'appliedRowCount' | 'unchangedRowCount' | 'refusedByCode' | 'problemsOmitted' | 'quoteAsText'> & Partial<Pick<ImportResult, 'newRowCount'>>;
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

  /** "1 new item" / "3 new items" (work items to add). */
  function newItemsText(n: number): string {
    return n === 1 ? l10n.t('1 new item') : l10n.t('{0} new items', n.toLocaleString('en-US'));
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
      default:
        return newItemReasonText(code);
    }
  }

  /** Why new items (rows without an ID, outline lines) were refused, as a short phrase. */
  function newItemReasonText(code: NewItemProblemCode): string {
    switch (code) {
      case 'nameMissing':
        return l10n.t('new item without a name');
      case 'typeMissing':
        return l10n.t('new item without an item type');
      case 'noParent':
        return l10n.t('no parent given');
      case 'unknownParent':
        return l10n.t('parent not found');
      case 'ambiguousParent':
        return l10n.t('path of more than one item');
      case 'parentRefused':
        return l10n.t('parent row not applied');
      case 'parentMismatch':
        return l10n.t('parent ID and path disagree');
      case 'badLevel':
        return l10n.t('level not readable');
      case 'noTopLevel':
        return l10n.t('line before the top level');
      case 'levelJump':
        return l10n.t('level skipped');
      case 'tooDeep':
        return l10n.t('too many levels');
      case 'unevenIndent':
        return l10n.t('uneven indent');
      case 'extraName':
        return l10n.t('more than one name on a line');
      case 'wbsMismatch':
        return l10n.t('WBS number not below its parent');
      case 'noNameColumn':
        return l10n.t('no name column');
      case 'tooManyLines':
        return l10n.t('too many lines');
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
    if ((r.newRowCount ?? 0) > 0) parts.push(newItemsText(r.newRowCount!));
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
      default:
        return newItemProblemText(p.code, p.column, q);
    }
  }

  /** A problem of a new item (a row without an ID, an outline line) in the UI's language. */
  function newItemProblemText(code: NewItemProblemCode, column: string | undefined, q: Readonly<Record<string, string | number>>): string {
    const parent = str(q.parent);
    switch (code) {
      case 'nameMissing':
        return l10n.t('The name is empty: a new item needs a name.');
      case 'typeMissing':
        return l10n.t('No item type: give the type in a type column, or choose the types of new items.');
      case 'noParent':
        return l10n.t('The row names no parent, and no folder was chosen for new rows: give its parent in a parent column.');
      case 'unknownParent':
        return l10n.t('The parent "{0}" is not found: no row of the table, and no new row above, has this ID or path.', parent);
      case 'ambiguousParent':
        return l10n.t('More than one item has the path "{0}": give the parent by its ID.', parent);
      case 'parentRefused':
        return l10n.t('The parent "{0}" is the new row on line {1}, which is not applied: this row is not applied either.', parent, num(q.parentLine));
      case 'parentMismatch':
        return l10n.t('The parent path "{0}" and the parent ID {1} are not the same item.', parent, str(q.parentId));
      case 'badLevel':
        return l10n.t('"{0}" is not a level: write a whole number from 1, or a WBS number such as 1.2.3.', str(q.text));
      case 'noTopLevel':
        return l10n.t('The line comes before any line of the top level: an outline starts on its top level.');
      case 'levelJump':
        return l10n.t('The line is on level {0}, more than one level below the line above it (level {1}).', num(q.level), num(q.previous));
      case 'tooDeep':
        return l10n.t('The line is on level {0}: at most {1} levels can be added below the chosen row.', num(q.level), num(q.max));
      case 'unevenIndent':
        return l10n.t('The indent ({0} spaces wide) is not a whole number of levels ({1} spaces each; a full-width space is 2).', num(q.width), num(q.unit));
      case 'extraName':
        return l10n.t('The line has more than one name in the columns of the outline (also in column {0}).', str(column));
      case 'wbsMismatch':
        return l10n.t('The WBS number {0} does not continue {1}, the number of its parent on line {2}.', str(q.number), str(q.parentNumber), num(q.parentLine));
      case 'noNameColumn':
        return l10n.t('No name column: the header names no column of names of work items.');
      case 'tooManyLines':
        return l10n.t('More than {0} lines: at most {0} new items are added at once. Nothing was read.', num(q.max));
    }
  }

  /** "1 more problem" / "25 more problems". */
  function moreProblemsText(n: number): string {
    return n === 1 ? l10n.t('1 more problem') : l10n.t('{0} more problems', n);
  }

  return { rowsText, cellsText, columnsText, moreCellsText, newItemsText, reasonText, importSummary, importProblemText, moreProblemsText };
}
