// Generates the JSON Schemas in schemas/ from the zod models (one source of truth
// for shapes). esbuild.js calls writeJsonSchemas() at build time; a unit test
// regenerates them in memory and fails when the committed files drift.
//
// The JSON Schema is editor feedback only (completion, hover, first-line errors);
// validateRequestDocument() re-checks every document with the zod model and the
// rules before anything is sent.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { UpdateWorkItemsBody } from './api';
import { RequestDocumentSchema } from './document';
import { fieldsMapSchema } from './field-values';
import { FIELD_CATALOGUE } from './fields';
import { type MemberTree, UPDATE_BODY_MEMBERS } from './rules';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

export const REQUEST_DOCUMENT_SCHEMA_FILE = 'workitems.schema.json';
export const UPDATE_BODY_SCHEMA_FILE = 'update-body.schema.json';

// ---------------------------------------------------------------------------
// Snippets for the common operations (VS Code `defaultSnippets`)
// ---------------------------------------------------------------------------

interface Snippet {
  label: string;
  description: string;
  /** Strings starting with `^` are inserted raw (numbers, booleans); `${n:...}` are tab stops. */
  body: Json;
}

/** One snippet per kind of change in service-api.md, offered where an update body is written. */
export const UPDATE_SNIPPETS: readonly Snippet[] = [
  { label: 'Shift the schedule', description: 'Move start and end dates by a number of days (negative: earlier).', body: { moveScheduleDays: '^${1:7}' } },
  { label: 'Clear the schedule', description: 'Clear start and end dates and delete the links.', body: { clearSchedule: true } },
  { label: 'Mark complete', description: 'The items and their children get progress 100%.', body: { setCompleted: true } },
  { label: 'Reopen (mark incomplete)', description: 'The items and their children get progress 0%.', body: { setCompleted: false } },
  { label: 'Lock time entry', description: 'Lock entry of actuals for the items and their descendants.', body: { setTimeEntryLocked: true } },
  { label: 'Unlock time entry', description: 'Release the time-entry lock.', body: { setTimeEntryLocked: false } },
  {
    label: 'Add assignments',
    description: 'Assign a user (login name, e-mail address or name) with planned effort.',
    body: { assignmentChange: { adds: [{ partyType: 'User', user: '${1:login-name}', plannedTime: '^${2:480}' }] } },
  },
  {
    label: 'Update assignments',
    description: "Change an assigned user's planned effort.",
    body: {
      assignmentChange: {
        updates: [{ user: '${1:login-name}', plannedTime: '^${2:240}' }],
        recalculatePlannedTimeByAssignment: '^${3:true}',
      },
    },
  },
  {
    label: 'Remove assignments',
    description: 'Remove users (login name, e-mail address or name) from the assignments.',
    body: { assignmentChange: { removeUsers: ['${1:login-name}'] } },
  },
  {
    label: 'Remove assignments by ID',
    description: 'Remove users or project groups by ID (several separated by commas).',
    body: { assignmentChange: { removes: '${1:13,17}' } },
  },
  {
    label: 'Move under a parent (at the end)',
    description: 'Move the items under another parent item, after its last child.',
    body: { moveParentTo: '${1:PARENT-ID}', orderLast: true },
  },
  {
    label: 'Move under a parent (at the beginning)',
    description: 'Move the items under another parent item, before its first child.',
    body: { moveParentTo: '${1:PARENT-ID}', orderFirst: true },
  },
  {
    label: 'Move under a parent (after an item)',
    description: 'Move the items under another parent item, directly after a given sibling.',
    body: { moveParentTo: '${1:PARENT-ID}', orderAfter: '${2:SIBLING-ID}' },
  },
  { label: 'Change the item type', description: 'Change the items to another item type.', body: { changeItemTypeTo: '${1:ITEM-TYPE-ID}' } },
  {
    label: 'Set fields',
    description: 'Set field values (field names are case-sensitive).',
    body: { fields: { Name: '${1:New name}', PlannedTime: '^${2:480}' } },
  },
  {
    label: 'Set progress',
    description: 'Set the progress percentage (0 to 100).',
    body: { fields: { ActualProgress: '^${1:50}' } },
  },
  {
    label: 'Set the period',
    description: 'Set start and end dates (yyyy-MM-dd).',
    body: { fields: { StartDate: '${1:2025-04-01}', EndDate: '${2:2025-04-30}' } },
  },
  {
    label: 'Set field calculation types',
    description: "Choose how each field's value is determined.",
    body: { fieldCalcTypes: { PlannedTime: '${1:Assignments}' } },
  },
  {
    label: 'Clear field calculation types',
    description: 'Clear the determination method of the named fields (separated by commas).',
    body: { clearFieldCalcTypes: '${1:PlannedTime}' },
  },
  {
    label: 'Clear all field calculation types',
    description: 'Clear the determination method of every field.',
    body: { clearAllFieldCalcTypes: true },
  },
  {
    label: 'Propagate to children',
    description: 'Copy field values down to the lowest-level sub-items (names separated by commas).',
    body: { propagateToChildren: { fields: '${1:LeaderId,StatusTypeId}' } },
  },
  { label: 'Copy assignments', description: 'Copy the assignments of another item.', body: { copyAssignmentsFrom: '${1:ITEM-ID}' } },
  {
    label: 'Restore deleted items',
    description: 'Restore deleted items into a folder (all other members are ignored).',
    body: { restore: true, restoreToParent: '${1:FOLDER-ID}' },
  },
];

