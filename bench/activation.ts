// Benchmark: the shipped bundle's size and the extension's activation time.
//
// Sizes: from the packaged VSIX (npm run package: production build, minified, no source maps).
// Activation, measured two ways:
//   1. stub (this process's children): a fresh Node process requires the production bundle
//      (dist/extension.js as packaged) with a stub `vscode` module (every API a no-op returning
//      disposables) and calls activate(); timed: require, activate, and both together.
//      Repeatable and free of the workbench; it counts the extension's own work only.
//   2. extension host (when test-results/integration/results.json exists from the last
//      `npm run test:integration:offline`): the time of `activate()` in code-server's real
//      extension host, as the integration harness measured it (one sample).
//
// Run: npx tsx bench/activation.ts   (BENCH_RUNS=n, default 15; BENCH_NO_PACKAGE=1 to reuse the VSIX;
// BENCH_COMPARE=<dir>/extension.js adds another production bundle, with its core.js beside it, e.g.
// an earlier commit's `node esbuild.js --production`, measured interleaved as a third side;
// BENCH_LABEL names it in the results)
// Writes bench/results/activation.md, the earlier runs kept below the new one.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { listZip, readZipEntry } from '../scripts/vsix.mjs';
import { writeKeepingEarlierRuns } from './history';

const ROOT = path.resolve(__dirname, '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const VSIX = path.join(ROOT, 'dist-vsix', 'workitem-studio.vsix');
const COMPARE = process.env.BENCH_COMPARE ? path.resolve(process.env.BENCH_COMPARE) : undefined;

/** Child-process script: stub vscode, require the bundle, activate, print timings as JSON. */
const CHILD = fs.readFileSync(path.join(ROOT, 'scripts', 'activation-child.cjs'), 'utf8');

function ratioStats(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  return `${s[0]!.toFixed(2)} / ${median(xs).toFixed(2)} / ${s[s.length - 1]!.toFixed(2)}`;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

function main(): void {
  if (!process.env.BENCH_NO_PACKAGE) {
    const r = spawnSync('npm', ['run', '--silent', 'package'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'], timeout: 300_000 });
    if (r.status !== 0) throw new Error('npm run package failed');
  }
  const entries = listZip(VSIX);
  const size = (name: string) => entries.find((e) => e.name === `extension/${name}`)?.size ?? 0;
  const vsixBytes = fs.statSync(VSIX).size;

  // The bundle exactly as packaged (extracted from the VSIX: dist/ may have been rebuilt since).
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wis-bench-'));
  const copy = path.join(tmp, 'extension.js');
  fs.writeFileSync(copy, readZipEntry(VSIX, 'extension/dist/extension.js'));
  fs.writeFileSync(path.join(tmp, 'core.js'), readZipEntry(VSIX, 'extension/dist/core.js'));
  const childFile = path.join(tmp, 'child.js');
  fs.writeFileSync(childFile, CHILD);

  // For comparison, in the same run: the same sources bundled into one file, everything
  // evaluated at require (how the extension was built before), production options.
  const oneFile = path.join(tmp, 'one-file', 'extension.js');
  const built = spawnSync(
    process.execPath,
    ['-e', `require('esbuild').buildSync({ entryPoints: ['src/extension.ts'], outfile: ${JSON.stringify(oneFile)}, bundle: true, format: 'cjs', platform: 'node', target: 'node20', minify: true, external: ['vscode'], mainFields: ['module', 'main'], logLevel: 'error' })`],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (built.status !== 0) throw new Error(`one-file build failed: ${built.stderr}`);

  type Sample = { requireMs: number; activateMs: number; totalMs: number; registered: number; subscriptions: number; loadedByRequire: string[]; loadedByActivate: string[] };
  const samples: Sample[] = [];
  const oneFileSamples: Sample[] = [];
  const compareSamples: Sample[] = [];
  const loadBefore = os.loadavg();
  const run = (file: string): Sample => {
    const r = spawnSync(process.execPath, [childFile, file], { encoding: 'utf8', timeout: 60_000 });
    if (r.status !== 0) throw new Error(`activation under the stub failed:\n${r.stderr}`);
    return JSON.parse(r.stdout) as Sample;
  };
  try {
    run(copy); // warm the file cache
    run(oneFile);
    if (COMPARE) run(COMPARE);
    for (let i = 0; i < RUNS; i++) {
      // Interleaved, the order alternating.
      if (i % 2) oneFileSamples.push(run(oneFile));
      if (i % 2 && COMPARE) compareSamples.push(run(COMPARE));
      samples.push(run(copy));
      if (!(i % 2)) oneFileSamples.push(run(oneFile));
      if (!(i % 2) && COMPARE) compareSamples.push(run(COMPARE));
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }

  let host = '';
  const resultsFile = path.join(ROOT, 'test-results', 'integration', 'results.json');
  if (fs.existsSync(resultsFile)) {
    const r = JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as { activationMs?: number; environment?: { appName: string; vscodeVersion: string; node: string } };
    if (r.activationMs !== undefined && r.environment) {
      const when = fs.statSync(resultsFile).mtime.toISOString().slice(0, 16).replace('T', ' ');
      host = `| extension host: \`activate()\` in ${r.environment.appName} ${r.environment.vscodeVersion} (Node ${r.environment.node}), one sample from the integration run of ${when} UTC | ${r.activationMs.toFixed(1)} |`;
    }
  }

  const loadAfter = os.loadavg();
  const kib = (b: number) => (b / 1024).toFixed(1);
  const row = (what: string, xs: number[]) => `| ${what} | ${median(xs).toFixed(1)} | ${Math.min(...xs).toFixed(1)} | ${Math.max(...xs).toFixed(1)} |`;
  const compared = COMPARE
    ? `
Beside it, interleaved in the same runs: ${process.env.BENCH_LABEL ?? COMPARE} (${kib(fs.statSync(COMPARE).size)} KiB), another production bundle given by \`BENCH_COMPARE\`.

| what | ms (median) | min | max |
|---|---:|---:|---:|
${row('require (the other bundle)', compareSamples.map((x) => x.requireMs))}
${row('activate(context) (the other bundle)', compareSamples.map((x) => x.activateMs))}
${row('both (the other bundle)', compareSamples.map((x) => x.totalMs))}
| ratio of both, this bundle / the other, run by run: min / median / max | ${ratioStats(samples.map((x, i) => x.totalMs / compareSamples[i]!.totalMs))} | | |

The other bundle's requires of its core.js: by the require ${compareSamples[0]!.loadedByRequire.length}, by activate() ${compareSamples[0]!.loadedByActivate.length}.
`
    : '';
  const s = samples[0]!;
  const md = `# activation benchmark: bundle size and activation time

Machine: ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'CPU'}, Node ${process.version}, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; load average before ${loadBefore.map((x) => x.toFixed(2)).join(' / ')}, after ${loadAfter.map((x) => x.toFixed(2)).join(' / ')} (1 / 5 / 15 min).
Bundle: the production build as packaged by \`npm run package\` (minified, no source maps).

## Size

| file | KiB |
|---|---:|
| VSIX (compressed, everything shipped) | ${kib(vsixBytes)} |
| dist/extension.js (what activation loads: registration of views, commands, editors) | ${kib(size('dist/extension.js'))} |
| dist/core.js (loaded on first use: schemas with zod, the client with undici, bulk engine, sandbox, table model) | ${kib(size('dist/core.js'))} |
| dist/sandbox.js (the sandbox CLI) | ${kib(size('dist/sandbox.js'))} |
| schemas/ | ${kib(entries.filter((e) => e.name.startsWith('extension/schemas/')).reduce((a, e) => a + e.size, 0))} |
| media/ (icons, screenshots) | ${kib(entries.filter((e) => e.name.startsWith('extension/media/')).reduce((a, e) => a + e.size, 0))} |

The VSIX size bound checked on every package is in scripts/check-vsix.mjs.

## Activation

Measured by requiring the bundle in a fresh Node process with a stub \`vscode\` module (every
API call a no-op) and calling \`activate()\`: ${RUNS} runs, medians (ms). This is the extension's
own cost (parsing and running its module, constructing and registering); the workbench's share
is not in it.

| what | ms (median) | min | max |
|---|---:|---:|---:|
| require(dist/extension.js) | ${median(samples.map((x) => x.requireMs)).toFixed(1)} | ${Math.min(...samples.map((x) => x.requireMs)).toFixed(1)} | ${Math.max(...samples.map((x) => x.requireMs)).toFixed(1)} |
| activate(context) | ${median(samples.map((x) => x.activateMs)).toFixed(1)} | ${Math.min(...samples.map((x) => x.activateMs)).toFixed(1)} | ${Math.max(...samples.map((x) => x.activateMs)).toFixed(1)} |
| both | ${median(samples.map((x) => x.totalMs)).toFixed(1)} | ${Math.min(...samples.map((x) => x.totalMs)).toFixed(1)} | ${Math.max(...samples.map((x) => x.totalMs)).toFixed(1)} |
| for comparison, interleaved: require of the same sources in one file, all evaluated at once (the build before) | ${median(oneFileSamples.map((x) => x.requireMs)).toFixed(1)} | ${Math.min(...oneFileSamples.map((x) => x.requireMs)).toFixed(1)} | ${Math.max(...oneFileSamples.map((x) => x.requireMs)).toFixed(1)} |
| ratio of the two requires, run by run: min / median / max | ${ratioStats(samples.map((x, i) => x.requireMs / oneFileSamples[i]!.requireMs))} | | |
${compared}
Activation made ${s.registered} register/create calls and pushed ${s.subscriptions} disposables to \`context.subscriptions\`.
Requires of dist/core.js by the require: ${s.loadedByRequire.length ? s.loadedByRequire.join(', ') : 'none'}; by activate(): ${s.loadedByActivate.length ? s.loadedByActivate.join(', ') : 'none'}.
${host ? `\n| real extension host | ms |\n|---|---:|\n${host}\n` : ''}
## Reading

- The extension activates on JSON documents (\`onLanguage:json\`), so this cost is paid for any
  JSON file: dist/extension.js holds the registration code and the features' own code; the
  schemas (zod), the HTTP client (undici), the bulk engine, the sandbox and the table's model are
  the core (src/core/index.ts), bundled into dist/core.js and read and evaluated by the first
  call of \`core()\` (src/core/load.ts): a request document's checks, a view's first load, a command.
  \`activate()\` itself only constructs and registers (no network, no disk I/O).
- The machine is shared and noisy: read medians next to min and max.
- Run: \`npx tsx bench/activation.ts\` (\`BENCH_RUNS\`; \`BENCH_NO_PACKAGE=1\` reuses the last VSIX).
`;
  writeKeepingEarlierRuns(path.join(ROOT, 'bench', 'results', 'activation.md'), md);
  process.stdout.write(md);
}

main();
