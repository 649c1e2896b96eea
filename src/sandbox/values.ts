// Small helpers for the sandbox's error messages. No vscode import.

/** The value at a (zod issue) path; undefined when absent. */
export function valueAt(root: unknown, p: readonly PropertyKey[]): unknown {
  let cur: unknown = root;
  for (const seg of p) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[seg];
  }
  return cur;
}

/** A short, safe rendering of a JSON value for an error message. */
export function showValue(v: unknown): string {
  if (v === undefined) return 'nothing (missing)';
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = String(v);
  }
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
