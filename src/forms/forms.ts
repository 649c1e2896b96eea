// The six forms on the selected work items: each asks in a few steps (steps.ts) and
// answers the update body and a description for the request document (model/bodies.ts).
import * as vscode from 'vscode';
import { UserInputError } from '../common/commands';
import { userLabel, type KnownUser } from '../common/model/users';
import { workItemsText } from '../common/wording';
import type { ProjectProfile } from '../schema/catalogue';
import {
  addAssigneesBody,
  daysBetween,
  findStatus,
  findUser,
  oneProject,
  readDate,
  readPlannedHours,
  readShiftDays,
  removeAssigneesBody,
  setCompletedBody,
  setLeaderBody,
  setStatusBody,
  setTimeEntryLockedBody,
  shiftScheduleBody,
  statusChoices,
  type FormBody,
  type FormId,
  type InputProblem,
  type StatusChoice,
} from './model';
import { runSteps, type FormInput, type PickOption, type StepResult } from './steps';

/** What a form may ask of the extension while it runs. */
export interface FormContext {
  ids: string[];
  /** The project of every item (one read for the items not in the view); undefined entries are unknown. */
  projectsOf(ids: readonly string[]): Promise<Map<string, string>>;
  profile(projectId: string): Promise<ProjectProfile | undefined>;
  /** The users to choose from (loaded in the Organizations view, or read from the configured organizations). */
  users(): Promise<KnownUser[]>;
  /** An item's planned start date (yyyy-MM-dd…), or undefined when it has none. */
  plannedStart(id: string): Promise<string | undefined>;
}

export interface FormOutcome {
  body: FormBody;
  description: string;
  /** The untitled document's base name. */
  baseName: string;
}

const PROBLEMS: Record<InputProblem['message'], (a: string[]) => string> = {
  'Enter the number of days (negative: earlier).': () => vscode.l10n.t('Enter the number of days (negative: earlier).'),
  '"{0}" is not a whole number of days.': (a) => vscode.l10n.t('"{0}" is not a whole number of days.', a[0]!),
  '0 days does not move the schedule.': () => vscode.l10n.t('0 days does not move the schedule.'),
  'At most {0} days at once.': (a) => vscode.l10n.t('At most {0} days at once.', a[0]!),
  'Enter a date (yyyy-MM-dd).': () => vscode.l10n.t('Enter a date (yyyy-MM-dd).'),
  '"{0}" is not a date (yyyy-MM-dd).': (a) => vscode.l10n.t('"{0}" is not a date (yyyy-MM-dd).', a[0]!),
  '{0} is not a day of the calendar.': (a) => vscode.l10n.t('{0} is not a day of the calendar.', a[0]!),
  '"{0}" is not a number of hours (for example 8 or 1.5).': (a) => vscode.l10n.t('"{0}" is not a number of hours (for example 8 or 1.5).', a[0]!),
  'At most {0} hours per assignment.': (a) => vscode.l10n.t('At most {0} hours per assignment.', a[0]!),
  '{0} hours is not a whole number of minutes.': (a) => vscode.l10n.t('{0} hours is not a whole number of minutes.', a[0]!),
};
const say = (p: InputProblem): string => PROBLEMS[p.message](p.args);

export const FORM_TITLES: Record<FormId, () => string> = {
  shiftSchedule: () => vscode.l10n.t('Shift Schedule'),
  setStatus: () => vscode.l10n.t('Set Status'),
  setLeader: () => vscode.l10n.t('Set Leader'),
  addAssignees: () => vscode.l10n.t('Add Assignees'),
  removeAssignees: () => vscode.l10n.t('Remove Assignees'),
  setCompleted: () => vscode.l10n.t('Complete or Reopen'),
  setTimeEntryLocked: () => vscode.l10n.t('Lock or Unlock Time Entry'),
};

