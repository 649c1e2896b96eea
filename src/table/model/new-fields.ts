// The fields of a new work item from the cells of one line, without vscode: a line of an
// outline pasted from a spreadsheet (outline.ts) and a row of an imported file without an ID
// (import-new.ts). Each cell is parsed as an edit of its column parses it (cells.ts
// parseCellInput) and checked as an edit is checked (checkCellValue, a planned start with the
// line's planned finish), with the same problem code ('cell' and the cell problem); an empty
// cell sets nothing. Two fields an update cannot change are given when an item is made: the
// type (ItemTypeId) and the assignees (Assignments: names, login names or IDs separated by
// commas, as the export writes them). The fields that place an item (ParentId, ParentName)
// are read by the caller; a cell of any other read-only column refuses the line when it has a
// value.
import { type CellContext, type CellInput, type CellProblem, checkCellValue, parseCellInput } from './cells';
import { type ColumnDef, type FormatContext, SYSTEM_COLUMNS } from './columns';
import type { ImportProblem } from './csv-header';
import { restoreFormula } from './delimited';
import { ImportColumn } from './import-cells';
import { MAX_VALUE_TEXT, excerpt } from './text';

/** The item types of new items whose type no cell gives (IDs of the project's item types). */
export interface DefaultItemTypes {
  /** For an item that gets children (a folder type); without it, `task`. */
  folder?: string;
  /** For an item without children (a task type); without it, `folder`. */
  task?: string;
}

/** The type a new item without a type cell gets: `folder` when it has children, else `task` (each the other when missing). */
export function defaultItemType(d: DefaultItemTypes | undefined, hasChildren: boolean): string | undefined {
  if (!d) return undefined;
  return hasChildren ? (d.folder ?? d.task) : (d.task ?? d.folder);
}

/** Read-only fields an update cannot change that an add sets. */
const SET_WHEN_MADE: ReadonlySet<string> = new Set(['ItemTypeId', 'Assignments']);
/** Fields that say where an item is: read by the caller, never a field of the new item. */
export const PLACEMENT_FIELDS: ReadonlySet<string> = new Set(['Id', 'ParentId', 'ParentName']);
/** At most this many assignees are read from one cell (a longer list is not a list anyone typed). */
export const MAX_ASSIGNEES = 100;

const NAME_COLUMN = SYSTEM_COLUMNS.find((c) => c.key === 'Name')!;

export interface NewFieldsContext extends CellContext, FormatContext {
  /**
   * A user by the text a file shows for them (the import: the names the export writes for the
   * table's users), tried before `resolveUser`; undefined when the text names none.
   */
  shownUser?: (text: string) => string | undefined;
}

const quoted = (text: string): string => JSON.stringify(excerpt(text));

/** The fields of new items from the cells of lines whose columns are known (one instance per block or file). */
export class NewItemFields {
  private readonly plans: (ImportColumn | undefined)[];
  private readonly nameColumn: ColumnDef;

  /**
   * `columns[k]`: the column of cell k (undefined: not read); `labels[k]`: its header, for
   * problems (else "#k+1"). `plans`: the import's own columns with the answers they keep, when
   * it has them; `parse`: how a cell's text becomes a value (the import reads users by the name
   * it shows).
   */
  constructor(
    columns: readonly (ColumnDef | undefined)[],
    private readonly labels: readonly string[],
    private readonly ctx: NewFieldsContext,
    plans?: readonly (ImportColumn | undefined)[],
    private readonly parse: (c: ColumnDef, text: string) => CellInput = (c, text) => parseCellInput(c, text, ctx),
  ) {
    this.plans = plans ? [...plans] : columns.map((c) => (c === undefined || PLACEMENT_FIELDS.has(c.key) ? undefined : new ImportColumn(c, ctx)));
    this.nameColumn = columns.find((c) => c?.key === 'Name') ?? NAME_COLUMN;
  }

  /** The header of cell k. */
  label(k: number): string {
    const h = this.labels[k];
    return h !== undefined && h !== '' ? h : `#${k + 1}`;
  }

  /** Whether cell k is read into a field. */
  reads(k: number): boolean {
    const plan = this.plans[k];
    return plan !== undefined && !PLACEMENT_FIELDS.has(plan.key);
  }

