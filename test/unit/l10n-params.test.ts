import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { validateRequestDocument } from '../../src/schema/document';
import { ERROR_CODES, isErrorCode } from '../../src/schema/error-codes';
import { describeValue } from '../../src/schema/issues';
import { localizeParams, phraseOf, PHRASE_KEYS } from '../../src/schema/param-phrases';

// Problems are sentences written whole in the display language: the checks put names,
// values and phrase codes into the parameters, and each phrase ("the update",
// `the text "yes"`, "0 or more") has its own translation, so no English fragment ends
// up inside a Japanese sentence.

const root = path.resolve(__dirname, '..', '..');
const ja = JSON.parse(fs.readFileSync(path.join(root, 'l10n/bundle.l10n.ja.json'), 'utf8')) as Record<string, string>;

function fill(template: string, args: Record<string, unknown> | unknown[]): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const v = (args as Record<string, unknown>)[name];
    return v === undefined ? whole : String(v);
  });
}

/** What vscode.l10n.t does with the Japanese bundle. */
const translateJa = (key: string, args: string[]): string => fill(ja[key] ?? key, args);

function japaneseText(issue: { code: string; message: string; params?: Record<string, string | number> }): string {
  if (!isErrorCode(issue.code) || !issue.params) return issue.message;
  const template = ERROR_CODES[issue.code].message;
  return fill(ja[template] ?? template, localizeParams(issue.params, translateJa));
}

/** English words outside quotes, code spans and JSON-ish names (camelCase, dotted paths), and outside the values true/false/null. */
function englishWords(text: string): string[] {
  const unquoted = text
    .replace(/"(?:[^"\\]|\\.)*"|「[^」]*」|`[^`]*`/g, ' ')
    .replace(/\b[A-Za-z_$][\w$]*(?:\[[^\]]*\]|\.[A-Za-z_$][\w$]*)+/g, ' ');
  return (unquoted.match(/\b[A-Za-z]{2,}\b/g) ?? []).filter((w) => !/^(true|false|null|ID|IDs|URL|JSON|yyyy|MM|dd|HH|mm|ss|HTTP|API)$/.test(w) && !/[a-z][A-Z]/.test(w) && !/^[A-Z][a-z]+[A-Z]/.test(w));
}

describe('Problem parameters are phrases translated whole (src/schema/param-phrases.ts)', () => {
  it('every phrase the checks write is recognised, and every phrase has a Japanese translation', () => {
    for (const v of ['yes', 12, [], {}, undefined]) assert.ok(phraseOf(describeValue(v)), describeValue(v));
    assert.equal(phraseOf('null'), undefined);
    assert.equal(phraseOf('assignmentChange.adds[0]'), undefined);
    assert.deepEqual(phraseOf('"a" or "b" or "c"'), { key: '{0} or {1}', args: ['"a"', { key: '{0} or {1}', args: ['"b"', '"c"'] }] });
    for (const key of PHRASE_KEYS) assert.ok(ja[key] && /[\u3040-\u30ff\u3400-\u9fff]|^true/.test(ja[key]!), `no Japanese for "${key}"`);
  });

  it('English stays English: localizing with the identity changes nothing', () => {
    const params = { member: 'update', where: 'the update', actual: 'the text "yes"', range: '0 or more', allowed: '"a" or "b"' };
    const english = localizeParams(params, (key, args) => fill(key, args));
    assert.deepEqual(english, params);
  });

  it('a document with one problem of each kind reads in Japanese without an English word outside quoted names and values', () => {
    const documents: unknown[] = [
      'not an object',
      { workItemIds: [], update: {} },
      { workItemIds: ['1'], update: 'x' },
      { workItemIds: ['1'], update: { fields: { Name: 5 } } },
      { workItemIds: ['1'], update: { setCompleted: 'yes' } },
      { workItemIds: ['1'], update: { lockActuals: 'yes' } },
      { workItemIds: ['1'], update: { bogus: 1 } },
      { workItemIds: ['1'], update: { fields: { ActualProgress: 500 } } },
      { workItemIds: ['1'], update: { fields: { PlannedStartDate: '2025/01/01' } } },
      { workItemIds: ['1'], update: { scheduleShift: { days: 'x' } } },
      { workItemIds: ['1', '1'], update: { fields: { Name: 'n' } } },
      { workItemIds: ['1'], update: { assignmentChange: { adds: [{ partyId: 5, plannedTime: -1 }] } } },
      { workItemIds: ['1'], update: { fields: { StartDate: '2025-01-01' } } },
      { workItemIds: ['1'], description: 3, update: {} },
    ];
    const found: string[] = [];
    let checked = 0;
    for (const doc of documents) {
      for (const issue of validateRequestDocument(doc).issues) {
        checked++;
        const text = japaneseText(issue as never);
        // Names and values quoted from the document (parameters that are no phrase) are shown as they are.
        let rest = text;
        for (const v of Object.values(issue.params ?? {})) if (typeof v === 'string' && !phraseOf(v) && v !== '') rest = rest.split(v).join(' ');
        const words = englishWords(rest);
        if (words.length > 0) found.push(`${issue.code}: ${text}  [${words.join(', ')}]`);
      }
    }
    assert.ok(checked >= 10, `only ${checked} problems found`);
    assert.deepEqual(found, []);
    // The check itself sees English: the same problems with the phrases left in English are caught.
    const raw = validateRequestDocument({ workItemIds: ['1'], update: { setCompleted: 'yes' } }).issues.map((i) => fill(ja[ERROR_CODES[i.code as keyof typeof ERROR_CODES].message] ?? '', i.params ?? {}));
    assert.ok(raw.some((t) => englishWords(t).length > 0), raw.join('\n'));
  });
});
