import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

// The README and the pages of docs/ are part of the product: they document every contributed
// command and setting, and every link and picture in them leads somewhere.
const root = path.resolve(__dirname, '..', '..');
const read = (rel: string): string => fs.readFileSync(path.join(root, rel), 'utf8');
const readme = read('README.md');
const manifest = JSON.parse(read('package.json'));
const docPages = fs
  .readdirSync(path.join(root, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .sort()
  .map((f) => `docs/${f}`);
const markdownFiles = ['README.md', 'CONTRIBUTING.md', ...docPages];

/** The text outside fenced code blocks, inline code spans blanked (a link in code is no link). */
function prose(markdown: string): string {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const m = /^\s*(```+|~~~+)/.exec(line);
    if (m) {
      if (fence === undefined) fence = m[1]![0];
      else if (m[1]![0] === fence) fence = undefined;
      lines.push('');
      continue;
    }
    lines.push(fence === undefined ? line.replace(/`[^`\n]*`/g, (code) => code.replace(/[[\]()]/g, '_')) : '');
  }
  return lines.join('\n');
}

/** The anchor GitHub gives a heading: its text as shown, lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  const shown = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase();
  return shown.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** Every anchor of a Markdown file, a repeated heading numbered as GitHub numbers it (-1, -2, …). */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

interface Link {
  file: string;
  line: number;
  target: string;
  image: boolean;
}

function links(file: string): Link[] {
  const text = prose(read(file));
  return [...text.matchAll(/(!?)\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => ({
    file,
    line: text.slice(0, m.index).split('\n').length,
    target: m[2]!,
    image: m[1] === '!',
  }));
}

/** What is wrong with a relative link (undefined when it leads to a file, and to a heading of it). */
function brokenLink(link: Link): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(link.target)) return undefined; // https:, mailto:: not checked offline
  const [rawPath, anchor] = link.target.split('#', 2) as [string, string | undefined];
  const relPath = decodeURIComponent(rawPath);
  const file = relPath === '' ? path.join(root, link.file) : path.resolve(path.dirname(path.join(root, link.file)), relPath);
  if (path.relative(root, file).startsWith('..')) return 'points outside the repository';
  if (!fs.existsSync(file)) return `${path.relative(root, file)} does not exist`;
  if (anchor === undefined || anchor === '') return undefined;
  if (!file.endsWith('.md')) return `an anchor into ${path.relative(root, file)}, which is not Markdown`;
  if (!anchors(fs.readFileSync(file, 'utf8')).has(anchor.toLowerCase())) return `${path.relative(root, file)} has no heading #${anchor}`;
  return undefined;
}

describe('README', () => {
  it('opens with the two commands for a fresh machine', () => {
    const firstScreen = readme.split('\n').slice(0, 20).join('\n');
    assert.match(firstScreen, /npm ci && npm start/);
    assert.match(firstScreen, /npm ci && npm test/);
    assert.equal(manifest.scripts.test !== undefined && manifest.scripts.start !== undefined, true);
    assert.match(read('.ci/run'), /^npm test$/m);
  });

  it('is at most 300 lines, as users read it', () => {
    const lines = readme.split('\n').length - (readme.endsWith('\n') ? 1 : 0);
    assert.ok(lines <= 300, `README.md has ${lines} lines; move reference text into docs/`);
  });

  it('says how to open the demo in Japanese near the commands', () => {
    const quickStart = readme.split('\n').slice(0, 40).join('\n');
    assert.match(quickStart, /npm start -- --locale ja/);
  });

  it('shows screenshots, each with alt text', () => {
    const images = links('README.md').filter((l) => l.image);
    assert.ok(images.length > 0, 'README shows no screenshot');
    const text = prose(readme);
    const withoutAlt = [...text.matchAll(/!\[\s*\]\(([^)]+)\)/g)].map((m) => m[1]);
    assert.deepEqual(withoutAlt, [], 'images without alt text');
  });

  it('links every page of docs/ and CONTRIBUTING.md', () => {
    const linked = new Set(links('README.md').map((l) => path.normalize(l.target.split('#')[0]!)));
    const missing = [...docPages, 'CONTRIBUTING.md'].filter((p) => !linked.has(path.normalize(p)));
    assert.deepEqual(missing, [], 'pages the README does not link');
  });
});

