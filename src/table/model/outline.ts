// An outline pasted from a spreadsheet laid out as a WBS, as new work items below a chosen row
// (drafts.ts), without vscode.
//
// The block is read as the clipboard carries it (cells separated by TAB, rows by CRLF, quotes
// only around cells with line breaks, a quote never closed read as text: delimited.ts in paste
// mode). Empty lines are skipped. The level of a line is given by one of four layouts, found
// from the header row when the block has one (outline-header.ts), else from the cells, or as
// the caller says:
//   columns      the column a name starts in (level 1 names in one column, level 2 names one
//                to the right, ...; other columns to the right of the deepest level);
//   levelColumn  a column of levels (1, 2, 3);
//   wbsColumn    a column of WBS numbers (1, 1.1, 1.1.1, also 1.2.3. and full-width digits);
//   indent       leading spaces or full-width spaces in the name column (the width of one
//                level is the smallest indent seen; a full-width space counts 2).
// Levels are relative: the block's top level (the leftmost names, the smallest level or
// number depth, no indent) goes directly below the chosen row. With a header, the other
// columns are read as the import's header mapping reads them (type, dates, hours, leader,
// assignees by name, custom fields; new-fields.ts parses and checks each cell as an edit
// does); without one, only names and levels. The type of an item without a type cell is the
// caller's default (a folder type for a line with lines below it, a task type for the others).
//
// A block with any problem gives no draft at all (nothing half-added), and every problem is
// listed by line and column. Reading is linear in the text: each cell is looked at a few
// times at most, levels and numbers longer than MAX_VALUE_TEXT are not parsed, and a block
// with more lines than the limit is refused as soon as the limit is passed.
import type { CellContext } from './cells';
import { type ColumnDef, type FormatContext, SYSTEM_COLUMNS } from './columns';
import type { ColumnMapping, ImportProblem } from './csv-header';
import { DelimitedReader, restoreFormula } from './delimited';
import type { DraftParent, NewItemDraft } from './drafts';
import { type DefaultItemTypes, NewItemFields, PLACEMENT_FIELDS, defaultItemType } from './new-fields';
import { type OutlineHeader, indentOf, isOutlineHeader, mapOutlineHeader, nameOf, numberColumnKind, readLevel, readWbs } from './outline-header';
import { MAX_HIERARCHY_DEPTH } from '../../schema/fields';
import { excerpt, parseDate, parseNumber } from './text';

export type OutlineLayoutKind = 'columns' | 'levelColumn' | 'wbsColumn' | 'indent';

/** How a block was read (the cells are 0-based). */
export interface OutlineLayout {
  kind: OutlineLayoutKind;
  /** The first line is a header. */
  header: boolean;
  /** levelColumn, wbsColumn: the cell of the level or WBS number. */
  levelColumn?: number;
  /** The cell of the names (columns: of the top level's names). */
  nameColumn: number;
  /** columns: the cell of the deepest names. */
  lastNameColumn?: number;
  /** indent: the width of one level (a space 1, a full-width space 2). */
  indentUnit?: number;
}

export interface OutlineOptions extends CellContext, FormatContext {
  /** The row the outline goes below (its top level becomes that row's children). */
  parentId: string;
  /** How many levels may be added below that row (default MAX_HIERARCHY_DEPTH: the service allows 16 levels in all). */
  maxDepth?: number;
  /** The table's columns (buildColumns), for a header's columns; default the built-in ones. */
  columns?: readonly ColumnDef[];
  /** The types of lines without a type cell (a folder type for lines with lines below them, a task type for the others). */
  defaultItemTypes?: DefaultItemTypes;
  /** The layout to read (default: found from the header or the cells). */
  layout?: OutlineLayoutKind;
  /** Whether the first line is a header (default: found from its cells). */
  header?: boolean;
  /** The cell of the levels or WBS numbers (0-based), with layout levelColumn or wbsColumn. */
  levelColumn?: number;
  /** The cell of the names (0-based; columns: of the top level). */
  nameColumn?: number;
  /** Header text → column key (or null: not read), as the import's mapping. */
  mapping?: ColumnMapping;
  /** At most this many lines are read as items (default DEFAULT_OUTLINE_MAX_LINES); a longer block is refused. */
  maxLines?: number;
  /** At most this many problems are listed (default 10,000); the others are counted in problemsOmitted. */
  maxProblems?: number;
}

