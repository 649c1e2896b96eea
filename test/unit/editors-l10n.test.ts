import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ERROR_CODES } from '../../src/schema/error-codes';

// The editor shows request-document problems in the display language
// (src/editors/requestDocument.ts issueText): every template of a code the
// client's checks produce has a Japanese translation with the same placeholders.
describe('editors: request-document problems are translated', () => {
  const bundle = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'l10n', 'bundle.l10n.ja.json'), 'utf8')) as Record<string, string>;
  const placeholders = (s: string): string[] => [...new Set(s.match(/\{\w+\}/g) ?? [])].sort();

  for (const [code, info] of Object.entries(ERROR_CODES)) {
    if (!(info.producedBy as readonly string[]).includes('client')) continue;
    it(`${code} has Japanese text with the same placeholders`, () => {
      const ja = bundle[info.message];
      assert.equal(typeof ja, 'string', `no Japanese for "${info.message}" in l10n/bundle.l10n.ja.json`);
      assert.deepEqual(placeholders(ja), placeholders(info.message));
    });
  }
});
