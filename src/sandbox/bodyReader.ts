// Reading a request body: the raw bytes up to a limit (a 413 after draining, a 408
// when it does not arrive in time), a form-encoded body, and a JSON body checked for
// depth before parsing, with the line, column and problem of a syntax error. No
// vscode import.
import type * as http from 'node:http';
import { HttpProblem, problem } from './reply';
import { afterWaitingInput } from './protocol';

/** Deepest nesting of objects and arrays accepted in a JSON body. */
export const MAX_JSON_DEPTH = 64;
/**
 * A body over the limit is still read (and dropped) up to this many bytes, so the
 * client has finished sending and reads the 413; a larger one is answered at once
 * and its connection closed.
 */
export const MAX_DRAIN_BYTES = 64 * 1024 * 1024;

/**
 * Offset and description of the first syntax error in `text` (strict JSON), or
 * undefined when none is found. V8's JSON.parse message does not always carry a position.
 */
export function locateJsonError(text: string): { offset: number; problem: string } | undefined {
  let i = 0;
  class Stop {
    constructor(
      readonly offset: number,
      readonly problem: string,
    ) {}
  }
  const fail = (problem: string): never => {
    throw new Stop(i, i >= text.length ? `${problem}, but the text ends` : `${problem}, found ${JSON.stringify(text[i])}`);
  };
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const literal = (word: string) => {
    for (const ch of word) {
      if (text[i] !== ch) fail(`expected ${word}`);
      i++;
    }
  };
  const str = () => {
    i++;
    for (;;) {
      if (i >= text.length) fail('unterminated string: expected "');
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c < 0x20) fail('control character in a string');
      if (c === 0x5c) {
        i++;
        const e = text[i];
        if (e === 'u') {
          for (let k = 1; k <= 4; k++) if (!/[0-9a-fA-F]/.test(text[i + k] ?? '')) ((i += k), fail('expected 4 hex digits after \\u'));
          i += 5;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i++;
        else fail('invalid escape in a string');
      } else i++;
    }
  };
  const digits = () => {
    if (!/[0-9]/.test(text[i] ?? '')) fail('expected a digit');
    while (/[0-9]/.test(text[i] ?? '')) i++;
  };
  const num = () => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else digits();
    if (text[i] === '.') {
      i++;
      digits();
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      digits();
    }
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a member name in double quotes');
        str();
        ws();
        if (text[i] !== ':') fail('expected ":"');
        i++;
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail('expected "," or "}"');
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail('expected "," or "]"');
      }
    }
    if (c === '"') return str();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return num();
    fail('expected a value');
  };
  try {
    value();
    ws();
    if (i < text.length) fail('expected the end of the text');
    return undefined;
  } catch (e) {
    if (e instanceof Stop) return { offset: e.offset, problem: e.problem };
    return undefined; // e.g. nesting too deep for the scanner
  }
}

/**
 * Where a JSON text first nests deeper than `max` objects and arrays, or undefined.
 * A linear scan (strings skipped), run before JSON.parse, so a body of 100,000
 * nested brackets is a clear 400, never a stack overflow in a later recursive step.
 */
export function jsonDepthExceeded(text: string, max: number): { position: number } | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return { position: i };
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return undefined;
}

function jsonParseError(text: string, e: unknown): HttpProblem {
  const msg = e instanceof Error ? e.message : String(e);
  const found = locateJsonError(text);
  const m = /position (\d+)/.exec(msg);
  const pos = found?.offset ?? (m ? Number(m[1]) : undefined);
  if (pos === undefined) return problem(400, 'MALFORMED_JSON', `the request body is not valid JSON: ${msg}`, { params: { line: '?', column: '?', problem: msg } });
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  const column = pos - before.lastIndexOf('\n');
  return problem(400, 'MALFORMED_JSON', `the request body is not valid JSON at line ${line}, column ${column} (position ${pos}): ${found?.problem ?? msg}`, {
    position: pos,
    params: { line, column, position: pos, problem: found?.problem ?? msg },
  });
}

