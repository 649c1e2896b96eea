// Generates the JSON Schemas in schemas/ from the zod models (one source of truth
// for shapes), and snippets/workitems.code-snippets from the update templates
// (src/schema/templates.ts). esbuild.js calls writeGeneratedFiles() at build time;
// unit tests regenerate them in memory and fail when the committed files drift.
//
// The JSON Schema is editor feedback only (completion, hover, first-line errors);
// validateRequestDocument() re-checks every document with the zod model and the
// rules before anything is sent.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { UpdateWorkItemsBody } from './api';
import { ADD_TEXT, AddSchema, DocumentRequestSchema, RequestDocumentSchema, REQUESTS_TEXT } from './document';

const ITEM_TYPE_TEXT = 'ID of the item type of the new item (required); completion offers the item types of the project by name.';
const SUB_ITEMS_TEXT = 'Items to add below this one, in order (added with it in one transaction).';
const ADD_FIELDS_TEXT =
  'Fields of the new item, keyed by system name (case-sensitive): ItemTypeId and Name are required, e.g. {"ItemTypeId": "4", "Name": "Design", "PlannedStartDate": "2027-01-04"}.';
import { fieldsMapSchema } from './field-values';
import { JSON_SCHEMA_JA, otherCaseJa } from './json-schema-ja';
import BUNDLE_JA from '../../l10n/bundle.l10n.ja.json';
import { FIELD_CATALOGUE } from './fields';
import { type MemberTree, UPDATE_BODY_MEMBERS } from './rules';
import { defaultSnippetBody, SNIPPETS_FILE, snippetsFileText, TEMPLATES } from './templates';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

export const REQUEST_DOCUMENT_SCHEMA_FILE = 'workitems.schema.json';
/** The request-document schema with Japanese hovers and completions (package.nls.ja.json points jsonValidation at it). */
export const REQUEST_DOCUMENT_SCHEMA_JA_FILE = 'workitems.schema.ja.json';
export const UPDATE_BODY_SCHEMA_FILE = 'update-body.schema.json';

// ---------------------------------------------------------------------------
// Snippets for the common operations (VS Code `defaultSnippets`), from the templates
// ---------------------------------------------------------------------------

interface Snippet {
  label: string;
  description: string;
  /** Strings starting with `^` are inserted raw (numbers, booleans); `${n:...}` are tab stops. */
  body: Json;
}

/** One snippet per update template, offered where an update body is written. */
export const UPDATE_SNIPPETS: readonly Snippet[] = TEMPLATES.map((t) => ({ label: t.label, description: t.description, body: defaultSnippetBody(t.update) }));

