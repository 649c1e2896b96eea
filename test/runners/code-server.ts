// Shared plumbing for the tiers that run a real VS Code workbench offline (the integration
// runner, the E2E tests and `npm start`): the tools (code-server, Node 24, Chromium; installed by
// scripts/setup-code-server.sh into a cache outside the repository), packaging, a code-server
// process per run, and a headless Chromium. Everything started here is ended by process id.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { TEST_HOOKS_ENV } from '../../src/common/model/testHooks';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
export const EXTENSION_ID = 'workitem-studio.workitem-studio';

export interface Tools {
  cache: string;
  node24: string;
  codeServerEntry: string;
  chromium: string;
  /** What this call installed (quiet mode only; empty: everything was already there). */
  installed?: string[];
}

/** Where log() and run() send their output instead of the terminal (quiet mode of `npm start`). */
let quietLogFile: string | undefined;

/**
 * Quiet mode: log lines, the setup script's messages and the output of every run() go to
 * `file` (appended) instead of the terminal; failures still throw with the output's tail and
 * name the file. `undefined` ends quiet mode. Callers that never call it see no change.
 */
export function logQuietlyTo(file: string | undefined): void {
  quietLogFile = file;
  if (file) fs.mkdirSync(path.dirname(file), { recursive: true });
}

export function log(tag: string, message: string): void {
  if (quietLogFile) fs.appendFileSync(quietLogFile, `[${tag}] ${message}\n`);
  else process.stderr.write(`[${tag}] ${message}\n`);
}

/** The last `lines` lines of a text (no trailing empty line). */
export function tailOf(text: string, lines: number): string {
  return text.replace(/\s+$/, '').split('\n').slice(-lines).join('\n');
}

/**
 * Finds the tools, installing what is missing through scripts/setup-code-server.sh (idempotent,
 * fast when the cache is complete). WIS_NODE24 + WIS_CODE_SERVER_ENTRY (+ WIS_CHROMIUM) skip it.
 */
export function ensureTools(): Tools {
  const env = process.env;
  if (env.WIS_NODE24 && env.WIS_CODE_SERVER_ENTRY) {
    return {
      cache: env.WIS_CACHE ?? '',
      node24: env.WIS_NODE24,
      codeServerEntry: env.WIS_CODE_SERVER_ENTRY,
      chromium: env.WIS_CHROMIUM ?? '/usr/bin/chromium',
    };
  }
  const script = path.join(REPO_ROOT, 'scripts', 'setup-code-server.sh');
  log('setup', `checking tools (${path.relative(REPO_ROOT, script)})`);
  const quiet = quietLogFile;
  const r = spawnSync('bash', [script], {
    stdio: ['ignore', 'pipe', quiet ? 'pipe' : 'inherit'],
    encoding: 'utf8',
    timeout: 45 * 60_000,
    maxBuffer: 64 * 1024 * 1024,
    env: quiet ? { ...process.env, WIS_SETUP_QUIET: '1' } : process.env,
  });
  if (quiet) fs.appendFileSync(quiet, `$ bash ${path.relative(REPO_ROOT, script)}\n${r.stderr ?? ''}${r.stdout ?? ''}\n`);
  if (r.status !== 0) {
    throw new Error(
      quiet
        ? `scripts/setup-code-server.sh failed (exit ${r.status ?? r.signal}):\n${tailOf(r.stderr ?? '', 20)}\n(full log: ${quiet})`
        : `scripts/setup-code-server.sh failed (exit ${r.status ?? r.signal}); see its messages above`,
    );
  }
  const kv = Object.fromEntries(
    r.stdout
      .split('\n')
      .map((l) => l.match(/^([A-Z0-9_]+)=(.*)$/))
      .filter((m): m is RegExpMatchArray => m !== null)
      .map((m) => [m[1], m[2]]),
  );
  for (const k of ['NODE24', 'CODE_SERVER_ENTRY', 'CHROMIUM']) {
    if (!kv[k]) throw new Error(`scripts/setup-code-server.sh did not report ${k}`);
  }
  const installed = kv.INSTALLED === undefined ? {} : { installed: kv.INSTALLED.split(' ').filter(Boolean) };
  return { cache: kv.WIS_CACHE ?? '', node24: kv.NODE24!, codeServerEntry: kv.CODE_SERVER_ENTRY!, chromium: kv.CHROMIUM!, ...installed };
}

