import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import type { JobResult } from '../../src/bulk/types';
import type { UndoKind } from '../../src/bulk/undo';
import { analysePlaceholders, type Classified } from './l10n-placeholders';
import { edgesOf, kindOf, placeholderKinds, spacingProblems, type Decisions } from './l10n-spacing';

// Japanese messages composed from parts read as Japanese: the real wording helpers
// (src/common/wording.ts, src/common/changeStrings.ts) run with vscode.l10n.t answering from
// l10n/bundle.l10n.ja.json, and their results go into the sentences that hold them, as the
// code composes them. A placeholder holding words takes its particles directly
// ("3 件のスケジュールを元に戻します", not "3 件 の スケジュール を"), and a number keeps its
// half-width space ("6:41:00 に 3 件を").

const root = path.resolve(__dirname, '..', '..');
const ja = JSON.parse(fs.readFileSync(path.join(root, 'l10n/bundle.l10n.ja.json'), 'utf8')) as Record<string, string>;
const glossary = JSON.parse(fs.readFileSync(path.join(root, 'l10n/glossary.json'), 'utf8')) as Decisions;

function fill(template: string, args: Record<string, unknown> | unknown[]): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const v = (args as Record<string, unknown>)[name];
    return v === undefined ? whole : String(v);
  });
}

/** vscode.l10n.t with the Japanese bundle: t('key', ...args), t('key', { name }) and t({ message, args }). */
function t(...a: unknown[]): string {
  if (typeof a[0] === 'object' && a[0] !== null) {
    const { message, args } = a[0] as { message: string; args?: Record<string, unknown> | unknown[] };
    return fill(ja[message] ?? message, args ?? []);
  }
  const [message, ...rest] = a as [string, ...unknown[]];
  const args = rest.length === 1 && typeof rest[0] === 'object' && rest[0] !== null && !Array.isArray(rest[0]) ? (rest[0] as Record<string, unknown>) : rest;
  return fill(ja[message] ?? message, args);
}

const PARTICLES = ['の', 'を', 'に', 'が', 'は', 'で', 'と', 'へ', 'から', 'まで', 'も'];

/** A composed word, then a space, then a particle ("件 の", "スケジュール を"): a text placeholder spaced like a number. */
function spacedParticles(text: string, words: readonly string[]): string[] {
  // Only right after a composed part: the bundle's own "{0} 件の" is a number and its counter.
  return words.flatMap((w) => PARTICLES.filter((p) => text.includes(`${w} ${p}`)).map((p) => `"${w} ${p}" in ${text}`));
}