export interface OutlineResult {
  /** The new items in tree order; empty when there is any problem. */
  drafts: NewItemDraft[];
  /** Every problem, by line and column. */
  problems: ImportProblem[];
  problemsOmitted: number;
  layout: OutlineLayout;
  /** Lines read as items (the header and empty lines not counted). */
  lineCount: number;
  /** Header cells not read: no column of the table, a second column of the same field, or where an item goes (ID, parent). */
  ignoredColumns: string[];
  /** Cells whose quote closes no quoted cell, read as written (the quote kept). */
  quoteAsText: { line: number; column: string }[];
}

/** The most lines an outline adds at once, by default (the review sends them in requests of 1,000 items). */
export const DEFAULT_OUTLINE_MAX_LINES = 10_000;

interface Line {
  line: number;
  cells: string[];
  control: number[] | undefined;
}

/** What one line says: its raw level (a column, a level, a depth or an indent width) and its name. */
interface Read {
  raw: number | undefined;
  name: string;
  /** The cell of the name (-1: none). */
  at: number;
  /** wbsColumn: the line's numbers. */
  wbs?: number[];
}

const blank = (cell: string | undefined): boolean => cell === undefined || nameOf(cell) === '';
/** A name as written, without its indent, and without the apostrophe an export puts before a formula. */
const cleanName = (cell: string): string => restoreFormula(nameOf(cell));

/** The lines of a block (empty ones skipped), at most `max` (the reading stops there). */
function readLines(text: string, max: number): { lines: Line[]; reader: DelimitedReader } {
  const reader = new DelimitedReader(text, '\t', 'paste');
  const lines: Line[] = [];
  for (let cells = reader.next(); cells !== undefined && lines.length < max; cells = reader.next()) {
    if (!reader.controlCells && cells.every(blank)) continue;
    lines.push({ line: reader.recordLine, cells, control: reader.controlCells });
  }
  return { lines, reader };
}

const minOf = (xs: readonly number[]): number => xs.reduce((a, b) => (b < a ? b : a), Infinity);
const maxOf = (xs: readonly number[]): number => xs.reduce((a, b) => (b > a ? b : a), -Infinity);

/** The first cell at or after `from` that is not blank, up to `to` (inclusive); -1 when none. */
function firstName(cells: readonly string[], from: number, to: number): number {
  for (let k = from; k <= to && k < cells.length; k++) if (!blank(cells[k])) return k;
  return -1;
}

/** A header cell holds no field: empty, or no column of the table, and not a level label. */
const free = (h: OutlineHeader, k: number): boolean => h.columns[k] === undefined && h.levels[k] === undefined;

