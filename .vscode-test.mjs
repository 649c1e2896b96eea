// @vscode/test-cli configuration (`npm run test:integration`, or the VS Code "Extension Test
// Runner"): runs the same bundled integration suites as the offline runner
// (test/runners/offline.ts), in a VS Code that @vscode/test-electron downloads — for machines
// with internet access. Build the suites first: `tsx test/runners/build-tests.ts`.
import { defineConfig } from '@vscode/test-cli';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createWorkspace } from './test/runners/workspace.mjs';

const root = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  label: 'integration',
  files: 'dist/test/integration/*.test.js',
  version: process.env.WIS_VSCODE_VERSION ?? 'stable',
  extensionDevelopmentPath: root,
  // WIS_TEST_WORKSPACE: an existing folder (the offline runner only lists this configuration).
  workspaceFolder: process.env.WIS_TEST_WORKSPACE ?? createWorkspace(),
  launchArgs: ['--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
  mocha: {
    ui: 'bdd',
    timeout: 60_000,
    // Exports mochaGlobalSetup: activates the extension before the suites (its activationEvents are empty).
    require: [path.join(root, 'dist', 'test', 'integration', 'index.js')],
  },
});