/** Renumbers `$n` / `${n` tab stops by `by`, in every string of a snippet body. */
function shiftTabStops(value: Json, by: number): Json {
  if (typeof value === 'string') return value.replace(/\$(\{)?(\d+)/g, (_, brace: string | undefined, n: string) => `$${brace ?? ''}${Number(n) + by}`);
  if (Array.isArray(value)) return value.map((v) => shiftTabStops(v, by));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shiftTabStops(v, by)]));
  return value;
}

function documentSnippets(): Json[] {
  return UPDATE_SNIPPETS.map((s) => ({
    label: `Request document: ${s.label.charAt(0).toLowerCase()}${s.label.slice(1)}`,
    description: s.description,
    body: {
      description: `\${1:${s.label}}`,
      workItemIds: ['${2:120}'],
      update: shiftTabStops(s.body, 2),
    },
  }));
}

// ---------------------------------------------------------------------------
// Examples per member (VS Code offers them as value completions)
// ---------------------------------------------------------------------------

const BODY_EXAMPLES: Record<string, Json[]> = {
  moveScheduleDays: [7, -3],
  moveParentTo: ['PARENT-ID'],
  changeItemTypeTo: ['ITEM-TYPE-ID'],
  clearFieldCalcTypes: ['PlannedTime', 'PlannedTime,ActualProgress'],
  restoreToParent: ['FOLDER-ID'],
  orderBefore: ['SIBLING-ID', '0'],
  orderAfter: ['SIBLING-ID', '0'],
  copyAssignmentsFrom: ['ITEM-ID'],
  fields: [{ Name: 'Design review', PlannedTime: 480 }, { ActualProgress: 100 }],
  fieldCalcTypes: [{ PlannedTime: 'Assignments' }],
};

// ---------------------------------------------------------------------------
// Post-processing of z.toJSONSchema output
// ---------------------------------------------------------------------------

const SAFE_INT = 9007199254740991;

/** Drops the ±MAX_SAFE_INTEGER bounds zod writes for every int (noise in hovers). */
function dropSafeIntBounds(node: Json): void {
  if (Array.isArray(node)) return node.forEach(dropSafeIntBounds);
  if (!node || typeof node !== 'object') return;
  if (node.minimum === -SAFE_INT) delete node.minimum;
  if (node.maximum === SAFE_INT) delete node.maximum;
  for (const v of Object.values(node)) dropSafeIntBounds(v);
}

