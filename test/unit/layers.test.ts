import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

// The layer order of src/, as data (like VS Code's own layering rule): a list of
// layers, bottom first; every folder sits in one layer. A file may import from its own
// folder and from the layers below its own, never upwards. The feature folders share
// one layer and may not import each other: what one needs of another is passed in by
// src/extension.ts (the only file above them). Besides, no two folders may import each
// other, directly or round a longer cycle: the folder import graph has no strongly
// connected component of more than one folder (the vscode-free model folders count as
// folders of their own there, so a model never imports its feature's vscode code).
// The `web/` folders hold the webviews' page scripts: browser code, in the layer of the folder
// they are in, vscode-free, importing no package and no Node module, and imported by no code of
// the extension (esbuild.js bundles them on their own for the browser).

interface Layer {
  name: string;
  /** Folders (or single files) of this layer, relative to the repository. */
  folders: readonly string[];
  /** The folders of this layer may not import each other (the features). */
  separate?: boolean;
}

export const LAYERS: readonly Layer[] = [
  { name: 'document schema', folders: ['src/schema'] },
  { name: 'service client', folders: ['src/api'] },
  { name: 'bulk engine', folders: ['src/bulk'] },
  { name: 'sandbox', folders: ['src/sandbox'] },
  { name: 'table model', folders: ['src/table/model'] },
  // What the layers below offer the ones above as values, loaded on first use (src/core/load.ts).
  { name: 'core entry', folders: ['src/core'] },
  { name: 'shared models', folders: ['src/common/model', 'src/webview'] },
  { name: 'shared', folders: ['src/common'] },
  { name: 'tree toolkit', folders: ['src/views'] },
  {
    name: 'features',
    folders: ['src/connection', 'src/organizations', 'src/processCategories', 'src/people', 'src/workItems', 'src/editors', 'src/changes', 'src/table', 'src/forms', 'src/templates', 'src/agentTools'],
    separate: true,
  },
  { name: 'activation', folders: ['src/extension.ts'] },
];

// Folders and files that never import vscode: they run in plain Node (unit tests, the
// sandbox CLI, benches) and import only each other (and packages).
export const VSCODE_FREE: readonly string[] = [
  'src/schema',
  'src/api',
  'src/bulk',
  'src/sandbox',
  'src/core',
  'src/webview',
  'src/common/model',
  'src/common/sharedAttempt.ts',
  'src/common/unknownChoice.ts',
  'src/common/serviceUrl.ts',
  'src/views/model',
  'src/table/protocol.ts',
  'src/table/web',
  'src/changes/web',
  'src/changes/results/web',
  'src/editors/model',
  'src/changes/results/column.ts',
  'src/changes/model',
  'src/changes/previewStore.ts',
  'src/workItems/model',
  'src/organizations/model',
  'src/table/model',
  'src/forms/model',
  'src/templates/model',
  'src/agentTools/model',
  'src/people/model.ts',
  'src/people/read.ts',
];

const ROOT = path.resolve(__dirname, '..', '..');

