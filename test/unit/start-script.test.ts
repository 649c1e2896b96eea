// `npm start`'s output with its installers and servers stubbed (scripts/start-steps.ts):
// one line per step, at most ~15 lines before the URL, and the tools' output only when a
// step fails (its tail, and where the full log is).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { localeArg, runStart, START_SANDBOX_LABEL, StepFailed, type StartSteps } from '../../scripts/start-steps';

function stubs(over: Partial<StartSteps> = {}, logFile?: string): { steps: StartSteps; calls: string[] } {
  const calls: string[] = [];
  const noisy = (name: string) => {
    // What a real installer would print: it must reach the log file only.
    if (logFile) fs.appendFileSync(logFile, `${name}: npm WARN deprecated something@1.0.0\n${name}: added 812 packages\n`);
  };
  const steps: StartSteps = {
    desktopCode: () => undefined,
    prepareWorkbench: async () => (calls.push('prepareWorkbench'), noisy('setup'), { installed: [] }),
    build: async () => void (calls.push('build'), noisy('build')),
    installExtension: async () => void (calls.push('installExtension'), noisy('vsce')),
    startSandbox: async () => (calls.push('startSandbox'), { url: 'http://127.0.0.1:4567/api', workspace: '/tmp/wis-start-x/demo' }),
    startWorkbench: async (w) => (calls.push(`startWorkbench ${w}`), { url: 'http://127.0.0.1:8080/?folder=%2Ftmp%2Fwis-start-x%2Fdemo' }),
    openDesktop: async (c, w) => void calls.push(`openDesktop ${c} ${w}`),
    ...over,
  };
  return { steps, calls };
}

describe('npm start output (scripts/start-steps.ts, installers stubbed)', () => {
  let dir: string;
  let logFile: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wis-start-test-'));
    logFile = path.join(dir, 'start.log');
    fs.writeFileSync(logFile, 'npm start\n');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const start = (steps: StartSteps) => {
    let out = '';
    const done = runStart({ steps, logFile, logName: 'test-results/start/start.log', write: (t) => (out += t), signIn: { loginName: 'admin', password: 'password' } });
    return { done, out: () => out };
  };

  it('prints one line per step and the URL within 15 lines, and no installer output', async () => {
    const { steps, calls } = stubs({}, logFile);
    const s = start(steps);
    const r = await s.done;
    const lines = s.out().split('\n');
    const urlLine = lines.findIndex((l) => l.includes('http://127.0.0.1:8080/'));
    assert.ok(urlLine >= 0 && urlLine < 15, s.out());
    assert.deepEqual(lines.slice(0, 6), [
      'Work Item Studio: starting the demo (details go to test-results/start/start.log)',
      '  Preparing the browser workbench (installed once: about 5 minutes the first time)… ready',
      '  Building the extension… done',
      '  Installing the extension into the workbench… done',
      `  Starting the sandbox with demo data… ${START_SANDBOX_LABEL} at http://127.0.0.1:4567/api`,
      '  Opening the workbench… done',
    ]);
    assert.match(s.out(), /Open http:\/\/127\.0\.0\.1:8080\/\?folder=%2Ftmp%2Fwis-start-x%2Fdemo in your browser\./);
    assert.match(s.out(), /connected to "Sandbox \(started by npm start\)"/);
    assert.match(s.out(), /login name "admin" and password "password"/);
    assert.doesNotMatch(s.out(), /npm WARN|added 812 packages/);
    assert.match(fs.readFileSync(logFile, 'utf8'), /npm WARN deprecated/);
    assert.deepEqual(calls, ['prepareWorkbench', 'build', 'installExtension', 'startSandbox', 'startWorkbench /tmp/wis-start-x/demo']);
    assert.equal(r.url, 'http://127.0.0.1:8080/?folder=%2Ftmp%2Fwis-start-x%2Fdemo');
  });

  it('says what the first run installed, on the same line', async () => {
    const { steps } = stubs({ prepareWorkbench: async () => ({ installed: ['node24', 'code-server'] }) }, logFile);
    const s = start(steps);
    await s.done;
    assert.match(s.out(), /Preparing the browser workbench \(installed once: about 5 minutes the first time\)… installed node24, code-server \(\d+ s\)\n/);
  });

  it('a failing step prints the tail of its captured output and where the full log is, and stops there', async () => {
    const { steps, calls } = stubs(
      {
        build: async () => {
          fs.appendFileSync(logFile, Array.from({ length: 40 }, (_, i) => `esbuild line ${i + 1}`).join('\n') + '\nX [ERROR] Could not resolve "./nowhere"\n');
          throw new Error('npm run --silent build failed (exit 1)');
        },
      },
      logFile,
    );
    const s = start(steps);
    await assert.rejects(s.done, (e: unknown) => e instanceof StepFailed && e.step === 'Building the extension');
    const out = s.out();
    assert.match(out, /  Building the extension… failed\n    npm run --silent build failed \(exit 1\)\n/);
    assert.match(out, /    X \[ERROR\] Could not resolve "\.\/nowhere"\n  Full log: test-results\/start\/start\.log\n$/);
    assert.match(out, /esbuild line 40/);
    assert.doesNotMatch(out, /esbuild line 5\n/, 'only the tail (20 lines) is shown');
    // The previous step's output is not part of this step's tail.
    assert.doesNotMatch(out, /setup: added 812 packages/);
    assert.deepEqual(calls, ['prepareWorkbench'], 'no step runs after a failure');
    assert.doesNotMatch(out, /Open http/);
  });

  it('a failing step that wrote nothing to the log shows its error (with the output tail it carries)', async () => {
    const { steps } = stubs({
      prepareWorkbench: async () => {
        throw new Error('scripts/setup-code-server.sh failed (exit 1):\n[setup] ERROR: missing Debian packages: chromium (WIS_SKIP_APT=1)');
      },
    });
    const s = start(steps);
    await assert.rejects(s.done, StepFailed);
    assert.match(s.out(), /… failed\n    scripts\/setup-code-server\.sh failed \(exit 1\):\n    \[setup\] ERROR: missing Debian packages: chromium \(WIS_SKIP_APT=1\)\n  Full log: /);
  });

  it('with a desktop VS Code: no browser workbench steps, VS Code opened on the demo workspace', async () => {
    const { steps, calls } = stubs({ desktopCode: () => '/usr/bin/code' }, logFile);
    const s = start(steps);
    const r = await s.done;
    assert.equal(r.url, undefined);
    assert.deepEqual(calls, ['build', 'startSandbox', 'openDesktop /usr/bin/code /tmp/wis-start-x/demo']);
    assert.ok(s.out().split('\n').length <= 15, s.out());
    assert.match(s.out(), /Opening VS Code with the extension… done/);
  });
});

describe('npm start --locale', () => {
  it('reads the display language from --locale ja and --locale=ja', () => {
    assert.equal(localeArg(['--locale', 'ja']), 'ja');
    assert.equal(localeArg(['--locale=JA']), 'ja');
    assert.equal(localeArg(['--locale', 'zh-Hant']), 'zh-hant');
  });
  it('gives no language when none is asked for', () => {
    assert.equal(localeArg([]), undefined);
    assert.equal(localeArg(['--other']), undefined);
  });
  it('refuses a value that is not a language tag, naming it', () => {
    assert.throws(() => localeArg(['--locale', '../x']), /not "\.\.\/x"/);
  });
});
