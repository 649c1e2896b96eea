// Work item IDs taken from free text: an editor selection, the clipboard or an
// input box. No vscode import (unit-tested in plain Node).
//
// Accepted shapes: IDs separated by commas, semicolons, spaces, tabs or new lines;
// a column (or a block of cells) pasted from a spreadsheet, with or without a
// header row; a JSON array (`["120", 121]`); quoted cells (`"120"`). Tokens that
// do not look like IDs (words such as a header "ID", dates, text cells) are
// reported as junk, never taken as IDs.
import { findNodeAtLocation, parseTree, type Node } from 'jsonc-parser';
import type { IdRange } from '../../schema/id-ranges';
import { core } from '../../core/load';

export type { IdRange };

export interface ExtractedIds {
  /** IDs in first-occurrence order, each once. */
  ids: string[];
  /** IDs given more than once (each listed once). */
  duplicates: string[];
  /** Tokens that were not taken as IDs (header cells, words, malformed values). */
  junk: string[];
}

/** Longest text inspected (a pasted column of 100,000 IDs is far below this). */
export const MAX_ID_TEXT_LENGTH = 4_000_000;

/**
 * An ID-like token: letters, digits, `-` and `_` (and `.` inside), with at least
 * one digit, so header words ("ID", "Name") and prose are not taken as IDs. The
 * work item ID check of documents and paths (`validateWorkItemIdForPath`) must
 * also accept it.
 */
export function looksLikeId(token: string): boolean {
  if (!/^[\p{L}\p{N}][\p{L}\p{N}_.-]*$/u.test(token)) return false;
  if (!/\p{N}/u.test(token)) return false;
  // A date or a decimal number (2025-04-01, 3.5) in a pasted row is data, not an ID.
  if (/^\d{4}-\d{2}-\d{2}$/.test(token) || /^\d+\.\d+$/.test(token)) return false;
  return core().validateWorkItemIdForPath(token) === undefined;
}

function unquote(token: string): string {
  let t = token.trim();
  // Strip JSON/CSV punctuation around a value: [ "120", ] and the like.
  t = t.replace(/^[[({]+/, '').replace(/[\])}]+$/, '');
  if (t.length >= 2 && ((t.startsWith('"') && t.endsWith('"')) || (t.startsWith("'") && t.endsWith("'")))) {
    t = t.slice(1, -1).trim();
  }
  return t;
}

function splitTokens(text: string): string[] {
  return text
    .split(/[\s,;]+/u)
    .map(unquote)
    .filter((t) => t.length > 0);
}

/**
 * Picks the column of a tab-separated block (a spreadsheet paste) that holds the
 * IDs: the left-most column whose non-empty cells (the first row may be a
 * header) all look like IDs. Returns -1 when no column qualifies.
 */
function idColumn(rows: string[][]): number {
  const width = Math.max(...rows.map((r) => r.length));
  for (let c = 0; c < width; c++) {
    const cells = rows.map((r) => unquote(r[c] ?? '')).filter((s) => s.length > 0);
    const body = cells.length > 1 && !looksLikeId(cells[0]) ? cells.slice(1) : cells;
    if (body.length > 0 && body.every(looksLikeId)) return c;
  }
  return -1;
}

/** Extracts work item IDs from free text. */
export function extractIds(text: string): ExtractedIds {
  const input = text.length > MAX_ID_TEXT_LENGTH ? text.slice(0, MAX_ID_TEXT_LENGTH) : text;
  const lines = input.split(/\r\n|\r|\n/).filter((l) => l.trim().length > 0);
  let tokens: string[];
  const junk: string[] = [];
  // A block of cells copied from a spreadsheet: every row has the same number (2+) of tab-separated cells.
  const rows = lines.map((l) => l.split('\t'));
  const tabular = rows.length >= 2 && rows[0].length >= 2 && rows.every((r) => r.length === rows[0].length);
  if (tabular) {
    const col = idColumn(rows);
    if (col >= 0) {
      tokens = [];
      rows.forEach((r) => {
        const cell = unquote(r[col] ?? '');
        if (cell) tokens.push(cell);
      });
    } else {
      tokens = rows.flat().flatMap(splitTokens);
    }
  } else {
    tokens = splitTokens(input);
  }
  const seen = new Set<string>();
  const dup = new Set<string>();
  const ids: string[] = [];
  for (const token of tokens) {
    if (!looksLikeId(token)) {
      junk.push(token);
      continue;
    }
    if (seen.has(token)) {
      dup.add(token);
      continue;
    }
    seen.add(token);
    ids.push(token);
  }
  return { ids, duplicates: [...dup], junk };
}

