// Sub-organization discovery from users: the fallback on a service without
// `GET /system/organizations/{id}/subOrganizations` (./serviceTree.ts reads that first). Operation 2
// (users of all organizations below X) tells, through each user's organizationId
// and organizationName, which organizations lie somewhere below X, but not how
// deep. A discovered organization is a direct child of X unless it lies below
// another discovered organization; operation 2 on that other organization says
// which ones lie below it. So the children of X are found by querying candidates
// one by one and striking out everything found below a queried one; every answer
// is cached and reused when the user expands the child (each organization is asked
// at most once). Organizations without users (and with no users below them) can
// never be discovered; an organization without users of its own but with users
// below it is invisible too, and its sub-organizations appear one level higher.
// No vscode import.
import { releasable } from '../../common/sharedAttempt';

export interface OrgRef {
  id: string;
  name: string;
}

/** Organizations below one organization, by id, with the number of their users found. */
export type BelowMap = ReadonlyMap<string, { name: string; users: number }>;

/** The minimal user shape discovery reads. */
export interface OrgMember {
  organizationId?: string | null;
  organizationName?: string | null;
}

/**
 * Reads operation 2's users into a BelowMap (the users themselves are not kept); with
 * `into`, adds them to it (a read folded batch by batch).
 */
export function summarizeBelow(
  orgId: string,
  users: Iterable<OrgMember>,
  into: Map<string, { name: string; users: number }> = new Map(),
): Map<string, { name: string; users: number }> {
  const map = into;
  for (const u of users) {
    const id = u.organizationId;
    if (!id || id === orgId) continue;
    const e = map.get(id);
    if (e) e.users++;
    else map.set(id, { name: u.organizationName || id, users: 1 });
  }
  return map;
}

/**
 * A summary of operation 2 made batch by batch as the answer is read (the client's
 * `foldAllAssignedUsers`): `start` makes a fresh summary for each attempt of the read
 * (one that starts over starts afresh) and returns what takes a batch; `below` is the
 * summary of the last attempt.
 */
export function belowFold(orgId: string): { start: () => (users: Iterable<OrgMember>) => void; below: () => Map<string, { name: string; users: number }> } {
  let map = new Map<string, { name: string; users: number }>();
  return {
    start: () => {
      map = new Map();
      return (users) => void summarizeBelow(orgId, users, map);
    },
    below: () => map,
  };
}

export type FetchBelow = (orgId: string, signal: AbortSignal | undefined) => Promise<BelowMap>;

export class OrgDiscovery {
  private readonly below = new Map<string, BelowMap>();
  private readonly inflight = new Map<string, Promise<BelowMap>>();
  /** Number of operation-2 requests made (for tests and the log). */
  requests = 0;

  constructor(private readonly fetchBelow: FetchBelow) {}

  /** Organizations somewhere below `orgId` (cached). */
  async belowOf(orgId: string, signal?: AbortSignal): Promise<BelowMap> {
    const cached = this.below.get(orgId);
    if (cached) return cached;
    let p = this.inflight.get(orgId);
    if (!p) {
      this.requests++;
      p = this.fetchBelow(orgId, signal).then(
        (m) => {
          this.below.set(orgId, m);
          this.inflight.delete(orgId);
          return m;
        },
        (e: unknown) => {
          this.inflight.delete(orgId);
          throw e;
        },
      );
      this.inflight.set(orgId, p);
    }
    // A caller joining another's request is still released by its own signal.
    return releasable(p, signal);
  }

  /** True when operation 2 on `orgId` has been answered already. */
  isKnown(orgId: string): boolean {
    return this.below.has(orgId);
  }

  /**
   * The direct sub-organizations of `orgId`, sorted by name then id.
   * Queries only candidates not already struck out; known answers are used first.
   */
  async childrenOf(orgId: string, signal?: AbortSignal): Promise<OrgRef[]> {
    const all = await this.belowOf(orgId, signal);
    const deeper = new Set<string>();
    const strike = (m: BelowMap) => {
      for (const id of m.keys()) if (id !== orgId) deeper.add(id);
    };
    // Free information first: candidates whose answer is already cached.
    const candidates = [...all.keys()];
    for (const c of candidates) {
      const known = this.below.get(c);
      if (known) strike(known);
    }
    // Then ask the rest, in a stable order (most users of their own first; nothing in
    // the answer tells how deep an organization is, so any order gives the same tree).
    const pending = candidates.filter((c) => !this.below.has(c)).sort((a, b) => all.get(b)!.users - all.get(a)!.users);
    for (const c of pending) {
      if (deeper.has(c)) continue;
      signal?.throwIfAborted();
      strike(await this.belowOf(c, signal));
    }
    return candidates
      .filter((c) => !deeper.has(c))
      .map((id) => ({ id, name: all.get(id)!.name }))
      .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  }

  /** Forget everything (refresh). */
  clear(orgId?: string): void {
    if (orgId === undefined) {
      this.below.clear();
      this.inflight.clear();
    } else {
      this.below.delete(orgId);
      this.inflight.delete(orgId);
    }
  }
}