export function runForm(id: FormId, input: FormInput, ctx: FormContext): Promise<FormOutcome | undefined> {
  switch (id) {
    case 'shiftSchedule':
      return shiftSchedule(input, ctx);
    case 'setStatus':
      return setStatus(input, ctx);
    case 'setLeader':
      return setLeader(input, ctx);
    case 'addAssignees':
      return assignees(input, ctx, 'add');
    case 'removeAssignees':
      return assignees(input, ctx, 'remove');
    case 'setCompleted':
      return yesNo(input, 'completed', [vscode.l10n.t('Complete (progress 100%)'), vscode.l10n.t('Not Complete (progress 0%)')], (on) => ({
        body: setCompletedBody(on),
        description: on ? vscode.l10n.t('Mark the work items complete (they and their children get progress 100%).') : vscode.l10n.t('Mark the work items not complete (they and their children get progress 0%).'),
        baseName: on ? 'complete' : 'reopen',
      }));
    case 'setTimeEntryLocked':
      return yesNo(input, 'locked', [vscode.l10n.t('Lock Time Entry'), vscode.l10n.t('Unlock Time Entry')], (on) => ({
        body: setTimeEntryLockedBody(on),
        description: on ? vscode.l10n.t('Lock time entry for the work items and their descendants.') : vscode.l10n.t('Unlock time entry for the work items and their descendants.'),
        baseName: on ? 'lock-time-entry' : 'unlock-time-entry',
      }));
  }
}

/** A scripted yes/no: true, false, or "yes"/"no" and the like. */
function readBoolean(answer: unknown): boolean | string {
  if (typeof answer === 'boolean') return answer;
  if (typeof answer === 'string' && /^(true|yes|on|lock|complete)$/i.test(answer.trim())) return true;
  if (typeof answer === 'string' && /^(false|no|off|unlock|reopen)$/i.test(answer.trim())) return false;
  return vscode.l10n.t('"{0}" is neither true nor false.', String(answer));
}

async function yesNo(input: FormInput, key: string, labels: [string, string], outcome: (on: boolean) => FormOutcome): Promise<FormOutcome | undefined> {
  const state: { on?: boolean } = {};
  const ok = await runSteps(input, state, () => [
    async (i, s): Promise<StepResult> => {
      const r = await i.pick(key, {
        placeholder: vscode.l10n.t('Which change?'),
        items: [
          { label: labels[0], value: true },
          { label: labels[1], value: false },
        ],
        fromScript: readBoolean,
      });
      if (typeof r === 'string') return r;
      s.on = r.value[0];
      return 'next';
    },
  ]);
  return ok && state.on !== undefined ? outcome(state.on) : undefined;
}

// ---------------------------------------------------------------------------
// Shift schedule
// ---------------------------------------------------------------------------

async function shiftSchedule(input: FormInput, ctx: FormContext): Promise<FormOutcome | undefined> {
  const single = ctx.ids.length === 1 ? ctx.ids[0] : undefined;
  const state: { mode: 'days' | 'date'; days?: number; date?: string; start?: string } = { mode: 'days' };
  if (input.scripted) state.mode = single && 'date' in input.scripted ? 'date' : 'days';

  const askMode = async (i: FormInput): Promise<StepResult> => {
    const r = await i.pick<'days' | 'date'>('mode', {
      placeholder: vscode.l10n.t('Shift by a number of days, or move the item to start on a date?'),
      items: [
        { label: vscode.l10n.t('By a Number of Days'), description: vscode.l10n.t('+7: a week later, -3: three days earlier'), value: 'days' },
        { label: vscode.l10n.t('To Start on a Date'), description: vscode.l10n.t('The start moves to the date; the finish moves by the same number of days'), value: 'date' },
      ],
      fromScript: (a) => (a === 'days' || a === 'date' ? a : vscode.l10n.t('"{0}" is neither "days" nor "date".', String(a))),
    });
    if (typeof r === 'string') return r;
    state.mode = r.value[0]!;
    return 'next';
  };
  const askDays = async (i: FormInput): Promise<StepResult> => {
    const r = await i.text('days', {
      prompt: vscode.l10n.t('Days to shift the planned start and finish of {0} (negative: earlier).', workItemsText(ctx.ids.length)),
      placeholder: '7, -3',
      value: state.days !== undefined ? String(state.days) : undefined,
      validate: (t) => {
        const d = readShiftDays(t);
        return d.ok ? undefined : say(d.problem);
      },
    });
    if (typeof r === 'string') return r;
    const d = readShiftDays(r.value);
    if (d.ok) state.days = d.value;
    return 'next';
  };
  const askDate = async (i: FormInput): Promise<StepResult> => {
    state.start ??= await ctx.plannedStart(single!);
    const start = state.start;
    if (!start) throw new UserInputError(vscode.l10n.t('Work item {0} has no planned start date: shift it by a number of days instead.', single!));
    const r = await i.text('date', {
      prompt: vscode.l10n.t('New planned start of work item {0} (now {1}); the finish moves by the same number of days.', single!, start.slice(0, 10)),
      placeholder: 'yyyy-MM-dd',
      value: state.date,
      validate: (t) => {
        const d = readDate(t);
        if (!d.ok) return say(d.problem);
        const days = daysBetween(start, d.value);
        if (days === 0) return vscode.l10n.t('The item starts on {0} already.', d.value);
        const n = readShiftDays(String(days));
        return n.ok ? undefined : say(n.problem);
      },
    });
    if (typeof r === 'string') return r;
    const d = readDate(r.value);
    if (d.ok) {
      state.date = d.value;
      state.days = daysBetween(start, d.value);
    }
    return 'next';
  };

  const ok = await runSteps(input, state, (s) => (single && !input.scripted ? [askMode, s.mode === 'date' ? askDate : askDays] : [s.mode === 'date' ? askDate : askDays]));
  if (!ok || state.days === undefined) return undefined;
  const description =
    state.mode === 'date'
      ? Math.abs(state.days) === 1
        ? vscode.l10n.t('Move the schedule of work item {0} to start on {1} ({2} day).', single!, state.date!, signed(state.days))
        : vscode.l10n.t('Move the schedule of work item {0} to start on {1} ({2} days).', single!, state.date!, signed(state.days))
      : Math.abs(state.days) === 1
        ? vscode.l10n.t('Shift the schedule of the work items by {0} day.', signed(state.days))
        : vscode.l10n.t('Shift the schedule of the work items by {0} days.', signed(state.days));
  return { body: shiftScheduleBody(state.days), description, baseName: 'shift-schedule' };
}

