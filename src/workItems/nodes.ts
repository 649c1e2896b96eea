// The nodes of the Work Items view: a project, a work item, an index range of a large level,
// Load More (projects), and what a level belongs to (LevelOwner). The tree (tree.ts) makes them
// and re-exports them.
import type { Project } from '../schema/reads';
import type { ActionableNode, MessageNode } from '../views/common';
import type { WorkItemRow } from './model/rows';
import type { WorkItemsTree } from './tree';
import { core } from '../core/load';

export class ProjectNode implements ActionableNode {
  readonly kind = 'project';
  readonly id: string;
  constructor(
    readonly tree: WorkItemsTree,
    public project: Project,
  ) {
    this.id = `project:${project.id}`;
  }
  get projectId(): string {
    return String(this.project.id);
  }
  /** The work item ID of the project's root folder (level 0), when the service named it. */
  get rootId(): string | undefined {
    const r = this.project.workItemRootFolderId;
    return r === null || r === undefined || r === '' ? undefined : String(r);
  }
  copyId(): string {
    return this.projectId;
  }
  details(): { title: string; value: unknown } {
    return { title: `project-${this.projectId}`, value: this.project };
  }
}

export class WorkItemNode implements ActionableNode {
  readonly kind = 'workItem';
  readonly id: string;
  constructor(
    readonly tree: WorkItemsTree,
    public row: WorkItemRow,
  ) {
    this.id = `workItem:${row.id}`;
  }
  get itemId(): string {
    return this.row.id;
  }
  copyId(): string {
    return this.row.id;
  }
}

/** The owner of a level: a project (its root folder's children) or a work item. */
export type LevelOwner = ProjectNode | WorkItemNode;

export class WorkItemRangeNode {
  readonly kind = 'range';
  readonly id: string;
  constructor(
    readonly owner: LevelOwner,
    readonly start: number,
    readonly end: number,
  ) {
    this.id = `${owner.id}/r:${start}-${end}`;
  }
}

export class LoadMoreProjectsNode {
  readonly kind = 'loadMore';
  readonly id = 'projects/loadMore';
}

export type WorkItemTreeNode = ProjectNode | WorkItemNode | WorkItemRangeNode | LoadMoreProjectsNode | MessageNode;

/** The route is missing on this server (404 on the list of projects). */
export function isMissingRoute(e: unknown): boolean {
  return core().isServiceError(e) && e.kind === 'http' && e.status === 404;
}
