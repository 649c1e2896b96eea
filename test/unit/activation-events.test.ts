import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

// Activation stays cheap: no activation event of our own. VS Code activates the
// extension from its contributions (its views and its commands), never on start-up
// or on every JSON file.
describe('manifest: activation', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
    activationEvents?: string[];
    contributes: { views?: Record<string, { id: string }[]>; commands?: { command: string }[] };
  };

  it('declares only the restoring of result views as an activation event (views and commands activate it otherwise)', () => {
    assert.deepEqual(manifest.activationEvents, ['onWebviewPanel:workItemStudio.results']);
  });

  it('contributes the views and commands that activate it', () => {
    const views = Object.values(manifest.contributes.views ?? {}).flat().map((v) => v.id);
    assert.ok(views.includes('workItemStudio.organizations') && views.includes('workItemStudio.processCategories'), views.join(', '));
    assert.ok((manifest.contributes.commands ?? []).some((c) => c.command === 'workItemStudio.sendUpdate'));
  });
});
