// The work items an update job changed, from its responses. No vscode import.
import type { JobPlan, JobResult } from '../../bulk/types';

/**
 * IDs in `items` and `affectedItems` of every succeeded response of the job, each
 * once, in the order they first appear (changed items first, then affected ones).
 */
export function appliedIds(result: Pick<JobResult, 'requests'>): string[] {
  const out = new Set<string>();
  for (const pass of ['items', 'affectedItems'] as const) {
    for (const r of result.requests) {
      if (r.state !== 'succeeded' || !r.response) continue;
      for (const item of r.response[pass] ?? []) {
        const id = (item as { id?: unknown }).id;
        if (typeof id === 'string' && id) out.add(id);
        else if (typeof id === 'number' && Number.isFinite(id)) out.add(String(id));
      }
    }
  }
  return [...out];
}

/**
 * The parents whose children a job changed besides the items the tree shows: the parent
 * of each add of its plan that succeeded, and the parent an answered item names when the
 * tree does not show that item (an item added, or restored with `restore`).
 */
export function parentsToReload(result: Pick<JobResult, 'requests'>, plan: Pick<JobPlan, 'parts' | 'requests'> | undefined, shown: (id: string) => boolean): string[] {
  const out = new Set<string>();
  if (plan) {
    for (const planned of plan.requests) {
      const part = plan.parts[planned.part ?? 0];
      if (part?.kind === 'add' && part.add && result.requests[planned.index]?.state === 'succeeded') out.add(part.add.parentId);
    }
  }
  for (const r of result.requests) {
    if (r.state !== 'succeeded' || !r.response) continue;
    for (const item of r.response.items ?? []) {
      const o = item as { id?: unknown; parentId?: unknown };
      const id = typeof o.id === 'number' ? String(o.id) : o.id;
      const parent = typeof o.parentId === 'number' ? String(o.parentId) : o.parentId;
      if (typeof id === 'string' && typeof parent === 'string' && parent !== '' && !shown(id)) out.add(parent);
    }
  }
  return [...out];
}
