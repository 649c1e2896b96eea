// What the cells of an outline pasted from a spreadsheet say, without vscode: the header row
// of a WBS sheet (a level or WBS-number column, the name column under the names people give
// it, the other columns as the import's header mapping reads them with a few more Japanese and
// English labels such sheets use), a level or a WBS number in a cell, and the indent of a name.
// Every function reads its text once, and a cell longer than MAX_VALUE_TEXT is no level or
// number (it is not read).
import { type ColumnDef } from './columns';
import { type ColumnMapping, type MappedHeader, mapHeader } from './csv-header';
import { restoreFormula } from './delimited';
import { columnCandidates } from './lookup';
import { MAX_VALUE_TEXT, foldForMatch, foldWidth } from './text';

/** A header cell folded for the labels below: width and case ignored, spaces and marks dropped. */
export const labelKey = (text: string): string => foldForMatch(text).replace(/[\s_\-()（）.．:：#＃%％]/g, '');

/** Headers of a level column (1, 2, 3). */
const LEVEL_LABELS: ReadonlySet<string> = new Set(['level', 'lvl', 'lv', 'outlinelevel', 'レベル', '階層', '階層レベル', 'インデントレベル']);
/** Headers of a WBS-number column (1, 1.1, 1.1.1). */
const WBS_LABELS: ReadonlySet<string> = new Set([
  'wbs', 'wbsno', 'wbsnumber', 'wbscode', 'wbsid', 'outlinenumber', 'no', 'number', 'wbs番号', 'wbsコード', 'アウトライン番号', '階層番号', '番号', '項番',
]);

/** Headers of the name columns of one level each (大項目 / 中項目 / 小項目, Level 1 / Level 2). */
const LEVEL_NAME_LABELS: ReadonlySet<string> = new Set(['大項目', '中項目', '小項目', '細目', '大分類', '中分類', '小分類', '細分類', '大タスク', '中タスク', '小タスク']);
const LEVEL_NAME = /^(?:level|lv|lvl|レベル|階層|第)[0-9]+(?:階層)?$/;

/** Whether a header cell names the column of the names of one level. */
const levelNameLabel = (key: string): boolean => LEVEL_NAME_LABELS.has(key) || LEVEL_NAME.test(key);

/**
 * Labels WBS sheets give columns that the table's own headers and aliases do not name (after
 * labelKey), by the field they stand for. Used only when no column of the table has the label.
 */
const OUTLINE_ALIASES: Readonly<Record<string, string>> = {
  タスク名: 'Name', タスク: 'Name', 作業名: 'Name', 作業: 'Name', 作業項目: 'Name', 作業項目名: 'Name', 項目名: 'Name', 項目: 'Name',
  件名: 'Name', 名前: 'Name', wbs名: 'Name', wbs名称: 'Name', 内容: 'Name', task: 'Name', taskname: 'Name', title: 'Name', item: 'Name',
  itemname: 'Name', activity: 'Name', workitem: 'Name', wbsname: 'Name', subject: 'Name',
  開始日: 'PlannedStartDate', 開始予定日: 'PlannedStartDate', 予定開始: 'PlannedStartDate', 開始予定: 'PlannedStartDate', startdate: 'PlannedStartDate', begin: 'PlannedStartDate',
  終了日: 'PlannedFinishDate', 終了予定日: 'PlannedFinishDate', 予定終了: 'PlannedFinishDate', 終了予定: 'PlannedFinishDate', 完了予定日: 'PlannedFinishDate',
  期限: 'PlannedFinishDate', 期日: 'PlannedFinishDate', 納期: 'PlannedFinishDate', finishdate: 'PlannedFinishDate', enddate: 'PlannedFinishDate',
  duedate: 'PlannedFinishDate', deadline: 'PlannedFinishDate',
  予定工数: 'PlannedTime', 見積工数: 'PlannedTime', 工数h: 'PlannedTime', 工数時間: 'PlannedTime', 見積: 'PlannedTime', plannedhours: 'PlannedTime', estimate: 'PlannedTime', effort: 'PlannedTime',
  実績工数: 'ActualTime', actualhours: 'ActualTime',
  担当: 'Assignments', 作業者: 'Assignments', assignedto: 'Assignments', resource: 'Assignments', resources: 'Assignments', resourcenames: 'Assignments', assignee: 'Assignments',
  責任者: 'LeaderId', 主担当: 'LeaderId', owner: 'LeaderId',
  種類: 'ItemTypeId', タイプ: 'ItemTypeId', itemtype: 'ItemTypeId',
  complete: 'ActualProgress', percentcomplete: 'ActualProgress',
};

export type LevelLabel = 'level' | 'wbs';

/** Whether a header cell names a level or a WBS-number column. */
export function levelLabel(text: string): LevelLabel | undefined {
  const k = labelKey(restoreFormula(text).trim());
  return LEVEL_LABELS.has(k) ? 'level' : WBS_LABELS.has(k) ? 'wbs' : undefined;
}

/** The header of an outline: each cell's column (mapHeader with the labels above) and the level or WBS column. */
export interface OutlineHeader extends MappedHeader {
  /** For each cell: a level or WBS-number label. */
  levels: (LevelLabel | undefined)[];
  /** How many cells name a column of the table, a level, or the names of a level (a header names at least one). */
  known: number;
}

/** Reads a header row: the columns mapHeader finds, then the labels of WBS sheets; level and WBS columns are no field. */
export function mapOutlineHeader(cells: readonly string[], columns: readonly ColumnDef[], given: ColumnMapping = {}): OutlineHeader {
  const mapping: Record<string, string | null> = { ...given };
  const levels: (LevelLabel | undefined)[] = [];
  for (const cell of cells) {
    const text = restoreFormula(cell).trim();
    const level = Object.prototype.hasOwnProperty.call(given, text) ? undefined : levelLabel(text);
    levels.push(level);
    if (text === '' || Object.prototype.hasOwnProperty.call(mapping, text)) continue;
    if (level || levelNameLabel(labelKey(text))) mapping[text] = null;
    else if (columnCandidates(columns, text).length === 0) {
      const key = OUTLINE_ALIASES[labelKey(text)];
      if (key !== undefined && columns.some((c) => c.key === key)) mapping[text] = key;
    }
  }
  const header = mapHeader(cells, columns, mapping);
  let known = 0;
  header.columns.forEach((c, k) => {
    if (c || levels[k] || levelNameLabel(labelKey(restoreFormula(cells[k]!).trim()))) known++;
  });
  // An outline has no ID column: the problem of a file without one is not the outline's.
  return { ...header, problems: header.problems.filter((p) => p.code !== 'noIdColumn'), levels, known };
}

/** Whether the first row of a block is a header: a level or WBS label, the name column, or two columns of the table. */
export function isOutlineHeader(h: OutlineHeader): boolean {
  return h.levels.some((l) => l !== undefined) || h.columns.some((c) => c?.key === 'Name') || h.known >= 2;
}

const DIGITS = /^[0-9]+$/;

/** A level written in a cell (1, ２, " 3 "): a whole number from 1, else undefined. */
export function readLevel(cell: string): number | undefined {
  if (cell.length > MAX_VALUE_TEXT) return undefined;
  const t = foldWidth(cell).trim();
  if (!DIGITS.test(t) || t.length > 6) return undefined;
  const n = Number(t);
  return n >= 1 ? n : undefined;
}

/**
 * The numbers of a WBS number (`1`, `1.2.3`, `1.2.3.`, full-width `１．２`), undefined when the
 * cell is not one. One pass; a cell longer than MAX_VALUE_TEXT is not read.
 */
export function readWbs(cell: string): number[] | undefined {
  if (cell.length > MAX_VALUE_TEXT) return undefined;
  const t = foldWidth(cell).trim();
  const out: number[] = [];
  let start = 0;
  for (let i = 0; i <= t.length; i++) {
    const c = i < t.length ? t.charCodeAt(i) : 46;
    if (c >= 48 && c <= 57) continue;
    if (c !== 46 || i === start) return i === t.length && i === start && out.length > 0 ? out : undefined; // a trailing dot ends it
    out.push(Number(t.slice(start, i)));
    start = i + 1;
  }
  return out.length > 0 ? out : undefined;
}

/** How a column of whole numbers or WBS numbers (one cell a line) reads: WBS numbers, levels, or neither. */
export function numberColumnKind(cells: readonly string[]): LevelLabel | undefined {
  if (cells.length === 0) return undefined;
  let dotted = false;
  const ints: number[] = [];
  for (const cell of cells) {
    const w = readWbs(cell);
    if (!w) return undefined;
    if (w.length > 1 || foldWidth(cell).trim().endsWith('.')) dotted = true;
    else ints.push(w[0]!);
  }
  if (dotted) return 'wbs';
  // Whole numbers alone: one after the other (1, 2, 3: a WBS of one level), else levels when they are small.
  const run = ints.every((n, i) => n === ints[0]! + i);
  if (run && ints.length > 1) return 'wbs';
  return ints.every((n) => n >= 1 && n <= 99) ? 'level' : undefined;
}

/** The width of a name's indent: a space 1, a full-width space (U+3000) 2, a no-break space 1; and where the name starts. */
export function indentOf(cell: string): { width: number; start: number } {
  let width = 0;
  let i = 0;
  for (; i < cell.length; i++) {
    const c = cell.charCodeAt(i);
    if (c === 0x20 || c === 0xa0) width += 1;
    else if (c === 0x3000) width += 2;
    else break;
  }
  return { width, start: i };
}

/** A name as written in its cell, without the indent and the spaces after it (ASCII, no-break and full-width). */
export function nameOf(cell: string): string {
  let a = 0;
  let b = cell.length;
  const space = (c: number): boolean => c === 0x20 || c === 0xa0 || c === 0x3000 || c === 0x09 || c === 0x0a || c === 0x0d;
  while (a < b && space(cell.charCodeAt(a))) a++;
  while (b > a && space(cell.charCodeAt(b - 1))) b--;
  return a === 0 && b === cell.length ? cell : cell.slice(a, b);
}
