// Bundles the extension and the sandbox CLI, and writes the generated JSON Schemas and snippets.
// Usage: node esbuild.js [--production] [--watch]
const esbuild = require('esbuild');
const path = require('node:path');
const { lazyModules } = require('./scripts/lazy-modules');

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

const entries = [
  // The activation code; the schemas, the client, the bulk engine and the sandbox (with
  // zod and undici) are in dist/core.js, loaded on first use (scripts/lazy-modules.js).
  {
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    external: ['vscode'],
    plugins: [
      lazyModules((entry) =>
        esbuild.build({ ...common, stdin: { contents: entry, resolveDir: path.resolve('src'), sourcefile: 'core-entry.ts', loader: 'ts' }, outfile: 'dist/core.js' }),
      ),
    ],
  },
  { entryPoints: ['src/sandbox/cli.ts'], outfile: 'dist/sandbox.js', banner: { js: '#!/usr/bin/env node' } },
];

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
  const present = entries.filter((e) => require('node:fs').existsSync(e.entryPoints[0]));
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

main().catch((err) => {
  console.error(err && err.message ? err.message : err);
  process.exit(1);
});