/** `^(?!adds$)[aA][dD][dD][sS]$`: the name in any other capitalisation. */
function otherCasePattern(name: string): string {
  const letters = [...name]
    .map((c) => (c.toLowerCase() !== c.toUpperCase() ? `[${c.toLowerCase()}${c.toUpperCase()}]` : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return `^(?!${name}$)${letters}$`;
}

/**
 * Members of the update body may be written in another capitalisation (`Adds`,
 * `PartyId`, as the spec's own example does): validateRequestDocument warns and
 * normalizes them. The JSON Schema accepts them (patternProperties carrying the
 * same schema) so the editor shows only that warning, while other unknown
 * members stay errors (additionalProperties: false).
 */
function acceptOtherCase(schema: JsonObject, node: MemberTree): void {
  const props = schema.properties as JsonObject | undefined;
  if (!props) return;
  for (const [name, child] of Object.entries(node.objects)) {
    if (props[name]) acceptOtherCase(props[name] as JsonObject, child);
  }
  for (const [name, child] of Object.entries(node.arrays)) {
    const items = (props[name] as JsonObject | undefined)?.items as JsonObject | undefined;
    if (items) acceptOtherCase(items, child);
  }
  const patterns: JsonObject = {};
  for (const [name, prop] of Object.entries(props)) {
    const copy = structuredClone(prop) as JsonObject;
    const text = `Write it as "${name}" (member names are camelCase); it is sent as "${name}".`;
    copy.description = typeof copy.description === 'string' ? `${copy.description} ${text}` : text;
    delete copy.defaultSnippets;
    patterns[otherCasePattern(name)] = copy;
  }
  schema.patternProperties = patterns;
  // A required member may be written in another capitalisation too (`User`):
  // require one of its spellings, so only our warning shows for it.
  const required = schema.required as string[] | undefined;
  if (required) {
    delete schema.required;
    schema.allOf = required.map((name) => ({
      anyOf: [{ required: [name] }, { required: [`${name.charAt(0).toUpperCase()}${name.slice(1)}`] }],
    }));
  }
}

function describeFieldsMembers(update: JsonObject): void {
  const props = update.properties as JsonObject;
  const calc = props.fieldCalcTypes as JsonObject;
  const calcProps: JsonObject = {};
  for (const f of FIELD_CATALOGUE) {
    if (!f.editable || !f.calcTypes) continue;
    calcProps[f.name] = {
      description: `How the value of ${f.name} is determined. Known values: ${f.calcTypes.join(', ')} (other values get a warning; "Formula" cannot be set here).`,
      type: 'string',
      examples: [...f.calcTypes],
    };
  }
  calc.properties = calcProps;
  const names = FIELD_CATALOGUE.filter((f) => f.editable).map((f) => f.name);
  const clear = props.clearFieldCalcTypes as JsonObject;
  clear.examples = [...(clear.examples as Json[]), ...names.filter((n) => FIELD_CATALOGUE.find((f) => f.name === n)?.calcTypes)];
  const propagate = (props.propagateToChildren as JsonObject).properties as JsonObject;
  (propagate.fields as JsonObject).examples = FIELD_CATALOGUE.filter((f) => f.propagatable).map((f) => f.name);
}

function addExamples(update: JsonObject): void {
  const props = update.properties as JsonObject;
  for (const [name, examples] of Object.entries(BODY_EXAMPLES)) {
    const p = props[name] as JsonObject | undefined;
    if (p) p.examples = examples;
  }
  const change = (props.assignmentChange as JsonObject).properties as JsonObject;
  (change.removes as JsonObject).examples = ['13', '13,17'];
  ((change.removeUsers as JsonObject).items as JsonObject).description = 'Login name, LDAP login name, e-mail address or name (not empty).';
}

/** The update body with the `fields` map typed from the catalogue (completion and hover for known fields). */
function editorUpdateBody() {
  return UpdateWorkItemsBody.extend({
    fields: fieldsMapSchema()
      .optional()
      .describe(
        'Fields to update, keyed by field name (case-sensitive), e.g. {"Name": "...", "PlannedTime": 480}. Names outside the known list are sent as written (with a warning).',
      ),
  });
}

function finishUpdateBody(update: JsonObject, withSnippets: boolean): void {
  addExamples(update);
  describeFieldsMembers(update);
  acceptOtherCase(update, UPDATE_BODY_MEMBERS);
  if (withSnippets) update.defaultSnippets = UPDATE_SNIPPETS as unknown as Json[];
}

/** JSON Schema of `*.workitems.json` request documents. */
export function buildRequestDocumentJsonSchema(): JsonObject {
  const model = RequestDocumentSchema.extend({
    update: editorUpdateBody().describe(
      'The change to make to every listed work item: the body of PUT /workitem/workItems/{workItemIds}. Members may be combined; a document with errors is never sent.',
    ),
  });
  const schema = z.toJSONSchema(model, { target: 'draft-7', io: 'input' }) as JsonObject;
  dropSafeIntBounds(schema);
  const props = schema.properties as JsonObject;
  finishUpdateBody(props.update as JsonObject, true);
  (props.workItemIds as JsonObject).examples = [['120', '121', '122'], '120, 121, 122'];
  (props.description as JsonObject).examples = ['Shift sprint 12 by one week'];
  return {
    $schema: schema.$schema as string,
    title: 'Work Item Studio request document',
    description:
      'A bulk update of work items: the IDs of the work items ("workItemIds") and the change to make to each ("update"). Send it with the "Send" CodeLens at the top of the file.',
    ...Object.fromEntries(Object.entries(schema).filter(([k]) => k !== '$schema')),
    defaultSnippets: documentSnippets(),
  };
}

/** JSON Schema of the update body alone (as sent to PUT /workitem/workItems/{workItemIds}). */
export function buildUpdateBodyJsonSchema(): JsonObject {
  const schema = z.toJSONSchema(editorUpdateBody(), { target: 'draft-7', io: 'input' }) as JsonObject;
  dropSafeIntBounds(schema);
  finishUpdateBody(schema, false);
  return {
    $schema: schema.$schema as string,
    title: 'Update work items: request body',
    description: 'Body of PUT /workitem/workItems/{workItemIds}; every member is optional.',
    ...Object.fromEntries(Object.entries(schema).filter(([k]) => k !== '$schema')),
    defaultSnippets: UPDATE_SNIPPETS as unknown as Json[],
  };
}

/** File name -> file text of every generated schema (2-space JSON, final newline). */
export function generatedJsonSchemas(): Record<string, string> {
  const text = (v: Json) => `${JSON.stringify(v, null, 2)}\n`;
  return {
    [REQUEST_DOCUMENT_SCHEMA_FILE]: text(buildRequestDocumentJsonSchema()),
    [UPDATE_BODY_SCHEMA_FILE]: text(buildUpdateBodyJsonSchema()),
  };
}

/** Writes the generated schemas into `dir` (only files whose text changed). */
export function writeJsonSchemas(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(generatedJsonSchemas())) {
    const file = path.join(dir, name);
    if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === text) continue;
    fs.writeFileSync(file, text);
  }
}