  /**
   * The values of `cells` by system name; problems are pushed to `out`. Cells in `skip`
   * (the outline's name and level) and in `control` (a control character: the caller says
   * so) are not read.
   */
  read(cells: readonly string[], line: number, out: ImportProblem[], skip?: readonly number[], control?: readonly number[]): Record<string, unknown> {
    const fields: Record<string, unknown> = {};
    const plans = this.plans;
    const n = Math.min(plans.length, cells.length);
    let read: { plan: ImportColumn; k: number; text: string }[] | undefined;
    for (let k = 0; k < n; k++) {
      const plan = plans[k];
      if (plan === undefined || PLACEMENT_FIELDS.has(plan.key) || skip?.includes(k) || control?.includes(k)) continue;
      const raw = cells[k]!;
      const text = raw.charCodeAt(0) === 39 ? restoreFormula(raw) : raw;
      if (text.trim() === '') continue;
      const c = plan.c;
      if (plan.readOnly !== undefined && !SET_WHEN_MADE.has(c.key)) {
        const message = `${c.label}: ${plan.readOnly}`;
        out.push(this.cellProblem(line, k, c, { code: 'readOnly', message }, text));
        continue;
      }
      const p = c.multi ? this.assignees(c, text) : plan.parse(text, (t) => this.parse(c, t));
      if (!p.ok) {
        out.push(this.cellProblem(line, k, c, p.problem, text));
        continue;
      }
      if (p.value === null) continue;
      fields[c.key] = p.value;
      (read ??= []).push({ plan, k, text });
    }
    // Checked once every value is read: a planned date with the line's other planned date.
    if (read) {
      for (const v of read) {
        if (SET_WHEN_MADE.has(v.plan.key)) continue;
        const problem = v.plan.check(fields[v.plan.key], fields);
        if (problem) out.push(this.cellProblem(line, v.k, v.plan.c, problem, v.text));
      }
    }
    return fields;
  }

  /** A cell's problem as the import words it ('cell', with the cell problem). */
  cellProblem(line: number, k: number, c: ColumnDef, problem: CellProblem, text: string): ImportProblem {
    return { code: 'cell', line, column: this.label(k), message: problem.message, field: c.key, problem, text };
  }

  /**
   * Checks the name of a new item (nameMissing when empty, else the name's checks: its length)
   * and sets it; `k` is its cell, for the column of a problem. False when refused.
   */
  setName(fields: Record<string, unknown>, name: string, line: number, k: number | undefined, out: ImportProblem[]): boolean {
    if (name.trim() === '') {
      out.push(this.nameMissing(line, k));
      return false;
    }
    const problem = checkCellValue(this.nameColumn, name, fields, this.ctx);
    if (problem) {
      out.push({ code: 'cell', line, ...(k !== undefined ? { column: this.label(k) } : {}), message: problem.message, field: 'Name', problem, text: name });
      return false;
    }
    fields['Name'] = name;
    return true;
  }

  nameMissing(line: number, k: number | undefined): ImportProblem {
    return { code: 'nameMissing', line, ...(k !== undefined ? { column: this.label(k) } : {}), message: 'The name is empty: a new item needs a name.' };
  }

  /** The problem of a new item that has no type and no default type. */
  typeMissing(line: number): ImportProblem {
    return { code: 'typeMissing', line, message: 'No item type: give the type in a type column, or choose the types of new items.' };
  }

  /** Assignees written as the export writes them (names joined with ", "; also 、 and ;), each a user. */
  private assignees(c: ColumnDef, text: string): CellInput {
    const ids: string[] = [];
    let count = 0;
    // No list of MAX_ASSIGNEES names is longer than this: a longer cell is refused before it is split.
    if (text.length > MAX_ASSIGNEES * (MAX_VALUE_TEXT + 2)) return { ok: false, problem: { code: 'user', message: `${c.label}: ${quoted(text)} (${text.length.toLocaleString('en')} characters) is too long to be a list of assignees.` } };
    for (const part of text.split(/[,;、，；\r\n]/)) {
      const name = part.trim();
      if (name === '') continue;
      if (++count > MAX_ASSIGNEES) return { ok: false, problem: { code: 'user', message: `${c.label}: more than ${MAX_ASSIGNEES} assignees in one cell.` } };
      const found = this.user(name);
      if (found.length !== 1) {
        const message = found.length === 0 ? `${c.label}: no user matches ${quoted(name)}.` : `${c.label}: ${found.length} users match ${quoted(name)}; write the login name or the ID.`;
        return { ok: false, problem: { code: 'user', message } };
      }
      if (!ids.includes(found[0]!)) ids.push(found[0]!);
    }
    return { ok: true, value: ids };
  }

  /** The users a name stands for: the one the file shows so, else those the resolver finds (without one, the text as an ID). */
  private user(name: string): string[] {
    if (name.length > MAX_VALUE_TEXT) return [];
    const shown = this.ctx.shownUser?.(name);
    if (shown !== undefined) return [shown];
    return this.ctx.resolveUser ? this.ctx.resolveUser(name) : [name];
  }
}
