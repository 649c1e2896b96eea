// Test-harness extension: installed next to the packaged extension by the offline runner
// (test/runners/offline.ts), never shipped. On startup it runs the bundled integration suites
// (dist/test/integration/index.js) in this extension host and reports to the calling process
// through files: <resultsFile>.events.jsonl while running (one JSON event a line) and
// <resultsFile> (the whole RunResults, written atomically) at the end.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as vscode from 'vscode';

interface HarnessConfig {
  /** Absolute path of the bundled test/integration/index.js. */
  testsIndex: string;
  resultsFile: string;
  grep?: string;
  /**
   * Instead of index.js, run @vscode/test-cli's own runner (its extensionTestsPath) with the
   * options that `vscode-test` would pass (VSCODE_TEST_OPTIONS): the same suites under the
   * other runner's mocha and configuration (.vscode-test.mjs).
   */
  testCli?: { runner: string; options: string };
}

interface Suites {
  runSuites(options: { grep?: string; onEvent?: (e: unknown) => void }): Promise<unknown>;
}

export function activate(_context: vscode.ExtensionContext): void {
  // Not awaited: activation returns at once; the run reports through files.
  void main();
}

export function deactivate(): void {}

async function main(): Promise<void> {
  let config: HarnessConfig | undefined;
  try {
    config = JSON.parse(fs.readFileSync(path.join(__dirname, 'harness-config.json'), 'utf8')) as HarnessConfig;
    const events = `${config.resultsFile}.events.jsonl`;
    const emit = (e: unknown) => fs.appendFileSync(events, JSON.stringify(e) + '\n');
    emit({ type: 'harness-start', pid: process.pid, node: process.version });
    if (config.testCli) {
      writeAtomically(config.resultsFile, JSON.stringify(await runTestCli(config.testCli)));
      return;
    }
    // A path only known at run time: load it with Node's require, not the bundler's.
    const suites = require(config.testsIndex) as Suites;
    const results = await suites.runSuites({ grep: config.grep, onEvent: emit });
    writeAtomically(config.resultsFile, JSON.stringify(results, null, 2));
  } catch (e) {
    const message = e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : String(e);
    if (config) writeAtomically(config.resultsFile, JSON.stringify({ harnessError: message }));
    else console.error(`[workitem-studio test harness] ${message}`);
  }
}

/** Runs test-cli's runner (its mocha writes the results through the json reporter's output file). */
async function runTestCli(t: { runner: string; options: string }): Promise<unknown> {
  process.env.VSCODE_TEST_OPTIONS = t.options;
  try {
    await (require(t.runner) as { run(): Promise<void> }).run();
    return { testCli: true, ok: true };
  } catch (e) {
    return { testCli: true, ok: false, error: String(e) };
  }
}

function writeAtomically(file: string, content: string): void {
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, content);
  fs.renameSync(tmp, file);
}
