// The JSON text a parsed answer was read from, kept beside the object as the bytes
// that arrived (no vscode import). A bulk job writes each update answer to its
// journal: with those bytes it writes them as they are, instead of serializing a
// 1000-item answer again and encoding that text to UTF-8 once more.

const kept = new WeakMap<object, Uint8Array>();

/** Smallest answer kept: a small one costs less to serialize again than to keep. */
export const RAW_JSON_MIN_BYTES = 4096;

/**
 * Remembers `bytes` (the UTF-8 body `value` was parsed from, an answer of
 * {@link RAW_JSON_MIN_BYTES} or more) as the JSON of `value` when writing them is the
 * same as serializing the value: one line (no CR or LF byte inside: a change-log line
 * may not hold a line break), and the value as parsed, unchanged by the check (no
 * default filled in: the caller's part). Leading and trailing whitespace is left
 * out; the bytes are not copied (a view of the body).
 */
export function keepRawJson(value: object, bytes: Uint8Array): void {
  if (bytes.length < RAW_JSON_MIN_BYTES) return;
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const space = (b: number | undefined): boolean => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
  let start = 0;
  let end = buf.length;
  while (start < end && space(buf[start])) start++;
  while (end > start && space(buf[end - 1])) end--;
  const text = buf.subarray(start, end);
  if (text.indexOf(0x0a) >= 0 || text.indexOf(0x0d) >= 0) return;
  // A byte order mark would not be JSON in the middle of a line.
  if (text[0] === 0xef && text[1] === 0xbb && text[2] === 0xbf) return;
  kept.set(value, text);
}

/** The UTF-8 JSON text `value` was parsed from, if kept (do not change the bytes). */
export function rawJsonOf(value: unknown): Uint8Array | undefined {
  return typeof value === 'object' && value !== null ? kept.get(value) : undefined;
}
