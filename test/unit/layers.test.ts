import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

// The vscode-free layers must never import vscode: they run in plain Node (tests,
// the sandbox CLI) and are shared by client and sandbox.
const LAYERS = ['src/schema', 'src/api', 'src/bulk', 'src/sandbox', 'src/workItems/model', 'src/organizations/model', 'src/views/model'];

// Feature folders hold their tree, model and commands and are registered from one
// `register*` function; the shared tree toolkit (src/views) and these features never
// reach up into src/commands (the registration of the older request-document commands).
const NOT_INTO_COMMANDS = ['src/views', 'src/organizations', 'src/processCategories', 'src/people'];

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
  for (const dir of NOT_INTO_COMMANDS) {
    it(`${dir} does not import from src/commands`, () => {
      const offenders = filesUnder(dir).filter((f) => {
        const text = fs.readFileSync(f, 'utf8');
        return [...text.matchAll(/from\s+['"](\.[^'"]*)['"]/g)].some((m) => path.resolve(path.dirname(f), m[1]!).startsWith(path.resolve('src/commands')));
      });
      assert.deepEqual(offenders, [], `src/commands imported in ${offenders.join(', ')}`);
    });
  }
  it('the shared tree toolkit (src/views) does not import a feature', () => {
    const features = ['src/organizations', 'src/processCategories', 'src/workItems', 'src/people', 'src/editors', 'src/changes'].map((d) => path.resolve(d));
    const offenders = filesUnder('src/views').filter((f) =>
      [...fs.readFileSync(f, 'utf8').matchAll(/from\s+['"](\.[^'"]*)['"]/g)].some((m) => features.some((d) => path.resolve(path.dirname(f), m[1]!).startsWith(d))),
    );
    assert.deepEqual(offenders, [], `a feature imported in ${offenders.join(', ')}`);
  });
});
