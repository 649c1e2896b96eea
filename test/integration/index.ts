// Runs the integration suites (every *.test.js next to this file once bundled) with mocha inside
// a VS Code extension host. Used by both runners:
//   - @vscode/test-electron: `run()` is the extensionTestsPath entry (test/runners/electron.ts),
//     and .vscode-test.mjs preloads this file for `mochaGlobalSetup` (activation);
//   - the offline code-server runner: the test-harness extension (test/harness/) calls
//     `runSuites()` and writes the results for the calling process.
// mocha is bundled into this file (test/runners/build-tests.ts), so it needs nothing at run time.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import * as vscode from 'vscode';
import { formatEvent, type RunEvent, type RunResults, type TestResult } from './results';
import { activateExtension, EXTENSION_ID } from './support';
import { plainErrorsFromEnvironment } from '../../src/sandbox/plain';

export type { RunEvent, RunResults, TestResult };

export interface RunOptions {
  /** Test files (absolute); default: every *.test.js beside this file. */
  files?: string[];
  grep?: string;
  timeoutMs?: number;
  onEvent?: (event: RunEvent) => void;
}

export function findTestFiles(dir: string = __dirname): string[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.test.js'))
    .sort()
    .map((f) => path.join(dir, f));
}

function describeError(err: unknown): string {
  if (err instanceof Error) {
    const stack = (err.stack ?? '').split('\n').slice(1, 6).join('\n');
    return `${err.name}: ${err.message}${stack ? '\n' + stack : ''}`;
  }
  return String(err);
}

/**
 * Errors that other extensions of the host raise when they try to reach the internet (telemetry,
 * gallery): not ours, and the machines running these suites may have no network. Loopback
 * failures are never ignored (the sandbox runs there).
 */
function isForeignNetworkNoise(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const e = err as Error & { code?: string; hostname?: string; address?: string; syscall?: string };
  const codes = ['ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'ECONNREFUSED', 'ETIMEDOUT', 'ECONNRESET'];
  if (!e.code || !codes.includes(e.code)) return false;
  const host = e.hostname ?? e.address;
  if (!host) return false;
  return !/^(localhost|127\.\d+\.\d+\.\d+|::1|\[::1\])$/.test(host);
}

/** Makes mocha ignore foreign network noise instead of failing whichever test is running. */
function ignoreForeignNetworkNoise(ignored: string[]): void {
  const proto = Mocha.Runner.prototype as unknown as { _uncaught: (err: unknown) => void; __wisPatched?: boolean };
  if (proto.__wisPatched) return;
  const original = proto._uncaught;
  proto._uncaught = function (this: unknown, err: unknown) {
    if (isForeignNetworkNoise(err)) {
      ignored.push((err as Error).message);
      return;
    }
    return original.call(this, err);
  };
  proto.__wisPatched = true;
}

const ignoredErrors: string[] = [];

/** Runs the suites and collects every test's result (never rejects because a test failed). */
export async function runSuites(options: RunOptions = {}): Promise<RunResults> {
  const started = Date.now();
  const files = options.files ?? findTestFiles();
  const tests: TestResult[] = [];
  const emit = (e: RunEvent) => {
    try {
      options.onEvent?.(e);
    } catch {
      // a broken listener must not break the run
    }
  };
  const record = (result: TestResult, depth: number) => {
    tests.push(result);
    emit({ type: 'test', result, depth });
  };

  // Activate explicitly first; a failure here is reported as a failed test and the suites still run.
  let activationMs: number | undefined;
  try {
    const wasActive = vscode.extensions.getExtension(EXTENSION_ID)?.isActive ?? false;
    const t0 = performance.now();
    await activateExtension();
    if (!wasActive) activationMs = Math.round((performance.now() - t0) * 10) / 10;
  } catch (e) {
    record({ title: 'activates', fullTitle: 'extension activates', state: 'failed', error: describeError(e) }, 0);
  }

  ignoreForeignNetworkNoise(ignoredErrors);
  const mocha = new Mocha({
    ui: 'bdd',
    timeout: options.timeoutMs ?? 60_000,
    color: false,
    grep: options.grep,
    // The reporter only collects; the caller prints.
    reporter: function CollectingReporter() {} as unknown as Mocha.ReporterConstructor,
  });
  for (const f of files) mocha.addFile(f);

  const depthOf = (s: Mocha.Suite | undefined) => {
    let d = 0;
    for (let p = s; p && !p.root; p = p.parent) d++;
    return d;
  };
  await new Promise<void>((resolve) => {
    let runner: Mocha.Runner;
    try {
      runner = mocha.run(() => resolve());
    } catch (e) {
      // A test file that throws while loading.
      record({ title: 'load test files', fullTitle: 'load test files', state: 'failed', error: describeError(e) }, 0);
      resolve();
      return;
    }
    runner.on('suite', (s: Mocha.Suite) => {
      if (!s.root) emit({ type: 'suite-start', title: s.title, depth: depthOf(s) - 1 });
    });
    runner.on('pass', (t: Mocha.Test) =>
      record({ title: t.title, fullTitle: t.fullTitle(), file: t.file, state: 'passed', durationMs: t.duration }, depthOf(t.parent)),
    );
    runner.on('fail', (t: Mocha.Runnable, err: unknown) =>
      record(
        { title: t.title, fullTitle: t.fullTitle(), file: t.file, state: 'failed', durationMs: t.duration, error: describeError(err) },
        depthOf(t.parent),
      ),
    );
    runner.on('pending', (t: Mocha.Test) =>
      record({ title: t.title, fullTitle: t.fullTitle(), file: t.file, state: 'pending' }, depthOf(t.parent)),
    );
  });

  const results: RunResults = {
    passed: tests.filter((t) => t.state === 'passed').length,
    failed: tests.filter((t) => t.state === 'failed').length,
    pending: tests.filter((t) => t.state === 'pending').length,
    tests,
    files,
    ignoredErrors: [...ignoredErrors],
    durationMs: Date.now() - started,
    environment: {
      vscodeVersion: vscode.version,
      appName: vscode.env.appName,
      uiKind: vscode.env.uiKind === vscode.UIKind.Web ? 'web' : 'desktop',
      node: process.version,
      plainErrors: plainErrorsFromEnvironment(),
    },
    activationMs,
  };
  emit({ type: 'end', passed: results.passed, failed: results.failed, pending: results.pending });
  return results;
}

/** Entry point for @vscode/test-electron's extensionTestsPath: prints and rejects when any test failed. */
export async function run(): Promise<void> {
  const results = await runSuites({
    onEvent: (e) => {
      const line = formatEvent(e);
      if (line !== undefined) console.log(line);
    },
  });
  for (const t of results.tests.filter((x) => x.state === 'failed')) {
    console.log(`\n✖ ${t.fullTitle}\n${t.error ?? ''}`);
  }
  console.log(`\n${results.passed} passed, ${results.failed} failed`);
  if (results.failed > 0) throw new Error(`${results.failed} integration test(s) failed`);
  if (results.passed === 0) throw new Error('no integration test ran');
}

/** For .vscode-test.mjs (test-cli preloads this file): activate before the suites run. */
export async function mochaGlobalSetup(): Promise<void> {
  await activateExtension();
}
