// The data set of the bulk benchmark (bench/bulk.ts), and the check that a run changed every item.
import type { Sandbox } from '../src/sandbox';

export const BENCH_DATASET = { workItems: 20_002, users: 50, organizations: 5, processCategories: 0, seed: 42 } as const;

/** Undefined when every tracked item of `ids` has the progress the last run set; else what is wrong. */
export function wrongProgress(sandbox: Sandbox, ids: readonly string[], completed: boolean): string | undefined {
  const want = new Set(ids);
  const wrong = sandbox.data.workItems.filter((w) => want.has(w.id) && w.tracksProgress && w.actualProgress !== (completed ? 100 : 0));
  return wrong.length > 0 ? `${wrong.length} item(s) do not have the expected progress after the run (e.g. ${wrong[0]!.id})` : undefined;
}

/** The IDs the benchmark updates: every work item below a project, in the data set's order. */
export function benchIds(sandbox: Sandbox): string[] {
  return sandbox.data.workItems.filter((w) => w.parentId !== null && !w.isDeleted).map((w) => w.id);
}
