// Why rows of an import were refused, counted for a short summary ("ID not in the table: 7,
// value not valid: 5"), without vscode: the model's count of refused records by problem code
// (ImportResult.refusedByCode, complete even when the list of problems is capped). A record
// refused for several reasons counts under each.
import type { ImportProblemCode } from './csv-header';
import type { ImportResult } from './csv-import';

/** The order of reasons with the same count: the text's own problems first, then IDs and parents, then cells (an outline's own last). */
const ORDER: readonly ImportProblemCode[] = [
  'unclosedQuote', 'notRead', 'textAfterQuote', 'control', 'noIdColumn', 'unknownId', 'duplicateId', 'emptyId',
  'noParent', 'unknownParent', 'ambiguousParent', 'parentRefused', 'parentMismatch', 'nameMissing', 'typeMissing', 'extraCells', 'cell',
  'unknownColumn', 'sameField', 'mappingField',
  'tooManyLines', 'noNameColumn', 'badLevel', 'noTopLevel', 'levelJump', 'tooDeep', 'unevenIndent', 'extraName', 'wbsMismatch',
];

/** Refused rows per reason, most first (ties in the order above). */
export function refusalReasons(result: Pick<ImportResult, 'refusedByCode'>): { code: ImportProblemCode; rows: number }[] {
  return Object.entries(result.refusedByCode)
    .filter((e): e is [ImportProblemCode, number] => (e[1] ?? 0) > 0)
    .map(([code, rows]) => ({ code, rows }))
    .sort((a, b) => b.rows - a.rows || ORDER.indexOf(a.code) - ORDER.indexOf(b.code));
}
