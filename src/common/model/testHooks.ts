// When the extension's test hooks exist: the exported `setPrompts` (answers the safety dialogs of
// Send, Resume, Retry and undo instead of a person) and the commands that press the Before/After
// view's buttons. They are for tests only: present when VS Code runs the extension in development
// or test mode, or when VS Code itself was started with WIS_TEST_HOOKS=1 (the integration
// runners do that for the packaged extension); in normal use they are absent, so no other
// extension can answer those dialogs or press Send. No vscode import.

/** The environment variable that turns the hooks on for a packaged extension. */
export const TEST_HOOKS_ENV = 'WIS_TEST_HOOKS';

/** Whether the hooks are on: `production` is `context.extensionMode === ExtensionMode.Production`. */
export function testHooksOn(production: boolean, env: Readonly<Record<string, string | undefined>>): boolean {
  return !production || env[TEST_HOOKS_ENV] === '1';
}
