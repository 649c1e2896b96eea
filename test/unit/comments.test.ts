import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

// Comments, test names and recorded results say what and why in their own words: a
// reference to a numbered ticket, a ticket's numbered point or a section number of a
// page the reader of the code does not have tells that reader nothing. This test reads every text file of the folders below and names each
// line that carries such a reference.
const root = path.resolve(__dirname, '..', '..');
const FOLDERS = ['src', 'media', 'test', 'bench', 'scripts'];
const TEXT = /\.(ts|mts|cts|js|mjs|cjs|json|md|css|html|sh|svg|txt)$/;

/** The patterns, each with what it catches (written so that this file does not match them itself). */
const REFERENCES: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b[Ii]ssues? ?#?\d/, 'a numbered issue'],
  [/\u00a7/, 'a section sign'],
  [/\b(?:point|part|item)s? \d+ of (?:issue|the issue)/i, 'a numbered point of an issue'],
  [/\bpoint \d+ of\b/i, 'a numbered point of a page'],
  [/(?:\(|\b(?:see|fixes|closes|fixed in|from|in) )#\d+\b/i, 'a #number meaning a ticket'],
];

function textFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...textFiles(full));
    else if (entry.isFile() && TEXT.test(entry.name)) out.push(full);
  }
  return out;
}

/** Every line of the folders that carries a reference, as `path:line: what: text`. */
function trackerReferences(files: readonly string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      for (const [pattern, what] of REFERENCES) {
        if (pattern.test(line)) found.push(`${path.relative(root, file)}:${i + 1}: ${what}: ${line.trim().slice(0, 120)}`);
      }
    });
  }
  return found;
}

describe('comments stand alone', () => {
  it('no file of src, media, test, bench or scripts refers to a numbered issue, a section sign or a point of a page', () => {
    const files = FOLDERS.filter((f) => fs.existsSync(path.join(root, f))).flatMap((f) => textFiles(path.join(root, f)));
    assert.ok(files.length > 100, `only ${files.length} text files found under ${FOLDERS.join(', ')}`);
    const found = trackerReferences(files);
    assert.deepEqual(found, [], `say what and why instead:\n${found.join('\n')}`);
  });

  it('the patterns catch each kind of reference and leave ordinary text alone', () => {
    const catches = (text: string): boolean => REFERENCES.some(([p]) => p.test(text));
    const sign = String.fromCharCode(0xa7);
    for (const bad of [
      '// the table (iss' + 'ue 24)',
      '// Iss' + 'ues 3 and 4',
      '// see ' + '#12',
      '// (' + '#7)',
      `// official help ${sign}11`,
      '// Point ' + '9 of iss' + 'ue 22',
      '// point ' + '3 of the spec',
    ]) {
      assert.ok(catches(bad), bad);
    }
    for (const good of [
      '// request #2 is applied',
      'issueText(issue)',
      "// the issue's code",
      "color: '#123456'",
      '// item 122 was not found',
      '// 20 items of 1000',
    ]) {
      assert.ok(!catches(good), good);
    }
  });
});
