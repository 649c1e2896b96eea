// Plain errors: the sandbox answering every failure the way the official help says a
// client must be ready for (codes and messages are no contract, official-reference.md
// sections 1 "Restrictions" and 12): the same status, a body of `[{"message": "..."}]`
// entries only, without `code`, `params`, `field`, `itemId`, `rule` or anything else.
// No vscode import.

/** The environment variable that turns plain errors on for every sandbox started without an explicit `plainErrors` (e.g. in the extension host of the plain integration tier). */
export const PLAIN_ERRORS_ENV = 'WIS_SANDBOX_PLAIN_ERRORS';

/** Whether the environment asks for plain errors (`WIS_SANDBOX_PLAIN_ERRORS=1` or `true`). */
export function plainErrorsFromEnvironment(env: NodeJS.ProcessEnv = process.env): boolean {
  const v = env[PLAIN_ERRORS_ENV]?.trim().toLowerCase();
  return v === '1' || v === 'true' || v === 'yes';
}

export interface PlainErrorEntry {
  message: string;
}

function messageOf(entry: unknown): string {
  if (typeof entry === 'string') return entry;
  if (entry !== null && typeof entry === 'object' && !Array.isArray(entry)) {
    const m = (entry as { message?: unknown }).message;
    if (typeof m === 'string' && m !== '') return m;
  }
  return entry === undefined ? 'the request failed' : JSON.stringify(entry);
}

/**
 * A failure body reduced to `[{"message"}]` entries: one per entry of an array body,
 * one for an object or any other body; never empty.
 */
export function plainErrorBody(body: unknown): PlainErrorEntry[] {
  const entries = Array.isArray(body) ? body : [body];
  const out = entries.map((e) => ({ message: messageOf(e) }));
  return out.length > 0 ? out : [{ message: 'the request failed' }];
}

/** A failure body given as JSON text (or pieces of it) reduced the same way; text that is not JSON becomes the message. */
export function plainErrorJson(text: string): string {
  let body: unknown;
  try {
    body = text.trim() === '' ? undefined : JSON.parse(text);
  } catch {
    body = text;
  }
  return JSON.stringify(plainErrorBody(body));
}

/** Whether a request path is one of the sandbox's own control routes (/_sandbox/...), which keep their detailed errors. */
export function isSandboxControlPath(url: string | undefined): boolean {
  const path = (url ?? '/').split('?')[0]!;
  return /^\/_sandbox(\/|$)/i.test(path);
}
