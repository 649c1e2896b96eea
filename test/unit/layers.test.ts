import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

// The vscode-free layers must never import vscode: they run in plain Node (tests,
// the sandbox CLI) and are shared by client and sandbox.
const LAYERS = ['src/schema', 'src/api', 'src/bulk', 'src/sandbox', 'src/workItems/model'];

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('module boundaries', () => {
  for (const layer of LAYERS) {
    it(`${layer} does not import vscode`, () => {
      const offenders = filesUnder(layer).filter((f) =>
        /from\s+['"]vscode['"]|require\(\s*['"]vscode['"]\s*\)|import\(\s*['"]vscode['"]\s*\)/.test(fs.readFileSync(f, 'utf8')),
      );
      assert.deepEqual(offenders, [], `vscode imported in ${offenders.join(', ')}`);
    });
  }
});
