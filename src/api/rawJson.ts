// The JSON text a parsed answer was read from, kept beside the object (no vscode
// import). A bulk job writes each update answer to its journal: with the text the
// client read, it writes that text instead of serializing a 1000-item answer again.

const texts = new WeakMap<object, string>();

/**
 * Remembers `text` as the JSON of `value` (an answer of 4 KiB or more) when writing
 * the text is the same as serializing the value: one line (a change-log line may not hold a line break) and
 * the value as parsed, unchanged by the check (no default filled in).
 */
export function keepRawJson(value: object, text: string): void {
  // A small answer costs less to serialize again than to keep.
  if (text.length < 4096 || text.includes('\n') || text.includes('\r')) return;
  texts.set(value, text.trim());
}

/** The JSON text `value` was parsed from, if kept. */
export function rawJsonOf(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? texts.get(value) : undefined;
}