const signed = (n: number): string => (n > 0 ? `+${n}` : String(n));

// ---------------------------------------------------------------------------
// Status
// ---------------------------------------------------------------------------

async function setStatus(input: FormInput, ctx: FormContext): Promise<FormOutcome | undefined> {
  const projects = await ctx.projectsOf(ctx.ids);
  const one = oneProject(ctx.ids, (id) => projects.get(id));
  if (!one.ok && one.unknown.length > 0) throw new UserInputError(vscode.l10n.t('The project of work items {0} could not be read.', one.unknown.slice(0, 10).join(', ')));
  if (!one.ok) throw new UserInputError(vscode.l10n.t('The work items belong to {0} projects ({1}): set the status of one project\'s items at a time.', String(one.projects.length), one.projects.join(', ')));
  const projectId = one.projectId;
  const statuses = statusChoices(await ctx.profile(projectId));
  if (statuses.length === 0) throw new UserInputError(vscode.l10n.t('The profile of project {0} lists no statuses (or could not be read).', projectId));
  const state: { status?: StatusChoice } = {};
  const ok = await runSteps(input, state, () => [
    async (i, s): Promise<StepResult> => {
      const r = await i.pick('status', {
        placeholder: vscode.l10n.t('Status of {0}', workItemsText(ctx.ids.length)),
        items: statuses.map((c): PickOption<StatusChoice> => ({ label: c.name, description: c.code, detail: vscode.l10n.t('Status ID {0}', c.id), value: c })),
        fromScript: (a) => findStatus(statuses, String(a)) ?? vscode.l10n.t('No status "{0}" in the profile of project {1}.', String(a), projectId),
      });
      if (typeof r === 'string') return r;
      s.status = r.value[0];
      return 'next';
    },
  ]);
  if (!ok || !state.status) return undefined;
  return { body: setStatusBody(state.status.id), description: vscode.l10n.t('Set the status to "{0}".', state.status.name), baseName: 'set-status' };
}

// ---------------------------------------------------------------------------
// Leader and assignees
// ---------------------------------------------------------------------------

function userItems(users: readonly KnownUser[]): PickOption<KnownUser>[] {
  return users.map((u) => ({ label: u.name, description: u.loginName ?? undefined, detail: vscode.l10n.t('User ID {0}', u.id), value: u }));
}

