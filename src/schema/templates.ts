// Update templates: one per common change of service-api.md. This table is the one
// source for the "New Work Item Update" quick pick (src/editors/requests.ts gives
// each a localized label and description), the JSON Schema's defaultSnippets
// (generate-json-schema.ts) and the contributed snippets/workitems.code-snippets
// (written by `npm run build`; a unit test keeps the committed file in step).
// No vscode import.
import type { UpdateWorkItemsBody } from './api';
import { createRequestDocument } from './document';
import { escapeSnippet, Placeholder as P, type Template, renderDocument, toValue } from './render';

export type TemplateId =
  | 'shiftSchedule'
  | 'clearSchedule'
  | 'complete'
  | 'reopen'
  | 'lockTimeEntry'
  | 'unlockTimeEntry'
  | 'addAssignments'
  | 'updateAssignments'
  | 'removeAssignments'
  | 'removeAssignmentsById'
  | 'moveUnderParent'
  | 'moveUnderParentFirst'
  | 'moveUnderParentAfter'
  | 'changeItemType'
  | 'setFields'
  | 'setProgress'
  | 'setPeriod'
  | 'setFieldCalcTypes'
  | 'clearFieldCalcTypes'
  | 'clearAllFieldCalcTypes'
  | 'propagateToChildren'
  | 'copyAssignments'
  | 'restore';

/** The `update` member of a request document, with the values to change marked as placeholders. */
export type UpdateTemplateBody = { [member: string]: Template };

export interface UpdateTemplate {
  id: TemplateId;
  /** English label (the quick pick shows a localized one). */
  label: string;
  /** English description, one sentence (the quick pick shows a localized one). */
  description: string;
  /** Prefix of the contributed JSON snippet. */
  prefix: string;
  update: UpdateTemplateBody;
}

export const TEMPLATES: readonly UpdateTemplate[] = [
  {
    id: 'shiftSchedule',
    label: 'Shift the schedule',
    description: 'Move start and end dates by a number of days (negative: earlier).',
    prefix: 'workitems-shift-schedule',
    update: { moveScheduleDays: new P(7) },
  },
  {
    id: 'clearSchedule',
    label: 'Clear the schedule',
    description: 'Clear start and end dates and delete the links.',
    prefix: 'workitems-clear-schedule',
    update: { clearSchedule: true },
  },
  {
    id: 'complete',
    label: 'Mark complete',
    description: 'The items and their children get progress 100%.',
    prefix: 'workitems-complete',
    update: { setCompleted: true },
  },
  {
    id: 'reopen',
    label: 'Reopen (mark incomplete)',
    description: 'The items and their children get progress 0%.',
    prefix: 'workitems-reopen',
    update: { setCompleted: false },
  },
  {
    id: 'lockTimeEntry',
    label: 'Lock time entry',
    description: 'Lock entry of actuals for the items and their descendants.',
    prefix: 'workitems-lock-time-entry',
    update: { setTimeEntryLocked: true },
  },
  {
    id: 'unlockTimeEntry',
    label: 'Unlock time entry',
    description: 'Release the time-entry lock.',
    prefix: 'workitems-unlock-time-entry',
    update: { setTimeEntryLocked: false },
  },
  {
    id: 'addAssignments',
    label: 'Add assignments',
    description: 'Assign a user (login name, e-mail address or name) with planned effort.',
    prefix: 'workitems-add-assignments',
    update: { assignmentChange: { adds: [{ partyType: 'User', user: new P('login-name'), plannedTime: new P(480) }] } },
  },
  {
    id: 'updateAssignments',
    label: 'Update assignments',
    description: "Change an assigned user's planned effort.",
    prefix: 'workitems-update-assignments',
    update: {
      assignmentChange: {
        updates: [{ user: new P('login-name'), plannedTime: new P(240) }],
        recalculatePlannedTimeByAssignment: new P(true),
      },
    },
  },
  {
    id: 'removeAssignments',
    label: 'Remove assignments',
    description: 'Remove users (login name, e-mail address or name) from the assignments.',
    prefix: 'workitems-remove-assignments',
    update: { assignmentChange: { removeUsers: [new P('login-name')] } },
  },
  {
    id: 'removeAssignmentsById',
    label: 'Remove assignments by ID',
    description: 'Remove users or project groups by ID (several separated by commas).',
    prefix: 'workitems-remove-assignments-by-id',
    update: { assignmentChange: { removes: new P('13,17') } },
  },
  {
    id: 'moveUnderParent',
    label: 'Move under a parent (at the end)',
    description: 'Move the items under another parent item, after its last child.',
    prefix: 'workitems-move',
    update: { moveParentTo: new P('PARENT-ID'), orderLast: true },
  },
  {
    id: 'moveUnderParentFirst',
    label: 'Move under a parent (at the beginning)',
    description: 'Move the items under another parent item, before its first child.',
    prefix: 'workitems-move-first',
    update: { moveParentTo: new P('PARENT-ID'), orderFirst: true },
  },
  {
    id: 'moveUnderParentAfter',
    label: 'Move under a parent (after an item)',
    description: 'Move the items under another parent item, directly after a given sibling.',
    prefix: 'workitems-move-after',
    update: { moveParentTo: new P('PARENT-ID'), orderAfter: new P('SIBLING-ID') },
  },
  {
    id: 'changeItemType',
    label: 'Change the item type',
    description: 'Change the items to another item type.',
    prefix: 'workitems-change-item-type',
    update: { changeItemTypeTo: new P('ITEM-TYPE-ID') },
  },
  {
    id: 'setFields',
    label: 'Set fields',
    description: 'Set field values (field names are case-sensitive).',
    prefix: 'workitems-set-fields',
    update: { fields: { Name: new P('New name'), PlannedTime: new P(480) } },
  },
  {
    id: 'setProgress',
    label: 'Set progress',
    description: 'Set the progress percentage (0 to 100).',
    prefix: 'workitems-set-progress',
    update: { fields: { ActualProgress: new P(50) } },
  },
  {
    id: 'setPeriod',
    label: 'Set the period',
    description: 'Set start and end dates (yyyy-MM-dd).',
    prefix: 'workitems-set-period',
    update: { fields: { PlannedStartDate: new P('2025-04-01'), PlannedFinishDate: new P('2025-04-30') } },
  },
  {
    id: 'setFieldCalcTypes',
    label: 'Set field calculation types',
    description: "Choose how each field's value is determined.",
    prefix: 'workitems-set-calc-types',
    update: { fieldCalcTypes: { PlannedTime: new P('Assignments') } },
  },
  {
    id: 'clearFieldCalcTypes',
    label: 'Clear field calculation types',
    description: 'Clear the determination method of the named fields (separated by commas).',
    prefix: 'workitems-clear-calc-types',
    update: { clearFieldCalcTypes: new P('PlannedTime,PlannedCost') },
  },
  {
    id: 'clearAllFieldCalcTypes',
    label: 'Clear all field calculation types',
    description: 'Clear the determination method of every field.',
    prefix: 'workitems-clear-all-calc-types',
    update: { clearAllFieldCalcTypes: true },
  },
  {
    id: 'propagateToChildren',
    label: 'Propagate fields to children',
    description: 'Copy field values down to the lowest-level sub-items (names separated by commas).',
    prefix: 'workitems-propagate',
    update: { propagateToChildren: { fields: new P('StatusTypeId,LeaderId') } },
  },
  {
    id: 'copyAssignments',
    label: 'Copy assignments from an item',
    description: 'Copy the assignments of another item.',
    prefix: 'workitems-copy-assignments',
    update: { copyAssignmentsFrom: new P('SOURCE-ITEM-ID') },
  },
  {
    id: 'restore',
    label: 'Restore deleted items',
    description: 'Restore deleted items into a folder (all other members are ignored).',
    prefix: 'workitems-restore',
    update: { restore: true, restoreToParent: new P('FOLDER-ID') },
  },
];

