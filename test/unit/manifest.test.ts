import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REQUEST_DOCUMENT_SUFFIX } from '../../src/schema/document';

// The manifest's when-clauses agree with the code about which files are request documents.
const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8'));

function whenClauses(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => whenClauses(v, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'when' && typeof v === 'string') out.push(v);
      else whenClauses(v, out);
    }
  }
  return out;
}

describe('manifest: request document when-clauses', () => {
  const clauses = whenClauses(manifest.contributes).filter((w) => w.includes('workitems'));
  const regexes = clauses.map((w) => {
    const m = /resourceFilename =~ \/(.+)\/([a-z]*)/.exec(w);
    assert.ok(m, `unexpected clause: ${w}`);
    return new RegExp(m[1]!, m[2]);
  });

  it('the send, preview and key binding entries exist', () => {
    assert.ok(regexes.length >= 5, `only ${regexes.length} clauses name request documents`);
  });

  it('match request documents whatever the case of the suffix, as the editor does', () => {
    for (const name of [`plan${REQUEST_DOCUMENT_SUFFIX}`, 'Plan.WorkItems.json', 'SPRINT.WORKITEMS.JSON']) {
      for (const r of regexes) assert.ok(r.test(name), `${r} does not match ${name}`);
    }
  });

  it('do not match other JSON files', () => {
    for (const name of ['package.json', 'workitems.json', 'a.workitems.json.bak']) {
      for (const r of regexes) assert.ok(!r.test(name), `${r} matches ${name}`);
    }
  });
});
