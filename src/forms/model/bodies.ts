// The update bodies the forms produce: the same shapes the templates of
// src/schema/templates.ts write (moveScheduleDays, fields.StatusTypeId / LeaderId,
// assignmentChange adds / removeUsers / removes, setCompleted, setTimeEntryLocked),
// and the whole request document, checked as a written one is. No vscode import.
import type { UpdateWorkItemsBody } from '../../schema/api';
import type { DocumentIssue } from '../../schema/issues';
import type { KnownUser } from '../../common/model/users';
import { core } from '../../core/load';

export type FormId = 'shiftSchedule' | 'setStatus' | 'setLeader' | 'addAssignees' | 'removeAssignees' | 'setCompleted' | 'setTimeEntryLocked';

export const FORM_IDS: readonly FormId[] = ['shiftSchedule', 'setStatus', 'setLeader', 'addAssignees', 'removeAssignees', 'setCompleted', 'setTimeEntryLocked'];

/** A form's result: the body of the request document (an UpdateWorkItemsBody). */
export type FormBody = Record<string, unknown>;

export function shiftScheduleBody(days: number): FormBody {
  if (!Number.isInteger(days) || days === 0) throw new RangeError(`moveScheduleDays must be a whole number other than 0, not ${days}`);
  return { moveScheduleDays: days } satisfies UpdateWorkItemsBody;
}

export function setStatusBody(statusTypeId: string): FormBody {
  return { fields: { StatusTypeId: statusTypeId } };
}

export function setLeaderBody(userId: string): FormBody {
  return { fields: { LeaderId: userId } };
}

/** Each user added by login name (as the templates write it), by ID when it has none; the same planned time (minutes) for each when given. */
export function addAssigneesBody(users: readonly KnownUser[], plannedMinutes?: number): FormBody {
  if (users.length === 0) throw new RangeError('no user to assign');
  const adds = uniqueUsers(users).map((u) => ({
    partyType: 'User' as const,
    ...(u.loginName ? { user: u.loginName } : { partyId: u.id }),
    ...(plannedMinutes !== undefined ? { plannedTime: plannedMinutes } : {}),
  }));
  return { assignmentChange: { adds } };
}

/** Users with a login name in `removeUsers` (as the template writes it); users without one by ID in `removes` ("13,17"). */
export function removeAssigneesBody(users: readonly KnownUser[]): FormBody {
  if (users.length === 0) throw new RangeError('no user to remove');
  const all = uniqueUsers(users);
  const byLogin = all.filter((u) => u.loginName).map((u) => u.loginName!);
  const byId = all.filter((u) => !u.loginName).map((u) => u.id);
  return {
    assignmentChange: {
      ...(byLogin.length > 0 ? { removeUsers: byLogin } : {}),
      ...(byId.length > 0 ? { removes: byId.join(',') } : {}),
    },
  };
}

export function setCompletedBody(completed: boolean): FormBody {
  return { setCompleted: completed } satisfies UpdateWorkItemsBody;
}

export function setTimeEntryLockedBody(locked: boolean): FormBody {
  return { setTimeEntryLocked: locked } satisfies UpdateWorkItemsBody;
}

function uniqueUsers(users: readonly KnownUser[]): KnownUser[] {
  return [...new Map(users.map((u) => [u.id, u])).values()];
}

export interface FormDocument {
  /** The request document (createRequestDocument's shape), ready to be rendered. */
  document: Record<string, unknown>;
  /** What validateRequestDocument says of it (errors stop the form: the document is not opened). */
  errors: DocumentIssue[];
}

/** The request document of a form: the IDs, the body, a description; checked as a written document is. */
export function formDocument(ids: readonly string[], body: FormBody, description?: string): FormDocument {
  if (ids.length === 0) throw new RangeError('no work item IDs');
  const document = core().createRequestDocument<unknown, unknown>([...ids], body, { description }) as Record<string, unknown>;
  const check = core().validateRequestDocument(JSON.parse(JSON.stringify(document)));
  return { document, errors: check.issues.filter((i) => i.severity === 'error') };
}
