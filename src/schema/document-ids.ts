// The work item IDs of a request document: a list of IDs or one string of IDs, each
// checked as a path segment (src/schema/rules.ts) and for characters a server may read
// as a path's separators; ranges and duplicates are warnings. Shared by the requests that
// update, delete and add (the item an add goes below). No vscode import.
import { type DocumentIssue, type JsonPath, describeValue, hasErrors, makeIssue } from './issues';
import { idRange } from './id-ranges';
import { workItemIdProblem } from './rules';
import { pathLookalike } from './id-lookalikes';

/** Splits a string of IDs separated by commas, whitespace or new lines; empty entries are dropped. */
export function parseWorkItemIds(text: string): string[] {
  return text.split(/[\s,]+/).filter((s) => s.length > 0);
}

/** At most this many issues about individual IDs are listed; the rest are summarised in one issue. */
export const MAX_ID_ISSUES = 50;

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A non-ASCII character in an ID that a server may read as `.`, `/`, `\\`, ... (`．．／` is `../` to it). */
export function lookalikeProblem(id: string): ReturnType<typeof workItemIdProblem> {
  const l = pathLookalike(id);
  return l ? { code: 'ID_LOOKALIKE_CHARACTER', params: { id: id.length > 40 ? `${id.slice(0, 37)}...` : id, character: l.character, reads: l.reads } } : undefined;
}

/** Reads `workItemIds` at `base` (issues added on each entry's path); undefined when it is not a list or a string. */
export function readIds(raw: unknown, issues: DocumentIssue[], base: JsonPath = []): string[] | undefined {
  const path: JsonPath = [...base, 'workItemIds'];
  const idIssues: DocumentIssue[] = [];
  const entries: { id: string; path: JsonPath }[] = [];
  if (typeof raw === 'string') {
    for (const id of parseWorkItemIds(raw)) entries.push({ id, path });
  } else if (Array.isArray(raw)) {
    raw.forEach((v, i) => {
      const p = [...path, i];
      if (typeof v === 'string') entries.push({ id: v.trim(), path: p });
      else if (typeof v === 'number' && Number.isSafeInteger(v)) entries.push({ id: String(v), path: p });
      else idIssues.push(makeIssue('DOCUMENT_ID_TYPE', p, { actual: describeValue(v) }));
    });
  } else {
    issues.push(makeIssue('DOCUMENT_IDS_TYPE', path, {}));
    return undefined;
  }
  const seen = new Set<string>();
  const reportedDuplicate = new Set<string>();
  const ids: string[] = [];
  for (const e of entries) {
    const problem = workItemIdProblem(e.id) ?? lookalikeProblem(e.id);
    if (problem) {
      idIssues.push(makeIssue(problem.code, e.path, problem.params));
      continue;
    }
    const range = idRange(e.id);
    if (range && !seen.has(e.id)) {
      idIssues.push(
        makeIssue('DOCUMENT_ID_RANGE', e.path, { id: e.id, count: range.ids.length, from: range.ids[0]!, to: range.ids.at(-1)! }, { fix: { kind: 'expand-range', text: e.id, ids: range.ids } }),
      );
    }
    if (seen.has(e.id) && !reportedDuplicate.has(e.id)) {
      reportedDuplicate.add(e.id);
      idIssues.push(makeIssue('DOCUMENT_ID_DUPLICATE', e.path, { id: e.id }));
    }
    seen.add(e.id);
    ids.push(e.id);
  }
  if (idIssues.length > MAX_ID_ISSUES) {
    const rest = idIssues.slice(MAX_ID_ISSUES);
    issues.push(...idIssues.slice(0, MAX_ID_ISSUES));
    issues.push(
      makeIssue('DOCUMENT_IDS_MORE_PROBLEMS', path, { count: rest.length }, { severity: hasErrors(rest) ? 'error' : 'warning' }),
    );
  } else {
    issues.push(...idIssues);
  }
  if (entries.length === 0 && idIssues.length === 0) issues.push(makeIssue('DOCUMENT_IDS_EMPTY', path));
  return ids;
}
