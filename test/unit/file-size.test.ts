import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

// A source file holds one subject that a reader can take in: at most 600 lines. A file that
// grows past it is split along a seam (a cohesive group of functions moved into a module of
// its own), not trimmed by joining lines.
const root = path.resolve(__dirname, '..', '..');
const MAX_LINES = 600;
const FOLDERS = ['src', 'media'];
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs|css|html)$/;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (entry.isFile() && SOURCE.test(entry.name)) out.push(full);
  }
  return out;
}

/** Lines as `wc -l` counts them (a last line without a newline counts too). */
function lineCount(text: string): number {
  if (text.length === 0) return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}

describe('source files stay short', () => {
  it(`no source file of ${FOLDERS.join(' or ')} has more than ${MAX_LINES} lines`, () => {
    const files = FOLDERS.flatMap((f) => sourceFiles(path.join(root, f)));
    assert.ok(
      files.some((f) => f.endsWith(path.join('src', 'extension.ts'))),
      'src/extension.ts is among the files read',
    );
    const long = files
      .map((f) => ({ file: path.relative(root, f), lines: lineCount(fs.readFileSync(f, 'utf8')) }))
      .filter((f) => f.lines > MAX_LINES)
      .map((f) => `${f.file}: ${f.lines} lines`);
    assert.deepEqual(long, [], `split these along a seam:\n${long.join('\n')}`);
  });

  it('counts lines as wc -l does', () => {
    assert.equal(lineCount(''), 0);
    assert.equal(lineCount('a\n'), 1);
    assert.equal(lineCount('a\nb'), 2);
    assert.equal(lineCount('a\n\nb\n'), 3);
  });
});
