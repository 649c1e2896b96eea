// Where in the text a problem at a JSON path is shown. No vscode import.
import { findNodeAtLocation, parseTree, type Node, type ParseError } from 'jsonc-parser';

export interface TextSpan {
  offset: number;
  length: number;
}

export interface ParsedText {
  root: Node | undefined;
  errors: ParseError[];
}

export function parseText(text: string): ParsedText {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: false, disallowComments: false });
  return { root, errors };
}

function keyNode(node: Node): Node | undefined {
  const parent = node.parent;
  return parent && parent.type === 'property' && parent.children && parent.children[1] === node ? parent.children[0] : undefined;
}

/**
 * The span of the member a problem is about:
 * - a problem about the member's name (a rename fix, an unknown or duplicate
 *   member) sits on the quoted name;
 * - a problem about a scalar value sits on the value;
 * - a problem about an object or list value sits on the member's name (the value
 *   may span many lines);
 * - when the path does not exist (a required member is missing), on the name of
 *   the nearest member that does, or on the opening brace of the document.
 */
export function locatePath(root: Node | undefined, path: readonly (string | number)[], aboutName = false): TextSpan {
  if (!root) return { offset: 0, length: 0 };
  for (let n = path.length; n >= 0; n--) {
    const node = n === 0 ? root : findNodeAtLocation(root, path.slice(0, n) as (string | number)[]);
    if (!node) continue;
    const key = keyNode(node);
    const missing = n < path.length;
    if (key && (aboutName || missing || node.type === 'object' || node.type === 'array')) {
      return { offset: key.offset, length: key.length };
    }
    if (node === root || node.type === 'object' || node.type === 'array') {
      // An element of a list, or the document itself: its first character.
      return { offset: node.offset, length: node.type === 'object' || node.type === 'array' ? 1 : node.length };
    }
    return { offset: node.offset, length: node.length };
  }
  return { offset: 0, length: 0 };
}

/** The span of a member's quoted name (for a rename edit), when the path names an object member. */
export function memberNameSpan(root: Node | undefined, path: readonly (string | number)[]): TextSpan | undefined {
  if (!root || path.length === 0) return undefined;
  const node = findNodeAtLocation(root, path as (string | number)[]);
  const key = node && keyNode(node);
  return key ? { offset: key.offset, length: key.length } : undefined;
}

/** The span of a member's value (with its quotes, for a string), when the path exists. */
export function valueSpan(root: Node | undefined, path: readonly (string | number)[]): TextSpan | undefined {
  if (!root || path.length === 0) return undefined;
  const node = findNodeAtLocation(root, path as (string | number)[]);
  return node ? { offset: node.offset, length: node.length } : undefined;
}

/** True when the issue is about a member's name rather than its value. */
export function isAboutName(code: string, hasRenameFix: boolean): boolean {
  return hasRenameFix || /MEMBER/.test(code);
}
