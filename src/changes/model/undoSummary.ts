// The summary shown with the undo documents of a job (Markdown): the documents in
// the order to send them, and every change that cannot be put back, by item and
// reason. No vscode import.
import type { NonInvertibleReason, UndoKind, UndoPlan } from '../../bulk/undo';

export interface UndoSummaryStrings {
  title(name: string, jobId: string): string;
  notSent: string;
  documents: string;
  document(index: number, total: number, kind: UndoKind, items: number): string;
  cannot: string;
  column: { id: string; member: string; reason: string };
  partly: string;
  reason(r: NonInvertibleReason): string;
  nothing: string;
  more(count: number): string;
}

/** Rows of the "cannot be put back" table shown at most (the rest is counted). */
export const MAX_SUMMARY_ROWS = 2000;

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export function undoSummary(input: { name: string; jobId: string; plan: UndoPlan; documents: string[] }, s: UndoSummaryStrings): string {
  const { plan } = input;
  const out = [`# ${s.title(input.name, input.jobId)}`, '', `_${s.notSent}_`, '', `## ${s.documents}`, ''];
  plan.documents.forEach((d, i) => out.push(`${i + 1}. ${cell(input.documents[i] ?? '')}: ${s.document(i + 1, plan.documents.length, d.kind, d.workItemIds.length)}`));
  out.push('', `## ${s.cannot}`, '');
  if (plan.nonInvertible.length === 0) out.push(s.nothing);
  else {
    out.push(`| ${s.column.id} | ${s.column.member} | ${s.column.reason} |`, '| --- | --- | --- |');
    for (const n of plan.nonInvertible.slice(0, MAX_SUMMARY_ROWS)) out.push(`| ${cell(n.id)} | ${cell(n.member)} | ${cell(s.reason(n.reason))}${n.partly ? ` ${s.partly}` : ''} |`);
    if (plan.nonInvertible.length > MAX_SUMMARY_ROWS) out.push('', s.more(plan.nonInvertible.length - MAX_SUMMARY_ROWS));
  }
  return `${out.join('\n')}\n`;
}
