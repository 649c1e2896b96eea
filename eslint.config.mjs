// ESLint (flat config) with typescript-eslint's type-aware rules and import cycles. Run by `npm run lint`
// and by `npm test` (after typecheck) with --max-warnings 0.
// The plugins come from scripts/lint (its own TypeScript 6 for typescript-eslint; the project compiles with
// TypeScript 7, which has no compiler API for linters).
// - src/: promises (no floating promise, no promise where a plain value or callback is expected) and no
//   import cycle between files.
// - test/, bench/, scripts/: the same promise rules (an unawaited assertion is a test that cannot fail);
//   no cycle check (they import src/, never each other in circles that matter).
// Formatting is Prettier's (.prettierrc.json), not a lint rule.
import js from '@eslint/js';
import { importX, tseslint } from 'workitem-studio-lint';

/** Node's globals for the plain JavaScript build and test scripts. */
const nodeGlobals = Object.fromEntries(
  ['process', 'console', 'require', 'module', 'exports', '__dirname', '__filename', 'Buffer', 'URL', 'URLSearchParams', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'structuredClone', 'fetch', 'AbortController', 'performance', 'TextDecoder', 'TextEncoder'].map((g) => [g, 'readonly']),
);

const promiseRules = {
  '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: true }],
  '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: true, attributes: false } }],
  // Code made from strings (the sandbox's and the schema's compiled row builders and checks) is marked where it is meant.
  '@typescript-eslint/no-implied-eval': 'error',
  // ES imports (esbuild bundles them; a require() is marked where it is meant, e.g. a lazy load).
  '@typescript-eslint/no-require-imports': 'error',
};

export default [
  {
    ignores: ['dist/**', 'dist-vsix/**', 'node_modules/**', 'test-results/**', '.vscode-test/**', 'media/**', 'test/fixtures/**'],
  },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: promiseRules,
  },
  {
    // The webviews' page scripts: typed by tsconfig.web.json (the DOM's types, not Node's), which the
    // project service does not find (tsconfig.json leaves them out).
    files: ['src/**/web/**/*.ts'],
    languageOptions: { parserOptions: { projectService: false, project: './tsconfig.web.json', tsconfigRootDir: import.meta.dirname } },
  },
  {
    // Tests and benches: the promise rules only (a test builds functions from text to check generated code,
    // and requires a module object to patch it or a path known only at run time).
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    rules: { '@typescript-eslint/no-implied-eval': 'off', '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.js', '.json'] })],
      'import-x/extensions': ['.ts', '.js'],
      'import-x/external-module-folders': ['node_modules'],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // The plain JavaScript scripts (build, packaging, the test driver): ESLint's recommended rules.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...js.configs.recommended,
    languageOptions: { ...js.configs.recommended.languageOptions, globals: nodeGlobals },
    plugins: { import: importX },
    rules: {
      ...js.configs.recommended.rules,
      // A best-effort cleanup (killing a process that may be gone) ignores its failure on purpose.
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
    // Directives there name eslint-plugin-import's rules (registered as `import`, not enabled).
    linterOptions: { reportUnusedDisableDirectives: 'off' },
  },
];