/** Scripted users: a name, login name or ID, or a list of them. */
function scriptedUsers(users: readonly KnownUser[], answer: unknown): KnownUser[] | string {
  const texts = Array.isArray(answer) ? answer.map(String) : [String(answer)];
  if (texts.length === 0) return vscode.l10n.t('Choose at least one user.');
  const out: KnownUser[] = [];
  for (const t of texts) {
    const m = findUser(users, t);
    if (!m.ok) {
      return m.problem === 'none'
        ? vscode.l10n.t('No user is named "{0}".', t)
        : vscode.l10n.t('"{0}" names several users: {1}', t, m.candidates.slice(0, 5).map(userLabel).join(', '));
    }
    out.push(m.user);
  }
  return out;
}

async function usersOrFail(ctx: FormContext): Promise<KnownUser[]> {
  const users = await ctx.users();
  if (users.length === 0) throw new UserInputError(vscode.l10n.t('No users are known: add your organization in the Organizations view, then try again.'));
  return users;
}

async function setLeader(input: FormInput, ctx: FormContext): Promise<FormOutcome | undefined> {
  const users = await usersOrFail(ctx);
  const state: { user?: KnownUser } = {};
  const ok = await runSteps(input, state, () => [
    async (i, s): Promise<StepResult> => {
      const r = await i.pick('leader', {
        placeholder: vscode.l10n.t('Leader of {0} (type a name or login name)', workItemsText(ctx.ids.length)),
        items: userItems(users),
        fromScript: (a) => {
          const u = scriptedUsers(users, a);
          return typeof u === 'string' ? u : u.length === 1 ? u[0]! : vscode.l10n.t('Choose one leader.');
        },
      });
      if (typeof r === 'string') return r;
      s.user = r.value[0];
      return 'next';
    },
  ]);
  if (!ok || !state.user) return undefined;
  return { body: setLeaderBody(state.user.id), description: vscode.l10n.t('Set the leader to {0}.', userLabel(state.user)), baseName: 'set-leader' };
}

async function assignees(input: FormInput, ctx: FormContext, kind: 'add' | 'remove'): Promise<FormOutcome | undefined> {
  const users = await usersOrFail(ctx);
  const state: { users?: KnownUser[]; minutes?: number } = {};
  const pickUsers = async (i: FormInput, s: typeof state): Promise<StepResult> => {
    const r = await i.pick('users', {
      placeholder:
        kind === 'add'
          ? vscode.l10n.t('Users to assign to {0} (type a name; check one or more)', workItemsText(ctx.ids.length))
          : vscode.l10n.t('Users to remove from the assignments of {0} (check one or more)', workItemsText(ctx.ids.length)),
      items: userItems(users).map((item) => ({ ...item, picked: !!s.users?.some((u) => u.id === item.value.id) })),
      many: true,
      fromScript: (a) => scriptedUsers(users, a),
    });
    if (typeof r === 'string') return r;
    s.users = r.value;
    return 'next';
  };
  const askTime = async (i: FormInput, s: typeof state): Promise<StepResult> => {
    const r = await i.text('plannedHours', {
      prompt: vscode.l10n.t('Planned time of each assignment in hours (optional: leave empty for none).'),
      placeholder: '8, 1.5',
      value: s.minutes !== undefined ? String(s.minutes / 60) : undefined,
      validate: (t) => {
        const h = readPlannedHours(t);
        return h.ok ? undefined : say(h.problem);
      },
    });
    if (typeof r === 'string') return r;
    const h = readPlannedHours(r.value);
    if (h.ok) s.minutes = h.value;
    return 'next';
  };
  const scriptedNoTime = input.scripted !== undefined && !('plannedHours' in input.scripted);
  const ok = await runSteps(input, state, () => (kind === 'add' && !scriptedNoTime ? [pickUsers, askTime] : [pickUsers]));
  if (!ok || !state.users || state.users.length === 0) return undefined;
  const names = state.users.map(userLabel).join(', ');
  if (kind === 'remove') return { body: removeAssigneesBody(state.users), description: vscode.l10n.t('Remove {0} from the assignments.', names), baseName: 'remove-assignees' };
  return {
    body: addAssigneesBody(state.users, state.minutes),
    description:
      state.minutes !== undefined
        ? state.minutes === 60
          ? vscode.l10n.t('Assign {0} with 1 hour of planned time each.', names)
          : vscode.l10n.t('Assign {0} with {1} hours of planned time each.', names, String(state.minutes / 60))
        : vscode.l10n.t('Assign {0}.', names),
    baseName: 'add-assignees',
  };
}
