// Request documents (`*.workitems.json`): checking one completely before anything is
// sent (JSON syntax, the JSON language service's schema diagnostics, and the zod
// model's rules). Recognising them and parsing them: src/common/requestDocument.ts.
import * as vscode from 'vscode';
import type { DocumentIssue } from '../schema/issues';
import { isAboutName, locatePath, type TextSpan } from '../common/model/locate';
import { analyzeText, type Analysis } from '../common/requestDocument';
import { core } from '../core/load';

/** Diagnostics of this extension carry this source. */
export const DIAGNOSTIC_SOURCE = 'Work Item Studio';

/** The issue's sentence in the display language (the English text when no translation exists). */
export function issueText(issue: DocumentIssue): string {
  if (core().isErrorCode(issue.code) && issue.params) {
    // `comment` stays empty: VS Code looks a message with a comment up under the key
    // "message/comment", and the bundle's keys are the English messages.
    // Phrases in the parameters ("the update", `the text "yes"`) are translated whole (src/schema/param-phrases.ts).
    const args = core().localizeParams(issue.params, (key, a) => vscode.l10n.t({ message: key, args: a, comment: [] })) as Record<string, string | number>;
    return vscode.l10n.t({ message: core().ERROR_CODES[issue.code].message, args, comment: [] });
  }
  return issue.message;
}

/** A problem that blocks sending, with where it is. */
export interface BlockingProblem {
  message: string;
  range: vscode.Range;
}

/**
 * Every error in the document: JSON syntax errors, the editor's error diagnostics
 * (the JSON language service's schema errors and ours), and the zod model's
 * errors. Sorted by position.
 */
export function blockingProblems(doc: vscode.TextDocument, analysis = analyzeText(doc.getText())): BlockingProblem[] {
  const out: BlockingProblem[] = [];
  for (const e of analysis.parsed.errors) {
    const start = doc.positionAt(e.offset);
    out.push({ message: vscode.l10n.t('JSON syntax error'), range: new vscode.Range(start, doc.positionAt(e.offset + e.length)) });
  }
  if (!analysis.parsed.root && analysis.parsed.errors.length === 0) {
    out.push({ message: vscode.l10n.t('The document is empty.'), range: new vscode.Range(0, 0, 0, 0) });
  }
  for (const d of vscode.languages.getDiagnostics(doc.uri)) {
    if (d.severity === vscode.DiagnosticSeverity.Error) out.push({ message: d.message, range: d.range });
  }
  if (analysis.validation) {
    for (const issue of analysis.validation.issues) {
      if (issue.severity !== 'error') continue;
      const span = locateIssueSpan(analysis, issue);
      out.push({ message: issueText(issue), range: new vscode.Range(doc.positionAt(span.offset), doc.positionAt(span.offset + span.length)) });
    }
  }
  // One entry per position and message.
  const seen = new Set<string>();
  return out
    .filter((p) => {
      const k = `${p.range.start.line}:${p.range.start.character}:${p.message}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    })
    .sort((a, b) => a.range.start.compareTo(b.range.start));
}

export function locateIssueSpan(analysis: Analysis, issue: DocumentIssue): TextSpan {
  return locatePath(analysis.parsed.root, issue.path, isAboutName(issue.code, issue.fix?.kind === 'rename-member'));
}

/** "3, 7 and 12" style list of 1-based line numbers, at most `max` shown. */
export function lineList(problems: readonly BlockingProblem[], max = 5): string {
  const lines = [...new Set(problems.map((p) => p.range.start.line + 1))].sort((a, b) => a - b);
  const shown = lines.slice(0, max).join(', ');
  return lines.length > max ? `${shown}, …` : shown;
}
