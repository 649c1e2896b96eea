// The generated JSON Schemas: committed files match the zod model (drift), and
// VS Code's own JSON language service gives the editor behaviour we promise.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Diagnostic, type JSONSchema, TextDocument, getLanguageService } from 'vscode-json-languageservice';
import {
  REQUEST_DOCUMENT_SCHEMA_FILE,
  REQUEST_DOCUMENT_SCHEMA_JA_FILE,
  UPDATE_BODY_SCHEMA_FILE,
  UPDATE_SNIPPETS,
  VALUE_CHECK_KEYWORDS,
  buildRequestDocumentJsonSchema,
  generatedJsonSchemas,
  localizeJsonSchema,
} from '../../src/schema/generate-json-schema';
import { validateRequestDocument } from '../../src/schema/document';

const root = path.resolve(__dirname, '../..');
const schema = buildRequestDocumentJsonSchema() as JSONSchema;

async function editorDiagnostics(value: unknown): Promise<Diagnostic[]> {
  const ls = getLanguageService({});
  ls.configure({ validate: true, schemas: [{ uri: 'inmemory://workitems.schema.json', fileMatch: ['*.workitems.json'], schema }] });
  const doc = TextDocument.create('file:///test.workitems.json', 'json', 1, JSON.stringify(value, null, 2));
  return ls.doValidation(doc, ls.parseJSONDocument(doc));
}

async function completionLabels(text: string): Promise<string[]> {
  const ls = getLanguageService({});
  ls.configure({ validate: true, schemas: [{ uri: 'inmemory://workitems.schema.json', fileMatch: ['*.workitems.json'], schema }] });
  const offset = text.indexOf('|');
  const doc = TextDocument.create('file:///test.workitems.json', 'json', 1, text.replace('|', ''));
  const list = await ls.doComplete(doc, doc.positionAt(offset), ls.parseJSONDocument(doc));
  return (list?.items ?? []).map((i) => i.label);
}

