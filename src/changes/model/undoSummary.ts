// The summary shown with the undo documents of a job (Markdown): the documents in
// the order to send them, and every change that cannot be put back, by item and
// reason. No vscode import.
//
// A document's line says its order once, by its name (undo-1-of-3, or
// undo-<job>-01-<kind>.workitems.json when written to a folder), then what it puts back:
// "- undo-1-of-3: puts back the schedule of 3 items" (a bullet list, not numbered: the
// name already carries the number).
import type { NonInvertibleReason, UndoKind, UndoPlan } from '../../bulk/undo';

export interface UndoSummaryStrings {
  title(name: string, jobId: string): string;
  notSent: string;
  documents: string;
  /** What one document puts back (after its name, which says its order). */
  document(kind: UndoKind, items: number): string;
  cannot: string;
  column: { id: string; member: string; reason: string };
  partly: string;
  reason(r: NonInvertibleReason): string;
  nothing: string;
  more(count: number): string;
  /** Said under the documents when one of them deletes (what the job added): how that is undone in turn. */
  deleteNote?: string;
}

/** Rows of the "cannot be put back" table shown at most (the rest is counted). */
export const MAX_SUMMARY_ROWS = 2000;

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export function undoSummary(input: { name: string; jobId: string; plan: UndoPlan; documents: string[] }, s: UndoSummaryStrings): string {
  const { plan } = input;
  const out = [`# ${s.title(input.name, input.jobId)}`, '', `_${s.notSent}_`, '', `## ${s.documents}`, ''];
  plan.documents.forEach((d, i) => out.push(`- ${cell(input.documents[i] ?? '')}: ${s.document(d.kind, d.workItemIds.length)}`));
  if (s.deleteNote && plan.documents.some((d) => d.kind === 'delete')) out.push('', `> ${s.deleteNote}`);
  out.push('', `## ${s.cannot}`, '');
  if (plan.nonInvertible.length === 0) out.push(s.nothing);
  else {
    out.push(`| ${s.column.id} | ${s.column.member} | ${s.column.reason} |`, '| --- | --- | --- |');
    for (const n of plan.nonInvertible.slice(0, MAX_SUMMARY_ROWS)) out.push(`| ${cell(n.id)} | ${cell(n.member)} | ${cell(s.reason(n.reason))}${n.partly ? ` ${s.partly}` : ''} |`);
    if (plan.nonInvertible.length > MAX_SUMMARY_ROWS) out.push('', s.more(plan.nonInvertible.length - MAX_SUMMARY_ROWS));
  }
  return `${out.join('\n')}\n`;
}