/** The layout of the block (a problem when the header names no column of names). */
function chooseLayout(header: OutlineHeader | undefined, cells: readonly string[][], body: readonly Line[], o: OutlineOptions): OutlineLayout | ImportProblem {
  const forced = o.layout;
  const hasHeader = header !== undefined;
  const width = Math.max(cells.length > 0 ? cells[0]!.length : 0, maxOf(body.map((l) => l.cells.length)));
  const column = (k: number): string[] => body.map((l) => l.cells[k] ?? '');
  const nameAt = header ? header.columns.findIndex((c) => c?.key === 'Name') : -1;
  if (forced === undefined || forced === 'levelColumn' || forced === 'wbsColumn') {
    let at = o.levelColumn ?? -1;
    let kind: OutlineLayoutKind | undefined = forced;
    if (at < 0 && header) {
      const want = forced === 'levelColumn' ? 'level' : forced === 'wbsColumn' ? 'wbs' : undefined;
      at = header.levels.findIndex((l) => l !== undefined && (want === undefined || l === want));
      if (at < 0 && forced) at = header.levels.findIndex((l) => l !== undefined);
    }
    if (at < 0 && (forced || !header || (nameAt !== 0 && free(header, 0)))) {
      // No label: the first column of numbers (forced) or the first cell when all its lines are numbers.
      const tries = forced ? Array.from({ length: width }, (_, k) => k) : [0];
      at = tries.find((k) => numberColumnKind(column(k)) !== undefined) ?? (forced ? 0 : -1);
    }
    if (at >= 0) {
      const label = header?.levels[at];
      kind ??= label === 'level' ? 'levelColumn' : label === 'wbs' ? 'wbsColumn' : numberColumnKind(column(at)) === 'wbs' ? 'wbsColumn' : 'levelColumn';
      let name = o.nameColumn ?? (nameAt >= 0 ? nameAt : -1);
      if (name < 0) name = header ? header.columns.findIndex((_, k) => k > at && free(header, k) && header.levels[k] === undefined) : at + 1;
      if (name < 0) return { code: 'noNameColumn', line: 1, message: 'No name column: the header names no column of names of work items.' };
      return { kind, header: hasHeader, levelColumn: at, nameColumn: name };
    }
  }
  // Names by the column they start in, or by their indent.
  let start = o.nameColumn ?? nameAt;
  let end: number;
  if (header) {
    if (start < 0) start = header.columns.findIndex((_, k) => free(header, k));
    if (start < 0) return { code: 'noNameColumn', line: 1, message: 'No name column: the header names no column of names of work items.' };
    end = start;
    // The header of the deeper levels: empty (a merged cell), or no column of the table when the name column has no header of its own.
    const h = cells[0]!;
    while (end + 1 < width && (blank(h[end + 1]) || (nameAt < 0 && free(header, end + 1))) && free(header, end + 1)) end++;
    if (!forced && end > start && h.slice(start + 1, end + 1).every(blank)) {
      // Under a merged header, every name in one of its columns: names by their indent there.
      const firsts = body.map((l) => firstName(l.cells, start, end)).filter((k) => k >= 0);
      if (firsts.length > 0 && minOf(firsts) === maxOf(firsts)) start = end = firsts[0]!;
    }
  } else {
    const firsts = body.map((l) => firstName(l.cells, 0, l.cells.length - 1)).filter((k) => k >= 0);
    if (start < 0) start = firsts.length > 0 ? minOf(firsts) : 0;
    end = firsts.length > 0 ? Math.max(start, maxOf(firsts)) : start;
  }
  const kind = forced ?? (end > start ? 'columns' : 'indent');
  return kind === 'columns' ? { kind, header: hasHeader, nameColumn: start, lastNameColumn: end } : { kind: 'indent', header: hasHeader, nameColumn: start };
}

/** What each line says of its level and name, by the layout; problems of a line's own cells are pushed. */
function readLine(l: Line, layout: OutlineLayout, fields: NewItemFields, out: ImportProblem[]): Read {
  const cells = l.cells;
  switch (layout.kind) {
    case 'columns': {
      const last = layout.lastNameColumn ?? layout.nameColumn;
      const at = firstName(cells, layout.nameColumn, last);
      if (at < 0) return { raw: undefined, name: '', at: -1 };
      const second = firstName(cells, at + 1, last);
      if (second >= 0) out.push({ code: 'extraName', line: l.line, column: fields.label(second), message: `The line has more than one name in the columns of the outline (also in column ${fields.label(second)}).` });
      return { raw: at, name: cleanName(cells[at]!), at };
    }
    case 'indent': {
      const cell = cells[layout.nameColumn] ?? '';
      const name = cleanName(cell);
      return { raw: name === '' ? undefined : indentOf(cell).width, name, at: layout.nameColumn };
    }
    default: {
      const at = layout.levelColumn!;
      const cell = cells[at] ?? '';
      const name = cleanName(cells[layout.nameColumn] ?? '');
      if (l.control?.includes(at)) return { raw: undefined, name, at: layout.nameColumn }; // said as a control character
      const wbs = layout.kind === 'wbsColumn' ? readWbs(cell) : undefined;
      const raw = layout.kind === 'wbsColumn' ? wbs?.length : readLevel(cell);
      if (raw === undefined) out.push({ code: 'badLevel', line: l.line, column: fields.label(at), params: { text: excerpt(cell.trim()) }, message: `"${excerpt(cell.trim())}" is not a level: write a whole number from 1, or a WBS number such as 1.2.3.` });
      return { raw, name, at: layout.nameColumn, ...(wbs ? { wbs } : {}) };
    }
  }
}

