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
