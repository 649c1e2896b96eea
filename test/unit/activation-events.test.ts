import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

// Opening (or restoring) a request document must activate the extension: its
// CodeLens, checks and the offer to resume unfinished update jobs come from it.
// Commands and views alone do not activate it when only the editor is used.
describe('manifest: activation on request documents', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
    activationEvents?: string[];
    contributes?: { jsonValidation?: { fileMatch: string | string[] }[] };
  };

  it('activates when a JSON document opens (request documents are JSON)', () => {
    assert.ok(manifest.activationEvents?.includes('onLanguage:json'), `activationEvents: ${JSON.stringify(manifest.activationEvents)}`);
  });

  it('the request documents it activates for are the ones it validates', () => {
    const matches = (manifest.contributes?.jsonValidation ?? []).flatMap((v) => (Array.isArray(v.fileMatch) ? v.fileMatch : [v.fileMatch]));
    assert.ok(matches.includes('*.workitems.json'));
  });
});
