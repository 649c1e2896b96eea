// Sub-organizations as the service gives them: `GET /system/organizations/{id}/subOrganizations`
// (official help O1: one Organization, a tree; query `depth`, tree depth). Every organization is
// shown, with or without users, named by the service. The tree is read a few levels at a time as
// it is expanded (`depth` below the organization asked: DEFAULT_DEPTH levels, so expanding a
// child that was read with its parent asks nothing), every node of an answer kept.
//
// Where the service has no such route (an older server: 404/405/501, or a refusal 400/403, or an
// answer that is not an organization), SubOrganizations falls back to the discovery from users
// (operations 2 and 3, ./discovery.ts) for the rest of the session and says so once.
// No vscode import.
import type { OrganizationNode } from '../../schema/catalogue';
import { releasable } from '../../common/sharedAttempt';
import { OrgDiscovery, type BelowMap, type FetchBelow, type OrgRef } from './discovery';
import { core } from '../../core/load';

/**
 * Levels read below the organization asked (`depth`, counted from it: 1 gives its direct
 * sub-organizations): two, so a sub-organization's own sub-organizations come with it.
 */
export const DEFAULT_DEPTH = 2;

/** `getSubOrganizations(orgId, {depth})`; `depth` undefined: the whole tree below. */
export type FetchTree = (orgId: string, depth: number | undefined, signal: AbortSignal | undefined) => Promise<OrganizationNode>;

/** What is known of one organization from the service's answers. */
export interface OrgInfo {
  id: string;
  name?: string;
  code?: string;
  parentId?: string;
  /** Its live sub-organizations in the service's order; undefined until an answer included them. */
  children?: OrgRef[];
}

/** An ID that stands for "no parent": absent, empty or "0" (the service's "none", official help section 3). */
export function isNoParent(id: string | null | undefined): boolean {
  return id === undefined || id === null || id === '' || id === '0';
}

/** The tree read from the service, node by node (cached; one request per organization at most). */
export class OrgTree {
  private readonly known = new Map<string, OrgInfo>();
  private readonly inflight = new Map<string, Promise<void>>();
  /** Organizations whose whole subtree was read (no `depth`). */
  private readonly whole = new Set<string>();
  /** Number of subOrganizations requests made (tests and the log). */
  requests = 0;

  constructor(
    private readonly fetchTree: FetchTree,
    readonly depth = DEFAULT_DEPTH,
  ) {}

  info(orgId: string): OrgInfo | undefined {
    return this.known.get(orgId);
  }

  /** The direct live sub-organizations of `orgId` (one request unless an earlier answer included them). */
  async childrenOf(orgId: string, signal?: AbortSignal): Promise<OrgRef[]> {
    const k = this.known.get(orgId);
    if (k?.children) return k.children;
    await this.read(orgId, this.depth, signal);
    return this.known.get(orgId)?.children ?? [];
  }

  /** Every organization below `orgId` (its whole subtree, read with one request without `depth`). */
  async descendantsOf(orgId: string, signal?: AbortSignal): Promise<Set<string>> {
    if (!this.whole.has(orgId)) {
      await this.read(orgId, undefined, signal);
      this.whole.add(orgId);
    }
    const out = new Set<string>();
    const walk = (id: string): void => {
      for (const c of this.known.get(id)?.children ?? []) {
        if (out.has(c.id)) continue; // a cycle in a bad answer ends here
        out.add(c.id);
        walk(c.id);
      }
    };
    walk(orgId);
    return out;
  }

  /** The organization itself (depth 0): its name and parent. */
  async self(orgId: string, signal?: AbortSignal): Promise<OrgInfo> {
    if (!this.known.get(orgId)?.name) await this.read(orgId, 0, signal);
    return this.known.get(orgId) ?? { id: orgId };
  }

  private read(orgId: string, depth: number | undefined, signal: AbortSignal | undefined): Promise<void> {
    const key = `${orgId}\n${depth ?? '*'}`;
    let p = this.inflight.get(key);
    if (!p) {
      this.requests++;
      p = this.fetchTree(orgId, depth, signal).then(
        (node) => {
          this.inflight.delete(key);
          this.absorb(node, 0, depth, undefined, new Set());
          // An answer that leaves the organization asked out lists nothing below it (asked once).
          const asked = this.known.get(orgId);
          if (!asked?.children) this.known.set(orgId, { ...asked, id: orgId, children: [] });
        },
        (e: unknown) => {
          this.inflight.delete(key);
          throw e;
        },
      );
      this.inflight.set(key, p);
    }
    return releasable(p, signal);
  }

  /**
   * Keeps a node and those below it. A node's sub-organizations are complete when it lies
   * above the depth asked, or when the answer lists some (a service never lists part of them).
   */
  private absorb(node: OrganizationNode, level: number, depth: number | undefined, parentId: string | undefined, seen: Set<string>): void {
    if (seen.has(node.id)) return;
    seen.add(node.id);
    const kids = core().subOrganizationsOf(node).filter((k) => k && typeof k.id === 'string' && k.isDeleted !== true);
    const before = this.known.get(node.id);
    const info: OrgInfo = {
      id: node.id,
      name: node.name || before?.name,
      code: node.code ?? before?.code,
      parentId: !isNoParent(node.parentId) ? node.parentId! : (parentId ?? before?.parentId),
      children: before?.children,
    };
    if (depth === undefined || level < depth || kids.length > 0) info.children = kids.map((k) => ({ id: k.id, name: k.name || before?.children?.find((c) => c.id === k.id)?.name || k.id }));
    this.known.set(node.id, info);
    for (const k of kids) this.absorb(k, level + 1, depth, node.id, seen);
  }

