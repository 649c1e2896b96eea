import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { JSON_SCHEMA_JA } from '../../src/schema/json-schema-ja';
import { SYSTEM_COLUMNS } from '../../src/table/model/columns';
import { fieldLabel, SYSTEM_FIELD_LABELS } from '../../src/schema/field-labels';
import { analysePlaceholders, type Classified, type PlaceholderUse } from './l10n-placeholders';
import { kindOf, placeholderKinds, spacingProblems, type Decisions } from './l10n-spacing';

// Every Japanese string follows l10n/glossary.json: one term per concept (no forbidden
// variant such as リクエストドキュメント beside リクエスト文書) and the typography of
// Japanese text (no half-width period ending a sentence; a half-width space between a
// number, or a placeholder holding one, and the Japanese text beside it; none between a
// placeholder holding text and the Japanese text beside it: "{0} 件", "{3}の{2}を元に戻します").
// Which placeholders hold text is found from src/ (./l10n-placeholders.ts).
// The work item table's strings are covered too: its column headers are written in
// src/table/model/columns.ts (checked here with the rest), its webview's other strings come
// from src/table/strings.ts through the bundle (its page, src/table/web, holds no text of its own).
// The Before/After and result tables name fields by src/schema/field-labels.ts (checked here
// too, with the rest; ./l10n-field-names.test.ts renders those tables in Japanese).

const root = path.resolve(__dirname, '..', '..');
const readJson = <T>(p: string): T => JSON.parse(fs.readFileSync(path.join(root, p), 'utf8')) as T;

interface Glossary extends Decisions {
  /** `fields`: the service fields whose header in the work item table is this term. */
  terms: { en: string; ja: string; forbidden: string[]; forbiddenPatterns?: string[]; fields?: string[] }[];
  typography: Record<string, string>;
}

/** Hiragana, katakana (with ー) and kanji: what makes a string Japanese. */
const JA = '\\u3040-\\u30ff\\u3400-\\u9fff';
const JAPANESE = new RegExp(`[${JA}]`);

export interface TypographyProblem {
  rule: 'period' | 'spacing' | 'question' | 'text-spacing' | 'unclassified';
  at: string;
}

/**
 * The typography problems of one Japanese string (empty when it follows the glossary), given
 * what each placeholder holds (without it: numbers, as in the manifest's strings).
 */
export function typographyProblems(text: string, kindOfPlaceholder?: (placeholder: string) => Classified): TypographyProblem[] {
  const out: TypographyProblem[] = [];
  for (const m of text.matchAll(new RegExp(`[${JA}]\\.(?=\\s|$)`, 'g'))) out.push({ rule: 'period', at: text.slice(Math.max(0, m.index - 10), m.index + 2) });
  for (const m of text.matchAll(new RegExp(`[${JA}][?!]`, 'g'))) out.push({ rule: 'question', at: text.slice(Math.max(0, m.index - 10), m.index + 2) });
  out.push(...spacingProblems(text, kindOfPlaceholder));
  return out;
}

/** The glossary terms a string breaks (forbidden variants and patterns). */
export function termProblems(text: string, glossary: Glossary): string[] {
  const out: string[] = [];
  for (const t of glossary.terms) {
    for (const f of t.forbidden) if (text.includes(f)) out.push(`"${f}" (use "${t.ja}" for "${t.en}")`);
    for (const p of t.forbiddenPatterns ?? []) if (new RegExp(p).test(text)) out.push(`/${p}/ (use "${t.ja}" for "${t.en}")`);
  }
  return out;
}

/**
 * A Japanese translation of an English sentence ends as a sentence: with 。 (or ？/！), a closing
 * bracket or quote after it allowed. Labels (English without a final period) are free.
 */
export function sentenceEndProblem(english: string, japanese: string): boolean {
  return /[^.]\.\s*$/.test(english) && JAPANESE.test(japanese) && !/[。？！][)）」』"]?\s*$|[)）」』]。\s*$/.test(japanese);
}

