// Offline integration runner: runs the integration suites inside code-server's extension host
// (a real VS Code, no download needed), with the packaged VSIX installed.
//   1. package the extension (npm run package) and bundle the suites (build-tests.ts);
//   2. install the VSIX and the test harness (test/harness/) into a fresh extensions dir;
//   3. start code-server on a free loopback port with its own user-data-dir, opening a temp
//      workspace folder (test/runners/workspace.mjs);
//   4. open the workbench in headless Chromium so the extension host starts; the harness runs
//      the suites and writes results; this process prints them as they arrive;
//   5. print `N passed, N failed`; exit 1 when any failed, none ran, or something timed out.
// Everything started is ended by process id in all cases. Logs: test-results/integration/
// (test-results/integration-test-cli/ with --test-cli).
// Usage: tsx test/runners/offline.ts [--grep PATTERN] [--test-cli] [--plain-errors]
//   --grep: only the tests whose full title (suite titles and its own) matches PATTERN, a regular
//   expression as mocha takes it (npm test's reduced tiers select tags: @errors, @cli).
//   --test-cli: run the suites with @vscode/test-cli's runner and the options of .vscode-test.mjs
//   (what `npm run test:integration` does under test-electron), to check they pass unchanged there;
//   a --grep goes to vscode-test as its own --grep.
//   --plain-errors: every sandbox the suites start (theirs and the extension's Start Sandbox) answers
//   failures with a status and [{"message"}] only, as the official help says a client must be ready
//   for: the extension host gets WIS_SANDBOX_PLAIN_ERRORS=1 (src/sandbox/plain.ts). Logs:
//   test-results/integration-plain/.
// Environment: WIS_INTEGRATION_TIMEOUT_S (default 900), WIS_KEEP_RUN_DIR=1, WIS_VSIX=path.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildIntegrationTests, INTEGRATION_OUT, stageHarness } from './build-tests';
import {
  ensureTools,
  installExtensions,
  launchChromium,
  log,
  makeRunDir,
  packageExtension,
  packageFolder,
  REPO_ROOT,
  resultsDir,
  run,
  sleep,
  startCodeServer,
  type CodeServer,
} from './code-server';
import { formatEvent, type RunEvent, type RunResults } from '../integration/results';
import { createWorkspace } from './workspace.mjs';
import { PLAIN_ERRORS_ENV } from '../../src/sandbox/plain';