/** One whole-document snippet per update template, offered in an empty request document. */
function documentSnippets(): Json[] {
  return TEMPLATES.map((t) => ({
    label: `Request document: ${t.label.charAt(0).toLowerCase()}${t.label.slice(1)}`,
    description: t.description,
    body: {
      description: `\${1:${t.label}}`,
      workItemIds: ['${2:120}'],
      update: defaultSnippetBody(t.update, 3),
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

/**
 * Drops the value checks (lengths, ranges, date patterns) that the rules of
 * validateRequestDocument report as errors with their own wording: the editor then
 * shows each such problem once (ours, as an error), not a second time as the
 * JSON language service's warning. Types, members and completions stay.
 */
export const VALUE_CHECK_KEYWORDS = ['maxLength', 'minLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'pattern', 'format'] as const;

function dropValueChecks(node: Json): void {
  if (Array.isArray(node)) return node.forEach(dropValueChecks);
  if (!node || typeof node !== 'object') return;
  for (const k of VALUE_CHECK_KEYWORDS) if (typeof node[k] !== 'object') delete node[k];
  for (const [k, v] of Object.entries(node)) if (k !== 'patternProperties' || typeof v === 'object') dropValueChecks(v);
}

/**
 * Drops the shape checks (types, allowed values, required and unknown members) from the
 * request-document schema: validateRequestDocument reports each of them as an error in its
 * own words (with "did you mean" and a Quick Fix) and blocks sending, so the JSON language
 * service must not report the same member a second time as a warning. What the schema keeps
 * is what the editor needs for writing: member names, descriptions (hover), examples and
 * snippets (completion). Allowed values become examples; booleans offer true and false.
 */
function dropShapeChecks(node: Json): void {
  if (Array.isArray(node)) return node.forEach(dropShapeChecks);
  if (!node || typeof node !== 'object') return;
  const examples = Array.isArray(node.examples) ? node.examples : [];
  if (Array.isArray(node.enum)) node.examples = [...node.enum, ...examples.filter((e) => !(node.enum as Json[]).includes(e))];
  else if (node.type === 'boolean' && examples.length === 0) node.examples = [true, false];
  for (const k of ['type', 'enum', 'const', 'required', 'allOf', 'anyOf', 'oneOf', 'propertyNames', 'errorMessage']) delete node[k];
  if (node.additionalProperties === false || (node.additionalProperties && typeof node.additionalProperties === 'object')) delete node.additionalProperties;
  for (const [k, v] of Object.entries(node)) if (k !== 'examples' && k !== 'default' && k !== 'defaultSnippets') dropShapeChecks(v);
}

function finishUpdateBody(update: JsonObject, withSnippets: boolean): void {
  dropValueChecks(update);
  addExamples(update);
  describeFieldsMembers(update);
  acceptOtherCase(update, UPDATE_BODY_MEMBERS);
  if (withSnippets) update.defaultSnippets = UPDATE_SNIPPETS as unknown as Json[];
}

/** JSON Schema of `*.workitems.json` request documents. */
export function buildRequestDocumentJsonSchema(): JsonObject {
  const updateText =
    'The change to make to every listed work item: the body of PUT /workitem/workItems/{workItemIds}. Members may be combined; a document with errors is never sent.';
  // The new item's fields typed from the catalogue too (completion and hover of the field names).
  const add = AddSchema.extend({ fields: fieldsMapSchema().describe(ADD_FIELDS_TEXT) }).describe(ADD_TEXT).optional();
  const request = DocumentRequestSchema.extend({ update: editorUpdateBody().describe(updateText).optional(), add });
  const model = RequestDocumentSchema.extend({
    update: editorUpdateBody().describe(updateText).optional(),
    add,
    requests: z.array(request).optional().describe(REQUESTS_TEXT),
  });
  // Each use of a schema its own copy (no $ref between the document's update and a request's).
  const schema = z.toJSONSchema(model, { target: 'draft-7', io: 'input', reused: 'inline' }) as JsonObject;
  dropSafeIntBounds(schema);
  const props = schema.properties as JsonObject;
  const requestProps = ((props.requests as JsonObject).items as JsonObject).properties as JsonObject;
  for (const p of [props, requestProps]) {
    finishUpdateBody(p.update as JsonObject, true);
    (p.workItemIds as JsonObject).examples = [['120', '121', '122'], '120, 121, 122'];
    const addProps = (p.add as JsonObject).properties as JsonObject;
    (addProps.parentId as JsonObject).examples = ['PARENT-ID'];
    (addProps.fields as JsonObject).examples = [{ ItemTypeId: 'ITEM-TYPE-ID', Name: 'Design' }];
    // The sub-items are items of the same shape (a reference): their description beside it, for the hover.
    (addProps.subItems as JsonObject).description = SUB_ITEMS_TEXT;
    dropValueChecks(p.add as JsonObject);
    // ItemTypeId is set when an item is made (an update cannot change it through `fields`).
    const fieldProps = ((addProps.fields as JsonObject).properties ??= {}) as JsonObject;
    fieldProps.ItemTypeId = { type: 'string', description: ITEM_TYPE_TEXT, examples: ['ITEM-TYPE-ID'] };
    // The sub-items (a definition of their own, referenced at every depth) name their fields as the top item does.
    const ref = (addProps.subItems as JsonObject).$ref;
    const sub = typeof ref === 'string' ? ((schema.definitions as JsonObject | undefined)?.[ref.split('/').pop()!] as JsonObject | undefined) : undefined;
    const subProps = (sub?.items as JsonObject | undefined)?.properties as JsonObject | undefined;
    if (subProps) subProps.fields = JSON.parse(JSON.stringify(addProps.fields)) as Json;
  }
  dropShapeChecks(schema);
  (props.description as JsonObject).examples = ['Shift sprint 12 by one week'];
  return {
    $schema: schema.$schema as string,
    title: 'Work Item Studio request document',
    description:
      'A bulk update of work items: the IDs of the work items ("workItemIds") and the change to make to each ("update"), or several such requests sent as one change ("requests"). Send it with the "Send" CodeLens at the top of the file.',
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

// ---------------------------------------------------------------------------
// The schema in Japanese (hovers and completions in the display language)
// ---------------------------------------------------------------------------

const OTHER_CASE_SUFFIX = / ?Write it as "([^"]+)" \(member names are camelCase\); it is sent as "\1"\.$/;
const TEXT_KEYS = new Set(['description', 'markdownDescription', 'errorMessage', 'title']);

/**
 * The schema with every text (descriptions, messages, snippet labels) in Japanese: the schema's
 * own texts from JSON_SCHEMA_JA, those the UI already translates (template labels and
 * descriptions, problem messages) from l10n/bundle.l10n.ja.json. `missing` collects texts without
 * a translation (kept in English; a unit test requires none).
 */
export function localizeJsonSchema(schema: JsonObject, missing: Set<string> = new Set()): JsonObject {
  const bundle = BUNDLE_JA as Record<string, string>;
  const documentLabels = new Map(TEMPLATES.map((t) => [`Request document: ${t.label.charAt(0).toLowerCase()}${t.label.slice(1)}`, t.label]));
  const translate = (text: string): string => {
    const suffix = OTHER_CASE_SUFFIX.exec(text);
    if (suffix) {
      const base = text.slice(0, suffix.index);
      return `${base ? `${translate(base)} ` : ''}${otherCaseJa(suffix[1]!)}`;
    }
    const label = documentLabels.get(text);
    if (label && bundle[label]) return `リクエスト文書: ${bundle[label]}`;
    const ja = JSON_SCHEMA_JA[text] ?? bundle[text];
    if (ja) return ja;
    missing.add(text);
    return text;
  };
  const walk = (node: Json, key?: string): Json => {
    if (Array.isArray(node)) return node.map((v) => walk(v));
    if (!node || typeof node !== 'object') return node;
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(node)) {
      if (TEXT_KEYS.has(k) && typeof v === 'string') out[k] = translate(v);
      else if (k === 'defaultSnippets' && Array.isArray(v)) {
        out[k] = v.map((sn) => {
          const copy = { ...(sn as JsonObject) };
          for (const f of ['label', 'description']) if (typeof copy[f] === 'string') copy[f] = translate(copy[f] as string);
          return copy;
        });
      } else out[k] = walk(v, k);
    }
    void key;
    return out;
  };
  return walk(schema) as JsonObject;
}

/** File name -> file text of every generated schema (2-space JSON, final newline). */
export function generatedJsonSchemas(): Record<string, string> {
  const text = (v: Json) => `${JSON.stringify(v, null, 2)}\n`;
  const request = buildRequestDocumentJsonSchema();
  return {
    [REQUEST_DOCUMENT_SCHEMA_FILE]: text(request),
    [REQUEST_DOCUMENT_SCHEMA_JA_FILE]: text(localizeJsonSchema(request)),
    [UPDATE_BODY_SCHEMA_FILE]: text(buildUpdateBodyJsonSchema()),
  };
}

/** Path (relative to the repository root) -> text of every generated file: the schemas and the snippets file. */
export function generatedFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [name, text] of Object.entries(generatedJsonSchemas())) files[`schemas/${name}`] = text;
  files[`snippets/${SNIPPETS_FILE}`] = snippetsFileText();
  return files;
}

/** Writes the generated files below `root` (only files whose text changed). */
export function writeGeneratedFiles(root: string): void {
  for (const [name, text] of Object.entries(generatedFiles())) {
    const file = path.join(root, name);
    if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === text) continue;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
}
