// An esbuild plugin that loads the heavy parts of the extension on first use.
//
// The extension's activation code (extension.ts, the feature folders and the common
// helpers) imports the schemas, the service client, the bulk engine and the
// sandbox (src/schema, src/api, src/bulk, src/sandbox), which pull in zod and undici.
// Evaluated at `require` time they would make activation slow for every JSON file.
// This plugin replaces each such import, made from outside those folders, by a small
// module whose exports are looked up on first access: the real module (and what it
// imports) is then read from a second bundle, dist/core.js, and evaluated, once.
// So dist/extension.js holds only the activation code (small: quick to parse), and
// dist/core.js the rest. Inside the heavy folders imports stay as they are; each
// heavy module exists once, in core.js (classes keep one identity). Export names are
// read from the sources (declarations, `export {…}`, `export * from`), so an import
// resolves to the same names as before. Modules of the heavy folders listed in
// LIGHT (plain constants) stay in the activation bundle.
const fs = require('node:fs');
const path = require('node:path');

const SRC = path.resolve(__dirname, '..', 'src');
// The table's model (src/table/model) imports zod: it loads with the heavy parts, on first use.
const HEAVY_DIRS = ['schema', 'api', 'bulk', 'sandbox', path.join('table', 'model')].map((d) => path.join(SRC, d) + path.sep);
const HEAVY_PACKAGES = new Set(['undici', 'zod']);

const inHeavyDir = (file) => HEAVY_DIRS.some((d) => file.startsWith(d));

/** Modules of the heavy folders kept in the activation bundle: constants only (no classes, no imports). */
const LIGHT = new Set([path.join(SRC, 'schema', 'suffix.ts')]);

const isHeavyFile = (file) => inHeavyDir(file) && !LIGHT.has(file);

/** The key of a heavy module in core.js. */
const keyOf = (target) => (path.isAbsolute(target) ? path.relative(SRC, target).split(path.sep).join('/') : target);

function resolveTs(from, spec) {
  const base = path.resolve(path.dirname(from), spec);
  for (const f of [`${base}.ts`, path.join(base, 'index.ts'), base]) if (fs.existsSync(f) && fs.statSync(f).isFile()) return f;
  return undefined;
}

/** Value export names of a TypeScript module (types included: harmless, they read as undefined). */
function exportNames(file, seen = new Set()) {
  if (seen.has(file)) return [];
  seen.add(file);
  const text = fs.readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const names = new Set();
  const decl = /^export\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\*?|const|let|var|class|enum|namespace)\s+([A-Za-z_$][\w$]*)/gm;
  for (const m of text.matchAll(decl)) names.add(m[1]);
  if (/^export\s+default\b/m.test(text)) names.add('default');
  for (const m of text.matchAll(/^export\s+(type\s+)?\{([^}]*)\}(?:\s*from\s*['"]([^'"]+)['"])?/gm)) {
    if (m[1]) continue; // export type { … }
    for (const part of m[2].split(',')) {
      const p = part.trim();
      if (!p || p.startsWith('type ')) continue;
      const as = /\bas\s+([A-Za-z_$][\w$]*)$/.exec(p);
      names.add(as ? as[1] : p.split(/\s+/)[0]);
    }
  }
  for (const m of text.matchAll(/^export\s+\*\s+as\s+([A-Za-z_$][\w$]*)\s+from/gm)) names.add(m[1]);
  for (const m of text.matchAll(/^export\s+\*\s+from\s*['"]([^'"]+)['"]/gm)) {
    const target = resolveTs(file, m[1]);
    if (target) for (const n of exportNames(target, seen)) if (n !== 'default') names.add(n);
  }
  return [...names];
}

function packageExportNames(name) {
  // eslint-disable-next-line import/no-dynamic-require
  return Object.keys(require(name)).filter((k) => k !== '__esModule');
}

function stubSource(key, names) {
  return `
var real;
var load = function () {
  if (real === undefined) {
    (globalThis[Symbol.for('workItemStudio.lazyModules')] ??= []).push(${JSON.stringify(key)});
    real = require('./core.js')[${JSON.stringify(key)}];
  }
  return real;
};
var names = ${JSON.stringify(names)};
module.exports = new Proxy({}, {
  get: function (_t, key) { return key === '__esModule' ? true : load()[key]; },
  has: function (_t, key) { return names.indexOf(key) >= 0; },
  ownKeys: function () { return names.slice(); },
  getOwnPropertyDescriptor: function (_t, key) {
    return names.indexOf(key) >= 0 ? { value: undefined, writable: false, enumerable: true, configurable: true } : undefined;
  },
});
`;
}

/** The entry of core.js: every heavy module the activation bundle asked for, by key. */
function coreEntry(targets) {
  return [...targets]
    .sort()
    .map((t) => `export * as ${JSON.stringify(keyOf(t))} from ${JSON.stringify(t)};`)
    .join('\n');
}

/**
 * The plugin for the activation bundle. `buildCore(entrySource)` is called at the
 * end of each build with the source of core.js's entry.
 * @param {(entry: string) => Promise<unknown>} buildCore
 * @returns {import('esbuild').Plugin}
 */
function lazyModules(buildCore) {
  return {
    name: 'lazy-modules',
    setup(build) {
      const targets = new Set();
      build.onStart(() => targets.clear());
      build.onResolve({ filter: /.*/ }, (args) => {
        if (args.namespace === 'lazy-stub') return args.path === './core.js' ? { path: args.path, external: true } : undefined;
        if (args.kind !== 'import-statement' && args.kind !== 'dynamic-import') return undefined;
        const importer = args.importer;
        if (!importer || !importer.startsWith(SRC) || inHeavyDir(importer)) return undefined;
        let target;
        if (HEAVY_PACKAGES.has(args.path)) target = args.path;
        else if (args.path.startsWith('.')) {
          const file = resolveTs(importer, args.path);
          if (file && isHeavyFile(file)) target = file;
        }
        if (target === undefined) return undefined;
        targets.add(target);
        return { path: keyOf(target), namespace: 'lazy-stub', pluginData: { target } };
      });
      build.onLoad({ filter: /.*/, namespace: 'lazy-stub' }, (args) => {
        const { target } = args.pluginData;
        const names = HEAVY_PACKAGES.has(target) ? packageExportNames(target) : exportNames(target);
        return { contents: stubSource(keyOf(target), names), loader: 'js', resolveDir: path.dirname(build.initialOptions.outfile ?? '.') };
      });
      build.onEnd(async (result) => {
        if (result.errors.length === 0) await buildCore(coreEntry(targets));
      });
    },
  };
}

module.exports = { lazyModules, exportNames };
