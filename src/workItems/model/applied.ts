// The work items an update job changed, from its responses. No vscode import.
import type { JobResult } from '../../bulk/types';

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
