// Templates of request documents, one per kind of change in service-api.md.
// No vscode import: the UI gives each template its localized label.
import { Placeholder as P, type Template, renderDocument, toValue } from './render';

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
  | 'moveUnderParent'
  | 'changeItemType'
  | 'setFields'
  | 'setFieldCalcTypes'
  | 'clearFieldCalcTypes'
  | 'propagateToChildren'
  | 'copyAssignments'
  | 'restore';

export interface UpdateTemplate {
  id: TemplateId;
  /** English label (the UI shows a localized one). */
  label: string;
  /** Prefix of the contributed JSON snippet. */
  prefix: string;
  /** The `update` member, with the values to change marked as placeholders. */
  update: { [member: string]: Template };
}

export const TEMPLATES: readonly UpdateTemplate[] = [
  { id: 'shiftSchedule', label: 'Shift the schedule', prefix: 'workitems-shift-schedule', update: { moveScheduleDays: new P(7) } },
  { id: 'clearSchedule', label: 'Clear the schedule', prefix: 'workitems-clear-schedule', update: { clearSchedule: true } },
  { id: 'complete', label: 'Mark complete', prefix: 'workitems-complete', update: { setCompleted: true } },
  { id: 'reopen', label: 'Reopen (mark incomplete)', prefix: 'workitems-reopen', update: { setCompleted: false } },
  { id: 'lockTimeEntry', label: 'Lock time entry', prefix: 'workitems-lock-time-entry', update: { setTimeEntryLocked: true } },
  { id: 'unlockTimeEntry', label: 'Unlock time entry', prefix: 'workitems-unlock-time-entry', update: { setTimeEntryLocked: false } },
  {
    id: 'addAssignments',
    label: 'Add assignments',
    prefix: 'workitems-add-assignments',
    update: { assignmentChange: { adds: [{ partyType: 'User', user: new P('login-name'), plannedTime: new P(480) }] } },
  },
  {
    id: 'updateAssignments',
    label: 'Update assignments',
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
    prefix: 'workitems-remove-assignments',
    update: { assignmentChange: { removeUsers: [new P('login-name')] } },
  },
  {
    id: 'moveUnderParent',
    label: 'Move under a parent',
    prefix: 'workitems-move',
    update: { moveParentTo: new P('PARENT-ID'), orderLast: true },
  },
  { id: 'changeItemType', label: 'Change the item type', prefix: 'workitems-change-item-type', update: { changeItemTypeTo: new P('ITEM-TYPE-ID') } },
  {
    id: 'setFields',
    label: 'Set fields',
    prefix: 'workitems-set-fields',
    update: { fields: { PlannedTime: new P(480), ActualProgress: new P(50) } },
  },
  {
    id: 'setFieldCalcTypes',
    label: 'Set field calculation types',
    prefix: 'workitems-set-calc-types',
    update: { fieldCalcTypes: { PlannedTime: new P('Assignments') } },
  },
  {
    id: 'clearFieldCalcTypes',
    label: 'Clear field calculation types',
    prefix: 'workitems-clear-calc-types',
    update: { clearFieldCalcTypes: new P('PlannedTime,PlannedCost') },
  },
  {
    id: 'propagateToChildren',
    label: 'Propagate fields to children',
    prefix: 'workitems-propagate',
    update: { propagateToChildren: { fields: new P('StatusTypeId,LeaderId') } },
  },
  { id: 'copyAssignments', label: 'Copy assignments from an item', prefix: 'workitems-copy-assignments', update: { copyAssignmentsFrom: new P('SOURCE-ITEM-ID') } },
  { id: 'restore', label: 'Restore deleted items', prefix: 'workitems-restore', update: { restore: true, restoreToParent: new P('FOLDER-ID') } },
];

export function templateById(id: string): UpdateTemplate | undefined {
  return TEMPLATES.find((t) => t.id === id);
}

/** The whole request document of a template for the given IDs. */
export function documentTemplate(template: UpdateTemplate, ids: readonly string[], description?: string): Template {
  const doc: { [k: string]: Template } = {};
  if (description) doc.description = description;
  doc.workItemIds = ids.length > 0 ? [...ids] : [new P('WORK-ITEM-ID')];
  doc.update = template.update;
  return doc;
}

/** The document as a plain value (what `validateRequestDocument` sees after the user accepts every default). */
export function documentValue(template: UpdateTemplate, ids: readonly string[], description?: string): unknown {
  return toValue(documentTemplate(template, ids, description));
}

/** The document as JSON text, or as a snippet with a tab stop on every value to change. */
export function documentText(template: UpdateTemplate, ids: readonly string[], options: { description?: string; snippet?: boolean } = {}): string {
  return renderDocument(documentTemplate(template, ids, options.description), { snippet: options.snippet });
}

/**
 * The contents of snippets/workitems.code-snippets (contributed for `json`): one
 * whole-document snippet per template. A unit test keeps the file equal to this.
 */
export function snippetsFile(): Record<string, { prefix: string; description: string; body: string[] }> {
  const out: Record<string, { prefix: string; description: string; body: string[] }> = {};
  for (const t of TEMPLATES) {
    const body = renderDocument(documentTemplate(t, []), { snippet: true }).trimEnd().split('\n');
    out[`Work item update: ${t.label}`] = {
      prefix: t.prefix,
      description: `Request document (*.workitems.json): ${t.label.toLowerCase()}`,
      body,
    };
  }
  return out;
}