/**
 * Reads a block copied from a spreadsheet laid out as a WBS into new items below
 * `options.parentId` (see the file header). No draft when there is any problem.
 */
export function parseOutline(text: string, options: OutlineOptions): OutlineResult {
  const columns = options.columns ?? SYSTEM_COLUMNS;
  const maxLines = options.maxLines ?? DEFAULT_OUTLINE_MAX_LINES;
  const problems: ImportProblem[] = [];
  // The header, the lines allowed and one more: enough to tell the block is too long.
  const { lines, reader } = readLines(text, maxLines + 2);
  const first = lines[0];
  let header: OutlineHeader | undefined;
  if (first && options.header !== false) {
    const h = mapOutlineHeader(first.cells, columns, options.mapping);
    if (options.header === true || isOutlineHeader(h)) header = h;
  }
  const body = header ? lines.slice(1) : lines;
  const headerCells = header ? first!.cells.map((c) => c.trim()) : [];
  const fields = new NewItemFields(header ? header.columns : [], headerCells, options);
  const quoteAsText = reader.problems.filter((p) => p.code === 'quoteAsText').map((p) => ({ line: p.line, column: fields.label(p.cell) }));
  const result = (layout: OutlineLayout, drafts: NewItemDraft[], ignoredColumns: string[]): OutlineResult => {
    const max = options.maxProblems ?? 10_000;
    const omitted = Math.max(0, problems.length - max);
    return { drafts, problems: omitted > 0 ? problems.slice(0, max) : problems, problemsOmitted: omitted, layout, lineCount: body.length, ignoredColumns, quoteAsText };
  };
  const none: OutlineLayout = { kind: options.layout ?? 'indent', header: header !== undefined, nameColumn: options.nameColumn ?? 0 };
  if (body.length > maxLines) {
    problems.push({ code: 'tooManyLines', line: body[maxLines]!.line, params: { max: maxLines }, message: `More than ${maxLines} lines: at most ${maxLines} new items are added at once. Nothing was read.` });
    return result(none, [], []);
  }
  const chosen = chooseLayout(header, first ? [first.cells] : [], body, options);
  if ('code' in chosen) {
    problems.push(chosen);
    return result(none, [], []);
  }
  const layout = chosen;
  if (header) for (const p of header.problems) if (p.code === 'mappingField') problems.push(p);
  // The cells the outline itself reads (levels, names); the header's other columns are fields.
  const own = (k: number): boolean => k === layout.levelColumn || (k >= layout.nameColumn && k <= (layout.lastNameColumn ?? layout.nameColumn));
  const ignoredColumns = header ? headerCells.filter((h, k) => h !== '' && !own(k) && header.levels[k] === undefined && (header.columns[k] === undefined || PLACEMENT_FIELDS.has(header.columns[k]!.key))) : [];
  const skip = header ? headerCells.map((_, k) => k).filter(own) : [];

  // Each line's level and name, then its fields.
  const reads: Read[] = [];
  const values: Record<string, unknown>[] = [];
  const lineProblems: ImportProblem[][] = [];
  for (const l of body) {
    const out: ImportProblem[] = [];
    for (const k of l.control ?? []) if (own(k) || fields.reads(k)) out.push(controlProblem(l.line, k, l.cells[k]!, fields.label(k)));
    const r = readLine(l, layout, fields, out);
    const f = header ? fields.read(l.cells, l.line, out, skip, l.control) : {};
    if (r.at >= 0 && l.control?.includes(r.at)) r.raw = undefined;
    else if (r.name === '') out.push(fields.nameMissing(l.line, r.at >= 0 ? r.at : layout.nameColumn));
    else fields.setName(f, r.name, l.line, r.at, out);
    reads.push(r);
    values.push(f);
    lineProblems.push(out);
  }
  const levels = levelsOf(body, reads, layout, lineProblems, fields, options.maxDepth ?? MAX_HIERARCHY_DEPTH);
  for (let i = 0; i < body.length; i++) {
    if (values[i]!['ItemTypeId'] !== undefined || lineProblems[i]!.some((p) => p.field === 'ItemTypeId')) continue;
    const below = levels[i] !== undefined && levels[i + 1] !== undefined && levels[i + 1]! > levels[i]!;
    const type = defaultItemType(options.defaultItemTypes, below);
    if (type === undefined) lineProblems[i]!.push(fields.typeMissing(body[i]!.line));
    else values[i]!['ItemTypeId'] = type;
  }
  for (const out of lineProblems) problems.push(...byColumn(out, headerCells));
  if (problems.length > 0) return result(layout, [], ignoredColumns);
  return result(layout, draftsOf(body, levels, values, options.parentId), ignoredColumns);
}

