// The rows of an imported CSV / TSV file without an ID as new work items (drafts.ts), without
// vscode. Used by csv-import.ts when the import is asked to add new rows (ImportOptions.newRows).
//
// Where a new row goes: the file's parent column when the row's cell has a value, by ID (the
// ParentId column, "Parent ID" / "親 ID" as the export heads it) or by path (the ParentName
// column, "Parent" / "親": the names from below the project's root folder joined with " / ",
// as the export writes them); else below newRows.parentId (the folder the user chose). A
// path is matched against the table's rows (the path each row's children show) and against
// the new rows read before it in the same file, so a file can add a folder and its children.
// A parent not found, a path two items have, a parent row of the file that was refused, or
// an ID and a path naming two items, refuse the row with a problem on its line and column.
// Each new row needs a name and a type: from a type column, else the caller's default
// (a folder type for a new row that other rows of the file go below, a task type for the others).
import type { ColumnDef, TableRow } from './columns';
import type { ImportProblem, MappedHeader } from './csv-header';
import { restoreFormula } from './delimited';
import { type DraftParent, type NewItemDraft } from './drafts';
import type { ImportColumn } from './import-cells';
import { PARENT_PATH_SEPARATOR } from './load';
import { type DefaultItemTypes, type NewFieldsContext, NewItemFields, defaultItemType } from './new-fields';
import type { CellInput } from './cells';
import { excerpt } from './text';

/** How an import adds the rows of a file that have no ID. */
export interface NewRowsOptions {
  /** The item new rows go below when their parent cell is empty (the folder the user chose). */
  parentId?: string;
  /**
   * The path of that item as the ParentName column writes paths ('' for the project's root
   * folder), when it is not a row of the table: rows of the file can then name the new rows
   * below it by path. A row of the table has its own path.
   */
  parentPath?: string;
  /** The types of new rows without a type cell. */
  defaultItemTypes?: DefaultItemTypes;
}

/** More than one item has the path. */
const TWO = Symbol('two');
/** Where an earlier new row of the file is: its draft, or the line it was refused on. */
type Earlier = { draft: number } | { refused: number } | typeof TWO;

interface Place {
  parent: DraftParent;
  /** The parent's path ('' for the project's root folder); undefined when not known. */
  path: string | undefined;
}

const clean = (cell: string | undefined): string => (cell === undefined ? '' : restoreFormula(cell).trim());

/** The path a row's children show (their ParentName): the row's own parent path and its name. */
export function childPath(row: TableRow): string {
  const name = typeof row.fields['Name'] === 'string' && row.fields['Name'] !== '' ? row.fields['Name'] : row.id;
  const above = row.fields['ParentName'];
  return typeof above === 'string' && above !== '' ? `${above}${PARENT_PATH_SEPARATOR}${name}` : name;
}

/** The new rows of one import: each record without an ID read into a draft or refused. */
export class NewRows {
  readonly drafts: NewItemDraft[] = [];
  private readonly fields: NewItemFields;
  private readonly idAt: number;
  private readonly pathAt: number;
  private readonly nameAt: number;
  /** By draft: other rows of the file go below it; its type is to be chosen at the end. */
  private readonly withChildren: boolean[] = [];
  private readonly typeLater: number[] = [];
  /** The table's rows by the path their children show (made on the first path read). */
  private byPath: Map<string, string | typeof TWO> | undefined;
  private readonly earlier = new Map<string, Earlier>();

  constructor(
    private readonly options: NewRowsOptions,
    private readonly rows: ReadonlyMap<string, TableRow>,
    header: MappedHeader,
    private readonly headerCells: readonly string[],
    plans: readonly (ImportColumn | undefined)[],
    ctx: NewFieldsContext,
    parse: (c: ColumnDef, text: string) => CellInput,
  ) {
    this.fields = new NewItemFields(header.columns, headerCells, ctx, plans, parse);
    this.idAt = header.columns.findIndex((c) => c?.key === 'ParentId');
    this.pathAt = header.columns.findIndex((c) => c?.key === 'ParentName');
    this.nameAt = header.columns.findIndex((c) => c?.key === 'Name');
  }

  /**
   * Reads one record without an ID: a draft when `own` (the record's problems so far, pushed
   * to) stays empty. `read` false: the cells are not what the file means (a quote problem),
   * only the problems are kept.
   */
  record(cells: readonly string[], line: number, own: ImportProblem[], control: readonly number[] | undefined, read: boolean): boolean {
    if (!read) return false;
    const place = this.place(cells, line, own);
    const fields = this.fields.read(cells, line, own, undefined, control);
    const name = fields['Name'];
    // (A name or type cell refused for what it holds is not said to be missing as well.)
    if ((typeof name !== 'string' || name.trim() === '') && !(this.nameAt >= 0 && control?.includes(this.nameAt))) {
      own.push(this.fields.nameMissing(line, this.nameAt >= 0 ? this.nameAt : undefined));
    }
    const typed = fields['ItemTypeId'] !== undefined;
    if (!typed && defaultItemType(this.options.defaultItemTypes, false) === undefined && !own.some((p) => p.field === 'ItemTypeId')) own.push(this.fields.typeMissing(line));
    const parentDraft = place && 'draft' in place.parent ? place.parent.draft : -1;
    if (parentDraft >= 0) this.withChildren[parentDraft] = true;
    // The row's own path, for the rows below it: also when its parent is refused (they are refused with it).
    const above = place ? place.path : this.pathAt >= 0 ? clean(cells[this.pathAt]) || undefined : undefined;
    const path = above !== undefined && typeof name === 'string' && name.trim() !== '' ? (above === '' ? name : `${above}${PARENT_PATH_SEPARATOR}${name}`) : undefined;
    if (own.length > 0) {
      if (path !== undefined) this.remember(path, { refused: line });
      return false;
    }
    const index = this.drafts.length;
    this.drafts.push({ parent: place!.parent, fields, line });
    this.withChildren.push(false);
    if (!typed) this.typeLater.push(index);
    if (path !== undefined) this.remember(path, { draft: index });
    return true;
  }

