// The sandbox's update engine: PUT /workitem/workItems/{ids} as the official Web API
// help describes it (official-reference.md sections 3, 4, 6: system field names,
// custom fields, "0" for none, the answer of U2, assignment updates of U3), and
// operation 1 of service-api.md where only it speaks, with the facts of known-facts.md.
// No vscode import. Every choice where the spec says "not shown" is listed in the
// docs/sandbox.md, "Sandbox: update rules and choices".
//
// Atomic: all reads and writes of one request go through a copy-on-write
// WorkingSet; the data set changes only when no error was found (commit).
//
// The steps, each in its own file of this folder: request checks (checks.ts), the
// hierarchy (hierarchy.ts: move, order, item type, completion and lock cascades,
// propagation, restore), the schedule (schedule.ts), fields and calculation types
// (fields.ts), assignments (assignments.ts) and the answer (response.ts), all on the
// state of one run (run.ts).
import { ERROR_CODES, fillTemplate } from '../../schema/error-codes';
import { MAX_ITEMS_PER_UPDATE } from '../../schema/fields';
import { SANDBOX_ERROR_CODES } from '../../schema/sandbox-error-codes';
import type { UpdateWorkItemsResponse } from '../../schema/api';
import type { Dataset } from '../model';
import { updateStamp } from './answer';
import { assignmentChange, copyAssignments } from './assignments';
import { parseUpdateBody, type BodyProblem } from './body';
import { checkRequest, checkStandardParent, checkViewPermission, viewAllowedText } from './checks';
import { calcTypes, fields } from './fields';
import { changeItemType, move, propagate, restore, setCompleted, setTimeEntryLocked } from './hierarchy';
import { buildResponse } from './response';
import { UpdateRun, type ItemScope, type SandboxErrorEntry, type UpdateContext } from './run';
import { clearSchedule, shiftSchedule } from './schedule';

export type { SandboxErrorEntry, UpdateContext } from './run';

export type UpdateOutcome =
  /** `undo` takes the change back (before any later change), e.g. when it could not be saved. */
  | { ok: true; response: UpdateWorkItemsResponse; undo: () => void }
  | { ok: false; status: number; errors: SandboxErrorEntry[] };

// The order in which the members of a body are processed for each item (rule 1; docs/sandbox.md
// "Sandbox: update rules and choices"): moveParentTo (with its ordering member),
// changeItemTypeTo, clearSchedule, fields (in catalogue order), moveScheduleDays,
// copyAssignmentsFrom, assignmentChange (removes, removeUsers, updates, adds, then
// recalculatePlannedTimeByAssignment), the calculation-type members, setCompleted,
// setTimeEntryLocked, propagateToChildren.

/**
 * Work item datetimes carry no zone suffix: the sandbox writes UTC wall time with 7
 * fractional digits, as the help's update answer shows, e.g. 2026-11-21T10:00:00.0000000.
 */
export function localDateTime(now: Date): string {
  return updateStamp(now);
}

/** The steps of one item, in the order above (after its permission and edition checks). */
function processItem(run: UpdateRun, id: string): void {
  const item = run.ws.get(id)!;
  const project = run.projects.get(item.projectId);
  const member = project?.members.find((m) => m.userId === run.ctx.callerId);
  if (!project || !member) {
    run.fail('FORBIDDEN', { id, projectId: item.projectId }, { itemId: id });
    return;
  }
  const scope: ItemScope = { id, project, member, canCost: member.costPermission, datesTouched: false };
  const b = run.body;

  if (b.restore === true) {
    if (member.permission !== 'edit') {
      run.fail('VIEW_PERMISSION_NOT_EDITABLE', { projectId: project.id, member: 'restore', allowed: viewAllowedText() }, { itemId: id, field: 'restore' });
      return;
    }
    restore(run, scope);
    return;
  }
  if (item.isDeleted) {
    run.fail('WORK_ITEM_DELETED', { id }, { itemId: id });
    return;
  }
  if (member.permission !== 'edit' && !checkViewPermission(run, scope)) return;
  if (run.ctx.edition === 'standard' && !checkStandardParent(run, scope)) return;

  const before = run.errors.length;
  move(run, scope);
  changeItemType(run, scope);
  clearSchedule(run, scope);
  fields(run, scope);
  shiftSchedule(run, scope);
  copyAssignments(run, scope);
  assignmentChange(run, scope);
  calcTypes(run, scope);
  setCompleted(run, scope);
  setTimeEntryLocked(run, scope);
  propagate(run, scope);
  if (scope.datesTouched && run.errors.length === before) {
    const now = run.ws.get(id)!;
    if (now.plannedStartDate !== null && now.plannedFinishDate !== null && now.plannedFinishDate < now.plannedStartDate) {
      run.fail('END_BEFORE_START', { start: now.plannedStartDate, end: now.plannedFinishDate }, { itemId: id, field: 'PlannedFinishDate', rule: 5 });
    }
  }
}