describe('composed Japanese messages read as Japanese (wording helpers with the ja bundle)', () => {
  let wording: typeof import('../../src/common/wording');
  let changeStrings: typeof import('../../src/common/changeStrings');
  const modules = ['../../src/common/wording', '../../src/common/changeStrings'].map((m) => require.resolve(m));
  const load = (Module as unknown as { _load: (request: string, parent: unknown, isMain: boolean) => unknown })._load;

  before(() => {
    for (const m of modules) delete require.cache[m];
    (Module as unknown as { _load: typeof load })._load = function (request, parent, isMain) {
      return request === 'vscode' ? { l10n: { t } } : load.call(this, request, parent, isMain);
    };
    wording = require('../../src/common/wording') as typeof wording;
    changeStrings = require('../../src/common/changeStrings') as typeof changeStrings;
  });

  after(() => {
    (Module as unknown as { _load: typeof load })._load = load;
    for (const m of modules) delete require.cache[m];
  });

  it('the undo summary: "3 件のスケジュールを元に戻します" (src/changes/undoCommand.ts summaryStrings().document)', () => {
    const line = t('puts back the {0} of {1}', changeStrings.undoKindText('schedule'), wording.itemsText(3));
    assert.equal(line, '3 件のスケジュールを元に戻します');
    assert.equal(spacedParticles('3 件 の スケジュール を元に戻します', ['3 件', 'スケジュール']).length, 2, 'the check sees the old spacing');
    assert.equal(t('puts back the {0} of {1}', changeStrings.undoKindText('fields'), wording.itemsText(1)), '1 件のフィールドの値を元に戻します');
    const kinds: UndoKind[] = ['lock', 'calc-types', 'assignments', 'schedule', 'fields', 'item-type', 'parent'];
    for (const kind of kinds) {
      const word = changeStrings.undoKindText(kind);
      assert.match(word, /[\u3040-\u30ff\u3400-\u9fff]/, `${kind} is translated`);
      const doc = t('puts back the {0}', word);
      assert.deepEqual([...spacedParticles(doc, [word]), ...spacingProblems(doc).map((p) => p.at)], [], doc);
      assert.equal(doc, `${word}を元に戻します`);
    }
  });

  it('counts in sentences: "6:41:00 に 3 件を 1 リクエストで読み取りました" (src/changes/previewView.ts)', () => {
    const read = t('Read {0} with {1} at {2}. Nothing has been sent.', wording.itemsText(3), wording.requestsText(1), '6:41:00');
    assert.equal(read, '6:41:00 に 3 件を 1 リクエストで読み取りました。まだ何も送信していません。');
    const drift = t('{0} changed since the previous preview; these are the values now.', wording.itemsText(2));
    assert.equal(drift, '前回のプレビュー以降に 2 件が変更されました。表示しているのは現在の値です。');
    for (const s of [read, drift]) assert.deepEqual(spacingProblems(s), [], s);
  });

  it('the notification after a run (src/common/wording.ts outcomeMessage) has no spaced particle and no number run into a word', () => {
    const byState = (succeeded: number, failed: number, unknown: number, pending: number) => ({ succeeded, failed, unknown, cancelled: 0, pending });
    const result = (outcome: string, items: ReturnType<typeof byState>, requests: ReturnType<typeof byState>) =>
      ({ outcome, totals: { requests: 9, items: 40, requestsByState: requests, itemsByState: items } }) as unknown as JobResult;
    const label = t('Sandbox (this window)');
    const texts = [
      wording.outcomeMessage(result('succeeded', byState(5, 0, 0, 0), byState(1, 0, 0, 0)), label).text,
      wording.outcomeMessage(result('failed', byState(5, 3, 2, 4), byState(2, 1, 1, 1)), label).text,
      wording.outcomeMessage(result('cancelled', byState(1, 0, 0, 4), byState(1, 0, 0, 2)), label).text,
    ];
    // A service label is a word (a profile's name such as 本番, the sandbox's name): particles attach to it.
    assert.equal(texts[0], 'このウィンドウのサンドボックスの作業項目 5 件を更新しました。');
    for (const s of texts) {
      assert.deepEqual(spacedParticles(s, ['件', 'リクエスト']), [], s);
      assert.deepEqual(spacingProblems(s), [], s);
      assert.ok(!/[A-Za-z]{3,}/.test(s.replace(label, '')), `English in ${s}`);
    }
  });

  it('every message of the bundle, filled as its placeholders hold (number, text, count), has no spaced particle after a composed word', function () {
    this.timeout(180000); // the analysis of src/ (shared with l10n-glossary.test.ts when run together)
    const kinds = placeholderKinds(analysePlaceholders(), glossary, ja);
    const samples: Record<Exclude<Classified, 'unknown'>, string> = { number: '12', text: 'スケジュール', count: wording.itemsText(3), 'text-number': t('Sandbox (this window)') };
    const bad: string[] = [];
    let filled = 0;
    for (const [key, template] of Object.entries(ja)) {
      if (!/\{\w+\}/.test(template)) continue;
      const words: string[] = [];
      const startsWithWord: string[] = [];
      const text = template.replace(/\{\w+\}/g, (p) => {
        const kind = kindOf(p, kinds.get(key), glossary);
        const sample = samples[kind === 'unknown' ? 'number' : kind];
        if (kind !== 'unknown' && edgesOf(kind)[1] === 'text') words.push(sample);
        if (kind !== 'unknown' && edgesOf(kind)[0] === 'text') startsWithWord.push(sample);
        return sample;
      });
      filled++;
      bad.push(...spacedParticles(text, [...new Set(words)]).map((p) => `${key}: ${p}`));
      // And before it: "を スケジュール" is as wrong as "スケジュール を".
      for (const w of new Set(startsWithWord)) for (const p of PARTICLES) if (text.includes(`${p} ${w}`)) bad.push(`${key}: "${p} ${w}" in ${text}`);
      for (const p of spacingProblems(text)) bad.push(`${key}: number run into Japanese at "${p.at}" in ${text}`);
    }
    assert.ok(filled > 300, `only ${filled} messages filled`);
    assert.deepEqual(bad, []);
  });
});
