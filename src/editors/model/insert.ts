// What to insert at the cursor for a user or a process category picked in a tree
// view. No vscode import (unit-tested in plain Node).
import { getLocation } from 'jsonc-parser';

export interface InsertableUser {
  id: string;
  loginName?: string | null;
  email?: string | null;
  name?: string | null;
}

export interface InsertableCategory {
  id: string;
  name?: string | null;
}

/** Members whose value names a user by login name, LDAP login name, e-mail address or name (not by ID). */
const USER_NAME_MEMBERS = new Set(['user', 'removeUsers']);

export interface Insertion {
  /** Text to insert at the cursor. */
  text: string;
  /** What was inserted, for a status message. */
  value: string;
  kind: 'id' | 'loginName';
}

/**
 * The text to insert at `offset` of a JSON text: the user's login name where the
 * cursor is on a member that matches users by name (`user`, an entry of
 * `removeUsers`), the ID anywhere else; quoted unless the cursor already is inside
 * a string.
 */
export function insertionFor(text: string, offset: number, item: { user: InsertableUser } | { category: InsertableCategory }): Insertion {
  const location = getLocation(text, offset);
  const inString = location.previousNode?.type === 'string' && offset > location.previousNode.offset && offset < location.previousNode.offset + location.previousNode.length;
  const path = location.path;
  let value: string;
  let kind: Insertion['kind'] = 'id';
  if ('user' in item) {
    const member = [...path].reverse().find((s) => typeof s === 'string');
    const byName = typeof member === 'string' && USER_NAME_MEMBERS.has(member) && !location.isAtPropertyKey;
    const name = item.user.loginName || item.user.email || item.user.name;
    if (byName && name) {
      value = name;
      kind = 'loginName';
    } else {
      value = item.user.id;
    }
  } else {
    value = item.category.id;
  }
  const json = JSON.stringify(value);
  return { text: inString ? json.slice(1, -1) : json, value, kind };
}

/** Reads `{user}` / `{category}` / a plain `{id}` object given to the insert commands (tree nodes carry `user`/`category`). */
export function readUserArg(arg: unknown): InsertableUser | undefined {
  const candidate = isObject(arg) && isObject(arg.user) ? arg.user : arg;
  if (!isObject(candidate) || typeof candidate.id !== 'string' || candidate.id === '') return undefined;
  return {
    id: candidate.id,
    loginName: str(candidate.loginName),
    email: str(candidate.email),
    name: str(candidate.name),
  };
}

export function readCategoryArg(arg: unknown): InsertableCategory | undefined {
  const candidate = isObject(arg) && isObject(arg.category) ? arg.category : arg;
  if (!isObject(candidate) || typeof candidate.id !== 'string' || candidate.id === '') return undefined;
  return { id: candidate.id, name: str(candidate.name) };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}
