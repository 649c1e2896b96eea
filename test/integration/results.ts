// The shapes the integration run reports (events while running, results at the end) and their
// mocha-like formatting. No vscode import: the offline runner (plain Node) uses it too.

export interface TestResult {
  title: string;
  fullTitle: string;
  file?: string;
  state: 'passed' | 'failed' | 'pending';
  durationMs?: number;
  error?: string;
}

export type RunEvent =
  | { type: 'harness-start'; pid: number; node: string }
  | { type: 'suite-start'; title: string; depth: number }
  | { type: 'test'; result: TestResult; depth: number }
  | { type: 'end'; passed: number; failed: number; pending: number };

export interface RunResults {
  passed: number;
  failed: number;
  pending: number;
  tests: TestResult[];
  files: string[];
  /** Uncaught errors of other extensions' network calls (telemetry etc.) that did not fail a test. */
  ignoredErrors: string[];
  durationMs: number;
  /** `plainErrors`: the sandboxes of this extension host answer failures with `[{"message"}]` only (WIS_SANDBOX_PLAIN_ERRORS). */
  environment: { vscodeVersion: string; appName: string; uiKind: string; node: string; plainErrors?: boolean };
  /** Time of the explicit `activate()` (module load + activate) when the extension was not yet active and it succeeded. */
  activationMs?: number;
}

/** Formats one event as a mocha-like line (shared with the offline runner's output). */
export function formatEvent(e: RunEvent): string | undefined {
  const indent = (d: number) => '  '.repeat(d + 1);
  switch (e.type) {
    case 'suite-start':
      return `\n${indent(e.depth)}${e.title}`;
    case 'test': {
      const r = e.result;
      const mark = r.state === 'passed' ? '✔' : r.state === 'failed' ? '✖' : '-';
      const ms = r.durationMs !== undefined && r.durationMs > 75 ? ` (${r.durationMs}ms)` : '';
      return `${indent(e.depth)}${mark} ${r.title}${ms}`;
    }
    default:
      return undefined;
  }
}
