// Whether a cell may be edited and what a typed or pasted text means in it, without
// vscode. The checks request documents get (src/schema/rules.ts checkUpdateBody with
// the service's catalogue: types, ranges, names, finish not before start) apply to
// every edited cell, so a table edit that passes here passes the document checks.
import { checkFieldUpdate, checkUpdateBody } from '../../schema/rules';
import type { DocumentIssue } from '../../schema/issues';
import { fieldInfo, readOnlyField, type ReadOnlyKind } from '../../schema/fields';
import type { ServiceFieldCatalogue } from '../../schema/service-fields';
import { type ColumnDef, type TableRow, choiceName } from './columns';
import type { UserResolver } from './lookup';
import { isNewRowId } from './drafts';
import { MAX_VALUE_TEXT, excerpt, foldForMatch, parseDate, parseHours, parseNumber } from './text';

/**
 * Why a cell was not accepted: a stable code and an English sentence (the UI localizes the sentence);
 * 'control': the cell holds a control character other than TAB, LF and CR.
 */
export interface CellProblem {
  code: 'readOnly' | 'type' | 'choice' | 'user' | 'check' | 'control';
  message: string;
  /** For 'check': the request-document issue (its code and params let the UI word it in its language). */
  issue?: DocumentIssue;
}

/**
 * Why a cell of a read-only field cannot be edited, by the kind src/schema/fields.ts
 * READ_ONLY_FIELDS gives it (the list of fields is there, shared with the sandbox); the
 * member that changes it is named where there is one.
 */
export const READ_ONLY_REASONS: Readonly<Record<ReadOnlyKind, string>> = {
  id: 'The ID of a work item cannot be changed.',
  project: 'The project of a work item cannot be changed here.',
  folder: 'The folder follows the parent: move the item to another parent (moveParentTo).',
  parent: 'The parent is changed by moving the item (moveParentTo), not by editing this cell.',
  itemType: 'The type is changed with "change item type" (changeItemTypeTo), not by editing this cell.',
  assignments: 'Assignees are changed with the assignment form (assignmentChange), not by editing this cell.',
  actualTime: 'Actual time comes from time entries.',
  actualCost: 'Actual cost comes from time entries.',
  service: 'Set by the service.',
};

/** The reason a read-only field's cell shows (undefined: not in READ_ONLY_FIELDS). */
export function readOnlyFieldReason(key: string): string | undefined {
  const f = readOnlyField(key);
  return f ? READ_ONLY_REASONS[f.kind] : undefined;
}

export interface CellContext {
  /** The service's field catalogue (serviceFieldCatalogue of GET /system/fieldTypes); without it the built-in checks. */
  catalogue?: ServiceFieldCatalogue;
  /** Users by name, login name or ID (user cells). Without it only IDs are accepted. */
  resolveUser?: UserResolver;
  /** The cell is a new row's: its item type and assignees are set with the add, not by an update. */
  newRow?: boolean;
}

/** Set with an add (a new row's cells), not with an update's members. */
const SET_WITH_ADD: ReadonlySet<string> = new Set(['ItemTypeId', 'Assignments']);

/** The context of a row's cells: a new row's says so. */
export function cellContextOf(row: { id: string }, ctx: CellContext): CellContext {
  return isNewRowId(row.id) && !ctx.newRow ? { ...ctx, newRow: true } : ctx;
}

/** Why column `c` cannot be edited at all; undefined when it can. */
export function readOnlyReason(c: ColumnDef, ctx: CellContext = {}): string | undefined {
  if (ctx.newRow && SET_WITH_ADD.has(c.key)) return undefined;
  const fixed = readOnlyFieldReason(c.key);
  if (fixed) return fixed;
  const service = ctx.catalogue?.fields.get(c.key) ?? c.field;
  if (service?.isReadOnly) return 'The service marks this field read only.';
  const builtin = fieldInfo(c.key);
  if (builtin && !builtin.editable) return 'This field cannot be edited.';
  return undefined;
}

const BOOLEAN_TEXT: Readonly<Record<string, boolean>> = { true: true, false: false, yes: true, no: false, '1': true, '0': false, はい: true, いいえ: false };

export type CellInput = { ok: true; value: unknown } | { ok: false; problem: CellProblem };

/** A text quoted in a message: a short excerpt of it, never the whole cell. */
const quoted = (text: string): string => JSON.stringify(excerpt(text));

const typeProblem = (c: ColumnDef, text: string, expected: string): CellInput => ({
  ok: false,
  problem: {
    code: 'type',
    message:
      text.trim().length > MAX_VALUE_TEXT
        ? `${c.label}: ${quoted(text)} (${text.length.toLocaleString('en')} characters) is too long to be ${expected}: at most ${MAX_VALUE_TEXT} characters.`
        : `${c.label}: ${quoted(text)} is not ${expected}.`,
  },
});

/**
 * The value to send for a text typed or pasted into a cell of `c`: numbers and hours
 * with full-width digits (hours → minutes), dates as yyyy-MM-dd, list values by name /
 * code / ID → the choice's ID, users by name / login name / ID → the user's ID. An empty
 * text clears the field (null). A text cell keeps the text as written.
 */
/** Built-in text fields whose empty value is the empty string. */
const EMPTY_AS_TEXT: ReadonlySet<string> = new Set(['Name', 'Code', 'Description']);

