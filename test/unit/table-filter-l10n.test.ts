// The filter's messages in the UI's language: every code of the model (FILTER_MESSAGES)
// is worded by src/table/filterBar.ts through vscode.l10n.t with the model's English as
// the key, and has a Japanese translation; the Japanese message keeps the field as typed.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FILTER_MESSAGES, type FilterContext, compileFilterText } from '../../src/table/model';
import { COLUMNS, TODAY, resolveUser, userName } from './table-fixtures';

const root = path.resolve(__dirname, '..', '..');
const ja = JSON.parse(fs.readFileSync(path.join(root, 'l10n/bundle.l10n.ja.json'), 'utf8')) as Record<string, string>;
const en = JSON.parse(fs.readFileSync(path.join(root, 'l10n/bundle.l10n.json'), 'utf8')) as Record<string, string>;
const filterBar = fs.readFileSync(path.join(root, 'src/table/filterBar.ts'), 'utf8');
const ctx: FilterContext = { columns: COLUMNS, today: TODAY, resolveUser, userName };

/** The Japanese message the bar shows for a text's first error (filterBar.ts filterErrorText with the ja bundle). */
function japaneseError(text: string): string {
  const f = compileFilterText(text, ctx);
  assert.equal(f.ok, false);
  const e = f.errors![0]!;
  const fill = (t: string, params: readonly (string | number)[]) => t.replace(/\{(\d)\}/g, (_m, i: string) => String(params[Number(i)]));
  return fill(ja['{0} (at column {1})']!, [fill(ja[FILTER_MESSAGES[e.code]]!, e.params), e.start + 1]);
}

describe('table filters: messages in the UI language', () => {
  it('every code of the model is worded by the filter bar with the same English key, in both bundles', () => {
    for (const [code, english] of Object.entries(FILTER_MESSAGES)) {
      assert.ok(filterBar.includes(`vscode.l10n.t('${english}'`), `${code}: filterBar.ts has no vscode.l10n.t('${english}'`);
      assert.ok(ja[english], `${code}: no Japanese for ${english}`);
      assert.equal(en[english], english, `${code}: not in l10n/bundle.l10n.json`);
    }
    assert.ok(ja['{0} (at column {1})']);
  });

  it('the Japanese UI shows 「進捗<」の後に値がありません (列 4), keeping the field as typed', () => {
    assert.equal(japaneseError('進捗<'), '「進捗<」の後に値がありません (列 4)');
    assert.equal(japaneseError('progress<abc'), 'progressには数値を書きます。「abc」は数値ではありません (列 1)');
    assert.equal(japaneseError('(status:完了'), 'ここで開いたかっこが閉じていません (列 1)');
    assert.equal(japaneseError('優先度:最高'), '優先度に選択肢「最高」はありません (列 1)');
  });
});
