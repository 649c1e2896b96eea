// Checks the packaged VSIX: it ships what the extension needs (the bundles, the webviews' page
// scripts, schemas, media, localization, manifest, README, the docs/ pages and CONTRIBUTING.md the README links to,
// CHANGELOG, LICENSE) and nothing of the development tree (sources, tests, source maps,
// node_modules, benchmarks, scripts), within a size bound; the shipped pages' relative links
// and images lead to files of the VSIX (VS Code opens them inside the installed extension).
// Usage: node scripts/check-vsix.mjs [path/to.vsix]   (default dist-vsix/workitem-studio.vsix)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { listZip, readZipEntry } from './vsix.mjs';

/** Bounds recorded when the packaging was set up; raise them deliberately, with a reason in the CHANGELOG. */
// 4 MiB since the README shows the work item table (8 screenshots, English and Japanese; README images ship in the VSIX);
// 4.5 MiB since the undo flow's screenshots show the undo of a change (its requests in the summary, the document beside it);
// 5 MiB since the table's docs show an outline pasted as new items and its review (4 screenshots, English and Japanese).
export const MAX_VSIX_BYTES = 5 * 1024 * 1024;
// 100 entries since the docs/ pages ship (13 pages and CONTRIBUTING.md beside about 62 entries).
export const MAX_FILES = 100;

const REQUIRED = [
  'extension/package.json',
  'extension/package.nls.json',
  'extension/package.nls.ja.json',
  'extension/dist/extension.js',
  'extension/dist/core.js',
  'extension/dist/sandbox.js',
  // The webviews' page scripts (PAGE_SCRIPTS of src/webview/html.ts).
  'extension/dist/web/table.js',
  'extension/dist/web/changes.js',
  'extension/dist/web/results.js',
  'extension/readme.md',
  'extension/changelog.md',
  'extension/LICENSE.txt',
  'extension/l10n/bundle.l10n.ja.json',
  'extension/media/icon.png',
  'extension/CONTRIBUTING.md',
  'extension/docs/commands.md',
  'extension/docs/settings.md',
];
const REQUIRED_FOLDERS = ['extension/schemas/', 'extension/media/', 'extension/l10n/', 'extension/docs/'];
const FORBIDDEN = [
  [/\.map$/, 'source map'],
  [/^extension\/src\//, 'source folder'],
  [/^extension\/test\//, 'tests'],
  [/^extension\/(.*\/)?node_modules\//, 'node_modules'],
  [/^extension\/bench\//, 'benchmarks'],
  [/^extension\/scripts\//, 'development scripts'],
  [/^extension\/dist\/(test|tools)\//, 'test or build-tool bundles'],
  [/^extension\/test-results\//, 'test results'],
  [/(?<!\.d)\.ts$/, 'TypeScript source'],
  [/^extension\/\.[^/]+/, 'dot file'],
  [/^extension\/(tsconfig\.json|esbuild\.js|package-lock\.json|\.vscode-test\.mjs)$/, 'development file'],
];

/**
 * Relative links and images of a Markdown page that lead to no entry of the VSIX. Code blocks and
 * code spans are skipped; URLs with a scheme (https:, mailto:) are not checked here.
 * @param {string} page entry name, e.g. extension/docs/table.md
 * @param {string} text the page
 * @param {Set<string>} names every entry name
 * @returns {string[]}
 */
export function brokenPageLinks(page, text, names) {
  const prose = text.replace(/^\s*```[\s\S]*?^\s*```/gm, '').replace(/`[^`\n]*`/g, '');
  const problems = [];
  for (const m of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const target = m[1];
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
    const file = path.posix.normalize(path.posix.join(path.posix.dirname(page), decodeURIComponent(target.split('#')[0])));
    const folder = file.endsWith('/') ? file : `${file}/`;
    if (!names.has(file) && ![...names].some((n) => n.startsWith(folder))) problems.push(`${page} links ${target}, which is not in the VSIX`);
  }
  return problems;
}

/** @returns {string[]} problems (empty when the VSIX is as intended) */
export function checkVsix(file) {
  const entries = listZip(file);
  const names = entries.map((e) => e.name);
  const problems = [];
  for (const r of REQUIRED) if (!names.includes(r)) problems.push(`missing ${r}`);
  for (const f of REQUIRED_FOLDERS) if (!names.some((n) => n.startsWith(f) && !n.endsWith('/'))) problems.push(`nothing under ${f}`);
  if (!names.some((n) => /^extension\/schemas\/.+\.json$/.test(n))) problems.push('no JSON Schema under extension/schemas/');
  for (const n of names) {
    for (const [re, what] of FORBIDDEN) if (re.test(n)) problems.push(`${what} shipped: ${n}`);
  }
  const nameSet = new Set(names);
  for (const page of names.filter((n) => n === 'extension/readme.md' || n === 'extension/CONTRIBUTING.md' || /^extension\/docs\/.+\.md$/.test(n))) {
    problems.push(...brokenPageLinks(page, readZipEntry(file, page).toString('utf8'), nameSet));
  }
  const size = fs.statSync(file).size;
  if (size > MAX_VSIX_BYTES) problems.push(`VSIX is ${size} bytes, over the bound of ${MAX_VSIX_BYTES}`);
  if (entries.length > MAX_FILES) problems.push(`VSIX has ${entries.length} entries, over the bound of ${MAX_FILES}`);
  return problems;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = path.resolve(process.argv[2] ?? 'dist-vsix/workitem-studio.vsix');
  if (!fs.existsSync(file)) {
    console.error(`check-vsix: ${file} not found (run npm run package)`);
    process.exit(1);
  }
  const problems = checkVsix(file);
  const entries = listZip(file);
  const size = fs.statSync(file).size;
  if (problems.length > 0) {
    console.error(`check-vsix: ${path.basename(file)} is not as intended:\n  - ${problems.join('\n  - ')}`);
    process.exit(1);
  }
  console.log(`check-vsix: ${path.basename(file)} OK: ${entries.length} entries, ${(size / 1024).toFixed(1)} KiB (bound ${(MAX_VSIX_BYTES / 1024).toFixed(0)} KiB)`);
}