function filesUnder(dir: string): string[] {
  const abs = path.join(ROOT, dir);
  if (!fs.existsSync(abs)) return [];
  if (fs.statSync(abs).isFile()) return [dir];
  return fs.readdirSync(abs, { withFileTypes: true }).flatMap((e) => {
    const p = path.posix.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** The source file (relative, posix) an import specifier of `from` names, or undefined for a package. */
function resolveImport(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  for (const f of [`${base}.ts`, `${base}/index.ts`, base]) if (fs.existsSync(path.join(ROOT, f)) && fs.statSync(path.join(ROOT, f)).isFile()) return f;
  return base;
}

/** Every import of a source file (static, dynamic, re-exports, `import type` included: a type is a dependency too). */
function importsOf(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return [...code.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]!);
}

export interface FileImport {
  from: string;
  to: string;
}

/** The relative imports of the sources under `roots` (files relative to the repository, posix). */
export function sourceImports(roots: readonly string[] = ['src']): FileImport[] {
  return roots.flatMap(filesUnder).flatMap((from) =>
    importsOf(fs.readFileSync(path.join(ROOT, from), 'utf8'))
      .map((spec) => resolveImport(from, spec))
      .filter((to): to is string => to !== undefined)
      .map((to) => ({ from, to })),
  );
}

/** The longest of `units` that holds `file` (a folder holds what is under it; a file entry holds itself). */
function unitOf(file: string, units: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const u of units) if ((file === u || file.startsWith(`${u}/`)) && (!best || u.length > best.length)) best = u;
  return best;
}

const LAYER_FOLDERS = LAYERS.flatMap((l) => l.folders);
const layerIndex = (folder: string): number => LAYERS.findIndex((l) => l.folders.includes(folder));

/** Imports that run against the layer order: upwards, between features, or from a file in no layer. */
export function layerViolations(imports: readonly FileImport[], layers: readonly Layer[] = LAYERS): string[] {
  const folders = layers.flatMap((l) => l.folders);
  const index = (f: string): number => layers.findIndex((l) => l.folders.includes(f));
  const out: string[] = [];
  for (const { from, to } of imports) {
    const a = unitOf(from, folders);
    const b = unitOf(to, folders);
    if (!a) {
      out.push(`${from}: in no layer (add its folder to LAYERS)`);
      continue;
    }
    if (!b || a === b) continue;
    const [i, j] = [index(a), index(b)];
    if (j > i) out.push(`${from} -> ${to}: ${layers[i]!.name} imports the higher layer ${layers[j]!.name}`);
    else if (i === j && layers[i]!.separate) out.push(`${from} -> ${to}: ${a} and ${b} are separate (pass it in from src/extension.ts)`);
  }
  return [...new Set(out)];
}

/** The folder import graph: an edge for every import from a file of one unit to a file of another. */
export function folderGraph(imports: readonly FileImport[], units: readonly string[]): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const { from, to } of imports) {
    const a = unitOf(from, units);
    const b = unitOf(to, units);
    if (!a || !b || a === b) continue;
    if (!graph.has(a)) graph.set(a, new Set());
    graph.get(a)!.add(b);
  }
  return graph;
}

/** The strongly connected components of more than one node (Tarjan): each is a cycle between folders. */
export function cycles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const nodes = [...new Set([...graph.keys(), ...[...graph.values()].flatMap((s) => [...s])])].sort();
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of [...(graph.get(v) ?? [])].sort()) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const v of nodes) if (!index.has(v)) visit(v);
  return out;
}

/** One line per cycle, with one import that makes each of its edges. */
function describeCycles(found: string[][], imports: readonly FileImport[], units: readonly string[]): string {
  return found
    .map((scc) => {
      const edges = imports.filter(({ from, to }) => {
        const a = unitOf(from, units);
        const b = unitOf(to, units);
        return a && b && a !== b && scc.includes(a) && scc.includes(b);
      });
      const seen = new Map<string, string>();
      for (const e of edges) seen.set(`${unitOf(e.from, units)} -> ${unitOf(e.to, units)}`, `${e.from} -> ${e.to}`);
      return `cycle ${scc.join(' ↔ ')}: ${[...seen.values()].join('; ')}`;
    })
    .join('\n');
}

/** The units of the cycle check: the layer folders, and the vscode-free folders inside them as folders of their own. */
const CYCLE_UNITS = [...new Set([...LAYER_FOLDERS, ...VSCODE_FREE.filter((f) => !f.endsWith('.ts'))])];

/** The folders of the webviews' page scripts. */
export const WEB_FOLDERS: readonly string[] = ['src/webview/web', 'src/table/web', 'src/changes/web', 'src/changes/results/web'];
const inWeb = (f: string): boolean => WEB_FOLDERS.some((w) => f === w || f.startsWith(`${w}/`));

/** Every import specifier of the sources under `roots`, relative or not. */
function specifiersOf(roots: readonly string[]): { from: string; spec: string }[] {
  return roots.flatMap(filesUnder).flatMap((from) => importsOf(fs.readFileSync(path.join(ROOT, from), 'utf8')).map((spec) => ({ from, spec })));
}

const VSCODE_IMPORT = /from\s+['"]vscode['"]|require\(\s*['"]vscode['"]\s*\)|import\(\s*['"]vscode['"]\s*\)/;