/** Runs a command to completion with a timeout; throws with its output's tail on failure. */
export function run(cmd: string, args: string[], options: { cwd?: string; timeoutMs: number; logFile?: string; env?: NodeJS.ProcessEnv }): string {
  const r = spawnSync(cmd, args, {
    cwd: options.cwd ?? REPO_ROOT,
    env: options.env ?? process.env,
    encoding: 'utf8',
    timeout: options.timeoutMs,
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  const logFile = options.logFile ?? quietLogFile;
  if (logFile) fs.appendFileSync(logFile, `$ ${cmd} ${args.join(' ')}\n${output}\n`);
  if (r.error || r.status !== 0) {
    const why = r.error ? r.error.message : `exit ${r.status ?? r.signal}`;
    const tail = output.split('\n').slice(-25).join('\n');
    throw new Error(`${path.basename(cmd)} ${args.join(' ')} failed (${why}):\n${tail}${logFile ? `\n(full log: ${logFile})` : ''}`);
  }
  return output;
}

/** Packages the extension (`npm run package`) and returns the VSIX path. */
export function packageExtension(logFile?: string): string {
  const vsix = path.join(REPO_ROOT, 'dist-vsix', 'workitem-studio.vsix');
  if (process.env.WIS_VSIX) return path.resolve(process.env.WIS_VSIX);
  log('package', 'npm run package');
  run('npm', ['run', '--silent', 'package'], { timeoutMs: 5 * 60_000, logFile });
  if (!fs.existsSync(vsix)) throw new Error(`npm run package did not produce ${vsix}`);
  return vsix;
}

/** Packages an extension folder (e.g. the test harness) with vsce into `outFile`. */
export function packageFolder(folder: string, outFile: string, logFile?: string): string {
  const vsce = path.join(REPO_ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  run(process.execPath, [vsce, 'package', '--no-dependencies', '--skip-license', '--allow-missing-repository', '-o', outFile], {
    cwd: folder,
    timeoutMs: 2 * 60_000,
    logFile,
  });
  return outFile;
}

export function installExtensions(tools: Tools, extensionsDir: string, userDataDir: string, vsixes: string[], logFile?: string): void {
  const args = [tools.codeServerEntry, '--extensions-dir', extensionsDir, '--user-data-dir', userDataDir, '--force'];
  for (const v of vsixes) args.push('--install-extension', v);
  log('code-server', `installing ${vsixes.map((v) => path.basename(v)).join(', ')}`);
  run(tools.node24, args, { timeoutMs: 3 * 60_000, logFile, env: codeServerEnv(tools) });
}

/**
 * A stand-in language pack for `locale` (kept in the run folder, never shipped): VS Code only
 * switches its display language to a locale that an installed language pack contributes. Its
 * translations are empty, so VS Code's own strings stay English; extensions see the locale.
 */
function stageLanguagePack(folder: string, locale: string): string {
  fs.mkdirSync(path.join(folder, 'translations'), { recursive: true });
  const manifest = {
    name: `workitem-studio-test-locale-${locale}`,
    displayName: `Test display language ${locale} (never shipped)`,
    description: `Makes a test or demo workbench use the display language ${locale}; VS Code's own strings stay English.`,
    version: '0.0.0',
    publisher: 'workitem-studio',
    license: 'MIT',
    private: true,
    engines: { vscode: '^1.100.0' },
    categories: ['Language Packs'],
    contributes: {
      localizations: [{ languageId: locale, languageName: locale, translations: [{ id: 'vscode', path: './translations/main.i18n.json' }] }],
    },
  };
  fs.writeFileSync(path.join(folder, 'package.json'), JSON.stringify(manifest, null, 2));
  fs.writeFileSync(path.join(folder, 'translations', 'main.i18n.json'), JSON.stringify({ version: '1.0.0', contents: {} }));
  fs.writeFileSync(path.join(folder, 'README.md'), `# Test display language ${locale}\n\nFor test and demo workbenches only; never shipped.\n`);
  return folder;
}

/**
 * Registers the installed stand-in language pack in the user-data folder's language-pack cache
 * (languagepacks.json, the file VS Code keeps of installed language packs). code-server writes
 * that cache only when a workbench first asks for the installed languages, which is after the
 * first page has chosen its language; written beforehand, the first page opens in `locale`.
 */
function registerLanguagePack(userDataDir: string, extensionsDir: string, locale: string): void {
  const id = `workitem-studio.workitem-studio-test-locale-${locale}`;
  const installed = fs.readdirSync(extensionsDir).find((d) => d.startsWith(`${id}-`));
  if (!installed) throw new Error(`the stand-in language pack ${id} is not in ${extensionsDir}`);
  const translations = path.join(extensionsDir, installed, 'translations', 'main.i18n.json');
  const cache = {
    [locale]: {
      hash: `e2e-${locale}-0`,
      label: locale,
      extensions: [{ extensionIdentifier: { id }, version: '0.0.0' }],
      translations: { vscode: translations },
    },
  };
  fs.writeFileSync(path.join(userDataDir, 'languagepacks.json'), JSON.stringify(cache, null, 2));
}

/**
 * Makes a code-server workbench open in `locale` (e.g. 'ja'): a stand-in language pack is staged,
 * packaged and installed, and registered before the first page opens. English needs nothing.
 */
export function installDisplayLanguage(tools: Tools, o: { runDir: string; extensionsDir: string; userDataDir: string; locale: string; logFile?: string }): void {
  if (o.locale.startsWith('en')) return;
  const pack = stageLanguagePack(path.join(o.runDir, `locale-${o.locale}`), o.locale);
  installExtensions(tools, o.extensionsDir, o.userDataDir, [packageFolder(pack, path.join(o.runDir, `locale-${o.locale}.vsix`), o.logFile)], o.logFile);
  registerLanguagePack(o.userDataDir, o.extensionsDir, o.locale);
}

function codeServerEnv(tools: Tools): NodeJS.ProcessEnv {
  const env = { ...process.env };
  // Node 24 first on PATH for code-server and its extension host; nothing of npm's run context leaks in.
  env.PATH = `${path.dirname(tools.node24)}${path.delimiter}${env.PATH ?? ''}`;
  for (const k of Object.keys(env)) if (k.startsWith('npm_') || k === 'NODE_OPTIONS' || k.startsWith('VSCODE_')) delete env[k];
  return env;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

export async function sleep(ms: number): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
}

/** Ends a process group we started (detached child = its own group), then the process itself. */
export async function killTree(child: ChildProcess, graceMs = 5_000): Promise<void> {
  const pid = child.pid;
  if (pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(-pid, s);
    } catch {
      try {
        process.kill(pid, s);
      } catch {
        // already gone
      }
    }
  };
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  signal('SIGTERM');
  const done = await Promise.race([exited.then(() => true), sleep(graceMs).then(() => false)]);
  if (!done) {
    signal('SIGKILL');
    await Promise.race([exited, sleep(2_000)]);
  } else {
    // Children of the group (extension host, language servers) may outlive the leader briefly.
    signal('SIGKILL');
  }
}

export interface CodeServer {
  url: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

export interface CodeServerOptions {
  tools: Tools;
  userDataDir: string;
  extensionsDir: string;
  folder: string;
  logFile: string;
  locale?: string;
  startTimeoutMs?: number;
  /** Extra user settings (merged over TEST_USER_SETTINGS). */
  userSettings?: Record<string, unknown>;
  /** A fixed port (default: a free one). */
  port?: number;
  /** The extension's test hooks on (WIS_TEST_HOOKS=1 in the extension host's environment): the integration runner's. */
  testHooks?: boolean;
}

/** User settings for a test workbench: quiet, offline, no telemetry, nothing opened on start. */
export const TEST_USER_SETTINGS: Record<string, unknown> = {
  'telemetry.telemetryLevel': 'off',
  'workbench.startupEditor': 'none',
  'workbench.enableExperiments': false,
  'workbench.tips.enabled': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'json.schemaDownload.enable': false,
  'npm.fetchOnlinePackageInfo': false,
  'security.workspace.trust.enabled': false,
  'chat.disableAIFeatures': true,
  'window.commandCenter': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.layoutControl.enabled': false,
};

function writeUserSettings(userDataDir: string, extra: Record<string, unknown> = {}): void {
  const dir = path.join(userDataDir, 'User');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ ...TEST_USER_SETTINGS, ...extra }, null, 2));
}

