// The cells of one column of an imported CSV / TSV file, told from the table's values
// without vscode. An import compares every cell of the file (a million for 50,000 rows
// of 20 columns) with what the export writes for the item's current value, and parses
// and checks the few that differ. What the export writes for a list, user, number,
// hours, progress or date value depends on the value alone, so it is made once per
// distinct value (a status column has a handful) and kept for the import; assignees are
// compared name by name with the cell, with no text made. Parsing a cell of such a column
// depends on its text alone and checking a value (but for the planned dates, checked with
// the row's other date) on the value alone, so both are kept per distinct text or value
// too. Every kept answer is the one the plain functions give (formatCell, parseCellInput,
// checkCellValue); at most importMemo.max are kept per column, after that they are worked
// out each time.
import { idValue } from '../../schema/reads';
import { type CellContext, type CellInput, type CellProblem, checkCellValue, readOnlyReason } from './cells';
import { type ColumnDef, type FormatContext, formatCell, toCellValue } from './columns';
import { dateOf } from './text';

/** The most answers kept per column and kind (shown texts, parsed cells, checks); settable so tests can compare both ways. */
export const importMemo = { max: 4096 };
/** Longer cell texts are not kept as keys (no value of a list, number, hours or date column is that long). */
const MEMO_TEXT = 100;

const BREAKS = /\r\n?/g;

/** Texts equal but for their line breaks (CRLF, LF and CR are the same break). */
export function sameText(a: string, b: string): boolean {
  if (!a.includes('\r') && !b.includes('\r')) return false;
  return a.replace(BREAKS, '\n') === b.replace(BREAKS, '\n');
}

/**
 * Whether `text` is the assignees as formatCell shows them (the names, else the IDs, of
 * assignmentIds joined with ", "), compared piece by piece without making the text.
 */
export function sameAssignees(raw: unknown, text: string, userName: FormatContext['userName']): boolean {
  if (!Array.isArray(raw)) return text === '';
  let at = 0;
  let first = true;
  for (const a of raw) {
    const id = typeof a === 'object' && a !== null ? idValue((a as { partyId?: unknown }).partyId) : idValue(a);
    if (id === undefined) continue;
    const shown = userName?.(id) ?? id;
    if (!first) {
      if (text.charCodeAt(at) !== 44 || text.charCodeAt(at + 1) !== 32) return false; // ", "
      at += 2;
    }
    if (!text.startsWith(shown, at)) return false;
    at += shown.length;
    first = false;
  }
  return at === text.length;
}

/** How a column's cells are told unchanged (see `unchanged`). */
type Kind = 'text' | 'date' | 'assignees' | 'value';

/** A value kept as a key: a primitive (objects are compared by what they hold, not by identity). */
const keyable = (v: unknown): boolean => (typeof v !== 'object' || v === null) && !Object.is(v, -0);

/** One column of the file (not the ID): its cells told unchanged, parsed and checked, with the answers kept. */
export class ImportColumn {
  readonly key: string;
  /** Why the column cannot be edited (readOnlyReason), undefined when it can. */
  readonly readOnly: string | undefined;
  private readonly kind: Kind;
  private readonly shown = new Map<unknown, string>();
  private readonly parsed: Map<string, CellInput> | undefined;
  private readonly checked: Map<unknown, CellProblem | null> | undefined;

  constructor(
    readonly c: ColumnDef,
    private readonly options: CellContext & FormatContext,
  ) {
    this.key = c.key;
    this.readOnly = readOnlyReason(c, options);
    this.kind = c.multi ? 'assignees' : c.type === 'text' ? 'text' : c.type === 'date' ? 'date' : 'value';
    // A text cell is its own value (nothing to keep); a planned date is checked with the other date of its row.
    this.parsed = c.type === 'text' ? undefined : new Map();
    this.checked = c.type === 'text' || c.key === 'PlannedStartDate' || c.key === 'PlannedFinishDate' ? undefined : new Map();
  }

  /** What the export writes for a raw value of this column (formatCell of its cell value). */
  shownOf(raw: unknown): string {
    if (!keyable(raw)) return formatCell(toCellValue(raw, this.c), this.c, this.options);
    let s = this.shown.get(raw);
    if (s === undefined) {
      s = formatCell(toCellValue(raw, this.c), this.c, this.options);
      if (this.shown.size < importMemo.max) this.shown.set(raw, s);
    }
    return s;
  }

  /**
   * Whether `text` is what the export writes for the raw value `raw` (a text column: also
   * with other line breaks; a date column: also the date of a date-time value).
   */
  unchanged(raw: unknown, text: string): boolean {
    switch (this.kind) {
      case 'text': {
        // A string is shown as it is (the empty one as "").
        const shown = typeof raw === 'string' ? raw : this.shownOf(raw);
        return shown === text || sameText(shown, text);
      }
      case 'date':
        if (typeof raw === 'string' && text.length === 10 && raw.startsWith(text) && dateOf(text) !== undefined) return true;
        return this.shownOf(raw) === text;
      case 'assignees':
        return sameAssignees(raw, text, this.options.userName);
      default:
        return this.shownOf(raw) === text;
    }
  }

  /** `parse(text)`, kept per text for a column other than text. */
  parse(text: string, parse: (text: string) => CellInput): CellInput {
    const memo = this.parsed;
    if (memo === undefined || text.length > MEMO_TEXT) return parse(text);
    let p = memo.get(text);
    if (p === undefined) {
      p = parse(text);
      if (memo.size < importMemo.max) memo.set(text, p);
    }
    return p;
  }

  /** checkCellValue of a new value (`fields`: the row's values with its edits), kept per value where it depends on the value alone. */
  check(value: unknown, fields: Readonly<Record<string, unknown>>): CellProblem | undefined {
    const memo = this.checked;
    if (memo === undefined || !keyable(value) || (typeof value === 'string' && value.length > MEMO_TEXT)) return checkCellValue(this.c, value, fields, this.options);
    let p = memo.get(value);
    if (p === undefined) {
      p = checkCellValue(this.c, value, fields, this.options) ?? null;
      if (memo.size < importMemo.max) memo.set(value, p);
    }
    return p ?? undefined;
  }
}