function failure(status: number, errors: SandboxErrorEntry[]): UpdateOutcome {
  return { ok: false, status, errors };
}

/** The error entries of a body that does not have the shape of its operation (400). */
export function bodyErrors(problems: readonly BodyProblem[]): SandboxErrorEntry[] {
  return problems.map((p) => {
    const template = p.code === 'BODY_NOT_OBJECT' ? SANDBOX_ERROR_CODES.BODY_NOT_OBJECT.message : ERROR_CODES[p.code].message;
    const entry: SandboxErrorEntry = { message: fillTemplate(template, p.params), code: p.code, params: p.params };
    if (p.member !== undefined) entry.field = p.member;
    return entry;
  });
}

/**
 * Applies an update to the items `ids` of `data` (operation 1). Atomic: `data`
 * is changed only when the outcome is ok. Duplicate IDs are processed once.
 */
export function applyUpdate(data: Dataset, ids: string[], body: unknown, ctx: UpdateContext): UpdateOutcome {
  // 1. The body's shape (member names in any casing; unknown members and wrong types are 400).
  const parsed = parseUpdateBody(body);
  if (!parsed.ok) return failure(400, bodyErrors(parsed.problems));

  // 2. The IDs: distinct, at most 1000, every one existing.
  const unique = [...new Set(ids.map((id) => id.trim()))];
  const run = new UpdateRun(data, parsed.body, ctx);
  if (unique.length === 0 || unique.some((id) => id === '')) {
    run.fail('IDS_INVALID', { problem: unique.length === 0 ? 'no ID is given' : 'an ID is empty' });
    return failure(400, strip(run.errors));
  }
  if (unique.length > MAX_ITEMS_PER_UPDATE) {
    run.fail('TOO_MANY_ITEMS', { count: unique.length, max: MAX_ITEMS_PER_UPDATE });
    return failure(400, strip(run.errors));
  }
  for (const id of unique) if (!run.ws.get(id)) run.fail('WORK_ITEM_NOT_FOUND', { id }, { itemId: id });
  if (run.errors.length > 0) return failure(404, strip(run.errors));

  // 3. Request-level rules, then each item in a deterministic order (request order;
  //    for restore, ancestors before descendants so a restored folder can take its children).
  //    The working set writes into the stored items: anything but a commit, an error
  //    found or an exception, puts their values back.
  try {
    checkRequest(run);
    const order = parsed.body.restore === true ? [...unique].sort((a, b) => run.ws.level(a) - run.ws.level(b)) : unique;
    for (const id of order) processItem(run, id);
    if (run.errors.length > 0) return failure(run.status(), strip(run.errors));

    // 4. Commit.
    const response = buildResponse(run, unique);
    const undoItems = run.ws.commit();
    const links = data.scheduleLinks;
    if (run.removedLinkIds.size > 0) data.scheduleLinks = data.scheduleLinks.filter((l) => !run.removedLinkIds.has(l.id));
    const undo = () => {
      undoItems();
      data.scheduleLinks = links;
    };
    return { ok: true, response, undo };
  } finally {
    run.ws.rollback(); // no-op after a commit
  }
}

/** The errors of a run as answered (their statuses decide the answer's, UpdateRun.status). */
export function strip(errors: (SandboxErrorEntry & { status: number })[]): SandboxErrorEntry[] {
  return errors.map(({ status: _status, ...rest }) => rest);
}
