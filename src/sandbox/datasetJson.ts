// The data set as JSON text in pieces (the state file and GET /_sandbox/dump): made
// while it is written, one piece per element of each top-level list, so a data set
// of 1,000,000 work items is never one string (V8 cannot hold a string of about
// 1 GB, which is what such a data set is as JSON). No vscode import.

/**
 * JSON text of `data` in pieces. `lines: false` gives exactly `JSON.stringify(data)`;
 * `lines: true` (the state file) puts each member of the data set and each element of
 * its lists on a line of its own, so the file can be read and compared line by line.
 * The caller must not change `data` until the pieces have all been read.
 */
export function* datasetJsonPieces(data: object, options: { lines?: boolean } = {}): Generator<string> {
  const lines = options.lines === true;
  const memberStart = lines ? '\n ' : '';
  const elementStart = lines ? '\n  ' : '';
  yield '{';
  let first = true;
  for (const [key, value] of Object.entries(data)) {
    const text = Array.isArray(value) ? undefined : jsonOf(value);
    if (!Array.isArray(value) && text === undefined) continue; // as JSON.stringify: members without a JSON value are left out
    yield `${first ? '' : ','}${memberStart}${JSON.stringify(key)}:${lines ? ' ' : ''}`;
    first = false;
    if (!Array.isArray(value)) {
      yield text!;
      continue;
    }
    if (value.length === 0) {
      yield '[]';
      continue;
    }
    yield '[';
    for (let i = 0; i < value.length; i++) yield `${i === 0 ? '' : ','}${elementStart}${jsonOf(value[i]) ?? 'null'}`;
    yield lines ? '\n ]' : ']';
  }
  yield first || !lines ? '}' : '\n}';
}

function jsonOf(value: unknown): string | undefined {
  return JSON.stringify(value) as string | undefined;
}

/** Pieces joined into strings of about `size` characters (fewer, larger writes). */
export function* joinedPieces(pieces: Iterable<string>, size = 1 << 20): Generator<string> {
  let held: string[] = [];
  let length = 0;
  for (const p of pieces) {
    held.push(p);
    length += p.length;
    if (length >= size) {
      yield held.join('');
      held = [];
      length = 0;
    }
  }
  if (held.length > 0) yield held.join('');
}
