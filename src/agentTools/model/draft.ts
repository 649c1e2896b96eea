// A drafted request document checked as the editor checks one (src/common/documentCheck.ts):
// its JSON syntax, then validateRequestDocument with the service's field catalogue when it
// is known. Each problem is placed: the line and column in the text that will be opened and
// the member's JSON path, so a refusal says what and where. No vscode import.
import { getNodeValue, printParseErrorCode } from 'jsonc-parser';
import type { DocumentIssue } from '../../schema/issues';
import type { ServiceFieldCatalogue } from '../../schema/service-fields';
import { isAboutName, locatePath, parseText } from '../../common/model/locate';
import { core } from '../../core/load';

/** A problem of the draft, with where it is (1-based line and column of the text). */
export interface DraftProblem {
  line: number;
  column: number;
  /** The member's JSON path ("requests[0].update.fields"); empty for the whole document or a syntax error. */
  path: string;
  /** The document check's issue (its message is worded by the UI in its language); undefined for a JSON syntax error. */
  issue?: DocumentIssue;
  /** The English message (the issue's, or the syntax error's). */
  message: string;
}

export type DraftCheck = { ok: true; value: unknown; warnings: DraftProblem[] } | { ok: false; problems: DraftProblem[] };

function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

/** Checks the draft's text: syntax errors first (nothing else is checked then), else the request document's issues. */
export function checkDraftText(text: string, catalogue?: ServiceFieldCatalogue): DraftCheck {
  const parsed = parseText(text);
  if (parsed.errors.length > 0 || !parsed.root) {
    const problems = parsed.errors.map((e) => ({ ...lineColumn(text, e.offset), path: '', message: `JSON syntax error: ${printParseErrorCode(e.error)}` }));
    return { ok: false, problems: problems.length > 0 ? problems : [{ line: 1, column: 1, path: '', message: 'The document is empty.' }] };
  }
  const value: unknown = getNodeValue(parsed.root);
  const v = core().validateRequestDocument(value, catalogue ? { catalogue } : {});
  const placed = (issue: DocumentIssue): DraftProblem => {
    const span = locatePath(parsed.root, issue.path, isAboutName(issue.code, issue.fix?.kind === 'rename-member'));
    return { ...lineColumn(text, span.offset), path: core().formatJsonPath(issue.path), issue, message: issue.message };
  };
  const errors = v.issues.filter((i) => i.severity === 'error').map(placed);
  if (!v.ok || errors.length > 0) return { ok: false, problems: errors };
  return { ok: true, value, warnings: v.issues.filter((i) => i.severity !== 'error').map(placed) };
}

/** A problem as one line of a refusal: where, then the message (`message`: the UI's wording of it). */
export function draftProblemLine(p: DraftProblem, message = p.message): string {
  return `line ${p.line}, column ${p.column}${p.path ? ` (${p.path})` : ''}: ${message}`;
}
