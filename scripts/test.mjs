// `npm test`: every tier, in order, each with a time limit, then a summary (each tier's result, how
// many tests ran and passed, its time, and what it ran) and one closing line `N passed, N failed`.
// Exit 1 when any step or test failed (or a tier ran no test).
//   build, typecheck, lint (ESLint, no warning allowed), unit (mocha in Node), package (VSIX + content check),
//   setup (Debian packages, Node 24, code-server into a cache outside the repo; reused; it runs
//   alongside the steps before it, from the start, and reports in its place),
//   integration (every integration suite in code-server's extension host),
//   integration-plain (only the tests tagged @errors, against sandboxes that answer failures with a
//   status and [{"message"}] only: --plain-errors; the mode changes nothing else),
//   test-cli (only the tests tagged @cli, under @vscode/test-cli's runner and .vscode-test.mjs: the
//   check that the runner and its configuration work), e2e (browser on the workbench).
// The tags are words in the test's or its suite's title, selected with mocha's grep (TIER_GREP).
// The VSIX and the tools are made once and passed to every VS Code tier.
// Environment: WIS_TEST_TIERS=typecheck,lint,unit,package,setup,integration,integration-plain,test-cli,e2e
// (a subset; build always runs, and package and setup run whenever a VS Code tier does);
// WIS_TEST_SERIAL=1: the setup waits for its turn instead.
// `node scripts/test.mjs --list` prints the steps (name, command, arguments) as JSON and runs nothing.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const only = process.env.WIS_TEST_TIERS ? new Set(process.env.WIS_TEST_TIERS.split(',')) : undefined;
const env = { ...process.env };

/** @typedef {{ name: string, cmd: string, args: string[], limitMin: number, counts?: 'mocha' | 'plain', stopOnFail?: boolean, after?: (out: string) => void, what?: string }} Step */

/** The mocha grep of each reduced integration tier: a tag in the titles of the tests it runs. */
const TIER_GREP = { 'integration-plain': '@errors', 'test-cli': '@cli' };

/**
 * An integration tier: test/runners/offline.ts with `args`.
 * @returns {Step}
 */
function offline(name, args, limitMin, what) {
  return { name, cmd: npx, args: ['--no-install', 'tsx', 'test/runners/offline.ts', ...args], limitMin, counts: 'plain', what };
}

/** @type {Step[]} */
const steps = [
  { name: 'build', cmd: npm, args: ['run', '--silent', 'build'], limitMin: 5, stopOnFail: true },
  { name: 'typecheck', cmd: npm, args: ['run', '--silent', 'typecheck'], limitMin: 10 },
  // ESLint (eslint.config.mjs): any warning fails (`npm run lint` passes --max-warnings 0).
  { name: 'lint', cmd: npm, args: ['run', '--silent', 'lint'], limitMin: 10 },
  { name: 'unit', cmd: npm, args: ['run', '--silent', 'test:unit'], limitMin: 25, counts: 'mocha', what: 'every unit test' },
  {
    name: 'package',
    cmd: npm,
    args: ['run', '--silent', 'package'],
    limitMin: 5,
    after: () => {
      // A private copy: other work in this tree may package again while the tiers run.
      const copy = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wis-test-')), 'workitem-studio.vsix');
      fs.copyFileSync(path.join(root, 'dist-vsix', 'workitem-studio.vsix'), copy);
      env.WIS_VSIX = copy;
    },
  },
  {
    name: 'setup',
    cmd: 'bash',
    args: [path.join(root, 'scripts', 'setup-code-server.sh')],
    limitMin: 45,
    after: (out) => {
      const kv = Object.fromEntries([...out.matchAll(/^([A-Z0-9_]+)=(.*)$/gm)].map((m) => [m[1], m[2]]));
      if (kv.NODE24 && kv.CODE_SERVER_ENTRY) {
        env.WIS_NODE24 = kv.NODE24;
        env.WIS_CODE_SERVER_ENTRY = kv.CODE_SERVER_ENTRY;
        env.WIS_CHROMIUM = kv.CHROMIUM;
        env.WIS_CACHE = kv.WIS_CACHE;
      }
    },
  },
  offline('integration', [], 20, 'every integration test'),
  // Against sandboxes that answer failures without codes (the official help: error codes and
  // messages are no contract; a client must cope with a status and a message). The mode changes
  // only failure answers, so only the tests that get one (or check how failures read) run again:
  // those tagged @errors. test/integration/errorsTag.test.ts fails the integration tier when a
  // test gets a failure answer without the tag.
  offline('integration-plain', ['--plain-errors', '--grep', TIER_GREP['integration-plain']], 10, `tests tagged ${TIER_GREP['integration-plain']}, sandboxes with plain errors`),
  // Under @vscode/test-cli's runner and .vscode-test.mjs (what test-electron runs): a check of the
  // runner and its configuration, not of the extension (the integration tier runs every test):
  // the tests tagged @cli, the activation suites and a document sent to the sandbox.
  offline('test-cli', ['--test-cli', '--grep', TIER_GREP['test-cli']], 10, `tests tagged ${TIER_GREP['test-cli']}, @vscode/test-cli's runner`),
  { name: 'e2e', cmd: npm, args: ['run', '--silent', 'test:e2e'], limitMin: 25, counts: 'mocha', what: 'every e2e suite' },
];
const VSCODE_TIERS = ['integration', 'integration-plain', 'test-cli', 'e2e'];
if (only && VSCODE_TIERS.some((t) => only.has(t))) {
  // Packaged and set up once for all of them (each runner would otherwise do it again).
  only.add('package');
  only.add('setup');
}