/** A work item ID as the clipboard offers it: a whole number (IDs are strings of decimal digits), or a range of them (`131-140`). */
function wholeNumberId(token: string): boolean {
  return (/^\d+$/.test(token) || core().idRange(token) !== undefined) && looksLikeId(token);
}

/**
 * True when the clipboard's text is plainly a list of IDs, to offer it as the IDs of a new
 * update: whole numbers (or ranges) separated by commas, semicolons, spaces or line breaks,
 * with at most one header word before them ("ID"). Anything else is data, never offered: a
 * block of cells with tabs (times and progress copied from a spreadsheet), times (7:30),
 * percentages (50%), decimals (7.5), dates, prose.
 */
export function looksLikeIdList(text: string): boolean {
  if (text.length === 0 || text.length > MAX_ID_TEXT_LENGTH || text.includes('\t')) return false;
  const tokens = splitTokens(text);
  const body = tokens.length > 1 && /^[\p{L}][\p{L}\s_-]*$/u.test(tokens[0]!) ? tokens.slice(1) : tokens;
  return body.length > 0 && body.every(wholeNumberId);
}

/** The numeric ranges among IDs (each once). */
export function idRanges(ids: readonly string[]): IdRange[] {
  const seen = new Set<string>();
  const out: IdRange[] = [];
  for (const id of ids) {
    const r = seen.has(id) ? undefined : core().idRange(id);
    seen.add(id);
    if (r) out.push(r);
  }
  return out;
}

/** The IDs with each range replaced by the IDs it stands for, each ID once, in order. */
export function expandIdRanges(ids: readonly string[]): string[] {
  const out = new Set<string>();
  for (const id of ids) for (const x of core().idRange(id)?.ids ?? [id]) out.add(x);
  return [...out];
}

/** "133, 134, 135" (at most `max` shown, then "…"), for a question that shows which IDs it means. */
export function idsPreview(ids: readonly string[], max = 8): string {
  return ids.length <= max ? ids.join(', ') : `${ids.slice(0, max).join(', ')}, …`;
}

/**
 * The text of a request document with the given IDs removed from its `workItemIds`
 * (entries of a list removed with their commas, the layout of the others kept; a
 * string of IDs rewritten without them), or undefined when the document has no
 * readable `workItemIds`.
 */
export function removeIdsFromDocumentText(text: string, ids: readonly string[]): string | undefined {
  const root = parseTree(text);
  if (!root) return undefined;
  // The single form's list, or each request's list of a change set (edited from the last, so offsets hold).
  const top = findNodeAtLocation(root, ['workItemIds']);
  const requests = findNodeAtLocation(root, ['requests']);
  const nodes = top ? [top] : (requests?.children ?? []).map((_, i) => findNodeAtLocation(root, ['requests', i, 'workItemIds'])).filter((n): n is Node => n !== undefined);
  if (nodes.length === 0) return undefined;
  const gone = new Set(ids);
  let out: string | undefined = text;
  for (const node of [...nodes].sort((x, y) => y.offset - x.offset)) {
    const next = removeFromList(out, node, gone);
    if (next === undefined) return undefined;
    out = next;
  }
  return out;
}

/** The text with the IDs of `gone` removed from one `workItemIds` node of it (see removeIdsFromDocumentText). */
function removeFromList(text: string, node: Node, gone: ReadonlySet<string>): string | undefined {
  if (node.type === 'string') {
    const value = String(node.value);
    const kept = value.split(/[\s,]+/).filter((t) => t.length > 0 && !gone.has(t));
    const joined = kept.join(/\n/.test(value) ? '\n' : ', ');
    return text.slice(0, node.offset) + JSON.stringify(joined) + text.slice(node.offset + node.length);
  }
  if (node.type !== 'array') return undefined;
  const children = node.children ?? [];
  const keep = children.map((c) => !((c.type === 'string' || c.type === 'number') && gone.has(String(c.value).trim())));
  if (keep.every(Boolean)) return text;
  const kept = children.filter((_, i) => keep[i]);
  if (kept.length === 0) return text.slice(0, node.offset) + '[]' + text.slice(node.offset + node.length);
  // Rebuild the array's inside from the kept entries, each with the separator that followed it in the text.
  const inner: string[] = [];
  children.forEach((c, i) => {
    if (!keep[i]) return;
    const next = children[i + 1];
    const end = next ? next.offset : c.offset + c.length;
    inner.push(text.slice(c.offset, end));
  });
  let body = inner.join('');
  // The last kept entry must not end with a comma.
  body = body.replace(/,\s*$/, '');
  const first = children[0]!;
  const last = children[children.length - 1]!;
  return text.slice(0, first.offset) + body + text.slice(last.offset + last.length);
}