/** English -> Japanese pairs of the l10n bundle, the manifest strings and the JSON Schema's own texts. */
function translationPairs(): [where: string, english: string, japanese: string][] {
  const out: [string, string, string][] = [];
  for (const [key, ja] of Object.entries(readJson<Record<string, unknown>>('l10n/bundle.l10n.ja.json'))) if (typeof ja === 'string') out.push(['l10n/bundle.l10n.ja.json', key, ja]);
  const nls = readJson<Record<string, unknown>>('package.nls.json');
  for (const [key, ja] of Object.entries(readJson<Record<string, unknown>>('package.nls.ja.json'))) {
    if (typeof ja === 'string' && typeof nls[key] === 'string') out.push([`package.nls.ja.json: ${key}`, nls[key] as string, ja]);
  }
  for (const [en, ja] of Object.entries(JSON_SCHEMA_JA)) out.push(['src/schema/json-schema-ja.ts (schemas/*.ja.json)', en, ja]);
  for (const c of SYSTEM_COLUMNS) if (c.labelJa) out.push([`${TABLE_HEADERS}: ${c.key}`, c.label, c.labelJa]);
  for (const [key, l] of Object.entries(SYSTEM_FIELD_LABELS)) out.push([`${FIELD_LABELS}: ${key}`, l.en, l.ja]);
  return out;
}

/** Where the Before/After and result tables' field names are written (English and Japanese). */
const FIELD_LABELS = 'src/schema/field-labels.ts';

/** Where the work item table's built-in column headers are written (English and Japanese). */
const TABLE_HEADERS = 'src/table/model/columns.ts';

/** The members of a JSON Schema whose strings are text a person reads (hovers, completions, errors). */
const SCHEMA_TEXT = new Set(['title', 'description', 'markdownDescription', 'enumDescriptions', 'markdownEnumDescriptions', 'errorMessage', 'deprecationMessage', 'patternErrorMessage', 'label']);