describe('schema JSON Schema (generated)', () => {
  it('the committed schemas/ files match the zod model (run `npm run build` after changing src/schema)', () => {
    for (const [name, text] of Object.entries(generatedJsonSchemas())) {
      const file = path.join(root, 'schemas', name);
      assert.ok(fs.existsSync(file), `${file} is missing: run npm run build`);
      assert.equal(fs.readFileSync(file, 'utf8'), text, `schemas/${name} drifted from the zod model: run npm run build and commit schemas/`);
    }
    assert.deepEqual(Object.keys(generatedJsonSchemas()).sort(), [UPDATE_BODY_SCHEMA_FILE, REQUEST_DOCUMENT_SCHEMA_FILE, REQUEST_DOCUMENT_SCHEMA_JA_FILE].sort());
  });

  it('package.json contributes the request-document schema for *.workitems.json, in the display language (Japanese too)', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    const nls = (lang: string) => JSON.parse(fs.readFileSync(path.join(root, `package.nls${lang}.json`), 'utf8')) as Record<string, string>;
    const entry = pkg.contributes.jsonValidation.find((v: { fileMatch: string | string[]; url: string }) => [v.fileMatch].flat().includes('*.workitems.json'));
    assert.ok(entry);
    const key = /^%(.+)%$/.exec(entry.url)?.[1];
    assert.ok(key, 'the URL is localized (VS Code replaces %key% anywhere in the manifest)');
    assert.equal(nls('')[key], `./schemas/${REQUEST_DOCUMENT_SCHEMA_FILE}`);
    assert.equal(nls('.ja')[key], `./schemas/${REQUEST_DOCUMENT_SCHEMA_JA_FILE}`);
    assert.ok(fs.existsSync(path.join(root, 'schemas', REQUEST_DOCUMENT_SCHEMA_JA_FILE)));
  });

  it('the Japanese schema has every text in Japanese and is otherwise the same schema', () => {
    const missing = new Set<string>();
    const ja = localizeJsonSchema(buildRequestDocumentJsonSchema(), missing);
    assert.deepEqual([...missing], [], 'texts without Japanese (add them to src/schema/json-schema-ja.ts)');
    const strip = (n: unknown): unknown =>
      Array.isArray(n) ? n.map(strip) : n && typeof n === 'object' ? Object.fromEntries(Object.entries(n).filter(([k, v]) => !(typeof v === 'string' && ['description', 'errorMessage', 'title', 'label'].includes(k))).map(([k, v]) => [k, strip(v)])) : n;
    assert.deepEqual(strip(ja), strip(buildRequestDocumentJsonSchema()), 'only the texts differ');
    const update = ((ja.properties as Record<string, { properties: Record<string, { description: string }> }>).update).properties;
    assert.match(update.moveScheduleDays!.description, /期間をずらす日数/);
    assert.match(JSON.stringify(ja.defaultSnippets), /リクエスト文書: スケジュールをずらす/);
  });

  it('every member of the update body and its parts has a description', () => {
    const missing: string[] = [];
    const walk = (node: unknown, where: string) => {
      if (!node || typeof node !== 'object') return;
      const n = node as Record<string, unknown>;
      for (const [name, prop] of Object.entries((n.properties ?? {}) as Record<string, Record<string, unknown>>)) {
        if (typeof prop.description !== 'string' || prop.description.length < 5) missing.push(`${where}.${name}`);
        walk(prop, `${where}.${name}`);
        walk(prop.items, `${where}.${name}[]`);
      }
    };
    walk(schema, '');
    assert.deepEqual(missing, []);
  });

  it('a good document has no editor errors', async () => {
    assert.deepEqual(await editorDiagnostics({ workItemIds: ['1', 2], update: { moveScheduleDays: 7, fields: { Name: 'x', Custom: 1 } } }), []);
  });

  it('capitalised members in assignmentChange (the spec example) get no editor error', async () => {
    const value = {
      workItemIds: '1,2',
      update: { assignmentChange: { Adds: [{ PartyId: '7', PlannedTime: 480, PartyType: 'User' }], RemoveUsers: ['x'], Updates: [{ User: 'a' }] } },
    };
    assert.deepEqual(await editorDiagnostics(value), []);
    assert.equal(validateRequestDocument(value).ok, true);
  });

  it('a value problem our checks report (a Name over 256 characters, a progress over 100, a bad date) is reported once: by us, not the schema too', async () => {
    for (const fields of [{ Name: 'x'.repeat(300) }, { Code: 'c'.repeat(257) }, { ActualProgress: 150 }, { PlannedStartDate: '2025-13-01' }, { Name: '' }, { PlannedTime: -1 }]) {
      const value = { workItemIds: ['1'], update: { fields } };
      const editor = await editorDiagnostics(value);
      assert.deepEqual(editor.map((d) => d.message), [], `the JSON Schema reports ${JSON.stringify(fields)} too`);
      const ours = validateRequestDocument(value).issues.filter((i) => i.severity === 'error');
      assert.equal(ours.length, 1, `${JSON.stringify(fields)}: ${JSON.stringify(ours)}`);
    }
    const generated = JSON.stringify(buildRequestDocumentJsonSchema());
    for (const k of VALUE_CHECK_KEYWORDS) assert.doesNotMatch(generated, new RegExp(`"${k}":(?!\\{)`), k);
  });

  it('a shape problem (unknown member, wrong type, value not allowed, missing member) is reported once: by us, not the schema too', async () => {
    const cases: unknown[] = [
      { workItemIds: '1', update: { moveScheduleDays: 'x', colour: 'red', assignmentChange: { adds: [{ hours: 1, partyType: 'Team' }] } }, extra: 1 },
      { workItemIds: '1', update: { assignmentChange: { updates: [{ plannedTime: 1 }] } } },
      { workItemIds: '1', update: { assignmentChange: { Adds: [{ PlannedTime: 'x' }] } } },
      { workItemIds: 120, update: { setCompleted: 'yes' } },
      { workItemIds: ['1', true, 2.5], update: [] },
      { update: { setCompleted: true } },
      { workItemIds: ['1'] },
      [],
    ];
    for (const value of cases) {
      const editor = await editorDiagnostics(value);
      assert.deepEqual(editor.map((d) => d.message), [], `the JSON Schema reports ${JSON.stringify(value)} too`);
      const ours = validateRequestDocument(value).issues.filter((i) => i.severity === 'error');
      assert.ok(ours.length > 0, `our checks miss ${JSON.stringify(value)}`);
    }
    const first = validateRequestDocument(cases[0]).issues.filter((i) => i.severity === 'error').map((i) => i.code).sort();
    assert.deepEqual(first, ['DOCUMENT_UNKNOWN_MEMBER', 'INVALID_VALUE', 'UNKNOWN_MEMBER', 'UNKNOWN_MEMBER', 'WRONG_TYPE'].sort());
    const generated = JSON.stringify(buildRequestDocumentJsonSchema());
    for (const k of ['type', 'enum', 'required', 'additionalProperties', 'anyOf', 'allOf']) assert.doesNotMatch(generated, new RegExp(`"${k}":`), k);
  });

  it('without its checks the schema still offers allowed values and true/false as completions', async () => {
    assert.ok((await completionLabels('{"workItemIds": "1", "update": { "setCompleted": | }}')).includes('true'));
    const types = await completionLabels('{"workItemIds": "1", "update": { "assignmentChange": { "adds": [{ "partyType": | }] }}}');
    assert.ok(types.includes('"User"') && types.includes('"UserGroup"'), types.join(', '));
  });

  it('the editor completes update members, known field names and calculation types', async () => {
    const members = await completionLabels('{"workItemIds": "1", "update": { | }}');
    for (const m of ['moveScheduleDays', 'assignmentChange', 'fields', 'restore']) assert.ok(members.includes(m), `${m} in ${members.join(', ')}`);
    const values = await completionLabels('{"workItemIds": "1", "update": | }');
    for (const s of UPDATE_SNIPPETS) assert.ok(values.includes(s.label), `snippet ${s.label} in ${values.join(', ')}`);
    const fields = await completionLabels('{"workItemIds": "1", "update": { "fields": { | } }}');
    for (const f of ['Name', 'PlannedTime', 'ActualProgress', 'PlannedStartDate']) assert.ok(fields.includes(f), f);
    assert.ok(!fields.includes('ActualTime'), 'read-only fields are not offered');
    const calc = await completionLabels('{"workItemIds": "1", "update": { "fieldCalcTypes": { "PlannedTime": | } }}');
    assert.ok(calc.includes('"Assignments"'), calc.join(', '));
  });

  it('an empty file offers whole-document snippets for each operation', async () => {
    const labels = await completionLabels('|');
    assert.ok(labels.includes('Request document: shift the schedule'), labels.join(', '));
    assert.ok(labels.includes('Request document: restore deleted items'));
  });

  it('every snippet body, with its placeholders replaced, is a valid request document', () => {
    for (const s of UPDATE_SNIPPETS) {
      const defaults = JSON.stringify(s.body).replace(/"\^\$\{\d+:([^}]*)\}"/g, '$1').replace(/\$\{\d+:([^}]*)\}/g, '$1');
      // The defaults that are placeholders ("PARENT-ID", "login-name") block sending until replaced.
      const asInserted = validateRequestDocument({ workItemIds: ['1'], update: JSON.parse(defaults) });
      assert.ok(asInserted.issues.filter((i) => i.severity === 'error').every((i) => i.code === 'PLACEHOLDER_LEFT'), s.label);
      const filled = JSON.parse(defaults.replace(/"[A-Z][A-Z-]*-ID"/g, '"130"').replace(/"login-name"/g, '"tanaka"'));
      const r = validateRequestDocument({ workItemIds: ['1'], update: filled });
      assert.equal(r.ok, true, `${s.label}: ${r.issues.map((i) => i.message).join('; ')}`);
      assert.deepEqual(r.issues.filter((i) => i.severity === 'error'), []);
    }
  });
});
