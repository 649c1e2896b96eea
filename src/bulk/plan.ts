// Planning a bulk job: deduplicate IDs, validate them, and split them into
// requests of at most `maxIdsPerRequest` IDs AND at most `maxUrlLength`
// characters of full URL (base URL + path). No vscode import, no I/O.
import { batchIdsByUrlLength, parseBaseUrl, validateWorkItemIdForPath, WORK_ITEMS_PATH_PREFIX, type IdBatch } from '../api/paths';

export { batchIdsByUrlLength, type IdBatch };
import { DEFAULT_MAX_URL_LENGTH, MAX_ITEMS_PER_UPDATE } from '../api/limits';
import type { JobPlan, PlanInput, PlannedRequest, PlanProblem, PlanWarning } from './types';

export { WORK_ITEMS_PATH_PREFIX };

/** Thrown by {@link planJob} with every problem found (not only the first). */
export class PlanError extends Error {
  readonly problems: readonly PlanProblem[];
  constructor(problems: PlanProblem[]) {
    const head = problems.slice(0, 3).map((p) => p.message).join('; ');
    const more = problems.length > 3 ? ` (and ${problems.length - 3} more)` : '';
    super(`the job cannot be planned: ${head}${more}`);
    this.name = 'PlanError';
    this.problems = problems;
  }
}

/**
 * Makes the plan of a bulk update. Pure and deterministic.
 *
 * - IDs are deduplicated keeping the first occurrence's order; the duplicates are
 *   reported in `duplicates` and as a `duplicate-ids` warning.
 * - Every ID is checked with `validateWorkItemIdForPath` (src/api/paths.ts): the
 *   problem text is the one the editor shows on the document's entry.
 * - Requests are filled greedily in order: each holds at most `maxIdsPerRequest`
 *   IDs and its full URL (`baseUrl` + path) is at most `maxUrlLength` characters.
 *
 * Throws {@link PlanError} listing every problem: no IDs, invalid IDs (with their
 * position), an ID whose request alone would exceed the URL limit, a bad base URL
 * or limit.
 */
export function planJob(input: PlanInput): JobPlan {
  const problems: PlanProblem[] = [];
  const maxIds = input.maxIdsPerRequest ?? MAX_ITEMS_PER_UPDATE;
  const maxUrl = input.maxUrlLength ?? DEFAULT_MAX_URL_LENGTH;
  if (!Number.isInteger(maxIds) || maxIds < 1 || maxIds > MAX_ITEMS_PER_UPDATE) {
    problems.push({ code: 'invalid-limit', message: `maxIdsPerRequest must be an integer from 1 to ${MAX_ITEMS_PER_UPDATE} (got ${String(maxIds)})` });
  }
  if (!Number.isInteger(maxUrl) || maxUrl < 1) {
    problems.push({ code: 'invalid-limit', message: `maxUrlLength must be a positive integer (got ${String(maxUrl)})` });
  }
  let baseHref = '';
  try {
    baseHref = parseBaseUrl(input.baseUrl).href;
  } catch (e) {
    problems.push({ code: 'invalid-base-url', message: e instanceof Error ? e.message : String(e) });
  }

  // Deduplicate and validate.
  const ids: string[] = [];
  const seen = new Set<string>();
  const duplicateSet = new Set<string>();
  let droppedCount = 0;
  const list = Array.isArray(input.workItemIds) ? input.workItemIds : [];
  list.forEach((raw, position) => {
    const id = typeof raw === 'string' ? raw : String(raw);
    if (seen.has(id)) {
      duplicateSet.add(id);
      droppedCount++;
      return;
    }
    seen.add(id);
    const problem = validateWorkItemIdForPath(id);
    if (problem !== undefined) {
      problems.push({ code: 'invalid-id', message: problem, id, position });
      return;
    }
    ids.push(id);
  });
  if (list.length === 0) problems.push({ code: 'no-ids', message: 'no work item IDs are given' });

  // Batch by count and by URL length.
  const requests: PlannedRequest[] = [];
  if (problems.length === 0) {
    const fixed = baseHref.length + WORK_ITEMS_PATH_PREFIX.length;
    const batched = batchIdsByUrlLength(ids, fixed, maxUrl, maxIds);
    batched.tooLong.forEach(({ id, needs }) =>
      problems.push({
        code: 'id-too-long-for-url',
        message: `work item ID "${id.length > 40 ? `${id.slice(0, 40)}…` : id}" does not fit in a request URL of at most ${maxUrl} characters on its own (it needs ${needs})`,
        id,
        position: list.indexOf(id),
      }),
    );
    batched.batches.forEach((b) => requests.push({ index: requests.length, ids: b.ids, path: WORK_ITEMS_PATH_PREFIX + b.encoded.join(',') }));
  }
  if (problems.length > 0) throw new PlanError(problems);

  const duplicates = [...duplicateSet];
  const warnings: PlanWarning[] = [];
  if (duplicates.length > 0) {
    warnings.push({
      code: 'duplicate-ids',
      message: `${droppedCount} duplicate work item ID entr${droppedCount === 1 ? 'y was' : 'ies were'} removed (${duplicates.length} distinct ID${duplicates.length === 1 ? '' : 's'}); each item is updated once`,
      ids: duplicates,
      count: droppedCount,
    });
  }
  return {
    ids,
    duplicates,
    requests,
    update: input.update,
    warnings,
    baseUrl: baseHref,
    maxIdsPerRequest: maxIds,
    maxUrlLength: maxUrl,
  };
}

/** Full URL length of a planned request against the plan's base URL. */
export function requestUrlLength(plan: Pick<JobPlan, 'baseUrl'>, request: Pick<PlannedRequest, 'path'>): number {
  return plan.baseUrl.length + request.path.length;
}

