import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

// The extension activates on every JSON document, so its activation bundle must not
// load the heavy parts: the schemas (zod), the HTTP client (undici), the bulk engine
// and the sandbox live in dist/core.js and load on first use. This builds the two
// bundles as esbuild.js does, into a temporary directory, then activates the bundle
// with a stub vscode module in a fresh Node process and looks at what was loaded.
const ROOT = path.join(__dirname, '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { lazyModules } = require(path.join(ROOT, 'scripts', 'lazy-modules.js')) as { lazyModules: (buildCore: (entry: string) => Promise<unknown>) => esbuild.Plugin };

describe('activation: heavy modules load on first use', function () {
  this.timeout(120_000);
  let dir: string;
  let meta: esbuild.Metafile;
  let coreMeta: esbuild.Metafile | undefined;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wis-activation-'));
    const common: esbuild.BuildOptions = { bundle: true, format: 'cjs', platform: 'node', target: 'node20', logLevel: 'silent', mainFields: ['module', 'main'], metafile: true };
    const r = await esbuild.build({
      ...common,
      entryPoints: [path.join(ROOT, 'src', 'extension.ts')],
      outfile: path.join(dir, 'extension.js'),
      external: ['vscode'],
      plugins: [
        lazyModules(async (entry) => {
          const c = await esbuild.build({ ...common, stdin: { contents: entry, resolveDir: path.join(ROOT, 'src'), sourcefile: 'core-entry.ts', loader: 'ts' }, outfile: path.join(dir, 'core.js') });
          coreMeta = c.metafile;
        }),
      ],
    });
    meta = r.metafile!;
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('the activation bundle holds no zod, undici, schema, client, bulk engine or sandbox code; core.js does', () => {
    const inputs = (m: esbuild.Metafile) => Object.keys(Object.values(m.outputs).find((o) => o.entryPoint !== undefined || Object.keys(o.inputs).length > 0)!.inputs);
    const heavy = /node_modules\/(zod|undici)\/|src\/(schema|api|bulk|sandbox)\//;
    const inMain = inputs(meta).filter((f) => heavy.test(f) && !f.endsWith('src/schema/suffix.ts'));
    assert.deepEqual(inMain, []);
    assert.ok(coreMeta, 'core.js was built');
    const inCore = inputs(coreMeta);
    for (const want of [/node_modules\/zod\//, /node_modules\/undici\//, /src\/api\/client\.ts$/, /src\/bulk\/engine\.ts$/, /src\/sandbox\/server\.ts$/, /src\/schema\/api\.ts$/]) {
      assert.ok(inCore.some((f) => want.test(f)), `core.js holds ${String(want)}`);
    }
  });

  it('requiring the bundle and activate() load nothing of core.js; first use loads it', () => {
    const child = path.join(ROOT, 'scripts', 'activation-child.cjs');
    const r = spawnSync(process.execPath, [child, path.join(dir, 'extension.js')], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { loadedByRequire: string[]; loadedByActivate: string[]; registered: number };
    assert.deepEqual(out.loadedByRequire, []);
    assert.deepEqual(out.loadedByActivate, []);
    assert.ok(out.registered > 20, `activation registered its views, commands and providers (${out.registered} calls)`);
    // First use through the activation bundle's own import of the client reaches core.js.
    const probe = `
      const Module = require('node:module');
      const load = Module._load;
      Module._load = function (request, parent, isMain) { return request === 'vscode' ? new Proxy({}, { get: () => new Proxy(function () {}, { get: () => () => ({}), apply: () => ({}) }) }) : load.call(this, request, parent, isMain); };
      const core = require(${JSON.stringify(path.join(dir, 'core.js'))});
      const names = Object.keys(core);
      process.stdout.write(JSON.stringify({ names, client: typeof core['api/client.ts'].ServiceClient, document: typeof core['schema/document.ts'].validateRequestDocument }));
    `;
    const p = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(p.status, 0, p.stderr);
    const got = JSON.parse(p.stdout) as { names: string[]; client: string; document: string };
    assert.equal(got.client, 'function');
    assert.equal(got.document, 'function');
    assert.ok(got.names.includes('bulk/index.ts') && got.names.includes('sandbox/index.ts'), got.names.join(', '));
  });
});