/** The problems of one line by column (the cells' order; a problem of the whole line last). */
function byColumn(out: ImportProblem[], headerCells: readonly string[]): ImportProblem[] {
  if (out.length < 2) return out;
  const at = (p: ImportProblem): number => {
    if (p.column === undefined) return Number.MAX_SAFE_INTEGER;
    const k = headerCells.indexOf(p.column);
    if (k >= 0) return k;
    const m = /^#(\d+)$/.exec(p.column);
    return m ? Number(m[1]) - 1 : Number.MAX_SAFE_INTEGER - 1;
  };
  return out.map((p, i) => ({ p, i, k: at(p) })).sort((a, b) => a.k - b.k || a.i - b.i).map((x) => x.p);
}

/**
 * Each line's level (1: the block's top level; undefined when not known), with the problems of
 * levels pushed to the line's problems: a line before the top level, a level more than one
 * below the line above, deeper than allowed, an indent between levels, a WBS number not below
 * its parent's.
 */
function levelsOf(body: readonly Line[], reads: readonly Read[], layout: OutlineLayout, lineProblems: ImportProblem[][], fields: NewItemFields, maxDepth: number): (number | undefined)[] {
  let base = Infinity;
  for (const r of reads) if (r.raw !== undefined && r.raw < base) base = r.raw;
  let unit = 1;
  if (layout.kind === 'indent') {
    let u = Infinity;
    for (const r of reads) if (r.raw !== undefined && r.raw > base && r.raw - base < u) u = r.raw - base;
    unit = Number.isFinite(u) ? u : 1;
    layout.indentUnit = unit;
  }
  const levels: (number | undefined)[] = [];
  // The line of each level above the current line, for the WBS numbers of parents.
  const above: number[] = [];
  let previous = 0;
  for (let i = 0; i < reads.length; i++) {
    const r = reads[i]!;
    const line = body[i]!.line;
    const out = lineProblems[i]!;
    const column = r.at >= 0 ? fields.label(layout.kind === 'levelColumn' || layout.kind === 'wbsColumn' ? layout.levelColumn! : r.at) : undefined;
    if (r.raw === undefined) {
      levels.push(undefined);
      continue;
    }
    const width = r.raw - base;
    if (width % unit !== 0) {
      out.push({ code: 'unevenIndent', line, column, params: { width, unit }, message: `The indent (${width} spaces wide) is not a whole number of levels (${unit} spaces each; a full-width space is 2).` });
      levels.push(undefined);
      continue;
    }
    const level = width / unit + 1;
    levels.push(level);
    if (previous === 0 && level > 1) out.push({ code: 'noTopLevel', line, column, message: 'The line comes before any line of the top level: an outline starts on its top level.' });
    else if (level > previous + 1) out.push({ code: 'levelJump', line, column, params: { level, previous }, message: `The line is on level ${level}, more than one level below the line above it (level ${previous}).` });
    else if (r.wbs && level > 1) wbsCheck(r, reads, above[level - 2], body, line, column, out);
    if (level > maxDepth) out.push({ code: 'tooDeep', line, column, params: { level, max: maxDepth }, message: `The line is on level ${level}: at most ${maxDepth} levels can be added below the chosen row.` });
    if (previous > 0 || level === 1) previous = level;
    above.length = level - 1;
    above[level - 1] = i;
  }
  return levels;
}

