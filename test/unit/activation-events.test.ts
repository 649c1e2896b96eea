import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

// The extension activates on JSON documents, so that a request document opened from
// disk (or restored with the window) gets its CodeLens and checks at once, and when a
// result view, a Before/After view or a work item table is restored; its views and commands activate it too. Activation stays
// cheap for unrelated JSON files: test/unit/activation-lazy.test.ts checks that it
// loads none of the schemas, the HTTP client, the bulk engine or the sandbox.
describe('manifest: activation', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
    activationEvents?: string[];
    contributes: { views?: Record<string, { id: string }[]>; commands?: { command: string }[] };
  };

  it('activates on JSON documents and on restoring a result view, a Before/After view or a work item table (views and commands activate it otherwise)', () => {
    assert.deepEqual(manifest.activationEvents, ['onLanguage:json', 'onWebviewPanel:workItemStudio.results', 'onWebviewPanel:workItemStudio.valuesPreview', 'onWebviewPanel:workItemStudio.table']);
  });

  it('contributes the views and commands that activate it', () => {
    const views = Object.values(manifest.contributes.views ?? {}).flat().map((v) => v.id);
    assert.ok(views.includes('workItemStudio.organizations') && views.includes('workItemStudio.processCategories'), views.join(', '));
    assert.ok((manifest.contributes.commands ?? []).some((c) => c.command === 'workItemStudio.sendUpdate'));
  });
});
