// The matching of an imported CSV / TSV header to the table's columns and the shape of an
// import's problems, without vscode. Header matching: an explicit mapping first, then the
// system name, the exact English or Japanese header, "label (SystemName)", the header with
// width / case / spaces ignored, then the filter bar's aliases; when several columns fit,
// the first one not taken by an earlier header, in column order.
import type { CellProblem } from './cells';
import type { ColumnDef } from './columns';
import { restoreFormula } from './delimited';
import { columnCandidates } from './lookup';

export const ID_COLUMN: ColumnDef = { key: 'Id', label: 'ID', labelJa: 'ID', type: 'text' };

/** The columns a header may name: `columns` and the ID column (when they have none). */
export function withId(columns: readonly ColumnDef[]): readonly ColumnDef[] {
  return columns.some((c) => c.key === 'Id') ? columns : [...columns, ID_COLUMN];
}

/** Header text → column key (or null: ignore that column), as the user confirmed it. */
export type ColumnMapping = Readonly<Record<string, string | null>>;

/**
 * Why an import refused something, as a stable code (the UI words it; `message` is English):
 * header: unknownColumn, sameField, mappingField, noIdColumn;
 * text: unclosedQuote, notRead (a line after a quote never closed), textAfterQuote, control;
 * rows: emptyId, unknownId, duplicateId, extraCells; cells: cell (see `problem`);
 * new items (rows without an ID, outline lines): nameMissing, typeMissing, and where they go:
 * noParent, unknownParent, ambiguousParent, parentRefused, parentMismatch;
 * outline lines (outline.ts): badLevel, noTopLevel, levelJump, tooDeep, unevenIndent,
 * extraName, wbsMismatch, noNameColumn, tooManyLines.
 */
export type ImportProblemCode =
  | 'unknownColumn' | 'sameField' | 'mappingField' | 'noIdColumn'
  | 'unclosedQuote' | 'notRead' | 'textAfterQuote' | 'control'
  | 'emptyId' | 'unknownId' | 'duplicateId' | 'extraCells' | 'cell'
  | NewItemProblemCode;

/** The codes only new items (rows without an ID, outline lines) have. */
export type NewItemProblemCode =
  | 'nameMissing' | 'typeMissing'
  | 'noParent' | 'unknownParent' | 'ambiguousParent' | 'parentRefused' | 'parentMismatch'
  | 'badLevel' | 'noTopLevel' | 'levelJump' | 'tooDeep' | 'unevenIndent' | 'extraName' | 'wbsMismatch' | 'noNameColumn' | 'tooManyLines';

export interface ImportProblem {
  code: ImportProblemCode;
  /** 1-based line of the text (1 is the header). */
  line: number;
  /** The header of the column, when the problem is in one cell. */
  column?: string;
  /** The row's work item ID, when known. */
  id?: string;
  message: string;
  /**
   * Values the UI words the problem with: openLine (unclosedQuote, notRead), lines (duplicateId),
   * cells / headerCells (extraCells), key / otherColumn (sameField, mappingField), position and
   * char (control: 1-based position in the cell, "U+0000"); parent (unknownParent, ambiguousParent,
   * parentRefused, parentMismatch: the cell's text), parentId (parentMismatch), parentLine
   * (parentRefused); level, previous, max, width, unit, number, parentNumber (outline lines);
   * lines and max (tooManyLines).
   */
  params?: Readonly<Record<string, string | number>>;
  /** For a cell's value: the field and the cell problem (its code lets the UI word it in its language). */
  field?: string;
  problem?: CellProblem;
  /** The cell's text as written. */
  text?: string;
}

export interface MappedHeader {
  /** For each header cell, the column it maps to (undefined: ignored or unknown). */
  columns: (ColumnDef | undefined)[];
  /** Index of the ID column, -1 when none. */
  idIndex: number;
  problems: ImportProblem[];
}

/** Matches header cells to columns (see the file header); unknown and repeated columns are problems on line 1. */
export function mapHeader(header: readonly string[], columns: readonly ColumnDef[], mapping: ColumnMapping = {}): MappedHeader {
  const problems: ImportProblem[] = [];
  const universe = withId(columns);
  const taken = new Map<string, string>();
  const out: (ColumnDef | undefined)[] = [];
  for (const h of header) {
    const text = restoreFormula(h).trim();
    let c: ColumnDef | undefined;
    if (Object.prototype.hasOwnProperty.call(mapping, text)) {
      const key = mapping[text];
      if (key !== null && key !== undefined) {
        c = universe.find((x) => x.key === key);
        if (!c) problems.push({ code: 'mappingField', line: 1, column: text, params: { key }, message: `The mapping names the field "${key}", which the table does not have.` });
      }
    } else if (text !== '') {
      const found = columnCandidates(universe, text);
      if (found.length === 0) problems.push({ code: 'unknownColumn', line: 1, column: text, message: `Unknown column "${text}": no field has this system name or display name; map it to a field or leave it out.` });
      c = found.find((x) => !taken.has(x.key)) ?? found[0];
    }
    if (c && taken.has(c.key)) {
      const prev = taken.get(c.key)!;
      problems.push({ code: 'sameField', line: 1, column: text, params: { key: c.key, otherColumn: prev }, message: `Column "${text}" is the same field (${c.key}) as column "${prev}": only the first is read.` });
      c = undefined;
    }
    if (c) taken.set(c.key, text);
    out.push(c);
  }
  const idIndex = out.findIndex((c) => c?.key === 'Id');
  if (idIndex < 0) problems.push({ code: 'noIdColumn', line: 1, message: 'No ID column: the file needs a column "Id" (or "ID") naming each row\'s work item.' });
  return { columns: out, idIndex, problems };
}