describe('module boundaries', () => {
  const imports = sourceImports();

  it('every folder of src/ is in exactly one layer', () => {
    const dupes = LAYER_FOLDERS.filter((f, i) => LAYER_FOLDERS.indexOf(f) !== i);
    assert.deepEqual(dupes, []);
    const outside = filesUnder('src').filter((f) => !unitOf(f, LAYER_FOLDERS));
    assert.deepEqual(outside, [], 'a new folder needs its place in LAYERS');
    assert.ok(LAYER_FOLDERS.every((f) => layerIndex(f) >= 0));
  });

  it('imports run only downwards or within a folder, and features do not import each other', () => {
    assert.deepEqual(layerViolations(imports), []);
  });

  it('no cycle between folders (strongly connected components of the folder import graph)', () => {
    const found = cycles(folderGraph(imports, CYCLE_UNITS));
    assert.deepEqual(found, [], describeCycles(found, imports, CYCLE_UNITS));
  });

  for (const unit of VSCODE_FREE) {
    it(`${unit} does not import vscode, and imports only vscode-free code`, () => {
      const files = filesUnder(unit);
      assert.ok(files.length > 0, `${unit} does not exist: update VSCODE_FREE`);
      const offenders = files.filter((f) => VSCODE_IMPORT.test(fs.readFileSync(path.join(ROOT, f), 'utf8')));
      assert.deepEqual(offenders, [], `vscode imported in ${offenders.join(', ')}`);
      const impure = imports.filter(({ from, to }) => files.includes(from) && to.startsWith('src/') && !unitOf(to, VSCODE_FREE)).map(({ from, to }) => `${from} -> ${to}`);
      assert.deepEqual(impure, [], 'a vscode-free file imports code that may import vscode');
    });
  }

  it('the web/ folders (page scripts) import no package or Node module, and no code of the extension imports them', () => {
    const webFiles = WEB_FOLDERS.flatMap(filesUnder);
    assert.ok(webFiles.length >= 10, webFiles.join(', '));
    for (const w of WEB_FOLDERS) assert.ok(filesUnder(w).length > 0, `${w} does not exist: update WEB_FOLDERS`);
    const packages = specifiersOf(WEB_FOLDERS).filter(({ spec }) => !spec.startsWith('.')).map(({ from, spec }) => `${from} -> ${spec}`);
    assert.deepEqual(packages, [], 'a page script imports a package or a Node module');
    const intoWeb = imports.filter(({ from, to }) => !inWeb(from) && inWeb(to)).map(({ from, to }) => `${from} -> ${to}`);
    assert.deepEqual(intoWeb, [], 'extension code imports a page script (it would bring the DOM into the extension)');
    const webOut = new Set(imports.filter(({ from, to }) => inWeb(from) && !inWeb(to)).map(({ to }) => to));
    assert.ok([...webOut].every((to) => /(^|\/)(protocol|resultProtocol|values)\.ts$/.test(to)), `page scripts import of the extension only its protocols and value formatting: ${[...webOut].join(', ')}`);
  });

  describe('the checker itself', () => {
    it('reports a cycle deliberately added between two folders (an in-memory graph)', () => {
      const units = ['src/a', 'src/b', 'src/c'];
      const added = [
        { from: 'src/a/x.ts', to: 'src/b/y.ts' },
        { from: 'src/b/y.ts', to: 'src/c/z.ts' },
        { from: 'src/c/z.ts', to: 'src/a/index.ts' },
      ];
      assert.deepEqual(cycles(folderGraph(added.slice(0, 2), units)), [], 'a chain is no cycle');
      assert.deepEqual(cycles(folderGraph(added, units)), [['src/a', 'src/b', 'src/c']]);
    });

    it('reports the cycle the real sources get when a deliberate import back is added (editors/model -> changes/model -> editors/model)', () => {
      const withCycle = [...imports, { from: 'src/editors/model/insert.ts', to: 'src/changes/model/results.ts' }, { from: 'src/changes/model/results.ts', to: 'src/editors/model/insert.ts' }];
      const found = cycles(folderGraph(withCycle, CYCLE_UNITS));
      assert.ok(
        found.some((scc) => scc.includes('src/changes/model') && scc.includes('src/editors/model')),
        JSON.stringify(found),
      );
      assert.notDeepEqual(layerViolations(withCycle), [], 'the same imports cross between features');
    });

    it('reports an upward import and an import between features', () => {
      const bad = [
        { from: 'src/api/reads.ts', to: 'src/bulk/pacer.ts' },
        { from: 'src/people/index.ts', to: 'src/editors/requestDocument.ts' },
        { from: 'src/changes/jobs/running.ts', to: 'src/people/directory.ts' },
      ];
      const v = layerViolations(bad);
      assert.equal(v.length, 3, v.join('\n'));
      assert.match(v[0]!, /service client imports the higher layer bulk engine/);
      assert.match(v[1]!, /src\/people and src\/editors are separate/);
    });

    it('finds the imports of the sources (static, type-only, dynamic, re-export)', () => {
      assert.deepEqual(importsOf("import type { A } from './a';\nexport * from '../b';\nconst c = await import('./c');\n// import x from './no'\nimport './side';"), ['./a', '../b', './c', './side']);
    });
  });
});
