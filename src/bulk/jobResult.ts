// The result of a run of a bulk job: its outcome, the copies of its requests' records and
// the totals over them. No vscode import.
import { REQUEST_STATES, type JobOutcome, type JobResult, type JobTotals, type RequestResult, type RequestState } from './types';

export function outcomeOf(records: readonly RequestResult[], aborted: boolean): JobOutcome {
  if (records.every((r) => r.state === 'succeeded')) return 'succeeded';
  return aborted ? 'cancelled' : 'partial';
}

export function makeResult(
  records: readonly RequestResult[],
  jobId: string | undefined,
  outcome: JobOutcome,
  startedAt: string,
  finishedAt: string,
  retries: number,
  budgetLeft: number,
): JobResult {
  // Copies of the records (the journal's change later), sharing the responses and
  // errors, which are never changed once recorded (a change replaces them).
  const requests = records.map((r) => ({ ...r, ids: r.ids }));
  return {
    ...(jobId !== undefined ? { jobId } : {}),
    outcome,
    requests,
    totals: totalsOf(requests, retries, budgetLeft),
    startedAt,
    finishedAt,
    durationMs: Math.max(0, Date.parse(finishedAt) - Date.parse(startedAt)),
  };
}

/** Totals over every request of a job. */
export function totalsOf(requests: readonly RequestResult[], retries = 0, retryBudgetLeft = 0): JobTotals {
  const requestsByState = Object.fromEntries(REQUEST_STATES.map((s) => [s, 0])) as Record<RequestState, number>;
  const itemsByState = { ...requestsByState };
  let items = 0;
  let changedItems = 0;
  let affectedItems = 0;
  let addedTimeEntries = 0;
  let addedScheduleDependencies = 0;
  for (const r of requests) {
    requestsByState[r.state]++;
    itemsByState[r.state] += r.ids.length;
    items += r.ids.length;
    if (r.response) {
      changedItems += r.response.items?.length ?? 0;
      affectedItems += r.response.affectedItems?.length ?? 0;
      addedTimeEntries += r.response.addedTimeEntryIds?.length ?? 0;
      addedScheduleDependencies += r.response.addedScheduleDependencyIds?.length ?? 0;
    }
  }
  return { requests: requests.length, items, requestsByState, itemsByState, changedItems, affectedItems, addedTimeEntries, addedScheduleDependencies, retries, retryBudgetLeft };
}
