// Planning a bulk job: deduplicate IDs, validate them, and split them into
// requests of at most `maxIdsPerRequest` IDs AND at most `maxUrlLength`
// characters of full URL (base URL + path). No vscode import, no I/O.
import { batchIdsByUrlLength, parseBaseUrl, subItemsPath, validateWorkItemIdForPath, WORK_ITEMS_PATH_PREFIX, type IdBatch } from '../api/paths';
import { addedItemsOf, countAddedItems, MAX_ITEMS_PER_ADD, type AddSpec } from '../schema/add-rules';

export { batchIdsByUrlLength, type IdBatch };
import { DEFAULT_MAX_URL_LENGTH, MAX_ITEMS_PER_UPDATE } from '../api/limits';
import type { UpdateWorkItemsBody } from '../schema/api';
import { touchedFields } from '../schema/touched';
import type { JobPlan, PlanInput, PlannedRequest, PlanPart, PlanProblem, PlanWarning } from './types';

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
  const part: PlanPart = { ids, update: input.update };
  if (input.description !== undefined) part.description = input.description;
  return {
    ids,
    duplicates,
    requests,
    parts: [part],
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


/** One request of a change: an update of its items, or (`kind`) an add below `add.parentId` or a delete of its items. */
export interface ChangeRequest {
  workItemIds: readonly string[];
  update: UpdateWorkItemsBody;
  description?: string;
  kind?: 'add' | 'delete';
  add?: AddSpec;
}

/** The requests of a change: each with its items and its body, in the order they are sent. */
export interface ChangeInput extends Omit<PlanInput, 'workItemIds' | 'update' | 'description'> {
  requests: readonly ChangeRequest[];
}

/**
 * The plan of one add: one POST to `/workitem/workItems/{parentId}/subItems` (never split: the
 * service adds the item and its sub-items in one transaction), its batch naming the parent.
 */
function planAdd(r: ChangeRequest, base: JobPlan | undefined, input: ChangeInput, k: number): { part: PlanPart; request: PlannedRequest } | PlanProblem[] {
  const add = r.add!;
  const problems: PlanProblem[] = [];
  let path = '';
  try {
    path = subItemsPath(add.parentId);
  } catch (e) {
    problems.push({ code: 'invalid-id', message: `the parent "${add.parentId}": ${e instanceof Error ? e.message : String(e)}`, id: add.parentId });
  }
  const count = countAddedItems(add.item);
  if (count > MAX_ITEMS_PER_ADD) {
    problems.push({ code: 'too-many-items-to-add', message: `it adds ${count} items with their sub-items; one request adds at most ${MAX_ITEMS_PER_ADD}`, count, max: MAX_ITEMS_PER_ADD });
  }
  const maxUrl = input.maxUrlLength ?? DEFAULT_MAX_URL_LENGTH;
  const baseHref = base?.baseUrl ?? safeBase(input.baseUrl);
  if (path && baseHref !== undefined && baseHref.length + path.length > maxUrl) {
    problems.push({ code: 'id-too-long-for-url', message: `the parent ID "${add.parentId}" makes a request URL longer than ${maxUrl} characters`, id: add.parentId });
  }
  if (problems.length > 0) return problems;
  const part: PlanPart = { ids: [], update: {}, kind: 'add', add };
  if (r.description !== undefined) part.description = r.description;
  return { part, request: { index: 0, ids: [add.parentId], path, part: k } };
}

function safeBase(baseUrl: string): string | undefined {
  try {
    return parseBaseUrl(baseUrl).href;
  } catch {
    return undefined;
  }
}

/**
 * Plans a change of several requests as one job: each request is planned as
 * {@link planJob} plans one (its own batches), the batches follow each other in the
 * requests' order and name their part. An item may be in several requests that change
 * different fields of it; a field of an item changed by two requests is a problem (its
 * value before, its prediction and its undo would depend on the order). Throws
 * {@link PlanError} with every problem of every request.
 */
export function planChange(input: ChangeInput): JobPlan {
  // A document of one update is the plan it always was (its batches name no part).
  if (input.requests.length === 1 && input.requests[0]!.kind === undefined) {
    const only = input.requests[0]!;
    return planJob({ ...input, workItemIds: only.workItemIds, update: only.update, ...(only.description !== undefined ? { description: only.description } : {}) });
  }
  const problems: PlanProblem[] = [];
  const parts: PlanPart[] = [];
  const requests: PlannedRequest[] = [];
  const warnings: PlanWarning[] = [];
  const duplicates: string[] = [];
  /** Per item: each field some earlier request changes, and which request. */
  const claimed = new Map<string, Map<string, number>>();
  let first: JobPlan | undefined;
  /** The request deleting each item: no other request of the change names it. */
  const deletedBy = new Map<string, number>();
  input.requests.forEach((r, k) => {
    if (r.kind === 'delete') for (const id of r.workItemIds) if (!deletedBy.has(id)) deletedBy.set(id, k);
  });
  const several = input.requests.length > 1;
  const inRequest = (k: number, p: PlanProblem): PlanProblem => ({ ...p, message: several ? `request ${k + 1}: ${p.message}` : p.message });
  input.requests.forEach((r, k) => {
    if (r.kind === 'add') {
      const planned = planAdd(r, first, input, k);
      if (Array.isArray(planned)) problems.push(...planned.map((p) => inRequest(k, p)));
      else {
        const by = deletedBy.get(r.add!.parentId);
        if (by !== undefined) problems.push(inRequest(k, { code: 'id-in-two-requests', message: `the parent "${r.add!.parentId}" is deleted by request ${by + 1}`, id: r.add!.parentId }));
        parts.push(planned.part);
        requests.push({ ...planned.request, index: requests.length });
      }
      return;
    }
    let plan: JobPlan;
    try {
      plan = planJob({ ...input, workItemIds: r.workItemIds, update: r.update, ...(r.description !== undefined ? { description: r.description } : {}) });
    } catch (e) {
      if (!(e instanceof PlanError)) throw e;
      problems.push(...e.problems.map((p) => inRequest(k, p)));
      return;
    }
    first ??= plan;
    const fields = touchedFields(r.update);
    for (const id of plan.ids) {
      const by = deletedBy.get(id);
      if (by !== undefined && by !== k) {
        problems.push(inRequest(k, { code: 'id-in-two-requests', message: `work item "${id}" is deleted by request ${by + 1}`, id }));
        continue;
      }
      let mine = claimed.get(id);
      if (!mine) claimed.set(id, (mine = new Map()));
      const clash = fields.find((f) => mine.has(f));
      if (clash !== undefined) {
        problems.push({ code: 'id-in-two-requests', message: `request ${k + 1}: work item "${id}" is already in request ${mine.get(clash)! + 1}, which changes ${clash} too`, id });
      } else for (const f of fields) mine.set(f, k);
    }
    parts.push(r.kind === 'delete' ? { ...plan.parts[0]!, update: {}, kind: 'delete' } : plan.parts[0]!);
    duplicates.push(...plan.duplicates);
    warnings.push(...plan.warnings);
    for (const b of plan.requests) requests.push({ index: requests.length, ids: b.ids, path: b.path, part: k });
  });
  if (input.requests.length === 0) problems.push({ code: 'no-ids', message: 'the change holds no request' });
  // A change of adds only plans no batch of IDs: the base URL and limits are checked here.
  const baseUrl = first?.baseUrl ?? safeBase(input.baseUrl);
  if (baseUrl === undefined) problems.push({ code: 'invalid-base-url', message: `the service URL is not valid: ${input.baseUrl}` });
  if (problems.length > 0) throw new PlanError(problems);
  return {
    ids: [...new Set(parts.flatMap((p) => p.ids))],
    duplicates,
    requests,
    parts,
    warnings,
    baseUrl: baseUrl!,
    maxIdsPerRequest: first?.maxIdsPerRequest ?? input.maxIdsPerRequest ?? MAX_ITEMS_PER_UPDATE,
    maxUrlLength: first?.maxUrlLength ?? input.maxUrlLength ?? DEFAULT_MAX_URL_LENGTH,
  };
}

/** The part (document request) of a planned batch. */
export function partOfRequest(plan: Pick<JobPlan, 'parts'>, request: Pick<PlannedRequest, 'part'>): PlanPart {
  return plan.parts[request.part ?? 0] ?? plan.parts[0]!;
}

/** The bodies each item of a plan is sent with, in the order they are sent (one for most items). */
export function bodiesById(plan: Pick<JobPlan, 'parts'>): Map<string, UpdateWorkItemsBody[]> {
  const out = new Map<string, UpdateWorkItemsBody[]>();
  for (const p of plan.parts) {
    for (const id of p.ids) {
      const list = out.get(id);
      if (list) list.push(p.update);
      else out.set(id, [p.update]);
    }
  }
  return out;
}

/**
 * Every body of a plan, in order. An add stands as a body that sets the fields its new items
 * are given (so the reads of the values after and the drift checks of an undo read them).
 */
export function planBodies(plan: Pick<JobPlan, 'parts'>): UpdateWorkItemsBody[] {
  return plan.parts.map((p) => (p.kind === 'add' && p.add ? { fields: addedFieldsOf(p.add.item) } : p.update));
}

/** The fields any item of an add sets (the values of the first that sets each), ItemTypeId and Name first. */
export function addedFieldsOf(item: AddSpec['item']): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const one of addedItemsOf(item)) for (const [k, v] of Object.entries(one.fields)) if (!Object.prototype.hasOwnProperty.call(out, k)) out[k] = v;
  return out;
}

/** What a planned batch does: `update` (PUT), `add` (POST) or `delete` (DELETE). */
export function kindOfRequest(plan: Pick<JobPlan, 'parts'>, request: Pick<PlannedRequest, 'part'>): 'update' | 'add' | 'delete' {
  return partOfRequest(plan, request).kind ?? 'update';
}

/**
 * A plan as written by a version that knew only one body per job (`update` beside the
 * requests, no `parts`): given its one part. Plans that have parts are returned as they are.
 */
export function withParts(plan: JobPlan & { update?: UpdateWorkItemsBody }): JobPlan {
  if (Array.isArray(plan.parts) && plan.parts.length > 0) return plan;
  const { update, ...rest } = plan;
  return { ...rest, parts: [{ ids: plan.ids, update: update ?? {} }] };
}

/** What a per-item view takes as the body: the one body of a plan of one part, else each item's body. */
export function bodyOrBodies(plan: Pick<JobPlan, 'parts'>): UpdateWorkItemsBody | Map<string, UpdateWorkItemsBody[]> {
  return plan.parts.length === 1 ? plan.parts[0]!.update : bodiesById(plan);
}
