import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

// The extension activates on every JSON document, so its activation bundle must not
// load the heavy parts: the schemas (zod), the HTTP client (undici), the bulk engine,
// the sandbox and the table's model are the core (src/core/index.ts), bundled into
// dist/core.js and read on the first call of `core()` (src/core/load.ts). This builds the
// two bundles as esbuild.js does, into a temporary directory, looks at what each holds,
// then activates the bundle with a stub vscode module in a fresh Node process and looks
// at what was loaded.
const ROOT = path.join(__dirname, '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const build = require(path.join(ROOT, 'esbuild.js')) as { common: esbuild.BuildOptions; bundles: (outdir: string) => esbuild.BuildOptions[] };

/** The source folders of the core (and the packages only it may hold). */
const HEAVY = /^src\/(schema|api|bulk|sandbox|table\/model)\/|^src\/core\/index\.ts$|node_modules\/(zod|undici)\//;
/** Modules of those folders the activation bundle may hold: constants, no imports (a module in both bundles exists twice). */
const LIGHT = new Set(['src/schema/suffix.ts']);

describe('activation: the core loads on first use', function () {
  this.timeout(120_000);
  let dir: string;
  let main: esbuild.Metafile;
  let core: esbuild.Metafile;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wis-activation-'));
    const [extension, coreBundle] = build.bundles(dir);
    const metaOf = async (o: esbuild.BuildOptions): Promise<esbuild.Metafile> =>
      (await esbuild.build({ ...build.common, ...o, sourcemap: false, logLevel: 'silent', metafile: true, absWorkingDir: ROOT })).metafile!;
    [main, core] = await Promise.all([metaOf(extension!), metaOf(coreBundle!)]);
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const inputsOf = (m: esbuild.Metafile): string[] => Object.keys(m.inputs);

  it('the activation bundle holds no zod, undici, schema, client, bulk engine, sandbox or table model code; core.js does', () => {
    // Each heavy module the activation bundle holds, with the light module that imports it as a value.
    const wrong = inputsOf(main)
      .filter((f) => HEAVY.test(f) && !LIGHT.has(f))
      .map((f) => {
        const by = Object.entries(main.inputs)
          .filter(([from, i]) => !HEAVY.test(from) && i.imports.some((x) => x.path === f))
          .map(([from]) => from);
        return `${f} (imported by ${by.join(', ') || 'a module of the core'}: import its types with \`import type\` and its values through core())`;
      });
    assert.deepEqual(wrong, []);
    const inCore = inputsOf(core);
    for (const want of [
      /node_modules\/zod\//,
      /node_modules\/undici\//,
      /src\/api\/client\.ts$/,
      /src\/bulk\/engine\.ts$/,
      /src\/sandbox\/server\.ts$/,
      /src\/schema\/api\.ts$/,
      /src\/table\/model\/filter\.ts$/,
    ]) {
      assert.ok(
        inCore.some((f) => want.test(f)),
        `core.js holds ${String(want)}`,
      );
    }
  });

  it('no source module is in both bundles (it would exist twice: two classes, two states)', () => {
    const inCore = new Set(inputsOf(core));
    assert.deepEqual(
      inputsOf(main).filter((f) => f.startsWith('src/') && inCore.has(f) && !LIGHT.has(f)),
      [],
    );
  });

  it('the activation bundle reaches core.js only through src/core/load.ts, as a require', () => {
    const reaching = Object.entries(main.inputs)
      .filter(([, i]) => i.imports.some((x) => x.external && x.path === './core.js'))
      .map(
        ([from, i]) =>
          `${from} (${i.imports
            .filter((x) => x.path === './core.js')
            .map((x) => x.kind)
            .join(', ')})`,
      );
    assert.deepEqual(reaching, ['src/core/load.ts (require-call)']);
  });

  it('requiring the bundle and activate() load nothing of core.js; core.js offers every name it lists', () => {
    const child = path.join(ROOT, 'scripts', 'activation-child.cjs');
    const r = spawnSync(process.execPath, [child, path.join(dir, 'extension.js')], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { loadedByRequire: string[]; loadedByActivate: string[]; registered: number };
    assert.deepEqual(out.loadedByRequire, []);
    assert.deepEqual(out.loadedByActivate, []);
    assert.ok(out.registered > 20, `activation registered its views, commands and providers (${out.registered} calls)`);
    // What core() returns in the bundle: every name defined (a name listed but not exported would read as undefined).
    const probe = `
      const core = require(${JSON.stringify(path.join(dir, 'core.js'))});
      const names = Object.keys(core);
      process.stdout.write(JSON.stringify({ names, missing: names.filter((n) => core[n] === undefined) }));
    `;
    const p = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(p.status, 0, p.stderr);
    const got = JSON.parse(p.stdout) as { names: string[]; missing: string[] };
    for (const name of ['ServiceClient', 'validateRequestDocument', 'planJob', 'runJob', 'createSandbox', 'computeView'])
      assert.ok(got.names.includes(name), `core.js offers ${name}`);
    assert.deepEqual(got.missing, []);
  });
});
