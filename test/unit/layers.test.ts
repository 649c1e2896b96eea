import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

// The vscode-free layers must never import vscode: they run in plain Node (tests,
// the sandbox CLI) and are shared by client and sandbox.
const LAYERS = ['src/schema', 'src/api', 'src/bulk', 'src/sandbox', 'src/workItems/model', 'src/organizations/model', 'src/views/model', 'src/table/model'];

// Feature folders hold their tree, model and commands and are registered from one
// `register*` function (src/extension.ts calls them). The shared layers below them
// (src/common, the tree toolkit in src/views) never import a feature.
const FEATURES = ['src/connection', 'src/organizations', 'src/processCategories', 'src/workItems', 'src/people', 'src/editors', 'src/changes'];
const SHARED = ['src/common', 'src/views'];

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
  /** Relative imports of the files under `dir` that resolve into one of `targets`. */
  const importsInto = (dir: string, targets: readonly string[]): string[] =>
    filesUnder(dir).flatMap((f) =>
      [...fs.readFileSync(f, 'utf8').matchAll(/from\s+['"](\.[^'"]*)['"]/g)]
        .map((m) => path.resolve(path.dirname(f), m[1]!))
        .filter((to) => targets.some((t) => to === path.resolve(t) || to.startsWith(`${path.resolve(t)}${path.sep}`)))
        .map((to) => `${f} -> ${path.relative(process.cwd(), to)}`),
    );
  for (const dir of SHARED) {
    it(`${dir} does not import a feature`, () => {
      assert.deepEqual(importsInto(dir, FEATURES), []);
    });
  }
});