/**
 * Reads a request body up to `limit` bytes. Over the limit, the rest is read and
 * dropped (up to MAX_DRAIN_BYTES) before the 413 is answered, so a client still
 * uploading reads the answer instead of a reset; the connection is closed after it.
 * A body that has not arrived `bodyTimeoutMs` after its headers is a 408.
 */
async function readRaw(req: http.IncomingMessage, limit: number, bodyTimeoutMs: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  const tooLarge = (size?: number) =>
    problem(
      413,
      'BODY_TOO_LARGE',
      size !== undefined ? `the request body (${size} bytes) is larger than the limit of ${limit} bytes` : `the request body is larger than the limit of ${limit} bytes`,
      { params: size !== undefined ? { limit, size } : { limit } },
      { Connection: 'close' },
    );
  if (Number.isFinite(declared) && declared > Math.max(limit, MAX_DRAIN_BYTES)) throw tooLarge(declared);
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = Number.isFinite(declared) && declared > limit;
    // After the input already waiting is read: a body that came while the sandbox was busy is no timeout.
    const timer = setTimeout(() => afterWaitingInput(() => {
      const seconds = Math.round(bodyTimeoutMs / 100) / 10;
      finish(() => reject(problem(408, 'BODY_TIMEOUT', `the request body did not arrive within ${seconds} seconds`, { params: { seconds } }, { Connection: 'close' })));
    }), bodyTimeoutMs);
    let done = false;
    const finish = (then: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      then();
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (!over && size > limit) {
        over = true;
        chunks.length = 0;
      }
      if (over) {
        // Dropped; past the drain bound, answer now and close.
        if (size > MAX_DRAIN_BYTES) finish(() => reject(tooLarge()));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => finish(() => (over ? reject(tooLarge(Number.isFinite(declared) ? declared : size)) : resolve(Buffer.concat(chunks)))));
    req.on('error', (e) => finish(() => reject(e)));
    // The client went away before its body was read (while a fault held the request, say):
    // nothing is applied, at once rather than after the body timeout.
    const gone = () => {
      const detail = 'the client closed the connection before its body was read';
      finish(() => reject(problem(400, 'BAD_REQUEST', detail, { params: { detail } }, { Connection: 'close' })));
    };
    req.on('close', () => {
      if (!req.readableEnded) gone();
    });
    if (req.destroyed) gone();
  });
}

export const readFormOf = (req: http.IncomingMessage, bodyTimeoutMs: number) => async (limit: number): Promise<Record<string, string> | undefined> => {
  const text = (await readRaw(req, limit, bodyTimeoutMs)).toString('utf8');
  if (text.trim() === '') return undefined;
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [k, v] of new URLSearchParams(text)) {
    if (Object.prototype.hasOwnProperty.call(out, k)) {
      const problemText = 'the member is given twice in the form';
      throw problem(400, 'INVALID_BODY', `${k}: ${problemText}`, { field: k, params: { field: k, problem: problemText } });
    }
    out[k] = v;
  }
  return { ...out };
};

export const readBodyOf = (req: http.IncomingMessage, bodyTimeoutMs: number) => async (limit: number): Promise<unknown> => {
  const raw = await readRaw(req, limit, bodyTimeoutMs);
  const size = raw.length;
  if (size === 0) return undefined;
  const type = req.headers['content-type'];
  if (type !== undefined && !/json/i.test(type)) {
    throw problem(415, 'UNSUPPORTED_MEDIA_TYPE', `the request body must be JSON (Content-Type: application/json), got Content-Type ${JSON.stringify(type)}`, {
      params: { contentType: type },
    });
  }
  let text = raw.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '') return undefined;
  const deep = jsonDepthExceeded(text, MAX_JSON_DEPTH);
  if (deep) {
    throw problem(400, 'JSON_TOO_DEEP', `the request body nests more than ${MAX_JSON_DEPTH} levels deep (at position ${deep.position}); at most ${MAX_JSON_DEPTH} levels are accepted`, {
      position: deep.position,
      params: { max: MAX_JSON_DEPTH, position: deep.position },
    });
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw jsonParseError(text, e);
  }
};
