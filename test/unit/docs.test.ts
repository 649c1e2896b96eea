import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

// The README is part of the product: every contributed command and setting is documented.
const root = path.resolve(__dirname, '..', '..');
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

function section(title: string): string {
  const start = readme.indexOf(`\n## ${title}\n`);
  assert.ok(start >= 0, `README has no "## ${title}" section`);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

describe('README', () => {
  it('opens with the two commands for a fresh machine', () => {
    const firstScreen = readme.split('\n').slice(0, 20).join('\n');
    assert.match(firstScreen, /npm ci && npm start/);
    assert.match(firstScreen, /npm ci && npm test/);
    assert.equal(manifest.scripts.test !== undefined && manifest.scripts.start !== undefined, true);
    assert.match(fs.readFileSync(path.join(root, '.ci', 'run'), 'utf8'), /^npm test$/m);
  });

  it('documents every contributed command in the Commands section', () => {
    const commands = section('Commands');
    const missing = (manifest.contributes.commands as { command: string }[])
      .map((c) => c.command)
      .filter((id) => !commands.includes(`\`${id}\``));
    assert.deepEqual(missing, [], 'commands missing from the README');
  });

  it('documents every setting in the Settings section', () => {
    const settings = section('Settings');
    const keys = [manifest.contributes.configuration]
      .flat()
      .flatMap((c: { properties: Record<string, unknown> }) => Object.keys(c.properties));
    const missing = keys.filter((k) => !settings.includes(`\`${k}\``));
    assert.deepEqual(missing, [], 'settings missing from the README');
  });

  it('shows only screenshots that exist', () => {
    const images = [...readme.matchAll(/\]\((media\/[^)\s]+\.png)\)/g)].map((m) => m[1]);
    assert.ok(images.length > 0);
    assert.deepEqual(images.filter((p) => !fs.existsSync(path.join(root, p))), []);
  });
});