  clear(orgId?: string): void {
    if (orgId === undefined) {
      this.known.clear();
      this.inflight.clear();
      this.whole.clear();
      return;
    }
    // The organization and everything known below it are read again.
    const forget = (id: string, seen: Set<string>): void => {
      const k = this.known.get(id);
      if (!k || seen.has(id)) return;
      seen.add(id);
      this.known.set(id, { id, name: k.name, code: k.code, parentId: k.parentId });
      for (const key of [...this.inflight.keys()]) if (key.startsWith(`${id}\n`)) this.inflight.delete(key);
      for (const c of k.children ?? []) forget(c.id, seen);
    };
    forget(orgId, new Set());
    // A whole subtree read above it is no longer whole.
    this.whole.clear();
  }
}

/**
 * Whether a failure of the subOrganizations read means "this service has no such route":
 * an HTTP refusal (400, 403, 404, 405, 501) or an answer that is not an organization.
 * Anything else (a 5xx, the network, a cancel, an answer over the size cap) is a failure to show.
 */
export function meansNoRoute(e: unknown): boolean {
  if (!core().isServiceError(e)) return false;
  if (e.kind === 'http') return [400, 403, 404, 405, 501].includes(e.status ?? 0);
  return e.kind === 'invalid-response' && e.reason !== 'response-too-large';
}

export type SubOrgSource = 'service' | 'users';

/**
 * Sub-organizations from the service's tree, or, where the service has no subOrganizations,
 * from users (operations 2 and 3). An answer decides for the rest of the session (`source`);
 * `onFallback` is called once, when it falls back. A 404 alone does not decide: it also means
 * "no such organization" on a service that has the route (the sandbox says so), so that one
 * organization is read from users, and the service is taken to lack the route only once an
 * organization it refused is known to exist (it has users, or was found from users).
 */
export class SubOrganizations {
  source: SubOrgSource | undefined;
  readonly tree: OrgTree;
  readonly discovery: OrgDiscovery;
  /** Organizations refused with a 404 before the source was decided, and the refusal. */
  private readonly refused = new Map<string, unknown>();
  /** Organizations known to exist from their users. */
  private readonly existing = new Set<string>();

  constructor(
    fetchTree: FetchTree,
    fetchBelow: FetchBelow,
    private readonly onFallback: (why: unknown) => void,
    depth = DEFAULT_DEPTH,
  ) {
    this.tree = new OrgTree(fetchTree, depth);
    this.discovery = new OrgDiscovery(fetchBelow);
  }

  /** The direct sub-organizations of `orgId` and where they came from. */
  async childrenOf(orgId: string, signal?: AbortSignal): Promise<{ refs: OrgRef[]; source: SubOrgSource }> {
    if (this.source !== 'users') {
      try {
        const refs = await this.tree.childrenOf(orgId, signal);
        this.source = 'service';
        return { refs, source: 'service' };
      } catch (e) {
        // Once the service answered, a refusal is about this organization: shown as a failure.
        if (this.source === 'service' || !meansNoRoute(e) || signal?.aborted) throw e;
        if (core().isServiceError(e) && e.kind === 'http' && e.status === 404 && !this.existing.has(orgId)) this.refused.set(orgId, e);
        else this.fallBack(e);
      }
    }
    const refs = await this.discovery.childrenOf(orgId, signal);
    for (const r of refs) this.existing.add(r.id);
    if (refs.length > 0) this.noteExists(orgId);
    return { refs, source: 'users' };
  }

  /** The organization exists (it has users): a 404 on it meant the route, not the organization. */
  noteExists(orgId: string): void {
    this.existing.add(orgId);
    const refusal = this.refused.get(orgId);
    if (refusal !== undefined && this.source === undefined) this.fallBack(refusal);
  }

  /** The name the service gives the organization (service source only). */
  nameOf(orgId: string): string | undefined {
    return this.source === 'service' ? this.tree.info(orgId)?.name : undefined;
  }

  /**
   * Whether the sub-organization `subId` or one below it is among `matches` (organizations with a
   * user that a filter lets through): from the service's tree, or from operation 2 on it.
   */
  async holdsAny(subId: string, matches: ReadonlySet<string>, signal?: AbortSignal): Promise<boolean> {
    if (matches.has(subId)) return true;
    if (matches.size === 0) return false;
    if (this.source === 'service') {
      for (const id of await this.tree.descendantsOf(subId, signal)) if (matches.has(id)) return true;
      return false;
    }
    const below: BelowMap = await this.discovery.belowOf(subId, signal);
    return [...below.keys()].some((id) => matches.has(id));
  }

  clear(orgId?: string): void {
    this.tree.clear(orgId);
    this.discovery.clear(orgId);
  }

  private fallBack(why: unknown): void {
    if (this.source === 'users') return;
    this.source = 'users';
    this.onFallback(why);
  }
}
