// The nodes of the Organizations view: an organization (its content loaded on demand and
// kept while the view lives), an index range of its users, and a user (decoded from the
// answer's bytes when first asked for). The tree (./tree.ts) makes and loads them.
import type * as vscode from 'vscode';
import type { User } from '../schema/api';
import type { UserRow, UserRows } from '../api/userRows';
import type { OrgRef } from './model/discovery';
import type { SubOrgSource } from './model/serviceTree';
import { Loadable, type ActionableNode, type MessageNode } from '../views/common';

/** What an organization's node asks of the tree that holds it: its load, its announcement, the log. */
export interface OrgNodeHost {
  loadOrg(org: OrgNode, signal: AbortSignal): Promise<OrgContent>;
  fire(node?: OrgTreeNode): void;
  readonly log: vscode.LogOutputChannel;
}

export interface OrgContent {
  subOrgs: OrgRef[];
  /** The one array of this organization's (filtered) direct users' rows, sorted. */
  users: UserRow[];
  /** The answer they come from: a whole user is decoded from it when asked for (tooltip, details). */
  list: UserRows;
  /** Where the sub-organizations came from: the service's tree, or its users (a service without subOrganizations). */
  source: SubOrgSource;
}

export class OrgNode implements ActionableNode {
  readonly kind = 'org';
  readonly id: string;
  readonly content: Loadable<OrgContent>;

  constructor(
    readonly tree: OrgNodeHost,
    readonly orgId: string,
    readonly parent: OrgNode | undefined,
    public name: string | undefined,
  ) {
    this.id = parent ? `${parent.id}/o:${orgId}` : `org:${orgId}`;
    this.content = new Loadable(
      (signal) => tree.loadOrg(this, signal),
      () => tree.fire(this),
      tree.log,
    );
  }

  get isRoot(): boolean {
    return !this.parent;
  }

  /** Sub-organization nodes are kept, so their loaded content survives re-renders. */
  private readonly subNodes = new Map<string, OrgNode>();

  /** The view asked for this organization's rows since its last reset (its end is then never announced by us). */
  rowsAsked = false;

  child(ref: OrgRef): OrgNode {
    let n = this.subNodes.get(ref.id);
    if (!n) {
      n = new OrgNode(this.tree, ref.id, this, ref.name);
      this.subNodes.set(ref.id, n);
    }
    return n;
  }

  /** Cancels loads in this subtree and forgets its content. */
  reset(): void {
    this.content.reset();
    this.rowsAsked = false;
    for (const n of this.subNodes.values()) n.reset();
    this.subNodes.clear();
  }

  copyId(): string {
    return this.orgId;
  }
}

export class RangeNode implements ActionableNode {
  readonly kind = 'range';
  readonly id: string;
  constructor(
    readonly org: OrgNode,
    readonly start: number,
    readonly end: number,
  ) {
    this.id = `${org.id}/r:${start}-${end}`;
  }
}

export class UserNode implements ActionableNode {
  readonly kind = 'user';
  readonly id: string;
  private whole: User | undefined;
  constructor(
    readonly org: OrgNode,
    readonly index: number,
    readonly row: UserRow,
    private readonly list: UserRows,
  ) {
    this.id = `${org.id}/u:${row.id}`;
  }
  /** The whole user (decoded from the answer when first asked for). */
  get user(): User {
    return (this.whole ??= this.list.user(this.row));
  }
  copyId(): string {
    return this.row.id;
  }
  details(): { title: string; value: unknown } {
    return { title: `user-${this.row.id}`, value: this.user };
  }
}

export type OrgTreeNode = OrgNode | RangeNode | UserNode | MessageNode;
