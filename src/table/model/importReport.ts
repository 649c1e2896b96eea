// Why rows of an import were refused, grouped for a short summary ("ID not in the table: 7,
// value not valid: 5"), without vscode. A row counts once per reason it has; rows refused
// by a problem of the header (no ID column) count under 'header'.
import type { ImportProblem, ImportResult } from './csv';

export type RefusalReason =
  | 'unknownId'
  | 'duplicateId'
  | 'emptyId'
  | 'cellCount'
  | 'unclosedQuote'
  | 'controlCharacter'
  | 'value'
  | 'readOnly'
  | 'check'
  | 'header'
  | 'other';

/** The reason of one problem: its cell problem's code, else the model's sentence. */
export function refusalReason(p: ImportProblem): RefusalReason {
  switch (p.problem?.code) {
    case 'type':
    case 'choice':
    case 'user':
      return 'value';
    case 'readOnly':
      return 'readOnly';
    case 'check':
      return 'check';
    case undefined:
      break;
  }
  const m = p.message;
  if (/^Unknown ID /.test(m)) return 'unknownId';
  if (/ is on more than one line /.test(m)) return 'duplicateId';
  if (m === 'The ID is empty.') return 'emptyId';
  if (/^The line has \d+ cells/.test(m)) return 'cellCount';
  if (/quote/i.test(m)) return 'unclosedQuote';
  if (/control character/i.test(m)) return 'controlCharacter';
  return 'other';
}

/** Refused rows per reason, most first (ties in the order above). */
export function refusalReasons(result: Pick<ImportResult, 'problems' | 'badRecordCount'>): { reason: RefusalReason; rows: number }[] {
  const byReason = new Map<RefusalReason, Set<number>>();
  const lines = new Set<number>();
  for (const p of result.problems) {
    if (p.line <= 1) continue;
    lines.add(p.line);
    const reason = refusalReason(p);
    let set = byReason.get(reason);
    if (!set) byReason.set(reason, (set = new Set()));
    set.add(p.line);
  }
  const out = [...byReason].map(([reason, set]) => ({ reason, rows: set.size }));
  const unexplained = result.badRecordCount - lines.size;
  if (unexplained > 0) out.push({ reason: result.problems.some((p) => p.line <= 1) ? 'header' : 'other', rows: unexplained });
  const order: RefusalReason[] = ['unknownId', 'duplicateId', 'emptyId', 'cellCount', 'unclosedQuote', 'controlCharacter', 'value', 'readOnly', 'check', 'header', 'other'];
  return out.sort((a, b) => b.rows - a.rows || order.indexOf(a.reason) - order.indexOf(b.reason));
}