/** A WBS number continues its parent's: the parent's numbers and one more. */
function wbsCheck(r: Read, reads: readonly Read[], parentIndex: number | undefined, body: readonly Line[], line: number, column: string | undefined, out: ImportProblem[]): void {
  if (parentIndex === undefined) return;
  const p = reads[parentIndex]!.wbs;
  const own = r.wbs!;
  if (!p || (p.length === own.length - 1 && p.every((n, j) => n === own[j]))) return;
  const number = own.join('.');
  const parentNumber = p.join('.');
  const parentLine = body[parentIndex]!.line;
  out.push({ code: 'wbsMismatch', line, column, params: { number, parentNumber, parentLine }, message: `The WBS number ${number} does not continue ${parentNumber}, the number of its parent on line ${parentLine}.` });
}

/** The drafts of a block without problems: each line below the nearest line above it one level up, the top level below `parentId`. */
function draftsOf(body: readonly Line[], levels: readonly (number | undefined)[], values: readonly Record<string, unknown>[], parentId: string): NewItemDraft[] {
  const drafts: NewItemDraft[] = [];
  const chain: number[] = [];
  for (let i = 0; i < body.length; i++) {
    const level = levels[i]!;
    chain.length = level - 1;
    const parent: DraftParent = level === 1 ? { id: parentId } : { draft: chain[level - 2]! };
    chain[level - 1] = drafts.length;
    drafts.push({ parent, fields: values[i]!, line: body[i]!.line });
  }
  return drafts;
}

function controlProblem(line: number, k: number, cell: string, column: string): ImportProblem {
  const at = cell.search(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/);
  const char = `U+${cell.charCodeAt(at).toString(16).toUpperCase().padStart(4, '0')}`;
  return { code: 'control', line, column, params: { position: at + 1, char }, message: `Line ${line}, column ${column}: the cell holds the control character ${char} (at character ${at + 1}); such a cell is not read.` };
}

/** Lines the detector reads: enough to tell a layout, never the whole of a large block. */
const DETECT_LINES = 50;

/**
 * Whether pasted text looks like an outline to add as new items (to offer "Paste as New Items
 * (outline)"): several lines, no ID column (a header naming one, or a first column of whole
 * numbers that are not levels or WBS numbers), and names that are not all numbers or dates.
 * Reads the first lines only.
 */
export function looksLikeOutline(text: string, columns: readonly ColumnDef[] = SYSTEM_COLUMNS): boolean {
  const { lines } = readLines(text, DETECT_LINES);
  if (lines.length < 2) return false;
  const h = mapOutlineHeader(lines[0]!.cells, columns);
  const header = isOutlineHeader(h) ? h : undefined;
  if (header?.columns.some((c) => c?.key === 'Id')) return false;
  const body = header ? lines.slice(1) : lines;
  if (body.length === 0) return false;
  if (!header && body.every((l) => readWbs(l.cells[0] ?? '') !== undefined) && numberColumnKind(body.map((l) => l.cells[0]!)) === undefined) return false;
  const layout = chooseLayout(header, [lines[0]!.cells], body, { parentId: '' });
  if ('code' in layout) return false;
  const fields = new NewItemFields([], [], {});
  return body.some((l) => {
    const name = readLine(l, layout, fields, []).name;
    return name !== '' && parseNumber(name) === undefined && parseDate(name) === undefined;
  });
}