  /** The drafts, each new row without a type cell given its default type. */
  finish(): NewItemDraft[] {
    for (const i of this.typeLater) (this.drafts[i]!.fields as Record<string, unknown>)['ItemTypeId'] = defaultItemType(this.options.defaultItemTypes, this.withChildren[i] === true);
    return this.drafts;
  }

  private remember(path: string, at: Earlier): void {
    this.earlier.set(path, this.earlier.has(path) ? TWO : at);
  }

  /** Where the record's new item goes, or undefined (a problem pushed to `own`). */
  private place(cells: readonly string[], line: number, own: ImportProblem[]): Place | undefined {
    const idText = this.idAt >= 0 ? clean(cells[this.idAt]) : '';
    const pathText = this.pathAt >= 0 ? clean(cells[this.pathAt]) : '';
    if (idText === '' && pathText === '') {
      const id = this.options.parentId;
      if (id === undefined) {
        own.push({ code: 'noParent', line, message: 'The row names no parent and no folder was chosen for new rows: give its parent in a parent column.' });
        return undefined;
      }
      return { parent: { id }, path: this.pathOfId(id) };
    }
    let byId: Place | undefined;
    if (idText !== '') {
      byId = this.rows.has(idText) || idText === this.options.parentId ? { parent: { id: idText }, path: this.pathOfId(idText) } : undefined;
      if (!byId) {
        const parent = excerpt(idText);
        own.push({ code: 'unknownParent', line, column: this.headerCells[this.idAt], params: { parent }, message: `The parent "${parent}" is not found: no row of the table has this ID.` });
        return undefined;
      }
    }
    if (pathText === '') return byId;
    const byPath = this.placeOfPath(pathText, line, own);
    if (!byPath) return undefined;
    if (byId && !sameParent(byId.parent, byPath.parent)) {
      const [parent, parentId] = [excerpt(pathText), excerpt(idText)];
      own.push({ code: 'parentMismatch', line, column: this.headerCells[this.pathAt], params: { parent, parentId }, message: `The parent path "${parent}" and the parent ID ${parentId} are not the same item.` });
      return undefined;
    }
    return byPath;
  }

  private placeOfPath(path: string, line: number, own: ImportProblem[]): Place | undefined {
    const column = this.headerCells[this.pathAt];
    const parent = excerpt(path); // (a message never quotes a whole cell)
    const inTable = this.tablePaths().get(path);
    const inFile = this.earlier.get(path);
    if (inTable === TWO || inFile === TWO || (inTable !== undefined && inFile !== undefined)) {
      own.push({ code: 'ambiguousParent', line, column, params: { parent }, message: `More than one item has the path "${parent}": give the parent by its ID.` });
      return undefined;
    }
    if (inTable !== undefined) return { parent: { id: inTable }, path };
    if (inFile !== undefined && 'draft' in inFile) return { parent: { draft: inFile.draft }, path };
    if (inFile !== undefined) {
      own.push({ code: 'parentRefused', line, column, params: { parent, parentLine: inFile.refused }, message: `The parent "${parent}" is the new row on line ${inFile.refused}, which is not applied.` });
      return undefined;
    }
    own.push({ code: 'unknownParent', line, column, params: { parent }, message: `The parent "${parent}" is not found: no row of the table, and no new row above, has this path.` });
    return undefined;
  }

  /** The path the children of an existing item show, when known. */
  private pathOfId(id: string): string | undefined {
    const row = this.rows.get(id);
    if (row) return childPath(row);
    return id === this.options.parentId ? this.options.parentPath : undefined;
  }

  private tablePaths(): Map<string, string | typeof TWO> {
    if (this.byPath) return this.byPath;
    const out = new Map<string, string | typeof TWO>();
    const add = (path: string, id: string): void => {
      const had = out.get(path);
      out.set(path, had === undefined || had === id ? id : TWO);
    };
    for (const row of this.rows.values()) add(childPath(row), row.id);
    const id = this.options.parentId;
    if (id !== undefined && !this.rows.has(id) && this.options.parentPath) add(this.options.parentPath, id);
    return (this.byPath = out);
  }
}

function sameParent(a: DraftParent, b: DraftParent): boolean {
  return 'id' in a && 'id' in b ? a.id === b.id : 'draft' in a && 'draft' in b && a.draft === b.draft;
}