async function main(): Promise<number> {
  const testCli = process.argv.includes('--test-cli');
  const plainErrors = process.argv.includes('--plain-errors');
  // code-server passes its environment on to the extension host (test/runners/code-server.ts codeServerEnv).
  if (plainErrors) process.env[PLAIN_ERRORS_ENV] = '1';
  else delete process.env[PLAIN_ERRORS_ENV];
  const grepIndex = process.argv.indexOf('--grep');
  const grep = grepIndex > 0 ? process.argv[grepIndex + 1] : undefined;
  const timeoutMs = Number(process.env.WIS_INTEGRATION_TIMEOUT_S ?? 900) * 1000;
  const started = Date.now();
  const out = resultsDir(`${testCli ? 'integration-test-cli' : 'integration'}${plainErrors ? '-plain' : ''}`);
  const setupLog = path.join(out, 'setup.log');

  const tools = ensureTools();
  const vsix = packageExtension(setupLog);
  const files = await buildIntegrationTests();
  log('integration', `${files.length} suite file(s): ${files.map((f) => path.basename(f)).join(', ')}`);
  if (files.length === 0) {
    console.log('no integration test files found under test/integration');
    console.log('0 passed, 0 failed');
    return 1;
  }

  const runDir = makeRunDir('integration');
  const resultsFile = path.join(out, 'results.json');
  const eventsFile = `${resultsFile}.events.jsonl`;
  let server: CodeServer | undefined;
  let browser: import('playwright-core').Browser | undefined;
  const stopAll = async () => {
    await browser?.close().catch(() => undefined);
    browser = undefined;
    await server?.stop();
    server = undefined;
  };
  const onSignal = (sig: NodeJS.Signals) => {
    log('integration', `${sig}: stopping`);
    void stopAll().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    const harnessDir = path.join(runDir.dir, 'harness');
    await stageHarness(harnessDir, {
      testsIndex: path.join(INTEGRATION_OUT, 'index.js'),
      resultsFile,
      grep,
      testCli: testCli ? testCliOptions(setupLog, `${resultsFile}.mocha.json`, grep) : undefined,
    });
    const harnessVsix = packageFolder(harnessDir, path.join(runDir.dir, 'harness.vsix'), setupLog);

    const extensionsDir = path.join(runDir.dir, 'extensions');
    const userDataDir = path.join(runDir.dir, 'user-data');
    installExtensions(tools, extensionsDir, userDataDir, [vsix, harnessVsix], setupLog);
    const workspace = createWorkspace({ dir: path.join(runDir.dir, 'workspace') });

    server = await startCodeServer({ tools, userDataDir, extensionsDir, folder: workspace, logFile: path.join(out, 'code-server.log'), testHooks: true });
    log('integration', `code-server ${server.url} (pid ${server.process.pid}); opening the workbench in Chromium`);
    browser = await launchChromium(tools);
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const consoleLog = fs.createWriteStream(path.join(out, 'browser-console.log'));
    page.on('console', (m) => consoleLog.write(`[${m.type()}] ${m.text()}\n`));
    page.on('pageerror', (e) => consoleLog.write(`[pageerror] ${e.message}\n`));
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`, { timeout: 60_000 });

    // Stream the harness's events while waiting for its results file.
    const deadline = started + timeoutMs;
    let printed = 0;
    let harnessStarted = false;
    const drain = () => {
      if (!fs.existsSync(eventsFile)) return;
      const lines = fs.readFileSync(eventsFile, 'utf8').split('\n');
      // Only complete lines (the last one may still be being written).
      for (; printed < lines.length - 1; printed++) {
        const line = lines[printed]!;
        if (!line) continue;
        const e = JSON.parse(line) as RunEvent;
        if (e.type === 'harness-start') harnessStarted = true;
        const text = formatEvent(e);
        if (text !== undefined) console.log(text);
      }
    };
    const startDeadline = Date.now() + 180_000;
    while (!fs.existsSync(resultsFile)) {
      drain();
      if (!harnessStarted && Date.now() > startDeadline) {
        await page.screenshot({ path: path.join(out, 'workbench-timeout.png') }).catch(() => undefined);
        throw new Error('the test harness did not start within 180 s (the extension host did not come up?); see ' + path.relative(REPO_ROOT, out));
      }
      if (Date.now() > deadline) {
        await page.screenshot({ path: path.join(out, 'workbench-timeout.png') }).catch(() => undefined);
        throw new Error(`integration suites did not finish within ${timeoutMs / 1000} s; see ${path.relative(REPO_ROOT, out)}/`);
      }
      if (server.process.exitCode !== null) throw new Error(`code-server exited while the suites ran; see ${path.relative(REPO_ROOT, out)}/code-server.log`);
      await sleep(250);
    }
    drain();
    await page.screenshot({ path: path.join(out, 'workbench.png') }).catch(() => undefined);
    consoleLog.end();

    const results = JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as
      | { harnessError: string }
      | { testCli: true; ok: boolean; error?: string; output: string }
      | RunResults;
    if ('testCli' in results) return reportTestCli(results, `${resultsFile}.mocha.json`, grep);
    if ('harnessError' in results) {
      console.log(`\nthe test harness failed: ${results.harnessError}`);
      console.log('0 passed, 1 failed');
      return 1;
    }
    const failures = results.tests.filter((t) => t.state === 'failed');
    if (failures.length > 0) {
      console.log(`\n  ${failures.length} failing\n`);
      failures.forEach((t, i) => console.log(`  ${i + 1}) ${t.fullTitle}\n     ${(t.error ?? '').split('\n').join('\n     ')}\n`));
    }
    const env = results.environment;
    if (plainErrors && env.plainErrors !== true) {
      console.log(`\nthe extension host did not get ${PLAIN_ERRORS_ENV}=1: its sandboxes would answer with codes, so this run proves nothing about plain errors`);
      console.log(`${results.passed} passed, ${results.failed + 1} failed`);
      return 1;
    }
    console.log(
      `\nintegration${plainErrors ? ' against sandboxes with plain errors' : ''}${grep === undefined ? '' : `, tests matching ${grep}`} (offline, code-server ${env.appName} ${env.vscodeVersion}, extension host Node ${env.node}): ` +
        `${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
    const skipped = results.pending > 0 ? `, ${results.pending} skipped` : '';
    console.log(`${results.passed} passed, ${results.failed} failed${skipped}`);
    if (results.passed + results.failed === 0) {
      log('integration', 'no test ran');
      return 1;
    }
    return results.failed > 0 ? 1 : 0;
  } finally {
    await stopAll();
    runDir.cleanup();
  }
}

