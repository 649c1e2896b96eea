// Bundles the extension and the sandbox CLI, the webviews' page scripts (for the browser), and
// writes the generated JSON Schemas and snippets.
// Usage: node esbuild.js [--production] [--watch]
const esbuild = require('esbuild');
const path = require('node:path');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: production,
  sourcemap: production ? false : 'linked',
  sourcesContent: false,
  logLevel: 'warning',
  // Prefer ES module builds: jsonc-parser's "main" is a UMD build whose require() calls esbuild
  // cannot follow (the packaged extension then fails with "Cannot find module './impl/format'").
  mainFields: ['module', 'main'],
};

const SRC = path.resolve(__dirname, 'src');
/** The one module of the activation bundle that reaches the core (src/core/index.ts), and how. */
const CORE_LOADER = path.join(SRC, 'core', 'load.ts');

/**
 * The boundary between the two bundles: src/core/load.ts's require of the core's entry
 * (`./index`) stays a require, of dist/core.js beside dist/extension.js, so the core is read
 * and evaluated when `core()` is first called, not when the extension is required.
 * @type {import('esbuild').Plugin}
 */
const coreBoundary = {
  name: 'core-boundary',
  setup(build) {
    build.onResolve({ filter: /^\.\/index$/ }, (args) => (args.importer === CORE_LOADER ? { path: './core.js', external: true } : undefined));
  },
};

/**
 * The bundles, written into `outdir`: the activation code (dist/extension.js: registration of
 * views, commands and editors); the core (dist/core.js: the schemas with zod, the client with
 * undici, the bulk engine, the sandbox, the table's model), which the activation code loads
 * on first use; the sandbox CLI; the webviews' page scripts (the `web/` folders), one bundle per
 * page, where the panels load them from (PAGE_SCRIPTS of src/webview/html.ts; dist/web/ is a
 * local resource root of theirs). test/unit/activation-lazy.test.ts builds the first two the
 * same way.
 * @param {string} outdir
 * @returns {import('esbuild').BuildOptions[]}
 */
function bundles(outdir = 'dist') {
  return [
    { entryPoints: [path.join(SRC, 'extension.ts')], outfile: path.join(outdir, 'extension.js'), external: ['vscode'], plugins: [coreBoundary] },
    { entryPoints: [path.join(SRC, 'core', 'index.ts')], outfile: path.join(outdir, 'core.js'), external: ['vscode'] },
    { entryPoints: [path.join(SRC, 'sandbox', 'cli.ts')], outfile: path.join(outdir, 'sandbox.js'), banner: { js: '#!/usr/bin/env node' } },
    webPage('src/table/web/main.ts', 'dist/web/table.js', outdir),
    webPage('src/changes/web/main.ts', 'dist/web/changes.js', outdir),
    webPage('src/changes/results/web/main.ts', 'dist/web/results.js', outdir),
  ];
}

/**
 * A page script for the browser: one self-contained script (the CSP admits it by its nonce), no
 * Node. `file`: its place in the extension (under dist/), written under `outdir`.
 * @returns {import('esbuild').BuildOptions}
 */
function webPage(entry, file, outdir) {
  const outfile = path.join(outdir, path.relative('dist', file));
  return { entryPoints: [path.join(__dirname, entry)], outfile, platform: 'browser', format: 'iife', target: 'es2022', mainFields: ['browser', 'module', 'main'], tsconfig: path.join(__dirname, 'tsconfig.web.json') };
}

/** Writes schemas/*.json from the zod models and snippets/*.code-snippets from the update templates. */
async function writeGenerated() {
  const fs = require('node:fs');
  const gen = 'src/schema/generate-json-schema.ts';
  if (!fs.existsSync(gen)) return;
  const out = path.join('dist', 'tools', 'generate-json-schema.js');
  await esbuild.build({ ...common, minify: false, sourcemap: false, entryPoints: [gen], outfile: out });
  // eslint-disable-next-line import/no-dynamic-require
  delete require.cache[path.resolve(out)];
  const { writeGeneratedFiles } = require(path.resolve(out));
  writeGeneratedFiles(path.resolve('.'));
}

async function main() {
  const present = bundles().filter((e) => require('node:fs').existsSync(e.entryPoints[0]));
  if (watch) {
    const contexts = await Promise.all(present.map((e) => esbuild.context({ ...common, ...e })));
    await Promise.all(contexts.map((c) => c.watch()));
    await writeGenerated();
    console.log('[watch] watching for changes');
    return;
  }
  await Promise.all(present.map((e) => esbuild.build({ ...common, ...e })));
  await writeGenerated();
}

module.exports = { common, bundles };

if (require.main === module) {
  main().catch((err) => {
    console.error(err && err.message ? err.message : err);
    process.exit(1);
  });
}
