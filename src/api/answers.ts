// Reading a 2xx answer: its JSON (or the list decoded as it arrived) checked
// against the operation's schema; an answer of another shape is an
// `invalid-response` ServiceError whose messages are redacted of the request's
// secrets. No vscode import, no I/O.
import type { z } from 'zod';
import { fastChecker, lastCheckFilledDefaults } from '../schema/fast-check';
import { ServiceError } from './errors';
import { zodMessages } from './failures';
import { redact, secretVariants } from './http';
import { keepRawJson } from './rawJson';
import type { RawResponse } from './transport';

/** A 2xx body read by its own reader (AnswerSpec.readBody) is not of the expected shape; `messages` say why. */
export class AnswerShapeError extends Error {
  constructor(readonly messages: string[]) {
    super(messages.join('; '));
  }
}

/** What reading an answer needs of its request. */
export interface AnswerSpec<T> {
  method: string;
  path: string;
  schema: z.ZodType<T>;
  /** Do not quote the response body in an invalid-response error (it may hold a token). */
  sensitiveResponse?: boolean;
  /** Keep the answer's JSON text beside the parsed answer (rawJsonOf) when it is unchanged by the check. */
  keepText?: boolean;
  /**
   * Reads a 2xx body itself (not streamed), instead of JSON.parse and the schema: its result is
   * the answer; undefined: read as usual (for the usual message); AnswerShapeError: an
   * `invalid-response` with its messages.
   */
  readBody?: (body: Buffer) => T | undefined;
}

/** The answer, checked (known members in place, no copy); throws an `invalid-response` ServiceError otherwise. */
export function readAnswer<T>(spec: AnswerSpec<T>, res: RawResponse, secrets: string[]): T {
  const { method, path } = spec;
  if (res.decoded && 'error' in res.decoded) {
    throw new ServiceError({ kind: 'invalid-response', method, path, status: res.status, messages: [redact(res.decoded.error, secretVariants(secrets))] });
  }
  if (spec.readBody && !res.decoded) {
    let read: T | undefined;
    try {
      read = spec.readBody(res.body);
    } catch (e) {
      if (!(e instanceof AnswerShapeError)) throw e;
      throw new ServiceError({ kind: 'invalid-response', method, path, status: res.status, messages: e.messages.map((m) => redact(m, secretVariants(secrets))) });
    }
    if (read !== undefined) return read;
  }
  const text = res.decoded ? '' : res.body.toString('utf8');
  let json: unknown;
  try {
    json = res.decoded ? res.decoded.value : text.trim() === '' ? undefined : JSON.parse(text);
  } catch {
    const shown = spec.sensitiveResponse ? '' : `: ${redact(text, secretVariants(secrets)).trim().slice(0, 200)}`;
    throw new ServiceError({ kind: 'invalid-response', method, path, status: res.status, messages: [`the body is not JSON${shown}`] });
  }
  if (json === undefined) {
    throw new ServiceError({ kind: 'invalid-response', method, path, status: res.status, messages: ['the body is empty; a JSON object was expected'] });
  }
  // Known members checked in place, no copy (large answers); zod decides otherwise, with its message.
  if (fastChecker(spec.schema)?.(json)) {
    // The text of an answer kept as read (a bulk journal writes it instead of serializing the answer again).
    if (spec.keepText && typeof json === 'object' && json !== null && !lastCheckFilledDefaults()) keepRawJson(json, res.body);
    return json as T;
  }
  const parsed = spec.schema.safeParse(json);
  if (!parsed.success) {
    throw new ServiceError({ kind: 'invalid-response', method, path, status: res.status, messages: zodMessages(parsed.error, 'response').map((m) => redact(m, secretVariants(secrets))) });
  }
  return parsed.data;
}
