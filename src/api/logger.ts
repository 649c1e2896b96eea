// The small logger interface that the vscode-free layers (api, bulk, sandbox) take.
// A vscode LogOutputChannel satisfies it structurally.
export interface Logger {
  trace(message: string, ...args: unknown[]): void;
  debug(message: string, ...args: unknown[]): void;
  info(message: string, ...args: unknown[]): void;
  warn(message: string, ...args: unknown[]): void;
  error(message: string | Error, ...args: unknown[]): void;
}

const noop = (): void => undefined;
export const nullLogger: Logger = { trace: noop, debug: noop, info: noop, warn: noop, error: noop };

/**
 * A logger that passes every line (and every string or error argument) through
 * `scrub` first: the last step before text reaches the log, so a secret that some
 * message still held (echoed by a server, hidden behind an encoding) is not written.
 */
export function redactingLogger(inner: Logger, scrub: (text: string) => string): Logger {
  const clean = (args: unknown[]): unknown[] => args.map((a) => (typeof a === 'string' ? scrub(a) : a instanceof Error ? scrub(a.stack ?? a.message) : a));
  return {
    trace: (m, ...a) => inner.trace(scrub(m), ...clean(a)),
    debug: (m, ...a) => inner.debug(scrub(m), ...clean(a)),
    info: (m, ...a) => inner.info(scrub(m), ...clean(a)),
    warn: (m, ...a) => inner.warn(scrub(m), ...clean(a)),
    error: (m, ...a) => inner.error(typeof m === 'string' ? scrub(m) : scrub(m.stack ?? m.message), ...clean(a)),
  };
}