if (process.argv.includes('--list')) {
  process.stdout.write(`${JSON.stringify(steps.map((s) => ({ name: s.name, runs: s.name === 'build' || !only || only.has(s.name), cmd: path.basename(s.cmd), args: s.args })), null, 2)}\n`);
  process.exit(0);
}

/**
 * Runs one step within its limit (the whole process group is ended after it), streaming its output,
 * or only collecting it when `buffered` (a step run alongside others prints when its turn comes).
 */
function runStep(step, buffered = false) {
  return new Promise((resolve) => {
    const started = Date.now();
    let out = '';
    const child = spawn(step.cmd, step.args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const onData = (stream) => (chunk) => {
      out += chunk.toString();
      if (!buffered) stream.write(chunk);
    };
    child.stdout.on('data', onData(process.stdout));
    child.stderr.on('data', onData(process.stderr));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      process.stderr.write(`\n[test] ${step.name} exceeded ${step.limitMin} minutes: stopping it\n`);
      try {
        process.kill(-child.pid, 'SIGTERM');
        setTimeout(() => {
          try {
            process.kill(-child.pid, 'SIGKILL');
          } catch {}
        }, 10_000).unref();
      } catch {}
    }, step.limitMin * 60_000);
    child.on('error', (e) => {
      out += String(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: timedOut ? 124 : code ?? 1, out, seconds: (Date.now() - started) / 1000, timedOut });
    });
    const stop = () => {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {}
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

function countTests(kind, out) {
  // eslint-disable-next-line no-control-regex
  const text = out.replace(/\x1b\[[0-9;]*m/g, '');
  const last = (re) => {
    const all = [...text.matchAll(re)];
    return all.length ? Number(all[all.length - 1][1]) : 0;
  };
  if (kind === 'mocha') {
    return { passed: last(/^\s*(\d+) passing/gm), failed: last(/^\s*(\d+) failing/gm), skipped: last(/^\s*(\d+) pending/gm) };
  }
  const m = [...text.matchAll(/^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/gm)].pop();
  return m ? { passed: Number(m[1]), failed: Number(m[2]), skipped: Number(m[3] ?? 0) } : { passed: 0, failed: 0, skipped: 0 };
}

const runs = (step) => step.name === 'build' || !only || only.has(step.name);
const startedAll = Date.now();
// The setup (on a machine without the cache: Debian packages, Node 24 and code-server, minutes of
// downloads and unpacking) needs nothing of the steps before it: it runs alongside them, from the
// start, and reports in its place. WIS_TEST_SERIAL=1 runs every step on its own.
/** @type {Map<string, Promise<{ code: number, out: string, seconds: number, timedOut: boolean }>>} */
const early = new Map();
if (process.env.WIS_TEST_SERIAL !== '1') {
  for (const step of steps.filter((s) => s.name === 'setup' && runs(s))) {
    process.stdout.write(`[test] ${step.name} started alongside the steps before it (its output follows in its place)\n`);
    early.set(step.name, runStep(step, true));
  }
}

const rows = [];
let stopped = false;
for (const step of steps) {
  if (stopped) break;
  if (!runs(step)) continue;
  process.stdout.write(`\n[test] ── ${step.name} ──\n`);
  const alongside = early.get(step.name);
  early.delete(step.name);
  const r = alongside ? { ...(await alongside), alongside: true } : await runStep(step);
  if (alongside) process.stdout.write(r.out);
  let ok = r.code === 0;
  const counts = step.counts ? countTests(step.counts, r.out) : undefined;
  if (counts && counts.passed + counts.failed === 0) ok = false; // a tier that ran nothing has failed
  if (ok) step.after?.(r.out);
  const what = r.alongside ? [step.what, 'alongside the steps before it'].filter(Boolean).join(', ') : step.what;
  rows.push({ name: step.name, ok, counts, seconds: r.seconds, what, note: r.timedOut ? 'timed out' : counts && counts.passed + counts.failed === 0 ? 'ran no test' : '' });
  if (!ok && step.stopOnFail) stopped = true;
  if (!ok && (step.name === 'package' || step.name === 'setup')) {
    // Without a VSIX or the tools the VS Code tiers cannot run: report them as not run.
    for (const s of steps.filter((x) => VSCODE_TIERS.includes(x.name) && (!only || only.has(x.name)))) {
      rows.push({ name: s.name, ok: false, seconds: 0, note: `not run (${step.name} failed)` });
    }
    stopped = true;
  }
}

// A step started alongside others is never cut short (an installer stopped midway may leave its cache half made).
for (const [, pending] of early) await pending;

let passed = 0;
let failed = 0;
let skipped = 0;
const lines = rows.map((r) => {
  if (r.counts) {
    passed += r.counts.passed;
    failed += r.counts.failed;
    skipped += r.counts.skipped;
  }
  // A failed step without failed tests (build, typecheck, a crash) still counts as one failure.
  if (!r.ok && (!r.counts || r.counts.failed === 0)) failed += 1;
  const c = r.counts;
  const tests = c ? `${c.passed + c.failed} ran: ${c.passed} passed, ${c.failed} failed${c.skipped ? `, ${c.skipped} skipped` : ''}` : '';
  const time = `${r.seconds.toFixed(0).padStart(5)} s ${`(${(r.seconds / 60).toFixed(1)} min)`.padStart(10)}`;
  const about = [r.what, r.note].filter(Boolean).join('; ');
  return `  ${r.name.padEnd(17)} ${(r.ok ? 'ok' : 'FAILED').padEnd(7)} ${tests.padEnd(36)} ${time}  ${about}`.trimEnd();
});
// Wall-clock time: a step run alongside others is in the rows with its own time, but counted once here.
const total = (Date.now() - startedAll) / 1000;
const head = `  ${'tier'.padEnd(17)} ${'result'.padEnd(7)} ${'tests'.padEnd(36)} ${'time'.padStart(7).padEnd(18)}  what it ran`;
const summary = `\n[test] summary (${(total / 60).toFixed(1)} min)\n${head}\n${lines.join('\n')}\n`;
process.stdout.write(summary);
fs.mkdirSync(path.join(root, 'test-results'), { recursive: true });
fs.writeFileSync(path.join(root, 'test-results', 'summary.txt'), summary);
process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
if (env.WIS_VSIX && env.WIS_VSIX !== process.env.WIS_VSIX) fs.rmSync(path.dirname(env.WIS_VSIX), { recursive: true, force: true });
process.exit(rows.every((r) => r.ok) ? 0 : 1);
