// Bundles the integration suites for an extension host: test/integration/index.ts (with mocha
// inside) and every test/integration/**/*.test.ts, each to dist/test/integration/<name>.js
// (format cjs, platform node, `vscode` external). Both runners load these files.
// Usage: tsx test/runners/build-tests.ts
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from './code-server';

export const INTEGRATION_OUT = path.join(REPO_ROOT, 'dist', 'test', 'integration');
const INTEGRATION_SRC = path.join(REPO_ROOT, 'test', 'integration');

function testFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return testFiles(p);
    return e.name.endsWith('.test.ts') ? [p] : [];
  });
}

const common: esbuild.BuildOptions = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: ['vscode'],
  sourcemap: 'inline',
  sourcesContent: false,
  logLevel: 'warning',
  // As in esbuild.js: jsonc-parser's "main" is a UMD build whose run-time requires esbuild cannot follow.
  mainFields: ['module', 'main'],
  // mocha's parallel mode (unused here) resolves worker files at run time.
  logOverride: { 'require-resolve-not-external': 'silent' },
};

/** Returns the bundled test files (absolute paths). */
export async function buildIntegrationTests(): Promise<string[]> {
  fs.rmSync(INTEGRATION_OUT, { recursive: true, force: true });
  const tests = testFiles(INTEGRATION_SRC);
  // Flatten sub-folders into file names so index.ts finds every *.test.js beside itself.
  const entryPoints = [
    { in: path.join(INTEGRATION_SRC, 'index.ts'), out: 'index' },
    ...tests.map((f) => ({
      in: f,
      out: path.relative(INTEGRATION_SRC, f).replace(/\.ts$/, '').split(path.sep).join('__'),
    })),
  ];
  await esbuild.build({ ...common, entryPoints, outdir: INTEGRATION_OUT });
  return tests.map((f) => path.join(INTEGRATION_OUT, path.relative(INTEGRATION_SRC, f).replace(/\.ts$/, '.js').split(path.sep).join('__')));
}

/** Bundles the test-harness extension (test/harness/) into `folder`, ready for vsce. */
export async function stageHarness(
  folder: string,
  config: { testsIndex: string; resultsFile: string; grep?: string; testCli?: { runner: string; options: string } },
): Promise<void> {
  const src = path.join(REPO_ROOT, 'test', 'harness');
  fs.mkdirSync(folder, { recursive: true });
  fs.copyFileSync(path.join(src, 'package.json'), path.join(folder, 'package.json'));
  fs.writeFileSync(path.join(folder, 'README.md'), '# Work Item Studio test harness\n\nRuns the integration suites; never shipped.\n');
  fs.writeFileSync(path.join(folder, 'harness-config.json'), JSON.stringify(config, null, 2));
  await esbuild.build({ ...common, sourcemap: false, entryPoints: [path.join(src, 'extension.ts')], outfile: path.join(folder, 'extension.js') });
}

if (require.main === module) {
  buildIntegrationTests().then(
    (files) => console.log(`bundled ${files.length} integration test file(s) into ${path.relative(REPO_ROOT, INTEGRATION_OUT)}`),
    (e) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    },
  );
}
