// The `workItemIds` of a request document's text: read them, append to them.
// No vscode import.
import { applyEdits, modify, parseTree, findNodeAtLocation, getNodeValue, type ParseError } from 'jsonc-parser';

export type IdsEdit =
  | { ok: true; text: string; edits: { offset: number; length: number; content: string }[]; added: string[]; present: number }
  | { ok: false; problem: 'not-json' | 'not-object' | 'ids-not-array' };

/** The IDs listed in `workItemIds` (strings and integers, as strings); undefined when the text has none. */
export function documentIds(text: string): string[] | undefined {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true });
  if (!root || root.type !== 'object') return undefined;
  const node = findNodeAtLocation(root, ['workItemIds']);
  if (!node || node.type !== 'array') return undefined;
  const out: string[] = [];
  for (const c of node.children ?? []) {
    const v = getNodeValue(c) as unknown;
    if (typeof v === 'string' && v.trim()) out.push(v.trim());
    else if (typeof v === 'number' && Number.isInteger(v)) out.push(String(v));
  }
  return out;
}

/**
 * Appends `ids` to `workItemIds` (created when absent), leaving out those already
 * listed; the rest of the text keeps its formatting. `eol` and `indent` follow the document.
 */
export function appendIds(text: string, ids: readonly string[], format: { insertSpaces?: boolean; tabSize?: number; eol?: string } = {}): IdsEdit {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true });
  if (!root || errors.length > 0) return { ok: false, problem: 'not-json' };
  if (root.type !== 'object') return { ok: false, problem: 'not-object' };
  const node = findNodeAtLocation(root, ['workItemIds']);
  if (node && node.type !== 'array') return { ok: false, problem: 'ids-not-array' };
  const existing = documentIds(text) ?? [];
  const seen = new Set(existing);
  const added: string[] = [];
  for (const id of ids) {
    if (seen.has(id)) continue;
    seen.add(id);
    added.push(id);
  }
  if (added.length === 0) return { ok: true, text, edits: [], added, present: ids.length };
  const formattingOptions = { insertSpaces: format.insertSpaces ?? true, tabSize: format.tabSize ?? 2, eol: format.eol ?? '\n' };
  const children = node?.children ?? [];
  if (!node || children.length === 0) {
    const edits = modify(text, ['workItemIds'], added, { formattingOptions });
    return { ok: true, text: applyEdits(text, edits), edits, added, present: ids.length - added.length };
  }
  // Insert after the last entry, laid out like the entries already there (one per line, or
  // on one line): comments and the rest of the document stay as they are.
  const last = children[children.length - 1]!;
  const first = children[0]!;
  const before = text.slice(node.offset + 1, first.offset);
  const lineStart = text.lastIndexOf('\n', last.offset) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart, last.offset))?.[0] ?? '';
  const multiline = /\n/.test(before);
  const sep = multiline ? `,${formattingOptions.eol}${indent}` : ', ';
  const insertion = added.map((id) => sep + JSON.stringify(id)).join('');
  const at = last.offset + last.length;
  const out = text.slice(0, at) + insertion + text.slice(at);
  return { ok: true, text: out, edits: [{ offset: at, length: 0, content: insertion }], added, present: ids.length - added.length };
}