/** The Japanese texts of a JSON Schema, by their JSON pointer (examples and values are the document's own, not text). */
export function schemaTexts(schema: unknown): [pointer: string, text: string][] {
  const out: [string, string][] = [];
  const walk = (v: unknown, pointer: string, text: boolean): void => {
    if (typeof v === 'string') {
      if (text && JAPANESE.test(v)) out.push([pointer, v]);
    } else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${pointer}/${i}`, text));
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) walk(x, `${pointer}/${k}`, text || (SCHEMA_TEXT.has(k) && !pointer.endsWith('/properties')));
    }
  };
  walk(schema, '', false);
  return out;
}

/** The Japanese schemas the extension ships (schemas/*ja*.json). */
const JAPANESE_SCHEMAS = fs.readdirSync(path.join(root, 'schemas')).filter((f) => /(^|\.)ja\./.test(f) && f.endsWith('.json')).map((f) => `schemas/${f}`);

/** Every Japanese string a person reads: the l10n bundle, the manifest's strings and the Japanese JSON Schemas' texts. */
function japaneseStrings(): [file: string, key: string, value: string][] {
  const out: [string, string, string][] = [];
  for (const file of ['l10n/bundle.l10n.ja.json', 'package.nls.ja.json']) {
    for (const [key, value] of Object.entries(readJson<Record<string, unknown>>(file))) {
      if (typeof value === 'string' && JAPANESE.test(value)) out.push([file, key, value]);
    }
  }
  for (const file of JAPANESE_SCHEMAS) for (const [pointer, text] of schemaTexts(readJson(file))) out.push([file, pointer, text]);
  for (const c of SYSTEM_COLUMNS) if (c.labelJa && JAPANESE.test(c.labelJa)) out.push([TABLE_HEADERS, c.key, c.labelJa]);
  for (const [key, l] of Object.entries(SYSTEM_FIELD_LABELS)) if (JAPANESE.test(l.ja)) out.push([FIELD_LABELS, key, l.ja]);
  return out;
}

/** The files of the table's webview (its page's sources in src/table/web and its style in media/table): no text of their own. */
const TABLE_MEDIA = ['src/table/web', 'media/table'].flatMap((dir) => fs.readdirSync(path.join(root, dir)).map((f) => `${dir}/${f}`));

describe('Japanese strings follow the glossary (l10n/glossary.json)', () => {
  const glossary = readJson<Glossary>('l10n/glossary.json');

  it('the glossary names one Japanese term per concept, and no term is forbidden by another', () => {
    assert.ok(glossary.terms.length >= 8);
    const ja = new Set<string>();
    for (const t of glossary.terms) {
      assert.ok(t.en && t.ja, JSON.stringify(t));
      assert.ok(!ja.has(t.ja), `${t.ja} is named twice`);
      ja.add(t.ja);
    }
    for (const t of glossary.terms) for (const other of glossary.terms) for (const f of other.forbidden) assert.ok(!t.ja.includes(f), `${t.ja} contains the forbidden "${f}" of ${other.en}`);
    for (const key of ['request document', 'undo document', 'schedule', 'request', 'work item']) assert.ok(glossary.terms.some((t) => t.en === key), key);
  });

  it('the typography rules find what they must (and nothing in good text)', () => {
    assert.deepEqual(typographyProblems('{0} 件を更新しました。'), []);
    assert.deepEqual(typographyProblems('サービス: {0}'), []);
    assert.deepEqual(typographyProblems('(例: 7.5 または 7:30)'), []);
    assert.deepEqual(typographyProblems('更新しました.').map((p) => p.rule), ['period']);
    assert.deepEqual(typographyProblems('送信しますか?').map((p) => p.rule), ['question']);
    assert.deepEqual(typographyProblems('送信しますか？'), []);
    assert.deepEqual(typographyProblems('6:41:00 に3 項目を1 リクエスト').map((p) => p.rule), ['spacing', 'spacing']);
    assert.deepEqual(typographyProblems('{0}を更新').map((p) => p.rule), ['spacing']);
    // A placeholder holding text takes its particles directly; one holding a count ("3 件") is
    // spaced on its number's side only; one holding a number on both sides.
    const kinds: Record<string, Classified> = { '{0}': 'number', '{1}': 'number', '{2}': 'text', '{3}': 'count' };
    const byKind = (p: string): Classified => kinds[p] ?? 'unknown';
    assert.deepEqual(typographyProblems('{1} 件中 {0} 件目: {3}の{2}を元に戻します', byKind), []);
    assert.deepEqual(typographyProblems('{1} 件中 {0} 件目: {3} の {2} を元に戻します', byKind).map((p) => p.rule), ['text-spacing', 'text-spacing', 'text-spacing']);
    assert.deepEqual(typographyProblems('{1}件中 {0} 件目: {3}の{2}を元に戻します', byKind).map((p) => p.rule), ['spacing']);
    assert.deepEqual(typographyProblems('前回以降に {3}が変更されました。', byKind), []);
    assert.deepEqual(typographyProblems('前回以降に{3}が変更されました。', byKind).map((p) => p.rule), ['spacing']);
    assert.deepEqual(typographyProblems('リーダーを {4} に設定します。', byKind).map((p) => p.rule), ['unclassified']);
    assert.deepEqual(typographyProblems('リーダー: {4}', byKind), []);
    assert.ok(termProblems('リクエスト ドキュメントを開く', glossary).length >= 1);
    assert.deepEqual(termProblems('{0} 項目', glossary).length, 1);
    assert.deepEqual(termProblems('作業項目 {0} 件', glossary), []);
  });

  it('the Japanese JSON Schema\'s texts are checked too (titles, descriptions, snippet labels; not examples or member names)', () => {
    assert.ok(JAPANESE_SCHEMAS.includes('schemas/workitems.schema.ja.json'), JAPANESE_SCHEMAS.join());
    const texts = schemaTexts(readJson('schemas/workitems.schema.ja.json'));
    assert.ok(texts.length > 100, `only ${texts.length} texts found`);
    assert.ok(texts.some(([pointer]) => pointer === '/properties/update/description'));
    assert.deepEqual(schemaTexts({ properties: { description: { description: '説明です。', examples: ['例の値'] } }, defaultSnippets: [{ label: 'ラベル', body: { name: '値' } }] }), [
      ['/properties/description/description', '説明です。'],
      ['/defaultSnippets/0/label', 'ラベル'],
    ]);
    assert.ok(sentenceEndProblem('It is sent.', '送信されます'));
    assert.ok(!sentenceEndProblem('It is sent.', '送信されます。'));
    assert.ok(!sentenceEndProblem('Sent (twice).', '送信されました (2 回)。'));
    assert.ok(!sentenceEndProblem('Send', '送信'));
    assert.ok(!sentenceEndProblem('Loading…', '読み込み中…'));
  });

  it('a Japanese translation of an English sentence ends with full-width punctuation (。)', () => {
    const bad = translationPairs()
      .filter(([, en, ja]) => sentenceEndProblem(en, ja))
      .map(([where, en, ja]) => `${where}: ${en} → ${ja}`);
    assert.deepEqual(bad, []);
  });

  it('the work item table\'s strings are checked: its headers with the rest, its webview\'s from the bundle (its page has no Japanese text of its own)', () => {
    const headers = japaneseStrings().filter(([file]) => file === TABLE_HEADERS);
    assert.ok(headers.length >= 10, `only ${headers.length} table headers checked`);
    assert.ok(headers.some(([, key, value]) => key === 'PlannedTime' && value.startsWith('予定工数')));
    assert.ok(TABLE_MEDIA.some((f) => f.endsWith('web/main.ts')), TABLE_MEDIA.join());
    const own = TABLE_MEDIA.filter((f) => JAPANESE.test(fs.readFileSync(path.join(root, f), 'utf8')));
    assert.deepEqual(own, [], 'Japanese text in the table\'s webview files: send it from src/table/strings.ts (vscode.l10n.t, the bundle)');
    // A header such as 種別 for the item type (the glossary's 項目タイプ) is a forbidden variant.
    assert.deepEqual(termProblems('種別', glossary), ['/(?<!状態)種別/ (use "項目タイプ" for "item type")']);
    assert.deepEqual(termProblems('種類', glossary), ['/^種類$/ (use "項目タイプ" for "item type")']);
    assert.deepEqual(termProblems('利用できる状態種別の ID。', glossary), []);
  });

  it('the work item table\'s header of a field is the glossary\'s term for it (l10n/glossary.json "fields")', () => {
    const byKey = new Map(SYSTEM_COLUMNS.map((c) => [c.key, c]));
    const terms = glossary.terms.filter((t) => t.fields?.length);
    assert.ok(terms.some((t) => t.en === 'item type' && t.fields?.includes('ItemTypeId')), 'the glossary names the header of ItemTypeId');
    const bad = terms.flatMap((t) =>
      t.fields!.flatMap((key) => {
        const c = byKey.get(key);
        if (!c) return [`${key} (${t.en}): no such column in ${TABLE_HEADERS}`];
        return c.labelJa?.startsWith(t.ja) ? [] : [`${key}: the header "${c.labelJa ?? c.label}" is not the glossary's "${t.ja}" (${t.en})`];
      }),
    );
    assert.deepEqual(bad, []);
  });

  it('the Before/After and result tables name a field by the glossary\'s term for it, as the work item table\'s header does', () => {
    const terms = glossary.terms.filter((t) => t.fields?.length);
    for (const key of ['Name', 'ActualProgress', 'PlannedStartDate', 'PlannedFinishDate', 'PlannedTime', 'ItemTypeId']) assert.ok(terms.some((t) => t.fields!.includes(key)), `the glossary names the term of ${key}`);
    const bad = terms.flatMap((t) => t.fields!.flatMap((key) => (fieldLabel(key, 'ja') === t.ja ? [] : [`${key}: "${fieldLabel(key, 'ja')}" is not the glossary's "${t.ja}" (${t.en})`])));
    assert.deepEqual(bad, []);
    assert.ok(japaneseStrings().some(([file, key, value]) => file === FIELD_LABELS && key === 'ActualProgress' && value === '進捗率'), 'the field names are among the strings checked');
    // 名称 is the work item's Name everywhere (the table's header); 名前 stays for people, filters and renames.
    assert.deepEqual(termProblems('名前', glossary), ['/^名前$/ (use "名称" for "name (of a work item: the field Name)")']);
    assert.deepEqual(termProblems('ID または名前で絞り込み', glossary).length, 1);
    assert.deepEqual(termProblems('"{0}" という名前のユーザーはいません。', glossary), []);
  });

  it('no Japanese string uses a forbidden variant of a glossary term', () => {
    const bad = japaneseStrings().flatMap(([file, key, value]) => termProblems(value, glossary).map((p) => `${file}: ${key} → ${value}: ${p}`));
    assert.deepEqual(bad, []);
  });

  describe('placeholders: which hold numbers and which hold text (found from src/)', () => {
    let uses: PlaceholderUse[] = [];
    let kinds = new Map<string, Record<string, Classified>>();
    const bundle = readJson<Record<string, string>>('l10n/bundle.l10n.ja.json');

    before(function () {
      this.timeout(180000); // a TypeScript program of src/ with its type checker (~10 s)
      uses = analysePlaceholders();
      kinds = placeholderKinds(uses, glossary, bundle);
    });

    const kindIn = (key: string) => (p: string): Classified => kindOf(p, kinds.get(key), glossary);

    it('the analysis finds the calls and classifies what it must (counts, names, translated words, IDs)', () => {
      assert.ok(uses.length > 300, `only ${uses.length} placeholder uses found`);
      const undo = 'puts back the {0} of {1}';
      assert.deepEqual(kinds.get(undo), { '{0}': 'text', '{1}': 'count' }, 'undo summary: undoKindText(kind), itemsText(items)');
      assert.equal(kinds.get('Updated {0} on {1}.')?.['{0}'], 'text', 'workItemsText(n) reads "作業項目 n 件"');
      assert.equal(kinds.get('Updated {0} on {1}.')?.['{1}'], 'text', 'a service label: a profile\'s name ("本番"), "このウィンドウのサンドボックス"');
      assert.equal(kinds.get('{0} changed on the service since the preview, not by a send of this document.')?.['{0}'], 'count', 'askDrift(count) is given itemsText(n)');
      assert.equal(kinds.get('{0} cannot be sent: {1}')?.['{0}'], 'number', 'a document\'s file name ends with its extension');
      assert.equal(kinds.get('{0} items')?.['{0}'], 'number');
      assert.equal(kinds.get('Set the leader to {0}.')?.['{0}'], 'text', 'a person\'s name');
      assert.equal(kinds.get('{0} is already running at {1}.')?.['{1}'], 'number', 'a URL');
      assert.equal(kinds.get('The job file {0} cannot be read. The log has the details.')?.['{0}'], 'number', 'a file name');
    });

    it('the glossary decides only placeholders that exist (l10n/glossary.json "placeholders", "namedPlaceholders")', () => {
      const stale: string[] = [];
      for (const [key, decided] of Object.entries(glossary.placeholders ?? {})) {
        if (typeof bundle[key] !== 'string') stale.push(`${key}: no such key in l10n/bundle.l10n.ja.json`);
        for (const p of Object.keys(decided)) if (!key.includes(p)) stale.push(`${key}: has no ${p}`);
      }
      const named = new Set(Object.keys(bundle).flatMap((k) => [...k.matchAll(/\{([A-Za-z]\w*)\}/g)].map((m) => m[1]!)));
      for (const n of Object.keys(glossary.namedPlaceholders ?? {})) if (!named.has(n)) stale.push(`{${n}}: no key uses it`);
      assert.deepEqual(stale, []);
    });

    it('no Japanese sentence ends with a half-width period or question mark; numbers are spaced from Japanese text, text placeholders are not', () => {
      const bad = japaneseStrings().flatMap(([file, key, value]) =>
        typographyProblems(value, file === 'l10n/bundle.l10n.ja.json' ? kindIn(key) : undefined).map((p) => {
          const hint = p.rule === 'unclassified' ? ' (the analysis of src/ cannot tell whether it holds a number or text: decide it in l10n/glossary.json "placeholders")' : p.rule === 'text-spacing' ? ' (a placeholder holding text takes no space beside Japanese text)' : '';
          return `${file}: ${key}: ${p.rule} at "${p.at}"${hint}`;
        }),
      );
      assert.deepEqual(bad, []);
    });
  });
});
