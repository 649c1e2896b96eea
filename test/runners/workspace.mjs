// Creates the throw-away workspace folder that every VS Code test run opens:
// a sample request document (good), an invalid one (for schema diagnostics) and,
// optionally, workspace settings (for example the service URL of a sandbox).
// Plain JavaScript so that .vscode-test.mjs (loaded without a TypeScript loader) can use it.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** A valid request document (the IDs are placeholders; tests that send use their own). */
export const GOOD_DOCUMENT = {
  description: 'Mark two work items complete',
  workItemIds: ['1', '2'],
  update: { setCompleted: true },
};

/** An invalid request document: wrong type for workItemIds, an unknown member, a wrong type. */
export const BAD_DOCUMENT = {
  workItemIds: true,
  update: { setCompleted: 'yes', notAMember: 1 },
};

/**
 * @param {{ dir?: string, settings?: Record<string, unknown>, files?: Record<string, unknown> }} [options]
 * @returns {string} the workspace folder
 */
export function createWorkspace(options = {}) {
  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'wis-workspace-'));
  fs.mkdirSync(dir, { recursive: true });
  const files = {
    'sample.workitems.json': GOOD_DOCUMENT,
    'invalid.workitems.json': BAD_DOCUMENT,
    ...(options.files ?? {}),
  };
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(dir, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2) + '\n');
  }
  if (options.settings) {
    fs.mkdirSync(path.join(dir, '.vscode'), { recursive: true });
    fs.writeFileSync(path.join(dir, '.vscode', 'settings.json'), JSON.stringify(options.settings, null, 2) + '\n');
  }
  return dir;
}
