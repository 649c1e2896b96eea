// What the pickers of the forms offer: the statuses of a project's profile (by name,
// the ID inserted), and users found by name, login name or ID. No vscode import.
import type { ProjectProfile } from '../../schema/catalogue';
import type { KnownUser } from '../../common/model/users';
import { halfWidth } from './inputs';
import { core } from '../../core/load';

export interface StatusChoice {
  id: string;
  name: string;
  code?: string;
  /** Item types the status is for (the profile's itemTypeIds); absent: every type. */
  itemTypeIds?: readonly string[];
}

/**
 * The profile's status types in its order, each once by ID; entries without an ID, and those
 * the profile marks `isAvailable: false` (the service refuses them), are left out.
 */
export function statusChoices(profile: ProjectProfile | undefined): StatusChoice[] {
  const seen = new Set<string>();
  const out: StatusChoice[] = [];
  for (const s of profile?.statusTypes ?? []) {
    const id = core().profileEntryId(s);
    if (id === undefined || seen.has(id) || (s as { isAvailable?: unknown }).isAvailable === false) continue;
    seen.add(id);
    out.push({ id, name: s.name, ...(s.code ? { code: s.code } : {}), ...(s.itemTypeIds ? { itemTypeIds: s.itemTypeIds } : {}) });
  }
  return out;
}

/** A status given by ID, name or code (scripted answers, typed text), case-insensitive; undefined when none or several match. */
export function findStatus(choices: readonly StatusChoice[], text: string): StatusChoice | undefined {
  const t = halfWidth(text).toLowerCase();
  const byId = choices.find((c) => c.id === t);
  if (byId) return byId;
  const hits = choices.filter((c) => c.name.toLowerCase() === t || c.code?.toLowerCase() === t);
  return hits.length === 1 ? hits[0] : undefined;
}

/** Users each once by ID, sorted by name (then login name), without blank names. */
export function userChoices(users: Iterable<KnownUser>): KnownUser[] {
  const byId = new Map<string, KnownUser>();
  for (const u of users) if (u.id && !byId.has(u.id)) byId.set(u.id, { id: u.id, name: u.name || u.loginName || u.id, loginName: u.loginName ?? null });
  return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name, 'ja') || (a.loginName ?? '').localeCompare(b.loginName ?? ''));
}

export type UserMatch = { ok: true; user: KnownUser } | { ok: false; problem: 'none' | 'several'; candidates: KnownUser[] };

/**
 * The user a text names: the ID, the login name or the name exactly (case and spaces
 * ignored), else the only user whose name or login name contains it.
 */
export function findUser(users: readonly KnownUser[], text: string): UserMatch {
  const norm = (s: string | null | undefined): string => halfWidth(s ?? '').toLowerCase().replace(/\s+/g, '');
  const t = norm(text);
  if (t === '') return { ok: false, problem: 'none', candidates: [] };
  const exact = users.filter((u) => u.id === t || norm(u.loginName) === t || norm(u.name) === t);
  if (exact.length === 1) return { ok: true, user: exact[0]! };
  if (exact.length > 1) return { ok: false, problem: 'several', candidates: exact };
  const partial = users.filter((u) => norm(u.name).includes(t) || norm(u.loginName).includes(t));
  if (partial.length === 1) return { ok: true, user: partial[0]! };
  return { ok: false, problem: partial.length === 0 ? 'none' : 'several', candidates: partial };
}

/** The project shared by every item, or the problem: an item of unknown project, or items of several projects. */
export function oneProject(ids: readonly string[], projectOf: (id: string) => string | undefined): { ok: true; projectId: string } | { ok: false; unknown: string[]; projects: string[] } {
  const projects = new Set<string>();
  const unknown: string[] = [];
  for (const id of ids) {
    const p = projectOf(id);
    if (p === undefined) unknown.push(id);
    else projects.add(p);
  }
  if (unknown.length === 0 && projects.size === 1) return { ok: true, projectId: [...projects][0]! };
  return { ok: false, unknown, projects: [...projects] };
}