/** Starts code-server on a free loopback port with its own user-data-dir; waits for /healthz. */
export async function startCodeServer(o: CodeServerOptions): Promise<CodeServer> {
  let lastError: unknown;
  for (let attempt = 1; attempt <= 3; attempt++) {
    const port = o.port ?? (await freePort());
    const configFile = path.join(o.userDataDir, '..', 'code-server-config.yaml');
    fs.mkdirSync(o.userDataDir, { recursive: true });
    writeUserSettings(o.userDataDir, o.userSettings);
    fs.writeFileSync(configFile, 'auth: none\n');
    const args = [
      o.tools.codeServerEntry,
      '--config', configFile,
      '--auth', 'none',
      '--bind-addr', `127.0.0.1:${port}`,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--ignore-last-opened',
      '--user-data-dir', o.userDataDir,
      '--extensions-dir', o.extensionsDir,
      ...(o.locale ? ['--locale', o.locale] : []),
      o.folder,
    ];
    const out = fs.openSync(o.logFile, 'a');
    const child = spawn(o.tools.node24, args, {
      cwd: o.folder,
      env: { ...codeServerEnv(o.tools), ...(o.testHooks ? { [TEST_HOOKS_ENV]: '1' } : {}) },
      stdio: ['ignore', out, out],
      detached: true,
    });
    fs.closeSync(out);
    const url = `http://127.0.0.1:${port}`;
    const stop = () => killTree(child);
    try {
      await waitForHealth(url, child, o.startTimeoutMs ?? 60_000, o.logFile);
      return { url, port, process: child, stop };
    } catch (e) {
      lastError = e;
      await stop();
      log('code-server', `start attempt ${attempt} failed: ${(e as Error).message}`);
    }
  }
  throw new Error(`code-server did not start: ${(lastError as Error)?.message}`);
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number, logFile: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const tail = fs.readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n');
      throw new Error(`code-server exited (${child.exitCode ?? child.signalCode}) before listening:\n${tail}`);
    }
    try {
      const r = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (r.ok) return;
    } catch {
      // not yet
    }
    await sleep(250);
  }
  throw new Error(`code-server did not answer ${url}/healthz within ${timeoutMs} ms (log: ${logFile})`);
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Launches Debian's Chromium headless through playwright-core (never a downloaded browser). */
export async function launchChromium(tools: Tools): Promise<import('playwright-core').Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: tools.chromium, headless: true, args: CHROMIUM_ARGS, timeout: 60_000 });
}

/** A fresh folder for one run's state (user data, extensions, workspace); removed by `cleanup`. */
export function makeRunDir(tag: string): { dir: string; cleanup(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `wis-${tag}-`));
  return {
    dir,
    cleanup() {
      if (process.env.WIS_KEEP_RUN_DIR) return;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** test-results/<tier>/ in the repository (gitignored): logs and results of the last run. */
export function resultsDir(tier: string): string {
  const d = path.join(REPO_ROOT, 'test-results', tier);
  fs.rmSync(d, { recursive: true, force: true });
  fs.mkdirSync(d, { recursive: true });
  return d;
}