export function templateById(id: string): UpdateTemplate | undefined {
  return TEMPLATES.find((t) => t.id === id);
}

/** Stands for the IDs when a new document is created without any: the first tab stop. */
const ID_PLACEHOLDER = new P('WORK-ITEM-ID');

/** A whole request document with the given update, for the IDs (a placeholder ID when there are none). */
export function documentTemplate(update: UpdateTemplateBody, ids: readonly string[], description?: string): Template {
  return createRequestDocument<Template, Template>(ids.length > 0 ? ids : [ID_PLACEHOLDER], update, { description });
}

/**
 * The update of "Assign to Work Items…": each user added by login name (`user`), as the
 * templates write it, so one document reads one way; by ID only for a user without a login name.
 */
export function assignUsersUpdate(users: readonly { id: string; loginName?: string | null }[]): { assignmentChange: { adds: ({ partyType: 'User'; user: string } | { partyType: 'User'; partyId: string })[] } } {
  return {
    assignmentChange: {
      adds: users.map((u) => (u.loginName ? { partyType: 'User' as const, user: u.loginName } : { partyType: 'User' as const, partyId: u.id })),
    },
  } satisfies UpdateWorkItemsBody;
}

/** The document as a plain value (what `validateRequestDocument` sees after the user accepts every default). */
export function documentValue(template: UpdateTemplate, ids: readonly string[], description?: string): unknown {
  return toValue(documentTemplate(template.update, ids, description));
}

/** The document as JSON text, or as a snippet with a tab stop on every value to change. */
export function documentText(template: UpdateTemplate, ids: readonly string[], options: { description?: string; snippet?: boolean } = {}): string {
  return renderDocument(documentTemplate(template.update, ids, options.description), { snippet: options.snippet });
}

// ---------------------------------------------------------------------------
// JSON Schema defaultSnippets and the contributed snippets file
// ---------------------------------------------------------------------------

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/**
 * A template as the body of a JSON Schema `defaultSnippets` entry: placeholders
 * become `${n:value}` tab stops numbered from `firstStop`, raw (`^`) for numbers
 * and booleans.
 */
export function defaultSnippetBody(t: Template, firstStop = 1): Json {
  let stop = firstStop - 1;
  const walk = (v: Template): Json => {
    if (v instanceof P) {
      stop += 1;
      const text = `\${${stop}:${escapeSnippet(String(v.value))}}`;
      return typeof v.value === 'string' ? text : `^${text}`;
    }
    if (typeof v === 'string') return escapeSnippet(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') {
      return Object.fromEntries(Object.entries(v).flatMap(([k, e]) => (e === undefined ? [] : [[k, walk(e)]])));
    }
    return v;
  };
  return walk(t);
}

export const SNIPPETS_FILE = 'workitems.code-snippets';

/** The text of snippets/workitems.code-snippets (contributed for `json`): one whole-document snippet per template. */
export function snippetsFileText(): string {
  const out: Record<string, { prefix: string; description: string; body: string[] }> = {};
  for (const t of TEMPLATES) {
    out[`Work item update: ${t.label}`] = {
      prefix: t.prefix,
      description: `Request document (*.workitems.json): ${t.label.toLowerCase()}`,
      body: renderDocument(documentTemplate(t.update, []), { snippet: true }).trimEnd().split('\n'),
    };
  }
  return `${JSON.stringify(out, null, 2)}\n`;
}
