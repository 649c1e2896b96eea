// Reading a state file too large to be one string (V8 holds at most about 512 Mi
// characters): the lines the sandbox itself writes (datasetJsonPieces with
// `lines: true`: each member of the data set and each element of its lists on a line
// of its own) are parsed one at a time. No vscode import; node:fs only when called.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/** State files up to this many bytes are read as one text; larger ones line by line. */
export const WHOLE_TEXT_MAX_BYTES = 256 * 1024 * 1024;

/** A line of a large state file that is not in the sandbox's own layout. */
export class LayoutError extends Error {}

/**
 * The JSON value of a file in the sandbox's state-file layout, read line by line:
 * `{`, then ` "member": value,` or ` "member": [` … `  element,` … ` ],`, then `}`.
 * Throws a LayoutError naming the line for anything else (a file written by hand
 * or by another tool: such a file must be smaller than {@link WHOLE_TEXT_MAX_BYTES}).
 */
export async function readStateLines(file: string): Promise<Record<string, unknown>> {
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  const out: Record<string, unknown> = {};
  let n = 0;
  let state: 'start' | 'members' | 'end' = 'start';
  let list: unknown[] | undefined;
  const bad = (why: string): never => {
    throw new LayoutError(`line ${n}: ${why} (a state file larger than ${WHOLE_TEXT_MAX_BYTES / 1024 / 1024} MB is read line by line and must have the layout the sandbox writes)`);
  };
  const parse = (text: string): unknown => {
    try {
      return JSON.parse(text);
    } catch (e) {
      return bad(`not valid JSON: ${(e as Error).message}`);
    }
  };
  for await (let line of lines) {
    n++;
    if (n === 1 && line.charCodeAt(0) === 0xfeff) line = line.slice(1);
    if (state === 'start') {
      if (line.trim() !== '{') bad('expected "{"');
      state = 'members';
      continue;
    }
    if (state === 'end') {
      if (line.trim() !== '') bad('expected the end of the file after "}"');
      continue;
    }
    if (list) {
      const t = line.trim();
      if (t === ']' || t === '],') {
        list = undefined;
        continue;
      }
      list.push(parse(t.endsWith(',') ? t.slice(0, -1) : t));
      continue;
    }
    const t = line.trim();
    if (t === '}') {
      state = 'end';
      continue;
    }
    const m = /^("(?:[^"\\]|\\.)*")\s*:\s*(.*)$/.exec(t);
    if (!m) bad('expected a member: "name": value');
    const name = parse(m![1]!) as string;
    const rest = m![2]!;
    if (rest === '[') {
      list = [];
      out[name] = list;
    } else out[name] = parse(rest.endsWith(',') ? rest.slice(0, -1) : rest);
  }
  if (state !== 'end' || list) bad('the file ends before its closing "}"');
  return out;
}