export function parseCellInput(c: ColumnDef, text: string, ctx: CellContext = {}): CellInput {
  if (c.type === 'text' && c.field?.dataType === 'Boolean') {
    const b = BOOLEAN_TEXT[foldForMatch(text.trim())];
    if (text.trim() === '') return { ok: true, value: null };
    return b === undefined ? typeProblem(c, text, 'true or false') : { ok: true, value: b };
  }
  // An emptied built-in text (the name, the code, the description) is sent as "" (the help gives these
  // fields as strings, and the reads return "" for none); other text fields are emptied with null.
  if (c.type === 'text') return { ok: true, value: text === '' ? (EMPTY_AS_TEXT.has(c.key) ? '' : null) : text };
  const t = text.trim();
  if (t === '') return { ok: true, value: null };
  switch (c.type) {
    case 'number':
    case 'progress': {
      const n = parseNumber(t);
      return n === undefined ? typeProblem(c, text, 'a number') : { ok: true, value: n };
    }
    case 'hours': {
      const m = parseHours(t);
      return m === undefined ? typeProblem(c, text, 'a time in hours (e.g. 7.5 or 7:30)') : { ok: true, value: m };
    }
    case 'date': {
      const d = parseDate(t);
      return d === undefined ? typeProblem(c, text, 'a date (yyyy-MM-dd)') : { ok: true, value: d };
    }
    case 'list': {
      const choices = c.choices ?? [];
      if (choices.length === 0) return { ok: true, value: t };
      const q = foldForMatch(t);
      const ch = choices.find((x) => x.id === t) ?? choices.find((x) => foldForMatch(x.name) === q || (!!x.code && foldForMatch(x.code) === q));
      if (!ch) return { ok: false, problem: { code: 'choice', message: `${c.label}: ${quoted(text)} is not one of ${choices.map((x) => x.name).join(', ')}.` } };
      return { ok: true, value: ch.id ?? ch.name };
    }
    case 'user': {
      const ids = ctx.resolveUser ? ctx.resolveUser(t) : [t];
      if (ids.length === 1) return { ok: true, value: ids[0] };
      const message = ids.length === 0 ? `${c.label}: no user matches ${quoted(text)}.` : `${c.label}: ${ids.length} users match ${quoted(text)}; write the login name or the ID.`;
      return { ok: false, problem: { code: 'user', message } };
    }
  }
}

/**
 * Checks a new value (as sent) for one cell: read-only fields say why; then the
 * request-document checks of `fields: {[key]: value}` with the catalogue. For a planned
 * date the row's other planned date (`fields`, edits included) is checked with it
 * (finish not before start). Undefined when the value may be sent.
 */
export function checkCellValue(c: ColumnDef, value: unknown, fields: Readonly<Record<string, unknown>> = {}, ctx: CellContext = {}): CellProblem | undefined {
  const ro = readOnlyReason(c, ctx);
  if (ro) return { code: 'readOnly', message: `${c.label}: ${ro}` };
  // An add's item type and assignees: the choice or the users were read by the cell's parse.
  if (ctx.newRow && SET_WITH_ADD.has(c.key)) return undefined;
  const body: Record<string, unknown> = { [c.key]: value };
  if (value !== null && (c.key === 'PlannedStartDate' || c.key === 'PlannedFinishDate')) {
    const other = c.key === 'PlannedStartDate' ? 'PlannedFinishDate' : 'PlannedStartDate';
    const o = fields[other];
    if (typeof o === 'string' && o.length >= 10) body[other] = o.slice(0, 10);
  }
  const options = ctx.catalogue ? { catalogue: ctx.catalogue } : {};
  // One field: its rules alone give the whole check's issues (without the shape model's parse).
  const issues = Object.keys(body).length === 1 ? checkFieldUpdate(c.key, value, options) : checkUpdateBody({ fields: body }, [], options).issues;
  const err = issues.find((i) => i.severity === 'error');
  return err ? { code: 'check', message: `${c.label}: ${err.message}`, issue: err } : undefined;
}

/** A proposed edit of one cell after parsing and checks. */
export type CellEditResult = { ok: true; id: string; field: string; value: unknown } | { ok: false; id: string; field: string; problem: CellProblem };

/** Parses `text` for the cell of `row` in `c` and checks it (`fields`: the row's values with edits). */
export function editCellText(row: TableRow, c: ColumnDef, text: string, fields: Readonly<Record<string, unknown>>, given: CellContext = {}): CellEditResult {
  const ctx = cellContextOf(row, given);
  const ro = readOnlyReason(c, ctx);
  if (ro) return { ok: false, id: row.id, field: c.key, problem: { code: 'readOnly', message: `${c.label}: ${ro}` } };
  const parsed = parseCellInput(c, text, ctx);
  if (!parsed.ok) return { ok: false, id: row.id, field: c.key, problem: parsed.problem };
  return editCellValue(row, c, parsed.value, fields, ctx);
}

/** Checks a value (as sent) for the cell of `row` in `c`. */
export function editCellValue(row: TableRow, c: ColumnDef, value: unknown, fields: Readonly<Record<string, unknown>>, ctx: CellContext = {}): CellEditResult {
  const problem = checkCellValue(c, value, fields, cellContextOf(row, ctx));
  return problem ? { ok: false, id: row.id, field: c.key, problem } : { ok: true, id: row.id, field: c.key, value };
}

/** A list value as shown in messages (name for an ID). */
export function describeCell(c: ColumnDef, value: unknown): string {
  if (value === null || value === undefined) return '(empty)';
  if (c.type === 'list' && typeof value === 'string') return choiceName(c, value);
  return typeof value === 'string' ? value : JSON.stringify(value);
}
