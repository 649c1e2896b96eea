// Where a request document or a result names a user by ID (partyId, leaderId,
// LeaderId, updatedBy, ...), and how a known user is shown. Names always come from
// the users read (the service's reads carry no LeaderName); "0" names no user.
// No vscode import.
import { type Node, parseTree } from 'jsonc-parser';

/** Members whose value is a user ID. */
export const USER_ID_MEMBERS: ReadonlySet<string> = new Set(['partyId', 'leaderId', 'LeaderId', 'updatedBy', 'userUpdatedBy', 'createdBy']);

export interface UserIdAt {
  id: string;
  member: string;
  /** The string value's span in the text, quotes included. */
  offset: number;
  length: number;
}

/** A value that names a user: not empty, and not "0" (the service's "no user", official help P1, T1). */
export function isUserId(value: string): boolean {
  const v = value.trim();
  return v !== '' && v !== '0';
}

/** Every string value of a USER_ID_MEMBERS member in a JSON text (a partly broken text gives what it can). */
export function userIdsInText(text: string): UserIdAt[] {
  const root = parseTree(text);
  const out: UserIdAt[] = [];
  const walk = (n: Node | undefined): void => {
    if (!n) return;
    if (n.type === 'property' && n.children?.length === 2) {
      const [key, value] = n.children as [Node, Node];
      if (typeof key.value === 'string' && USER_ID_MEMBERS.has(key.value) && value.type === 'string' && typeof value.value === 'string' && isUserId(value.value)) {
        out.push({ id: value.value.trim(), member: key.value, offset: value.offset, length: value.length });
      }
      walk(value);
      return;
    }
    for (const c of n.children ?? []) walk(c);
  };
  walk(root);
  return out;
}

/** The user ID at an offset of a JSON text, when the cursor is on one. */
export function userIdAt(text: string, offset: number): UserIdAt | undefined {
  return userIdsInText(text).find((u) => offset >= u.offset && offset <= u.offset + u.length);
}

export interface KnownUser {
  id: string;
  name: string;
  loginName?: string | null;
}

/** "田中 美咲 (tanaka)": the name and the login name when known. */
export function userLabel(user: KnownUser): string {
  return user.loginName ? `${user.name} (${user.loginName})` : user.name;
}

/** The user IDs a job result names (changed items' updatedBy, assignments' partyId, ...). */
export function userIdsInValue(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) userIdsInValue(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (USER_ID_MEMBERS.has(k) && typeof v === 'string' && isUserId(v)) out.add(v.trim());
      else userIdsInValue(v, out);
    }
  }
  return out;
}

/**
 * What the result views need of the user directory (src/people/directory.ts), which
 * src/extension.ts passes in: a feature never imports another.
 */
export interface UserNames {
  lookup(id: string): KnownUser | undefined;
  /** Reads the users not known yet; true when one of them became known. */
  resolve(ids: Iterable<string>): Promise<boolean>;
}
