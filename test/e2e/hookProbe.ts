// Another extension, as a user might have installed one beside Work Item Studio: on startup it
// looks for Work Item Studio's test hooks (the exported setPrompts, the command that presses the
// Before/After view's Send) and writes what it found to a file. Staged in the test's run folder,
// never shipped. In normal use it must find neither.
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface HookProbeResult {
  found: boolean;
  activated: boolean;
  /** The keys of what Work Item Studio exported (null: nothing). */
  exports: string[] | null;
  pressCommand: boolean;
  error?: string;
}

const SCRIPT = `const vscode = require('vscode');
const fs = require('fs');
exports.activate = async () => {
  const out = { found: false, activated: false, exports: null, pressCommand: false };
  try {
    const ext = vscode.extensions.getExtension('workitem-studio.workitem-studio');
    out.found = !!ext;
    const api = ext ? await ext.activate() : undefined;
    out.activated = !!ext && ext.isActive;
    out.exports = api && typeof api === 'object' ? Object.keys(api) : null;
    out.pressCommand = (await vscode.commands.getCommands(true)).includes('workItemStudio.pressBeforeAfterButton');
  } catch (e) {
    out.error = String(e);
  }
  fs.writeFileSync(RESULT_FILE + '.tmp', JSON.stringify(out));
  fs.renameSync(RESULT_FILE + '.tmp', RESULT_FILE);
};
exports.deactivate = () => {};
`;

/** Stages the probe extension in `folder`; it writes its findings to `resultFile`. */
export function stageHookProbe(folder: string, resultFile: string): string {
  fs.mkdirSync(folder, { recursive: true });
  const manifest = {
    name: 'hook-probe',
    displayName: 'Hook probe (E2E only, never shipped)',
    description: 'Looks for Work Item Studio test hooks from another extension.',
    version: '0.0.0',
    publisher: 'workitem-studio-e2e',
    license: 'MIT',
    private: true,
    engines: { vscode: '^1.100.0' },
    main: './extension.js',
    activationEvents: ['onStartupFinished'],
    contributes: {},
  };
  fs.writeFileSync(path.join(folder, 'package.json'), JSON.stringify(manifest, null, 2));
  fs.writeFileSync(path.join(folder, 'extension.js'), `const RESULT_FILE = ${JSON.stringify(resultFile)};\n${SCRIPT}`);
  fs.writeFileSync(path.join(folder, 'README.md'), '# Hook probe\n\nFor the E2E tests only; never shipped.\n');
  return folder;
}

/** Waits for the probe's findings (it runs once the workbench has started). */
export async function readHookProbe(resultFile: string, timeoutMs = 60_000): Promise<HookProbeResult> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (fs.existsSync(resultFile)) return JSON.parse(fs.readFileSync(resultFile, 'utf8')) as HookProbeResult;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the hook probe wrote nothing to ${resultFile} within ${timeoutMs / 1000} s`);
}