describe('docs', () => {
  it('documents every contributed command in docs/commands.md', () => {
    const commands = read('docs/commands.md');
    const missing = (manifest.contributes.commands as { command: string }[])
      .map((c) => c.command)
      .filter((id) => !commands.includes(`\`${id}\``));
    assert.deepEqual(missing, [], 'commands missing from docs/commands.md');
  });

  it('documents every setting in docs/settings.md', () => {
    const settings = read('docs/settings.md');
    const keys = [manifest.contributes.configuration]
      .flat()
      .flatMap((c: { properties: Record<string, unknown> }) => Object.keys(c.properties));
    const missing = keys.filter((k) => !settings.includes(`\`${k}\``));
    assert.deepEqual(missing, [], 'settings missing from docs/settings.md');
  });

  it('has only relative links that lead to an existing file and heading', () => {
    const all = markdownFiles.flatMap(links);
    assert.ok(all.some((l) => l.target.includes('#')), 'no anchor link was found: the link scan is broken');
    const broken = all.flatMap((l) => {
      const why = brokenLink(l);
      return why === undefined ? [] : [`${l.file}:${l.line}: (${l.target}) ${why}`];
    });
    assert.deepEqual(broken, []);
  });

  it('links only files that ship in the VSIX under their own name, as VS Code opens them there', () => {
    // .vscodeignore ships what its `!` lines name (`folder/**` or one file); vsce renames these three.
    const renamedByVsce = new Set(['README.md', 'CHANGELOG.md', 'LICENSE']);
    const shipped = read('.vscodeignore')
      .split('\n')
      .filter((l) => l.startsWith('!'))
      .map((l) => l.slice(1).trim());
    const ships = (rel: string): boolean =>
      !renamedByVsce.has(rel) && shipped.some((p) => (p.endsWith('/**') ? `${rel}/`.startsWith(p.slice(0, -2)) : p === rel));
    const wrong = markdownFiles
      .flatMap(links)
      .filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l.target) && !l.target.startsWith('#'))
      .map((l) => ({ l, rel: path.relative(root, path.resolve(path.dirname(path.join(root, l.file)), decodeURIComponent(l.target.split('#')[0]!))) }))
      .filter(({ rel }) => !ships(rel))
      .map(({ l, rel }) => `${l.file}:${l.line}: ${rel}${renamedByVsce.has(rel) ? ' (vsce renames it in the VSIX)' : ' (not in the VSIX)'}`);
    assert.deepEqual(wrong, []);
  });

  it('shows only screenshots that exist, and every screenshot of media/screenshots somewhere', () => {
    const shown = new Set(
      markdownFiles.flatMap((f) =>
        links(f)
          .filter((l) => l.image && !/^[a-z]+:/i.test(l.target))
          .map((l) => path.relative(root, path.resolve(path.dirname(path.join(root, f)), l.target))),
      ),
    );
    assert.deepEqual([...shown].filter((p) => !fs.existsSync(path.join(root, p))), []);
    // The walkthrough's step images are shown by the walkthrough, not by the docs.
    const unshown = fs
      .readdirSync(path.join(root, 'media', 'screenshots'))
      .filter((f) => f.endsWith('.png') && !f.startsWith('walkthrough-'))
      .map((f) => path.join('media', 'screenshots', f))
      .filter((p) => !shown.has(p));
    assert.deepEqual(unshown, [], 'screenshots no page shows');
  });

  it('gives headings the anchors GitHub gives them', () => {
    assert.equal(slug('Bulk updates: safety'), 'bulk-updates-safety');
    assert.equal(slug('Before/after preview and undo'), 'beforeafter-preview-and-undo');
    assert.equal(slug('CSV/TSV import and export'), 'csvtsv-import-and-export');
    assert.equal(slug('Add Condition…'), 'add-condition');
    assert.equal(slug('Sandbox-only endpoints — not part of the service API'), 'sandbox-only-endpoints--not-part-of-the-service-api');
    assert.equal(slug('Performance (measured, bench/results)'), 'performance-measured-benchresults');
    assert.equal(slug('`workItemStudio.serviceUrl` and 日本語'), 'workitemstudioserviceurl-and-日本語');
    assert.deepEqual([...anchors('# A\n## A\n```\n# A\n```\n### A\n')], ['a', 'a-1', 'a-2']);
  });
});
