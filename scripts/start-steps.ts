// What `npm start` prints, and the order of its steps; the steps themselves are given
// (scripts/start.ts gives the real ones, test/unit/start-script.test.ts stubs), so the
// output can be tested without installing or starting anything.
//
// One line per step ("  Building the extension… done"). Everything the steps' tools print
// (npm, apt-get, the setup script, code-server's installer) goes to one log file; the
// terminal shows it only when a step fails: the tail of what that step wrote, and where
// the full log is.
import * as fs from 'node:fs';

/** The label every part of the product gives the sandbox `npm start` serves. */
export const START_SANDBOX_LABEL = 'Sandbox (started by npm start)';

export interface StartSteps {
  /** A desktop VS Code to open instead of the browser workbench (undefined: code-server). */
  desktopCode(): string | undefined;
  /** Installs the browser workbench on first use (code-server, Node 24, Chromium); what it installed now. */
  prepareWorkbench(): Promise<{ installed: string[] }>;
  build(): Promise<void>;
  /** Packages the extension and installs it into the browser workbench. */
  installExtension(): Promise<void>;
  /** Starts the sandbox and writes the demo workspace that points at it. */
  startSandbox(): Promise<{ url: string; workspace: string }>;
  /** Starts the browser workbench on the workspace; the URL to open. */
  startWorkbench(workspace: string): Promise<{ url: string }>;
  /** Opens the workspace in the desktop VS Code (extension development mode). */
  openDesktop(code: string, workspace: string): Promise<void>;
}

export interface StartOptions {
  steps: StartSteps;
  /** Where the steps' tools write (shown on failure). */
  logFile: string;
  /** How the log file is named to the user (e.g. relative to the repository). */
  logName?: string;
  write(text: string): void;
  signIn: { loginName: string; password: string };
}

/** Thrown after a failed step was reported (the caller exits without printing it again). */
export class StepFailed extends Error {
  constructor(readonly step: string, cause: unknown) {
    super(`${step} failed: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/** Lines of the log file that a failing step wrote, at most `max`. */
function tailSince(file: string, offset: number, max: number): string[] {
  let text = '';
  try {
    const all = fs.readFileSync(file);
    text = all.subarray(Math.min(offset, all.length)).toString('utf8');
  } catch {
    return [];
  }
  const lines = text.replace(/\s+$/, '').split('\n');
  return lines.length === 1 && lines[0] === '' ? [] : lines.slice(-max);
}

function size(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/**
 * Runs the steps of `npm start` and prints one line for each. Resolves with the URL to open
 * (undefined for the desktop VS Code); rejects with StepFailed after printing what failed.
 */
export async function runStart(o: StartOptions): Promise<{ url?: string; workspace: string; sandboxUrl: string }> {
  const logName = o.logName ?? o.logFile;
  const step = async <T>(title: string, fn: () => Promise<T>, outcome: (value: T, ms: number) => string = () => 'done'): Promise<T> => {
    o.write(`  ${title}… `);
    const from = size(o.logFile);
    const started = Date.now();
    try {
      const value = await fn();
      o.write(`${outcome(value, Date.now() - started)}\n`);
      return value;
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      o.write('failed\n');
      const tail = tailSince(o.logFile, from, 20);
      // The step's own output when it wrote any, else the error (which carries the tail of a command's output).
      const shown = tail.length > 0 ? [message.split('\n')[0]!, ...tail] : message.split('\n').slice(-21);
      for (const line of shown) o.write(`    ${line}\n`);
      o.write(`  Full log: ${logName}\n`);
      throw new StepFailed(title, e);
    }
  };

  o.write(`Work Item Studio: starting the demo (details go to ${logName})\n`);
  const desktop = o.steps.desktopCode();
  if (!desktop) {
    await step(
      'Preparing the browser workbench (installed once: about 5 minutes the first time)',
      () => o.steps.prepareWorkbench(),
      (r, ms) => (r.installed.length > 0 ? `installed ${r.installed.join(', ')} (${duration(ms)})` : 'ready'),
    );
  }
  await step('Building the extension', () => o.steps.build());
  if (!desktop) await step('Installing the extension into the workbench', () => o.steps.installExtension());
  const sandbox = await step('Starting the sandbox with demo data', () => o.steps.startSandbox(), (r) => `${START_SANDBOX_LABEL} at ${r.url}`);
  const signIn = `  Sign in with login name "${o.signIn.loginName}" and password "${o.signIn.password}".`;
  if (desktop) {
    await step('Opening VS Code with the extension', () => o.steps.openDesktop(desktop, sandbox.workspace));
    o.write(['', 'VS Code is open on the demo workspace, with the Work Item Studio view.', signIn, '  Ctrl-C here stops the sandbox.', ''].join('\n'));
    return { workspace: sandbox.workspace, sandboxUrl: sandbox.url };
  }
  const workbench = await step('Opening the workbench', () => o.steps.startWorkbench(sandbox.workspace));
  o.write(
    [
      '',
      `Open ${workbench.url} in your browser.`,
      `  The Work Item Studio view is shown, connected to "${START_SANDBOX_LABEL}".`,
      signIn,
      '  Ctrl-C here stops the workbench and the sandbox.',
      '',
    ].join('\n'),
  );
  return { url: workbench.url, workspace: sandbox.workspace, sandboxUrl: sandbox.url };
}

/** The display language asked for with `--locale xx` (or `--locale=xx`), undefined for VS Code's default. */
export function localeArg(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = a === '--locale' ? argv[i + 1] : a.startsWith('--locale=') ? a.slice('--locale='.length) : undefined;
    if (value === undefined) continue;
    if (!/^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i.test(value)) throw new Error(`--locale wants a language tag such as ja or en, not "${value}"`);
    return value.toLowerCase();
  }
  return undefined;
}
