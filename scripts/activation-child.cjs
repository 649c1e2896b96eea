// Requires an extension bundle in this (fresh) process with a stub `vscode` module
// (every API call a no-op returning disposables), calls activate(), and prints as
// JSON: the time of the require and of activate(), the register/create calls, and
// whether each required the core's bundle (dist/core.js, see src/core/load.ts).
// Used by bench/activation.ts and test/unit/activation-lazy.test.ts.
// Usage: node scripts/activation-child.cjs <bundle.js>
'use strict';
const Module = require('node:module');
const { performance } = require('node:perf_hooks');
const calls = new Map();
function stub(name) {
  const fn = function () {};
  return new Proxy(fn, {
    get(_t, prop) {
      // Collections (textDocuments, visibleTextEditors, …) are empty.
      if (prop === Symbol.iterator) return function* () {};
      if (prop === 'then' || typeof prop === 'symbol') return undefined;
      if (prop === 'length') return 0;
      if (prop === 'prototype') return {};
      if (prop === 'dispose') return () => {};
      if (prop === 'event') return () => ({ dispose() {} });
      if (prop === 'toString' || prop === 'valueOf' || prop === 'toJSON') return () => '';
      if (name === 'vscode.workspace' && (prop === 'workspaceFolders' || prop === 'workspaceFile')) return undefined;
      if (prop === 'textDocuments' || prop === 'visibleTextEditors') return [];
      return stub(name + '.' + String(prop));
    },
    set() {
      return true;
    },
    defineProperty() {
      return true;
    },
    apply(_t, _this, args) {
      calls.set(name, (calls.get(name) || 0) + 1);
      // Settings answer their defaults; localized strings are the English ones.
      if (name === 'vscode.workspace.getConfiguration') {
        return { get: (_k, d) => d, has: () => false, inspect: () => undefined, update: async () => {} };
      }
      if (name === 'vscode.l10n.t') return String(args[0]);
      return stub(name + '()');
    },
    construct(_t, args) {
      calls.set('new ' + name, (calls.get('new ' + name) || 0) + 1);
      return { dispose() {}, event: () => ({ dispose() {} }), fire() {}, args };
    },
  });
}
// esbuild's __toESM copies own properties into an object whose prototype is the module's:
// the stub module answers through its prototype, so every name resolves.
const members = new Proxy({}, { get: (_t, prop) => (prop === 'then' || typeof prop === 'symbol' ? undefined : stub('vscode.' + String(prop))) });
const vscode = Object.create(members);
const load = Module._load;
/** Every require of the core's bundle, in order (the bundle's own `require("./core.js")`). */
const coreRequires = [];
Module._load = function (request, parent, isMain) {
  if (request === 'vscode') return vscode;
  if (/(^|[\\/])core\.js$/.test(request)) coreRequires.push(request);
  return load.call(this, request, parent, isMain);
};
const file = process.argv[2];
const context = {
  subscriptions: [], extensionUri: stub('extensionUri'), extensionPath: '/', globalState: stub('globalState'),
  workspaceState: stub('workspaceState'), secrets: stub('secrets'), environmentVariableCollection: stub('env'),
  storageUri: undefined, globalStorageUri: stub('globalStorageUri'), logUri: stub('logUri'), extensionMode: 1,
  asAbsolutePath: (p) => p,
};
(async () => {
  const lazy = () => [...coreRequires];
  const t0 = performance.now();
  const ext = require(file);
  const t1 = performance.now();
  const loadedByRequire = lazy();
  await ext.activate(context);
  const t2 = performance.now();
  const loadedByActivate = lazy().slice(loadedByRequire.length);
  // First use: what checking a request document loads (the schemas), timed apart.
  const registered = [...calls].filter(([k]) => /register|create/.test(k)).reduce((s, [, n]) => s + n, 0);
  process.stdout.write(JSON.stringify({ requireMs: t1 - t0, activateMs: t2 - t1, totalMs: t2 - t0, registered, subscriptions: context.subscriptions.length, loadedByRequire, loadedByActivate }));
})().catch((e) => { console.error(e && e.stack || e); process.exit(1); });
