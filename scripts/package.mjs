// `npm run package`: production bundles (minified, no source maps), then the VSIX with vsce into
// dist-vsix/workitem-studio.vsix, then the content and size check (scripts/check-vsix.mjs).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkVsix } from './check-vsix.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist-vsix', 'workitem-studio.vsix');

function step(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], timeout: 5 * 60_000 });
  if (r.status !== 0) {
    console.error(`package: ${path.basename(cmd)} ${args.join(' ')} failed (${r.error?.message ?? `exit ${r.status ?? r.signal}`})`);
    process.exit(1);
  }
}

const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
fs.mkdirSync(path.dirname(out), { recursive: true });
// Written under a temporary name and renamed: a reader (a test run) never sees a missing or half-written VSIX.
const tmp = `${out}.${process.pid}.tmp.vsix`;
step(process.execPath, ['esbuild.js', '--production']);
const vsce = path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
step(process.execPath, [
  vsce,
  'package',
  '--no-dependencies',
  // README images are repository-relative (media/screenshots/); they ship inside the VSIX.
  '--no-rewrite-relative-links',
  ...(manifest.repository ? [] : ['--allow-missing-repository']),
  '-o',
  tmp,
]);
const problems = checkVsix(tmp);
if (problems.length > 0) {
  console.error(`package: ${path.relative(root, out)} is not as intended:\n  - ${problems.join('\n  - ')}`);
  fs.rmSync(tmp, { force: true });
  process.exit(1);
}
fs.renameSync(tmp, out);
console.log(`package: ${path.relative(root, out)} (${(fs.statSync(out).size / 1024).toFixed(1)} KiB), contents checked`);