/**
 * What `vscode-test` (test-cli) would give its runner, from .vscode-test.mjs, with mocha's json
 * reporter writing to `jsonFile` (the extension host's console goes to the browser, not here).
 * A `grep` is given to vscode-test as its own --grep, which puts it into the mocha options.
 */
function testCliOptions(logFile: string, jsonFile: string, grep: string | undefined): { runner: string; options: string } {
  const cli = [path.join(REPO_ROOT, 'node_modules', '@vscode', 'test-cli', 'out', 'bin.mjs'), '--list-configuration', ...(grep === undefined ? [] : ['--grep', grep])];
  const out = run(process.execPath, cli, {
    timeoutMs: 60_000,
    logFile,
    env: { ...process.env, WIS_TEST_WORKSPACE: os.tmpdir() },
  });
  const configs = JSON.parse(out.slice(out.indexOf('['), out.lastIndexOf(']') + 1)) as {
    extensionTestsPath: string;
    env: { VSCODE_TEST_OPTIONS: string };
  }[];
  const c = configs[0];
  if (!c) throw new Error('.vscode-test.mjs has no configuration');
  const options = JSON.parse(c.env.VSCODE_TEST_OPTIONS) as { mochaOpts: Record<string, unknown>; colorDefault: boolean };
  for (const k of ['_', '$0', 'list-configuration', 'listConfiguration', 'config']) delete options.mochaOpts[k];
  if (grep !== undefined && options.mochaOpts.grep !== grep) throw new Error(`vscode-test did not pass --grep ${grep} on to mocha (its options: ${JSON.stringify(options.mochaOpts)})`);
  Object.assign(options.mochaOpts, { reporter: 'json', R: 'json', reporterOption: { output: jsonFile }, reporterOptions: { output: jsonFile } });
  options.colorDefault = false;
  return { runner: c.extensionTestsPath, options: JSON.stringify(options) };
}

function reportTestCli(r: { ok: boolean; error?: string }, jsonFile: string, grep: string | undefined): number {
  if (!fs.existsSync(jsonFile)) {
    console.log(`\n@vscode/test-cli runner wrote no results (${r.error ?? 'no error reported'})`);
    console.log('0 passed, 1 failed');
    return 1;
  }
  const m = JSON.parse(fs.readFileSync(jsonFile, 'utf8')) as {
    stats: { passes: number; failures: number; pending: number };
    tests: { fullTitle: string; duration?: number; err: { message?: string } }[];
  };
  for (const t of m.tests) console.log(`  ${t.err?.message ? '✖' : '✔'} ${t.fullTitle}${t.err?.message ? `\n      ${t.err.message}` : ''}`);
  console.log(`\nintegration (offline, under @vscode/test-cli's runner and .vscode-test.mjs${grep === undefined ? '' : `, tests matching ${grep}`})`);
  const skipped = m.stats.pending ? `, ${m.stats.pending} skipped` : '';
  console.log(`${m.stats.passes} passed, ${m.stats.failures} failed${skipped}`);
  return r.ok && m.stats.failures === 0 && m.stats.passes > 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`\nintegration runner error: ${e instanceof Error ? e.message : String(e)}`);
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);
