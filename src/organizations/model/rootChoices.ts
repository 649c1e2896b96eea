// What Add Organization can offer to pick from, where the service can list organizations.
// Nothing lists every organization: the help shows only `GET /system/organizations/{id}/
// subOrganizations` (O1: one organization and the tree below it, each node with its parent)
// and `GET /system/users/me` (P3; the signed-in user, with organizationId and organizationName
// on the services that give them). So the choices are the trees that contain the signed-in
// user's organization and the organizations already shown: from each, the parents are read up
// to the top organization (depth 0, one request a level), then the top's tree a few levels down
// (and at least down to the user's organization and the level below it). Where none of this can
// be read, there is nothing to offer and the command asks for IDs as before.
// No vscode import.
import type { OrganizationNode } from '../../schema/catalogue';
import { isNoParent } from './serviceTree';
import { core } from '../../core/load';

/** A failure that the caller must see (sign in again), not a reason to offer less. */
const mustThrow = (e: unknown, signal: AbortSignal | undefined): boolean => !!signal?.aborted || (core().isServiceError(e) && e.kind === 'http' && e.status === 401);

/** Levels of a top organization's tree offered (below the top; deeper where the user's organization is). */
export const PICKER_DEPTH = 3;
/** The most parents walked up (the service's hierarchy has 16 levels at most: official help A3). */
const MAX_LEVELS = 32;

export interface RootChoice {
  id: string;
  name: string;
  code?: string;
  /** 0 for a top organization, 1 below it, … */
  level: number;
  /** The signed-in user's organization. */
  mine: boolean;
}

/** The calls it needs (ServiceClient has them). */
export interface RootChoicesSource {
  getCurrentUser(o?: { signal?: AbortSignal }): Promise<{ id: string; name: string; [k: string]: unknown } | undefined>;
  getSubOrganizations(orgId: string, q: { depth?: number }, o?: { signal?: AbortSignal }): Promise<OrganizationNode>;
}

export interface RootChoices {
  choices: RootChoice[];
  /** Why the trees could not be read (the first failure), when they could not. */
  problem?: unknown;
}

/**
 * The organizations to offer: the trees above and below the signed-in user's organization and
 * `known` (organizations already shown), in the service's order, each organization once. Failures
 * are not thrown (but a 401 and a cancel): what could be read is offered, and `problem` says what
 * could not.
 */
export async function rootChoices(source: RootChoicesSource, known: readonly string[], o?: { signal?: AbortSignal; depth?: number }): Promise<RootChoices> {
  const signal = o?.signal;
  let problem: unknown;
  let me: { id: string; name: string; [k: string]: unknown } | undefined;
  try {
    me = await source.getCurrentUser({ signal });
  } catch (e) {
    if (mustThrow(e, signal)) throw e;
    problem = e;
  }
  const myOrg = typeof me?.['organizationId'] === 'string' && !isNoParent(me['organizationId']) ? me['organizationId'] : undefined;
  const myOrgName = typeof me?.['organizationName'] === 'string' && me['organizationName'] ? me['organizationName'] : undefined;

  // Up from each starting organization to its top, counting the levels.
  const tops = new Map<string, number>(); // top → levels needed below it
  const seen = new Set<string>();
  let treeReadable = true;
  for (const start of [...new Set([myOrg, ...known].filter((id): id is string => !!id))]) {
    if (!treeReadable) break;
    if (seen.has(start)) continue;
    let id = start;
    let levels = 0;
    try {
      for (let guard = 0; guard < MAX_LEVELS; guard++) {
        seen.add(id);
        const node = await source.getSubOrganizations(id, { depth: 0 }, { signal });
        const parent = node.parentId;
        if (isNoParent(parent) || seen.has(parent!)) break;
        id = parent!;
        levels++;
      }
    } catch (e) {
      if (mustThrow(e, signal)) throw e;
      problem ??= e;
      // The user's own organization failing means the route is not there; a known one may just be gone.
      if (start === myOrg || known.length === 0) treeReadable = false;
      continue;
    }
    const need = start === myOrg ? levels + 1 : levels;
    tops.set(id, Math.max(tops.get(id) ?? 0, need));
  }

  const choices: RootChoice[] = [];
  const offered = new Set<string>();
  for (const [top, need] of tops) {
    if (offered.has(top)) continue;
    let tree: OrganizationNode;
    try {
      tree = await source.getSubOrganizations(top, { depth: Math.max(o?.depth ?? PICKER_DEPTH, need) }, { signal });
    } catch (e) {
      if (mustThrow(e, signal)) throw e;
      problem ??= e;
      continue;
    }
    const walk = (n: OrganizationNode, level: number): void => {
      if (offered.has(n.id) || n.isDeleted === true) return;
      offered.add(n.id);
      choices.push({ id: n.id, name: n.name || n.id, code: n.code || undefined, level, mine: n.id === myOrg });
      for (const c of core().subOrganizationsOf(n)) if (c && typeof c.id === 'string') walk(c, level + 1);
    };
    walk(tree, 0);
  }
  // The user's organization as users/me names it, when no tree could show it.
  if (myOrg && !offered.has(myOrg)) choices.unshift({ id: myOrg, name: myOrgName ?? myOrg, level: 0, mine: true });
  return problem === undefined ? { choices } : { choices, problem };
}

/**
 * Whether an organization answers by this ID (Add Organization's check): the service's
 * subOrganizations shows it (official help O1; an organization without users too), or, where that
 * cannot tell (no such route, a refusal), some user is in it (operation 3) or below it (operation 2).
 * A 401 and a cancel are thrown.
 */
export async function organizationExists(
  source: Pick<RootChoicesSource, 'getSubOrganizations'> & { hasUsers(orgId: string, o?: { signal?: AbortSignal }): Promise<boolean> },
  id: string,
  o?: { signal?: AbortSignal },
): Promise<boolean> {
  try {
    const node = await source.getSubOrganizations(id, { depth: 0 }, o);
    if (node.id === id) return true;
  } catch (e) {
    if (mustThrow(e, o?.signal) || !core().isServiceError(e) || e.kind === 'cancelled') throw e;
  }
  return source.hasUsers(id, o);
}
